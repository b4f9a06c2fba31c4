//! The demo competition: the whole pipeline on the bundled corpus and example
//! submissions, with real solvers and real BenchExec.
//!
//! A configuration ([`Plan`]) of the pipeline's one driver
//! ([`pipeline::drive`]): each stage writes below the output directory and is
//! skipped on a re-run when its inputs did not change; the BenchExec
//! definitions run on the given [`Runner`] (`smtcomp demo`: [`local_runner`]);
//! the cores are validated locally in the validation stage (the core-validation
//! round's stages are skipped); the scoring stage checks the runs against the
//! corpus first.
//!
//! The Proof Exhibition Track runs like the others (cvc5 through
//! `smtcomp-proof-wrapper` and its `smtcomp_checker`, from `demo/archives/`) and is
//! summarized, not scored, as the 2023 rules (5.8) say.

mod check;

use crate::benchexec::{Manifest, RunOptions, SolverLocation};
use crate::benchmarks::Inventory;
use crate::ingest::{self, IngestRecord};
use crate::model::{Competition, Track};
use crate::pipeline::{
    self, Cache, CoreValidation, Decision, Generation, LocalBenchExec, Outcome, Plan, Runner,
    State, Step, Stop,
};
use crate::prepare::PreparedSet;
use crate::report::TrackReport;
use crate::scoring::TrackScores;
use crate::scoring::editions::e2023::ProofLine;
use crate::submission::{LoadedSubmission, load_set};
use anyhow::Context;
use std::path::{Path, PathBuf};

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
    runs: &mut pipeline::TrackRuns,
    dir: &Path,
) -> anyhow::Result<Vec<TrackReport>> {
    let tracks: Vec<Track> = DEMO_TRACKS.into_iter().filter(|t| is_scored(*t)).collect();
    Ok(pipeline::score_tracks(
        comp, loaded, inventory, runs, &tracks, dir,
    )?)
}

/// Runs the demo, its BenchExec definitions on `runner`; `log` receives one
/// line per stage (`NAME: summary (t s)`, `NAME: reused (summary)` or
/// `NAME: skipped (why)`).
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
    // One demo per output directory (its BenchExec calls hold the lock too).
    let _lock = crate::util::dirlock::acquire(&out, ".smtcomp.lock", "smtcomp demo")?;
    let loaded = load_set(std::slice::from_ref(&opts.submissions), &comp);
    let subs = crate::submission::usable(&loaded)?;
    let seed = pipeline::seed(&comp, &subs)?;
    let corpus = std::fs::canonicalize(&opts.corpus)
        .with_context(|| format!("{}: corpus not found", opts.corpus.display()))?;
    let mut plan = DemoPlan {
        opts,
        runner,
        corpus,
        out: out.clone(),
        comp,
        loaded,
        subs,
        seed,
        scored: None,
        site_index: None,
    };
    let cache = Cache {
        out: &out,
        fresh: opts.fresh,
    };
    let report = pipeline::drive(&mut plan, Some(cache), None, &mut |l| {
        let name = l.stage.name();
        log(&match l.state {
            State::Done => format!("{name}: {} ({:.1} s)", l.detail, l.secs),
            State::Resumed => format!("{name}: reused ({})", l.detail),
            state => format!("{name}: {} ({})", state.word(), l.detail),
        })
    })
    .into_result()?;
    let timings = report
        .stages
        .iter()
        .filter(|l| l.state != State::Skipped)
        .map(|l| {
            (
                l.stage.name().to_string(),
                l.secs,
                l.state == State::Resumed,
            )
        })
        .collect();
    let (runs, check, reports, proofs) = plan.scored.take().context("the demo was not scored")?;
    Ok(DemoOutcome {
        runs,
        check,
        scores: reports.into_iter().map(|r| r.scores).collect(),
        proofs,
        site_index: plan.site_index.take().context("the demo wrote no site")?,
        timings,
    })
}

/// The demo's configuration of the pipeline: the bundled corpus, every demo
/// track, the given runner, cores validated locally.
struct DemoPlan<'a> {
    opts: &'a DemoOptions,
    runner: &'a dyn Runner,
    corpus: PathBuf,
    out: PathBuf,
    comp: Competition,
    loaded: Vec<LoadedSubmission>,
    subs: Vec<(String, crate::submission::Submission)>,
    seed: u32,
    scored: Option<Scored>,
    site_index: Option<PathBuf>,
}

/// The scoring stage's results: runs, their check, reports, proof summary.
type Scored = (
    Vec<IngestRecord>,
    check::DemoCheck,
    Vec<TrackReport>,
    Vec<ProofLine>,
);

impl DemoPlan<'_> {
    fn path(&self, name: &str) -> PathBuf {
        self.out.join(name)
    }

    fn selection_file(&self, track: Track) -> PathBuf {
        self.path(&format!("selection-{}.json", track.short_name()))
    }
}

impl Plan for DemoPlan<'_> {
    fn decide(&mut self, step: Step) -> Result<Decision, Stop> {
        let o = self.opts;
        Ok(match step {
            Step::Inventory => Decision::Cached(vec![self.corpus.clone()]),
            Step::Selection => Decision::Cached(vec![self.path("inventory.json")]),
            Step::Preparation => {
                let mut inputs: Vec<PathBuf> = DEMO_TRACKS
                    .iter()
                    .map(|t| self.selection_file(*t))
                    .collect();
                inputs.push(self.path("library"));
                Decision::Cached(inputs)
            }
            Step::Generation => Decision::Cached(vec![
                self.path("prepared"),
                o.submissions.clone(),
                o.competition.clone(),
                o.archives.clone(),
            ]),
            Step::Runs => Decision::Cached(vec![self.path("exec/manifest.json")]),
            Step::Ingestion => Decision::Cached(vec![pipeline::results_dir(&self.path("exec"))]),
            Step::CoreTasks | Step::CoreGeneration | Step::CoreRuns => Decision::Skip(
                "the demo validates the cores locally, in the validation stage".into(),
            ),
            Step::Validation => Decision::Cached(vec![self.path("runs.jsonl.gz")]),
            Step::Scoring | Step::Report => Decision::Always,
        })
    }

    fn run(&mut self, step: Step) -> Result<Outcome, Stop> {
        let (o, comp) = (self.opts, &self.comp);
        let library = self.path("library");
        let prepared = self.path("prepared");
        let exec = self.path("exec");
        let done = |d: String| Ok(Outcome::Done(d));
        match step {
            // The corpus without its slow files.
            Step::Inventory => {
                crate::benchmarks::link_corpus(&self.corpus, &library)?;
                let inv = pipeline::complete_inventory(&library, comp, o.jobs)?;
                inv.write(&self.path("inventory.json"))?;
                done(format!(
                    "{} non-incremental and {} incremental benchmarks",
                    inv.non_incremental.len(),
                    inv.incremental.len()
                ))
            }
            Step::Selection => {
                let inv = Inventory::read(&self.path("inventory.json"))?;
                let mut counts = Vec::new();
                for track in DEMO_TRACKS {
                    let sel = pipeline::select_track(&inv, comp, track, self.seed)?;
                    crate::formats::datafile::write_json(&self.selection_file(track), &sel)?;
                    counts.push(format!("{} {}", track.short_name(), sel.benchmarks.len()));
                }
                done(format!("seed {}; {}", self.seed, counts.join(", ")))
            }
            Step::Preparation => {
                let mut selections = Vec::new();
                for track in DEMO_TRACKS {
                    selections.push(crate::formats::datafile::read_json(
                        &self.selection_file(track),
                    )?);
                }
                let counts = pipeline::prepare_all(&selections, &library, &prepared, o.jobs)?;
                done(format!("prepared {counts}"))
            }
            Step::Generation => {
                let refs: Vec<_> = self.subs.iter().map(|(_, s)| s).collect();
                let g = pipeline::generate(&Generation {
                    competition: comp,
                    submissions: &refs,
                    prepared: &prepared,
                    exec: &exec,
                    test: false,
                    location: SolverLocation {
                        solver_dirs: Default::default(),
                        on_path: true,
                        dirs_for_paths_only: false,
                    },
                    archives: Some(&o.archives),
                })?;
                done(format!(
                    "{} benchmark definitions",
                    g.manifest.definitions.len()
                ))
            }
            Step::Runs => {
                let manifest = Manifest::read(&exec)?;
                let runs = pipeline::run_all(self.runner, &exec, &manifest);
                pipeline::require_all(&runs)?;
                done(format!("{} definitions run", runs.len()))
            }
            Step::Ingestion => {
                let got = pipeline::ingest_complete(&exec, comp, true)?;
                ingest::write_jsonl(
                    &self.path("runs.jsonl.gz"),
                    Some(&ingest::TableIdentity::of(comp)),
                    &got.records,
                )?;
                done(format!("{} runs", got.records.len()))
            }
            Step::CoreTasks | Step::CoreGeneration | Step::CoreRuns => {
                unreachable!("skipped by decide")
            }
            // Unsat cores (validators sound in Single Query, run locally with
            // the producing run's time) and models (substituted, checked by z3).
            Step::Validation => {
                let (identity, mut records) = ingest::read_table(&self.path("runs.jsonl.gz"))?;
                let summary = validate_runs(
                    &mut records,
                    &self.subs,
                    &prepared,
                    &pipeline::results_dir(&exec),
                    &self.path("validation"),
                    comp,
                    o.jobs,
                )?;
                ingest::write_jsonl(
                    &self.path("runs-validated.jsonl.gz"),
                    identity.as_ref(),
                    &records,
                )?;
                done(summary)
            }
            // The check of the runs against the corpus, scores (rules policy) per track.
            Step::Scoring => {
                let runs = ingest::read_jsonl(&self.path("runs-validated.jsonl.gz"))?;
                let sets: Vec<PreparedSet> = DEMO_TRACKS
                    .iter()
                    .map(|t| PreparedSet::read(&prepared, *t))
                    .collect::<Result<_, _>>()?;
                let refs: Vec<_> = self.subs.iter().map(|(_, s)| s).collect();
                let check = check::check(&runs, &sets, &refs, comp);
                let inventory = Inventory::read(&self.path("inventory.json"))?;
                let scores = self.path("scores");
                let mut by_track = pipeline::TrackRuns::of(&runs);
                let proofs = pipeline::proof_summary(comp, &by_track, &sets, &scores)?;
                let reports = score_tracks(comp, &self.loaded, &inventory, &mut by_track, &scores)?;
                let detail = format!(
                    "{} tracks + proof summary, tables in {}",
                    reports.len(),
                    scores.display()
                );
                self.scored = Some((runs, check, reports, proofs));
                done(detail)
            }
            Step::Report => {
                let (_, _, reports, proofs) = self.scored.as_ref().context("not scored")?;
                let site = pipeline::site(reports, proofs, &self.path("site"))?;
                self.site_index = Some(site.dir.join("index.html"));
                done(format!("{site}"))
            }
        }
    }
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
