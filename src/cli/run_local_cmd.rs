//! `smtcomp run-local EXECDIR ...`: the generated definitions on the local
//! BenchExec (the pipeline's [`LocalBenchExec`] runner), one call at a time,
//! then every run of each definition accounted for ([`account_runs`]).

use super::{CmdResult, Failure, GlobalArgs, Outcome, print};
use crate::benchexec::Manifest;
use crate::benchexec::{RunOptions, select};
use crate::formats::generation::RUNS_FILE;
use crate::formats::runs_manifest::ManifestIndex;
use crate::model::Track;
use crate::pipeline::account_runs;
use crate::pipeline::{LocalBenchExec, Runner};
use clap::Args;
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
    /// Only this definition (file name as in the manifest, e.g. `z3_QF_Bitvec.xml`;
    /// repeatable). The Slurm backend's jobs run one definition per call.
    #[arg(long = "definition", value_name = "FILE")]
    definitions: Vec<String>,
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
    let mut files = select(&m, args.track, args.division.as_deref());
    if !args.definitions.is_empty() {
        for d in &args.definitions {
            if !m.definitions.contains_key(d) {
                return Err(Failure::usage(format!(
                    "--definition {d}: no such definition in {}",
                    execdir.join("manifest.json").display()
                )));
            }
        }
        files.retain(|f| args.definitions.iter().any(|d| d == f));
    }
    if files.is_empty() {
        eprintln!("error: no definition matches the given track/division");
        return Ok(Outcome::Problems);
    }
    let runner = LocalBenchExec {
        options: RunOptions {
            benchexec: args.benchexec,
            jobs: args.jobs,
            container: !args.no_container,
            extra_path: std::env::current_exe()?
                .parent()
                .map(|p| vec![p.to_path_buf()])
                .unwrap_or_default(),
            start_time: args.start_time,
            timeout: None,
        },
        calls: 1,
    };
    runner.check()?;
    // The per-run manifest, for the accounting of each definition's runs.
    let index = match ManifestIndex::read(&execdir.join(RUNS_FILE)) {
        Ok(i) => Some(i),
        Err(e) => {
            eprintln!("warning: {e}: runs are not accounted for (only BenchExec's exit status)");
            None
        }
    };
    let runs = runner.run(&execdir, &m, &files);
    let failures = account_runs(&execdir, &m, &runs, index.as_ref())?;
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
