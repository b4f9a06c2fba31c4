//! `smtcomp test-solver`: what a solver author runs before submitting. The
//! competition's own code path (preparation, BenchExec definitions, tool-info
//! modules, real BenchExec, our trace executor, ingestion, core and model
//! validation) on a few small benchmarks of every entered logic of every
//! entered track, with a verdict per run in plain words.
//!
//! ```text
//! submission check -> library scan -> pick (pick.rs) -> prepare -> generate (test limits)
//!   -> benchexec -> ingest -> validate cores/models -> diagnose (diagnose.rs) -> report
//! ```

mod diagnose;
mod pick;
mod replay;
mod report;

use crate::benchexec::{Manifest, RunOptions, SolverLocation};
use crate::ingest::{self, IngestRecord};
use crate::model::{Competition, Track};
use crate::pipeline::{self, CoreValidation, Generation, LocalBenchExec, Runner};
use crate::prepare::PreparedSet;
use crate::submission::{LoadedSubmission, Submission};
use anyhow::{Context, bail};
use pick::Picked;
use pipeline::on_path;
use report::{LogicResult, RunResult, TestReport, TrackResult, Verdict};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The tracks `test-solver` runs.
pub const TESTED_TRACKS: [Track; 5] = [
    Track::SingleQuery,
    Track::Incremental,
    Track::UnsatCore,
    Track::ModelValidation,
    Track::ProofExhibition,
];

/// Solvers used to validate unsat cores, when on PATH: (name, command).
pub const CORE_VALIDATORS: [(&str, &[&str]); 2] = [("cvc5", &["cvc5"]), ("z3", &["z3", "-smt2"])];

/// Inputs of a test run.
#[derive(Debug, Clone)]
pub struct TestOptions {
    /// The loaded, error-free submission.
    pub submission: LoadedSubmission,
    /// Only these tracks (empty: every entered track).
    pub tracks: Vec<Track>,
    /// Only logics matching this (whole-name) regular expression.
    pub logic: Option<regex::Regex>,
    /// The benchmark library: the repository's `corpus/` layout (`single/`,
    /// `incremental/`) or an SMT-LIB library (`non-incremental/`, `incremental/`).
    pub benchmarks: PathBuf,
    /// Directory of the unpacked solver archive (commands with a `/` are
    /// relative to it); `None`: bare names on PATH, paths from the current directory.
    pub solver_dir: Option<PathBuf>,
    /// Output directory (its `library`, `prepared`, `exec`, `validation` and
    /// `replay` subdirectories are replaced).
    pub out: PathBuf,
    /// Worker threads.
    pub jobs: usize,
    /// Directory of the `smtcomp-*` binaries (the trace executor of a replayed run).
    pub bin_dir: PathBuf,
    /// Benchmarks per logic.
    pub per_logic: usize,
}

/// `test-solver`'s BenchExec: container mode, `jobs` parallel runs per call
/// and `jobs` calls side by side, the `smtcomp-*` binaries of `bin_dir` on PATH.
pub fn local_runner(benchexec: PathBuf, bin_dir: PathBuf, jobs: usize) -> LocalBenchExec {
    LocalBenchExec {
        options: RunOptions {
            benchexec,
            jobs: Some(jobs as u32),
            container: true,
            extra_path: vec![bin_dir],
            start_time: None,
            timeout: None,
            replace: true,
        },
        calls: jobs,
    }
}

/// Runs the test, its BenchExec definitions on `runner`; `log` receives one
/// progress line per stage.
pub fn run(
    comp: &Competition,
    opts: &TestOptions,
    runner: &dyn Runner,
    log: &mut dyn FnMut(&str),
) -> anyhow::Result<TestReport> {
    let sub: &Submission = opts
        .submission
        .submission
        .as_ref()
        .context("the submission could not be read")?;
    std::fs::create_dir_all(&opts.out)
        .with_context(|| format!("{}: cannot create", opts.out.display()))?;
    let out = std::fs::canonicalize(&opts.out)?;
    for d in ["library", "prepared", "exec", "validation", "replay"] {
        let p = out.join(d);
        if p.symlink_metadata().is_ok() {
            std::fs::remove_dir_all(&p)
                .with_context(|| format!("{}: cannot remove", p.display()))?;
        }
    }

    // The library and its inventory.
    let library = pipeline::library_view(&opts.benchmarks, &out)?;
    let inv = pipeline::inventory(&library, comp, opts.jobs);
    log(&format!(
        "library {}: {} non-incremental and {} incremental benchmarks",
        opts.benchmarks.display(),
        inv.non_incremental.len(),
        inv.incremental.len()
    ));

    // What to run: per entered track and logic.
    let mut report = TestReport {
        solver: sub.name.clone(),
        submission: opts.submission.file.display().to_string(),
        competition: comp.name.clone(),
        tracks: Vec::new(),
        passed: 0,
        failed: 0,
        not_tested: 0,
    };
    let mut selections = Vec::new();
    for (track, divisions) in &opts.submission.entries {
        if !opts.tracks.is_empty() && !opts.tracks.contains(track) {
            continue;
        }
        let mut tr = TrackResult {
            track: *track,
            limits: comp.track(*track).map(|d| d.test_limits),
            not_tested: None,
            notes: Vec::new(),
            logics: Vec::new(),
        };
        if !TESTED_TRACKS.contains(track) {
            tr.not_tested = Some("not tested by test-solver yet".into());
        }
        let mut chosen = Vec::new();
        for (division, logics) in divisions {
            for logic in logics {
                if opts
                    .logic
                    .as_ref()
                    .is_some_and(|re| !re.is_match(logic.as_str()))
                {
                    continue;
                }
                let mut lr = LogicResult {
                    logic: logic.to_string(),
                    division: division.to_string(),
                    runs: Vec::new(),
                    not_tested: None,
                };
                if tr.not_tested.is_none() {
                    match pick::pick(&inv, &library, comp, *track, logic, opts.per_logic) {
                        Picked::Some(v) => chosen.extend(v),
                        Picked::None(why) => lr.not_tested = Some(why),
                    }
                }
                tr.logics.push(lr);
            }
        }
        tr.logics.sort_by(|a, b| a.logic.cmp(&b.logic));
        if !chosen.is_empty() {
            selections.push(pick::selection(comp, *track, chosen));
        }
        report.tracks.push(tr);
    }
    if report.tracks.is_empty() {
        bail!(
            "{} enters none of the requested tracks{}",
            sub.name,
            if opts.tracks.is_empty() {
                String::new()
            } else {
                format!(
                    " ({})",
                    opts.tracks
                        .iter()
                        .map(|t| t.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        );
    }
    if selections.is_empty() {
        report.count();
        return Ok(report);
    }

    runner.check()?;

    // Preparation, exactly as the competition prepares each track.
    let prepared = out.join("prepared");
    for set in pipeline::prepare_selections(&selections, &library, &prepared, opts.jobs)? {
        for f in &set.failures {
            log(&format!(
                "{}: {}: cannot prepare: {}",
                set.track,
                f.original.path(),
                f.reason
            ));
        }
    }
    let sets: Vec<PreparedSet> = selections
        .iter()
        .map(|s| PreparedSet::read(&prepared, s.track))
        .collect::<Result<_, _>>()?;
    log(&format!(
        "prepared {} benchmarks in {}",
        sets.iter().map(|s| s.benchmarks.len()).sum::<usize>(),
        prepared.display()
    ));

    // BenchExec definitions for this one solver, test limits.
    let exec = out.join("exec");
    let solver_dir = match &opts.solver_dir {
        Some(d) => Some(
            std::fs::canonicalize(d)
                .with_context(|| format!("{}: solver directory", d.display()))?,
        ),
        None if command_paths(sub) => Some(std::env::current_dir()?),
        None => None,
    };
    let generated = pipeline::generate(&Generation {
        competition: comp,
        submissions: &[sub],
        prepared: &prepared,
        exec: &exec,
        test: true,
        location: SolverLocation {
            solver_dirs: solver_dir
                .map(|d| BTreeMap::from([(sub.name.clone(), d)]))
                .unwrap_or_default(),
            on_path: true,
        },
        archives: None,
    })?;
    for w in &generated.warnings {
        log(&format!("generate: {w}"));
    }
    let manifest = Manifest::read(&exec)?;

    // Real BenchExec, one call per definition, side by side.
    let files: Vec<&str> = manifest.definitions.keys().map(String::as_str).collect();
    log(&format!(
        "running {} BenchExec definitions (container mode)",
        files.len()
    ));
    let call_errors = pipeline::failures(&pipeline::run_all(runner, &exec, &manifest));

    // Ingestion and validation.
    let results = pipeline::results_dir(&exec);
    let mut records = pipeline::ingest_results(&exec, comp, false)?.records;
    let validation_notes = validate(
        &mut records,
        sub,
        comp,
        &prepared,
        &results,
        &out,
        opts.jobs,
    )?;
    ingest::write_jsonl(
        &out.join("runs.jsonl"),
        Some(&ingest::TableIdentity::of(comp)),
        &records,
    )?;

    // Verdicts.
    for tr in &mut report.tracks {
        let Some(set) = sets.iter().find(|s| s.track == tr.track) else {
            continue;
        };
        tr.notes.extend(validation_notes.get(&tr.track).cloned());
        let dir = PreparedSet::track_dir(&prepared, tr.track);
        for lr in &mut tr.logics {
            for b in set
                .benchmarks
                .iter()
                .filter(|b| b.original.logic.as_str() == lr.logic)
            {
                let file = dir.join(&b.path);
                let rec = records
                    .iter()
                    .find(|r| r.track == Some(tr.track) && r.benchmark_key == b.original.path());
                let limits = tr.limits.unwrap_or(crate::model::Limits {
                    time_s: 60,
                    memory_mb: 8192,
                    cores: 1,
                });
                let mut result = match rec {
                    Some(r) => {
                        let command = manifest
                            .definitions
                            .values()
                            .find_map(|d| d.rundefinitions.get(r.rundefinition.as_deref()?))
                            .map(|rd| rd.command.clone())
                            .unwrap_or_default();
                        let locate =
                            || replay::locate(&opts.bin_dir, &command, &file, limits.time_s, &out);
                        diagnose::diagnose(
                            r,
                            &diagnose::Context {
                                benchmark: b,
                                file: &file,
                                results: &results,
                                time_limit: limits.time_s,
                                memory_mb: limits.memory_mb,
                                locate: &locate,
                            },
                        )
                    }
                    None => missing_run(b, tr.track, &manifest, &call_errors),
                };
                result.prepared = file
                    .strip_prefix(&out)
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                if let Some(l) = &mut result.log {
                    *l = format!("exec/results/{l}");
                }
                lr.runs.push(result);
            }
            lr.runs.sort_by(|a, b| a.benchmark.cmp(&b.benchmark));
        }
    }
    report.count();
    Ok(report)
}

/// A result for a benchmark without a run record.
fn missing_run(
    b: &crate::prepare::PreparedBenchmark,
    track: Track,
    manifest: &Manifest,
    call_errors: &BTreeMap<String, String>,
) -> RunResult {
    let why = manifest
        .definitions
        .iter()
        .filter(|(_, d)| {
            d.track == track
                && d.rundefinitions
                    .values()
                    .any(|rd| rd.logics.contains(&b.original.logic))
        })
        .find_map(|(f, _)| call_errors.get(f).map(|e| format!("{f}: {e}")))
        .unwrap_or_else(|| "no run recorded for this benchmark".into());
    RunResult {
        benchmark: b.original.path(),
        prepared: String::new(),
        expected: b.status.name().to_string(),
        answer: "none".into(),
        time_s: None,
        verdict: Verdict::Fail,
        reason: format!("no run: {why}"),
        log: None,
    }
}

/// Whether some command of `sub` has a path (not a bare name on PATH).
fn command_paths(sub: &Submission) -> bool {
    sub.participations
        .iter()
        .filter_map(|p| sub.command_of(p))
        .any(|c| c.binary.contains('/'))
}

/// Validates cores (the available [`CORE_VALIDATORS`], local runs with the
/// track's test time limit) and models (z3 on the benchmark with the model
/// substituted); returns one note per track on what was used.
fn validate(
    records: &mut [IngestRecord],
    _sub: &Submission,
    comp: &Competition,
    prepared: &Path,
    results: &Path,
    out: &Path,
    jobs: usize,
) -> anyhow::Result<BTreeMap<Track, String>> {
    use crate::validate::cores::{TimeLimit, Validators};
    let mut notes = BTreeMap::new();
    let dir = out.join("validation");
    std::fs::create_dir_all(&dir)?;
    let has_uc = records.iter().any(|r| r.track == Some(Track::UnsatCore));
    let has_mv = records
        .iter()
        .any(|r| r.track == Some(Track::ModelValidation));
    if has_uc {
        let available: Vec<(&str, &[&str])> = CORE_VALIDATORS
            .iter()
            .copied()
            .filter(|(name, _)| on_path(name))
            .collect();
        if available.is_empty() {
            notes.insert(
                Track::UnsatCore,
                "cores not validated: no validator (cvc5, z3) found on PATH".to_string(),
            );
        } else {
            let names: Vec<String> = available.iter().map(|(n, _)| n.to_string()).collect();
            let time_s = comp
                .track(Track::UnsatCore)
                .map_or(60.0, |t| f64::from(t.test_limits.time_s));
            let how = CoreValidation {
                validators: Validators::Given(names.clone()),
                commands: crate::validate::ValidatorCommands::given(
                    available
                        .iter()
                        .map(|(n, c)| (n.to_string(), c.iter().map(|s| s.to_string()).collect()))
                        .collect(),
                ),
                time_limit: TimeLimit::Fixed(time_s),
            };
            pipeline::validate_cores(records, prepared, &dir, &how, jobs)?;
            notes.insert(
                Track::UnsatCore,
                format!(
                    "cores validated by {} ({time_s} s each; refuted when at least as many say sat as unsat)",
                    names.join(" and ")
                ),
            );
        }
    }
    if has_mv {
        if on_path("z3") {
            pipeline::validate_model_runs(
                records,
                &pipeline::z3_models(prepared, results, None, jobs),
            );
            notes.insert(
                Track::ModelValidation,
                "models checked by z3 on the benchmark with the model substituted".to_string(),
            );
        } else {
            notes.insert(
                Track::ModelValidation,
                "models not validated: z3 not found on PATH".to_string(),
            );
        }
    }
    Ok(notes)
}
