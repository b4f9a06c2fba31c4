//! The joined division tables (every registered solver × every benchmark with
//! results), sound solvers, disagreements and their removal (rules 7.2).

use super::benchmark::{self, BenchScore, effective_answer, is_error_on_known};
use super::input::{BenchInfo, ScoredRun, ScoringInput};
use super::policy::Policy;
use crate::benchmarks::Smt2File;
use crate::model::{Answer, Division, Logic, Status, Track};
use crate::util::fxhash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One benchmark of a division.
#[derive(Debug, Clone)]
pub struct FileRow {
    /// Library path.
    pub path: String,
    /// Logic.
    pub logic: Logic,
    /// Inventory facts.
    pub info: BenchInfo,
    /// Status resolved from sound solvers (sat if a sound solver said sat, else
    /// unsat if one said unsat, else the benchmark's status).
    pub sound_status: Status,
    /// Removed: unknown status and sound solvers disagree (rules 7.2).
    pub removed: bool,
}

/// One (registered solver, benchmark) pair.
#[derive(Debug, Clone)]
pub struct Cell {
    /// Index into [`ScoringInput::participants`].
    pub solver: usize,
    /// Index into [`DivisionTable::files`].
    pub file: usize,
    /// The answer scored (`None`: no run, counted as unsolved).
    pub answer: Option<Answer>,
    /// The benchmark score.
    pub score: BenchScore,
}

/// A reported disagreement (rules 7.2: reported for information).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Disagreement {
    /// Division.
    pub division: String,
    /// Benchmark path.
    pub file: String,
    /// Sound solvers that answered sat.
    pub sat: Vec<String>,
    /// Sound solvers that answered unsat.
    pub unsat: Vec<String>,
}

/// A division after joining, soundness and scoring of every cell.
#[derive(Debug, Clone)]
pub struct DivisionTable {
    /// The division.
    pub division: Division,
    /// Its logics.
    pub logics: Vec<Logic>,
    /// Benchmarks with at least one run, sorted by path.
    pub files: Vec<FileRow>,
    /// Cells, sorted by (file, solver).
    pub cells: Vec<Cell>,
    /// The cells of file `f` are `cells[file_cells[f]..file_cells[f + 1]]`
    /// (one more entry than files).
    pub file_cells: Vec<usize>,
    /// Sound solvers (participant indexes) among those with cells.
    pub sound: Vec<usize>,
    /// Unsound solvers (participant indexes).
    pub unsound: Vec<usize>,
    /// Disagreements found (the files are removed).
    pub disagreements: Vec<Disagreement>,
    /// Registered solvers' benchmarks without a run.
    pub missing: MissingRuns,
}

/// Counts of input anomalies (reported, never fatal).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct JoinReport {
    /// Runs of solvers that are not registered for the run's logic (ignored).
    pub unregistered_runs: usize,
    /// Runs on logics outside every division of the track (ignored).
    pub unknown_logic_runs: usize,
    /// Second and later runs of the same solver on the same benchmark (ignored).
    pub duplicate_runs: usize,
    /// Runs of another track (ignored).
    pub other_track_runs: usize,
    /// Selected benchmarks outside the track's logics (ignored).
    #[serde(skip_serializing_if = "is_zero")]
    pub selection_other_track: usize,
}

impl std::fmt::Display for JoinReport {
    /// The non-zero counts in words: `4 duplicate runs (a second run of a
    /// solver on a benchmark), 2 runs of another track`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = [
            (
                self.unregistered_runs,
                "run(s) of solvers not registered for the run's logic",
            ),
            (
                self.unknown_logic_runs,
                "run(s) on logics outside every division of the track",
            ),
            (
                self.duplicate_runs,
                "duplicate run(s) (a second run of a solver on a benchmark)",
            ),
            (self.other_track_runs, "run(s) of another track"),
            (
                self.selection_other_track,
                "selected benchmark(s) outside the track's logics",
            ),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        f.write_str(&parts.join(", "))
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Builds every division table of the track.
pub fn build(input: &ScoringInput, policy: &Policy) -> (Vec<DivisionTable>, JoinReport) {
    let mut report = JoinReport::default();
    let logic_div: FxHashMap<&str, &Division> = input
        .divisions
        .iter()
        .flat_map(|(d, ls)| ls.iter().map(move |l| (l.as_str(), d)))
        .collect();
    let solver_idx: FxHashMap<&str, usize> = input
        .participants
        .iter()
        .enumerate()
        .map(|(i, p)| (p.solver.as_str(), i))
        .collect();
    // One slot per (division, benchmark path) with its runs in input order.
    // Runs are grouped by their file first (hashing the file's parts), so each
    // distinct file's path is built once, not once per run.
    // Sized for the distinct benchmarks (the inventory facts hold one per
    // benchmark of the runs and the selection): no rehashing while joining.
    let expect = input.benchmarks.len();
    let mut slots = Slots::with_capacity(expect);
    let mut slot_of_file: FxHashMap<&Smt2File, usize> =
        FxHashMap::with_capacity_and_hasher(expect, Default::default());
    let mut slot_of_ptr: FxHashMap<*const Smt2File, usize> =
        FxHashMap::with_capacity_and_hasher(expect, Default::default());
    // The slot of each run (`usize::MAX`: not joined), then the runs grouped
    // by slot in one flat vector (a counting sort: no vector per slot).
    let mut slot_of_run = Vec::with_capacity(input.runs.len());
    for r in &input.runs {
        if r.track != input.track {
            report.other_track_runs += 1;
            slot_of_run.push(usize::MAX);
            continue;
        }
        let Some(d) = logic_div.get(r.file.logic.as_str()) else {
            report.unknown_logic_runs += 1;
            slot_of_run.push(usize::MAX);
            continue;
        };
        // Interned files (one allocation per benchmark) are found by address.
        let slot = match slot_of_ptr.get(&Arc::as_ptr(&r.file)) {
            Some(&s) => s,
            None => {
                let s = match slot_of_file.get(&*r.file) {
                    Some(&s) => s,
                    None => {
                        let s = slots.slot(d, &r.file);
                        slot_of_file.insert(&r.file, s);
                        s
                    }
                };
                slot_of_ptr.insert(Arc::as_ptr(&r.file), s);
                s
            }
        };
        slots.counts[slot] += 1;
        slot_of_run.push(slot);
    }
    // Selected benchmarks are in N even when nobody ran them.
    for f in &input.selection {
        if f.incremental != (input.track == Track::Incremental) {
            report.selection_other_track += 1;
            continue;
        }
        let Some(d) = logic_div.get(f.logic.as_str()) else {
            report.selection_other_track += 1;
            continue;
        };
        slots.slot(d, f);
    }
    // Where each slot's runs start in `flat`, then each run at its place
    // (input order within a slot).
    let mut next: Vec<usize> = Vec::with_capacity(slots.counts.len());
    let mut total = 0;
    for &c in &slots.counts {
        next.push(total);
        total += c;
    }
    let mut flat: Vec<Option<&ScoredRun>> = vec![None; total];
    for (r, &slot) in input.runs.iter().zip(&slot_of_run) {
        if let Some(at) = next.get_mut(slot) {
            flat[*at] = Some(r);
            *at += 1;
        }
    }
    drop((slot_of_run, next, slot_of_ptr, slot_of_file));
    // Divisions are independent, but joined on this thread: built on the
    // rayon pool, the tables would live in another malloc arena than the
    // runs, whose memory (released after the join) the pages scored next
    // could then not reuse (+26 MB peak at 500,000 runs).
    let mut tables = Vec::new();
    for (division, files) in slots.by_division(&flat) {
        let (table, counts) = division_table(division, files, input, policy, &solver_idx);
        report.duplicate_runs += counts.duplicate_runs;
        report.unregistered_runs += counts.unregistered_runs;
        tables.push(table);
    }
    (tables, report)
}

/// The joined, sound-checked and scored table of one division: `files` are
/// its benchmarks sorted by path with their runs in input order. The
/// returned report counts only duplicate and unregistered runs.
fn division_table<'a>(
    division: &'a Division,
    files: Vec<(String, &'a Logic, &[Option<&'a ScoredRun>])>,
    input: &'a ScoringInput,
    policy: &Policy,
    solver_idx: &FxHashMap<&str, usize>,
) -> (DivisionTable, JoinReport) {
    let mut report = JoinReport::default();
    let logics = input.divisions.get(division).cloned().unwrap_or_default();
    let mut rows = Vec::with_capacity(files.len());
    let mut missing = MissingRuns::default();
    // Who entered each logic of the division (asked once per logic, not per run).
    let mut entered_by_logic: FxHashMap<&Logic, Vec<bool>> = FxHashMap::default();
    for (_, logic, _) in &files {
        entered_by_logic.entry(logic).or_insert_with(|| {
            input
                .participants
                .iter()
                .map(|p| p.entered(division, logic))
                .collect()
        });
    }
    // One cell per (file, entered solver): allocated once at its exact size
    // (a growing vector would hold up to twice the cells, the peak memory
    // of a 500,000-run table).
    let n_cells: usize = files
        .iter()
        .map(|(_, logic, _)| entered_by_logic[logic].iter().filter(|&&e| e).count())
        .sum();
    let mut cells = Vec::with_capacity(n_cells);
    // The run of each cell (same index), kept beside the cells so that
    // scoring them updates the cells in place (no second cell vector).
    let mut cell_runs: Vec<Option<&ScoredRun>> = Vec::with_capacity(n_cells);
    let mut runs_of: Vec<Option<&ScoredRun>> = vec![None; input.participants.len()];
    for (fi, (path, logic, runs)) in files.into_iter().enumerate() {
        let entered = &entered_by_logic[logic];
        let info = input.benchmarks.get(&path).copied().unwrap_or(BenchInfo {
            status: if input.track == Track::Incremental {
                Status::Incremental
            } else {
                Status::Unknown
            },
            asserts: 0,
            check_sats: 0,
        });
        runs_of.iter_mut().for_each(|x| *x = None);
        for r in runs.iter().flatten() {
            match solver_idx.get(r.solver.as_str()) {
                Some(&i) if entered[i] => {
                    if runs_of[i].is_some() {
                        report.duplicate_runs += 1;
                    } else {
                        runs_of[i] = Some(r);
                    }
                }
                _ => report.unregistered_runs += 1,
            }
        }
        for (si, &entered) in entered.iter().enumerate() {
            if entered {
                if runs_of[si].is_none() {
                    missing.note(si, &path);
                }
                cells.push(Cell {
                    solver: si,
                    file: fi,
                    answer: effective_answer(runs_of[si], policy).map(|(a, _)| a),
                    score: BenchScore::default(),
                });
                cell_runs.push(runs_of[si]);
            }
        }
        // The reference tool's sound status of UC and MV (anchor 6.2).
        let sound_status = match input.track {
            Track::UnsatCore if policy.track_status_for_uc_mv => Status::Unsat,
            Track::ModelValidation if policy.track_status_for_uc_mv => Status::Sat,
            _ => info.status,
        };
        rows.push(FileRow {
            path,
            logic: logic.clone(),
            info,
            sound_status,
            removed: false,
        });
    }
    // Sound solvers: no error on a known-status benchmark in the division.
    let mut unsound_flag = vec![false; input.participants.len()];
    let mut present = vec![false; input.participants.len()];
    for c in &cells {
        present[c.solver] = true;
        let st = rows[c.file].info.status;
        if let Some(a) = c.answer {
            if st != Status::Unknown && is_error_on_known(input.track, a, st) {
                unsound_flag[c.solver] = true;
            }
        }
    }
    // Disagreements and sound status.
    let mut disagreements = Vec::new();
    let sq_like = matches!(
        input.track,
        Track::SingleQuery | Track::Parallel | Track::Cloud
    );
    let mut start = 0;
    while start < cells.len() {
        let f = cells[start].file;
        let mut end = start;
        let (mut sat, mut unsat) = (Vec::new(), Vec::new());
        while end < cells.len() && cells[end].file == f {
            let c = &cells[end];
            if !unsound_flag[c.solver] {
                match c.answer {
                    Some(Answer::Sat) => sat.push(input.participants[c.solver].solver.clone()),
                    Some(Answer::Unsat) => unsat.push(input.participants[c.solver].solver.clone()),
                    _ => {}
                }
            }
            end += 1;
        }
        let row = &mut rows[f];
        if sq_like {
            if !sat.is_empty() {
                row.sound_status = Status::Sat;
            } else if !unsat.is_empty() {
                row.sound_status = Status::Unsat;
            }
            if !sat.is_empty() && !unsat.is_empty() && row.info.status == Status::Unknown {
                row.removed = true;
                disagreements.push(Disagreement {
                    division: division.to_string(),
                    file: row.path.clone(),
                    sat,
                    unsat,
                });
            }
        }
        start = end;
    }
    for (c, &run) in cells.iter_mut().zip(&cell_runs) {
        let row = &rows[c.file];
        let status = if policy.unknown_status_from_sound_solvers {
            row.sound_status
        } else {
            row.info.status
        };
        c.score = benchmark::score(
            input.track,
            policy,
            run,
            &row.info,
            status,
            (input.time_limit, input.cpu_limit()),
        );
    }
    let sound = (0..present.len())
        .filter(|&i| present[i] && !unsound_flag[i])
        .collect();
    let unsound = (0..present.len())
        .filter(|&i| present[i] && unsound_flag[i])
        .collect();
    // Cells are sorted by file: the cells of file f start at file_cells[f].
    let mut file_cells = Vec::with_capacity(rows.len() + 1);
    for (i, c) in cells.iter().enumerate() {
        while file_cells.len() <= c.file {
            file_cells.push(i);
        }
    }
    file_cells.resize(rows.len() + 1, cells.len());
    let table = DivisionTable {
        division: division.clone(),
        logics,
        files: rows,
        cells,
        file_cells,
        sound,
        unsound,
        disagreements,
        missing,
    };
    (table, report)
}

/// The (division, benchmark path) slots of a track's runs and selection.
/// Each slot's path is held once (in [`Slots::keys`]); the index finds a
/// slot by a hash of its division and path, then compares them.
#[derive(Default)]
struct Slots<'a> {
    /// Hash of (division, path) -> the first slot with that hash.
    index: FxHashMap<u64, usize>,
    /// Slots whose hash equals that of a different, earlier slot (searched
    /// in order; 64-bit collisions are rare, correctness does not depend on it).
    collided: Vec<(u64, usize)>,
    /// Per slot: division, path, the logic of the first file seen.
    keys: Vec<(&'a Division, String, &'a Logic)>,
    /// Per slot: how many runs it has.
    counts: Vec<usize>,
    /// The path being looked up (one buffer, not a string per lookup).
    path: String,
}

impl<'a> Slots<'a> {
    /// Room for `n` slots.
    fn with_capacity(n: usize) -> Self {
        Slots {
            index: FxHashMap::with_capacity_and_hasher(n, Default::default()),
            keys: Vec::with_capacity(n),
            counts: Vec::with_capacity(n),
            ..Slots::default()
        }
    }

    /// The slot of `file` in `division`, added if new.
    fn slot(&mut self, division: &'a Division, file: &'a Smt2File) -> usize {
        use std::hash::{Hash, Hasher};
        self.path.clear();
        file.write_path(&mut self.path);
        let mut h = crate::util::fxhash::FxHasher::default();
        division.hash(&mut h);
        self.path.hash(&mut h);
        let h = h.finish();
        let same = |keys: &[(&Division, String, &Logic)], s: usize, path: &str| {
            keys[s].0 == division && keys[s].1 == path
        };
        let first = match self.index.get(&h) {
            Some(&s) if same(&self.keys, s, &self.path) => return s,
            Some(_) => false,
            None => true,
        };
        if !first {
            let found = self
                .collided
                .iter()
                .find(|&&(k, s)| k == h && same(&self.keys, s, &self.path));
            if let Some(&(_, s)) = found {
                return s;
            }
        }
        let s = self.keys.len();
        self.keys.push((division, self.path.clone(), &file.logic));
        self.counts.push(0);
        if first {
            self.index.insert(h, s);
        } else {
            self.collided.push((h, s));
        }
        s
    }

    /// Division -> its slots sorted by path: (path, logic, runs); `flat`
    /// holds every slot's runs one slot after the other, in slot order
    /// (each slot's [`Slots::counts`] runs; all of them `Some`).
    #[allow(clippy::type_complexity)]
    fn by_division<'f>(
        self,
        flat: &'f [Option<&'a ScoredRun>],
    ) -> BTreeMap<&'a Division, Vec<(String, &'a Logic, &'f [Option<&'a ScoredRun>])>> {
        drop(self.index);
        let mut out: BTreeMap<&Division, Vec<_>> = BTreeMap::new();
        let mut rest = flat;
        for ((d, path, logic), n) in self.keys.into_iter().zip(self.counts) {
            let (runs, tail) = rest.split_at(n.min(rest.len()));
            rest = tail;
            out.entry(d).or_default().push((path, logic, runs));
        }
        for files in out.values_mut() {
            files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        }
        out
    }
}

/// How many examples of missing runs are kept per solver.
pub const MISSING_EXAMPLES: usize = 3;

/// Registered (solver, benchmark) pairs of a division without a run: scored as
/// unsolved, reported (`score --selection`).
#[derive(Debug, Clone, Default)]
pub struct MissingRuns {
    /// Participant index -> (count, first benchmark paths).
    pub by_solver: BTreeMap<usize, (u64, Vec<String>)>,
}

impl MissingRuns {
    fn note(&mut self, solver: usize, path: &str) {
        let e = self.by_solver.entry(solver).or_default();
        e.0 += 1;
        if e.1.len() < MISSING_EXAMPLES {
            e.1.push(path.to_string());
        }
    }
}

/// One solver's missing runs over the track (`TrackScores::missing`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolverMissing {
    /// Solver.
    pub solver: String,
    /// Benchmarks of its divisions (registered logics) without a run of it.
    pub count: u64,
    /// The first few, in division then path order.
    pub examples: Vec<String>,
}

/// Merges the tables' missing runs per solver (sorted by solver name).
pub fn missing_runs(tables: &[DivisionTable], input: &ScoringInput) -> Vec<SolverMissing> {
    let mut acc: BTreeMap<&str, SolverMissing> = BTreeMap::new();
    for t in tables {
        for (&si, (n, ex)) in &t.missing.by_solver {
            let name = input.participants[si].solver.as_str();
            let m = acc.entry(name).or_insert_with(|| SolverMissing {
                solver: name.to_string(),
                count: 0,
                examples: Vec::new(),
            });
            m.count += n;
            for e in ex {
                if m.examples.len() < MISSING_EXAMPLES {
                    m.examples.push(e.clone());
                }
            }
        }
    }
    acc.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::JoinReport;

    #[test]
    fn the_ignored_input_is_said_in_words() {
        let r = JoinReport {
            duplicate_runs: 4,
            other_track_runs: 2,
            ..JoinReport::default()
        };
        assert_eq!(
            r.to_string(),
            "4 duplicate run(s) (a second run of a solver on a benchmark), 2 run(s) of another track"
        );
        assert_eq!(JoinReport::default().to_string(), "");
    }
}
