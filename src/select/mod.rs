//! Benchmark selection by the rules (2025 section 6), with glibc `random()`.

pub mod e2008;
pub mod e2008_inventory;
mod error;
mod evidence;
mod parallel;
mod previous;
mod published;
mod selection;
mod write;

pub use crate::util::rng::GlibcRandom;
pub use error::SelectError;
pub use evidence::{SoundAnswers, Triviality, fastest_solves};
pub use parallel::select_parallel;
pub use previous::PreviousRelease;
pub use published::{polars_sample, select_published_2025};
pub use selection::{
    Candidate, LogicStats, SelectedBenchmark, SelectedRef, Selection, SelectionInputs,
    SelectionView, candidates, cap, select, select_view,
};
pub use write::write_selection_json;
