//! `smtcomp run-local EXECDIR ...`: the generated definitions on the local
//! BenchExec (the pipeline's [`LocalBenchExec`] runner), one call at a time,
//! then every run of each definition accounted for ([`account_runs`]).
//! Resumable: results are never deleted; `--only-missing` runs just the runs
//! the accounting reports missing.

use super::{CmdResult, Failure, GlobalArgs, Outcome, print};
use crate::benchexec::Manifest;
use crate::benchexec::{RunOptions, result_files, run_subset, select};
use crate::formats::generation::RUNS_FILE;
use crate::formats::runs_manifest::ManifestIndex;
use crate::model::Track;
use crate::pipeline::{LocalBenchExec, Runner};
use crate::pipeline::{account_runs, definition_run, missing_runs};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `smtcomp run-local`.
#[derive(Debug, Args)]
pub struct RunLocalArgs {
    /// Execution directory written by `smtcomp generate`. Default in a workspace: its `execdir`.
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
    /// Resume: run only the runs the accounting (results against the runs manifest)
    /// reports missing; complete definitions are skipped. Without it, a definition
    /// that already has results is skipped. Results are never deleted.
    #[arg(long)]
    only_missing: bool,
    /// One JSON document instead of the summary line: `{"exec", "results",
    /// "definitions", "ran", "skipped", "failed", "per_definition": [{"definition",
    /// "status": "ran"|"failed"|"skipped", "reason"?}], "problems": [...]}`
    /// (problems are printed on stderr too).
    #[arg(long)]
    json: bool,
}

pub(super) fn run(global: &GlobalArgs, args: RunLocalArgs) -> CmdResult {
    global.unused("run-local")?;
    let given =
        super::workspace_defaults::execdir(args.execdir.or(args.execdir_pos), "--exec <EXECDIR>")?;
    let execdir =
        std::fs::canonicalize(&given).map_err(|e| anyhow::anyhow!("{}: {e}", given.display()))?;
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
        eprintln!(
            "{} no definition matches the given track/division",
            crate::util::colour::error_prefix()
        );
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
            replace: false,
            read_only_dirs: Vec::new(),
        },
        calls: 1,
    };
    runner.check()?;
    // The per-run manifest, for the accounting of each definition's runs.
    let index = match ManifestIndex::read(&execdir.join(RUNS_FILE)) {
        Ok(i) => Some(i),
        Err(e) => {
            eprintln!(
                "{} {e}: runs are not accounted for (only BenchExec's exit status)",
                crate::util::colour::warning_prefix()
            );
            None
        }
    };
    // Resumption: results are never deleted. A definition without results
    // runs whole; one with results is skipped, or (--only-missing) gets a
    // call for just the runs its accounting reports missing.
    // --only-missing: a definition BenchExec stopped mid-way (unfinished runs)
    // is moved aside (EXECDIR/superseded/) and runs again whole.
    if args.only_missing && index.is_some() {
        for line in crate::workspace::set_aside_unfinished(&execdir, Some(&files))? {
            eprintln!("again: {line}");
        }
    }
    let mut whole = Vec::new();
    let mut partial = Vec::new();
    let mut skipped = Vec::new();
    for file in &files {
        let def = &m.definitions[*file];
        if result_files(&execdir.join(&def.results_dir)).is_empty() {
            whole.push(*file);
        } else if !args.only_missing {
            skipped.push((
                *file,
                format!(
                    "has results in {}; kept, not run again (--only-missing completes it)",
                    def.results_dir
                ),
            ));
        } else {
            let Some(index) = index.as_ref() else {
                super::fail!(
                    "--only-missing needs {}: regenerate the execution directory",
                    RUNS_FILE
                );
            };
            let missing = missing_runs(&execdir, &m, file, index)?;
            if missing.is_empty() {
                skipped.push((*file, "complete, nothing missing".to_string()));
            } else {
                partial.push((*file, missing));
            }
        }
    }
    let mut runs = runner.run(&execdir, &m, &whole);
    for (file, missing) in &partial {
        let call = run_subset(&execdir, &m, file, missing, &runner.options);
        runs.push(definition_run(file, call, missing.len()));
    }
    for (file, why) in &skipped {
        eprintln!("skipped: {file}: {why}");
    }
    let failures = account_runs(&execdir, &m, &runs, index.as_ref())?;
    for f in &failures {
        eprintln!("{} {f}", crate::util::colour::error_prefix());
    }
    if args.json {
        let mut per_definition = Vec::new();
        for r in &runs {
            let prefix = format!("{}: ", r.definition);
            let reason = r.failure().map(str::to_string).or_else(|| {
                failures
                    .iter()
                    .find(|f| f.starts_with(&prefix))
                    .map(|f| f[prefix.len()..].to_string())
            });
            per_definition.push(match reason {
                None => serde_json::json!({"definition": r.definition, "status": "ran"}),
                Some(why) => serde_json::json!({
                    "definition": r.definition, "status": "failed", "reason": why,
                }),
            });
        }
        for (file, why) in &skipped {
            per_definition.push(serde_json::json!({
                "definition": file, "status": "skipped", "reason": why,
            }));
        }
        print(&super::to_json(&serde_json::json!({
            "exec": execdir.display().to_string(),
            "results": execdir.join("results").display().to_string(),
            "definitions": files.len(),
            "ran": runs.len().saturating_sub(failures.len()),
            "skipped": skipped.len(),
            "failed": failures.len(),
            "per_definition": per_definition,
            "problems": failures,
        }))?)?;
        return Ok(if failures.is_empty() {
            Outcome::Ok
        } else {
            Outcome::Problems
        });
    }
    print(&format!(
        "{} of {} definitions ran, {} skipped; results in {}\n",
        runs.len() - failures.len(),
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
