//! `smtcomp run-local EXECDIR ...`: the generated definitions on the local BenchExec.

use super::{CmdResult, GlobalArgs, Outcome, print};
use crate::benchexec::Manifest;
use crate::benchexec::{RunOptions, run_definition, select};
use crate::model::Track;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

/// Arguments of `smtcomp run-local`.
#[derive(Debug, Args)]
pub struct RunLocalArgs {
    /// Execution directory written by `smtcomp generate`.
    #[arg(value_name = "EXECDIR")]
    execdir: PathBuf,
    /// Only this track (name, short name or directory name).
    #[arg(long, value_name = "T")]
    track: Option<Track>,
    /// Only this division.
    #[arg(long, value_name = "D")]
    division: Option<String>,
    /// Parallel runs per BenchExec call (-N).
    #[arg(long, value_name = "N")]
    jobs: Option<u32>,
    /// The benchexec executable.
    #[arg(long, value_name = "PATH", default_value = "benchexec")]
    benchexec: PathBuf,
    /// Run without BenchExec's container (no isolation, same limits).
    #[arg(long)]
    no_container: bool,
    /// Fixed start time `YYYY-MM-DD hh:mm:ss` (reproducible result file names).
    #[arg(long, value_name = "TIME")]
    start_time: Option<String>,
}

pub(super) fn run(global: &GlobalArgs, args: RunLocalArgs) -> CmdResult {
    global.unused("run-local")?;
    let execdir = std::fs::canonicalize(&args.execdir)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.execdir.display()))?;
    let m = Manifest::read(&execdir)?;
    let files = select(&m, args.track, args.division.as_deref());
    if files.is_empty() {
        eprintln!("error: no definition matches the given track/division");
        return Ok(Outcome::Problems);
    }
    let opts = RunOptions {
        benchexec: args.benchexec,
        jobs: args.jobs,
        container: !args.no_container,
        extra_path: std::env::current_exe()?
            .parent()
            .map(|p| vec![p.to_path_buf()])
            .unwrap_or_default(),
        start_time: args.start_time,
        timeout: None,
    };
    let bar = ProgressBar::new(files.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} definitions, {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut failures = Vec::new();
    for file in &files {
        bar.set_message(file.to_string());
        let outcome = run_definition(&execdir, &m, file, &opts);
        match outcome {
            Ok(o) if o.ok(&m.definitions[*file]) => {}
            Ok(o) => failures.push(format!(
                "{file}: benchexec {}, {} result file(s); see {}",
                if o.timed_out {
                    "timed out".to_string()
                } else {
                    format!("exit {:?}", o.exit_code)
                },
                o.results.len(),
                o.log.display()
            )),
            Err(e) => failures.push(e),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    for f in &failures {
        eprintln!("error: {f}");
    }
    print(&format!(
        "{} of {} definitions ran; results in {}\n",
        files.len() - failures.len(),
        files.len(),
        execdir.join("results").display()
    ))?;
    Ok(if failures.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}
