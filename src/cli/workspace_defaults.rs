//! Defaults from the competition workspace (`smtcomp.toml`, see
//! [`crate::workspace`]) for the commands that take a competition,
//! submissions, a library, an execution directory or the workspace's
//! outputs: a flag given on the command line wins, else the workspace's value.

use super::Failure;
use crate::workspace::Workspace;
use std::path::PathBuf;

/// The workspace of the current directory, if any; an unusable `smtcomp.toml`
/// is an error (naming its file and line).
pub(crate) fn current() -> Result<Option<Workspace>, Failure> {
    Workspace::discover().map_err(|e| Failure::Error(e.into()))
}

/// The workspace, or a usage error saying how to make one (`command` needs it).
pub(crate) fn required(command: &str) -> Result<Workspace, Failure> {
    match current()? {
        Some(ws) => Ok(ws),
        None => Err(Failure::usage(format!(
            "`smtcomp {command}` needs a workspace: no {} in the current directory or its parents \
             (`smtcomp init DIR --competition FILE --submissions DIR --library DIR` writes one)",
            crate::workspace::FILE_NAME
        ))),
    }
}

/// `flag` if given, else the workspace's value (`of`), else `None`.
pub(crate) fn path_or(
    flag: Option<PathBuf>,
    of: impl FnOnce(&Workspace) -> PathBuf,
) -> Result<Option<PathBuf>, Failure> {
    if flag.is_some() {
        return Ok(flag);
    }
    Ok(current()?.map(|ws| of(&ws)))
}

/// `flags` if any, else the workspace's value (`of`) as the one entry; an
/// error naming `flag` when neither is there.
pub(crate) fn paths_or(
    flags: Vec<PathBuf>,
    flag: &str,
    of: impl FnOnce(&Workspace) -> PathBuf,
) -> Result<Vec<PathBuf>, Failure> {
    if !flags.is_empty() {
        return Ok(flags);
    }
    match current()? {
        Some(ws) => Ok(vec![of(&ws)]),
        None => Err(Failure::usage(format!(
            "{flag} is required (or run in a workspace: `smtcomp init`)"
        ))),
    }
}

/// The scoring inputs `--runs`, `--inventory`, `--submissions` (of `score`,
/// `report`, `export website`): each flag given wins, else the workspace's
/// validated run table, inventory and submissions. Returns the inventory.
pub(crate) fn fill_scoring(
    runs: &mut Vec<PathBuf>,
    inventory: Option<PathBuf>,
    submissions: &mut Vec<PathBuf>,
) -> Result<PathBuf, Failure> {
    *runs = paths_or(std::mem::take(runs), "--runs", Workspace::runs)?;
    *submissions = paths_or(std::mem::take(submissions), "--submissions", |w| {
        w.submissions.clone()
    })?;
    match path_or(inventory, Workspace::inventory)? {
        Some(p) => Ok(p),
        None => Err(Failure::usage(
            "--inventory is required (or run in a workspace: `smtcomp init`)",
        )),
    }
}
