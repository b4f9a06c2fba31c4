//! Run-level data of the plots: per group, per solver, the time of every solved
//! benchmark.
//!
//! "Solved" for a plot: a `sat`/`unsat` answer that does not contradict the
//! benchmark's known status, within the time limit (wall-clock); for the
//! Incremental track, every check-sat answered correctly (`nb_answers` equals the
//! benchmark's check-sat count), at the time of the last answer.

use crate::model::{Answer, Status};
use crate::scoring::{GroupScores, ScoredRun, ScoringInput};
use std::collections::{BTreeMap, HashMap};

/// Solver -> benchmark path -> wall-clock seconds of the solved benchmarks.
pub type Solved = BTreeMap<String, BTreeMap<String, f64>>;

/// The wall-clock time at which `run` solved its benchmark, if it did.
pub fn solved_time(run: &ScoredRun, input: &ScoringInput) -> Option<f64> {
    let info = input.benchmarks.get(&run.file.path());
    let status = info.map_or(Status::Unknown, |i| i.status);
    let t = match run.answer {
        Answer::Sat if status != Status::Unsat => run.wall_time,
        Answer::Unsat if status != Status::Sat => run.wall_time,
        Answer::Incremental => {
            let need = info.map_or(0, |i| i.check_sats);
            let got = run.nb_answers.unwrap_or(0);
            if need == 0 || got < need {
                return None;
            }
            run.last_answer_time.map_or(run.wall_time, |t| t.wall)
        }
        _ => return None,
    };
    (t.is_finite() && t >= 0.0 && t <= input.time_limit).then_some(t)
}

/// Solved benchmarks of every group of a track, keyed by `(is_division, identifier)`.
pub fn solved_by_group(
    input: &ScoringInput,
    groups: &[GroupScores],
) -> HashMap<(bool, String), Solved> {
    let mut logic_div: HashMap<String, String> = HashMap::new();
    for (d, ls) in &input.divisions {
        for l in ls {
            logic_div.insert(l.to_string(), d.to_string());
        }
    }
    let mut by_div: HashMap<String, Solved> = HashMap::new();
    let mut by_logic: HashMap<String, Solved> = HashMap::new();
    for r in input.runs.iter().filter(|r| r.track == input.track) {
        let Some(t) = solved_time(r, input) else {
            continue;
        };
        let logic = r.file.logic.to_string();
        if let Some(d) = logic_div.get(&logic) {
            by_div
                .entry(d.clone())
                .or_default()
                .entry(r.solver.to_string())
                .or_default()
                .insert(r.file.path(), t);
        }
        by_logic
            .entry(logic)
            .or_default()
            .entry(r.solver.to_string())
            .or_default()
            .insert(r.file.path(), t);
    }
    let mut out = HashMap::new();
    for g in groups {
        let src = if g.is_division {
            by_div.get(&g.division)
        } else {
            by_logic.get(&g.name)
        };
        out.insert(
            (g.is_division, g.identifier.clone()),
            src.cloned().unwrap_or_default(),
        );
    }
    out
}
