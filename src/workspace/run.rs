//! `smtcomp run`: the competition of a workspace, stage by stage, resuming
//! what is done. The stages are the pipeline's ([`crate::pipeline`]); each
//! one whose inputs did not change since it completed is reused
//! ([`Stages`]); the two BenchExec rounds (the competition runs, then the
//! unsat-core validation runs) are resumed from their result files.
//!
//! ```text
//! inventory -> selection -> preparation -> generation -> runs -> ingestion
//!   -> core validation: tasks -> core validation: generation -> core validation: runs
//!   -> validation (core verdicts, models) -> scoring -> report
//! ```

use super::config::Workspace;
use super::rounds::{Round, run_round};
use crate::benchexec::{GenerateOptions, SolverLocation};
use crate::benchmarks::Inventory;
use crate::ingest::{self, TableIdentity};
use crate::model::{Competition, Division, Track};
use crate::pipeline::{self, Stages};
use crate::prepare::PreparedSet;
use crate::submission::{LoadedSubmission, Submission, load_set};
use crate::validate::cores::{self, CoreManifest};
use anyhow::{Context, bail};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every stage of `smtcomp run`, in order.
pub const STAGES: [&str; 12] = [
    "inventory",
    "selection",
    "preparation",
    "generation",
    "runs",
    "ingestion",
    "core validation: tasks",
    "core validation: generation",
    "core validation: runs",
    "validation",
    "scoring",
    "report",
];

/// How a stage went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Done now.
    Done,
    /// Done before; its inputs did not change (nothing redone).
    Resumed,
    /// Not needed (no Unsat Core runs, ...).
    Skipped,
    /// Needs an external step (the VerifierCloud) or missing runs.
    Waiting,
    /// Failed: see the detail.
    Failed,
    /// Not reached.
    Left,
}

impl State {
    /// The word printed.
    pub fn word(self) -> &'static str {
        match self {
            State::Done => "done",
            State::Resumed => "resumed",
            State::Skipped => "skipped",
            State::Waiting => "waiting",
            State::Failed => "failed",
            State::Left => "left",
        }
    }
}

/// One stage's line.
#[derive(Debug, Clone, Serialize)]
pub struct StageLine {
    /// The stage (one of [`STAGES`]).
    pub stage: &'static str,
    /// How it went.
    pub state: State,
    /// Its summary (counts, paths) or why it stopped.
    pub detail: String,
}

impl StageLine {
    /// `stage  state  detail`, aligned.
    pub fn render(&self) -> String {
        format!(
            "{:<28} {:<8} {}",
            self.stage,
            self.state.word(),
            self.detail
        )
        .trim_end()
        .to_string()
    }
}

/// What `smtcomp run` did.
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// Every stage, in order.
    pub stages: Vec<StageLine>,
    /// What the organizer does next (a command), if anything.
    pub next: Vec<String>,
    /// The last stage asked for (`--until`), if not all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<&'static str>,
}

impl RunReport {
    /// Whether every stage (up to `--until`'s) is done, resumed or skipped.
    pub fn complete(&self) -> bool {
        let asked = match self.until {
            Some(u) => STAGES.iter().position(|s| *s == u).map_or(0, |i| i + 1),
            None => STAGES.len(),
        };
        self.stages.len() >= asked
            && self.stages[..asked]
                .iter()
                .all(|s| matches!(s.state, State::Done | State::Resumed | State::Skipped))
    }
}

/// The stage of [`STAGES`] named `name` (`--until`), or an error listing them.
pub fn stage_named(name: &str) -> Result<&'static str, String> {
    STAGES
        .iter()
        .copied()
        .find(|s| s.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| format!("unknown stage `{name}` (one of: {})", STAGES.join(", ")))
}

/// Why the driver stopped early.
enum Stop {
    /// A stage waits for an external step; the commands to run.
    Waiting(String, Vec<String>),
    /// A stage failed.
    Failed(String),
    /// The stage `--until` names is done.
    Until,
}

impl From<anyhow::Error> for Stop {
    fn from(e: anyhow::Error) -> Stop {
        Stop::Failed(format!("{e:#}"))
    }
}

/// The driver's state: the workspace, the stage cache and the lines so far.
struct Driver<'a> {
    ws: &'a Workspace,
    stages: Stages,
    lines: Vec<StageLine>,
    log: &'a mut dyn FnMut(&StageLine),
    /// The last stage to run (`--until`).
    until: Option<&'static str>,
}

impl Driver<'_> {
    fn push(&mut self, stage: &'static str, state: State, detail: String) {
        let line = StageLine {
            stage,
            state,
            detail,
        };
        (self.log)(&line);
        self.lines.push(line);
    }

    /// `Err(Stop::Until)` once the stage `--until` names has its line.
    fn until(&self) -> Result<(), Stop> {
        match (self.until, self.lines.last()) {
            (Some(u), Some(l)) if l.stage == u => Err(Stop::Until),
            _ => Ok(()),
        }
    }

    /// A cached stage: reused when `inputs` did not change since it completed.
    fn cached(
        &mut self,
        stage: &'static str,
        inputs: &[&Path],
        work: impl FnOnce() -> anyhow::Result<String>,
    ) -> Result<(), Stop> {
        self.until()?;
        let mut ran = false;
        let mut said = String::new();
        let result = self
            .stages
            .run(stage, inputs, &mut |l| said = l.to_string(), || {
                ran = true;
                work()
            });
        if let Err(e) = result {
            return Err(Stop::Failed(format!("{e:#}")));
        }
        // `name: summary (t s)` or `name: reused (summary)`.
        let rest = said
            .strip_prefix(stage)
            .and_then(|r| r.strip_prefix(": "))
            .unwrap_or(&said)
            .to_string();
        if ran {
            self.push(stage, State::Done, rest);
        } else {
            let summary = rest
                .strip_prefix("reused (")
                .and_then(|r| r.strip_suffix(')'))
                .unwrap_or(&rest);
            self.push(stage, State::Resumed, summary.to_string());
        }
        Ok(())
    }

    /// A BenchExec round on `execdir`.
    fn round(&mut self, stage: &'static str, execdir: &Path) -> Result<(), Stop> {
        self.until()?;
        let smtcomp = std::env::current_exe().map_err(anyhow::Error::from)?;
        let round = run_round(execdir, &self.ws.backend, smtcomp)?;
        let backend = self.ws.backend.kind.name();
        match round {
            Round::AlreadyComplete { runs } => {
                self.push(
                    stage,
                    State::Resumed,
                    format!("all {runs} runs have results in {}", results(execdir)),
                );
                Ok(())
            }
            Round::Completed { definitions, runs } => {
                self.push(
                    stage,
                    State::Done,
                    format!(
                        "definitions run: {definitions} ({backend}); all {runs} runs have results in {}",
                        results(execdir)
                    ),
                );
                Ok(())
            }
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
            } => Err(Stop::Failed(format!(
                "{missing} of {runs} runs have no result ({backend}); `smtcomp status` lists them, `smtcomp run` retries:\n  {}",
                problems.join("\n  ")
            ))),
        }
    }
}

fn results(execdir: &Path) -> String {
    pipeline::results_dir(execdir).display().to_string()
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
/// `until` (one of [`STAGES`]) stops after that stage: the later ones are
/// left, and the report is complete when every stage up to it is.
pub fn run(
    ws: &Workspace,
    jobs: usize,
    until: Option<&'static str>,
    log: &mut dyn FnMut(&StageLine),
) -> RunReport {
    let stages = match Stages::new(&ws.dir, false) {
        Ok(s) => s,
        Err(e) => {
            return stopped(
                Vec::new(),
                Stop::Failed(format!("{e:#}")),
                "inventory",
                &mut *log,
            );
        }
    };
    let mut d = Driver {
        ws,
        stages,
        lines: Vec::new(),
        log: &mut *log,
        until,
    };
    let result = drive(&mut d, jobs);
    let lines = std::mem::take(&mut d.lines);
    let mut report = match result {
        Ok(next) => RunReport {
            stages: lines,
            next,
            until: None,
        },
        Err(stop) => {
            let at = STAGES.get(lines.len()).copied().unwrap_or("report");
            stopped(lines, stop, at, log)
        }
    };
    report.until = until;
    report
}

/// The report of a run stopped at `stage`: its line, and every later stage left.
fn stopped(
    mut lines: Vec<StageLine>,
    stop: Stop,
    stage: &'static str,
    log: &mut dyn FnMut(&StageLine),
) -> RunReport {
    let mut push = |l: StageLine| {
        log(&l);
        lines.push(l);
    };
    let at = STAGES.iter().position(|s| *s == stage).unwrap_or(0);
    let (state, detail, next) = match stop {
        Stop::Waiting(d, n) => (State::Waiting, d, n),
        Stop::Failed(d) => (State::Failed, d, Vec::new()),
        Stop::Until => {
            // Asked to stop before `stage`: it and the later ones are left.
            for s in &STAGES[at..] {
                push(StageLine {
                    stage: s,
                    state: State::Left,
                    detail: "not asked (--until)".into(),
                });
            }
            return RunReport {
                stages: lines,
                next: vec!["smtcomp run".into()],
                until: None,
            };
        }
    };
    push(StageLine {
        stage,
        state,
        detail,
    });
    for s in &STAGES[at + 1..] {
        push(StageLine {
            stage: s,
            state: State::Left,
            detail: String::new(),
        });
    }
    RunReport {
        stages: lines,
        next,
        until: None,
    }
}

fn drive(d: &mut Driver<'_>, jobs: usize) -> Result<Vec<String>, Stop> {
    let ws = d.ws;
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
            return Err(Stop::Failed(format!(
                "{}: track {t} is not defined in {}",
                ws.file.display(),
                comp.name
            )));
        }
    }
    if tracks.is_empty() {
        return Err(Stop::Failed(
            "no track to run: no submission enters one".into(),
        ));
    }
    let competition_file = match &ws.definition {
        super::DefinitionSource::File(p) => p.clone(),
        super::DefinitionSource::Year(_) => ws.file.clone(),
    };

    // 1. Inventory: the given one, else scanned from the library.
    let inv_path = ws.inventory();
    let library = ws.library.clone();
    if let Some(given) = &ws.given_inventory {
        if !given.is_file() {
            return Err(Stop::Failed(format!(
                "{}: inventory: {} not found",
                ws.file.display(),
                given.display()
            )));
        }
        d.push(
            "inventory",
            State::Skipped,
            format!("given: {}", given.display()),
        );
    } else {
        d.cached("inventory", &[&library, &competition_file], || {
            let view = pipeline::library_view(&library, &ws.dir)?;
            let inv = pipeline::complete_inventory(&view, &comp, jobs)?;
            inv.write(&inv_path)?;
            Ok(format!(
                "{} non-incremental and {} incremental benchmarks -> {}",
                inv.non_incremental.len(),
                inv.incremental.len(),
                inv_path.display()
            ))
        })?;
    }

    // 2. Selection.
    let seed = match ws.seed.value {
        Some(v) => v,
        // The test run's seed (`select --test`'s default).
        None if ws.test => 1,
        None => pipeline::seed(&comp, &subs).map_err(anyhow::Error::from)?,
    };
    let seed_input = ws.file.clone();
    let evidence = ws.evidence();
    let evidence_files = ws.evidence_files();
    let mut selection_inputs: Vec<&Path> =
        vec![&inv_path, &ws.submissions, &competition_file, &seed_input];
    selection_inputs.extend(evidence_files.iter().map(PathBuf::as_path));
    d.cached("selection", &selection_inputs, || {
        // The rules' whole selection, as `smtcomp select` makes it from the same evidence.
        let mut counts = Vec::new();
        for &track in &tracks {
            let file = ws.selection(track);
            let n = pipeline::selection::select_with(
                &comp,
                &inv_path,
                track,
                seed,
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
                Err(e) => return Err(e),
            }
        }
        Ok(format!("seed {seed}; {}", counts.join(", ")))
    })?;
    // The tracks with a selection go on.
    let tracks: Vec<Track> = tracks
        .into_iter()
        .filter(|t| ws.selection(*t).is_file())
        .collect();

    // 3. Preparation.
    let prepared = ws.prepared();
    let selection_files: Vec<PathBuf> = tracks.iter().map(|t| ws.selection(*t)).collect();
    let mut inputs: Vec<&Path> = selection_files.iter().map(PathBuf::as_path).collect();
    inputs.push(&library);
    d.cached("preparation", &inputs, || {
        let view = pipeline::library_view(&library, &ws.dir)?;
        let mut selections = Vec::new();
        for f in &selection_files {
            selections.push(crate::formats::datafile::read_json(f)?);
        }
        let _ = std::fs::remove_dir_all(&prepared);
        let sets = pipeline::prepare_selections(&selections, &view, &prepared, jobs)?;
        let mut counts = Vec::new();
        for set in &sets {
            if !set.failures.is_empty() {
                bail!(
                    "{}: {} benchmarks could not be prepared: {:?}",
                    set.track,
                    set.failures.len(),
                    set.failures
                );
            }
            counts.push(format!(
                "{} {}",
                set.track.short_name(),
                set.benchmarks.len()
            ));
        }
        Ok(format!("{} -> {}", counts.join(", "), prepared.display()))
    })?;

    // 4. Generation.
    let exec = ws.execdir.clone();
    let mut gen_inputs: Vec<&Path> = vec![&prepared, &ws.submissions, &competition_file];
    if let Some(a) = &ws.archives {
        gen_inputs.push(a);
    }
    let refs: Vec<&Submission> = subs.iter().map(|(_, s)| s).collect();
    let skip = if ws.include_non_competitive {
        BTreeSet::new()
    } else {
        pipeline::noncompetitive::non_competitive(&loaded, &comp)
    };
    d.cached("generation", &gen_inputs, || {
        let (defs, runs) = generate_into(&comp, &refs, &prepared, &exec, ws, skip.clone())?;
        let skipped = if skip.is_empty() {
            String::new()
        } else {
            format!("; {} non-competitive divisions not run", skip.len())
        };
        Ok(format!(
            "{defs} definitions, {runs} runs -> {}{skipped}",
            exec.display()
        ))
    })?;

    // 5. The competition runs.
    d.round("runs", &exec)?;

    // 6. Ingestion.
    let ingested = ws.ingested_runs();
    let results = pipeline::results_dir(&exec);
    d.cached("ingestion", &[&results], || {
        let got = ingest_readable(&exec, &comp)?;
        ingest::write_jsonl(&ingested, Some(&TableIdentity::of(&comp)), &got.records)?;
        Ok(format!(
            "{} runs -> {}",
            got.records.len(),
            ingested.display()
        ))
    })?;

    // 7. Core validation: tasks, their generation, the second BenchExec round.
    let tasks = ws.core_tasks();
    let core_exec = ws.core_execdir();
    d.until()?;
    let records = ingest::read_jsonl(&ingested)?;
    let has_cores = records
        .iter()
        .any(|r| r.track == Some(Track::UnsatCore) && r.unsat_core.is_some());
    if has_cores {
        let prepared_for_tasks = prepared.clone();
        d.cached("core validation: tasks", &[&ingested], || {
            let _ = std::fs::remove_dir_all(CoreManifest::dir(&tasks));
            let (validators, time_limit) =
                pipeline::sound_in_sq_validators(&records, &comp, &prepared_for_tasks);
            let (_, summary) = cores::generate(
                &records,
                &cores::GenerateOptions {
                    prepared: &prepared_for_tasks,
                    out: &tasks,
                    validators: &validators,
                    time_limit,
                },
            )?;
            Ok(format!(
                "{} distinct cores of {} runs ({} without validators) -> {}",
                summary.tasks,
                summary.runs_with_core,
                summary.without_validators,
                CoreManifest::dir(&tasks).display()
            ))
        })?;
        let task_dir = CoreManifest::dir(&tasks);
        let manifest = CoreManifest::read(&tasks)?;
        if manifest.tasks.is_empty() {
            d.push(
                "core validation: generation",
                State::Skipped,
                "no validation task".into(),
            );
            d.until()?;
            d.push(
                "core validation: runs",
                State::Skipped,
                "no validation task".into(),
            );
        } else {
            d.cached(
                "core validation: generation",
                &[&task_dir, &ws.submissions],
                || {
                    let (defs, runs) =
                        generate_into(&comp, &refs, &tasks, &core_exec, ws, BTreeSet::new())?;
                    Ok(format!(
                        "{defs} definitions, {runs} validator runs -> {}",
                        core_exec.display()
                    ))
                },
            )?;
            d.round("core validation: runs", &core_exec)?;
        }
    } else {
        let why = if tracks.contains(&Track::UnsatCore) {
            "no unsat core in the Unsat Core runs"
        } else {
            "no Unsat Core Track"
        };
        for s in [
            "core validation: tasks",
            "core validation: generation",
            "core validation: runs",
        ] {
            d.until()?;
            d.push(s, State::Skipped, why.into());
        }
    }

    // 8. Validation: core verdicts (majority rule) and models.
    let runs_path = ws.runs();
    let core_results = pipeline::results_dir(&core_exec);
    d.cached("validation", &[&ingested, &core_results, &prepared], || {
        let (identity, mut records) = ingest::read_table(&ingested)?;
        let mut parts = Vec::new();
        if has_cores {
            let manifest = CoreManifest::read(&tasks)?;
            let validation = if manifest.tasks.is_empty() {
                Vec::new()
            } else {
                ingest_readable(&core_exec, &comp)?.records
            };
            // The definition's edition's rule (2025 majority, 2023 refutation).
            let rule = crate::scoring::editions::dispatch::core_rule(comp.rules)
                .map_err(anyhow::Error::msg)?;
            let joined = crate::validate::join_with(&mut records, &manifest, &validation, rule);
            parts.push(format!(
                "cores {} ({} validator runs)",
                counts(&joined.by_status),
                joined.validation_runs
            ));
        }
        if records
            .iter()
            .any(|r| r.track == Some(Track::ModelValidation))
        {
            let models = pipeline::validate_model_runs(
                &mut records,
                &pipeline::z3_models(&prepared, &results, Some(ws.dir.join("model-cache")), jobs),
            );
            parts.push(format!(
                "models {} ({} checked)",
                counts(&models.by_status),
                models.validated
            ));
        }
        ingest::write_jsonl(&runs_path, identity.as_ref(), &records)?;
        if parts.is_empty() {
            parts.push("nothing to validate".into());
        }
        Ok(format!("{} -> {}", parts.join("; "), runs_path.display()))
    })?;

    // 9. Scoring and 10. report (fast: always redone).
    d.until()?;
    let runs = ingest::read_jsonl(&runs_path)?;
    let inventory = Inventory::read(&inv_path).map_err(anyhow::Error::from)?;
    let scored: Vec<Track> = tracks
        .iter()
        .copied()
        .filter(|t| *t != Track::ProofExhibition)
        .collect();
    let reports = pipeline::score_tracks(&comp, &loaded, &inventory, &runs, &scored, &ws.scores())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let sets: Vec<PreparedSet> = tracks
        .iter()
        .filter_map(|t| PreparedSet::read(&prepared, *t).ok())
        .collect();
    let proofs = pipeline::proof_summary(&comp, &runs, &sets, &ws.scores())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    d.push(
        "scoring",
        State::Done,
        format!(
            "{} tracks by the {} rules{} -> {}",
            scored.len(),
            comp.rules,
            if tracks.contains(&Track::ProofExhibition) {
                " + proof summary"
            } else {
                ""
            },
            ws.scores().display()
        ),
    );
    d.until()?;
    let site = pipeline::site(&reports, &proofs, &ws.site()).map_err(|e| anyhow::anyhow!("{e}"))?;
    d.push(
        "report",
        State::Done,
        format!("{}", site.dir.join("index.html").display()),
    );
    Ok(vec!["smtcomp export website -o OUT".into()])
}

/// The results of `exec` ingested; an unreadable result file is an error
/// naming it (and only it), with what to do.
fn ingest_readable(exec: &Path, comp: &Competition) -> anyhow::Result<ingest::Ingested> {
    let got = pipeline::ingest_results(exec, comp, false)?;
    if got.has_unreadable() {
        let results = pipeline::results_dir(exec);
        let mut lines: Vec<String> = got.summary.input_errors.clone();
        for f in &got.summary.files {
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
    Ok(got)
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
                on_path: true,
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
        pipeline::install_archives(archives, exec, &g.manifest)?;
    }
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
