//! `smtcomp test-solver`: what a solver author runs before submitting. The
//! competition's own code path (preparation, BenchExec definitions, tool-info
//! modules, real BenchExec, our trace executor, ingestion, core and model
//! validation) on a few small benchmarks of every entered logic of every
//! entered track, with a verdict per run in plain words.
//!
//! The submission check and the test limits clamped to the machine
//! (limits.rs) configure the run; the stages are the pipeline's one driver's,
//! with test-solver's plan (plan.rs: library.rs and generated.rs for the
//! inventory, pick.rs for the selection, preflight.rs before the generation,
//! diagnose.rs for the verdicts of the report stage).

mod diagnose;
pub mod generated;
pub mod library;
pub mod limits;
mod pick;
mod plan;
pub mod preflight;
mod replay;
mod report;

use crate::benchexec::{Manifest, RunOptions};
use crate::ingest::IngestRecord;
use crate::model::{Competition, Track};
use crate::pipeline::{self, CoreValidation, LocalBenchExec, Runner};
use crate::submission::{LoadedSubmission, Submission};
use anyhow::{Context, bail};
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
    pub library: Option<PathBuf>,
    /// Run exactly these benchmarks of `library` (an SMT-LIB library), with
    /// the competition's limits instead of the test limits: (list file, list).
    pub list: Option<(PathBuf, crate::benchmarks::list::BenchmarkList)>,
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
    /// Do not validate cores and models: runs stay OK without the check
    /// (else a run no validator could check is NOT CHECKED).
    pub no_validation: bool,
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
    // One test per output directory (its BenchExec calls hold the lock too).
    let _lock = crate::util::dirlock::acquire(&out, ".smtcomp.lock", "smtcomp test-solver")?;
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
        limits_used: match opts.list {
            Some(_) => "competition limits".into(),
            None => "test limits".into(),
        },
        problems: Vec::new(),
        missing: Vec::new(),
        tracks: Vec::new(),
        passed: 0,
        failed: 0,
        not_run: 0,
        not_checked: 0,
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
    // A list runs with the competition's limits, not the short test limits.
    let mut base = comp.clone();
    if opts.list.is_some() {
        for t in &tested {
            if let Some(d) = base.tracks.get_mut(t) {
                d.test_limits = d.limits;
                let line = format!(
                    "{t}: the competition's limits for the listed benchmarks: {} s, {} MB, {} core(s) per run",
                    d.limits.time_s, d.limits.memory_mb, d.limits.cores
                );
                log(&line);
                report.notes.push(line);
            }
        }
    }
    let clamped = limits::clamp(&base, &tested, opts.machine, opts.jobs);
    let comp = &clamped.competition;
    for tr in &mut report.tracks {
        tr.limits = comp.track(tr.track).map(|d| d.test_limits);
    }
    for n in &clamped.notes {
        log(n);
    }
    report.notes.extend(clamped.notes.iter().cloned());

    let log = std::cell::RefCell::new(log);
    let mut plan = plan::TestPlan::new(plan::Setup {
        opts,
        sub,
        comp: clamped.competition.clone(),
        jobs: clamped.jobs,
        tested,
        out,
        make_runner,
        log: &log,
        report,
    });
    let driven = pipeline::drive(&mut plan, None, None, &mut |l| {
        if l.state == pipeline::State::Done && !l.detail.is_empty() {
            (log.borrow_mut())(&l.detail);
        }
    });
    if let Some(e) = driven.error {
        return Err(e);
    }
    let mut report = plan.into_report();
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
    let pattern = opts.logic.as_ref().map_or(String::new(), |re| {
        re.as_str()
            .trim_start_matches("^(?:")
            .trim_end_matches(")$")
            .to_string()
    });
    // Logic names are upper case: `qf_lia` is a common slip.
    let entered_logics: BTreeSet<String> = opts
        .submission
        .entries
        .iter()
        .filter(|(t, _)| opts.tracks.is_empty() || opts.tracks.contains(t))
        .flat_map(|(_, d)| d.values().flatten().map(|l| l.to_string()))
        .collect();
    let hint = regex::RegexBuilder::new(&format!("^(?:{pattern})$"))
        .case_insensitive(true)
        .build()
        .ok()
        .and_then(|re| entered_logics.iter().find(|l| re.is_match(l)).cloned())
        .map_or(String::new(), |l| {
            format!(" (logic names are case-sensitive: {l} is entered; try --logic {l})")
        });
    format!(
        "--logic {pattern}: matches none of the logics {} enters{}{hint}; nothing to test",
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
                "cores not checked: no validator (cvc5, z3) found on PATH; install one (`pip install z3-solver`) or give --no-validation".to_string(),
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
                "models not checked: z3 not found on PATH; install it (`pip install z3-solver`) or give --no-validation".to_string(),
            );
        }
    }
    Ok(notes)
}
