//! `smtcomp status [EXECDIR]`: the progress of the BenchExec rounds (the
//! competition runs and the core-validation runs of the workspace, or one
//! execution directory), per track, division and solver, from the result
//! files written so far. Coloured on a terminal (never with `NO_COLOR`),
//! `--json` for scripts. Exit 0 when every generated round is complete, 1
//! when runs are missing or failed (or nothing is generated yet).

use super::{CmdResult, GlobalArgs, Outcome, print, to_json};
use crate::workspace::{Palette, RoundStatus, round_status, status::render};
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `smtcomp status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// An execution directory (default: the workspace's, and its core-validation round).
    #[arg(value_name = "EXECDIR")]
    execdir: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(global: &GlobalArgs, args: StatusArgs) -> CmdResult {
    let rounds: Vec<RoundStatus> = match &args.execdir {
        Some(dir) => {
            let comp = if global.given() {
                Some(global.competition()?)
            } else {
                None
            };
            vec![round_status("runs", dir, comp.as_ref())?]
        }
        None => {
            let ws = super::workspace_defaults::required("status")?;
            let comp = if global.given() {
                global.competition()?
            } else {
                ws.competition()?
            };
            vec![
                round_status("runs", &ws.execdir, Some(&comp))?,
                round_status("core validation runs", &ws.core_execdir(), Some(&comp))?,
            ]
        }
    };
    if args.json {
        print(&to_json(&serde_json::json!({ "rounds": rounds }))?)?;
    } else {
        let colour = std::io::stdout().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        print(&render(&rounds, Palette { on: colour }))?;
    }
    let main_done = rounds.first().is_some_and(RoundStatus::complete);
    let rest_done = rounds.iter().all(|r| !r.generated || r.complete());
    Ok(if main_done && rest_done {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}
