//! `smtcomp run`: the workspace's competition, stage by stage, resuming what
//! is done (see [`crate::workspace::run()`]). Prints one line per stage (done,
//! resumed, skipped, waiting, failed, left) and what to run next. Exit 0 when
//! every stage is done, 1 when something is left (runs missing or failed, an
//! external step such as the VerifierCloud), 2 without a workspace.

use super::{CmdResult, GlobalArgs, Outcome, print, to_json};
use crate::pipeline::Step;
use crate::workspace::{BackendKind, StageLine};
use clap::Args;

/// Arguments of `smtcomp run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Worker threads (inventory, preparation, validation).
    #[arg(long, default_value_t = crate::util::parallel::default_jobs())]
    jobs: usize,
    /// The backend instead of the workspace's: local, slurm or vcloud.
    #[arg(long, value_name = "KIND")]
    backend: Option<BackendKind>,
    /// Parallel runs per BenchExec call instead of the workspace's.
    #[arg(long, value_name = "N")]
    benchexec_jobs: Option<u32>,
    /// Stop after this stage (e.g. `selection`): exit 0 when every stage up
    /// to it is done; `smtcomp run` goes on from there later.
    #[arg(long, value_name = "STAGE", value_parser = parse_stage)]
    until: Option<Step>,
    /// The organizers' test run: `select --test`'s selection (at most 20 easy
    /// benchmarks per logic, seed 1 unless `[seed] value`), the test limits,
    /// written below `DIR/test-run/` and `EXECDIR/test-run/`.
    #[arg(long)]
    test: bool,
    /// Print the report as JSON at the end (no stage lines while running).
    #[arg(long)]
    json: bool,
}

fn parse_stage(s: &str) -> Result<Step, crate::pipeline::UnknownStage> {
    crate::workspace::stage_named(s)
}

pub(super) fn run(global: &GlobalArgs, args: RunArgs) -> CmdResult {
    // Its ingestion step decodes every result file (util::malloc).
    crate::util::malloc::reuse_buffers();
    global.unused("run")?;
    let mut ws = super::workspace_defaults::required("run")?;
    if let Some(b) = args.backend {
        ws.backend.kind = b;
    }
    if let Some(n) = args.benchexec_jobs {
        ws.backend.jobs = Some(n);
    }
    if args.test {
        ws = ws.test_run();
    }
    if !args.json {
        print(&format!(
            "workspace {} (backend {}){}\n",
            ws.file.display(),
            ws.backend.kind.name(),
            if ws.test {
                format!("; the test run, in {}", ws.dir.display())
            } else {
                String::new()
            }
        ))?;
    }
    // One `smtcomp run` per workspace (its BenchExec calls hold the lock too).
    let lock =
        crate::workspace::lock(&ws).map_err(|e| super::Failure::Error(anyhow::anyhow!(e)))?;
    // A BenchExec call left behind (smtcomp killed with SIGKILL) keeps holding it.
    lock.hand_down();
    let json = args.json;
    let report = crate::workspace::run(&ws, args.jobs.max(1), args.until, &mut |l: &StageLine| {
        if !json {
            let _ = print(&format!("{}\n", l.render()));
        }
    });
    if json {
        print(&to_json(&report)?)?;
    } else {
        for n in &report.next {
            print(&format!("next: {n}\n"))?;
        }
        let left: Vec<&str> = report.left().iter().map(|s| s.name()).collect();
        if let (Some(u), true) = (report.until, report.complete()) {
            print(&format!("every stage up to {u} done (--until)\n"))?;
        } else if left.is_empty() {
            print("every stage done\n")?;
        } else {
            print(&format!("left: {}\n", left.join(", ")))?;
        }
    }
    Ok(if report.complete() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}
