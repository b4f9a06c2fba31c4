//! The selection of rules section 6 for the Single Query, Incremental,
//! Unsat-Core and Model-Validation tracks, and its output.
//!
//! Determinism: one `srandom(seed)` stream per selection, consumed logic by logic
//! in name order; within a logic, candidates are in path order. The same inputs
//! and seed give the same selection, byte for byte.

use super::SelectError;
use super::evidence::{SoundAnswers, Triviality};
use super::previous::PreviousRelease;
use crate::benchmarks::{Inventory, Smt2File};
use crate::formats::inventory::{BenchRef, InventoryView, ViewEntry};
use crate::model::{Competition, Logic, NewBenchmarkPriority, RulesEdition, Status, Track};
use crate::util::fxhash::FxHashMap;
use crate::util::rng::GlibcRandom;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::num::NonZeroU32;
use std::ops::Range;

/// One candidate benchmark, whatever its kind.
#[derive(Debug, Clone)]
pub struct Candidate<'a> {
    /// Identity.
    pub file: &'a Smt2File,
    /// Library path (cached).
    pub path: String,
    /// Expected status (`incremental` for incremental benchmarks).
    pub status: Status,
    /// Assertions (non-incremental) or check-sats (incremental).
    pub count: u64,
}

/// Per-logic statistics (`--explain`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogicStats {
    /// Benchmarks of the logic in the inventory.
    pub all: usize,
    /// Removed by the competition's removal list.
    pub removed: usize,
    /// Removed as trivial (Single Query).
    pub trivial: usize,
    /// Removed by the track's status filter (Unsat-Core: not unsat; Model-Validation: not sat).
    pub wrong_status: usize,
    /// Removed for too few assertions (Unsat-Core).
    pub too_few_asserts: usize,
    /// Left after the filters (n of the cap formula).
    pub eligible: usize,
    /// New benchmarks among the eligible.
    pub new: usize,
    /// New families among the eligible.
    pub new_families: usize,
    /// The cap min(n, max(min, floor(ratio n))).
    pub cap: usize,
    /// Selected.
    pub selected: usize,
}

/// A selected benchmark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectedBenchmark {
    /// Identity.
    pub file: Smt2File,
    /// Expected status.
    pub status: Status,
    /// Assertions (non-incremental) or check-sats (incremental).
    pub count: u64,
    /// Whether it is new this year.
    pub new: bool,
    /// Heat number (1-based), when heats were requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heat: Option<u32>,
}

/// A selection: provenance, statistics and the selected benchmarks (path order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Selection {
    /// Track selected for.
    pub track: Track,
    /// Competition year.
    pub year: u16,
    /// The `srandom()` seed.
    pub seed: u32,
    /// Notes on inputs (ignored results files, shortfalls, ...).
    pub notes: Vec<String>,
    /// Per-logic statistics.
    pub logics: BTreeMap<Logic, LogicStats>,
    /// The selected benchmarks, sorted by path.
    pub benchmarks: Vec<SelectedBenchmark>,
}

/// Inputs besides the inventory.
pub struct SelectionInputs<'a> {
    /// The competition.
    pub competition: &'a Competition,
    /// The track.
    pub track: Track,
    /// The seed.
    pub seed: u32,
    /// Triviality from previous years (Single Query).
    pub triviality: &'a Triviality,
    /// Sound solvers' answers this year (Unsat-Core, Model-Validation).
    pub sound: &'a SoundAnswers,
    /// Number of heats per division (0 or 1: none).
    pub heats: u32,
    /// Only these logics (e.g. those with entrants); `None`: all of the track.
    pub only_logics: Option<&'a BTreeSet<Logic>>,
    /// The previous release, which decides which families are new; `None`: the
    /// `new_family_prefix` rule.
    pub previous: Option<&'a PreviousRelease>,
    /// Test run (`select --test`, the reference tool's test mode: min 20,
    /// ratio 0, triviality inverted): at most this many benchmarks per logic,
    /// and in a logic with trivial eligible benchmarks only those. `None`: the
    /// competition's selection.
    pub test_per_logic: Option<usize>,
}

/// The candidates of a track from the inventory, grouped by logic (path order).
pub fn candidates(inv: &Inventory, incremental: bool) -> BTreeMap<Logic, Vec<Candidate<'_>>> {
    let mut by_logic: BTreeMap<Logic, Vec<Candidate<'_>>> = BTreeMap::new();
    if incremental {
        for b in &inv.incremental {
            let c = Candidate {
                path: b.file.path(),
                file: &b.file,
                status: Status::Incremental,
                count: b.check_sats,
            };
            match by_logic.get_mut(&b.file.logic) {
                Some(v) => v.push(c),
                None => {
                    by_logic.insert(b.file.logic.clone(), vec![c]);
                }
            }
        }
    } else {
        for b in &inv.non_incremental {
            let c = Candidate {
                path: b.file.path(),
                file: &b.file,
                status: b.status,
                count: b.asserts,
            };
            // No clone of the logic name per benchmark: look up before inserting.
            match by_logic.get_mut(&b.file.logic) {
                Some(v) => v.push(c),
                None => {
                    by_logic.insert(b.file.logic.clone(), vec![c]);
                }
            }
        }
    }
    for v in by_logic.values_mut() {
        v.sort_by(|a, b| a.path.cmp(&b.path));
    }
    by_logic
}

/// The cap of rules section 6, step 4: min(n, max(min_used, floor(ratio * n))).
pub fn cap(n: usize, min_used: u64, ratio: f64) -> usize {
    let scaled = (n as f64 * ratio).floor() as usize;
    n.min(scaled.max(min_used as usize))
}

/// Runs the selection for SingleQuery, Incremental, UnsatCore, ModelValidation or
/// ProofExhibition (unsat benchmarks only; the track's own `selection` size if it has one).
pub fn select(inv: &Inventory, input: &SelectionInputs) -> Result<Selection, SelectError> {
    select_view(&inv.view(), input).map(|s| s.to_owned())
}

/// A selection whose benchmarks are entries of an inventory view
/// ([`select_view`]); [`SelectionView::to_owned`] is the [`Selection`], and
/// [`write_selection_json`](super::write_selection_json) writes the same bytes
/// as its pretty JSON.
#[derive(Debug, Clone)]
pub struct SelectionView<'v, 'a> {
    /// Track selected for.
    pub track: Track,
    /// Competition year.
    pub year: u16,
    /// The `srandom()` seed.
    pub seed: u32,
    /// Notes on inputs.
    pub notes: Vec<String>,
    /// Per-logic statistics.
    pub logics: BTreeMap<Logic, LogicStats>,
    /// The view selected from.
    pub view: &'v InventoryView<'a>,
    /// The list of `view` the benchmarks are entries of (the track's kind).
    pub list: &'v [ViewEntry<'a>],
    /// The selected benchmarks, sorted by path.
    pub benchmarks: Vec<SelectedRef>,
}

/// A selected benchmark: an entry of its selection's list (see
/// [`SelectedBenchmark`]; 12 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SelectedRef {
    /// Its index in [`SelectionView::list`].
    pub index: u32,
    /// Heat number (1-based), when heats were requested.
    pub heat: Option<NonZeroU32>,
    /// Whether it is new this year.
    pub new: bool,
}

impl<'a> SelectionView<'_, 'a> {
    /// The entry of a selected benchmark.
    pub fn entry(&self, b: &SelectedRef) -> &ViewEntry<'a> {
        &self.list[b.index as usize]
    }

    /// A selected benchmark with its logic and family.
    pub fn bench(&self, b: &SelectedRef) -> BenchRef<'a> {
        self.view.bench(self.entry(b))
    }

    /// The owned [`Selection`].
    pub fn to_owned(&self) -> Selection {
        Selection {
            track: self.track,
            year: self.year,
            seed: self.seed,
            notes: self.notes.clone(),
            logics: self.logics.clone(),
            benchmarks: self
                .benchmarks
                .iter()
                .map(|b| {
                    let bench = self.bench(b);
                    SelectedBenchmark {
                        file: bench.to_file(),
                        status: bench.status,
                        count: bench.count,
                        new: b.new,
                        heat: b.heat.map(NonZeroU32::get),
                    }
                })
                .collect(),
        }
    }
}

/// The benchmarks of a list grouped by logic name: per logic, the runs of
/// the list (index ranges) whose entries have that logic, in list order.
/// Inventories are sorted by path, so a logic is usually one run.
fn logic_runs<'a>(
    view: &InventoryView<'a>,
    list: &[ViewEntry<'a>],
) -> BTreeMap<&'a str, Vec<Range<usize>>> {
    let mut by_logic: BTreeMap<&'a str, Vec<Range<usize>>> = BTreeMap::new();
    let mut start = 0;
    while start < list.len() {
        let logic = list[start].logic_index();
        let end = start
            + list[start..]
                .iter()
                .take_while(|e| e.logic_index() == logic)
                .count();
        by_logic
            .entry(view.logic(&list[start]).as_str())
            .or_default()
            .push(start..end);
        start = end;
    }
    by_logic
}

/// The indices of the entries in `runs` in path order, or `None` when they
/// are in path order already (inventories in our path order; the reference
/// tool's orders 15 logics of 2025 differently: those are sorted, stably, by
/// index, without moving the entries).
fn path_order<'a>(
    view: &InventoryView<'a>,
    list: &[ViewEntry<'a>],
    runs: &[Range<usize>],
) -> Option<Vec<u32>> {
    let le = |a: &ViewEntry<'a>, b: &ViewEntry<'a>| view.cmp_in_logic(a, b).is_le();
    // Every pair of consecutive candidates: within each run, and across runs.
    let sorted = runs.iter().all(|r| list[r.clone()].is_sorted_by(le))
        && runs
            .windows(2)
            .all(|w| le(&list[w[0].end - 1], &list[w[1].start]));
    if sorted {
        return None;
    }
    // Indices fit: select_view checked the list's length.
    let mut all: Vec<u32> = runs
        .iter()
        .flat_map(|r| r.clone())
        .map(|i| i as u32)
        .collect();
    all.sort_by(|a, b| view.cmp_in_logic(&list[*a as usize], &list[*b as usize]));
    Some(all)
}

/// [`select`] over an inventory view: the same selection, without copying
/// a string per benchmark.
pub fn select_view<'v, 'a>(
    view: &'v InventoryView<'a>,
    input: &SelectionInputs,
) -> Result<SelectionView<'v, 'a>, SelectError> {
    let comp = input.competition;
    let track = input.track;
    let def = comp
        .track(track)
        .ok_or_else(|| SelectError::no_track(track, comp))?;
    if matches!(track, Track::Parallel | Track::Cloud) {
        return Err(SelectError::OwnSelection(track));
    }
    let list = view.list(track.is_incremental());
    if u32::try_from(list.len()).is_err() {
        return Err(SelectError::TooMany(list.len()));
    }
    let params = &comp.selection;
    // Removed benchmarks by file name (then logic and family): a lookup per
    // candidate without building a key.
    let mut removed: FxHashMap<&str, Vec<(&str, &str)>> = FxHashMap::default();
    for r in &comp.removed_benchmarks {
        removed
            .entry(r.name.as_str())
            .or_default()
            .push((r.logic.as_str(), r.family.as_str()));
    }
    // The lengths of the removed names (those of 64 bytes or more share the
    // last bit): most candidates are ruled out without hashing their name.
    let removed_lengths = removed
        .keys()
        .fold(0u64, |m, name| m | 1 << name.len().min(63));
    let is_removed = |logic: &str, c: &ViewEntry<'a>| {
        removed_lengths & (1 << c.name.len().min(63)) != 0
            && removed.get(c.name).is_some_and(|v| {
                v.iter()
                    .any(|(l, f)| *l == logic && *f == view.family(c).join("/"))
            })
    };
    // Paths are built only to look them up in the evidence, when there is any.
    let need_trivial = input.triviality.known() > 0;
    let need_sound = input.sound.known() > 0;
    let mut scratch = PathScratch::default();
    let mut rng = GlibcRandom::new(input.seed);
    let mut stats = BTreeMap::new();
    let mut notes = Vec::new();
    let by_logic = logic_runs(view, list);
    // 2015 rules 6 step 2: "Any benchmark whose expected output is neither sat
    // nor unsat is removed" (non-incremental; incremental benchmarks keep their
    // known-status prefix, footnote 5). Counted as `wrong_status`.
    let unknown_out = comp.rules == RulesEdition::Rules2015;
    // 2023 rules 5.5: "We exclude from the selection all benchmarks containing
    // arrays or datatypes" (Model Validation): by logic.
    let excluded_2023 = |logic: &str| {
        comp.rules == RulesEdition::Rules2023
            && track == Track::ModelValidation
            && has_arrays_or_datatypes(logic)
    };
    let mut excluded: Vec<&str> = Vec::new();
    // The selected benchmarks of each logic in path order (`eligible` is in
    // path order, so index order is path order). Paths of two logics compare
    // as `LOGIC/` does (no logic name contains `/`), so concatenating the
    // logics' blocks in that order gives the selection sorted by path without
    // building and sorting every selected path.
    let mut blocks: Vec<(String, Vec<SelectedRef>)> = Vec::new();
    // Reused per logic: its candidates and its eligible ones (list indices),
    // and the picks (eligible indices).
    let mut all: Vec<u32> = Vec::new();
    let mut eligible: Vec<u32> = Vec::new();
    let mut picks = Picks::default();
    // The logics selected in, in name order.
    let mut chosen_logics: Vec<(&str, &[Range<usize>])> = Vec::new();
    for (&logic_name, runs) in &by_logic {
        let logic = view.logic(&list[runs[0].start]);
        if def.division_of(logic_name).is_none()
            || input.only_logics.is_some_and(|o| !o.contains(logic))
        {
            continue;
        }
        if excluded_2023(logic_name) {
            excluded.push(logic_name);
            continue;
        }
        chosen_logics.push((logic_name, runs));
    }
    // The path order of every logic's candidates, checked (and where needed
    // sorted) on the rayon pool: it draws no random number.
    let orders: Vec<Option<Vec<u32>>> = {
        use rayon::prelude::*;
        chosen_logics
            .par_iter()
            .map(|(_, runs)| path_order(view, list, runs))
            .collect()
    };
    for ((logic_name, runs), order) in chosen_logics.into_iter().zip(orders) {
        let logic = view.logic(&list[runs[0].start]);
        all.clear();
        match order {
            Some(sorted) => all.extend(sorted),
            // Indices fit: the list's length was checked.
            None => all.extend(runs.iter().flat_map(|r| r.clone()).map(|i| i as u32)),
        }
        let mut st = LogicStats {
            all: all.len(),
            ..LogicStats::default()
        };
        let trivial = |c: &ViewEntry<'a>, scratch: &mut PathScratch| {
            need_trivial && input.triviality.is_trivial(scratch.of(&view.bench(c)))
        };
        eligible.clear();
        for &i in &all {
            let c = &list[i as usize];
            if is_removed(logic_name, c) {
                st.removed += 1;
            } else if track == Track::SingleQuery
                && input.test_per_logic.is_none()
                && trivial(c, &mut scratch)
            {
                st.trivial += 1;
            } else if !status_ok(track, view, c, input.sound, need_sound, &mut scratch)
                || (unknown_out && c.status == Status::Unknown)
            {
                st.wrong_status += 1;
            } else if track == Track::UnsatCore && c.count < params.unsat_core_min_num_asserts {
                st.too_few_asserts += 1;
            } else {
                eligible.push(i);
            }
        }
        if input.test_per_logic.is_some() {
            // Test mode (anchor spec 7.3 step 8, `invert_triviality`): in a logic
            // with trivial benchmarks, the non-trivial ones are dropped; `trivial`
            // then counts the trivial ones kept.
            let trivial: Vec<u32> = eligible
                .iter()
                .copied()
                .filter(|&i| trivial(&list[i as usize], &mut scratch))
                .collect();
            st.trivial = trivial.len();
            if !trivial.is_empty() {
                eligible = trivial;
            }
        }
        st.eligible = eligible.len();
        let by_prefix = |c: &ViewEntry<'a>| {
            params
                .new_family_prefix
                .as_deref()
                .is_some_and(|p| view.family(c).first().is_some_and(|f| f.starts_with(p)))
        };
        let is_new = |c: &ViewEntry<'a>| {
            input
                .previous
                .and_then(|p| {
                    p.is_new_family_of(c.incremental, view.logic(c).as_str(), view.family(c))
                })
                .unwrap_or_else(|| by_prefix(c))
        };
        // Eligible indices (u32: the list's length was checked) by new family.
        let new_families: BTreeMap<String, Vec<u32>> = eligible
            .iter()
            .enumerate()
            .filter(|(_, i)| is_new(&list[**i as usize]))
            .fold(BTreeMap::new(), |mut m, (k, i)| {
                m.entry(view.family(&list[*i as usize]).join("/"))
                    .or_default()
                    .push(k as u32);
                m
            });
        st.new = new_families.values().map(Vec::len).sum();
        st.new_families = new_families.len();
        let (min_used, ratio) = def.selection.map_or(
            (params.min_used_benchmarks, params.ratio_of_used_benchmarks),
            |s| (s.min_used_benchmarks, s.ratio_of_used_benchmarks),
        );
        st.cap = match input.test_per_logic {
            Some(n) => cap(eligible.len(), n as u64, 0.0),
            None => cap(eligible.len(), min_used, ratio),
        };
        let picked = picks.pick(
            &mut rng,
            eligible.len(),
            st.cap,
            &new_families,
            params.new_benchmark_priority,
        );
        st.selected = picked.len();
        let block = picked
            .iter()
            .map(|&k| {
                let i = eligible[k as usize];
                SelectedRef {
                    index: i,
                    heat: None,
                    new: is_new(&list[i as usize]),
                }
            })
            .collect();
        blocks.push((format!("{logic_name}/"), block));
        stats.insert(logic.clone(), st);
    }
    if !excluded.is_empty() {
        notes.push(format!(
            "2023 rules 5.5: logics with arrays or datatypes excluded from the Model \
             Validation selection: {}",
            excluded.join(", ")
        ));
    }
    blocks.sort_by(|a, b| a.0.cmp(&b.0));
    let mut chosen: Vec<SelectedRef> =
        Vec::with_capacity(blocks.iter().map(|(_, b)| b.len()).sum());
    for (_, block) in blocks {
        chosen.extend(block);
    }
    if input.heats > 1 {
        assign_heats(
            &mut chosen,
            input.heats,
            &mut rng,
            |b| view.logic(&list[b.index as usize]).as_str(),
            |logic| {
                def.division_of(logic)
                    .map(|d| d.to_string())
                    .unwrap_or_default()
            },
        );
    }
    Ok(SelectionView {
        track,
        year: comp.year,
        seed: input.seed,
        notes,
        logics: stats,
        view,
        list,
        benchmarks: chosen,
    })
}

/// Whether an SMT-LIB logic has arrays (`A` right after the optional `QF_`:
/// `QF_AX`, `QF_ABV`, `AUFLIA`, ...) or datatypes (`DT`: `QF_DT`, `UFDTLIA`, ...).
pub fn has_arrays_or_datatypes(logic: &str) -> bool {
    let body = logic.strip_prefix("QF_").unwrap_or(logic);
    body.starts_with('A') || body.contains("DT")
}

/// Rules section 6, step 3: the status filters of the Unsat-Core and
/// Model-Validation tracks (unknown status: a sound solver's answer decides);
/// 2023 rules 6 step 3: the Proof Exhibition Track filters like Unsat Core.
fn status_ok(
    track: Track,
    view: &InventoryView<'_>,
    c: &ViewEntry<'_>,
    sound: &SoundAnswers,
    need_sound: bool,
    scratch: &mut PathScratch,
) -> bool {
    match track {
        Track::UnsatCore | Track::ProofExhibition => {
            c.status == Status::Unsat
                || (c.status == Status::Unknown
                    && need_sound
                    && sound.said_unsat(scratch.of(&view.bench(c))))
        }
        Track::ModelValidation => {
            c.status == Status::Sat
                || (c.status == Status::Unknown
                    && need_sound
                    && sound.said_sat(scratch.of(&view.bench(c))))
        }
        _ => true,
    }
}

/// One reused buffer for the library paths looked up in the evidence.
#[derive(Default)]
struct PathScratch(String);

impl PathScratch {
    /// The path of `c` (valid until the next call).
    fn of(&mut self, c: &BenchRef<'_>) -> &str {
        self.0.clear();
        c.write_path(&mut self.0);
        &self.0
    }
}

/// The buffers of [`Picks::pick`], reused from logic to logic.
#[derive(Default)]
struct Picks {
    /// Per eligible index: whether it was picked.
    taken: Vec<bool>,
    /// The eligible indices not picked yet.
    rest: Vec<u32>,
    /// The picks, in ascending order.
    sorted: Vec<u32>,
}

impl Picks {
    /// Picks `size` of `n` eligible indices, new benchmarks first as the
    /// policy says; returns them in ascending order (the random draws are
    /// those of drawing them one by one: `sample_indices` over the pools).
    fn pick(
        &mut self,
        rng: &mut GlibcRandom,
        n: usize,
        size: usize,
        new_families: &BTreeMap<String, Vec<u32>>,
        priority: NewBenchmarkPriority,
    ) -> &[u32] {
        self.sorted.clear();
        if size >= n {
            // Indices fit: eligible indices are list indices' positions.
            self.sorted.extend((0..n).map(|i| i as u32));
            return &self.sorted;
        }
        self.taken.clear();
        self.taken.resize(n, false);
        let mut picked = 0;
        match priority {
            NewBenchmarkPriority::OnePerFamily => {
                let families: Vec<&Vec<u32>> = new_families.values().collect();
                let order: Vec<usize> = if families.len() > size {
                    rng.sample_indices(families.len(), size)
                } else {
                    (0..families.len()).collect()
                };
                for f in order {
                    let members = families[f];
                    self.taken[members[rng.below(members.len())] as usize] = true;
                    picked += 1;
                }
            }
            NewBenchmarkPriority::AllNewFirst => {
                let mut new: Vec<u32> = new_families.values().flatten().copied().collect();
                new.sort_unstable();
                new.dedup();
                let take = size.min(new.len());
                for &i in partial_shuffle(rng, &mut new, take) {
                    self.taken[i as usize] = true;
                }
                picked += take;
            }
        }
        self.rest.clear();
        self.rest
            .extend((0..n as u32).filter(|&i| !self.taken[i as usize]));
        let more = size - picked;
        for &i in partial_shuffle(rng, &mut self.rest, more) {
            self.taken[i as usize] = true;
        }
        self.sorted
            .extend((0..n as u32).filter(|&i| self.taken[i as usize]));
        &self.sorted
    }
}

/// The first `k` (at most `pool.len()`) items of `pool` after the draws of
/// [`GlibcRandom::sample_indices`]: the same swaps applied to `pool` itself,
/// so they are the items `sample_indices(pool.len(), k)` would index.
fn partial_shuffle<'p>(rng: &mut GlibcRandom, pool: &'p mut [u32], k: usize) -> &'p [u32] {
    let n = pool.len();
    let k = k.min(n);
    for i in 0..k {
        let j = i + rng.below(n - i);
        pool.swap(i, j);
    }
    &pool[..k]
}

/// Rules section 6, "Heats": per division, the selected benchmarks are shuffled
/// and dealt round-robin into `heats` heats (sizes differ by at most one).
/// `chosen` is in path order; `logic_of` names a benchmark's logic,
/// `division_of` a logic's division (asked once per logic).
fn assign_heats<'l>(
    chosen: &mut [SelectedRef],
    heats: u32,
    rng: &mut GlibcRandom,
    logic_of: impl Fn(&SelectedRef) -> &'l str,
    division_of: impl Fn(&str) -> String,
) {
    let mut division: HashMap<&str, String> = HashMap::new();
    let mut by_division: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, b) in chosen.iter().enumerate() {
        let logic = logic_of(b);
        let d = division.entry(logic).or_insert_with(|| division_of(logic));
        match by_division.get_mut(d.as_str()) {
            Some(v) => v.push(i),
            None => {
                by_division.insert(d.clone(), vec![i]);
            }
        }
    }
    for members in by_division.values_mut() {
        rng.shuffle(members);
        for (k, &i) in members.iter().enumerate() {
            chosen[i].heat = NonZeroU32::new((k as u32 % heats) + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logics_with_arrays_or_datatypes() {
        for l in [
            "QF_AX",
            "QF_ABV",
            "QF_AUFBV",
            "QF_ABVFPLRA",
            "AUFLIA",
            "QF_DT",
            "QF_UFDT",
            "QF_UFFPDTNIRA",
            "UFDTLIA",
        ] {
            assert!(has_arrays_or_datatypes(l), "{l}");
        }
        for l in [
            "QF_BV",
            "QF_UF",
            "QF_UFBV",
            "QF_LIA",
            "QF_FP",
            "QF_BVFPLRA",
            "QF_NIA",
            "LIA",
            "UFNIA",
        ] {
            assert!(!has_arrays_or_datatypes(l), "{l}");
        }
    }

    #[test]
    fn cap_formula_cases_of_the_rules() {
        assert_eq!(cap(0, 300, 0.5), 0);
        assert_eq!(cap(250, 300, 0.5), 250);
        assert_eq!(cap(300, 300, 0.5), 300);
        assert_eq!(cap(450, 300, 0.5), 300);
        assert_eq!(cap(600, 300, 0.5), 300);
        assert_eq!(cap(601, 300, 0.5), 300);
        assert_eq!(cap(1001, 300, 0.5), 500);
    }

    /// The picks as first written: drawn one by one into a vector (new
    /// benchmarks first, then `sample_indices` over the rest), then sorted.
    fn pick_reference(
        rng: &mut GlibcRandom,
        n: usize,
        size: usize,
        new_families: &BTreeMap<String, Vec<u32>>,
        priority: NewBenchmarkPriority,
    ) -> Vec<u32> {
        if size >= n {
            return (0..n as u32).collect();
        }
        let mut picked: Vec<usize> = Vec::new();
        match priority {
            NewBenchmarkPriority::OnePerFamily => {
                let families: Vec<&Vec<u32>> = new_families.values().collect();
                let order: Vec<usize> = if families.len() > size {
                    rng.sample_indices(families.len(), size)
                } else {
                    (0..families.len()).collect()
                };
                for f in order {
                    let members = families[f];
                    picked.push(members[rng.below(members.len())] as usize);
                }
            }
            NewBenchmarkPriority::AllNewFirst => {
                let new: Vec<usize> = new_families
                    .values()
                    .flatten()
                    .map(|&i| i as usize)
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect();
                let take = size.min(new.len());
                picked.extend(
                    rng.sample_indices(new.len(), take)
                        .into_iter()
                        .map(|i| new[i]),
                );
            }
        }
        let rest: Vec<usize> = (0..n).filter(|i| !picked.contains(i)).collect();
        let more = size - picked.len();
        picked.extend(
            rng.sample_indices(rest.len(), more)
                .into_iter()
                .map(|i| rest[i]),
        );
        let mut picked: Vec<u32> = picked.into_iter().map(|i| i as u32).collect();
        picked.sort_unstable();
        picked
    }

    /// `Picks::pick` (swaps on the pools themselves, a mask for the order)
    /// draws the same benchmarks as the reference, and leaves the generator
    /// in the same state, whatever the sizes, new families and policy.
    #[test]
    fn picks_are_those_of_the_reference() {
        let mut picks = Picks::default();
        let mut shape = GlibcRandom::new(99);
        for case in 0..400u32 {
            let n = shape.below(60);
            let size = shape.below(n + 3);
            let mut fams: BTreeMap<String, Vec<u32>> = BTreeMap::new();
            for i in 0..n as u32 {
                // About a third new, in up to 5 families.
                if shape.below(3) == 0 {
                    fams.entry(format!("2025-{}", shape.below(5)))
                        .or_default()
                        .push(i);
                }
            }
            for priority in [
                NewBenchmarkPriority::OnePerFamily,
                NewBenchmarkPriority::AllNewFirst,
            ] {
                let (mut a, mut b) = (GlibcRandom::new(case), GlibcRandom::new(case));
                let want = pick_reference(&mut a, n, size, &fams, priority);
                let got = picks.pick(&mut b, n, size, &fams, priority).to_vec();
                assert_eq!(got, want, "n {n} size {size} {priority:?} {fams:?}");
                assert_eq!(a.next_random(), b.next_random());
                assert_eq!(got.len(), size.min(n));
            }
        }
    }

    #[test]
    fn one_per_new_family_then_uniform() {
        let mut rng = GlibcRandom::new(1);
        let mut fams = BTreeMap::new();
        fams.insert("2025-a".to_string(), vec![0, 1, 2]);
        fams.insert("2025-b".to_string(), vec![3]);
        let p = Picks::default()
            .pick(&mut rng, 20, 5, &fams, NewBenchmarkPriority::OnePerFamily)
            .to_vec();
        assert_eq!(p.len(), 5);
        // One of family a, the only one of family b, in ascending order.
        assert!(p.iter().any(|&i| i <= 2) && p.contains(&3));
        assert!(p.is_sorted_by(|a, b| a < b));
    }

    #[test]
    fn more_new_families_than_room() {
        let mut rng = GlibcRandom::new(3);
        let fams: BTreeMap<String, Vec<u32>> =
            (0..10).map(|i| (format!("2025-{i}"), vec![i])).collect();
        let p = Picks::default()
            .pick(&mut rng, 30, 4, &fams, NewBenchmarkPriority::OnePerFamily)
            .to_vec();
        assert_eq!(p.len(), 4);
        assert!(p.iter().all(|&i| i < 10));
    }
}
