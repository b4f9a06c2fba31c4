//! How a submission's participation is run: the command line (binary resolved
//! from the unpacked archive, a solver directory or `PATH`), and what it
//! enters as BenchExec runs it (its entries plus the Unsat-Core validation
//! divisions its Single Query logics give).

use super::{Entries, Problems, Submission, entries};
use crate::model::{Competition, Track};
use crate::util::escape::{argument_problem, sanitize, shell};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// How solver binaries are found (see `docs/benchexec.md`).
#[derive(Debug, Clone, Default)]
pub struct SolverLocation {
    /// Solver name -> directory standing for its unpacked archive (absolute).
    pub solver_dirs: BTreeMap<String, PathBuf>,
    /// Keep binaries without `/` as bare names, resolved on PATH at run time.
    pub on_path: bool,
    /// `solver_dirs` hold only the binaries with a `/` (`test-solver` without
    /// `--solver-dir`: paths are relative to the current directory, bare
    /// names stay on PATH).
    pub dirs_for_paths_only: bool,
}

impl SolverLocation {
    /// The directory standing for `solver`'s archive that `binary` is in, if any.
    fn dir_for(&self, solver: &str, binary: &str) -> Option<&PathBuf> {
        if self.dirs_for_paths_only && !binary.contains('/') {
            return None;
        }
        self.solver_dirs.get(solver)
    }
}

/// The directory holding participation `i`'s unpacked archive, as the runs see it:
/// `--solver-dir` (absolute), `archives/<solver>[@<i>]` (relative to the execution
/// directory), or `None` for a bare binary found on `PATH` or an absolute one
/// (`--solvers-on-path`).
/// It is what a remote executor must upload for the participation's runs.
pub fn archive_dir(sub: &Submission, i: usize, loc: &SolverLocation) -> Option<String> {
    let p = &sub.participations[i];
    let binary = sub.command_of(p).map_or("", |c| c.binary.as_str());
    if let Some(dir) = loc.dir_for(&sub.name, binary) {
        return Some(dir.to_string_lossy().into_owned());
    }
    // A bare name is looked up on PATH; an absolute path (an organizer's local
    // solver) is used as it is, never joined below the archive directory.
    let bare = sub
        .command_of(p)
        .is_some_and(|c| !c.binary.contains('/') || c.binary.starts_with('/'));
    if loc.on_path && bare {
        return None;
    }
    let own = p.archive.is_some() && sub.archive.as_ref() != p.archive.as_ref();
    Some(if own {
        // `@` never comes out of `sanitize`: no other solver's directory.
        format!("archives/{}@{i}", sanitize(&sub.name))
    } else {
        format!("archives/{}", sanitize(&sub.name))
    })
}

/// Why a participation's command cannot be run through BenchExec as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("solver '{solver}', participation {participation}: {problem}")]
pub struct CommandProblem {
    /// The solver.
    pub solver: String,
    /// The participation's index.
    pub participation: usize,
    /// What is wrong.
    pub problem: CommandFault,
}

/// What is wrong with a command ([`CommandProblem`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandFault {
    /// Neither the participation nor the submission has a command.
    #[error("no command (neither the participation nor the submission has one)")]
    Missing,
    /// An empty binary.
    #[error("empty binary in the command")]
    EmptyBinary,
    /// The solver's directory is not UTF-8.
    #[error("{0}: path is not valid UTF-8")]
    NotUtf8(String),
    /// A `compa_starexec` command with arguments.
    #[error("compa_starexec commands take no arguments")]
    StarexecArguments,
    /// An element BenchExec would not pass through exactly.
    #[error("{what} '{}': {reason}", text.escape_debug())]
    Argument {
        /// `binary` or `argument K`.
        what: String,
        /// The element.
        text: String,
        /// Why.
        reason: String,
    },
}

/// The argv participation `i` of `sub` runs with: the binary resolved as documented, then
/// the arguments; every element is checked to pass through BenchExec exactly.
pub fn command_for(
    sub: &Submission,
    i: usize,
    loc: &SolverLocation,
) -> Result<Vec<String>, CommandProblem> {
    let p = &sub.participations[i];
    let fault = |problem| CommandProblem {
        solver: sub.name.clone(),
        participation: i,
        problem,
    };
    let cmd = sub
        .command_of(p)
        .ok_or_else(|| fault(CommandFault::Missing))?;
    if cmd.binary.is_empty() {
        return Err(fault(CommandFault::EmptyBinary));
    }
    let binary = if let Some(dir) = loc.dir_for(&sub.name, &cmd.binary) {
        dir.join(&cmd.binary)
            .to_str()
            .map(str::to_string)
            .ok_or_else(|| fault(CommandFault::NotUtf8(dir.display().to_string())))?
    } else {
        match archive_dir(sub, i, loc) {
            None => cmd.binary.clone(),
            Some(dir) => format!("{dir}/{}", cmd.binary.trim_start_matches("./")),
        }
    };
    let mut argv = if cmd.compa_starexec {
        if !cmd.arguments.is_empty() {
            return Err(fault(CommandFault::StarexecArguments));
        }
        let (dir, exe) = match binary.rsplit_once('/') {
            Some((d, e)) => (d.to_string(), e.to_string()),
            None => (".".to_string(), binary.clone()),
        };
        vec![
            "bash".to_string(),
            "-c".to_string(),
            format!(
                "set -- \"$(realpath -- \"$@\")\" && cd -- {} && exec ./{} \"$@\"",
                shell(&dir),
                shell(&exe)
            ),
            "compa_starexec".to_string(),
        ]
    } else {
        let mut v = vec![binary];
        v.extend(cmd.arguments.iter().cloned());
        v
    };
    for (k, arg) in argv.iter().enumerate() {
        if let Some(reason) = argument_problem(arg) {
            let what = if k == 0 {
                "binary".to_string()
            } else {
                format!("argument {k}")
            };
            return Err(fault(CommandFault::Argument {
                what,
                text: arg.clone(),
                reason: reason.to_string(),
            }));
        }
    }
    argv.shrink_to_fit();
    Ok(argv)
}

/// What participation `i` of `sub` enters, as BenchExec runs it: its own
/// entries plus, for every logic it entered in Single Query that belongs to
/// an Unsat Core division, that division in track `UnsatCoreValidation`
/// (validators run their Single Query command).
pub fn participation_entries(sub: &Submission, i: usize, comp: &Competition) -> Entries {
    let mut one = sub.clone();
    one.participations = vec![sub.participations[i].clone()];
    let mut ignored = Problems::new("");
    let mut entered = entries(&one, comp, &mut ignored);
    if let Some(sq) = entered.get(&Track::SingleQuery).cloned()
        && let Some(uc) = comp.track(Track::UnsatCore)
    {
        for logic in sq.values().flatten() {
            if let Some(d) = uc.division_of(logic.as_str()) {
                entered
                    .entry(Track::UnsatCoreValidation)
                    .or_default()
                    .entry(d.clone())
                    .or_default()
                    .insert(logic.clone());
            }
        }
    }
    entered
}

#[cfg(test)]
mod tests {
    use super::super::parse_submission;
    use super::*;

    fn submission(command: &str) -> Submission {
        let text = format!(
            r#"{{"name": "S", "contributors": ["A"], "contacts": ["a <a@b.c>"],
                "archive": {{"url": "https://example.org/s.tar.gz"}},
                "website": "https://example.org", "system_description": "https://example.org/d.pdf",
                "command": ["{command}", "-q"], "solver_type": "Standalone",
                "participations": [{{"tracks": ["SingleQuery"], "logics": "QF_LIA"}}],
                "seed": 1, "competitive": true, "final": false}}"#
        );
        let mut problems = Problems::default();
        parse_submission(&text, &mut problems).expect("a valid submission")
    }

    #[test]
    fn on_path_keeps_bare_and_absolute_binaries_and_joins_relative_ones() {
        let loc = SolverLocation {
            solver_dirs: Default::default(),
            on_path: true,
            dirs_for_paths_only: false,
        };
        let run = |c: &str| command_for(&submission(c), 0, &loc).unwrap();
        assert_eq!(run("z3"), ["z3", "-q"]);
        assert_eq!(run("/opt/s/bin/s"), ["/opt/s/bin/s", "-q"]);
        assert_eq!(run("./bin/s"), ["archives/S/bin/s", "-q"]);
        assert_eq!(archive_dir(&submission("/opt/s/bin/s"), 0, &loc), None);
        // From the archive (no PATH): every binary is below its directory.
        let archive = SolverLocation::default();
        assert_eq!(
            command_for(&submission("z3"), 0, &archive).unwrap(),
            ["archives/S/z3", "-q"]
        );
    }
}
