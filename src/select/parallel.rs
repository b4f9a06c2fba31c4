//! Parallel and Cloud Track selection (rules 2025 section 5.6: "400 instances
//! chosen such that their run times are sufficiently high based on our
//! estimation"). The estimation is the reference tool's (anchor spec 7.5), with
//! the rules' `random()`:
//!
//! 1. candidates: non-incremental benchmarks of the track's logics, minus removals;
//! 2. drop benchmarks some previous result solved within `parallel_hard_time_s`;
//! 3. split the rest into *hard* (solved, but only slowly) and *unsolved* (never solved);
//! 4. per class and logic, sample up to half the target;
//! 5. per class, deal round-robin over the logics (name order) until half the target.

use super::SelectError;
use super::selection::{Candidate, LogicStats, SelectedBenchmark, Selection, candidates};
use crate::benchmarks::Inventory;
use crate::model::{Competition, Logic, Track};
use crate::util::rng::GlibcRandom;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Runs the Parallel/Cloud selection. `fastest` maps a path to the fastest
/// correct previous solve (CPU seconds).
pub fn select_parallel(
    inv: &Inventory,
    comp: &Competition,
    track: Track,
    seed: u32,
    fastest: &BTreeMap<String, f64>,
    only_logics: Option<&BTreeSet<Logic>>,
) -> Result<Selection, SelectError> {
    let def = comp
        .track(track)
        .ok_or_else(|| SelectError::no_track(track, comp))?;
    let params = &comp.selection;
    let hard_s = f64::from(params.parallel_hard_time_s.unwrap_or(180));
    let target = params.parallel_num_selected.unwrap_or(400) as usize;
    let per_class = target / 2;
    let removed: HashSet<(String, String, String)> = comp
        .removed_benchmarks
        .iter()
        .map(|r| (r.logic.to_string(), r.family.clone(), r.name.clone()))
        .collect();
    let mut rng = GlibcRandom::new(seed);
    let mut stats: BTreeMap<Logic, LogicStats> = BTreeMap::new();
    // class 0 = hard, class 1 = unsolved; per logic, the sampled candidates.
    let mut pools: [BTreeMap<Logic, Vec<Candidate<'_>>>; 2] = [BTreeMap::new(), BTreeMap::new()];
    for (logic, all) in candidates(inv, false) {
        if def.division_of(logic.as_str()).is_none()
            || only_logics.is_some_and(|o| !o.contains(&logic))
        {
            continue;
        }
        let st = stats.entry(logic.clone()).or_default();
        st.all = all.len();
        let mut classes: [Vec<Candidate<'_>>; 2] = [Vec::new(), Vec::new()];
        for c in all {
            let key = (logic.to_string(), c.file.family_path(), c.file.name.clone());
            if removed.contains(&key) {
                st.removed += 1;
                continue;
            }
            match fastest.get(&c.path) {
                Some(&t) if t <= hard_s => st.trivial += 1,
                Some(_) => classes[0].push(c),
                None => classes[1].push(c),
            }
        }
        st.eligible = classes[0].len() + classes[1].len();
        for (k, class) in classes.into_iter().enumerate() {
            let take = class.len().min(per_class);
            let sampled: Vec<Candidate<'_>> = rng
                .sample_indices(class.len(), take)
                .into_iter()
                .map(|i| class[i].clone())
                .collect();
            pools[k].insert(logic.clone(), sampled);
        }
    }
    let mut notes = Vec::new();
    let mut chosen: Vec<SelectedBenchmark> = Vec::new();
    for (k, pool) in pools.iter_mut().enumerate() {
        let name = if k == 0 { "hard" } else { "unsolved" };
        let mut taken = 0;
        while taken < per_class && pool.values().any(|v| !v.is_empty()) {
            for (logic, list) in pool.iter_mut() {
                if taken == per_class {
                    break;
                }
                if let Some(c) = list.pop() {
                    taken += 1;
                    if let Some(st) = stats.get_mut(logic) {
                        st.selected += 1;
                    }
                    chosen.push(SelectedBenchmark {
                        file: c.file.clone(),
                        status: c.status,
                        count: c.count,
                        new: false,
                        heat: None,
                    });
                }
            }
        }
        if taken < per_class {
            notes.push(format!(
                "only {taken} {name} benchmarks available, {per_class} wanted (lower parallel_hard_time_s or give more previous results)"
            ));
        }
    }
    chosen.sort_by_cached_key(|b| b.file.path());
    Ok(Selection {
        track,
        year: comp.year,
        seed,
        notes,
        logics: stats,
        benchmarks: chosen,
    })
}
