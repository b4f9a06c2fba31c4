//! Adapter from the run table (validated [`IngestRecord`]s) to the scoring
//! engine's input ([`ScoredRun`]): the validation verdicts become the answers
//! scoring expects (Unsat-Core `unsat` = core validated, `UnsatCoreNotValidated`
//! = refuted, `unknown` = not validated; Model-Validation `sat` = VALID, the
//! verdict's result otherwise).

use super::verdict::anchor_answer;
use crate::ingest::record::Limit;
use crate::ingest::{IngestRecord, RunAnswer};
use crate::model::{Answer, Track};
use crate::scoring::{RunTime, ScoredRun};

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
    let track = r.track?;
    let file = r.benchmark.clone()?;
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
                    .map(|t| RunTime { cpu: t, wall: t });
            }
        }
        _ => {}
    }
    Some(ScoredRun {
        solver: r.solver.clone(),
        track,
        file,
        answer,
        cpu_time: r.cputime.unwrap_or(0.0),
        wall_time: r.walltime.unwrap_or(0.0),
        nb_answers,
        last_answer_time,
        answer_at_timeout,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmarks::Smt2File;
    use crate::ingest::record::UnsatCore;
    use crate::model::{Logic, Status};
    use crate::scoring::benchmark::score;
    use crate::scoring::{BenchInfo, Policy};
    use crate::validate::verdict::{CoreStatus, CoreVerdict, ModelVerdict, Verdict};

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
        );
        let mine = crate::validate::run_score(r, 10).unwrap();
        ((s.e, s.n), (mine.error, mine.correct))
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
