//! `test-solver`'s configuration of the pipeline's one driver
//! ([`pipeline::drive`]): no cache (every stage is done), the test limits
//! clamped to the machine, the runner made once the pre-flight knows what
//! it must mount; cores and models are validated locally; the report stage
//! gives a verdict per run instead of scores.
//!
//! | stage | here |
//! |---|---|
//! | inventory | the library (built-in corpus or `--benchmarks`), small generated benchmarks for the logics it lacks |
//! | selection | a few small benchmarks per entered logic (pick.rs) |
//! | preparation | as the competition prepares each track |
//! | generation | `--archive`'s fetch, the pre-flight, the runner, definitions with the test limits |
//! | runs | real BenchExec, one call per definition |
//! | ingestion | the result files |
//! | core validation round | skipped: the cores are validated locally |
//! | validation | cores (cvc5, z3 on PATH), models (z3) |
//! | scoring | skipped: a verdict per run, not scores |
//! | report | the verdicts (diagnose.rs) |

use super::pick::{self, Picked};
use super::report::{TestReport, Verdict};
use super::{MakeRunner, RunnerSetup, TestOptions};
use super::{command_paths, diagnose, fetch_archives, generated, library, missing_run, preflight};
use super::{replay, validate};
use crate::benchexec::{Manifest, SolverLocation};
use crate::benchmarks::Inventory;
use crate::ingest::{self, IngestRecord};
use crate::model::{Competition, Track};
use crate::pipeline::{self, Decision, Generation, Outcome, Plan, Runner, Step, Stop};
use crate::prepare::PreparedSet;
use crate::select::Selection;
use crate::submission::Submission;
use anyhow::Context;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// What the test's configuration is made of (decided before the stages).
pub(super) struct Setup<'a, 'l> {
    pub opts: &'a TestOptions,
    pub sub: &'a Submission,
    /// The competition with the test limits clamped to the machine.
    pub comp: Competition,
    /// Parallel runs per BenchExec call, clamped to the machine.
    pub jobs: usize,
    /// The tracks test-solver tests among those asked.
    pub tested: BTreeSet<Track>,
    /// The output directory (absolute).
    pub out: PathBuf,
    pub make_runner: &'a MakeRunner<'a>,
    /// Progress lines beyond the stages' summaries.
    pub log: &'a RefCell<&'l mut dyn FnMut(&str)>,
    /// The report so far: tracks and logics to test, notes.
    pub report: TestReport,
}

/// The test run's state across the stages.
pub(super) struct TestPlan<'a, 'l> {
    s: Setup<'a, 'l>,
    picks: BTreeMap<(Track, String), Picked>,
    selections: Vec<Selection>,
    mounts: BTreeSet<PathBuf>,
    runner: Option<Box<dyn Runner>>,
    sets: Vec<PreparedSet>,
    manifest: Option<Manifest>,
    call_errors: BTreeMap<String, String>,
    records: Vec<IngestRecord>,
    validation_notes: BTreeMap<Track, String>,
    /// The inventory's note on generated benchmarks (logged with the selection).
    generated_note: Option<String>,
    /// Listed benchmarks not in the library (`--benchmarks FILE`).
    missing: Vec<crate::benchmarks::Smt2File>,
}

impl<'a, 'l> TestPlan<'a, 'l> {
    pub(super) fn new(s: Setup<'a, 'l>) -> Self {
        TestPlan {
            s,
            picks: BTreeMap::new(),
            selections: Vec::new(),
            mounts: BTreeSet::new(),
            runner: None,
            sets: Vec::new(),
            manifest: None,
            call_errors: BTreeMap::new(),
            records: Vec::new(),
            validation_notes: BTreeMap::new(),
            generated_note: None,
            missing: Vec::new(),
        }
    }

    /// The report, its verdicts given (not yet counted).
    pub(super) fn into_report(self) -> TestReport {
        self.s.report
    }

    fn log(&self, line: &str) {
        (self.s.log.borrow_mut())(line);
    }

    fn note(&mut self, line: String) {
        self.log(&line);
        self.s.report.notes.push(line);
    }

    /// The benchmarks picked for every tested (track, logic) of `inv`.
    fn pick_all(&self, inv: &Inventory) -> BTreeMap<(Track, String), Picked> {
        let lib = self.s.out.join("library");
        let mut picks = BTreeMap::new();
        for tr in self
            .s
            .report
            .tracks
            .iter()
            .filter(|t| t.not_tested.is_none())
        {
            for lr in &tr.logics {
                let logic = crate::model::Logic::new(lr.logic.clone());
                picks.insert(
                    (tr.track, lr.logic.clone()),
                    pick::pick(
                        inv,
                        &lib,
                        &self.s.comp,
                        tr.track,
                        &logic,
                        match self.s.opts.list {
                            Some(_) => pick::How::All,
                            None => pick::How::Smallest(self.s.opts.per_logic),
                        },
                    ),
                );
            }
        }
        picks
    }

    /// The library: the built-in corpus or --benchmarks, then generated
    /// benchmarks for the logics it has nothing suitable for.
    fn inventory(&mut self) -> anyhow::Result<String> {
        if self.s.opts.list.is_some() {
            return self.listed_inventory();
        }
        let (opts, comp, out) = (self.s.opts, &self.s.comp, &self.s.out);
        let source = match &opts.library {
            Some(d) => d.clone(),
            None => library::write_embedded_corpus(&out.join("corpus"))?,
        };
        let lib = out.join("library");
        library::build_library(&source, &lib)?;
        let mut inv = pipeline::inventory(&lib, comp, opts.jobs);
        let summary = format!(
            "library {}: {} non-incremental and {} incremental benchmarks",
            opts.library
                .as_ref()
                .map_or("(built in)".to_string(), |d| d.display().to_string()),
            inv.non_incremental.len(),
            inv.incremental.len()
        );
        let mut picks = self.pick_all(&inv);
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
            picks = self.pick_all(&inv);
            self.generated_note = Some(format!(
                "generated small benchmarks of known status for {} logic(s) the library lacks benchmarks for ({})",
                lacking.len(),
                lacking.iter().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        self.picks = picks;
        Ok(summary)
    }

    /// `--benchmarks FILE`: a library of the listed files only, every one
    /// of them picked where it suits a tested track; the missing ones kept
    /// for the report, the others that no tested (track, logic) takes noted.
    fn listed_inventory(&mut self) -> anyhow::Result<String> {
        let (opts, comp, out) = (self.s.opts, &self.s.comp, &self.s.out);
        let (Some((list_file, list)), Some(source)) = (&opts.list, &opts.library) else {
            anyhow::bail!("a benchmark list needs --library DIR");
        };
        // Only the (track, logic) pairs the list has benchmarks for.
        let listed: BTreeSet<(bool, &str)> = list
            .files
            .iter()
            .map(|f| (f.incremental, f.logic.as_str()))
            .collect();
        for tr in &mut self.s.report.tracks {
            let inc = tr.track.is_incremental();
            tr.logics
                .retain(|lr| listed.contains(&(inc, lr.logic.as_str())));
        }
        self.s.report.tracks.retain(|t| !t.logics.is_empty());
        if !self.s.report.tracks.iter().any(|t| t.not_tested.is_none()) {
            anyhow::bail!(
                "--benchmarks {}: lists no benchmark of a logic {} enters in the tested tracks",
                list_file.display(),
                self.s.sub.name
            );
        }
        let lib = out.join("library");
        self.missing = library::link_listed(source, &list.files, &lib)?;
        let inv = pipeline::inventory(&lib, comp, opts.jobs);
        for e in &inv.errors {
            self.log(&format!("{}: cannot read: {}", e.path, e.reason));
        }
        self.picks = self.pick_all(&inv);
        Ok(format!(
            "list {}: {} benchmarks, {} found in {}, {} missing",
            list_file.display(),
            list.files.len(),
            list.files.len() - self.missing.len(),
            source.display(),
            self.missing.len()
        ))
    }

    /// With a list: a note on the listed benchmarks that have no row in the
    /// report (neither picked nor missing in a tested logic), so that every
    /// listed benchmark is accounted for.
    fn note_unlisted(&mut self) {
        let Some((_, list)) = &self.s.opts.list else {
            return;
        };
        let mut rows: BTreeSet<String> = self
            .selections
            .iter()
            .flat_map(|s| s.benchmarks.iter().map(|b| b.file.path()))
            .collect();
        rows.extend(self.s.report.missing.iter().cloned());
        let mut left: BTreeMap<String, usize> = BTreeMap::new();
        for f in &list.files {
            if !rows.contains(&f.path()) {
                *left.entry(f.logic.to_string()).or_default() += 1;
            }
        }
        if left.is_empty() {
            return;
        }
        let n: usize = left.values().sum();
        let tracks: Vec<&str> = self.s.tested.iter().map(|t| t.name()).collect();
        self.note(format!(
            "{n} listed benchmark(s) not run: {} does not enter their logic in {}, or they do not suit the track ({})",
            self.s.sub.name,
            tracks.join(", "),
            left.iter()
                .map(|(l, n)| format!("{l} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }

    /// The picks as one selection per track; the logics without a benchmark noted.
    fn selection(&mut self) -> Outcome {
        if let Some(note) = self.generated_note.take() {
            self.note(note);
        }
        for tr in &mut self.s.report.tracks {
            if tr.not_tested.is_some() {
                continue;
            }
            let mut chosen = Vec::new();
            let library = self.s.opts.library.as_ref();
            for lr in &mut tr.logics {
                match self.picks.remove(&(tr.track, lr.logic.clone())) {
                    Some(Picked::Some(v)) => chosen.extend(v),
                    Some(Picked::None(why)) => lr.not_tested = Some(why),
                    None => lr.not_tested = Some("no benchmark".into()),
                }
                // Listed but not in the library: not run, named.
                for f in self.missing.iter().filter(|f| {
                    f.logic.as_str() == lr.logic && f.incremental == tr.track.is_incremental()
                }) {
                    lr.not_tested = None;
                    self.s.report.missing.push(f.path());
                    lr.runs.push(super::report::RunResult {
                        benchmark: f.path(),
                        prepared: String::new(),
                        expected: String::new(),
                        answer: "none".into(),
                        time_s: None,
                        verdict: Verdict::NotRun,
                        reason: format!(
                            "not run: listed, but not in the library {}",
                            library.map_or(String::new(), |l| l.display().to_string())
                        ),
                        log: None,
                        generated: false,
                    });
                }
            }
            if !chosen.is_empty() {
                self.selections
                    .push(pick::selection(&self.s.comp, tr.track, chosen));
            }
        }
        self.note_unlisted();
        if self.selections.is_empty() {
            return Outcome::Finished("no benchmark to run for any entered logic".into());
        }
        let n: usize = self.selections.iter().map(|s| s.benchmarks.len()).sum();
        Outcome::Done(format!("{n} benchmarks picked"))
    }

    /// Preparation, exactly as the competition prepares each track.
    fn preparation(&mut self) -> anyhow::Result<String> {
        let (opts, out) = (self.s.opts, &self.s.out);
        let prepared = out.join("prepared");
        let lib = out.join("library");
        for set in pipeline::prepare_selections(&self.selections, &lib, &prepared, opts.jobs)? {
            for f in &set.failures {
                self.log(&format!(
                    "{}: {}: cannot prepare: {}",
                    set.track,
                    f.original.path(),
                    f.reason
                ));
            }
        }
        self.sets = self
            .selections
            .iter()
            .map(|s| PreparedSet::read(&prepared, s.track))
            .collect::<Result<_, _>>()?;
        Ok(format!(
            "prepared {} benchmarks in {}",
            self.sets.iter().map(|s| s.benchmarks.len()).sum::<usize>(),
            prepared.display()
        ))
    }

    /// `--archive`'s fetch, the pre-flight (every command can be started
    /// inside BenchExec's container), the runner, and the definitions for
    /// this one solver with the test limits.
    fn generation(&mut self) -> anyhow::Result<String> {
        let (opts, sub, out) = (self.s.opts, self.s.sub, self.s.out.clone());
        // --archive: the submission's archives, fetched and unpacked as the
        // competition does; the commands run from EXECDIR/archives/.
        let archives = if opts.archive {
            let mut log = self.s.log.borrow_mut();
            Some(fetch_archives(sub, &out, &mut **log)?)
        } else {
            None
        };
        let solver_dir = match &opts.solver_dir {
            _ if opts.archive => None,
            Some(d) => Some(
                std::fs::canonicalize(d)
                    .with_context(|| format!("{}: solver directory not found", d.display()))?,
            ),
            None if command_paths(sub) => Some(std::env::current_dir()?),
            None => None,
        };
        // Without --solver-dir the current directory holds only the commands
        // with a `/`; bare names stay on PATH.
        let paths_only = opts.solver_dir.is_none() && !opts.archive;
        let path: Vec<PathBuf> = std::iter::once(opts.bin_dir.clone())
            .chain(std::env::split_paths(
                &std::env::var_os("PATH").unwrap_or_default(),
            ))
            .collect();
        let tested = &self.s.tested;
        let pre = match &archives {
            Some(fetched) => {
                let mut all = preflight::Preflight::default();
                for (dir, participations) in fetched {
                    let mut one = sub.clone();
                    one.participations = participations
                        .iter()
                        .map(|&i| sub.participations[i].clone())
                        .collect();
                    let p =
                        preflight::check(&one, tested, Some(out.join(dir).as_path()), false, &path);
                    all.problems.extend(p.problems);
                    all.mounts.extend(p.mounts);
                }
                // The runs use the copy in EXECDIR/archives (visible: an overlay).
                all.mounts.retain(|m| !m.starts_with(out.join("archives")));
                all
            }
            None => preflight::check(sub, tested, solver_dir.as_deref(), paths_only, &path),
        };
        if !pre.problems.is_empty() {
            anyhow::bail!(
                "the solver cannot be started (nothing was run):\n  {}",
                pre.problems.join("\n  ")
            );
        }
        if !pre.mounts.is_empty() {
            self.note(format!(
                "mounted read-only into BenchExec's container (it hides /home, /tmp and /run): {}",
                pre.mounts
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let runner = (self.s.make_runner)(&RunnerSetup {
            read_only_dirs: pre.mounts.iter().cloned().collect(),
            jobs: self.s.jobs,
        });
        runner.check()?;
        self.runner = Some(runner);
        self.mounts = pre.mounts;

        let exec = out.join("exec");
        let generated = pipeline::generate(&Generation {
            competition: &self.s.comp,
            submissions: &[sub],
            prepared: &out.join("prepared"),
            exec: &exec,
            test: true,
            location: SolverLocation {
                solver_dirs: solver_dir
                    .map(|d| BTreeMap::from([(sub.name.clone(), d)]))
                    .unwrap_or_default(),
                on_path: archives.is_none(),
                dirs_for_paths_only: paths_only,
            },
            archives: archives.as_ref().map(|_| out.join("archives")).as_deref(),
        })?;
        for w in &generated.warnings {
            self.log(&format!("generate: {w}"));
        }
        let manifest = Manifest::read(&exec)?;
        let summary = format!(
            "{} BenchExec definitions (container mode, {} run(s) side by side per call)",
            manifest.definitions.len(),
            self.s.jobs
        );
        self.manifest = Some(manifest);
        Ok(summary)
    }

    /// Real BenchExec, one call per definition, side by side. A call that
    /// failed as a whole is our side's problem (limits, cgroups, container),
    /// never the solver's.
    fn runs(&mut self) -> anyhow::Result<String> {
        let exec = self.s.out.join("exec");
        let manifest = self.manifest.as_ref().context("no definitions")?;
        let runner = self.runner.as_deref().context("no runner")?;
        self.log(&format!(
            "running {} BenchExec definitions",
            manifest.definitions.len()
        ));
        let runs = pipeline::run_all(runner, &exec, manifest);
        self.call_errors = pipeline::failures(&runs);
        for (definition, why) in &self.call_errors {
            self.s
                .report
                .problems
                .push(format!("BenchExec failed on {definition}: {why}"));
        }
        Ok(format!(
            "{} definitions run, {} BenchExec call(s) failed",
            runs.len(),
            self.call_errors.len()
        ))
    }

    fn ingestion(&mut self) -> anyhow::Result<String> {
        let exec = self.s.out.join("exec");
        self.records = pipeline::ingest_results(&exec, &self.s.comp, false)?.records;
        Ok(String::new())
    }

    fn validation(&mut self) -> anyhow::Result<String> {
        let (opts, comp, out) = (self.s.opts, &self.s.comp, &self.s.out);
        let prepared = out.join("prepared");
        let results = pipeline::results_dir(&out.join("exec"));
        if opts.no_validation {
            for track in [Track::UnsatCore, Track::ModelValidation] {
                self.validation_notes.insert(
                    track,
                    "cores and models not validated (--no-validation)".into(),
                );
            }
        } else {
            self.validation_notes = validate(
                &mut self.records,
                self.s.sub,
                comp,
                &prepared,
                &results,
                out,
                opts.jobs,
            )?;
        }
        ingest::write_jsonl(
            &out.join("runs.jsonl"),
            Some(&ingest::TableIdentity::of(comp)),
            &self.records,
        )?;
        Ok(String::new())
    }

    /// A verdict per run. (The runs saw the output directory and the pre-flight's mounts.)
    fn verdicts(&mut self) -> anyhow::Result<()> {
        let opts = self.s.opts;
        let out = self.s.out.clone();
        let prepared = out.join("prepared");
        let exec = out.join("exec");
        let results = pipeline::results_dir(&exec);
        let manifest = self.manifest.as_ref().context("no definitions")?;
        let (sets, call_errors) = (&self.sets, &self.call_errors);
        // One lookup per benchmark (a list can hold a whole track).
        let records: std::collections::HashMap<(Option<Track>, &str), &IngestRecord> = self
            .records
            .iter()
            .rev()
            .map(|r| ((r.track, r.benchmark_key.as_str()), r))
            .collect();
        let visible: Vec<PathBuf> = std::iter::once(out.clone())
            .chain(self.mounts.iter().cloned())
            .collect();
        for tr in &mut self.s.report.tracks {
            let Some(set) = sets.iter().find(|s| s.track == tr.track) else {
                continue;
            };
            tr.notes
                .extend(self.validation_notes.get(&tr.track).cloned());
            let dir = PreparedSet::track_dir(&prepared, tr.track);
            for lr in &mut tr.logics {
                for b in set
                    .benchmarks
                    .iter()
                    .filter(|b| b.original.logic.as_str() == lr.logic)
                {
                    let file = dir.join(&b.path);
                    let key = b.original.path();
                    let rec = records.get(&(Some(tr.track), key.as_str())).copied();
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
                                let mut result = missing_run(b, tr.track, manifest, call_errors);
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
                                    replay::locate(
                                        &opts.bin_dir,
                                        &command,
                                        &file,
                                        limits.time_s,
                                        &out,
                                    )
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
                                        no_validation: opts.no_validation,
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
                        None => missing_run(b, tr.track, manifest, call_errors),
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
        Ok(())
    }
}

impl Plan for TestPlan<'_, '_> {
    fn decide(&mut self, step: Step) -> Result<Decision, Stop> {
        Ok(match step {
            Step::CoreTasks | Step::CoreGeneration | Step::CoreRuns => Decision::Skip(
                "test-solver validates the cores locally, in the validation stage".into(),
            ),
            Step::Scoring => Decision::Skip("a verdict per run instead of scores".into()),
            _ => Decision::Always,
        })
    }

    fn run(&mut self, step: Step) -> Result<Outcome, Stop> {
        let done = |d: String| Ok(Outcome::Done(d));
        match step {
            Step::Inventory => done(self.inventory()?),
            Step::Selection => Ok(self.selection()),
            Step::Preparation => done(self.preparation()?),
            Step::Generation => done(self.generation()?),
            Step::Runs => done(self.runs()?),
            Step::Ingestion => done(self.ingestion()?),
            Step::Validation => done(self.validation()?),
            Step::Report => {
                self.verdicts()?;
                done(String::new())
            }
            Step::CoreTasks | Step::CoreGeneration | Step::CoreRuns | Step::Scoring => {
                Ok(Outcome::Skipped("not part of test-solver".into()))
            }
        }
    }
}
