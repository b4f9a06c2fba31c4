//! The demo competition: the whole pipeline on the bundled corpus and example
//! submissions, with real solvers and real BenchExec.
//!
//! Stages (each writes below the output directory and is skipped on a re-run
//! when its inputs did not change, see [`stage`]):
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
mod proof;
mod stage;

use crate::benchexec::{GenerateOptions, Manifest, SolverLocation, generate};
use crate::benchexec::{RunOptions, run_side_by_side, select as select_definitions};
use crate::benchmarks::{Inventory, scan};
use crate::ingest::{self, IngestOptions, IngestRecord, ManifestIndex};
use crate::model::{Competition, Track};
use crate::prepare::{PrepareOptions, PreparedSet, prepare};
use crate::report::TrackReport;
use crate::scoring::editions::e2023::ProofLine;
use crate::scoring::{Policy, TrackScores, output};
use crate::select::{Selection, SelectionInputs, SoundAnswers, Triviality, select};
use crate::submission::{LoadedSubmission, competition_seed, load_set};
use anyhow::{Context, bail};
use stage::Stages;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
    /// Parallel runs per BenchExec call and worker threads.
    pub jobs: usize,
    /// The `benchexec` executable.
    pub benchexec: PathBuf,
    /// Directory of the `smtcomp-*` binaries (put on PATH for the tool-info modules).
    pub bin_dir: PathBuf,
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
    std::fs::create_dir_all(dir)?;
    let policy = Policy::rules();
    let mut all = Vec::new();
    for track in DEMO_TRACKS.into_iter().filter(|t| is_scored(*t)) {
        let scored: Vec<_> = runs
            .iter()
            .filter(|r| r.track == Some(track))
            .filter_map(crate::scoring::scored_run)
            .collect();
        let (input, _missing) = crate::scoring::build_input(comp, track, loaded, inventory, scored);
        let report = TrackReport::compute(input, &policy);
        let name = track.page_suffix();
        std::fs::write(
            dir.join(format!("{name}.md")),
            output::markdown(&report.scores, false),
        )?;
        let pages = output::pages(
            &report.scores,
            report.input.time_limit as u64,
            report.input.memory_mb,
            comp.year,
        );
        crate::formats::datafile::write_json(&dir.join(format!("{name}.json")), &pages)?;
        all.push(report);
    }
    Ok(all)
}

/// Winners of the competitive divisions: (track, division, kind, solver).
pub fn winners(scores: &[TrackScores]) -> Vec<(Track, String, &'static str, String)> {
    let mut v = Vec::new();
    for s in scores {
        for g in s.groups.iter().filter(|g| g.is_division && g.competitive) {
            for p in &g.podiums {
                if let Some(w) = &p.winner {
                    v.push((s.track, g.name.clone(), p.kind.key(), w.clone()));
                }
            }
        }
    }
    v
}

/// Runs the demo; `log` receives one line per stage.
pub fn run(opts: &DemoOptions, log: &mut dyn FnMut(&str)) -> anyhow::Result<DemoOutcome> {
    let comp = Competition::from_path(&opts.competition)?;
    std::fs::create_dir_all(&opts.out)
        .with_context(|| format!("{}: cannot create", opts.out.display()))?;
    let out = std::fs::canonicalize(&opts.out)?;
    let mut stages = Stages::new(&out, opts.fresh)?;
    let loaded = load_set(std::slice::from_ref(&opts.submissions), &comp);
    let subs = usable(&loaded)?;

    // 1. Inventory of the corpus without its slow files.
    let library = out.join("library");
    let inv_path = out.join("inventory.json");
    let corpus = std::fs::canonicalize(&opts.corpus)
        .with_context(|| format!("{}: corpus not found", opts.corpus.display()))?;
    stages.run("inventory", &[&corpus], log, || {
        crate::benchmarks::link_corpus(&corpus, &library)?;
        let inv = scan(&library, &comp, opts.jobs);
        if !inv.errors.is_empty() {
            bail!("corpus files could not be read: {:?}", inv.errors);
        }
        inv.write(&inv_path)?;
        Ok(format!(
            "{} non-incremental and {} incremental benchmarks",
            inv.non_incremental.len(),
            inv.incremental.len()
        ))
    })?;

    // 2. Seed, selection and 3. preparation, per track.
    let tuples: Vec<_> = subs
        .iter()
        .map(|(f, s)| (f.clone(), s.name.clone(), s.seed, s.competitive))
        .collect();
    let seed = competition_seed(&tuples, comp.seed.nyse_value, true)?.seed as u32;
    let prepared = out.join("prepared");
    stages.run("selection+preparation", &[&inv_path], log, || {
        let inv = Inventory::read(&inv_path)?;
        let mut counts = Vec::new();
        for track in DEMO_TRACKS {
            let sel = select_track(&inv, &comp, track, seed)?;
            crate::formats::datafile::write_json(
                &out.join(format!("selection-{}.json", track.short_name())),
                &sel,
            )?;
            let set = prepare(
                &sel,
                &PrepareOptions {
                    library: library.clone(),
                    out: prepared.clone(),
                    scrambler: None,
                    jobs: opts.jobs,
                },
            )?;
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
            let g = generate(
                &comp,
                &refs,
                &GenerateOptions {
                    prepared: prepared.clone(),
                    out: exec.clone(),
                    test: false,
                    location: SolverLocation {
                        solver_dirs: Default::default(),
                        on_path: true,
                    },
                    binaries_from: None,
                },
            )
            .map_err(|e| anyhow::anyhow!(e.join("\n")))?;
            install_archives(&opts.archives, &exec, &g.manifest)?;
            Ok(format!(
                "{} benchmark definitions",
                g.manifest.definitions.len()
            ))
        },
    )?;

    // 5. Runs on real BenchExec.
    let manifest = Manifest::read(&exec)?;
    stages.run(
        "benchexec runs",
        &[&exec.join("manifest.json")],
        log,
        || {
            let files = select_definitions(&manifest, None, None);
            let run_opts = RunOptions {
                benchexec: opts.benchexec.clone(),
                jobs: Some(opts.jobs as u32),
                container: true,
                extra_path: vec![opts.bin_dir.clone()],
                start_time: Some("2025-07-01 12:00:00".into()),
                timeout: None,
            };
            let failed: Vec<String> =
                run_side_by_side(&exec, &manifest, &files, &run_opts, opts.jobs)
                    .into_iter()
                    .map(|(f, why)| format!("{f}: {why}"))
                    .collect();
            if !failed.is_empty() {
                bail!(
                    "BenchExec failed for {} definitions:\n{}",
                    failed.len(),
                    failed.join("\n")
                );
            }
            Ok(format!("{} definitions run", files.len()))
        },
    )?;

    // 6. Ingestion.
    let runs_path = out.join("runs.jsonl.gz");
    stages.run("ingestion", &[&exec.join("results")], log, || {
        let index = ManifestIndex::read(&exec.join("runs-manifest.json.gz"))?;
        let got = ingest::ingest(
            &[exec.join("results")],
            &IngestOptions {
                competition: &comp,
                manifest: Some(&index),
                progress: true,
            },
        );
        if got.has_unreadable() {
            bail!("unreadable results:\n{}", got.summary.render());
        }
        ingest::write_jsonl(&runs_path, &got.records)?;
        Ok(format!("{} runs", got.records.len()))
    })?;

    // 7. Validation: unsat cores (validators sound in Single Query, run locally
    //    with the producing run's time) and models (substituted, checked by z3).
    let validated_path = out.join("runs-validated.jsonl.gz");
    let validation = out.join("validation");
    stages.run("validation", &[&runs_path], log, || {
        let mut records = ingest::read_jsonl(&runs_path)?;
        let summary = validate_runs(
            &mut records,
            &subs,
            &prepared,
            &exec.join("results"),
            &validation,
            &comp,
            opts.jobs,
        )?;
        ingest::write_jsonl(&validated_path, &records)?;
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

    // 7. Scoring (rules policy) per track.
    let start = Instant::now();
    let inventory = Inventory::read(&inv_path)?;
    let reports = score_tracks(&comp, &loaded, &inventory, &runs, &out.join("scores"))?;
    let proofs = proof::summarize(&comp, &runs, &sets, &out.join("scores"))?;
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
    let site = crate::report::write_site_with_progress(
        &reports,
        &proofs,
        &out.join("site"),
        &indicatif::ProgressBar::hidden(),
    )?;
    log(&format!("report: {site} ({:.1} s)", seconds(start)));
    timings.push(("report".into(), seconds(start), false));
    let scores = reports.into_iter().map(|r| r.scores).collect();
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
    use crate::validate::cores::{self, GenerateOptions, TimeLimit, Validators};
    use crate::validate::{Checker, ModelOptions, validate_models};
    std::fs::create_dir_all(dir)?;
    let sq: Vec<IngestRecord> = records
        .iter()
        .filter(|r| r.track == Some(Track::SingleQuery))
        .cloned()
        .collect();
    let validators = Validators::SoundInSq {
        runs: sq,
        statuses: cores::known_statuses(prepared),
    };
    let time_s = comp
        .track(Track::UnsatCore)
        .map_or(1200.0, |t| f64::from(t.limits.time_s));
    let (manifest, generated) = cores::generate(
        records,
        &GenerateOptions {
            prepared,
            out: dir,
            validators: &validators,
            time_limit: TimeLimit::Producing {
                min: 1.0,
                fallback: time_s,
            },
        },
    )?;
    // Each validator runs with its own Single Query command, as on BenchExec.
    let mut commands = crate::validate::ValidatorCommands::default();
    let refs: Vec<_> = subs.iter().map(|(_, s)| s).collect();
    let location = SolverLocation {
        solver_dirs: Default::default(),
        on_path: true,
    };
    let problems = commands.add_submissions(comp, &refs, &location);
    if !problems.is_empty() {
        bail!("validator commands: {}", problems.join("; "));
    }
    let validation_runs = cores::run_local(dir, &manifest, &commands, jobs);
    ingest::write_jsonl(&dir.join(cores::LOCAL_RUNS), &validation_runs)?;
    let joined = crate::validate::join(records, &manifest, &validation_runs);
    let models = validate_models(
        records,
        &ModelOptions {
            prepared: prepared.to_path_buf(),
            logs: logs.to_path_buf(),
            checker: Checker::Builtin(vec!["z3".into(), "-smt2".into()]),
            timeout: std::time::Duration::from_secs(10),
            cache: Some(dir.join("model-cache")),
            jobs,
        },
    );
    Ok(format!(
        "{} distinct cores checked by {} validator runs ({:?}); {} models ({:?})",
        generated.tasks,
        validation_runs.len(),
        joined.by_status,
        models.validated,
        models.by_status
    ))
}

fn usable(
    loaded: &[LoadedSubmission],
) -> anyhow::Result<Vec<(String, crate::submission::Submission)>> {
    let mut v = Vec::new();
    for l in loaded {
        match &l.submission {
            Some(s) if !l.has_errors() => v.push((l.file.display().to_string(), s.clone())),
            _ => bail!(
                "{}: {}",
                l.file.display(),
                l.problems
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        }
    }
    if v.is_empty() {
        bail!("no submissions found");
    }
    Ok(v)
}

/// Copies each directory of `archives` (the demo's unpacked solver archives) to
/// `EXECDIR/archives/`, then checks that every relative binary of `manifest`
/// exists there: a missing one is named before BenchExec runs.
fn install_archives(archives: &Path, exec: &Path, manifest: &Manifest) -> anyhow::Result<()> {
    if archives.is_dir() {
        for entry in walkdir::WalkDir::new(archives).sort_by_file_name() {
            let entry = entry.with_context(|| format!("{}: cannot read", archives.display()))?;
            let rel = entry.path().strip_prefix(archives)?;
            let to = exec.join("archives").join(rel);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to)
                    .with_context(|| format!("{}: cannot create", to.display()))?;
            } else {
                std::fs::copy(entry.path(), &to).with_context(|| {
                    format!(
                        "{} -> {}: cannot copy",
                        entry.path().display(),
                        to.display()
                    )
                })?;
            }
        }
    }
    for (name, def) in &manifest.definitions {
        for rd in def.rundefinitions.values() {
            if let Some(bin) = rd.command.first().filter(|b| b.starts_with("archives/"))
                && !exec.join(bin).is_file()
            {
                bail!(
                    "{name}: solver binary {bin} not found: put the unpacked archive in {}",
                    archives.display()
                );
            }
        }
    }
    Ok(())
}

fn select_track(
    inv: &Inventory,
    comp: &Competition,
    track: Track,
    seed: u32,
) -> anyhow::Result<Selection> {
    let triviality = Triviality::default();
    let sound = SoundAnswers::default();
    select(
        inv,
        &SelectionInputs {
            competition: comp,
            track,
            seed,
            triviality: &triviality,
            sound: &sound,
            heats: 0,
            only_logics: None,
        },
    )
    .map_err(|e| anyhow::anyhow!(e))
}

/// Seconds since `start`, for stage timings.
pub fn seconds(start: Instant) -> f64 {
    start.elapsed().as_secs_f64()
}
