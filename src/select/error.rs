//! Why a selection cannot be made.

use crate::model::Track;

/// Why a track's benchmarks cannot be selected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// The competition definition has no such track.
    #[error("track {track} is not part of {competition}")]
    NoTrack {
        /// The track asked for.
        track: Track,
        /// The competition's name.
        competition: String,
    },
    /// Parallel and Cloud are selected by [`crate::select::select_parallel`].
    #[error("{0} has its own selection (see select_parallel)")]
    OwnSelection(Track),
    /// More benchmarks than the selection's indices hold.
    #[error("{0} benchmarks: too many to select from")]
    TooMany(usize),
    /// A policy that cannot select this track here.
    #[error("{policy} selects the {supported} track only: {why}")]
    Unsupported {
        /// The policy (`--policy published-2025`).
        policy: &'static str,
        /// The track it can select.
        supported: Track,
        /// Why the others cannot be.
        why: &'static str,
    },
}

impl SelectError {
    /// [`SelectError::NoTrack`] of `comp`.
    pub fn no_track(track: Track, comp: &crate::model::Competition) -> Self {
        SelectError::NoTrack {
            track,
            competition: comp.name.clone(),
        }
    }
}
