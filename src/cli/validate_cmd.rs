//! `smtcomp validate-cores generate|run|join` and `smtcomp validate-models`.

use super::{CmdResult, Failure, GlobalArgs, Outcome, fail, print, to_json};
use crate::benchexec::SolverLocation;
use crate::ingest::{IngestRecord, TableIdentity, check_table, read_table};
use crate::submission::load_set;
use crate::validate::ValidatorCommands;
use crate::validate::cores::{self, CoreManifest, GenerateOptions, TimeLimit, Validators};
use crate::validate::{Checker, ModelOptions};
use crate::validate::{CoreJoiner, split_command};
use clap::{Args, Subcommand};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `smtcomp validate-cores …`
#[derive(Debug, Subcommand)]
pub enum CoresCommand {
    /// Build one core-restricted benchmark per distinct core, with validators and time limits.
    Generate(GenerateArgs),
    /// Run the validation solvers locally (no BenchExec), with each task's time limit.
    Run(RunArgs),
    /// Apply the majority rule and write the verdicts into the Unsat-Core runs.
    Join(JoinArgs),
}

/// Arguments of `validate-cores generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The run table (JSON Lines) with the Unsat-Core runs (and possibly the
    /// Single Query runs); in a workspace: its `runs-ingested.jsonl.gz`.
    #[arg(long = "runs", value_name = "FILE")]
    runs_flag: Option<PathBuf>,
    /// The run table used: `--runs` or the workspace's.
    #[arg(skip)]
    runs: PathBuf,
    /// Prepared root holding `unsat-core/prepared.json` (and other tracks, for
    /// known statuses); in a workspace: its `prepared/`.
    #[arg(long = "prepared", value_name = "DIR")]
    prepared_flag: Option<PathBuf>,
    /// The prepared root used: `--prepared` or the workspace's.
    #[arg(skip)]
    prepared: PathBuf,
    /// Execution directory; `unsat-core-validation/` is written below it (in a
    /// workspace: `EXECDIR/core-validation`).
    #[arg(long = "exec", alias = "out", value_name = "DIR")]
    out_flag: Option<PathBuf>,
    /// The execution directory used: `--exec` or the workspace's.
    #[arg(skip)]
    out: PathBuf,
    /// Single Query run table to choose the sound validators from (default: the SQ runs in --runs).
    #[arg(long, value_name = "FILE")]
    sq_runs: Vec<PathBuf>,
    /// Use these validators for every division instead (comma-separated solver names).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    validators: Vec<String>,
    /// Time limit per validation task: `track` (2025 rules 5.4: the Unsat Core
    /// Track's limit of the competition definition, never below the producing
    /// run's time), `producing` (the producing run's time, at least
    /// --min-time-limit) or seconds.
    #[arg(long, value_name = "track|producing|SECONDS", default_value = "track", value_parser = super::time_limit)]
    time_limit: super::TimeLimitArg,
    /// With `producing`: the lowest limit (seconds).
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = super::seconds_or_zero)]
    min_time_limit: f64,
    /// With `producing`: the limit when the producing time is unknown (seconds).
    #[arg(long, value_name = "SECONDS", default_value = "1200", value_parser = super::seconds)]
    fallback_time_limit: f64,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `validate-cores run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Execution directory written by `generate` (in a workspace: `EXECDIR/core-validation`).
    #[arg(long = "exec", value_name = "DIR")]
    exec_flag: Option<PathBuf>,
    /// The execution directory used: `--exec` or the workspace's.
    #[arg(skip)]
    exec: PathBuf,
    /// A validator's command: `NAME=COMMAND` (the file is appended), e.g. `z3=z3 -smt2`;
    /// takes precedence over --submissions.
    #[arg(long = "solver", value_name = "NAME=COMMAND")]
    solvers: Vec<String>,
    /// Submission files or directories: each validator (a submission name) runs the
    /// command of its Single Query participation that entered the task's logic
    /// (in a workspace without --solver: its `submissions`).
    #[arg(long, value_name = "DIR", num_args = 1..)]
    submissions: Vec<PathBuf>,
    /// Directory holding solver NAME's unpacked archive (repeatable), as for
    /// `smtcomp generate`; other binaries without '/' are looked up on PATH.
    #[arg(long, value_name = "NAME=DIR", value_parser = super::name_dir)]
    solver_dir: Vec<(String, PathBuf)>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Output run table (default: `unsat-core-validation/local-runs.jsonl` in the execution directory).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `validate-cores join`.
#[derive(Debug, Args)]
pub struct JoinArgs {
    /// The run table with the Unsat-Core runs (in a workspace: its
    /// `runs.jsonl.gz`, or `runs-ingested.jsonl.gz` when that is newer).
    #[arg(long = "runs", value_name = "FILE")]
    runs_flag: Option<PathBuf>,
    /// The run table used: `--runs` or the workspace's.
    #[arg(skip)]
    runs: PathBuf,
    /// Execution directory written by `generate` (in a workspace: `EXECDIR/core-validation`).
    #[arg(long = "exec", value_name = "DIR")]
    exec_flag: Option<PathBuf>,
    /// The execution directory used: `--exec` or the workspace's.
    #[arg(skip)]
    exec: PathBuf,
    /// Ingested validation runs (track UnsatCoreValidation); default: the local runner's output.
    #[arg(long, value_name = "FILE")]
    validation_runs: Vec<PathBuf>,
    /// Output run table (default: rewrite --runs in place; in a workspace
    /// without --runs: its `runs.jsonl.gz`).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output_flag: Option<PathBuf>,
    /// The output used.
    #[arg(skip)]
    output: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Validation rule: 2025 (default; majority: validated iff more unsat than
    /// sat, refuted otherwise when some validator said sat, no points for 0/0) or
    /// 2023 (refuted iff more sat than unsat; a tie or 0/0 is not refuted and
    /// scores the reduction). 2008 and 2015 have no Unsat Core Track.
    #[arg(long, value_name = "YEAR", value_parser = super::values::editions())]
    edition: Option<crate::model::RulesEdition>,
}

/// Arguments of `validate-models`.
#[derive(Debug, Args)]
pub struct ModelsArgs {
    /// The run table with the Model-Validation runs (in a workspace: its
    /// `runs.jsonl.gz`, or `runs-ingested.jsonl.gz` when that is newer).
    #[arg(long = "runs", value_name = "FILE")]
    runs_flag: Option<PathBuf>,
    /// The run table used: `--runs` or the workspace's.
    #[arg(skip)]
    runs: PathBuf,
    /// Prepared root holding `model-validation/prepared.json` (in a workspace: its `prepared/`).
    #[arg(long = "prepared", value_name = "DIR")]
    prepared_flag: Option<PathBuf>,
    /// The prepared root used: `--prepared` or the workspace's.
    #[arg(skip)]
    prepared: PathBuf,
    /// Directory the runs' log paths are relative to (what was ingested; default:
    /// the run table's directory; in a workspace: `EXECDIR/results`).
    #[arg(long, value_name = "DIR")]
    logs: Option<PathBuf>,
    /// Validate with Dolmen at this path, as the organizers do.
    #[arg(long, value_name = "PATH")]
    dolmen: Option<PathBuf>,
    /// Trusted solver of the built-in validator (the substituted file is appended).
    #[arg(long, value_name = "COMMAND", default_value = "z3 -smt2")]
    solver: String,
    /// Validator time limit per model (seconds).
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    timeout: u64,
    /// Verdict cache directory (default: `model-validation-cache/` next to the
    /// run table; in a workspace: its `model-cache/`, shared with `smtcomp run`).
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Do not read or write the cache.
    #[arg(long, conflicts_with = "cache")]
    no_cache: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Output run table (default: rewrite --runs in place; in a workspace
    /// without --runs: its `runs.jsonl.gz`).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output_flag: Option<PathBuf>,
    /// The output used.
    #[arg(skip)]
    output: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// The run table at `path` one record at a time: its identity and its
/// records. The table must have been made under the competition in use
/// (`--competition`, `--year`, or the default edition): a table made under
/// another definition is an error naming both; one without identity is read
/// with a warning.
fn stream_runs(
    global: &GlobalArgs,
    path: &Path,
) -> Result<(Option<TableIdentity>, crate::formats::jsonl::TableRecords), Failure> {
    let comp = global.competition()?;
    let (identity, records) = crate::formats::jsonl::open_table(path)?;
    if let Some(warning) = check_table(path, identity.as_ref(), &comp)? {
        eprintln!("{warning}");
    }
    Ok((identity, records))
}

/// An error when the table at `path` holds no Unsat-Core run (read as a
/// stream; asked only when another check already failed, so that this one,
/// checked first before, still comes first).
fn require_core_runs_in(global: &GlobalArgs, path: &Path) -> Result<(), Failure> {
    let (_, records) = stream_runs(global, path)?;
    for r in records {
        if r?.track == Some(crate::model::Track::UnsatCore) {
            return Ok(());
        }
    }
    fail!("{}: no Unsat-Core runs; nothing written", path.display());
}

fn problems(list: &[String]) -> String {
    list.iter().map(|p| format!("problem: {p}\n")).collect()
}

pub(super) fn run_cores(global: &GlobalArgs, cmd: CoresCommand) -> CmdResult {
    use super::workspace_defaults as ws;
    match cmd {
        CoresCommand::Generate(mut a) => {
            a.runs = ws::ingested_runs(a.runs_flag.take())?;
            a.prepared = ws::prepared(a.prepared_flag.take(), "--prepared <DIR>")?;
            a.out = ws::core_validation(a.out_flag.take(), "--exec <DIR>")?;
            generate(global, a)
        }
        CoresCommand::Run(mut a) => {
            a.exec = ws::core_validation(a.exec_flag.take(), "--exec <DIR>")?;
            if a.solvers.is_empty()
                && a.submissions.is_empty()
                && let Some(w) = ws::current()?
            {
                a.submissions.push(w.submissions);
            }
            if a.submissions.is_empty() {
                global.unused("validate-cores run (without --submissions)")?;
            }
            run_local(global, a)
        }
        CoresCommand::Join(mut a) => {
            (a.runs, a.output) = ws::validation_tables(a.runs_flag.take(), a.output_flag.take())?;
            a.exec = ws::core_validation(a.exec_flag.take(), "--exec <DIR>")?;
            join_cmd(global, a)
        }
    }
}

fn generate(global: &GlobalArgs, a: GenerateArgs) -> CmdResult {
    // One pass over the table (a full-size one does not fit in memory as
    // records): the Single Query runs judge soundness, the Unsat-Core runs
    // with a core are kept (the only ones `cores::generate` reads).
    let statuses = cores::known_statuses(&a.prepared);
    let mut scan = cores::CoreScan::new(&statuses);
    for r in stream_runs(global, &a.runs)?.1 {
        scan.add(r?);
    }
    let cores::CoreScan {
        mut soundness,
        with_core: runs,
        core_runs,
    } = scan;
    if !core_runs {
        fail!("{}: no Unsat-Core runs; nothing written", a.runs.display());
    }
    let time_limit = match a.time_limit {
        super::TimeLimitArg::Track => {
            let comp = global.competition()?;
            let Some(uc) = comp.track(crate::model::Track::UnsatCore) else {
                fail!("{} has no Unsat Core Track: give --time-limit", comp.name);
            };
            TimeLimit::Track(f64::from(uc.limits.time_s))
        }
        super::TimeLimitArg::Producing => TimeLimit::Producing {
            min: a.min_time_limit,
            fallback: a.fallback_time_limit,
        },
        super::TimeLimitArg::Seconds(t) => TimeLimit::Fixed(t),
    };
    let validators = if a.validators.is_empty() {
        for f in &a.sq_runs {
            for r in stream_runs(global, f)?.1 {
                soundness.add(&r?);
            }
        }
        Validators::SoundInSq(soundness.finish())
    } else {
        Validators::Given(a.validators.clone())
    };
    let opts = GenerateOptions {
        prepared: &a.prepared,
        out: &a.out,
        validators: &validators,
        time_limit,
    };
    let (_, summary) = match cores::generate(&runs, &opts) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{} {e:#}", crate::util::colour::error_prefix());
            return Ok(Outcome::Problems);
        }
    };
    if a.json {
        print(&to_json(&summary)?)?;
    } else {
        print(&format!(
            "{} runs with a core, {} benchmarks, {} validation tasks ({} without validators) in {}\n{}",
            summary.runs_with_core,
            summary.benchmarks,
            summary.tasks,
            summary.without_validators,
            CoreManifest::dir(&a.out).display(),
            problems(&summary.problems)
        ))?;
    }
    Ok(if summary.problems.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}

/// The validators' commands of `validate-cores run`: `--solver` first, then
/// the submissions' Single Query commands.
fn validator_commands(global: &GlobalArgs, a: &RunArgs) -> Result<ValidatorCommands, Failure> {
    let mut commands = ValidatorCommands::default();
    for s in &a.solvers {
        match s.split_once('=') {
            Some((n, c)) if !n.is_empty() && !split_command(c).is_empty() => {
                commands.given.insert(n.to_string(), split_command(c));
            }
            _ => {
                return Err(Failure::usage(format!(
                    "--solver: expected NAME=COMMAND, got `{s}`"
                )));
            }
        }
    }
    if a.submissions.is_empty() {
        if !a.solver_dir.is_empty() {
            return Err(Failure::usage("--solver-dir needs --submissions"));
        }
        return Ok(commands);
    }
    let comp = global.competition()?;
    let loaded = load_set(&a.submissions, &comp);
    let mut failed = false;
    for l in loaded.iter().filter(|l| l.submission.is_none()) {
        for p in &l.problems {
            eprintln!("{p}");
        }
        failed = true;
    }
    if failed {
        eprintln!(
            "{} some submission files cannot be read; nothing run",
            crate::util::colour::error_prefix()
        );
        return Err(Failure::Reported);
    }
    let subs: Vec<_> = loaded
        .iter()
        .filter_map(|l| l.submission.as_ref())
        .collect();
    let mut location = SolverLocation {
        on_path: true,
        dirs_for_paths_only: false,
        ..Default::default()
    };
    for (name, dir) in &a.solver_dir {
        if !subs.iter().any(|s| &s.name == name) {
            return Err(
                anyhow::anyhow!("--solver-dir {name}=...: no submission named '{name}'").into(),
            );
        }
        location
            .solver_dirs
            .insert(name.clone(), std::path::absolute(dir)?);
    }
    let problems = commands.add_submissions(&comp, &subs, &location);
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("{} {p}", crate::util::colour::error_prefix());
        }
        return Err(Failure::Reported);
    }
    Ok(commands)
}

fn run_local(global: &GlobalArgs, a: RunArgs) -> CmdResult {
    let manifest = match CoreManifest::read(&a.exec) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{} {e:#}", crate::util::colour::error_prefix());
            return Ok(Outcome::Problems);
        }
    };
    let commands = validator_commands(global, &a)?;
    let out = a
        .output
        .unwrap_or_else(|| CoreManifest::dir(&a.exec).join(cores::LOCAL_RUNS));
    let records =
        crate::pipeline::run_validators(&a.exec, &manifest, &commands, super::jobs(a.jobs), &out)?;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for r in &records {
        *counts.entry(r.answer.to_string()).or_default() += 1;
    }
    let errors: Vec<String> = records
        .iter()
        .filter_map(|r| {
            r.error
                .as_ref()
                .map(|e| format!("{} on {}: {e}", r.solver, r.task))
        })
        .collect();
    if a.json {
        print(&to_json(
            &serde_json::json!({"runs": records.len(), "answers": counts, "errors": errors, "output": out}),
        )?)?;
    } else {
        let c: Vec<String> = counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
        print(&format!(
            "{} validation runs ({}) -> {}\n{}",
            records.len(),
            c.join(", "),
            out.display(),
            problems(&errors)
        ))?;
    }
    Ok(if errors.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}

fn join_cmd(global: &GlobalArgs, a: JoinArgs) -> CmdResult {
    // The definition's edition decides the rule unless --edition overrides it.
    let edition = match a.edition {
        Some(e) => e,
        None => global.competition()?.rules,
    };
    let rule = crate::scoring::editions::dispatch::core_rule(edition)
        .map_err(|e| Failure::usage(format!("validate-cores join (edition {edition}): {e}")))?;
    let manifest = match CoreManifest::read(&a.exec) {
        Ok(m) => m,
        Err(e) => {
            require_core_runs_in(global, &a.runs)?;
            eprintln!("{} {e:#}", crate::util::colour::error_prefix());
            return Ok(Outcome::Problems);
        }
    };
    let inputs = if a.validation_runs.is_empty() {
        vec![CoreManifest::dir(&a.exec).join(cores::LOCAL_RUNS)]
    } else {
        a.validation_runs.clone()
    };
    let mut validation = Vec::new();
    for f in &inputs {
        validation.extend(read_table(f)?.1)
    }
    if validation.is_empty() && !manifest.tasks.is_empty() {
        require_core_runs_in(global, &a.runs)?;
        fail!(
            "no validation runs in {} for the {} validation task(s) of {}; nothing written",
            super::score_cmd::paths_list(&inputs),
            manifest.tasks.len(),
            CoreManifest::dir(&a.exec).display()
        );
    }
    // The table as a stream: each run read, joined and written (the output
    // may be the input: it is written under a temporary name and renamed).
    let (identity, records) = stream_runs(global, &a.runs)?;
    let mut joiner = CoreJoiner::new(&manifest, &validation, rule);
    let mut out = crate::formats::jsonl::JsonlWriter::create(&a.output, identity.as_ref())?;
    let mut core_runs = false;
    for r in records {
        let mut r = r?;
        core_runs |= r.track == Some(crate::model::Track::UnsatCore);
        joiner.apply(&mut r);
        out.write_record(&r)?;
    }
    if !core_runs {
        // Dropped unfinished: the temporary file is removed, nothing written.
        drop(out);
        fail!("{}: no Unsat-Core runs; nothing written", a.runs.display());
    }
    out.finish()?;
    let summary = joiner.finish();
    if a.json {
        print(&to_json(&summary)?)?;
    } else {
        let c: Vec<String> = summary
            .by_status
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        print(&format!(
            "cores: {} ({} validation runs, {} unmatched)\n{}",
            if c.is_empty() {
                "none".into()
            } else {
                c.join(", ")
            },
            summary.validation_runs,
            summary.unmatched_validation_runs,
            problems(&summary.problems)
        ))?;
    }
    Ok(if summary.problems.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}

/// What must hold before any model is validated, so that a wrong `--logs`
/// or `--prepared` is an error (nothing written) and not every model marked
/// UNKNOWN: the table has Model-Validation runs, every log archive of their
/// models exists below the logs directory, and the prepared set reads
/// (checked in this order). `mv`: the table's Model-Validation runs.
fn check_model_inputs(
    a: &ModelsArgs,
    logs_given: bool,
    mv: &[IngestRecord],
    opts: &crate::validate::ModelOptions,
) -> Result<(), Failure> {
    use crate::model::Track;
    let output = &a.output;
    if mv.is_empty() {
        fail!(
            "{}: no Model-Validation runs; nothing written to {}",
            a.runs.display(),
            output.display()
        );
    }
    let archives: std::collections::BTreeSet<&str> = mv
        .iter()
        .filter_map(|r| r.model.as_ref().map(|m| m.log.archive.as_str()))
        .collect();
    let missing: Vec<&&str> = archives
        .iter()
        .filter(|x| !opts.logs.join(x).exists())
        .collect();
    if let Some(first) = missing.first() {
        fail!(
            "{}: {} of {} log archive(s) of the models are not there (e.g. {}); give the directory that was ingested with --logs DIR{}; nothing written to {}",
            opts.logs.display(),
            missing.len(),
            archives.len(),
            first,
            if !logs_given {
                " (default: the run table's directory)"
            } else {
                ""
            },
            output.display()
        );
    }
    if let Err(e) =
        crate::formats::prepared::PreparedSet::read(&opts.prepared, Track::ModelValidation)
    {
        fail!("{e:#}; nothing written to {}", output.display());
    }
    Ok(())
}

pub(super) fn run_models(global: &GlobalArgs, mut a: ModelsArgs) -> CmdResult {
    use super::workspace_defaults as ws;
    let logs_given = a.logs.is_some();
    (a.runs, a.output) = ws::validation_tables(a.runs_flag.take(), a.output_flag.take())?;
    a.prepared = ws::prepared(a.prepared_flag.take(), "--prepared <DIR>")?;
    (a.logs, a.cache) = ws::model_inputs(a.logs.take(), a.cache.take())?;
    // Only the Model-Validation runs are held (a table of the whole
    // competition has 1.8 million runs); the output is the table read again,
    // those runs replaced (pipeline::write_validated).
    let mut runs = crate::pipeline::model_runs_in(stream_runs(global, &a.runs)?.1)?;
    let dir = a
        .runs
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let checker = match &a.dolmen {
        Some(p) => Checker::Dolmen(p.clone()),
        None => {
            let argv = split_command(&a.solver);
            if argv.is_empty() {
                return Err(Failure::usage("--solver: empty command"));
            }
            Checker::Builtin(argv)
        }
    };
    let opts = ModelOptions {
        prepared: a.prepared.clone(),
        logs: a.logs.clone().unwrap_or_else(|| dir.clone()),
        checker,
        timeout: std::time::Duration::from_secs(a.timeout.max(1)),
        cache: if a.no_cache {
            None
        } else {
            Some(
                a.cache
                    .clone()
                    .unwrap_or_else(|| dir.join("model-validation-cache")),
            )
        },
        jobs: super::jobs(a.jobs),
    };
    check_model_inputs(&a, logs_given, &runs, &opts)?;
    let summary = crate::pipeline::validate_model_runs(&mut runs, &opts);
    crate::pipeline::write_validated(&a.runs, &a.output, runs, None)?;
    if a.json {
        print(&to_json(&summary)?)?;
    } else {
        let s: Vec<String> = summary
            .by_result
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let st: Vec<String> = summary
            .by_status
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        print(&format!(
            "models: {} validated: {} ({}); {} from the cache, {} checked, {:.2} s\n{}",
            summary.validated,
            if st.is_empty() {
                "none".into()
            } else {
                st.join(", ")
            },
            s.join(", "),
            summary.cache_hits,
            summary.checked,
            summary.seconds,
            problems(&summary.problems)
        ))?;
    }
    Ok(if summary.problems.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}
