//! Step 3, preparation: the files the runs need, per selected track.

use super::step::{StageResult, Step};
use crate::prepare::{PrepareOptions, PreparedSet, prepare};
use crate::select::Selection;
use std::path::Path;

/// Prepares every selection from `library` into `prepared` (one directory per
/// track); returns one prepared set per selection, in order, failures included.
pub fn prepare_selections(
    selections: &[Selection],
    library: &Path,
    prepared: &Path,
    jobs: usize,
) -> StageResult<Vec<PreparedSet>> {
    Step::Preparation.scope(|| {
        Ok(selections
            .iter()
            .map(|sel| {
                prepare(
                    sel,
                    &PrepareOptions {
                        library: library.to_path_buf(),
                        out: prepared.to_path_buf(),
                        scrambler: None,
                        jobs,
                    },
                )
            })
            .collect::<std::io::Result<_>>()?)
    })
}

/// Prepares every selection as [`prepare_selections`] (replacing `prepared`)
/// and requires every benchmark prepared: the summary `SQ 10, UC 4` of the
/// counts, or an error naming the track and the benchmarks that failed.
pub fn prepare_all(
    selections: &[Selection],
    library: &Path,
    prepared: &Path,
    jobs: usize,
) -> StageResult<String> {
    let _ = std::fs::remove_dir_all(prepared);
    let sets = prepare_selections(selections, library, prepared, jobs)?;
    Step::Preparation.scope(|| {
        let mut counts = Vec::new();
        for set in &sets {
            if !set.failures.is_empty() {
                anyhow::bail!(
                    "{}: {} benchmarks could not be prepared: {:?}",
                    set.track,
                    set.failures.len(),
                    set.failures
                );
            }
            counts.push(format!(
                "{} {}",
                set.track.short_name(),
                set.benchmarks.len()
            ));
        }
        Ok(counts.join(", "))
    })
}
