//! The benchmarks a past competition ran in a track (and division or logic),
//! read from the organizers' published results (`results-<track>-<year>.json.gz`,
//! the reference tool's results format): what `smtcomp benchmarks used` lists
//! for solver authors who want to rerun a past division.

use crate::formats::inventory::Smt2File;
use crate::formats::results::ResultsFile;
use crate::model::{Logic, Track};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Where the organizers publish their results files.
pub const RESULTS_URL: &str = "https://github.com/SMT-COMP/smt-comp.github.io/tree/master/data";

/// The conventional name of a published results file.
pub fn results_file_name(track: Track, year: u16) -> String {
    format!("results-{}-{year}.json.gz", track.short_name())
}

/// The benchmarks one track of a results file ran.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Used {
    /// The benchmarks, each once, sorted by library path.
    pub files: Vec<Smt2File>,
    /// Benchmarks per logic (every kept logic, also those with none).
    pub per_logic: BTreeMap<Logic, usize>,
    /// Result rows of the track read (one per solver and benchmark).
    pub runs: usize,
    /// Solvers with a row among them.
    pub solvers: BTreeSet<String>,
    /// Rows of the track left out because their logic was not asked for.
    pub other_logic_runs: usize,
    /// Rows of other tracks (a results file normally holds one track).
    pub other_track_runs: usize,
}

/// The benchmarks `results` ran in `track`, restricted to `logics` when given.
pub fn used(results: &ResultsFile, track: Track, logics: Option<&BTreeSet<Logic>>) -> Used {
    let mut u = Used::default();
    if let Some(l) = logics {
        u.per_logic = l.iter().map(|l| (l.clone(), 0)).collect();
    }
    let mut seen: HashSet<&Smt2File> = HashSet::new();
    for r in &results.results {
        if r.track != track {
            u.other_track_runs += 1;
            continue;
        }
        if logics.is_some_and(|l| !l.contains(&r.file.logic)) {
            u.other_logic_runs += 1;
            continue;
        }
        u.runs += 1;
        u.solvers.insert(r.solver.clone());
        if seen.insert(&r.file) {
            *u.per_logic.entry(r.file.logic.clone()).or_default() += 1;
        }
    }
    u.files = seen.into_iter().cloned().collect();
    u.files.sort_by_cached_key(|f| f.path());
    u
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::results::RunRecord;
    use crate::model::Answer;

    fn row(track: Track, solver: &str, logic: &str, name: &str) -> RunRecord {
        RunRecord {
            track,
            solver: solver.into(),
            file: Smt2File {
                incremental: false,
                logic: Logic::new(logic),
                family: vec!["fam".into()],
                name: name.into(),
            },
            result: Answer::Sat,
            cpu_time: 1.0,
            wallclock_time: 1.0,
            memory_usage: 0.0,
            nb_answers: None,
        }
    }

    #[test]
    fn each_benchmark_once_sorted_and_every_row_accounted_for() {
        let results = ResultsFile {
            results: vec![
                row(Track::SingleQuery, "b", "QF_FP", "z.smt2"),
                row(Track::SingleQuery, "a", "QF_FP", "z.smt2"),
                row(Track::SingleQuery, "a", "QF_FP", "a.smt2"),
                row(Track::SingleQuery, "a", "QF_BV", "a.smt2"),
                row(Track::Incremental, "a", "QF_FP", "q.smt2"),
            ],
        };
        let fp: BTreeSet<Logic> = [Logic::new("QF_FP"), Logic::new("QF_FPLRA")].into();
        let u = used(&results, Track::SingleQuery, Some(&fp));
        let names: Vec<String> = u.files.iter().map(|f| f.path()).collect();
        assert_eq!(
            names,
            [
                "non-incremental/QF_FP/fam/a.smt2",
                "non-incremental/QF_FP/fam/z.smt2"
            ]
        );
        assert_eq!(u.runs, 3);
        assert_eq!(u.other_logic_runs, 1);
        assert_eq!(u.other_track_runs, 1);
        assert_eq!(u.runs + u.other_logic_runs + u.other_track_runs, 5);
        assert_eq!(u.per_logic[&Logic::new("QF_FP")], 2);
        assert_eq!(u.per_logic[&Logic::new("QF_FPLRA")], 0);
        assert_eq!(u.solvers.len(), 2);
        let all = used(&results, Track::SingleQuery, None);
        assert_eq!(all.files.len(), 3);
    }
}
