//! The competition model: tracks, divisions, logics, limits, seed inputs.
//!
//! A competition is data ([`Competition`], loaded from a TOML/JSON file or the
//! built-in 2025 definition); tracks are code ([`Track`]), because each has its
//! own execution and scoring semantics.

mod answer;
mod competition;
mod edition;
mod file;
mod limits;
mod names;
mod track;

pub use answer::{Answer, Status};
pub use competition::{Competition, CompetitionError, DEFAULT_YEAR, TrackDefinition};
pub use edition::RulesEdition;
pub use file::{
    CompetitionFile, NewBenchmarkPriority, RemovedBenchmark, SeedInputs, SelectionParams,
    TrackFile, TrackSelection,
};
pub use limits::Limits;
pub use names::{Division, Logic, is_valid_name};
pub use track::{Track, UnknownTrack};
