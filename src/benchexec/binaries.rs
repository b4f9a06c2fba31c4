//! The solver binaries the generated runs need, checked in the execution
//! directory before anything is written (`generate` fails naming the solver,
//! its command and the path when one is missing or not executable).

use super::plan::solver_binary;
use crate::formats::generation::Manifest;
use crate::submission::{SolverLocation, Submission, archive_dir, command_for};
use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// One problem line per (solver, participation) with runs in `manifest` whose
/// binary (relative to `out`, or absolute) is missing, not a regular file, or
/// not executable. Bare names (`--solvers-on-path`) are found on `PATH` when the
/// runs start and are not checked.
pub fn binary_problems(
    out: &Path,
    submissions: &[&Submission],
    manifest: &Manifest,
    location: &SolverLocation,
) -> Vec<String> {
    let running: BTreeSet<(&str, usize)> = manifest
        .definitions
        .values()
        .flat_map(|d| {
            d.rundefinitions
                .values()
                .map(move |r| (d.solver.as_str(), r.participation))
        })
        .collect();
    let mut problems = Vec::new();
    for (solver, i) in running {
        let Some(sub) = submissions.iter().find(|s| s.name == solver) else {
            continue;
        };
        let Ok(command) = command_for(sub, i, location) else {
            continue;
        };
        let archive = archive_dir(sub, i, location);
        let binary = solver_binary(sub, i, archive.as_deref(), &command);
        if !binary.contains('/') {
            continue;
        }
        let path = out.join(&binary);
        let reason = match std::fs::metadata(&path) {
            Err(_) => "not found".to_string(),
            Ok(m) if !m.is_file() => "not a regular file".to_string(),
            Ok(m) if m.permissions().mode() & 0o111 == 0 => {
                format!(
                    "not executable (mode {:o})",
                    m.permissions().mode() & 0o7777
                )
            }
            Ok(_) => continue,
        };
        let written = sub
            .command_of(&sub.participations[i])
            .map(|c| {
                let mut argv = vec![c.binary.clone()];
                argv.extend(c.arguments.iter().cloned());
                serde_json::to_string(&argv).unwrap_or_default()
            })
            .unwrap_or_default();
        problems.push(format!(
            "solver '{solver}', participation {i}: command {written}: binary {}: {reason} \
             (fetch the archives first: smtcomp archives fetch --submissions DIR --exec EXECDIR)",
            path.display()
        ));
    }
    problems
}
