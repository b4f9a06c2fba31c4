//! `smtcomp select --edition 2008`: the 2008 selection ([`super::e2008`]) over
//! an inventory, with difficulties from a previous competition's runs.
//!
//! Readings of the 2008 rules, section 4 (see `docs/editions.md`):
//!
//! * **Difficulty.** `solved` = distinct solvers of the previous runs (Single
//!   Query track only) with a correct `sat`/`unsat` answer in at most 600 CPU
//!   seconds ("could solve the problem in 10 minutes"); `total` = distinct
//!   solvers with any run on the benchmark ("solvers tried");
//!   [`super::e2008::difficulty`] rounds. Every solver of the runs counts (the
//!   rules' "finished in good standing" is the caller's choice of runs).
//! * **No previous run.** The rules compute a difficulty for every benchmark
//!   ("whatever solvers are available"); a benchmark absent from the runs has no
//!   solver known to solve it, so it gets difficulty 5 (hard band), and each
//!   division's count is reported in the notes.
//! * **No category.** A benchmark without a recognized `:category` is
//!   *crafted* ("this category is for all other benchmarks"), counted in the notes.
//! * Divisions in name order, one `srandom(seed)` stream for the whole selection;
//!   the competition's `removed_benchmarks` are dropped first.

use super::e2008::{self, Candidate, Category};
use super::selection::{LogicStats, SelectedBenchmark, Selection};
use crate::benchmarks::{Inventory, NonIncrementalInfo};
use crate::model::{Answer, Competition, Division, Logic, Status, Track};
use crate::util::rng::GlibcRandom;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// "Solved in 10 minutes" (2008 rules 4), CPU seconds.
pub const SOLVED_WITHIN_S: f64 = 600.0;

/// Difficulty assumed for a benchmark without previous runs.
pub const NO_RUNS_DIFFICULTY: u8 = 5;

/// One previous run, as the 2008 difficulty needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct PastRun<'a> {
    /// Solver name.
    pub solver: &'a str,
    /// Track of the run (only Single Query runs count).
    pub track: Track,
    /// Library-relative benchmark path.
    pub path: String,
    /// Its outcome.
    pub answer: Answer,
    /// CPU seconds.
    pub cpu_time: f64,
}

/// Per benchmark path: (solved, total) distinct solvers in the previous runs.
pub fn tally(
    runs: &[PastRun<'_>],
    statuses: &HashMap<String, Status>,
) -> HashMap<String, (u32, u32)> {
    // path -> solver -> solved by some run of that solver
    let mut by_path: HashMap<String, BTreeMap<&str, bool>> = HashMap::new();
    for r in runs.iter().filter(|r| r.track == Track::SingleQuery) {
        let path = r.path.clone();
        let status = statuses.get(&path).copied().unwrap_or(Status::Unknown);
        let solved = r.answer.is_definite()
            && !r.answer.contradicts(status)
            && r.cpu_time <= SOLVED_WITHIN_S;
        *by_path
            .entry(path)
            .or_default()
            .entry(r.solver)
            .or_default() |= solved;
    }
    by_path
        .into_iter()
        .map(|(p, s)| {
            let solved = s.values().filter(|&&x| x).count() as u32;
            (p, (solved, s.len() as u32))
        })
        .collect()
}

/// What happened in one division (`--explain`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DivisionStats {
    /// Benchmarks of the division's logics (after removals).
    pub all: usize,
    /// Removed by the competition's removal list.
    pub removed: usize,
    /// Ineligible: status not sat/unsat.
    pub unknown_status: usize,
    /// Eligible check benchmarks (all selected).
    pub check: usize,
    /// Eligible industrial benchmarks.
    pub industrial: usize,
    /// Eligible crafted benchmarks (including those without a category).
    pub crafted: usize,
    /// Eligible random benchmarks.
    pub random: usize,
    /// Eligible benchmarks without a recognized category (counted as crafted).
    pub no_category: usize,
    /// Eligible non-check benchmarks without previous runs (difficulty 5).
    pub no_previous: usize,
    /// Eligible non-check benchmarks of difficulty 0-2.
    pub easy: usize,
    /// Eligible non-check benchmarks of difficulty 3-5.
    pub hard: usize,
    /// Selected (checks included).
    pub selected: usize,
}

/// The 2008 selection and its per-division statistics.
#[derive(Debug, Clone)]
pub struct Selection2008 {
    /// In the format of every selection (`smtcomp prepare` reads it).
    pub selection: Selection,
    /// Per division.
    pub divisions: BTreeMap<Division, DivisionStats>,
}

/// Selects the benchmarks of every Single Query division of `comp` (restricted
/// to divisions with a logic in `only`, if given) under the 2008 rules.
pub fn select_2008(
    inv: &Inventory,
    comp: &Competition,
    previous: &HashMap<String, (u32, u32)>,
    seed: u32,
    only: Option<&BTreeSet<Logic>>,
) -> Result<Selection2008, crate::select::SelectError> {
    let track = comp
        .track(Track::SingleQuery)
        .ok_or_else(|| crate::select::SelectError::no_track(Track::SingleQuery, comp))?;
    let removed: HashSet<(&str, &str, &str)> = comp
        .removed_benchmarks
        .iter()
        .map(|r| (r.logic.as_str(), r.family.as_str(), r.name.as_str()))
        .collect();
    let mut by_logic: HashMap<&str, Vec<&NonIncrementalInfo>> = HashMap::new();
    for b in &inv.non_incremental {
        by_logic.entry(b.file.logic.as_str()).or_default().push(b);
    }
    let mut rng = GlibcRandom::new(seed);
    let mut notes = Vec::new();
    let mut logics: BTreeMap<Logic, LogicStats> = BTreeMap::new();
    let mut divisions = BTreeMap::new();
    let mut chosen: Vec<SelectedBenchmark> = Vec::new();
    for (division, div_logics) in &track.divisions {
        if only.is_some_and(|o| !div_logics.iter().any(|l| o.contains(l))) {
            continue;
        }
        let mut st = DivisionStats::default();
        let mut cands = Vec::new();
        let mut info: HashMap<String, &NonIncrementalInfo> = HashMap::new();
        for logic in div_logics {
            let ls = logics.entry(logic.clone()).or_default();
            for &b in by_logic.get(logic.as_str()).into_iter().flatten() {
                ls.all += 1;
                let fam = b.file.family_path();
                if removed.contains(&(logic.as_str(), fam.as_str(), b.file.name.as_str())) {
                    ls.removed += 1;
                    st.removed += 1;
                    continue;
                }
                st.all += 1;
                if !matches!(b.status, Status::Sat | Status::Unsat) {
                    ls.wrong_status += 1;
                    st.unknown_status += 1;
                    continue;
                }
                ls.eligible += 1;
                let path = b.file.path();
                let category = b.category.unwrap_or(Category::Crafted);
                let difficulty = match previous.get(&path) {
                    Some(&(solved, total)) => {
                        e2008::difficulty(solved, total).unwrap_or(NO_RUNS_DIFFICULTY)
                    }
                    None => NO_RUNS_DIFFICULTY,
                };
                match category {
                    Category::Check => st.check += 1,
                    c => {
                        match c {
                            Category::Industrial => st.industrial += 1,
                            Category::Random => st.random += 1,
                            _ => st.crafted += 1,
                        }
                        st.no_category += usize::from(b.category.is_none());
                        st.no_previous += usize::from(!previous.contains_key(&path));
                        if difficulty >= 3 {
                            st.hard += 1;
                        } else {
                            st.easy += 1;
                        }
                    }
                }
                cands.push(Candidate {
                    id: path.clone(),
                    family: format!("{}/{}", logic.as_str(), fam),
                    category,
                    status: b.status,
                    difficulty,
                });
                info.insert(path, b);
            }
        }
        let picked = e2008::select_division(&cands, &mut rng);
        st.selected = picked.len();
        for id in picked {
            let b = info[&id];
            if let Some(ls) = logics.get_mut(&b.file.logic) {
                ls.selected += 1;
            }
            chosen.push(SelectedBenchmark {
                file: b.file.clone(),
                status: b.status,
                count: b.asserts,
                new: false,
                heat: None,
            });
        }
        if st.no_previous > 0 {
            notes.push(format!(
                "{division}: {} eligible non-check benchmark(s) without previous runs: difficulty {NO_RUNS_DIFFICULTY}",
                st.no_previous
            ));
        }
        if st.no_category > 0 {
            notes.push(format!(
                "{division}: {} eligible benchmark(s) without a category: crafted",
                st.no_category
            ));
        }
        divisions.insert(division.clone(), st);
    }
    chosen.sort_by_cached_key(|b| b.file.path());
    Ok(Selection2008 {
        selection: Selection {
            track: Track::SingleQuery,
            year: comp.year,
            seed,
            notes,
            logics,
            benchmarks: chosen,
        },
        divisions,
    })
}

/// The `--explain` table of a 2008 selection.
pub fn explain(s: &Selection2008) -> String {
    use std::fmt::Write;
    let sel = &s.selection;
    let mut out = String::new();
    let _ = writeln!(out, "2008 selection for {} (seed {})", sel.year, sel.seed);
    for n in &sel.notes {
        let _ = writeln!(out, "note: {n}");
    }
    let head = [
        "division", "all", "removed", "unknown", "check", "industr", "crafted", "random", "nocat",
        "noprev", "easy", "hard", "selected",
    ];
    let width = s
        .divisions
        .keys()
        .map(|d| d.as_str().len())
        .max()
        .unwrap_or(0)
        .max(16);
    let row = |cells: &[String]| -> String {
        let mut line = format!("{:<width$}", cells[0]);
        for c in &cells[1..] {
            let _ = write!(line, " {c:>8}");
        }
        line
    };
    let _ = writeln!(
        out,
        "{}",
        row(&head.iter().map(|h| h.to_string()).collect::<Vec<_>>())
    );
    let mut total = [0usize; 12];
    for (d, st) in &s.divisions {
        let v = [
            st.all,
            st.removed,
            st.unknown_status,
            st.check,
            st.industrial,
            st.crafted,
            st.random,
            st.no_category,
            st.no_previous,
            st.easy,
            st.hard,
            st.selected,
        ];
        for (t, x) in total.iter_mut().zip(v) {
            *t += x;
        }
        let mut cells = vec![d.as_str().to_string()];
        cells.extend(v.iter().map(|x| x.to_string()));
        let _ = writeln!(out, "{}", row(&cells));
    }
    let mut cells = vec!["total".to_string()];
    cells.extend(total.iter().map(|x| x.to_string()));
    let _ = writeln!(out, "{}", row(&cells));
    out
}
