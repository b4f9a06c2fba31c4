//! The file names of the site's pages (one place: the pages, the navigation
//! and the per-benchmark tables all link to them).

use super::html::slug;
use crate::scoring::GroupScores;

/// The file name of a group page inside its track directory.
pub fn group_file(g: &GroupScores) -> String {
    let prefix = if g.is_division { "division" } else { "logic" };
    format!("{prefix}-{}.html", slug(&g.identifier))
}

/// File name of page `k` (0-based) of the per-benchmark table of logic group `g`.
pub fn benchmarks_file(g: &GroupScores, k: usize) -> String {
    let id = slug(&g.identifier);
    if k == 0 {
        format!("benchmarks-{id}.html")
    } else {
        format!("benchmarks-{id}-{}.html", k + 1)
    }
}
