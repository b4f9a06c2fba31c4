//! Adapter from the ingested run table to the scoring input ([`ScoredRun`]).

use super::record::{IngestRecord, Limit, RunAnswer};
use crate::model::{Answer, Track};
use crate::scoring::input::{RunTime, ScoredRun};

/// Converts one ingested run; `None` for a run without a track or benchmark
/// identity (scoring cannot place it; the ingestion summary already lists it).
///
/// * `sat`/`unsat` given before a limit was hit: `answer` is the limit
///   (`Timeout`/`OutOfMemory`) and the answer goes to `answer_at_timeout`, which
///   the rules count (7.1.2);
/// * incremental: `incremental` with the number of correct answers, or
///   `IncrementalError` after a wrong one; the time of the last answer from
///   the trace executor's `time` lines;
/// * unsat core: the core size in `nb_answers`. Whether the core was validated
///   is decided by core validation, which rewrites `answer` of the run table;
/// * `error` counts as `unknown` (no answer): e = 0, n = 0.
pub fn to_scored(r: &IngestRecord) -> Option<ScoredRun> {
    let track = r.track?;
    let file = r.benchmark.clone()?;
    let mut answer = match r.answer {
        RunAnswer::Sat => Answer::Sat,
        RunAnswer::Unsat => Answer::Unsat,
        RunAnswer::Unknown | RunAnswer::Error => Answer::Unknown,
        RunAnswer::Done => Answer::Incremental,
        RunAnswer::Timeout => Answer::Timeout,
        RunAnswer::Memout => Answer::OutOfMemory,
    };
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
    if track == Track::Incremental
        && let Some(inc) = &r.incremental
    {
        nb_answers = Some(inc.correct);
        if inc.wrong.is_some() {
            answer = Answer::IncrementalError;
        } else if matches!(answer, Answer::Unknown) {
            // A crash after some answers: the answers given still count.
            answer = Answer::Incremental;
        }
        last_answer_time = inc
            .last_answer_time
            .filter(|_| inc.correct > 0)
            .map(|t| RunTime { cpu: t, wall: t });
    }
    if matches!(track, Track::UnsatCore | Track::UnsatCoreValidation) {
        nb_answers = r.unsat_core.as_ref().map(|c| c.names.len() as u64);
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
