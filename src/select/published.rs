//! The selection the organizers' tool made in 2025 (`select --policy
//! published-2025`): not the rules' `srandom()` draw (rules 6), but the draw of
//! their Python tool (`track_selection` of `smtcomp/selection.py`), so that a
//! published selection can be checked against its seed.
//!
//! Per logic of the track, in path order: `size = min(n, max(300, floor(n/2)))`
//! of the `n` benchmarks left after the removal list; `new_n = min(size, new)`
//! of the new ones (family starting with the previous year's digits: their
//! tool still had `current_year = 2024` when the 2025 selection was made, so
//! families `2024...` were new) and `size - new_n` of the others, each list
//! drawn with polars 0.20.30's `list.sample(n, seed)`: the same seed for every
//! list, [`polars_sample`].
//!
//! Verified: the 2025 Incremental selection from seed 757067271 is exactly the
//! 22,942 benchmarks of the organizers' 2025 Incremental results (test
//! `select_published::the_2025_incremental_selection_is_the_one_the_organizers_ran`).
//! Single Query, Unsat Core and Model Validation also drop trivial benchmarks
//! and filter statuses with results that are not available here: refused.

use super::SelectError;
use super::selection::{LogicStats, SelectedBenchmark, Selection, candidates};
use crate::benchmarks::Inventory;
use crate::model::{Competition, Track};
use std::collections::BTreeMap;

/// The indices polars 0.20.30 draws for `Series.sample(n, seed)` and
/// `list.sample(n, seed)` without replacement on `len` elements, in its order:
/// `rand` 0.8.5's `SmallRng::seed_from_u64(seed)` (xoshiro256++ seeded
/// through PCG32) and `rand::seq::index::sample` (Floyd, in-place or
/// rejection by `len` and `n`); all indices in order when `n == len`
/// (polars' `create_rand_index_no_replacement`). `n > len` gives every index.
pub fn polars_sample(len: usize, n: usize, seed: u64) -> Vec<usize> {
    use rand::SeedableRng;
    if n >= len {
        return (0..len).collect();
    }
    if n == 0 {
        return Vec::new();
    }
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    rand::seq::index::sample(&mut rng, len, n).into_vec()
}

/// The organizers' 2025 selection of `track` (Incremental only, see the
/// module) from `inv` with `seed`; `new_prefix` is how a new family's name
/// starts (`"2024"` for the 2025 selection as they ran it).
pub fn select_published_2025(
    inv: &Inventory,
    comp: &Competition,
    track: Track,
    seed: u32,
    new_prefix: &str,
) -> Result<Selection, SelectError> {
    if track != Track::Incremental {
        return Err(SelectError::Unsupported {
            policy: "--policy published-2025",
            supported: Track::Incremental,
            why: "for the other tracks the organizers' tool also drops trivial benchmarks and \
                  filters statuses with previous and current Single Query results that are not \
                  available here (the rules' selection is the default)",
        });
    }
    let def = comp
        .track(track)
        .ok_or_else(|| SelectError::no_track(track, comp))?;
    let logics: std::collections::BTreeSet<&str> = def
        .divisions
        .values()
        .flatten()
        .map(|l| l.as_str())
        .collect();
    let removed = |c: &super::Candidate<'_>| {
        comp.removed_benchmarks.iter().any(|r| {
            r.logic.as_str() == c.file.logic.as_str()
                && r.family == c.file.family.join("/")
                && r.name == c.file.name
        })
    };
    let mut stats = BTreeMap::new();
    let mut benchmarks = Vec::new();
    for (logic, list) in candidates(inv, true) {
        if !logics.contains(logic.as_str()) {
            continue;
        }
        let kept: Vec<&super::Candidate<'_>> = list.iter().filter(|c| !removed(c)).collect();
        let (new, old): (Vec<&super::Candidate<'_>>, Vec<_>) =
            kept.iter().copied().partition(|c| {
                c.file
                    .family
                    .first()
                    .is_some_and(|f| f.starts_with(new_prefix))
            });
        let n = kept.len();
        let size = n.min(300.max(n / 2));
        let new_n = size.min(new.len());
        let old_n = size - new_n;
        let mut chosen = Vec::with_capacity(size);
        for (pool, k, is_new) in [(&new, new_n, true), (&old, old_n, false)] {
            for i in polars_sample(pool.len(), k, u64::from(seed)) {
                let c = pool[i];
                chosen.push(SelectedBenchmark {
                    file: c.file.clone(),
                    status: c.status,
                    count: c.count,
                    new: is_new,
                    heat: None,
                });
            }
        }
        stats.insert(
            logic.clone(),
            LogicStats {
                all: list.len(),
                removed: list.len() - n,
                eligible: n,
                new: new.len(),
                cap: size,
                selected: chosen.len(),
                ..Default::default()
            },
        );
        benchmarks.extend(chosen);
    }
    benchmarks.sort_by_key(|b| b.file.path());
    Ok(Selection {
        track,
        year: comp.year,
        seed,
        notes: vec![format!(
            "policy published-2025: the organizers' tool's draw (polars 0.20.30 list.sample with seed {seed}, \
             per logic min(n, max(300, n/2)), families starting with {new_prefix} first), not the rules' srandom() draw"
        )],
        logics: stats,
        benchmarks,
    })
}

#[cfg(test)]
mod tests {
    use super::polars_sample;

    /// Indices the real polars 0.20.30 returned (`pl.Series(range(len))
    /// .sample(n, seed=seed)`), one case per algorithm of `index::sample`.
    #[test]
    fn draws_are_those_of_polars_0_20_30() {
        let s = 757_067_271;
        assert_eq!(polars_sample(10, 3, 0), [7, 8, 4]);
        assert_eq!(polars_sample(10, 3, 42), [1, 6, 5]);
        assert_eq!(polars_sample(100, 5, s), [20, 66, 43, 65, 83]);
        assert_eq!(polars_sample(60, 12, s)[..6], [12, 41, 27, 40, 50, 44]);
        assert_eq!(polars_sample(5000, 50, s)[..4], [693, 4030, 3178, 3254]);
        assert_eq!(polars_sample(44100, 163, s)[..3], [9474, 30127, 19560]);
        assert_eq!(polars_sample(1272, 636, s)[..5], [273, 869, 565, 1062, 911]);
        assert_eq!(polars_sample(5, 5, s), [0, 1, 2, 3, 4]);
        assert!(polars_sample(5, 0, s).is_empty());
    }
}
