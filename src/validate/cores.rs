//! Unsat-core validation tasks: one core-restricted benchmark per distinct
//! core of each benchmark, the validation solvers of its division, and its
//! time limit; written as a prepared set (track `UnsatCoreValidation`) plus a
//! validation manifest, so BenchExec definitions can be generated for it and
//! [`run_local`] can run it without BenchExec.

pub use crate::formats::core_validation::{CoreManifest, CoreTask, LOCAL_RUNS, MANIFEST, Producer};

use super::commands::ValidatorCommands;
use super::restrict::restrict;
use crate::formats::prepared::{PreparedBenchmark, PreparedSet};
use crate::formats::runtable::{IngestRecord, RunAnswer};
use crate::model::{Division, Status, Track};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// The validation time limit. Rules 2025 5.4 give generation and validation
/// 20 minutes each per solver/benchmark (the track's time limit); the change
/// list says the limit was "increased to the time taken to generate it". The
/// rules default is [`TimeLimit::Track`]: the track's limit, and never below
/// the producing run's time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeLimit {
    /// The track's time limit (seconds), raised to the longest producing run's
    /// time when that is longer (the rules default).
    Track(f64),
    /// The longest time among the core's producing runs, at least `min`
    /// seconds (a solver cannot even start in a few milliseconds); `fallback`
    /// when no producer has a time.
    Producing {
        /// Lower bound (seconds).
        min: f64,
        /// When no time is known (seconds).
        fallback: f64,
    },
    /// A fixed limit (seconds), e.g. the 1200 s the reference tool uses.
    Fixed(f64),
}

impl TimeLimit {
    fn describe(&self) -> String {
        match self {
            TimeLimit::Producing { min, fallback } => format!(
                "time of the producing run (the longest if several), at least {min} s; {fallback} s when unknown"
            ),
            TimeLimit::Fixed(t) => format!("fixed {t} s"),
            TimeLimit::Track(t) => {
                format!("the track's time limit {t} s, at least the producing run's time")
            }
        }
    }

    /// The limit for a core produced by `producers`, at most
    /// [`MAX_TIME_LIMIT_S`] (a producing time of `1e300` s, which a result
    /// file can claim, gives one year, not an overflow when run).
    pub fn of(&self, producers: &[Producer]) -> f64 {
        let t = match *self {
            TimeLimit::Fixed(t) => t,
            TimeLimit::Track(t) => producers.iter().filter_map(|p| p.time).fold(t, f64::max),
            TimeLimit::Producing { min, fallback } => producers
                .iter()
                .filter_map(|p| p.time)
                .reduce(f64::max)
                .map_or(fallback, |t| t.max(min)),
        };
        t.min(MAX_TIME_LIMIT_S)
    }
}

/// The longest validation time limit: one year, in seconds (as the command
/// line's `--time-limit`).
pub const MAX_TIME_LIMIT_S: f64 = 31_536_000.0;

/// A task's time limit as a duration: `None` unless it is a number of
/// seconds above 0 and at most [`MAX_TIME_LIMIT_S`] (a hand-edited
/// `validation.json` can hold anything).
pub fn task_time_limit(seconds: f64) -> Option<std::time::Duration> {
    if seconds > 0.0 && seconds <= MAX_TIME_LIMIT_S {
        std::time::Duration::try_from_secs_f64(seconds.max(0.001)).ok()
    } else {
        None
    }
}

/// How validation solvers are chosen.
#[derive(Debug, Clone)]
pub enum Validators {
    /// These solvers for every division.
    Given(Vec<String>),
    /// The solvers sound in the Single Query Track of each division
    /// ([`sound_in_sq`] of the SQ runs and the known statuses).
    SoundInSq(BTreeMap<Division, BTreeSet<String>>),
}

/// Solvers sound in the Single Query Track, per division: every solver with a
/// SQ run in the division and no answer contradicting a known status there.
pub fn sound_in_sq<'r>(
    runs: impl IntoIterator<Item = &'r IngestRecord>,
    statuses: &HashMap<String, Status>,
) -> BTreeMap<Division, BTreeSet<String>> {
    let mut s = Soundness::new(statuses);
    for r in runs {
        s.add(r);
    }
    s.finish()
}

/// [`sound_in_sq`] one run at a time (a run table read as a stream).
pub struct Soundness<'s> {
    statuses: &'s HashMap<String, Status>,
    seen: BTreeMap<Division, BTreeSet<String>>,
    unsound: BTreeSet<(Division, String)>,
}

impl<'s> Soundness<'s> {
    /// No run yet; `statuses` are the known benchmark statuses.
    pub fn new(statuses: &'s HashMap<String, Status>) -> Self {
        Soundness {
            statuses,
            seen: BTreeMap::new(),
            unsound: BTreeSet::new(),
        }
    }

    /// Counts a run (only Single Query runs with a division matter).
    pub fn add(&mut self, r: &IngestRecord) {
        if r.track != Some(Track::SingleQuery) {
            return;
        }
        let Some(d) = &r.division else {
            return;
        };
        match self.seen.get_mut(d) {
            Some(set) if set.contains(&r.solver) => {}
            Some(set) => {
                set.insert(r.solver.clone());
            }
            None => {
                self.seen
                    .insert(d.clone(), BTreeSet::from([r.solver.clone()]));
            }
        }
        // An answer given after a limit was hit is no answer (a timeout or
        // memout in the scores, rules 7.1), so it cannot make a solver unsound.
        let wrong = r.limit_hit.is_none()
            && matches!(
                (r.answer, self.statuses.get(&r.benchmark_key)),
                (RunAnswer::Sat, Some(Status::Unsat)) | (RunAnswer::Unsat, Some(Status::Sat))
            );
        if wrong {
            self.unsound.insert((d.clone(), r.solver.clone()));
        }
    }

    /// The sound solvers per division.
    pub fn finish(mut self) -> BTreeMap<Division, BTreeSet<String>> {
        for (d, solvers) in self.seen.iter_mut() {
            solvers.retain(|s| !self.unsound.contains(&(d.clone(), s.clone())));
        }
        self.seen
    }
}

/// One pass over a run table for core validation, one run at a time: the
/// Single Query runs judge soundness ([`Soundness`]), the Unsat-Core runs
/// that answered `unsat` with a core (the only runs [`generate`] reads) are
/// kept, and whether any Unsat-Core run was seen is noted.
pub struct CoreScan<'s> {
    /// Soundness in Single Query so far.
    pub soundness: Soundness<'s>,
    /// The Unsat-Core runs with a core.
    pub with_core: Vec<IngestRecord>,
    /// Whether an Unsat-Core run (with a core or not) was seen.
    pub core_runs: bool,
}

impl<'s> CoreScan<'s> {
    /// No run yet; `statuses` are the known benchmark statuses.
    pub fn new(statuses: &'s HashMap<String, Status>) -> Self {
        CoreScan {
            soundness: Soundness::new(statuses),
            with_core: Vec::new(),
            core_runs: false,
        }
    }

    /// Takes one run of the table.
    pub fn add(&mut self, r: IngestRecord) {
        self.soundness.add(&r);
        if r.track == Some(Track::UnsatCore) {
            self.core_runs = true;
            if r.answer == RunAnswer::Unsat && r.unsat_core.is_some() {
                self.with_core.push(r);
            }
        }
    }
}

/// Known statuses of every prepared benchmark under `prepared` (all tracks
/// that are there), by benchmark key.
pub fn known_statuses(prepared: &Path) -> HashMap<String, Status> {
    let mut out = HashMap::new();
    for t in Track::ALL {
        if let Ok(set) = PreparedSet::read(prepared, t) {
            for b in set.benchmarks {
                if matches!(b.status, Status::Sat | Status::Unsat) {
                    out.insert(b.original.path(), b.status);
                }
            }
        }
    }
    out
}

/// Options of [`generate`].
pub struct GenerateOptions<'a> {
    /// Prepared root holding `unsat-core/prepared.json`.
    pub prepared: &'a Path,
    /// Execution directory (the validation track directory is made below it).
    pub out: &'a Path,
    /// Validator choice.
    pub validators: &'a Validators,
    /// Time limits.
    pub time_limit: TimeLimit,
}

/// What [`generate`] did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GenerateSummary {
    /// Unsat-Core runs with a core.
    pub runs_with_core: usize,
    /// Validation tasks (distinct cores).
    pub tasks: usize,
    /// Benchmarks with at least one core.
    pub benchmarks: usize,
    /// Tasks without any validator (their cores cannot be validated).
    pub without_validators: usize,
    /// Problems (`run: reason`); the affected runs get no task.
    pub problems: Vec<String>,
}

/// Why the core-validation tasks cannot be built (problems of single runs
/// are in the summary instead).
#[derive(Debug, thiserror::Error)]
pub enum CoreTasksError {
    /// The prepared Unsat-Core set cannot be read.
    #[error("prepared Unsat-Core set: {0}")]
    Prepared(crate::formats::datafile::DataFileError),
    /// A task file or directory cannot be written.
    #[error(transparent)]
    Write(#[from] crate::util::path_error::PathError),
    /// The task manifest or the prepared set of the tasks cannot be written.
    #[error(transparent)]
    Manifest(#[from] crate::formats::datafile::DataFileError),
}

/// Builds every validation task from the Unsat-Core runs in `records`.
pub fn generate(
    records: &[IngestRecord],
    opts: &GenerateOptions<'_>,
) -> Result<(CoreManifest, GenerateSummary), CoreTasksError> {
    use crate::util::path_error::PathError;
    let uc =
        PreparedSet::read(opts.prepared, Track::UnsatCore).map_err(CoreTasksError::Prepared)?;
    let uc_dir = PreparedSet::track_dir(opts.prepared, Track::UnsatCore);
    let by_key: HashMap<String, &PreparedBenchmark> = uc
        .benchmarks
        .iter()
        .map(|b| (b.original.path(), b))
        .collect();
    let mut summary = GenerateSummary::default();
    // benchmark key -> core -> producers
    let mut cores: BTreeMap<&str, BTreeMap<&[String], Vec<&IngestRecord>>> = BTreeMap::new();
    for r in records {
        if r.track != Some(Track::UnsatCore) || r.answer != RunAnswer::Unsat {
            continue;
        }
        let Some(core) = &r.unsat_core else { continue };
        summary.runs_with_core += 1;
        if !by_key.contains_key(&r.benchmark_key) {
            summary.problems.push(format!(
                "{} {} ({}: {}): benchmark not in the prepared Unsat-Core set",
                r.solver, r.benchmark_key, r.source, r.task
            ));
            continue;
        }
        cores
            .entry(&r.benchmark_key)
            .or_default()
            .entry(&core.names)
            .or_default()
            .push(r);
    }
    let sound = match opts.validators {
        Validators::SoundInSq(sound) => Some(sound),
        Validators::Given(_) => None,
    };
    let dir = CoreManifest::dir(opts.out);
    let mut tasks = Vec::new();
    let mut prepared = Vec::new();
    summary.benchmarks = cores.len();
    for (key, by_core) in cores {
        let b = by_key[key];
        let src_path = uc_dir.join(&b.path);
        let text = match std::fs::read(&src_path) {
            Ok(t) => t,
            Err(e) => {
                summary
                    .problems
                    .push(format!("{}: {e}", src_path.display()));
                continue;
            }
        };
        let stem = b.path.strip_suffix(".smt2").unwrap_or(&b.path);
        for (k, (core, runs)) in by_core.into_iter().enumerate() {
            let file = format!("{stem}_{}.smt2", k + 1);
            let restricted = match restrict(&text, core) {
                Ok(r) => r,
                Err(e) => {
                    summary
                        .problems
                        .push(format!("{}: {e}", src_path.display()));
                    continue;
                }
            };
            let out_path = dir.join(&file);
            if let Some(p) = out_path.parent() {
                std::fs::create_dir_all(p).map_err(PathError::on(p, "create"))?;
            }
            std::fs::write(&out_path, &restricted.text)
                .map_err(PathError::on(&out_path, "write"))?;
            let first = runs[0];
            let producers: Vec<Producer> = runs
                .iter()
                .map(|r| Producer {
                    solver: r.solver.clone(),
                    participation: r.participation,
                    source: r.source.clone(),
                    task: r.task.clone(),
                    time: r.walltime.or(r.cputime),
                })
                .collect();
            let validators: Vec<String> = match (&opts.validators, &sound) {
                (Validators::Given(v), _) => v.clone(),
                (_, Some(s)) => first
                    .division
                    .as_ref()
                    .and_then(|d| s.get(d))
                    .map(|v| v.iter().cloned().collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            summary.without_validators += usize::from(validators.is_empty());
            prepared.push(PreparedBenchmark {
                path: file.clone(),
                original: b.original.clone(),
                status: Status::Unknown,
                expected: None,
                count: restricted.asserts,
                heat: None,
            });
            tasks.push(CoreTask {
                file,
                benchmark: key.to_string(),
                logic: first.logic.clone(),
                division: first.division.clone(),
                core: core.to_vec(),
                unknown_names: restricted.unknown_names,
                time_limit: opts.time_limit.of(&producers),
                producers,
                validators,
            });
        }
    }
    summary.tasks = tasks.len();
    let manifest = CoreManifest {
        validator_selection: match opts.validators {
            Validators::Given(v) => format!("given: {}", v.join(", ")),
            Validators::SoundInSq(_) => {
                "solvers sound in the Single Query Track of the division (rules 5.4)".into()
            }
        },
        time_limit_policy: opts.time_limit.describe(),
        tasks,
    };
    std::fs::create_dir_all(&dir).map_err(PathError::on(&dir, "create"))?;
    crate::formats::datafile::write_json(&dir.join(MANIFEST), &manifest)?;
    prepared.sort_by(|a, b| a.path.cmp(&b.path));
    PreparedSet {
        track: Track::UnsatCoreValidation,
        year: uc.year,
        seed: uc.seed,
        method: "smtcomp validate-cores generate".into(),
        benchmarks: prepared,
        failures: Vec::new(),
    }
    .write(opts.out)?;
    Ok((manifest, summary))
}

/// Runs every task's validators locally (no BenchExec), each with the task's
/// time limit; `commands` gives each validator's command on the task's logic
/// (the file is appended). Returns one `UnsatCoreValidation` run record per (task,
/// validator), `task` = the validation file; a validator without a command
/// gets an `error` record saying so.
pub fn run_local(
    exec: &Path,
    manifest: &CoreManifest,
    commands: &ValidatorCommands,
    jobs: usize,
) -> Vec<IngestRecord> {
    let dir = CoreManifest::dir(exec);
    let pairs: Vec<(&CoreTask, &String)> = manifest
        .tasks
        .iter()
        .flat_map(|t| t.validators.iter().map(move |v| (t, v)))
        .collect();
    crate::util::parallel::map(&pairs, jobs, "cores", |(t, v)| {
        let mut r = IngestRecord::new("local", t.file.clone());
        r.solver = (*v).clone();
        r.track = Some(Track::UnsatCoreValidation);
        r.logic = t.logic.clone();
        r.division = t.division.clone();
        r.benchmark_key = t.file.clone();
        let Some(argv) = commands.get(v, t.logic.as_ref()) else {
            r.error = Some(format!(
                "no command for validator {v} on {} (give --solver '{v}=COMMAND', or --submissions with a submission named '{v}' that entered the logic in Single Query)",
                t.logic.as_ref().map_or("?", |l| l.as_str())
            ));
            return r;
        };
        let Some(limit) = task_time_limit(t.time_limit) else {
            r.error = Some(format!(
                "time limit {} s of {} is not a number of seconds above 0 and at most {MAX_TIME_LIMIT_S} (one year); not run",
                t.time_limit, t.file
            ));
            return r;
        };
        match super::process::run(argv, &[&dir.join(&t.file)], None, limit) {
            Err(e) => r.error = Some(e.to_string()),
            Ok(f) => {
                r.walltime = Some(f.elapsed.as_secs_f64());
                r.exitcode = f.code();
                let a = super::process::first_answer(&f.stdout);
                r.output_answer = a.map(str::to_string);
                r.answer = match a {
                    Some("sat") => RunAnswer::Sat,
                    Some("unsat") => RunAnswer::Unsat,
                    _ if f.timed_out => RunAnswer::Timeout,
                    Some(_) => RunAnswer::Unknown,
                    None => {
                        r.error = Some(format!(
                            "no answer ({})",
                            crate::util::process::exit_text(f.code())
                        ));
                        RunAnswer::Error
                    }
                };
                if f.timed_out {
                    r.terminationreason = Some("walltime".into());
                }
            }
        }
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn producer(time: Option<f64>) -> Producer {
        Producer {
            solver: "s".into(),
            participation: Some(0),
            source: "f".into(),
            task: "t".into(),
            time,
        }
    }

    /// Rules 5.4: validators are the solvers sound in the division's Single
    /// Query runs. A wrong answer given within the limits makes a solver
    /// unsound; one printed after the time limit was hit is a timeout (rules
    /// 7.1), not an answer, and does not.
    #[test]
    fn only_answers_within_the_limits_make_a_solver_unsound() {
        let run = |solver: &str, answer, limit: Option<crate::formats::runtable::Limit>| {
            let mut r = IngestRecord::new("f", "t");
            r.track = Some(Track::SingleQuery);
            r.solver = solver.into();
            r.division = Some(Division::new("QF_Bitvec"));
            r.benchmark_key = "non-incremental/QF_BV/a.smt2".into();
            r.answer = answer;
            r.limit_hit = limit;
            r
        };
        let statuses: HashMap<String, Status> =
            [("non-incremental/QF_BV/a.smt2".to_string(), Status::Unsat)].into();
        let runs = [
            run(
                "late",
                RunAnswer::Sat,
                Some(crate::formats::runtable::Limit::Timeout),
            ),
            run("wrong", RunAnswer::Sat, None),
            run("right", RunAnswer::Unsat, None),
        ];
        let sound = sound_in_sq(&runs, &statuses);
        let names: Vec<&str> = sound[&Division::new("QF_Bitvec")]
            .iter()
            .map(String::as_str)
            .collect();
        assert_eq!(names, ["late", "right"]);
    }

    /// Rules 5.4: 20 minutes for validation; never below the producing time.
    /// A core produced in 0.2 s gets 1200 s (the old default gave it 1 s, and a
    /// validator's `unsat` after 5 s was lost); one produced in 1300 s (grace
    /// period) gets 1300 s; no time known: 1200 s.
    #[test]
    fn track_limit_never_below_the_producing_time() {
        let t = TimeLimit::Track(1200.0);
        assert_eq!(t.of(&[producer(Some(0.2))]), 1200.0);
        assert_eq!(t.of(&[producer(Some(0.2)), producer(Some(1300.0))]), 1300.0);
        assert_eq!(t.of(&[producer(None)]), 1200.0);
        let old = TimeLimit::Producing {
            min: 1.0,
            fallback: 1200.0,
        };
        assert_eq!(old.of(&[producer(Some(0.2))]), 1.0);
    }

    /// Regression (issue 18): a producing time of `1e300` s (ingest takes
    /// `walltime="1e300s"`) made a limit that panicked when run. Limits are
    /// clamped to one year; a hand-written one out of range is refused.
    #[test]
    fn absurd_limits_are_clamped_or_refused() {
        let huge = [producer(Some(1e300))];
        assert_eq!(TimeLimit::Track(1200.0).of(&huge), MAX_TIME_LIMIT_S);
        let producing = TimeLimit::Producing {
            min: 1.0,
            fallback: 1200.0,
        };
        assert_eq!(producing.of(&huge), MAX_TIME_LIMIT_S);
        assert_eq!(
            task_time_limit(MAX_TIME_LIMIT_S),
            Some(std::time::Duration::from_secs(31_536_000))
        );
        for bad in [1e19, 1e30, f64::INFINITY, f64::NAN, 0.0, -1.0] {
            assert_eq!(task_time_limit(bad), None, "{bad}");
        }
    }
}
