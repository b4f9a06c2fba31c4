//! `smtcomp run-local EXECDIR ...`: the generated definitions on the local BenchExec.

use super::{CmdResult, GlobalArgs, Outcome, print};
use crate::benchexec::Manifest;
use crate::benchexec::{RunOptions, result_files, run_definition, run_subset, select};
use crate::formats::generation::RUNS_FILE;
use crate::formats::runs_manifest::{self, ManifestIndex};
use crate::ingest::{self, IngestOptions};
use crate::model::{Competition, DEFAULT_YEAR, Track};
use crate::pipeline::reason_line;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
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
    /// Resume: run only the runs the accounting (results against the runs manifest)
    /// reports missing; complete definitions are skipped. Without it, a definition
    /// that already has results is skipped. Results are never deleted.
    #[arg(long)]
    only_missing: bool,
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
        replace: false,
    };
    // The per-run manifest, for the accounting of each definition's runs.
    let index = match ManifestIndex::read(&execdir.join(RUNS_FILE)) {
        Ok(i) => Some(i),
        Err(e) => {
            eprintln!("warning: {e}: runs are not accounted for (only BenchExec's exit status)");
            None
        }
    };
    let bar = ProgressBar::new(files.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} definitions, {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    for file in &files {
        bar.set_message(file.to_string());
        let def = &m.definitions[*file];
        let has_results = !result_files(&execdir.join(&def.results_dir)).is_empty();
        let (outcome, rundefs) = if !has_results {
            (
                run_definition(&execdir, &m, file, &opts),
                def.rundefinitions.len(),
            )
        } else if !args.only_missing {
            skipped.push(format!(
                "{file}: has results in {}; kept, not run again (--only-missing completes it)",
                def.results_dir
            ));
            bar.inc(1);
            continue;
        } else {
            let missing = match index.as_ref() {
                Some(index) => missing_runs(&execdir, &m, file, index)?,
                None => super::fail!(
                    "--only-missing needs {}: regenerate the execution directory",
                    RUNS_FILE
                ),
            };
            if missing.is_empty() {
                skipped.push(format!("{file}: complete, nothing missing"));
                bar.inc(1);
                continue;
            }
            let n = missing.len();
            (run_subset(&execdir, &m, file, &missing, &opts), n)
        };
        match outcome {
            Ok(o) if o.exit_code == Some(0) && o.results.len() == rundefs => {
                // BenchExec ended normally: every run it should have made must
                // be in the results and must have started.
                if let Some(problem) = account(&execdir, &m, file, index.as_ref())? {
                    failures.push(match reason_line(&o.log) {
                        Some(why) => format!("{problem}; BenchExec said: {why}"),
                        None => problem,
                    });
                }
            }
            Ok(o) => failures.push(format!(
                "{file}: benchexec {}, {} result file(s); see {}{}",
                if o.timed_out {
                    "timed out".to_string()
                } else {
                    format!("exit {:?}", o.exit_code)
                },
                o.results.len(),
                o.log.display(),
                reason_line(&o.log).map_or(String::new(), |w| format!("; BenchExec said: {w}"))
            )),
            Err(e) => failures.push(e),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    for s in &skipped {
        eprintln!("skipped: {s}");
    }
    for f in &failures {
        eprintln!("error: {f}");
    }
    print(&format!(
        "{} of {} definitions ran, {} skipped; results in {}\n",
        files.len() - failures.len() - skipped.len(),
        files.len(),
        skipped.len(),
        execdir.join("results").display()
    ))?;
    Ok(if failures.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}

/// The runs of definition `file` its results lack, by the accounting against the
/// runs manifest: rundefinition name -> task paths (relative to EXECDIR).
fn missing_runs(
    execdir: &Path,
    m: &Manifest,
    file: &str,
    index: &ManifestIndex,
) -> anyhow::Result<std::collections::BTreeMap<String, Vec<String>>> {
    let (_, got) = ingest_definition(execdir, m, file, index)?;
    let mut out: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for r in &got.records {
        if r.error.as_deref() == Some(ingest::MISSING_ERROR)
            && let Some(rd) = &r.rundefinition
        {
            out.entry(rd.clone()).or_default().push(r.task.clone());
        }
    }
    Ok(out)
}

/// The results of definition `file` ingested against its part of the runs
/// manifest: (expected runs, what ingestion found).
fn ingest_definition(
    execdir: &Path,
    m: &Manifest,
    file: &str,
    index: &ManifestIndex,
) -> anyhow::Result<(usize, ingest::Ingested)> {
    let runs: Vec<_> = index
        .runs()
        .iter()
        .filter(|r| r.benchmark_definition == file)
        .cloned()
        .collect();
    let expected = runs.len();
    let mine = ManifestIndex::new(runs_manifest::Manifest {
        format: runs_manifest::MANIFEST_FORMAT,
        runs,
    });
    // Identity comes from the manifest; the definition is only consulted for
    // runs the manifest does not know (which the accounting reports anyway).
    let comp = Competition::builtin(DEFAULT_YEAR)?;
    let dir = execdir.join(&m.definitions[file].results_dir);
    let got = ingest::ingest(
        &[dir],
        &IngestOptions {
            competition: &comp,
            manifest: Some(&mine),
            progress: false,
        },
    );
    Ok((expected, got))
}

/// The runs of definition `file` that BenchExec should have made but did not
/// (missing from its result files) or that failed to start, as one problem
/// line naming the definition, the counts and the first runs; `None` when
/// every run is there and started.
fn account(
    execdir: &Path,
    m: &Manifest,
    file: &str,
    index: Option<&ManifestIndex>,
) -> anyhow::Result<Option<String>> {
    let Some(index) = index else {
        return Ok(None);
    };
    let (expected, got) = ingest_definition(execdir, m, file, index)?;
    let Some(acc) = got.summary.manifest else {
        return Ok(None);
    };
    if !acc.incomplete() && got.summary.input_errors.is_empty() {
        return Ok(None);
    }
    let t = &acc.total;
    let mut line = format!(
        "{file}: of {expected} expected run(s), {} present, {} missing, {} failed to start",
        t.present, t.missing, t.failed
    );
    if let Some(first) = acc.failed_runs.first().or(acc.missing_runs.first()) {
        line.push_str(&format!(" (first: {first})"));
    }
    for e in &got.summary.input_errors {
        line.push_str(&format!("; {e}"));
    }
    Ok(Some(line))
}
