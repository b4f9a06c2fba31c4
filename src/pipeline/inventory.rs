//! Step 1, inventory: the benchmark library to use and its scan.

use super::step::{StageResult, Step};
use crate::benchmarks::{Inventory, scan};
use crate::model::Competition;
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};

/// The library to scan: a corpus layout's (`single/`, `incremental/`, like the
/// repository's `corpus/`) fast files linked into `OUT/library`, or the given
/// SMT-LIB library (`non-incremental/`, `incremental/`) itself.
pub fn library_view(benchmarks: &Path, out: &Path) -> StageResult<PathBuf> {
    Step::Inventory.scope(|| {
        let root = std::fs::canonicalize(benchmarks)
            .with_context(|| format!("{}: benchmark library not found", benchmarks.display()))?;
        if root.join("single").is_dir()
            || root.join("incremental").is_dir() && !root.join("non-incremental").is_dir()
        {
            let library = out.join("library");
            crate::benchmarks::link_corpus(&root, &library)?;
            return Ok(library);
        }
        Ok(root)
    })
}

/// The inventory of `library` (unreadable files are listed in its `errors`).
pub fn inventory(library: &Path, comp: &Competition, jobs: usize) -> Inventory {
    scan(library, comp, jobs)
}

/// The inventory of `library`; an unreadable file is an error.
pub fn complete_inventory(
    library: &Path,
    comp: &Competition,
    jobs: usize,
) -> StageResult<Inventory> {
    Step::Inventory.scope(|| {
        let inv = inventory(library, comp, jobs);
        if !inv.errors.is_empty() {
            bail!("corpus files could not be read: {:?}", inv.errors);
        }
        Ok(inv)
    })
}
