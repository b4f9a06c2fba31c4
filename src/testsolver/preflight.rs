//! Pre-flight checks of `test-solver`, before anything is prepared for
//! BenchExec: every command a tested participation runs exists, is an
//! executable file (its `#!` interpreter too), a bare name is found on PATH,
//! and whatever lives in a directory BenchExec's container hides (`/home`,
//! `/tmp`, `/run`) is mounted read-only into the container.

use crate::model::Track;
use crate::submission::Submission;
use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::benchexec::visibility::{find_program, interpreter, mount_if_hidden, program_mounts};

/// The outcome of the checks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Preflight {
    /// What keeps a command from running, one plain-words line each.
    pub problems: Vec<String>,
    /// Directories to mount read-only into the container (sorted).
    pub mounts: BTreeSet<PathBuf>,
}

/// Checks the commands of the participations of `sub` that enter one of
/// `tracks`: binaries with a `/` (and every binary when `solver_dir` is
/// given, unless `paths_only`) are files of `solver_dir` (else of the current
/// directory), bare names are looked up on `path` (the PATH BenchExec's runs get).
/// (The `smtcomp-*` helpers need no mount: the runner copies them into
/// `EXECDIR/bin/`, see [`crate::benchexec::visibility`].)
pub fn check(
    sub: &Submission,
    tracks: &BTreeSet<Track>,
    solver_dir: Option<&Path>,
    paths_only: bool,
    path: &[PathBuf],
) -> Preflight {
    let mut out = Preflight::default();
    let mut seen = BTreeSet::new();
    for (i, p) in sub.participations.iter().enumerate() {
        if !p.tracks.iter().any(|t| tracks.contains(t)) {
            continue;
        }
        let Some(cmd) = sub.command_of(p) else {
            out.problems.push(format!(
                "participation {i}: no command (neither the participation nor the submission has one)"
            ));
            continue;
        };
        if !seen.insert(cmd.binary.clone()) {
            continue;
        }
        let what = format!("command '{}' (participation {i})", cmd.binary);
        let file = if (solver_dir.is_some() && !paths_only) || cmd.binary.contains('/') {
            let base = solver_dir.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            let f = base.join(&cmd.binary);
            if !f.exists() {
                out.problems.push(format!(
                    "{what}: {} does not exist ({})",
                    f.display(),
                    match solver_dir {
                        Some(d) if !paths_only => format!(
                            "the command is relative to the solver directory {}",
                            d.display()
                        ),
                        Some(_) => "without --solver-dir, a command with a / is relative to the current directory".into(),
                        None => "without --solver-dir, a command with a / is relative to the current directory".into(),
                    }
                ));
                continue;
            }
            if let Some(d) = solver_dir {
                mount_if_hidden(d, &mut out.mounts);
            }
            f
        } else {
            match path
                .iter()
                .map(|d| d.join(&cmd.binary))
                .find(|f| f.is_file())
            {
                Some(f) => f,
                None => {
                    out.problems.push(format!(
                        "{what}: not found on PATH (a command without / is looked up on PATH; give --solver-dir DIR for a solver in DIR)"
                    ));
                    continue;
                }
            }
        };
        if let Some(problem) = executable_problem(&file, path, &mut out.mounts) {
            out.problems.push(format!("{what}: {problem}"));
        }
    }
    // A mount inside another one is redundant.
    let all: Vec<PathBuf> = out.mounts.iter().cloned().collect();
    out.mounts
        .retain(|m| !all.iter().any(|o| o != m && m.starts_with(o)));
    out
}

/// Why `file` cannot be executed, if so; mounts what running it needs when
/// hidden, by the runner's own rule ([`program_mounts`]: its directory or
/// installation prefix, resolved too, and its interpreter's).
fn executable_problem(
    file: &Path,
    path: &[PathBuf],
    mounts: &mut BTreeSet<PathBuf>,
) -> Option<String> {
    let meta = match std::fs::metadata(file) {
        Ok(m) => m,
        Err(e) => return Some(format!("{}: cannot read: {e}", file.display())),
    };
    if meta.is_dir() {
        return Some(format!("{} is a directory, not a program", file.display()));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Some(format!(
            "{} is not executable (run chmod +x on it; an archive must keep the permission)",
            file.display()
        ));
    }
    program_mounts(file, path, mounts);
    let interpreter = interpreter(file)?;
    if find_program(&interpreter, path).is_none() {
        return Some(format!(
            "{} starts with #! but its interpreter {interpreter} {}",
            file.display(),
            if interpreter.contains('/') {
                "does not exist"
            } else {
                "is not on PATH"
            }
        ));
    }
    None
}
