//! `smtcomp run-slurm EXECDIR ...`: the generated definitions as a Slurm job
//! array (each array task: `smtcomp run-local` on a chunk of the definitions on
//! its node), results into `EXECDIR/results/` as from a local run.

use super::{CmdResult, Failure, GlobalArgs, Outcome, print};
use crate::benchexec::{Manifest, RunOptions, select};
use crate::model::Track;
use crate::pipeline::{Runner, SlurmBenchExec, failures};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// How the Slurm job array is shaped (shared by `run-slurm` and `demo --backend slurm`).
#[derive(Debug, Clone, Args)]
pub struct SlurmArgs {
    /// Definitions per Slurm array task (run one after the other by that task).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    definitions_per_job: u32,
    /// At most this many array tasks at once (`sbatch --array=...%N`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_parallel_jobs: Option<u32>,
    /// Slurm partition.
    #[arg(long, value_name = "P")]
    partition: Option<String>,
    /// CPUs per array task (default: the BenchExec runs per call, `--jobs`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    cpus_per_job: Option<u32>,
    /// Memory per array task in MB (default: the partition's default).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    mem_per_job: Option<u64>,
    /// A further `sbatch` argument, verbatim (repeatable: `--sbatch-arg=--account=smt`).
    #[arg(long = "sbatch-arg", value_name = "ARG", allow_hyphen_values = true)]
    sbatch_args: Vec<String>,
    /// Seconds to wait for the whole array before cancelling it (default: every
    /// definition's call limit one after the other, plus 10 minutes).
    #[arg(long = "slurm-timeout", value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: Option<u64>,
}

impl SlurmArgs {
    /// The Slurm runner: jobs run this very `smtcomp` binary (its directory
    /// holds the helper binaries) with `options`.
    pub fn runner(&self, options: RunOptions) -> anyhow::Result<SlurmBenchExec> {
        let mut r = SlurmBenchExec::new(std::env::current_exe()?, options);
        r.definitions_per_job = self.definitions_per_job as usize;
        r.max_parallel = self.max_parallel_jobs.map(|n| n as usize);
        r.partition = self.partition.clone();
        r.cpus_per_job = self.cpus_per_job;
        r.mem_per_job_mb = self.mem_per_job;
        r.sbatch_args = self.sbatch_args.clone();
        r.timeout = self.timeout.map(Duration::from_secs);
        Ok(r)
    }
}

/// Arguments of `smtcomp run-slurm`.
#[derive(Debug, Args)]
pub struct RunSlurmArgs {
    /// Execution directory written by `smtcomp generate` (on a file system the nodes share).
    /// Default in a workspace: its `execdir`.
    #[arg(long = "exec", value_name = "EXECDIR")]
    execdir: Option<PathBuf>,
    /// The execution directory as a positional argument (the older spelling).
    #[arg(value_name = "EXECDIR", hide = true, conflicts_with = "execdir")]
    execdir_pos: Option<PathBuf>,
    /// Only this track (name, short name or directory name).
    #[arg(long, value_name = "T", value_parser = super::values::tracks())]
    track: Option<Track>,
    /// Only this division.
    #[arg(long, value_name = "D")]
    division: Option<String>,
    /// Parallel runs per BenchExec call (-N).
    #[arg(long, value_name = "N")]
    jobs: Option<u32>,
    /// The benchexec executable (as the nodes see it).
    #[arg(long, value_name = "PATH", default_value = "benchexec")]
    benchexec: PathBuf,
    /// Run without BenchExec's container (no isolation, same limits).
    #[arg(long)]
    no_container: bool,
    /// Fixed start time `YYYY-MM-DD hh:mm:ss` (reproducible result file names).
    #[arg(long, value_name = "TIME")]
    start_time: Option<String>,
    #[command(flatten)]
    slurm: SlurmArgs,
    /// One JSON document instead of the summary line: `{"exec", "results", "logs",
    /// "definitions", "ran", "failed", "per_definition": [{"definition", "status":
    /// "ran"|"failed", "reason"?}]}` (failures are printed on stderr too).
    #[arg(long)]
    json: bool,
}

pub(super) fn run(global: &GlobalArgs, args: RunSlurmArgs) -> CmdResult {
    global.unused("run-slurm")?;
    let given =
        super::workspace_defaults::execdir(args.execdir.or(args.execdir_pos), "--exec <EXECDIR>")?;
    let execdir =
        std::fs::canonicalize(&given).map_err(|e| anyhow::anyhow!("{}: {e}", given.display()))?;
    let m = Manifest::read(&execdir)?;
    let files = select(&m, args.track, args.division.as_deref());
    if files.is_empty() {
        eprintln!(
            "{} no definition matches the given track/division",
            crate::util::colour::error_prefix()
        );
        return Ok(Outcome::Problems);
    }
    let runner = args.slurm.runner(RunOptions {
        benchexec: args.benchexec,
        jobs: args.jobs,
        container: !args.no_container,
        extra_path: Vec::new(),
        start_time: args.start_time,
        timeout: None,
        replace: false,
        read_only_dirs: Vec::new(),
    })?;
    runner
        .check()
        .map_err(|e| Failure::usage(format!("{e:#}")))?;
    let runs = runner.run(&execdir, &m, &files);
    let failed = failures(&runs);
    for (f, why) in &failed {
        eprintln!("{} {f}: {why}", crate::util::colour::error_prefix());
    }
    if args.json {
        let per_definition: Vec<_> = runs
            .iter()
            .map(|r| match failed.get(&r.definition) {
                None => serde_json::json!({"definition": r.definition, "status": "ran"}),
                Some(why) => serde_json::json!({
                    "definition": r.definition, "status": "failed", "reason": why,
                }),
            })
            .collect();
        print(&super::to_json(&serde_json::json!({
            "exec": execdir.display().to_string(),
            "results": execdir.join("results").display().to_string(),
            "logs": execdir.join("slurm").display().to_string(),
            "definitions": files.len(),
            "ran": runs.len() - failed.len(),
            "failed": failed.len(),
            "per_definition": per_definition,
        }))?)?;
    } else {
        print(&format!(
            "{} of {} definitions ran through Slurm; results in {}, job logs in {}\n",
            runs.len() - failed.len(),
            runs.len(),
            execdir.join("results").display(),
            execdir.join("slurm").display()
        ))?;
    }
    Ok(if failed.is_empty() && runs.len() == files.len() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}
