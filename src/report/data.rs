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
            run.last_answer_time
                .as_deref()
                .map_or(run.wall_time, |t| t.wall)
        }
        _ => return None,
    };
    (t.is_finite() && t >= 0.0 && t <= input.time_limit).then_some(t)
}

/// The solved runs of a track by logic, found once; each group's [`Solved`]
/// is then built on demand ([`SolvedIndex::group`]) and dropped after its
/// page, so that only one group's benchmark paths are held at a time (all
/// groups' maps at once took about 500 MB for the 1.5 million Single Query
/// runs of 2025).
pub struct SolvedIndex<'a> {
    /// Logic -> its solved runs in run order, with the time.
    by_logic: HashMap<&'a str, Vec<(&'a ScoredRun, f64)>>,
    /// Division -> its logics.
    divisions: &'a BTreeMap<crate::model::Division, Vec<crate::model::Logic>>,
}

impl<'a> SolvedIndex<'a> {
    /// The solved runs of `input`'s track.
    pub fn new(input: &'a ScoringInput) -> SolvedIndex<'a> {
        let mut by_logic: HashMap<&str, Vec<(&ScoredRun, f64)>> = HashMap::new();
        for r in input.runs.iter().filter(|r| r.track == input.track) {
            if let Some(t) = solved_time(r, input) {
                by_logic
                    .entry(r.file.logic.as_str())
                    .or_default()
                    .push((r, t));
            }
        }
        SolvedIndex {
            by_logic,
            divisions: &input.divisions,
        }
    }

    /// The solved benchmarks of group `g`: a division's from the runs of its
    /// logics, a logic's from its own.
    pub fn group(&self, g: &GroupScores) -> Solved {
        let mut out = Solved::new();
        let mut add = |logic: &str| {
            for (r, t) in self.by_logic.get(logic).into_iter().flatten() {
                out.entry(r.solver.to_string())
                    .or_default()
                    .insert(r.file.path(), *t);
            }
        };
        if g.is_division {
            let logics = self
                .divisions
                .iter()
                .find(|(d, _)| d.as_str() == g.division);
            for l in logics.into_iter().flat_map(|(_, ls)| ls) {
                add(l.as_str());
            }
        } else {
            add(&g.name);
        }
        out
    }
}
