//! The core-validation manifest (`validation.json` in the validation track
//! directory): one task per distinct unsat core, written by
//! `validate-cores generate`, read by `generate` (the validators' BenchExec
//! definitions) and `validate-cores run|join`.

use crate::formats::prepared::PreparedSet;
use crate::model::{Division, Logic, Track};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// File name of the validation manifest in the validation track directory.
pub const MANIFEST: &str = "validation.json";
/// File name of the local runner's results in the validation track directory.
pub const LOCAL_RUNS: &str = "local-runs.jsonl";

/// A run that produced a core.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Producer {
    /// Solver.
    pub solver: String,
    /// Participation index.
    pub participation: Option<u32>,
    /// Where the run came from (`source`, `task` of its record).
    pub source: String,
    /// The run's task.
    pub task: String,
    /// Its wall time (CPU time when wall time is unknown), seconds.
    pub time: Option<f64>,
}

/// One validation task: a distinct core of a benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoreTask {
    /// The restricted benchmark, relative to the validation track directory.
    pub file: String,
    /// The original benchmark's key (`benchmark_key` of the runs).
    pub benchmark: String,
    /// Logic.
    pub logic: Option<Logic>,
    /// Division (Unsat-Core Track).
    pub division: Option<Division>,
    /// The core's names (sorted).
    pub core: Vec<String>,
    /// Core names that name no assertion.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown_names: Vec<String>,
    /// The runs that returned this core.
    pub producers: Vec<Producer>,
    /// Validation time limit (seconds).
    pub time_limit: f64,
    /// The validation solvers.
    pub validators: Vec<String>,
}

/// The validation manifest (`validation.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoreManifest {
    /// How validators were chosen (`sound in SingleQuery (…)`, `given`).
    pub validator_selection: String,
    /// How time limits were set.
    pub time_limit_policy: String,
    /// Every task, sorted by benchmark then core.
    pub tasks: Vec<CoreTask>,
}

impl CoreManifest {
    /// The validation track directory below an execution directory.
    pub fn dir(exec: &Path) -> PathBuf {
        PreparedSet::track_dir(exec, Track::UnsatCoreValidation)
    }

    /// Reads `<exec>/unsat-core-validation/validation.json`.
    pub fn read(exec: &Path) -> Result<CoreManifest, crate::formats::datafile::DataFileError> {
        crate::formats::datafile::read_json(&Self::dir(exec).join(MANIFEST))
    }
}
