//! A fast, non-cryptographic hasher for in-process tables keyed by our own data
//! (benchmark paths, interned files, solver names): `rustc-hash`'s `FxHasher`,
//! the hasher of rustc itself (a well-kept crate, replacing the hand-written
//! copy of its older multiply-rotate version; `scripts/bench-score` measured
//! both, see the commit).
//!
//! Why not the standard `HashMap` hasher: SipHash-1-3 resists hash flooding by
//! untrusted keys, and costs about 11 % of `smtcomp score` on a 500,000-run table
//! (one path set and one interner lookup per run). These tables hold at most one
//! entry per benchmark or solver of the inputs, and a flood would only slow a
//! single local command, never corrupt it: the keys compare by equality as before.
//! Iteration order differs from SipHash's; every caller sorts or only looks up.

pub use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet, FxHasher};

/// Distinct keys in order of first appearance, each with its index (as
/// `u32`): the logic and family tables of an inventory view and of the
/// inventory cache's encoder, the solver, logic and family tables of the run
/// cache's encoder.
pub(crate) struct IndexTable<K> {
    /// The keys, by index.
    pub(crate) items: Vec<K>,
    ix: FxHashMap<K, u32>,
}

impl<K> Default for IndexTable<K> {
    fn default() -> Self {
        IndexTable {
            items: Vec::new(),
            ix: FxHashMap::default(),
        }
    }
}

impl<K: std::hash::Hash + Eq + Copy> IndexTable<K> {
    /// The index of `key`, appended when new. (No table in memory holds 2^32
    /// distinct keys: each is a benchmark's or a run's.)
    pub(crate) fn index_of(&mut self, key: K) -> u32 {
        let items = &mut self.items;
        *self.ix.entry(key).or_insert_with(|| {
            items.push(key);
            u32::try_from(items.len() - 1).unwrap_or(u32::MAX)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_equal_and_lookups_work() {
        let mut set: FxHashSet<String> = FxHashSet::default();
        for i in 0..1000 {
            set.insert(format!("non-incremental/QF_BV/f/{i}.smt2"));
        }
        assert_eq!(set.len(), 1000);
        assert!(set.contains("non-incremental/QF_BV/f/999.smt2"));
        assert!(!set.contains("non-incremental/QF_BV/f/1000.smt2"));
        // Strings differing only past an 8-byte boundary.
        let h = |s: &str| {
            use std::hash::Hasher;
            let mut x = FxHasher::default();
            std::hash::Hash::hash(s, &mut x);
            x.finish()
        };
        assert_ne!(h("abcdefgh1"), h("abcdefgh2"));
    }
}
