//! Step 9, report: the static results site.

use super::step::{StageResult, Step};
use crate::report::{SiteSummary, TrackReport};
use crate::scoring::editions::e2023::ProofLine;
use std::path::Path;

/// Writes the results site of `reports` and `proofs` into `dir` (no progress bar,
/// no generation date: the demo's output is byte-identical from run to run).
pub fn site(reports: &[TrackReport], proofs: &[ProofLine], dir: &Path) -> StageResult<SiteSummary> {
    Step::Report.scope(|| {
        crate::report::write_site_with_progress(
            &crate::report::SiteMeta::for_tracks(reports),
            reports,
            proofs,
            dir,
            &indicatif::ProgressBar::hidden(),
        )
        .map_err(Into::into)
    })
}
