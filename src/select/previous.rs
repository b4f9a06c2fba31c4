//! "New" benchmark families decided from the previous release (rules 2025
//! section 6, steps 4b/4c: "one benchmark from each new benchmark family").
//!
//! A family is new when the previous year's inventory has no benchmark of the
//! same kind (incremental or not), logic and family path. When that inventory
//! has no benchmark of the logic at all (a logic new to SMT-LIB, or one it does
//! not cover), the competition's `new_family_prefix` rule decides instead.

use crate::benchmarks::{Inventory, Smt2File};
use std::collections::HashSet;

/// The families and logics of a previous release.
#[derive(Debug, Clone, Default)]
pub struct PreviousRelease {
    /// `(incremental, logic, family path)` of every benchmark.
    families: HashSet<(bool, String, String)>,
    /// `(incremental, logic)` of every benchmark.
    logics: HashSet<(bool, String)>,
}

impl PreviousRelease {
    /// The families of `inv` (the previous year's inventory).
    pub fn from_inventory(inv: &Inventory) -> PreviousRelease {
        let mut p = PreviousRelease::default();
        let files = inv
            .non_incremental
            .iter()
            .map(|b| &b.file)
            .chain(inv.incremental.iter().map(|b| &b.file));
        for f in files {
            let logic = f.logic.as_str().to_string();
            p.families
                .insert((f.incremental, logic.clone(), f.family_path()));
            p.logics.insert((f.incremental, logic));
        }
        p
    }

    /// Whether the family of `file` is new: `Some(true)` when the previous
    /// release has benchmarks of its logic but none of its family, `Some(false)`
    /// when it has the family, `None` when it has no benchmark of the logic (the
    /// caller falls back to the prefix rule).
    pub fn is_new_family(&self, file: &Smt2File) -> Option<bool> {
        self.is_new_family_of(file.incremental, file.logic.as_str(), &file.family)
    }

    /// [`PreviousRelease::is_new_family`] of a benchmark given by its kind,
    /// logic and family parts.
    pub fn is_new_family_of(
        &self,
        incremental: bool,
        logic: &str,
        family: &[String],
    ) -> Option<bool> {
        let logic = logic.to_string();
        if !self.logics.contains(&(incremental, logic.clone())) {
            return None;
        }
        Some(
            !self
                .families
                .contains(&(incremental, logic, family.join("/"))),
        )
    }

    /// Number of families known.
    pub fn families(&self) -> usize {
        self.families.len()
    }
}
