//! A fast, non-cryptographic hasher for in-process tables keyed by our own data
//! (benchmark paths, interned files, solver names): the multiply-rotate hash of
//! rustc's `FxHasher`, written here (a few lines) rather than added as a dependency.
//!
//! Why not the standard `HashMap` hasher: SipHash-1-3 resists hash flooding by
//! untrusted keys, and costs about 11 % of `smtcomp score` on a 500,000-run table
//! (one path set and one interner lookup per run). These tables hold at most one
//! entry per benchmark or solver of the inputs, and a flood would only slow a
//! single local command, never corrupt it: the keys compare by equality as before.
//! Iteration order differs from SipHash's; every caller sorts or only looks up.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The multiply-rotate hasher (rustc's `FxHasher`, 64-bit).
#[derive(Debug, Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// Builds [`FxHasher`]s.
pub type FxBuildHasher = BuildHasherDefault<FxHasher>;
/// A `HashMap` with [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, FxBuildHasher>;
/// A `HashSet` with [`FxHasher`].
pub type FxHashSet<T> = HashSet<T, FxBuildHasher>;

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
            let mut x = FxHasher::default();
            std::hash::Hash::hash(s, &mut x);
            x.finish()
        };
        assert_ne!(h("abcdefgh1"), h("abcdefgh2"));
    }
}
