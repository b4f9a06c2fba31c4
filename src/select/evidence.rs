//! What previous and current results say about each benchmark: triviality
//! (rules section 6, step 2) and the answers of sound solvers (step 3).

use crate::benchmarks::Smt2File;
use crate::formats::results::RunRecord;
use crate::model::{Answer, Competition, Division, Status, Track};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Per benchmark path: whether it is trivial.
#[derive(Debug, Default)]
pub struct Triviality {
    /// Path -> trivial in every results set in which it was run.
    trivial: HashMap<String, bool>,
}

impl Triviality {
    /// Tallies previous Single Query results. `sets` are the results of one
    /// competition each; `statuses` gives the expected status by path.
    ///
    /// A benchmark is trivial when, in every set where it was run, every result
    /// is a correct `sat`/`unsat` answer in less than `time_s` CPU seconds
    /// ("solved by all solvers in less than one second").
    pub fn tally<'a>(
        sets: impl IntoIterator<Item = &'a [RunRecord]>,
        statuses: &HashMap<String, Status>,
        time_s: f64,
    ) -> Triviality {
        // Path -> (all solved so far, some said sat, some said unsat).
        let mut tally: HashMap<String, (bool, bool, bool)> = HashMap::new();
        for set in sets {
            for r in set.iter().filter(|r| r.track == Track::SingleQuery) {
                let path = r.file.path();
                let status = statuses.get(&path).copied().unwrap_or(Status::Unknown);
                let solved =
                    r.result.is_definite() && !r.result.contradicts(status) && r.cpu_time < time_s;
                let e = tally.entry(path).or_insert((true, false, false));
                e.0 &= solved;
                e.1 |= r.result == Answer::Sat;
                e.2 |= r.result == Answer::Unsat;
            }
        }
        // Disagreeing definite answers: some solver was wrong, so not "solved by all".
        let trivial = tally
            .into_iter()
            .map(|(path, (solved, sat, unsat))| (path, solved && !(sat && unsat)))
            .collect();
        Triviality { trivial }
    }

    /// Whether the benchmark at `path` is trivial (never run: not trivial).
    pub fn is_trivial(&self, path: &str) -> bool {
        self.trivial.get(path).copied().unwrap_or(false)
    }

    /// Number of benchmarks that appear in the results.
    pub fn known(&self) -> usize {
        self.trivial.len()
    }
}

/// Definite answers of sound solvers on the current year's Single Query results.
#[derive(Debug, Default)]
pub struct SoundAnswers {
    /// Path -> (some sound solver said sat, some sound solver said unsat).
    answers: HashMap<String, (bool, bool)>,
    /// (division, solver) pairs that gave a wrong answer.
    pub unsound: BTreeSet<(Division, String)>,
}

impl SoundAnswers {
    /// Collects the answers; a solver is sound in a division when it gave no
    /// answer contradicting a known status there (as for unsat-core validation).
    pub fn collect(
        results: &[RunRecord],
        statuses: &HashMap<String, Status>,
        comp: &Competition,
    ) -> SoundAnswers {
        let sq = comp.track(Track::SingleQuery);
        let division = |f: &Smt2File| {
            sq.and_then(|t| t.division_of(f.logic.as_str()))
                .cloned()
                .unwrap_or_else(|| Division::new(f.logic.as_str()))
        };
        let sq_runs = || results.iter().filter(|r| r.track == Track::SingleQuery);
        let mut unsound = BTreeSet::new();
        for r in sq_runs() {
            let status = statuses
                .get(&r.file.path())
                .copied()
                .unwrap_or(Status::Unknown);
            if r.result.contradicts(status) {
                unsound.insert((division(&r.file), r.solver.clone()));
            }
        }
        let mut answers: HashMap<String, (bool, bool)> = HashMap::new();
        for r in sq_runs() {
            if unsound.contains(&(division(&r.file), r.solver.clone())) {
                continue;
            }
            let e = answers.entry(r.file.path()).or_default();
            match r.result {
                Answer::Sat => e.0 = true,
                Answer::Unsat => e.1 = true,
                _ => {}
            }
        }
        SoundAnswers { answers, unsound }
    }

    /// Number of benchmarks with a sound solver's definite answer.
    pub fn known(&self) -> usize {
        self.answers.len()
    }

    /// Whether some sound solver answered `sat` on the benchmark.
    pub fn said_sat(&self, path: &str) -> bool {
        self.answers.get(path).is_some_and(|a| a.0)
    }

    /// Whether some sound solver answered `unsat` on the benchmark.
    pub fn said_unsat(&self, path: &str) -> bool {
        self.answers.get(path).is_some_and(|a| a.1)
    }
}

/// For the Parallel/Cloud selection: per path, the fastest correct solve (CPU s).
pub fn fastest_solves<'a>(
    sets: impl IntoIterator<Item = &'a [RunRecord]>,
    statuses: &HashMap<String, Status>,
) -> BTreeMap<String, f64> {
    let mut best: BTreeMap<String, f64> = BTreeMap::new();
    for set in sets {
        for r in set.iter().filter(|r| r.track == Track::SingleQuery) {
            let path = r.file.path();
            let status = statuses.get(&path).copied().unwrap_or(Status::Unknown);
            if r.result.is_definite() && !r.result.contradicts(status) {
                let e = best.entry(path).or_insert(f64::INFINITY);
                *e = e.min(r.cpu_time);
            }
        }
    }
    best
}
