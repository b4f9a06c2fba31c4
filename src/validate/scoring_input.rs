//! Adapter from the run table (validated [`IngestRecord`]s) to the scoring
//! engine's input ([`ScoredRun`]): the validation verdicts become the answers
//! scoring expects (Unsat-Core `unsat` = core validated, `UnsatCoreNotValidated`
//! = refuted, `unknown` = not validated; Model-Validation `sat` = VALID, the
//! verdict's result otherwise).

use super::verdict::anchor_answer;
use crate::ingest::{IngestRecord, RunAnswer};
use crate::model::{Answer, Track};
use crate::scoring::{RunTime, ScoredRun};

/// The scoring input of one run; `None` when the run has no track or benchmark.
pub fn scored_run(r: &IngestRecord) -> Option<ScoredRun> {
    let track = r.track?;
    let file = r.benchmark.clone()?;
    let base = match r.answer {
        RunAnswer::Sat => Answer::Sat,
        RunAnswer::Unsat => Answer::Unsat,
        RunAnswer::Unknown | RunAnswer::Error => Answer::Unknown,
        RunAnswer::Done if r.incremental.as_ref().is_some_and(|i| i.wrong.is_some()) => {
            Answer::IncrementalError
        }
        RunAnswer::Done => Answer::Incremental,
        RunAnswer::Timeout => Answer::Timeout,
        RunAnswer::Memout => Answer::OutOfMemory,
    };
    let validated = anchor_answer(r).unwrap_or(base);
    // An answer given although a limit was hit: scoring decides (rules 7.1.2).
    let (answer, answer_at_timeout) = match (r.limit_hit, validated) {
        (Some(crate::ingest::record::Limit::Timeout), a) if a.is_definite() => {
            (Answer::Timeout, Some(a))
        }
        (_, a) => (a, None),
    };
    let nb_answers = match track {
        Track::UnsatCore => r.unsat_core.as_ref().map(|c| c.names.len() as u64),
        Track::Incremental => r.incremental.as_ref().map(|i| i.correct),
        _ => None,
    };
    let last_answer_time = r
        .incremental
        .as_ref()
        .and_then(|i| i.last_answer_time)
        .map(|t| RunTime { cpu: t, wall: t });
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
