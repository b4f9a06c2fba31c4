//! Benchmark scores ⟨e, n, aw, w, ac, c⟩ (rules 7.1), per track.

use super::input::{BenchInfo, ScoredRun};
use super::policy::Policy;
use crate::model::{Answer, Status, Track};

/// A parallel benchmark score ⟨e, n, aw, w, ac, c⟩ (rules 7.1).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BenchScore {
    /// Erroneous results.
    pub e: u64,
    /// Correct results (Incremental: correct check-sat answers; Unsat-Core: reduction,
    /// negative only under `negative_core_reduction`).
    pub n: i64,
    /// Actual wall-clock time.
    pub aw: f64,
    /// Wall-clock time score.
    pub w: f64,
    /// Actual CPU time.
    pub ac: f64,
    /// CPU time score.
    pub c: f64,
}

/// The answer a run is scored with, after the policy's timeout rule.
/// `None` = no run (a registered solver without a result).
pub fn effective_answer(run: Option<&ScoredRun>, policy: &Policy) -> Option<(Answer, bool)> {
    let r = run?;
    match (r.answer, r.answer_at_timeout) {
        (Answer::Timeout, Some(a)) if !policy.timeout_discards_answer && a.is_definite() => {
            Some((a, true))
        }
        // Given within the time limit before the memory kill: an answer with its times.
        (Answer::OutOfMemory, Some(a)) if !policy.memout_discards_answer && a.is_definite() => {
            Some((a, false))
        }
        (a, _) => Some((a, false)),
    }
}

/// Whether `answer` is an error against a *known* expected status in `track`
/// (what makes a solver unsound, rules 7.2 and 5.4/5.5).
pub fn is_error_on_known(track: Track, answer: Answer, status: Status) -> bool {
    match track {
        Track::Incremental => answer == Answer::IncrementalError,
        Track::UnsatCore => matches!(answer, Answer::Sat | Answer::UnsatCoreInvalidated),
        Track::ModelValidation => matches!(answer, Answer::Unsat | Answer::ModelUnsat),
        _ => answer.contradicts(status),
    }
}

/// Scores one cell (rules 7.1.2 to 7.1.5; switches of [`Policy`]).
///
/// `status` is the status errors are judged against: the benchmark's status, or,
/// under `unknown_status_from_sound_solvers`, the status resolved from sound solvers.
/// `time_limit` is the track's wall-clock limit T and `cpu_limit` its CPU-time
/// limit mT (rules 7.1): an answer with a wall time above T was not given within
/// T, so w = 0; one with a CPU time above mT was not given within mT, so c = 0
/// (the answer itself still counts, 7.1.2), even when BenchExec flagged no
/// timeout; `over_limit_answer_keeps_time` keeps both times. Incremental: the
/// time of the last answer, 0 when it is over the limit.
pub fn score(
    track: Track,
    policy: &Policy,
    run: Option<&ScoredRun>,
    info: &BenchInfo,
    status: Status,
    (time_limit, cpu_limit): (f64, f64),
) -> BenchScore {
    let Some(r) = run else {
        return BenchScore::default();
    };
    let Some((answer, late)) = effective_answer(run, policy) else {
        return BenchScore::default();
    };
    let (aw, ac) = (r.wall_time.max(0.0), r.cpu_time.max(0.0));
    let strict = !policy.over_limit_answer_keeps_time;
    let over_wall = |w: f64| strict && w > time_limit;
    let over_cpu = |c: f64| strict && c > cpu_limit;
    let mut s = BenchScore {
        aw,
        ac,
        ..BenchScore::default()
    };
    if track == Track::Incremental {
        s.e = u64::from(answer == Answer::IncrementalError);
        s.n = count(r.nb_answers.unwrap_or(0));
        if s.e > 0 && !policy.incremental_error_keeps_n {
            s.n = 0;
        }
        if policy.incremental_time_always {
            s.w = aw;
            s.c = ac;
        } else if let Some(t) = r.last_answer_time.as_deref() {
            let (w, c) = (t.wall.max(0.0), t.cpu.max(0.0));
            s.w = if over_wall(w) { 0.0 } else { w };
            s.c = if over_cpu(c) { 0.0 } else { c };
        }
        return s;
    }
    let accepted = match track {
        Track::UnsatCore => {
            s.e = u64::from(matches!(answer, Answer::Sat | Answer::UnsatCoreInvalidated));
            if answer == Answer::Unsat {
                let core = r.nb_answers.unwrap_or(info.asserts);
                s.n = if policy.negative_core_reduction {
                    // The reference tool keeps N - core even when the core is larger.
                    count(info.asserts) - count(core)
                } else {
                    // Rules 7.1.4: the reduction; a larger core reduces nothing.
                    count(info.asserts.saturating_sub(core))
                };
            }
            answer == Answer::Unsat
        }
        Track::ModelValidation => {
            s.e = u64::from(matches!(answer, Answer::Unsat | Answer::ModelUnsat));
            s.n = i64::from(answer == Answer::Sat);
            answer == Answer::Sat
        }
        _ => {
            s.e = u64::from(answer.contradicts(status));
            s.n = i64::from(answer.is_definite() && s.e == 0);
            s.n == 1
        }
    };
    // Rules: time scores only for a benchmark correctly solved within the limit.
    let timed = if policy.wrong_answer_keeps_time {
        answer.is_definite()
    } else {
        accepted && s.e == 0 && !late
    };
    if timed {
        s.w = if over_wall(aw) { 0.0 } else { aw };
        s.c = if over_cpu(ac) { 0.0 } else { ac };
    }
    s
}

/// A count as a signed score (saturating: counts never reach 2^63).
fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
