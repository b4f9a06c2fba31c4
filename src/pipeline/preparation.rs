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
