//! Run results: the record format of the reference tool's `results-*.json.gz`
//! files (used for previous years' results in selection, and as scoring input).

use crate::formats::datafile::{self, DataFileError};
use crate::formats::inventory::Smt2File;
use crate::model::{Answer, Track};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One run of one solver on one benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Track.
    pub track: Track,
    /// Solver name.
    pub solver: String,
    /// Benchmark.
    pub file: Smt2File,
    /// Outcome.
    pub result: Answer,
    /// CPU time in seconds.
    pub cpu_time: f64,
    /// Wall-clock time in seconds.
    pub wallclock_time: f64,
    /// Peak memory in bytes.
    pub memory_usage: f64,
    /// Incremental: number of answers; unsat core: core size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nb_answers: Option<u64>,
}

/// A results file: `{"results": [...]}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// The runs.
    pub results: Vec<RunRecord>,
}

impl ResultsFile {
    /// Reads a results file (JSON or JSON.gz).
    pub fn read(path: &Path) -> Result<ResultsFile, DataFileError> {
        datafile::read_json(path)
    }

    /// Writes a results file (gzip when `path` ends in `.gz`).
    pub fn write(&self, path: &Path) -> Result<(), DataFileError> {
        datafile::write_json(path, self)
    }
}
