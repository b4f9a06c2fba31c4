//! The prepared set of a track (`<track dir>/prepared.json`): every prepared
//! benchmark file with its original benchmark, written by `prepare` (and by
//! `validate-cores generate` for the validation track), read by generation,
//! validation and test-solver.

use crate::formats::datafile::{self, DataFileError};
use crate::formats::inventory::Smt2File;
use crate::model::{Status, Track};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The name of the manifest in a prepared track directory.
pub const MANIFEST_NAME: &str = "prepared.json";

/// One prepared benchmark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreparedBenchmark {
    /// Path of the prepared file, relative to the track directory (`QF_BV/scrambled12.smt2`).
    pub path: String,
    /// The original benchmark.
    pub original: Smt2File,
    /// Expected status (`incremental` for incremental benchmarks).
    pub status: Status,
    /// Incremental: the expected answer of each check-sat, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Vec<Status>>,
    /// Assertions (non-incremental) or check-sats (incremental).
    pub count: u64,
    /// Heat (1-based), if the selection had heats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heat: Option<u32>,
}

/// A prepared track: provenance and every prepared benchmark (sorted by path).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreparedSet {
    /// The track.
    pub track: Track,
    /// Competition year.
    pub year: u16,
    /// The seed (file-name shuffle; scrambler seed).
    pub seed: u32,
    /// How the files were made: `smtcomp` (our transformation) or the scrambler command.
    pub method: String,
    /// The prepared benchmarks.
    pub benchmarks: Vec<PreparedBenchmark>,
    /// Benchmarks that could not be prepared, with the reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<PrepareFailure>,
}

/// A selected benchmark that could not be prepared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrepareFailure {
    /// The original benchmark.
    pub original: Smt2File,
    /// Why.
    pub reason: String,
}

impl PreparedSet {
    /// The track directory below a prepared root.
    pub fn track_dir(root: &Path, track: Track) -> PathBuf {
        root.join(track.page_suffix())
    }

    /// Reads `<root>/<track dir>/prepared.json`.
    pub fn read(root: &Path, track: Track) -> Result<PreparedSet, DataFileError> {
        datafile::read_json(&Self::track_dir(root, track).join(MANIFEST_NAME))
    }

    /// Writes the manifest into its track directory below `root`.
    pub fn write(&self, root: &Path) -> Result<(), DataFileError> {
        datafile::write_json(&Self::track_dir(root, self.track).join(MANIFEST_NAME), self)
    }
}
