//! `smtcomp test-solver`: what a solver author runs before submitting. The
//! competition's own code path (preparation, BenchExec definitions, tool-info
//! modules, real BenchExec, our trace executor, ingestion, core and model
//! validation) on a few small benchmarks of every entered logic of every
//! entered track, with a verdict per run in plain words.
//!
//! ```text
//! submission check -> test limits clamped to the machine (limits.rs)
//!   -> library (library.rs: the built-in corpus, generated.rs for logics it lacks)
//!   -> pick (pick.rs) -> pre-flight (preflight.rs) -> prepare -> generate (test limits)
//!   -> benchexec -> ingest -> validate cores/models -> diagnose (diagnose.rs) -> report
//! ```

mod diagnose;
pub mod generated;
pub mod library;
pub mod limits;
mod pick;
pub mod preflight;
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
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The tracks `test-solver` runs.
pub const TESTED_TRACKS: [Track; 7] = [
    Track::SingleQuery,
    Track::Incremental,
    Track::UnsatCore,
    Track::ModelValidation,
    Track::ProofExhibition,
    Track::Parallel,
    Track::Cloud,
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
    /// The benchmark library: a corpus layout (`single/`, `unsat-core/`,
    /// `incremental/`) or an SMT-LIB library (`non-incremental/`,
    /// `incremental/`); `None`: the corpus built into the binary.
    pub benchmarks: Option<PathBuf>,
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
    /// What the machine offers BenchExec (the limits are clamped to it).
    pub machine: limits::Machine,
    /// Test the submission's archive(s): download, check the hash, unpack
    /// into `OUT/archives/`, and run the commands from there as the
    /// competition does (`EXECDIR/archives/<solver>/...`); `solver_dir` is unused.
    pub archive: bool,
}

/// What `run` asks of the runner it is given: directories to mount read-only
/// into the container (pre-flight) and parallel runs per BenchExec call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunnerSetup {
    /// Hidden directories the runs need (the solver's, the helper binaries').
    pub read_only_dirs: Vec<PathBuf>,
    /// BenchExec's `-N`: runs side by side in one call, clamped to the machine.
    pub jobs: usize,
}

/// `test-solver`'s BenchExec: container mode, `setup.jobs` parallel runs per
/// call and as many calls side by side, the `smtcomp-*` binaries of `bin_dir`
/// on PATH, `setup.read_only_dirs` mounted.
pub fn local_runner(benchexec: PathBuf, bin_dir: PathBuf, setup: &RunnerSetup) -> LocalBenchExec {
    LocalBenchExec {
        options: RunOptions {
            benchexec,
            jobs: Some(setup.jobs as u32),
            container: true,
            extra_path: vec![bin_dir],
            start_time: None,
            timeout: None,
            replace: true,
            read_only_dirs: setup.read_only_dirs.clone(),
        },
        calls: setup.jobs,
    }
}

/// The runner `run` uses, made once the pre-flight checks know what it needs.
pub type MakeRunner<'a> = dyn Fn(&RunnerSetup) -> Box<dyn Runner> + 'a;

/// Runs the test, its BenchExec definitions on the runner `make_runner` gives
/// for the pre-flight's [`RunnerSetup`]; `log` receives one progress line per
/// stage. An error is an unusable input or a problem on our side (exit 2);
/// so is a report with [`TestReport::problems`].
pub fn run(
    comp: &Competition,
    opts: &TestOptions,
    make_runner: &MakeRunner<'_>,
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
    for d in [
        "corpus",
        "library",
        "prepared",
        "exec",
        "validation",
        "replay",
    ] {
        let p = out.join(d);
        if p.symlink_metadata().is_ok() {
            std::fs::remove_dir_all(&p)
                .with_context(|| format!("{}: cannot remove", p.display()))?;
        }
    }

    // What to test: the entered (track, logic) pairs the filters keep.
    let mut report = TestReport {
        solver: sub.name.clone(),
        submission: opts.submission.file.display().to_string(),
        competition: comp.name.clone(),
        notes: Vec::new(),
        problems: Vec::new(),
        tracks: Vec::new(),
        passed: 0,
        failed: 0,
        not_run: 0,
        not_tested: 0,
        coverage: report::Coverage::default(),
    };
    let tracks_entered: Vec<Track> = opts.submission.entries.keys().copied().collect();
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
            tr.not_tested = Some("not tested by test-solver".into());
        }
        for (division, logics) in divisions {
            for logic in logics {
                if opts
                    .logic
                    .as_ref()
                    .is_some_and(|re| !re.is_match(logic.as_str()))
                {
                    continue;
                }
                tr.logics.push(LogicResult {
                    logic: logic.to_string(),
                    division: division.to_string(),
                    runs: Vec::new(),
                    not_tested: None,
                    tested_with: None,
                });
            }
        }
        tr.logics.sort_by(|a, b| a.logic.cmp(&b.logic));
        if !tr.logics.is_empty() {
            report.tracks.push(tr);
        }
    }
    if report.tracks.is_empty() {
        bail!("{}", nothing_selected(sub, opts, &tracks_entered));
    }

    // Limits: the competition's test limits, clamped to this machine.
    let tested: BTreeSet<Track> = report
        .tracks
        .iter()
        .filter(|t| t.not_tested.is_none())
        .map(|t| t.track)
        .collect();
    let clamped = limits::clamp(comp, &tested, opts.machine, opts.jobs);
    let comp = &clamped.competition;
    for tr in &mut report.tracks {
        tr.limits = comp.track(tr.track).map(|d| d.test_limits);
    }
    for n in &clamped.notes {
        log(n);
    }
    report.notes.extend(clamped.notes.iter().cloned());

    // The library: the built-in corpus or --benchmarks, then generated
    // benchmarks for the logics it has nothing suitable for.
    let source = match &opts.benchmarks {
        Some(d) => d.clone(),
        None => library::write_embedded_corpus(&out.join("corpus"))?,
    };
    let lib = out.join("library");
    library::build_library(&source, &lib)?;
    let mut inv = pipeline::inventory(&lib, comp, opts.jobs);
    log(&format!(
        "library {}: {} non-incremental and {} incremental benchmarks",
        opts.benchmarks
            .as_ref()
            .map_or("(built in)".to_string(), |d| d.display().to_string()),
        inv.non_incremental.len(),
        inv.incremental.len()
    ));
    let pick_all = |inv: &crate::benchmarks::Inventory| -> BTreeMap<(Track, String), Picked> {
        let mut picks = BTreeMap::new();
        for tr in report.tracks.iter().filter(|t| t.not_tested.is_none()) {
            for lr in &tr.logics {
                let logic = crate::model::Logic::new(lr.logic.clone());
                picks.insert(
                    (tr.track, lr.logic.clone()),
                    pick::pick(inv, &lib, comp, tr.track, &logic, opts.per_logic),
                );
            }
        }
        picks
    };
    let mut picks = pick_all(&inv);
    let lacking: BTreeSet<String> = picks
        .iter()
        .filter(|((track, _), p)| pick::lacks(*track, p, opts.per_logic))
        .map(|((_, logic), _)| logic.clone())
        .collect();
    if !lacking.is_empty() {
        for logic in &lacking {
            generated::write(&lib, logic)?;
        }
        inv = pipeline::inventory(&lib, comp, opts.jobs);
        picks = pick_all(&inv);
        let note = format!(
            "generated small benchmarks of known status for {} logic(s) the library lacks benchmarks for ({})",
            lacking.len(),
            lacking.iter().cloned().collect::<Vec<_>>().join(", ")
        );
        log(&note);
        report.notes.push(note);
    }
    let mut selections = Vec::new();
    for tr in &mut report.tracks {
        if tr.not_tested.is_some() {
            continue;
        }
        let mut chosen = Vec::new();
        for lr in &mut tr.logics {
            match picks.remove(&(tr.track, lr.logic.clone())) {
                Some(Picked::Some(v)) => chosen.extend(v),
                Some(Picked::None(why)) => lr.not_tested = Some(why),
                None => lr.not_tested = Some("no benchmark".into()),
            }
        }
        if !chosen.is_empty() {
            selections.push(pick::selection(comp, tr.track, chosen));
        }
    }
    if selections.is_empty() {
        report.count();
        return Ok(report);
    }

    // --archive: the submission's archives, fetched and unpacked as the
    // competition does; the commands run from EXECDIR/archives/.
    let archives = if opts.archive {
        Some(fetch_archives(sub, &out, log)?)
    } else {
        None
    };

    // Pre-flight: every command can be started inside BenchExec's container.
    let solver_dir = match &opts.solver_dir {
        _ if opts.archive => None,
        Some(d) => Some(
            std::fs::canonicalize(d)
                .with_context(|| format!("{}: solver directory not found", d.display()))?,
        ),
        None if command_paths(sub) => Some(std::env::current_dir()?),
        None => None,
    };
    let path: Vec<PathBuf> = std::iter::once(opts.bin_dir.clone())
        .chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ))
        .collect();
    let pre = match &archives {
        Some(fetched) => {
            let mut all = preflight::Preflight::default();
            for (dir, participations) in fetched {
                let mut one = sub.clone();
                one.participations = participations
                    .iter()
                    .map(|&i| sub.participations[i].clone())
                    .collect();
                let p = preflight::check(&one, &tested, Some(out.join(dir).as_path()), &path);
                all.problems.extend(p.problems);
                all.mounts.extend(p.mounts);
            }
            // The runs use the copy in EXECDIR/archives (visible: an overlay).
            all.mounts.retain(|m| !m.starts_with(out.join("archives")));
            all
        }
        None => preflight::check(sub, &tested, solver_dir.as_deref(), &path),
    };
    if !pre.problems.is_empty() {
        bail!(
            "the solver cannot be started (nothing was run):\n  {}",
            pre.problems.join("\n  ")
        );
    }
    if !pre.mounts.is_empty() {
        let note = format!(
            "mounted read-only into BenchExec's container (it hides /home, /tmp and /run): {}",
            pre.mounts
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        log(&note);
        report.notes.push(note);
    }
    let runner = make_runner(&RunnerSetup {
        read_only_dirs: pre.mounts.iter().cloned().collect(),
        jobs: clamped.jobs,
    });
    runner.check()?;

    // Preparation, exactly as the competition prepares each track.
    let prepared = out.join("prepared");
    for set in pipeline::prepare_selections(&selections, &lib, &prepared, opts.jobs)? {
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
            on_path: archives.is_none(),
        },
        archives: archives.as_ref().map(|_| out.join("archives")).as_deref(),
    })?;
    for w in &generated.warnings {
        log(&format!("generate: {w}"));
    }
    let manifest = Manifest::read(&exec)?;

    // Real BenchExec, one call per definition, side by side.
    let files: Vec<&str> = manifest.definitions.keys().map(String::as_str).collect();
    log(&format!(
        "running {} BenchExec definitions (container mode, {} run(s) side by side per call)",
        files.len(),
        clamped.jobs
    ));
    let call_errors = pipeline::failures(&pipeline::run_all(&*runner, &exec, &manifest));
    // A BenchExec call that failed as a whole is our side's problem (limits,
    // cgroups, container), never the solver's.
    for (definition, why) in &call_errors {
        report
            .problems
            .push(format!("BenchExec failed on {definition}: {why}"));
    }

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

    // Verdicts. (The runs saw the output directory and the pre-flight's mounts.)
    let visible: Vec<PathBuf> = std::iter::once(out.clone())
        .chain(pre.mounts.iter().cloned())
        .collect();
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
                        let (key, definition) = manifest
                            .definitions
                            .iter()
                            .find(|(_, d)| {
                                r.rundefinition
                                    .as_deref()
                                    .is_some_and(|n| d.rundefinitions.contains_key(n))
                            })
                            .map_or((None, None), |(k, d)| (Some(k), Some(d)));
                        if let Some(why) = key
                            .and_then(|k| call_errors.get(k))
                            .filter(|_| r.error.as_deref() == Some(ingest::MISSING_ERROR))
                        {
                            let mut result = missing_run(b, tr.track, &manifest, &call_errors);
                            if result.verdict != Verdict::NotRun {
                                result.verdict = Verdict::NotRun;
                                result.reason = format!(
                                    "not run: BenchExec failed (not the solver's fault): {}: {why}",
                                    key.map_or("", |k| k.as_str())
                                );
                            }
                            result
                        } else {
                            let command = definition
                                .and_then(|d| d.rundefinitions.get(r.rundefinition.as_deref()?))
                                .map(|rd| rd.command.clone())
                                .unwrap_or_default();
                            let locate = || {
                                replay::locate(&opts.bin_dir, &command, &file, limits.time_s, &out)
                            };
                            let mut result = diagnose::diagnose(
                                r,
                                &diagnose::Context {
                                    benchmark: b,
                                    file: &file,
                                    results: &results,
                                    time_limit: limits.time_s,
                                    memory_mb: limits.memory_mb,
                                    locate: &locate,
                                    visible: &visible,
                                },
                            );
                            if r.status.as_deref() == Some("FAILED") {
                                let why = definition.and_then(|d| {
                                    pipeline::reason_line(
                                        &exec.join(&d.results_dir).join("benchexec.log"),
                                    )
                                });
                                result.reason = format!(
                                    "BenchExec could not start the solver: {}",
                                    why.unwrap_or_else(|| "BenchExec logged no reason".into())
                                );
                            }
                            result
                        }
                    }
                    None => missing_run(b, tr.track, &manifest, &call_errors),
                };
                result.generated = generated::is_generated(&b.original.family);
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

/// Fetches every archive of `sub` into `out/archives/` (an unchanged one is
/// kept): (directory relative to `out`, participations it serves), or the
/// first problem (no archive, download, hash, unpacking).
fn fetch_archives(
    sub: &Submission,
    out: &Path,
    log: &mut dyn FnMut(&str),
) -> anyhow::Result<Vec<(String, Vec<usize>)>> {
    let fetched = crate::archives::fetch_submission(sub, out, &crate::archives::Limits::default());
    if fetched.is_empty() {
        bail!("--archive: {} names no archive", sub.name);
    }
    let mut dirs = Vec::new();
    for (a, got) in fetched {
        let u = got.map_err(|e| anyhow::anyhow!("--archive: {e}"))?;
        log(&format!(
            "archive {}: {} ({} files, {} bytes, sha256 {}{})",
            a.archive.url,
            if u.skipped {
                format!("unchanged in {}", a.dir)
            } else {
                format!("unpacked into {}", a.dir)
            },
            u.files.len(),
            u.bytes,
            u.sha256,
            if u.verified {
                ", checked"
            } else {
                ", not checked: the submission gives no hash"
            }
        ));
        dirs.push((a.dir, a.participations));
    }
    Ok(dirs)
}

/// Why nothing is selected: no entered track among `--track`, or no entered
/// logic of those tracks matches `--logic`.
fn nothing_selected(sub: &Submission, opts: &TestOptions, entered: &[Track]) -> String {
    let names = |v: &[Track]| v.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ");
    let in_tracks = entered
        .iter()
        .any(|t| opts.tracks.is_empty() || opts.tracks.contains(t));
    if !in_tracks {
        return format!(
            "{} enters none of the requested tracks ({}); it enters {}",
            sub.name,
            names(&opts.tracks),
            names(entered)
        );
    }
    format!(
        "--logic {}: matches none of the logics {} enters{}; nothing to test",
        opts.logic.as_ref().map_or(String::new(), |re| re
            .as_str()
            .trim_start_matches("^(?:")
            .trim_end_matches(")$")
            .to_string()),
        sub.name,
        if opts.tracks.is_empty() {
            String::new()
        } else {
            format!(" in {}", names(&opts.tracks))
        }
    )
}

/// A result for a benchmark without a run record: not run when its
/// definition's BenchExec call failed (our side), else a failure.
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
        .find_map(|(f, _)| call_errors.get(f).map(|e| format!("{f}: {e}")));
    let (verdict, reason) = match why {
        Some(why) => (
            Verdict::NotRun,
            format!("not run: BenchExec failed (not the solver's fault): {why}"),
        ),
        None => (
            Verdict::Fail,
            "no run: BenchExec recorded no run for this benchmark".into(),
        ),
    };
    RunResult {
        benchmark: b.original.path(),
        prepared: String::new(),
        expected: b.status.name().to_string(),
        answer: "none".into(),
        time_s: None,
        verdict,
        reason,
        log: None,
        generated: false,
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
                rule: crate::scoring::editions::dispatch::core_rule(comp.rules).unwrap_or_default(),
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
