//! The demo competition: the whole pipeline on the bundled corpus and example
//! submissions, with real solvers and real BenchExec.
//!
//! The steps of [`crate::pipeline`] as stages (each writes below the output
//! directory and is skipped on a re-run when its inputs did not change, see
//! [`Stages`]); the BenchExec definitions run on the given [`Runner`]
//! (`smtcomp demo`: [`local_runner`]):
//!
//! ```text
//! inventory -> selection -> preparation -> generation -> runs -> ingestion
//!   -> validation -> check -> scoring (+ proof summary) -> report
//! ```
//!
//! The Proof Exhibition Track runs like the others (cvc5 through
//! `smtcomp-proof-wrapper` and its `smtcomp_checker`, from `demo/archives/`) and is
//! summarized, not scored, as the 2023 rules (5.8) say.

mod check;

use crate::benchexec::{Manifest, RunOptions, SolverLocation};
use crate::benchmarks::Inventory;
use crate::ingest::{self, IngestRecord};
use crate::model::{Competition, Track};
use crate::pipeline::{self, CoreValidation, Generation, LocalBenchExec, Runner, Stages};
use crate::prepare::PreparedSet;
use crate::report::TrackReport;
use crate::scoring::TrackScores;
use crate::scoring::editions::e2023::ProofLine;
use crate::submission::{LoadedSubmission, load_set};
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use crate::pipeline::winners;

/// The tracks the demo runs.
pub const DEMO_TRACKS: [Track; 5] = [
    Track::SingleQuery,
    Track::Incremental,
    Track::UnsatCore,
    Track::ModelValidation,
    Track::ProofExhibition,
];

/// Whether the demo scores `track` (the Proof Exhibition Track is summarized instead).
pub fn is_scored(track: Track) -> bool {
    track != Track::ProofExhibition
}

/// The demo's BenchExec: container mode, `jobs` parallel runs per call and
/// `jobs` calls side by side, the `smtcomp-*` binaries of `bin_dir` on PATH,
/// a fixed start time (reproducible result file names).
pub fn local_runner(benchexec: PathBuf, bin_dir: PathBuf, jobs: usize) -> LocalBenchExec {
    LocalBenchExec {
        options: RunOptions {
            benchexec,
            jobs: Some(jobs as u32),
            container: true,
            extra_path: vec![bin_dir],
            start_time: Some("2025-07-01 12:00:00".into()),
            timeout: None,
            replace: true,
            read_only_dirs: Vec::new(),
        },
        calls: jobs,
    }
}

/// Inputs of a demo run.
#[derive(Debug, Clone)]
pub struct DemoOptions {
    /// The repository's `corpus/` directory.
    pub corpus: PathBuf,
    /// The example submissions (`demo/submissions`).
    pub submissions: PathBuf,
    /// The demo competition definition (`demo/competition.toml`).
    pub competition: PathBuf,
    /// Unpacked solver archives (`demo/archives`): each subdirectory is copied to
    /// `EXECDIR/archives/`, where commands with a relative binary are looked up.
    pub archives: PathBuf,
    /// Output directory.
    pub out: PathBuf,
    /// Worker threads.
    pub jobs: usize,
    /// Redo every stage.
    pub fresh: bool,
}

/// What a demo run produced.
#[derive(Debug)]
pub struct DemoOutcome {
    /// The ingested runs.
    pub runs: Vec<IngestRecord>,
    /// The consistency check of the runs against the corpus.
    pub check: check::DemoCheck,
    /// The scores per track (rules policy).
    pub scores: Vec<TrackScores>,
    /// The Proof Exhibition summary (2023 rules 5.8: not scored).
    pub proofs: Vec<ProofLine>,
    /// The results site's index page.
    pub site_index: PathBuf,
    /// Per stage: name, seconds, whether it was reused.
    pub timings: Vec<(String, f64, bool)>,
}

/// Scores every demo track (rules policy) and writes, per track, Markdown tables
/// (`<track>.md`) and the website-compatible pages (`<track>.json`) into `dir`.
pub fn score_tracks(
    comp: &Competition,
    loaded: &[LoadedSubmission],
    inventory: &Inventory,
    runs: &[IngestRecord],
    dir: &Path,
) -> anyhow::Result<Vec<TrackReport>> {
    let tracks: Vec<Track> = DEMO_TRACKS.into_iter().filter(|t| is_scored(*t)).collect();
    Ok(pipeline::score_tracks(
        comp, loaded, inventory, runs, &tracks, dir,
    )?)
}

/// Runs the demo, its BenchExec definitions on `runner`; `log` receives one
/// line per stage.
pub fn run(
    opts: &DemoOptions,
    runner: &dyn Runner,
    log: &mut dyn FnMut(&str),
) -> anyhow::Result<DemoOutcome> {
    let comp = Competition::from_path(&opts.competition)?;
    // What the runs need from the system (BenchExec, its cgroups, the helpers),
    // before any stage: a missing piece is named now, not after the stages before the runs.
    runner.check()?;
    std::fs::create_dir_all(&opts.out)
        .with_context(|| format!("{}: cannot create", opts.out.display()))?;
    let out = std::fs::canonicalize(&opts.out)?;
    let mut stages = Stages::new(&out, opts.fresh)?;
    let loaded = load_set(std::slice::from_ref(&opts.submissions), &comp);
    let subs = crate::submission::usable(&loaded)?;

    // 1. Inventory of the corpus without its slow files.
    let inv_path = out.join("inventory.json");
    let corpus = std::fs::canonicalize(&opts.corpus)
        .with_context(|| format!("{}: corpus not found", opts.corpus.display()))?;
    let library = out.join("library");
    stages.run("inventory", &[&corpus], log, || {
        crate::benchmarks::link_corpus(&corpus, &library)?;
        let inv = pipeline::complete_inventory(&library, &comp, opts.jobs)?;
        inv.write(&inv_path)?;
        Ok(format!(
            "{} non-incremental and {} incremental benchmarks",
            inv.non_incremental.len(),
            inv.incremental.len()
        ))
    })?;

    // 2. Seed, selection and 3. preparation, per track.
    let seed = pipeline::seed(&comp, &subs)?;
    let prepared = out.join("prepared");
    stages.run("selection+preparation", &[&inv_path], log, || {
        let inv = Inventory::read(&inv_path)?;
        let mut selections = Vec::new();
        for track in DEMO_TRACKS {
            let sel = pipeline::select_track(&inv, &comp, track, seed)?;
            crate::formats::datafile::write_json(
                &out.join(format!("selection-{}.json", track.short_name())),
                &sel,
            )?;
            selections.push(sel);
        }
        let sets = pipeline::prepare_selections(&selections, &library, &prepared, opts.jobs)?;
        let mut counts = Vec::new();
        for set in &sets {
            let track = set.track;
            if !set.failures.is_empty() {
                bail!(
                    "{track}: {} benchmarks could not be prepared: {:?}",
                    set.failures.len(),
                    set.failures
                );
            }
            counts.push(format!("{} {}", track.short_name(), set.benchmarks.len()));
        }
        Ok(format!("seed {seed}; prepared {}", counts.join(", ")))
    })?;

    // 4. Generation.
    let exec = out.join("exec");
    stages.run(
        "generation",
        &[
            &prepared,
            &opts.submissions,
            &opts.competition,
            &opts.archives,
        ],
        log,
        || {
            let refs: Vec<_> = subs.iter().map(|(_, s)| s).collect();
            let g = pipeline::generate(&Generation {
                competition: &comp,
                submissions: &refs,
                prepared: &prepared,
                exec: &exec,
                test: false,
                location: SolverLocation {
                    solver_dirs: Default::default(),
                    on_path: true,
                },
                archives: Some(&opts.archives),
            })?;
            Ok(format!(
                "{} benchmark definitions",
                g.manifest.definitions.len()
            ))
        },
    )?;

    // 5. Runs.
    let manifest = Manifest::read(&exec)?;
    stages.run(
        "benchexec runs",
        &[&exec.join("manifest.json")],
        log,
        || {
            let runs = pipeline::run_all(runner, &exec, &manifest);
            pipeline::require_all(&runs)?;
            Ok(format!("{} definitions run", runs.len()))
        },
    )?;

    // 6. Ingestion.
    let runs_path = out.join("runs.jsonl.gz");
    let results = pipeline::results_dir(&exec);
    stages.run("ingestion", &[&results], log, || {
        let got = pipeline::ingest_complete(&exec, &comp, true)?;
        ingest::write_jsonl(
            &runs_path,
            Some(&ingest::TableIdentity::of(&comp)),
            &got.records,
        )?;
        Ok(format!("{} runs", got.records.len()))
    })?;

    // 7. Validation: unsat cores (validators sound in Single Query, run locally
    //    with the producing run's time) and models (substituted, checked by z3).
    let validated_path = out.join("runs-validated.jsonl.gz");
    let validation = out.join("validation");
    stages.run("validation", &[&runs_path], log, || {
        let (identity, mut records) = ingest::read_table(&runs_path)?;
        let summary = validate_runs(
            &mut records,
            &subs,
            &prepared,
            &results,
            &validation,
            &comp,
            opts.jobs,
        )?;
        ingest::write_jsonl(&validated_path, identity.as_ref(), &records)?;
        Ok(summary)
    })?;

    let runs = ingest::read_jsonl(&validated_path)?;
    let sets: Vec<PreparedSet> = DEMO_TRACKS
        .iter()
        .map(|t| PreparedSet::read(&prepared, *t))
        .collect::<Result<_, _>>()?;
    let check = check::check(
        &runs,
        &sets,
        &subs.iter().map(|(_, s)| s).collect::<Vec<_>>(),
        &comp,
    );

    // 8. Scoring (rules policy) per track.
    let start = Instant::now();
    let inventory = Inventory::read(&inv_path)?;
    let reports = score_tracks(&comp, &loaded, &inventory, &runs, &out.join("scores"))?;
    let proofs = pipeline::proof_summary(&comp, &runs, &sets, &out.join("scores"))?;
    log(&format!(
        "scoring: {} tracks + proof summary, tables in {} ({:.1} s)",
        reports.len(),
        out.join("scores").display(),
        seconds(start)
    ));
    let mut timings = stages.timings();
    timings.push(("scoring".into(), seconds(start), false));

    // 9. The results site.
    let start = Instant::now();
    let site = pipeline::site(&reports, &proofs, &out.join("site"))?;
    log(&format!("report: {site} ({:.1} s)", seconds(start)));
    timings.push(("report".into(), seconds(start), false));
    let scores: Vec<TrackScores> = reports.into_iter().map(|r| r.scores).collect();
    Ok(DemoOutcome {
        runs,
        check,
        scores,
        proofs,
        site_index: site.dir.join("index.html"),
        timings,
    })
}

/// Validates the cores and models of `records` in place; returns a summary line.
fn validate_runs(
    records: &mut [IngestRecord],
    subs: &[(String, crate::submission::Submission)],
    prepared: &Path,
    logs: &Path,
    dir: &Path,
    comp: &Competition,
    jobs: usize,
) -> anyhow::Result<String> {
    std::fs::create_dir_all(dir)?;
    let (validators, time_limit) = pipeline::sound_in_sq_validators(records, comp, prepared);
    // Each validator runs with its own Single Query command, as on BenchExec.
    let refs: Vec<_> = subs.iter().map(|(_, s)| s).collect();
    let how = CoreValidation {
        validators,
        commands: pipeline::submission_validators(comp, &refs)?,
        time_limit,
        rule: crate::scoring::editions::dispatch::core_rule(comp.rules)
            .map_err(anyhow::Error::msg)?,
    };
    let cores = pipeline::validate_cores(records, prepared, dir, &how, jobs)?;
    let models = pipeline::validate_model_runs(
        records,
        &pipeline::z3_models(prepared, logs, Some(dir.join("model-cache")), jobs),
    );
    Ok(format!(
        "{} distinct cores checked by {} validator runs ({:?}); {} models ({:?})",
        cores.tasks,
        cores.validation_runs,
        cores.joined.by_status,
        models.validated,
        models.by_status
    ))
}

/// Seconds since `start`, for stage timings.
pub fn seconds(start: Instant) -> f64 {
    start.elapsed().as_secs_f64()
}
