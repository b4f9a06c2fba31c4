//! Which benchmarks `test-solver` runs: per track and entered logic, up to N
//! small benchmarks of the library that suit the track.

use crate::benchmarks::{Inventory, Smt2File};
use crate::model::{Competition, Logic, Status, Track};
use crate::prepare::library_file;
use crate::select::{SelectedBenchmark, Selection};
use std::collections::BTreeMap;
use std::path::Path;

/// One candidate: identity, status, count (asserts or check-sats), size in bytes.
#[derive(Debug, Clone)]
struct Cand {
    file: Smt2File,
    status: Status,
    count: u64,
    size: u64,
}

/// The outcome of picking for one logic: the benchmarks, or why there is none.
#[derive(Debug, Clone)]
pub enum Picked {
    /// The chosen benchmarks (smallest first).
    Some(Vec<SelectedBenchmark>),
    /// None suits the track: the reason in plain words.
    None(String),
}

/// How many benchmarks [`pick`] takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// Up to this many, smallest first (sat and unsat first where it matters).
    Smallest(usize),
    /// Every benchmark that suits the track, whatever its status (a list the
    /// user gave: the library holds only the listed files).
    All,
}

/// What the track needs of a benchmark, in words (for "not tested" lines).
fn need(track: Track, min_asserts: u64) -> String {
    match track {
        Track::Incremental => {
            "no incremental benchmark with a known answer to its first check-sat".into()
        }
        Track::UnsatCore => format!("no unsat benchmark with at least {min_asserts} assertions"),
        Track::ModelValidation => "no sat benchmark".into(),
        Track::ProofExhibition => "no unsat benchmark".into(),
        Track::Parallel | Track::Cloud => "no benchmark of known status".into(),
        _ => "no benchmark".into(),
    }
}

/// Picks up to `n` benchmarks of `logic` for `track`: library benchmarks
/// before generated ones, smallest file first;
/// Single Query prefers one sat and one unsat, and takes benchmarks of unknown
/// status only in logics without known ones; Unsat Core takes
/// only unsat benchmarks with enough assertions, Model Validation only sat
/// ones, Proof Exhibition only unsat ones, Incremental only incremental files.
pub fn pick(
    inv: &Inventory,
    library: &Path,
    comp: &Competition,
    track: Track,
    logic: &Logic,
    how: How,
) -> Picked {
    let n = match how {
        How::Smallest(n) => n,
        How::All => usize::MAX,
    };
    let min_asserts = comp.selection.unsat_core_min_num_asserts;
    let size = |f: &Smt2File| {
        std::fs::metadata(library_file(library, f))
            .map(|m| m.len())
            .unwrap_or(u64::MAX)
    };
    let mut cands: Vec<Cand> = if track == Track::Incremental {
        inv.incremental
            .iter()
            .filter(|b| &b.file.logic == logic)
            // The trace executor sends nothing after the leading known answers:
            // a file whose first check-sat has no known answer tests nothing
            // (a list runs it all the same, as the competition did).
            .filter(|b| {
                how == How::All
                    || b.statuses.as_ref().is_none_or(|s| {
                        s.first()
                            .is_some_and(|f| matches!(f, Status::Sat | Status::Unsat))
                    })
            })
            .map(|b| Cand {
                file: b.file.clone(),
                status: Status::Incremental,
                count: b.check_sats,
                size: size(&b.file),
            })
            .collect()
    } else {
        inv.non_incremental
            .iter()
            .filter(|b| &b.file.logic == logic)
            .filter(|b| match track {
                Track::Parallel | Track::Cloud => matches!(b.status, Status::Sat | Status::Unsat),
                Track::UnsatCore => b.status == Status::Unsat && b.asserts >= min_asserts,
                Track::ModelValidation => b.status == Status::Sat,
                Track::ProofExhibition => b.status == Status::Unsat,
                _ => true,
            })
            .map(|b| Cand {
                file: b.file.clone(),
                status: b.status,
                count: b.asserts,
                size: size(&b.file),
            })
            .collect()
    };
    if cands.is_empty() {
        let any = inv.non_incremental.iter().any(|b| &b.file.logic == logic)
            || inv.incremental.iter().any(|b| &b.file.logic == logic);
        return Picked::None(if any {
            need(track, min_asserts)
        } else {
            "no benchmark".into()
        });
    }
    if how == How::All {
        cands.sort_by_cached_key(|c| c.file.path());
        return Picked::Some(cands.into_iter().map(Cand::selected).collect());
    }
    // Library benchmarks first, generated ones only where nothing else suits.
    let generated = |c: &Cand| super::generated::is_generated(&c.file.family);
    cands.sort_by(|a, b| {
        (generated(a), a.size, a.file.path())
            .cmp(&(generated(b), b.size, b.file.path()))
            .then(a.count.cmp(&b.count))
    });
    let mut chosen: Vec<Cand> = Vec::new();
    if matches!(track, Track::SingleQuery | Track::Parallel | Track::Cloud) {
        // The smallest sat and the smallest unsat first, then the smallest others.
        for want in [Status::Sat, Status::Unsat] {
            if let Some(c) = cands.iter().find(|c| c.status == want) {
                chosen.push(c.clone());
            }
        }
        // Benchmarks of unknown status judge nothing but crashes: only when
        // the logic has no other.
        let known: Vec<&Cand> = cands
            .iter()
            .filter(|c| matches!(c.status, Status::Sat | Status::Unsat))
            .collect();
        let pool: Vec<&Cand> = if known.is_empty() {
            cands.iter().collect()
        } else {
            known
        };
        for c in pool {
            if !chosen.iter().any(|x| x.file == c.file) {
                chosen.push(c.clone());
            }
        }
    } else {
        chosen = cands;
    }
    chosen.truncate(n);
    Picked::Some(chosen.into_iter().map(Cand::selected).collect())
}

impl Cand {
    fn selected(self) -> SelectedBenchmark {
        SelectedBenchmark {
            file: self.file,
            status: self.status,
            count: self.count,
            new: false,
            heat: None,
        }
    }
}

/// Whether `picked` (up to `n` benchmarks) lacks what `track` should test in
/// a logic: any benchmark at all, or (Single Query, Parallel, Cloud) one of
/// known status, and with `n` >= 2 a sat and an unsat one.
pub fn lacks(track: Track, picked: &Picked, n: usize) -> bool {
    match picked {
        Picked::None(_) => true,
        Picked::Some(v) if matches!(track, Track::SingleQuery | Track::Parallel | Track::Cloud) => {
            let has = |s: Status| v.iter().any(|b| b.status == s);
            let known = has(Status::Sat) || has(Status::Unsat);
            !known || (n >= 2 && !(has(Status::Sat) && has(Status::Unsat)))
        }
        Picked::Some(_) => false,
    }
}

/// A selection of `benchmarks` for `track` (sorted by path, as prepared sets are).
pub fn selection(
    comp: &Competition,
    track: Track,
    mut benchmarks: Vec<SelectedBenchmark>,
) -> Selection {
    benchmarks.sort_by_cached_key(|b| b.file.path());
    Selection {
        track,
        year: comp.year,
        seed: 0,
        notes: vec!["test-solver: small benchmarks per entered logic".into()],
        logics: BTreeMap::new(),
        benchmarks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmarks::{IncrementalInfo, NonIncrementalInfo};

    fn file(incremental: bool, name: &str) -> Smt2File {
        Smt2File {
            incremental,
            logic: Logic::new("QF_BV"),
            family: vec![],
            name: name.into(),
        }
    }

    fn inventory() -> Inventory {
        let ni = |name: &str, status, asserts| NonIncrementalInfo {
            file: file(false, name),
            status,
            asserts,
            category: None,
        };
        Inventory {
            non_incremental: vec![
                ni("a.smt2", Status::Unknown, 5),
                ni("b.smt2", Status::Sat, 1),
                ni("c.smt2", Status::Sat, 1),
                ni("d.smt2", Status::Unsat, 1),
                ni("e.smt2", Status::Unsat, 3),
            ],
            incremental: vec![
                IncrementalInfo {
                    file: file(true, "i1.smt2"),
                    check_sats: 2,
                    statuses: Some(vec![Status::Unknown, Status::Sat]),
                },
                IncrementalInfo {
                    file: file(true, "i2.smt2"),
                    check_sats: 2,
                    statuses: Some(vec![Status::Sat, Status::Unknown]),
                },
            ],
            errors: vec![],
        }
    }

    fn names(p: Picked) -> Vec<String> {
        match p {
            Picked::Some(v) => v.into_iter().map(|b| b.file.name).collect(),
            Picked::None(why) => vec![why],
        }
    }

    #[test]
    fn picks_suit_the_track() {
        let comp = Competition::builtin(2025).unwrap();
        let inv = inventory();
        let lib = Path::new("/nonexistent");
        let qf_bv = Logic::new("QF_BV");
        let pick = |t, n| names(pick(&inv, lib, &comp, t, &qf_bv, How::Smallest(n)));
        // One sat, one unsat; unknown status not while known ones exist.
        assert_eq!(pick(Track::SingleQuery, 2), ["b.smt2", "d.smt2"]);
        assert_eq!(
            pick(Track::SingleQuery, 9),
            ["b.smt2", "d.smt2", "c.smt2", "e.smt2"]
        );
        assert_eq!(pick(Track::UnsatCore, 2), ["e.smt2"]);
        assert_eq!(pick(Track::ModelValidation, 1), ["b.smt2"]);
        assert_eq!(pick(Track::Incremental, 2), ["i2.smt2"]);
        // A list: every benchmark that suits the track, unknown status too, by path.
        let all = |t| names(super::pick(&inv, lib, &comp, t, &qf_bv, How::All));
        assert_eq!(
            all(Track::SingleQuery),
            ["a.smt2", "b.smt2", "c.smt2", "d.smt2", "e.smt2"]
        );
        assert_eq!(all(Track::UnsatCore), ["e.smt2"]);
        let none = names(super::pick(
            &inv,
            lib,
            &comp,
            Track::SingleQuery,
            &Logic::new("QF_LIA"),
            How::Smallest(2),
        ));
        assert_eq!(none, ["no benchmark"]);
    }
}
