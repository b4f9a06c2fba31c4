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

use crate::benchexec::{GenerateOptions, Manifest, SolverLocation, generate};
use crate::benchexec::{RunOptions, run_side_by_side};
use crate::benchmarks::scan;
use crate::ingest::{self, IngestOptions, IngestRecord, ManifestIndex};
use crate::model::{Competition, Track};
use crate::prepare::{PrepareOptions, PreparedSet, prepare};
use crate::submission::{LoadedSubmission, Submission};
use anyhow::{Context, bail};
use pick::Picked;
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
    /// Parallel runs and worker threads.
    pub jobs: usize,
    /// The `benchexec` executable.
    pub benchexec: PathBuf,
    /// Directory of the `smtcomp-*` binaries (put on PATH for BenchExec).
    pub bin_dir: PathBuf,
    /// Benchmarks per logic.
    pub per_logic: usize,
}

/// Runs the test; `log` receives one progress line per stage.
pub fn run(
    comp: &Competition,
    opts: &TestOptions,
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
    let library = library_view(&opts.benchmarks, &out)?;
    let inv = scan(&library, comp, opts.jobs);
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

    if !is_executable(&opts.benchexec) {
        bail!(
            "{}: BenchExec not found (scripts/install-deps installs it; or give --benchexec PATH)",
            opts.benchexec.display()
        );
    }

    // Preparation, exactly as the competition prepares each track.
    let prepared = out.join("prepared");
    for sel in &selections {
        let set = prepare(
            sel,
            &PrepareOptions {
                library: library.clone(),
                out: prepared.clone(),
                scrambler: None,
                jobs: opts.jobs,
            },
        )?;
        for f in &set.failures {
            log(&format!(
                "{}: {}: cannot prepare: {}",
                sel.track,
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
    let generated = generate(
        comp,
        &[sub],
        &GenerateOptions {
            prepared: prepared.clone(),
            out: exec.clone(),
            test: true,
            location: SolverLocation {
                solver_dirs: solver_dir
                    .map(|d| BTreeMap::from([(sub.name.clone(), d)]))
                    .unwrap_or_default(),
                on_path: true,
            },
            binaries_from: None,
        },
    )
    .map_err(|e| anyhow::anyhow!("cannot generate BenchExec definitions:\n{}", e.join("\n")))?;
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
    let run_opts = RunOptions {
        benchexec: opts.benchexec.clone(),
        jobs: Some(opts.jobs as u32),
        container: true,
        extra_path: vec![opts.bin_dir.clone()],
        start_time: None,
        timeout: None,
    };
    let call_errors = run_side_by_side(&exec, &manifest, &files, &run_opts, opts.jobs);

    // Ingestion and validation.
    let index = ManifestIndex::read(&exec.join(crate::formats::generation::RUNS_FILE))?;
    let results = exec.join("results");
    let mut records = if results.is_dir() {
        ingest::ingest(
            std::slice::from_ref(&results),
            &IngestOptions {
                competition: comp,
                manifest: Some(&index),
                progress: false,
            },
        )
        .records
    } else {
        Vec::new()
    };
    let validation_notes = validate(
        &mut records,
        sub,
        comp,
        &prepared,
        &results,
        &out,
        opts.jobs,
    )?;
    ingest::write_jsonl(&out.join("runs.jsonl"), &records)?;

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

/// The library to scan: `corpus/`'s fast files linked into `OUT/library`, or
/// the given SMT-LIB library itself.
fn library_view(benchmarks: &Path, out: &Path) -> anyhow::Result<PathBuf> {
    let root = std::fs::canonicalize(benchmarks)
        .with_context(|| format!("{}: benchmark library not found", benchmarks.display()))?;
    if root.join("single").is_dir()
        || root.join("incremental").is_dir() && !root.join("non-incremental").is_dir()
    {
        let library = out.join("library");
        crate::benchmarks::link_corpus(&root, &library)?;
        return Ok(library);
    }
    Ok(root)
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
    use crate::validate::cores::{self, GenerateOptions, TimeLimit, Validators};
    use crate::validate::{Checker, ModelOptions, validate_models};
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
            let (manifest, _) = cores::generate(
                records,
                &GenerateOptions {
                    prepared,
                    out: &dir,
                    validators: &Validators::Given(names.clone()),
                    time_limit: TimeLimit::Fixed(time_s),
                },
            )?;
            let commands = crate::validate::ValidatorCommands::given(
                available
                    .iter()
                    .map(|(n, c)| (n.to_string(), c.iter().map(|s| s.to_string()).collect()))
                    .collect(),
            );
            let runs = cores::run_local(&dir, &manifest, &commands, jobs);
            ingest::write_jsonl(&dir.join(cores::LOCAL_RUNS), &runs)?;
            crate::validate::join(records, &manifest, &runs);
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
            validate_models(
                records,
                &ModelOptions {
                    prepared: prepared.to_path_buf(),
                    logs: results.to_path_buf(),
                    checker: Checker::Builtin(vec!["z3".into(), "-smt2".into()]),
                    timeout: std::time::Duration::from_secs(10),
                    cache: None,
                    jobs,
                },
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

/// Whether `name` is an executable file on PATH.
pub fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(name).is_file()))
}

/// Whether `p` is an executable file (a name without `/` is looked up on PATH).
fn is_executable(p: &Path) -> bool {
    if p.components().count() > 1 {
        return p.is_file();
    }
    on_path(&p.to_string_lossy())
}
