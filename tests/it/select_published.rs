//! `select --policy published-2025` reproduces the organizers' 2025
//! Incremental selection: from the 2025 inventory and seed 757067271 (the sum
//! of the competitive submissions' seeds modulo 2^30 plus the NYSE value
//! 2033841, published on their 2025 participants page), exactly the 22,942
//! benchmarks their 2025 Incremental results show they ran, logic by logic.
//! The rules' selection (the default) draws with `srandom()` and shares about
//! half of them.

use crate::support::data::{inventory_2025, results_inc_2025};
use smtcomp::model::{Competition, Track};
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn the_2025_incremental_selection_is_the_one_the_organizers_ran() {
    let comp = Competition::builtin(2025).unwrap();
    let chosen = crate::support::data::select_inc_2025(757_067_271);
    let ours: BTreeSet<String> = chosen.benchmarks.iter().map(|b| b.file.path()).collect();
    let ran: BTreeSet<String> = results_inc_2025()
        .results
        .iter()
        .map(|r| r.file.path())
        .collect();
    assert_eq!(ran.len(), 22_942);
    assert_eq!(ours.len(), 22_942);
    let per_logic = |s: &BTreeSet<String>| {
        let mut m: BTreeMap<String, usize> = BTreeMap::new();
        for p in s {
            *m.entry(p.split('/').nth(1).unwrap_or_default().to_string())
                .or_default() += 1;
        }
        m
    };
    assert_eq!(per_logic(&ours), per_logic(&ran));
    let only_ours: Vec<&String> = ours.difference(&ran).take(5).collect();
    assert!(only_ours.is_empty(), "selected but not run: {only_ours:?}");
    // One new-benchmark logic in 2025 (QF_BVLRA: 1046 families of 2024, 523 taken).
    let bvlra = &chosen.logics[&smtcomp::model::Logic::new("QF_BVLRA")];
    assert_eq!((bvlra.new, bvlra.cap), (1046, 523));

    // Another seed draws other benchmarks: the match is the seed's.
    let other = crate::support::data::select_inc_2025(757_067_270);
    let common = other
        .benchmarks
        .iter()
        .filter(|b| ran.contains(&b.file.path()))
        .count();
    assert!(common < 13_000, "{common}");

    // Single Query needs results that are not here: refused, saying why.
    let err = smtcomp::select::select_published_2025(
        inventory_2025(),
        &comp,
        Track::SingleQuery,
        1,
        "2024",
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            smtcomp::select::SelectError::Unsupported {
                supported: Track::Incremental,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("selects the Incremental track only"),
        "{err}"
    );
}
