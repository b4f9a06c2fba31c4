//! Step 4, generation: the execution directory (BenchExec definitions, task
//! files, tool-info modules), with the solver archives installed.

use super::step::{StageResult, Step};
use crate::benchexec::{GenerateOptions, Generated, Manifest, SolverLocation, generate as plan};
use crate::model::Competition;
use crate::submission::Submission;
use anyhow::{Context, bail};
use std::path::Path;

/// What to generate.
#[derive(Debug, Clone)]
pub struct Generation<'a> {
    /// The competition definition.
    pub competition: &'a Competition,
    /// The submissions that run.
    pub submissions: &'a [&'a Submission],
    /// The prepared root.
    pub prepared: &'a Path,
    /// The execution directory (`EXECDIR`).
    pub exec: &'a Path,
    /// Test-mode limits.
    pub test: bool,
    /// Where the solvers' binaries are.
    pub location: SolverLocation,
    /// Unpacked solver archives: each subdirectory is copied to
    /// `EXECDIR/archives/`, where commands with a relative binary are looked up.
    pub archives: Option<&'a Path>,
}

/// Generates the execution directory; errors list every problem of the plan.
pub fn generate(g: &Generation<'_>) -> StageResult<Generated> {
    Step::Generation.scope(|| {
        let generated = plan(
            g.competition,
            g.submissions,
            &GenerateOptions {
                prepared: g.prepared.to_path_buf(),
                out: g.exec.to_path_buf(),
                test: g.test,
                location: g.location.clone(),
                binaries_from: None,
                max_tasks: None,
                // `install_archives` checks them once they are copied.
                check_binaries: false,
                skip_divisions: Default::default(),
            },
        )
        .map_err(|e| anyhow::anyhow!("cannot generate BenchExec definitions:\n{}", e.join("\n")))?;
        if let Some(archives) = g.archives {
            install_archives(archives, g.exec)?;
            check_solver_binaries(g.exec, &generated.manifest, Some(archives))?;
        }
        Ok(generated)
    })
}

/// Copies each directory of `archives` (unpacked solver archives) to
/// `EXECDIR/archives/` ([`check_solver_binaries`] then checks them).
pub fn install_archives(archives: &Path, exec: &Path) -> StageResult<()> {
    Step::Generation.scope(|| {
        if archives.is_dir() {
            for entry in walkdir::WalkDir::new(archives).sort_by_file_name() {
                let entry =
                    entry.with_context(|| format!("{}: cannot read", archives.display()))?;
                let rel = entry.path().strip_prefix(archives)?;
                let to = exec.join("archives").join(rel);
                if entry.file_type().is_dir() {
                    std::fs::create_dir_all(&to)
                        .with_context(|| format!("{}: cannot create", to.display()))?;
                } else {
                    std::fs::copy(entry.path(), &to).with_context(|| {
                        format!(
                            "{} -> {}: cannot copy",
                            entry.path().display(),
                            to.display()
                        )
                    })?;
                }
            }
        }
        Ok(())
    })
}

/// Every solver binary the definitions of `exec` name inside an unpacked
/// archive (`archives/<solver>/...`) is there: else the generation fails
/// here, naming the definition, the binary and the fix, instead of every run
/// failing later. `archives`: the workspace's `archives` key, if any.
pub fn check_solver_binaries(
    exec: &Path,
    manifest: &Manifest,
    archives: Option<&Path>,
) -> StageResult<()> {
    Step::Generation.scope(|| {
        let mut missing: Vec<String> = Vec::new();
        for (name, def) in &manifest.definitions {
            for rd in def.rundefinitions.values() {
                let Some(bin) = rd.command.iter().find(|w| w.starts_with("archives/")) else {
                    continue;
                };
                // compa_starexec: `bash -c 'cd -- DIR && exec ./BIN'`: the
                // directory is named, the binary inside the script.
                if !exec.join(bin).exists() {
                    missing.push(format!("{name}: solver binary {bin} not found"));
                }
            }
        }
        if missing.is_empty() {
            return Ok(());
        }
        missing.sort();
        missing.dedup();
        let fix = match archives {
            Some(a) => format!(
                "put each solver's unpacked archive in {}/<solver>/ (`smtcomp archives fetch` downloads and unpacks them there)",
                a.display()
            ),
            None => "the commands name files of the solvers' archives, and the workspace has no `archives` key: unpack them with `smtcomp archives fetch` and set `archives = \"archives\"` in smtcomp.toml (or give commands on PATH)".to_string(),
        };
        let n = missing.len();
        let shown: Vec<String> = missing.into_iter().take(10).collect();
        bail!(
            "{n} solver binar{} not found; {fix}:\n  {}{}",
            if n == 1 { "y" } else { "ies" },
            shown.join("\n  "),
            if n > 10 { "\n  ..." } else { "" }
        )
    })
}
