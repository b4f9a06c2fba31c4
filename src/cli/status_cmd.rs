//! `smtcomp status [EXECDIR]`: the progress of the BenchExec rounds (the
//! competition runs and the core-validation runs of the workspace, or one
//! execution directory), per track, division and solver, from the result
//! files written so far, and whether a `smtcomp run` holds the workspace
//! now or a Slurm job array of ours works in a round's directory (then the
//! runs without a result are `running`, not `failed`). Coloured on a terminal (never with `NO_COLOR`), `--json` for
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
    let mut rounds: Vec<RoundStatus> = match &args.execdir {
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
    // A Slurm array of ours working in a round's directory (its `smtcomp`
    // may be gone: killed, or `run-slurm` on another machine) runs it too.
    let commands = crate::pipeline::SlurmCommands::default();
    let mut slurm = Vec::new();
    for r in &mut rounds {
        let dir = std::path::Path::new(&r.execdir);
        let jobs = if r.generated {
            crate::pipeline::slurm_live_jobs(&commands, dir).unwrap_or_default()
        } else {
            Vec::new()
        };
        if running.is_some() || !jobs.is_empty() {
            r.mark_running();
        }
        if !jobs.is_empty() {
            slurm.push(serde_json::json!({ "execdir": r.execdir, "jobs": jobs }));
        }
    }
    if args.json {
        print(&to_json(&serde_json::json!({
            "running": running,
            "slurm_jobs": slurm,
            "rounds": rounds
        }))?)?;
    } else {
        if let Some(who) = &running {
            print(&format!(
                "running: {who}; the counts below are of the result files so far\n"
            ))?;
        }
        for s in &slurm {
            print(&format!(
                "running: Slurm job array {} of ours works in {}\n",
                s["jobs"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|j| j.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                s["execdir"].as_str().unwrap_or_default()
            ))?;
        }
        let colour = crate::util::colour::enabled(crate::util::colour::Stream::Stdout);
        print(&render(&rounds, Palette { on: colour }))?;
    }
    let main_done = rounds.first().is_some_and(RoundStatus::complete);
    let rest_done = rounds.iter().all(|r| !r.generated || r.complete());
    Ok(
        if main_done && rest_done && running.is_none() && slurm.is_empty() {
            Outcome::Ok
        } else {
            Outcome::Problems
        },
    )
}
