//! `smtcomp status [EXECDIR]`: the progress of the BenchExec rounds (the
//! competition runs and the core-validation runs of the workspace, or one
//! execution directory), per track, division and solver, from the result
//! files written so far, and whether a `smtcomp run` holds the workspace
//! now. Coloured on a terminal (never with `NO_COLOR`), `--json` for
//! scripts. Exit 0 when every generated round is complete and nothing runs,
//! 1 when runs are missing or failed, a run is in progress, or nothing is
//! generated yet.

use super::{CmdResult, GlobalArgs, Outcome, print, to_json};
use crate::workspace::{Palette, RoundStatus, round_status, status::render};
use clap::Args;
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
    let mut running = None;
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
            running = crate::workspace::running(&ws);
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
        print(&to_json(
            &serde_json::json!({ "running": running, "rounds": rounds }),
        )?)?;
    } else {
        if let Some(who) = &running {
            print(&format!(
                "running: {who}; the counts below are of the result files so far (a definition being run counts its unfinished runs as failed)\n"
            ))?;
        }
        let colour = crate::util::colour::enabled(crate::util::colour::Stream::Stdout);
        print(&render(&rounds, Palette { on: colour }))?;
    }
    let main_done = rounds.first().is_some_and(RoundStatus::complete);
    let rest_done = rounds.iter().all(|r| !r.generated || r.complete());
    Ok(if main_done && rest_done && running.is_none() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}
