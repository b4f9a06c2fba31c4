//! The big 2025 data sets, each parsed at most once per test binary (the
//! inventory is 114 MB of JSON; the Incremental results have 65,327 runs).
//! Tests only read them: the values live until the binary exits.

use super::root;
use smtcomp::benchmarks::Inventory;
use smtcomp::formats::results::ResultsFile;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

/// `tests/data/<rel>`.
pub fn path(rel: &str) -> PathBuf {
    root().join("tests/data").join(rel)
}

/// `tests/data/benchmarks-2025.json.gz`: the 2025 benchmark inventory.
pub fn inventory_2025() -> &'static Inventory {
    static INV: OnceLock<Inventory> = OnceLock::new();
    INV.get_or_init(|| Inventory::read(&path("benchmarks-2025.json.gz")).unwrap())
}

/// The results file `tests/data/<rel>`, read once per binary.
pub fn results(rel: &str) -> &'static ResultsFile {
    static CACHE: Mutex<BTreeMap<String, &'static ResultsFile>> = Mutex::new(BTreeMap::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(rel.to_string())
        .or_insert_with(|| Box::leak(Box::new(ResultsFile::read(&path(rel)).unwrap())))
}

/// `tests/data/scoring/results-inc-2025.json.gz`: the 2025 Incremental track runs.
pub fn results_inc_2025() -> &'static ResultsFile {
    results("scoring/results-inc-2025.json.gz")
}

/// The organizers' 2025 Incremental draw (`select --policy published-2025`)
/// from the 2025 inventory with `seed` (757067271 is theirs).
pub fn select_inc_2025(seed: u32) -> smtcomp::select::Selection {
    let comp = smtcomp::model::Competition::builtin(2025).unwrap();
    smtcomp::select::select_published_2025(
        inventory_2025(),
        &comp,
        smtcomp::model::Track::Incremental,
        seed,
        "2024",
    )
    .unwrap()
}
