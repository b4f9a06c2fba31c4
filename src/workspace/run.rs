//! `smtcomp run`: the competition of a workspace, stage by stage, resuming
//! what is done: the workspace's [`Plan`] for the pipeline's one driver
//! ([`pipeline::drive`]). Each cached stage whose inputs did not change since
//! it completed is reused; the two BenchExec rounds (the competition runs,
//! then the unsat-core validation runs) are resumed from their result files.

use super::config::Workspace;
use super::rounds::{Round, run_round};
use crate::benchexec::{GenerateOptions, SolverLocation};
use crate::benchmarks::Inventory;
use crate::ingest;
use crate::model::{Competition, Division, Track};
use crate::pipeline::{self, Cache, Decision, Outcome, Plan, Step, Stop};
use crate::prepare::PreparedSet;
use crate::report::TrackReport;
use crate::scoring::editions::e2023::ProofLine;
use crate::submission::{LoadedSubmission, Submission, load_set};
use crate::validate::cores::{self, CoreManifest};
use anyhow::{Context, bail};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub use crate::pipeline::{RunReport, StageLine, State};

/// The lock file of a workspace's directory: one `smtcomp run` at a time
/// (and the BenchExec calls it started, see [`crate::util::dirlock`]).
pub const LOCK_FILE: &str = ".smtcomp.lock";

/// Takes the workspace's lock for `smtcomp run`, or says who holds it.
pub fn lock(
    ws: &Workspace,
) -> Result<crate::util::dirlock::DirLock, crate::util::dirlock::LockError> {
    crate::util::dirlock::acquire(&ws.dir, LOCK_FILE, "smtcomp run")
}

/// Who runs the workspace now (its lock's holder), if anyone.
pub fn running(ws: &Workspace) -> Option<String> {
    crate::util::dirlock::held_by(&ws.dir, LOCK_FILE)
}

/// The stage named `name` (`--until`), or an error listing them.
pub fn stage_named(name: &str) -> Result<Step, crate::pipeline::UnknownStage> {
    Step::named(name)
}

/// The tracks a workspace runs: its `tracks`, or every track of the
/// definition some submission enters that BenchExec runs.
pub fn tracks(ws: &Workspace, comp: &Competition, loaded: &[LoadedSubmission]) -> Vec<Track> {
    if !ws.tracks.is_empty() {
        return ws.tracks.clone();
    }
    comp.tracks
        .keys()
        .copied()
        .filter(|t| {
            !matches!(
                t,
                Track::Parallel | Track::Cloud | Track::UnsatCoreValidation
            )
        })
        .filter(|t| loaded.iter().any(|l| l.entries.contains_key(t)))
        .collect()
}

/// Runs the workspace's competition; `log` gets each stage's line as it ends.
/// Never fails as a whole: a failed stage is a line of the report.
/// `until` stops after that stage: the later ones are left, and the report
/// is complete when every stage up to it is.
pub fn run(
    ws: &Workspace,
    jobs: usize,
    until: Option<Step>,
    log: &mut dyn FnMut(&StageLine),
) -> RunReport {
    let mut plan = WorkspacePlan {
        ws,
        jobs,
        setup: None,
        entrants_error: None,
        cores: Cores::None("no Unsat Core Track"),
        scored: None,
    };
    let cache = Cache {
        out: &ws.dir,
        fresh: false,
    };
    pipeline::drive(&mut plan, Some(cache), until, log)
}

/// What every stage of a workspace needs: read once, at the inventory.
struct Setup {
    comp: Competition,
    loaded: Vec<LoadedSubmission>,
    subs: Vec<(String, Submission)>,
    tracks: Vec<Track>,
    competition_file: PathBuf,
    seed: u32,
}

/// The file the competition definition comes from (the workspace file for a
/// built-in edition): an input of the cached stages.
fn competition_file(ws: &Workspace) -> PathBuf {
    match &ws.definition {
        super::DefinitionSource::File(p) => p.clone(),
        super::DefinitionSource::Year(_) => ws.file.clone(),
    }
}

/// Whether the core-validation stages have work.
enum Cores {
    /// No: why.
    None(&'static str),
    /// Yes, with the tasks written (or not yet).
    Some,
}

/// The workspace's configuration of the pipeline.
struct WorkspacePlan<'a> {
    ws: &'a Workspace,
    jobs: usize,
    setup: Option<Setup>,
    /// Why the submissions cannot be used: the inventory (which needs only
    /// the competition) is still made; the selection, their first user, fails.
    entrants_error: Option<anyhow::Error>,
    cores: Cores,
    scored: Option<(Vec<TrackReport>, Vec<ProofLine>)>,
}

impl WorkspacePlan<'_> {
    fn setup(&self) -> &Setup {
        self.setup
            .as_ref()
            .expect("the inventory stage reads the setup")
    }

    fn read_setup(&self) -> anyhow::Result<Setup> {
        let ws = self.ws;
        let comp = ws.competition()?;
        let loaded = load_set(std::slice::from_ref(&ws.submissions), &comp);
        let subs = crate::submission::usable(&loaded)
            .with_context(|| format!("{}", ws.submissions.display()))?;
        let mut tracks = tracks(ws, &comp, &loaded);
        if ws.test {
            // `select --test` has no Parallel/Cloud selection.
            tracks.retain(|t| !matches!(t, Track::Parallel | Track::Cloud));
        }
        for t in &tracks {
            if comp.track(*t).is_none() {
                bail!(
                    "{}: track {t} is not defined in {}",
                    ws.file.display(),
                    comp.name
                );
            }
        }
        if tracks.is_empty() {
            bail!("no track to run: no submission enters one");
        }
        let competition_file = competition_file(ws);
        let seed = match ws.seed.value {
            Some(v) => v,
            // The test run's seed (`select --test`'s default).
            None if ws.test => 1,
            None => pipeline::seed(&comp, &subs)?,
        };
        Ok(Setup {
            comp,
            loaded,
            subs,
            tracks,
            competition_file,
            seed,
        })
    }

    fn refs(&self) -> Vec<&Submission> {
        self.setup().subs.iter().map(|(_, s)| s).collect()
    }

    /// A BenchExec round on `execdir`.
    fn round(&self, execdir: &Path) -> Result<Outcome, Stop> {
        let smtcomp = std::env::current_exe()?;
        let round = run_round(execdir, &self.ws.backend, smtcomp)?;
        let backend = self.ws.backend.kind.name();
        match round {
            Round::AlreadyComplete { runs } => Ok(Outcome::Resumed(format!(
                "all {runs} runs have results in {}",
                results(execdir)
            ))),
            Round::Completed {
                definitions,
                runs,
                redone,
            } => Ok(Outcome::Done(format!(
                "definitions run: {definitions} ({backend}{}); all {runs} runs have results in {}",
                if redone > 0 {
                    format!(
                        "; {redone} of them again: their unfinished results were moved to EXECDIR/superseded"
                    )
                } else {
                    String::new()
                },
                results(execdir)
            ))),
            Round::Waiting {
                definitions,
                missing,
                command,
            } => Err(Stop::Waiting(
                format!(
                    "{missing} runs of {definitions} definitions to run on the VerifierCloud; then `smtcomp run` resumes"
                ),
                vec![command, "smtcomp run".into()],
            )),
            Round::Incomplete {
                missing,
                runs,
                problems,
            } => Err(Stop::Failed(anyhow::anyhow!(
                "{missing} of {runs} runs have no result ({backend}); `smtcomp status` lists them, `smtcomp run` retries:\n  {}",
                problems.join("\n  ")
            ))),
        }
    }
}

impl Plan for WorkspacePlan<'_> {
    fn decide(&mut self, step: Step) -> Result<Decision, Stop> {
        let ws = self.ws;
        Ok(match step {
            Step::Inventory => {
                self.setup = Some(match self.read_setup() {
                    Ok(s) => s,
                    Err(e) => {
                        // The inventory needs the competition only.
                        self.entrants_error = Some(e);
                        Setup {
                            comp: ws.competition()?,
                            loaded: Vec::new(),
                            subs: Vec::new(),
                            tracks: Vec::new(),
                            competition_file: competition_file(ws),
                            seed: 0,
                        }
                    }
                });
                let s = self.setup();
                match &ws.given_inventory {
                    Some(given) if !given.is_file() => {
                        return Err(Stop::Failed(anyhow::anyhow!(
                            "{}: inventory: {} not found",
                            ws.file.display(),
                            given.display()
                        )));
                    }
                    Some(given) => Decision::Skip(format!("given: {}", given.display())),
                    None => Decision::Cached(vec![ws.library.clone(), s.competition_file.clone()]),
                }
            }
            Step::Selection => {
                if let Some(e) = self.entrants_error.take() {
                    return Err(Stop::Failed(e.context(
                        "the submissions cannot be used (`smtcomp submissions validate` lists every problem)",
                    )));
                }
                let s = self.setup();
                let mut inputs = vec![
                    ws.inventory(),
                    ws.submissions.clone(),
                    s.competition_file.clone(),
                    ws.file.clone(),
                ];
                inputs.extend(ws.evidence_files());
                Decision::Cached(inputs)
            }
            Step::Preparation => {
                // The tracks with a selection go on.
                let s = self.setup.as_mut().expect("setup");
                s.tracks.retain(|t| ws.selection(*t).is_file());
                let mut inputs: Vec<PathBuf> = s.tracks.iter().map(|t| ws.selection(*t)).collect();
                inputs.push(ws.library.clone());
                Decision::Cached(inputs)
            }
            Step::Generation => {
                let mut inputs = vec![
                    ws.prepared(),
                    ws.submissions.clone(),
                    self.setup().competition_file.clone(),
                ];
                inputs.extend(ws.archives.clone());
                Decision::Cached(inputs)
            }
            Step::Runs | Step::Scoring | Step::Report => Decision::Always,
            Step::Ingestion => Decision::Cached(vec![pipeline::results_dir(&ws.execdir)]),
            Step::CoreTasks => {
                let has_cores = pipeline::has_unsat_cores(&ws.ingested_runs())?;
                self.cores = if has_cores {
                    Cores::Some
                } else if self.setup().tracks.contains(&Track::UnsatCore) {
                    Cores::None("no unsat core in the Unsat Core runs")
                } else {
                    Cores::None("no Unsat Core Track")
                };
                match self.cores {
                    Cores::None(why) => Decision::Skip(why.into()),
                    Cores::Some => Decision::Cached(vec![ws.ingested_runs()]),
                }
            }
            Step::CoreGeneration | Step::CoreRuns => match self.cores {
                Cores::None(why) => Decision::Skip(why.into()),
                Cores::Some if CoreManifest::read(&ws.core_tasks())?.tasks.is_empty() => {
                    Decision::Skip("no validation task".into())
                }
                Cores::Some if step == Step::CoreRuns => Decision::Always,
                Cores::Some => Decision::Cached(vec![
                    CoreManifest::dir(&ws.core_tasks()),
                    ws.submissions.clone(),
                ]),
            },
            Step::Validation => Decision::Cached(vec![
                ws.ingested_runs(),
                pipeline::results_dir(&ws.core_execdir()),
                ws.prepared(),
            ]),
        })
    }

    fn run(&mut self, step: Step) -> Result<Outcome, Stop> {
        let ws = self.ws;
        let jobs = self.jobs;
        let s = self.setup();
        let comp = &s.comp;
        let done = |d: String| Ok(Outcome::Done(d));
        match step {
            Step::Inventory => {
                let inv_path = ws.inventory();
                let view = pipeline::library_view(&ws.library, &ws.dir)?;
                let inv = pipeline::complete_inventory(&view, comp, jobs)?;
                inv.write(&inv_path)?;
                done(format!(
                    "{} non-incremental and {} incremental benchmarks -> {}",
                    inv.non_incremental.len(),
                    inv.incremental.len(),
                    inv_path.display()
                ))
            }
            Step::Selection => {
                // The rules' whole selection, as `smtcomp select` makes it from the same evidence.
                let evidence = ws.evidence();
                let mut counts = Vec::new();
                for &track in &s.tracks {
                    let file = ws.selection(track);
                    let n = pipeline::selection::select_with(
                        comp,
                        &ws.inventory(),
                        track,
                        s.seed,
                        &evidence,
                        |chosen| {
                            chosen.write(&file)?;
                            Ok(chosen.len())
                        },
                    );
                    match n {
                        Ok(n) => counts.push(format!("{} {n}", track.short_name())),
                        // Rules 6: a track without a competitive division is not run.
                        Err(e) if e.is::<pipeline::selection::NothingSelected>() => {
                            let _ = std::fs::remove_file(&file);
                            counts.push(format!("{} none (not run)", track.short_name()));
                        }
                        Err(e) => return Err(e.into()),
                    }
                }
                if s.tracks.iter().all(|t| !ws.selection(*t).is_file()) {
                    return Err(Stop::Failed(anyhow::anyhow!(
                        "nothing to run: no benchmark selected in any track ({}); the inventory \
                         {} may be empty (check `library`), or no division has two entrants of \
                         different teams (rules: only competitive divisions run; \
                         `include_non_competitive = true` in {} runs the others too)",
                        counts.join(", "),
                        ws.inventory().display(),
                        ws.file.display()
                    )));
                }
                done(format!("seed {}; {}", s.seed, counts.join(", ")))
            }
            Step::Preparation => {
                let prepared = ws.prepared();
                let view = pipeline::library_view(&ws.library, &ws.dir)?;
                let mut selections = Vec::new();
                for t in &s.tracks {
                    selections.push(crate::formats::datafile::read_json(&ws.selection(*t))?);
                }
                let counts = pipeline::prepare_all(&selections, &view, &prepared, jobs)?;
                done(format!("{counts} -> {}", prepared.display()))
            }
            Step::Generation => {
                let skip = if ws.include_non_competitive {
                    BTreeSet::new()
                } else {
                    pipeline::noncompetitive::non_competitive(&s.loaded, comp)
                };
                let exec = &ws.execdir;
                let n = skip.len();
                let (defs, runs) =
                    generate_into(comp, &self.refs(), &ws.prepared(), exec, ws, skip)?;
                let skipped = if n == 0 {
                    String::new()
                } else {
                    format!("; {n} non-competitive divisions not run")
                };
                done(format!(
                    "{defs} definitions, {runs} runs -> {}{skipped}",
                    exec.display()
                ))
            }
            Step::Runs => self.round(&ws.execdir),
            Step::Ingestion => {
                let ingested = ws.ingested_runs();
                let summary = ingest_readable_to(&ws.execdir, comp, &ingested)?;
                done(format!(
                    "{} runs -> {}",
                    summary.records,
                    ingested.display()
                ))
            }
            Step::CoreTasks => {
                let tasks = ws.core_tasks();
                let prepared = ws.prepared();
                let got = pipeline::core_inputs(&ws.ingested_runs(), comp, &prepared)?;
                let _ = std::fs::remove_dir_all(CoreManifest::dir(&tasks));
                let (_, summary) = cores::generate(
                    &got.with_core,
                    &cores::GenerateOptions {
                        prepared: &prepared,
                        out: &tasks,
                        validators: &got.validators,
                        time_limit: got.time_limit,
                    },
                )?;
                done(format!(
                    "{} distinct cores of {} runs ({} without validators) -> {}",
                    summary.tasks,
                    summary.runs_with_core,
                    summary.without_validators,
                    CoreManifest::dir(&tasks).display()
                ))
            }
            Step::CoreGeneration => {
                let core_exec = ws.core_execdir();
                let (defs, runs) = generate_into(
                    comp,
                    &self.refs(),
                    &ws.core_tasks(),
                    &core_exec,
                    ws,
                    BTreeSet::new(),
                )?;
                done(format!(
                    "{defs} definitions, {runs} validator runs -> {}",
                    core_exec.display()
                ))
            }
            Step::CoreRuns => self.round(&ws.core_execdir()),
            Step::Validation => done(validate(ws, comp, matches!(self.cores, Cores::Some), jobs)?),
            Step::Scoring => {
                let mut runs = pipeline::TrackRuns::read(&ws.runs())?;
                let inventory = Inventory::read(&ws.inventory())?;
                let scored: Vec<Track> = s
                    .tracks
                    .iter()
                    .copied()
                    .filter(|t| *t != Track::ProofExhibition)
                    .collect();
                let reports = pipeline::score_tracks(
                    comp,
                    &s.loaded,
                    &inventory,
                    &mut runs,
                    &scored,
                    &ws.scores(),
                )?;
                let sets: Vec<PreparedSet> = s
                    .tracks
                    .iter()
                    .filter_map(|t| PreparedSet::read(&ws.prepared(), *t).ok())
                    .collect();
                let proofs = pipeline::proof_summary(comp, &runs, &sets, &ws.scores())?;
                let detail = format!(
                    "{} tracks by the {} rules{} -> {}",
                    scored.len(),
                    comp.rules,
                    if s.tracks.contains(&Track::ProofExhibition) {
                        " + proof summary"
                    } else {
                        ""
                    },
                    ws.scores().display()
                );
                self.scored = Some((reports, proofs));
                done(detail)
            }
            Step::Report => {
                let (reports, proofs) = self.scored.as_ref().expect("scored before the report");
                let site = pipeline::site(reports, proofs, &ws.site())?;
                let mut detail = format!("{}", site.dir.join("index.html").display());
                if ws.test {
                    detail.push_str(&test_run_reports(ws, comp, s)?);
                }
                done(detail)
            }
        }
    }

    fn next(&self) -> Vec<String> {
        vec!["smtcomp export website -o OUT".into()]
    }
}

/// The test run's report per submission (`report::test_run`) into
/// `DIR/test-run/submissions/`: the summary line's tail.
fn test_run_reports(ws: &Workspace, comp: &Competition, s: &Setup) -> anyhow::Result<String> {
    use crate::formats::{datafile, generation, runs_manifest};
    use crate::report::test_run;
    let planned: runs_manifest::Manifest =
        datafile::read_json(&ws.execdir.join(generation::RUNS_FILE))?;
    let manifest: generation::Manifest =
        datafile::read_json(&ws.execdir.join(generation::MANIFEST_FILE))?;
    let runs = ingest::read_jsonl(&ws.runs())?;
    let mut facts = test_run::Facts {
        competition: format!("{} test run", comp.name),
        planned: &planned.runs,
        runs: &runs,
        ..Default::default()
    };
    for t in &s.tracks {
        let Ok(set) = PreparedSet::read(&ws.prepared(), *t) else {
            continue;
        };
        facts.seed.get_or_insert(set.seed);
        let logics = facts.selected.entry(*t).or_default();
        for b in &set.benchmarks {
            logics.insert(b.original.logic.clone());
            facts.status.insert(b.original.path(), b.status);
        }
    }
    for l in &s.loaded {
        let Some(sub) = &l.submission else { continue };
        let entered = facts.entered.entry(sub.name.clone()).or_default();
        for (t, divisions) in l.entries.iter().filter(|(t, _)| s.tracks.contains(t)) {
            entered
                .entry(*t)
                .or_default()
                .extend(divisions.values().flatten().cloned());
        }
    }
    for d in manifest.definitions.values() {
        facts.limits.entry(d.track).or_insert_with(|| {
            format!(
                "{} s, {} MB, {} core{}",
                d.limits.time_s,
                d.limits.memory_mb,
                d.limits.cores,
                if d.limits.cores == 1 { "" } else { "s" }
            )
        });
    }
    let program = table_generator(&ws.backend.benchexec);
    let tables = program.map(|program| test_run::Tables {
        program,
        manifest: &manifest,
        execdir: &ws.execdir,
    });
    let dir = ws.dir.join("submissions");
    let w = test_run::write_all(&dir, &facts, tables.as_ref())?;
    for (solver, track, why) in &w.table_failures {
        eprintln!("warning: table-generator failed for {solver}, {track}: {why}");
    }
    Ok(format!(
        "; test-run report of {} submission(s) -> {}/<solver>/summary.md{}",
        w.solvers,
        dir.display(),
        if tables.is_some() {
            format!(", {} table-generator table(s)", w.tables)
        } else {
            " (table-generator not found: no tables)".to_string()
        }
    ))
}

/// BenchExec's `table-generator`: beside the `benchexec` the workspace
/// uses, else on `PATH`.
fn table_generator(benchexec: &Path) -> Option<PathBuf> {
    let beside = benchexec
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| d.join("table-generator"));
    if let Some(p) = beside.filter(|p| p.is_file()) {
        return Some(p);
    }
    let path: Vec<PathBuf> =
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).collect();
    crate::benchexec::visibility::find_program("table-generator", &path)
}

fn results(execdir: &Path) -> String {
    pipeline::results_dir(execdir).display().to_string()
}

/// Validation: core verdicts (the edition's rule) and models; the summary.
fn validate(
    ws: &Workspace,
    comp: &Competition,
    has_cores: bool,
    jobs: usize,
) -> anyhow::Result<String> {
    let prepared = ws.prepared();
    let results = pipeline::results_dir(&ws.execdir);
    let runs_path = ws.runs();
    let mut parts = Vec::new();
    let manifest = if has_cores {
        Some(CoreManifest::read(&ws.core_tasks())?)
    } else {
        None
    };
    let validation = match &manifest {
        // The validator runs: a few per distinct core, held in memory.
        Some(m) if !m.tasks.is_empty() => ingest_readable(&ws.core_execdir(), comp)?.records,
        _ => Vec::new(),
    };
    // The definition's edition's rule (2025 majority, 2023 refutation).
    let cores = match &manifest {
        Some(manifest) => Some(pipeline::CoreVerdicts {
            manifest,
            validation: &validation,
            rule: crate::scoring::editions::dispatch::core_rule(comp.rules)
                .map_err(anyhow::Error::msg)?,
        }),
        None => None,
    };
    let got = pipeline::validate_table(
        &ws.ingested_runs(),
        &runs_path,
        cores,
        &pipeline::z3_models(&prepared, &results, Some(ws.dir.join("model-cache")), jobs),
    )?;
    if let Some(joined) = &got.cores {
        parts.push(format!(
            "cores {} ({} validator runs)",
            counts(&joined.by_status),
            joined.validation_runs
        ));
    }
    if let Some(models) = &got.models {
        parts.push(format!(
            "models {} ({} checked)",
            counts(&models.by_status),
            models.validated
        ));
    }
    if parts.is_empty() {
        parts.push("nothing to validate".into());
    }
    Ok(format!("{} -> {}", parts.join("; "), runs_path.display()))
}

/// The results of `exec` ingested; an error (naming the files, with what to
/// do) when a result file is unreadable, or when the results do not
/// reconcile with the runs manifest: a run with two results (a BenchExec call
/// left running beside a resumed one) or a run the manifest does not know
/// (results of an earlier generation). Missing runs are the round's business.
fn ingest_readable(exec: &Path, comp: &Competition) -> anyhow::Result<ingest::Ingested> {
    let got = pipeline::ingest_results(exec, comp, false)?;
    reconciled(exec, &got.summary)?;
    Ok(got)
}

/// [`ingest_readable`] into the run table `table`, one run at a time (a
/// full-size competition's runs are never held at once); the table is removed
/// again when the results do not reconcile.
fn ingest_readable_to(
    exec: &Path,
    comp: &Competition,
    table: &Path,
) -> anyhow::Result<ingest::Summary> {
    let summary = pipeline::ingest_results_to(exec, comp, table)?;
    if let Err(e) = reconciled(exec, &summary) {
        let _ = std::fs::remove_file(table);
        return Err(e);
    }
    Ok(summary)
}

/// An error (see [`ingest_readable`]) when the ingestion of `exec`'s results
/// found an unreadable file, a doubled run or a run the manifest does not know.
fn reconciled(exec: &Path, summary: &ingest::Summary) -> anyhow::Result<()> {
    let results = pipeline::results_dir(exec);
    if summary.has_unreadable() {
        let mut lines: Vec<String> = summary.input_errors.clone();
        for f in &summary.files {
            for u in &f.unreadable {
                lines.push(format!("{}: {u}", results.join(&f.source).display()));
            }
        }
        bail!(
            "unreadable result files (a BenchExec call interrupted?); move them away and \
             `smtcomp run` runs their runs again:\n  {}",
            lines.join("\n  ")
        );
    }
    if let Some(m) = &summary.manifest
        && (m.total.duplicated > 0 || m.total.unexpected > 0)
    {
        let t = &m.total;
        let mut lines: Vec<String> = Vec::new();
        lines.extend(m.duplicated_runs.iter().map(|r| format!("duplicated: {r}")));
        lines.extend(m.unexpected_runs.iter().map(|r| format!("unexpected: {r}")));
        bail!(
            "the results in {} do not reconcile with the runs manifest: {} expected, {} runs read = \
             {} present + {} duplicated + {} unexpected. A run with two results comes from two \
             BenchExec calls on one definition (one left running after an interrupt?); a run the \
             manifest does not know, from an earlier generation. Move the older result files away \
             (they are named below) and run `smtcomp run` again:\n  {}",
            results.display(),
            t.expected,
            m.runs_read,
            t.present,
            t.duplicated,
            t.unexpected,
            lines.join("\n  ")
        );
    }
    Ok(())
}

/// `name n, name n` of a count map.
fn counts<K: std::fmt::Display>(m: &BTreeMap<K, usize>) -> String {
    if m.is_empty() {
        return "none".into();
    }
    m.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Generates `exec` from the prepared root `prepared`; (definitions, runs).
fn generate_into(
    comp: &Competition,
    subs: &[&Submission],
    prepared: &Path,
    exec: &Path,
    ws: &Workspace,
    skip: BTreeSet<(Track, Division)>,
) -> anyhow::Result<(usize, usize)> {
    let g = crate::benchexec::generate(
        comp,
        subs,
        &GenerateOptions {
            prepared: prepared.to_path_buf(),
            out: exec.to_path_buf(),
            test: ws.test,
            location: SolverLocation {
                solver_dirs: Default::default(),
                on_path: ws.solvers_on_path,
                dirs_for_paths_only: false,
            },
            // The VerifierCloud's workers get only uploaded files: the helpers go into EXECDIR/bin/.
            binaries_from: (ws.backend.kind == super::BackendKind::Vcloud)
                .then(helpers_dir)
                .flatten(),
            max_tasks: None,
            check_binaries: false,
            skip_divisions: skip,
        },
    )
    .map_err(|e| anyhow::anyhow!("cannot generate BenchExec definitions:\n{}", e.join("\n")))?;
    if let Some(archives) = &ws.archives {
        pipeline::install_archives(archives, exec)?;
    }
    pipeline::check_solver_binaries(exec, &g.manifest, ws.archives.as_deref())?;
    let runs = g.manifest.run_count();
    Ok((g.manifest.definitions.len(), runs))
}

/// The helper binaries to copy into `EXECDIR/bin/`: the static builds of
/// `scripts/build-helpers` (`../helpers/` next to this program) when all are
/// there, else the ones next to this program (as `generate --copy-binaries`).
fn helpers_dir() -> Option<PathBuf> {
    let exe_dir = std::env::current_exe().ok()?.parent()?.to_path_buf();
    let static_dir = exe_dir.join("../helpers");
    if crate::benchexec::HELPER_BINARIES
        .iter()
        .all(|b| static_dir.join(b).is_file())
    {
        Some(static_dir)
    } else {
        Some(exe_dir)
    }
}
