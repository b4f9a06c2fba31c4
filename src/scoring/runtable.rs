//! Adapter from the run table (validated [`IngestRecord`]s) to the scoring
//! engine's input ([`ScoredRun`]): the validation verdicts become the answers
//! scoring expects (Unsat-Core `unsat` = core validated, `UnsatCoreNotValidated`
//! = refuted, `unknown` = not validated; Model-Validation `sat` = VALID, the
//! verdict's result otherwise).

use crate::benchmarks::Smt2File;
use crate::formats::runline::{IngestLine, RunRecordLine};
use crate::formats::runtable::{IngestRecord, Limit, RunAnswer};
use crate::formats::verdict::{CoreStatus, ModelStatus, Verdict};
use crate::model::{Answer, Track};
use crate::scoring::{FileInterner, RunTime, ScoredRun, SolverName};
use serde::Serialize;
use std::sync::Arc;

/// The scoring input of one run; `None` when the run has no track or benchmark
/// (scoring cannot place it; the ingestion summary already lists it).
///
/// * a validation verdict, when present, decides the answer (see the module doc);
/// * `sat`/`unsat` given before a limit was hit: `answer` is the limit
///   (`Timeout`/`OutOfMemory`) and the answer goes to `answer_at_timeout`, which the
///   rules count (7.1.2);
/// * incremental: `incremental` with the number of correct answers (also after a
///   crash: the answers given count), `IncrementalError` after a wrong one; the
///   time of the last answer from the trace executor's `time` lines;
/// * unsat core: the core size in `nb_answers`;
/// * `error` counts as `unknown` (no answer): e = 0, n = 0.
pub fn scored_run(r: &IngestRecord) -> Option<ScoredRun> {
    r.track?;
    let file = Arc::new(r.benchmark.clone()?);
    scored_run_of(r, SolverName::from(&r.solver), file)
}

/// [`scored_run`], the benchmark and solver name shared through `files`
/// (a table read record by record keeps one copy of each file).
pub fn scored_run_interned(r: &IngestRecord, files: &mut FileInterner) -> Option<ScoredRun> {
    r.track?;
    let file = files.intern(Arc::new(r.benchmark.clone()?));
    scored_run_of(r, files.solver(&r.solver), file)
}

/// [`scored_run`] of a borrowed run-table line, its benchmark shared through
/// `files` (allocated only when new); `None` as for [`scored_run`].
pub fn scored_run_line(line: IngestLine<'_>, files: &mut FileInterner) -> Option<ScoredRun> {
    let track = line.track?;
    let b = line.benchmark.as_ref()?;
    let file = files.intern_parts(b.incremental, b.logic, &b.family, b.name);
    // Only the fields scoring reads (see `scored_run_of`).
    let mut r = IngestRecord::new("", "");
    r.track = Some(track);
    r.answer = line.answer;
    r.limit_hit = line.limit_hit;
    r.cputime = line.cputime;
    r.walltime = line.walltime;
    r.memory = line.memory;
    r.incremental = line.incremental;
    r.unsat_core = line.unsat_core;
    r.anchor_result = line.anchor_result;
    r.nb_answers = line.nb_answers;
    r.validation = line.validation;
    let solver = files.solver(line.solver);
    scored_run_of(&r, solver, file)
}

/// A results record, borrowed ([`RunRecordLine`]), as [`ScoredRun::from_owned`]
/// scores it, its benchmark shared through `files`.
pub fn scored_record_line(r: RunRecordLine<'_>, files: &mut FileInterner) -> ScoredRun {
    let f = &r.file;
    let file = files.intern_parts(f.incremental, f.logic, &f.family, f.name);
    ScoredRun::from_record_parts(
        r.track,
        files.solver(r.solver),
        file,
        r.result,
        (r.cpu_time, r.wallclock_time),
        r.nb_answers,
    )
}

/// [`scored_run`] with the solver name and the benchmark given (`r.solver` and
/// `r.benchmark` are not read). Reads `track`, `answer`, `limit_hit`, the
/// times, `incremental`, `unsat_core`, `anchor_result`, `nb_answers` and
/// `validation`.
fn scored_run_of(r: &IngestRecord, solver: SolverName, file: Arc<Smt2File>) -> Option<ScoredRun> {
    let track = r.track?;
    let (solver, file) = match imported(r, track, solver, file) {
        Ok(run) => return Some(run),
        Err(back) => back,
    };
    let wrong_incremental = r.incremental.as_ref().is_some_and(|i| i.wrong.is_some());
    let base = match r.answer {
        RunAnswer::Sat => Answer::Sat,
        RunAnswer::Unsat => Answer::Unsat,
        RunAnswer::Unknown | RunAnswer::Error => Answer::Unknown,
        RunAnswer::Done if wrong_incremental => Answer::IncrementalError,
        RunAnswer::Done => Answer::Incremental,
        RunAnswer::Timeout => Answer::Timeout,
        RunAnswer::Memout => Answer::OutOfMemory,
    };
    let mut answer = anchor_answer(r).unwrap_or(base);
    // An answer given although a limit was hit: scoring decides (rules 7.1.2).
    let mut answer_at_timeout = None;
    if let Some(limit) = r.limit_hit
        && answer.is_definite()
    {
        answer_at_timeout = Some(answer);
        answer = match limit {
            Limit::Memout => Answer::OutOfMemory,
            Limit::Timeout => Answer::Timeout,
        };
    }
    let mut nb_answers = None;
    let mut last_answer_time = None;
    match track {
        Track::UnsatCore | Track::UnsatCoreValidation => {
            nb_answers = r.unsat_core.as_ref().map(|c| c.names.len() as u64);
        }
        Track::Incremental => {
            if let Some(inc) = &r.incremental {
                nb_answers = Some(inc.correct);
                if answer == Answer::Unknown && inc.correct > 0 && !wrong_incremental {
                    // A crash after some answers: the answers given still count.
                    answer = Answer::Incremental;
                }
                last_answer_time = inc
                    .last_answer_time
                    .filter(|_| inc.correct > 0)
                    .map(|t| Box::new(RunTime { cpu: t, wall: t }));
            }
        }
        _ => {}
    }
    Some(ScoredRun {
        solver,
        track,
        file,
        answer,
        cpu_time: r.cputime.unwrap_or(0.0),
        wall_time: r.walltime.unwrap_or(0.0),
        nb_answers,
        last_answer_time,
        answer_at_timeout,
        error: r.answer == RunAnswer::Error,
    })
}

/// A row imported from an organizers' results file (`anchor_result` set, no
/// validation joined since): scored exactly as the results file itself
/// ([`ScoredRun::from_owned`]), so `ingest` then `score` equals `score` of the
/// file: the Unsat-Core core size (`nb_answers`) and verdict
/// (`UnsatCoreNotValidated`), the Model-Validation verdicts, `IncrementalError`
/// and the incremental time of the last answer are kept. A row whose times were
/// rejected at import (no times) is scored from the run table instead.
fn imported(
    r: &IngestRecord,
    track: Track,
    solver: SolverName,
    file: Arc<Smt2File>,
) -> Result<ScoredRun, (SolverName, Arc<Smt2File>)> {
    let (Some(result), None, Some(cpu_time), Some(wallclock_time)) =
        (r.anchor_result, &r.validation, r.cputime, r.walltime)
    else {
        return Err((solver, file));
    };
    Ok(ScoredRun::from_record_parts(
        track,
        solver,
        file,
        result,
        (cpu_time, wallclock_time),
        r.nb_answers,
    ))
}

/// A run's score contribution before timing: error score e and correctly
/// solved score n (rules 7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct RunScore {
    /// Error score (0 or 1).
    pub error: u64,
    /// Correctly solved score (UC: the reduction; MV: 0 or 1).
    pub correct: u64,
}

/// What scoring must compute for an Unsat-Core or Model-Validation run from
/// the run table (rules 2025 7.1.4, 7.1.5 with the 2025 "no points for an
/// unvalidated core" change). `asserts` is the benchmark's number of
/// assertions (`PreparedBenchmark::count`). `None` for other tracks.
pub fn run_score(rec: &IngestRecord, asserts: u64) -> Option<RunScore> {
    let e = RunScore {
        error: 1,
        correct: 0,
    };
    let zero = RunScore::default();
    match rec.track? {
        Track::UnsatCore => Some(match rec.answer {
            RunAnswer::Sat => e,
            RunAnswer::Unsat => match (&rec.unsat_core, &rec.validation) {
                // unsat without a core: "no reduction" (rules 5.4).
                (None, _) => zero,
                (Some(core), Some(Verdict::Core(v))) => match v.status {
                    CoreStatus::Validated => RunScore {
                        error: 0,
                        correct: asserts.saturating_sub(core.names.len() as u64),
                    },
                    CoreStatus::Refuted => e,
                    CoreStatus::NotValidated | CoreStatus::Malformed => zero,
                },
                // Not (yet) validated: no points.
                (Some(_), _) => zero,
            },
            _ => zero,
        }),
        Track::ModelValidation => Some(match rec.answer {
            RunAnswer::Unsat => e,
            RunAnswer::Sat => match &rec.validation {
                Some(Verdict::Model(v)) => match v.status {
                    ModelStatus::Valid => RunScore {
                        error: 0,
                        correct: 1,
                    },
                    ModelStatus::Invalid => e,
                    ModelStatus::Unknown => zero,
                },
                _ => zero,
            },
            _ => zero,
        }),
        _ => None,
    }
}

/// The run's answer in the reference tool's results-file vocabulary, with the
/// validation applied (`UnsatCoreNotValidated` for a refuted core, `unknown`
/// for an unvalidated one, the model verdict's `result` for sat MV runs).
/// `None` when no validation applies to the run.
pub fn anchor_answer(rec: &IngestRecord) -> Option<Answer> {
    match (rec.track?, rec.answer, &rec.validation) {
        (Track::UnsatCore, RunAnswer::Unsat, Some(Verdict::Core(v))) => Some(match v.status {
            CoreStatus::Validated => Answer::Unsat,
            CoreStatus::Refuted => Answer::UnsatCoreInvalidated,
            CoreStatus::NotValidated | CoreStatus::Malformed => Answer::Unknown,
        }),
        (Track::UnsatCore, RunAnswer::Unsat, _) if rec.unsat_core.is_some() => {
            Some(Answer::Unknown)
        }
        (Track::ModelValidation, RunAnswer::Sat, Some(Verdict::Model(v))) => Some(v.result),
        (Track::ModelValidation, RunAnswer::Sat, _) => Some(Answer::ModelNotValidated),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmarks::Smt2File;
    use crate::formats::runtable::UnsatCore;
    use crate::formats::verdict::CoreVerdict;
    use crate::formats::verdict::ModelVerdict;
    use crate::model::{Logic, Status};
    use crate::scoring::benchmark::score;
    use crate::scoring::{BenchInfo, Policy};

    fn rec(track: Track, answer: RunAnswer, v: Option<Verdict>) -> IngestRecord {
        let mut r = IngestRecord::new("s", "t");
        r.track = Some(track);
        r.solver = "s".into();
        r.answer = answer;
        r.benchmark = Some(Smt2File {
            incremental: false,
            logic: Logic::new("QF_UF"),
            family: vec![],
            name: "a.smt2".into(),
        });
        r.walltime = Some(1.0);
        r.cputime = Some(1.0);
        r.validation = v;
        r
    }

    fn core(status: CoreStatus) -> Option<Verdict> {
        Some(Verdict::Core(CoreVerdict {
            status,
            unsat: 0,
            sat: 0,
            other: 0,
            validators: vec![],
            file: String::new(),
        }))
    }

    /// (e, n) from the scoring engine, and from `run_score`: they agree.
    fn scores(r: &IngestRecord, status: Status) -> ((u64, u64), (u64, u64)) {
        let info = BenchInfo {
            status,
            asserts: 10,
            check_sats: 1,
        };
        let track = r.track.unwrap();
        let s = score(
            track,
            &Policy::rules(),
            scored_run(r).as_ref(),
            &info,
            status,
            (1200.0, 4800.0),
        );
        let mine = run_score(r, 10).unwrap();
        (
            (s.e, u64::try_from(s.n).unwrap()),
            (mine.error, mine.correct),
        )
    }

    #[test]
    fn an_error_run_scores_as_unknown_and_stays_an_error() {
        let r = rec(Track::SingleQuery, RunAnswer::Error, None);
        let run = scored_run(&r).unwrap();
        assert_eq!(run.answer, Answer::Unknown);
        assert!(run.error);
        let u = scored_run(&rec(Track::SingleQuery, RunAnswer::Unknown, None)).unwrap();
        assert!(!u.error);
    }

    #[test]
    fn scoring_reflects_the_verdicts() {
        let uc = |s: Option<CoreStatus>| {
            let mut r = rec(Track::UnsatCore, RunAnswer::Unsat, s.and_then(core));
            r.unsat_core = Some(UnsatCore {
                names: vec!["a".into(), "b".into(), "c".into()],
            });
            r
        };
        let cases = [
            (uc(Some(CoreStatus::Validated)), (0, 7)),
            (uc(Some(CoreStatus::Refuted)), (1, 0)),
            (uc(Some(CoreStatus::NotValidated)), (0, 0)),
            // Rules 7.1.4: a core that is not well-formed scores 0/0.
            (uc(Some(CoreStatus::Malformed)), (0, 0)),
            (uc(None), (0, 0)),
        ];
        for (r, want) in cases {
            let (engine, ours) = scores(&r, Status::Unsat);
            assert_eq!((engine, ours), (want, want), "{:?}", r.validation);
        }
        let mv = |a: Answer| {
            rec(
                Track::ModelValidation,
                RunAnswer::Sat,
                Some(Verdict::Model(ModelVerdict::new(a, None, "t"))),
            )
        };
        for (r, want) in [
            (mv(Answer::Sat), (0, 1)),
            (mv(Answer::ModelUnsat), (1, 0)),
            (mv(Answer::ModelPartialFunctionMissing), (0, 0)),
            (mv(Answer::ModelParsingError), (0, 0)),
            (rec(Track::ModelValidation, RunAnswer::Sat, None), (0, 0)),
        ] {
            let (engine, ours) = scores(&r, Status::Sat);
            assert_eq!((engine, ours), (want, want), "{:?}", r.validation);
        }
    }
}
