//! The generation manifest (`EXECDIR/manifest.json`): everything `generate` wrote,
//! so that results ingestion maps each BenchExec run back to its solver,
//! participation, track, division, logic and benchmark without parsing names.
//!
//! Every collection is a map with a stable key (never a list position):
//! definitions by file name, rundefinitions by name, tasks by path. The schema
//! is documented in `docs/benchexec.md`.

use crate::formats::datafile::{self, DataFileError};
use crate::formats::inventory::Smt2File;
use crate::model::{Division, Limits, Logic, Status, Track};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// File name of the manifest in the execution directory.
pub const MANIFEST_FILE: &str = "manifest.json";
/// File name of the per-run manifest for `smtcomp ingest --manifest` ([`Manifest::runs`]).
pub const RUNS_FILE: &str = "runs-manifest.json.gz";
/// The value of [`Manifest::format`].
pub const FORMAT: &str = "smtcomp-benchexec-manifest";
/// The current schema version ([`Manifest::version`]).
pub const VERSION: u32 = 1;

/// The whole manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// Schema version ([`VERSION`]).
    pub version: u32,
    /// Competition year.
    pub year: u16,
    /// Competition display name.
    pub competition: String,
    /// Whether test-mode limits were used.
    pub test: bool,
    /// The prepared root, relative to the execution directory.
    pub prepared: String,
    /// Solver name -> its sanitized form used in file and rundefinition names.
    pub solvers: BTreeMap<String, String>,
    /// Benchmark definitions, keyed by file name (`z3_QF_Bitvec.xml`).
    pub definitions: BTreeMap<String, Definition>,
    /// Task-definition files, keyed by path relative to the execution directory
    /// (`tasks/single-query/QF_BV/scrambled12.yml`).
    pub tasks: BTreeMap<String, TaskEntry>,
}

/// One benchmark definition (one solver x track x division).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Definition {
    /// Path relative to the execution directory (`definitions/z3_QF_Bitvec.xml`).
    pub path: String,
    /// The solver (submission name, verbatim).
    pub solver: String,
    /// The track.
    pub track: Track,
    /// The division.
    pub division: Division,
    /// BenchExec tool-info module (`tools.smtcomp_tool`).
    pub tool_module: String,
    /// Limits written to the definition.
    pub limits: Limits,
    /// `<require cpuModel>`, if written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_model: Option<String>,
    /// Where the run scripts and `run-local` put BenchExec's output, relative to
    /// the execution directory (`results/single-query/z3_QF_Bitvec`).
    pub results_dir: String,
    /// Rundefinitions keyed by name (`z3,0,SingleQuery`).
    pub rundefinitions: BTreeMap<String, RunDefinition>,
}

/// One rundefinition: one participation of the solver.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunDefinition {
    /// Index of the participation in the submission's `participations`.
    pub participation: usize,
    /// The exact argv given as `<option>`s (binary first); the tool-info module
    /// wraps it (trace executor, proof wrapper) and appends the benchmark.
    pub command: Vec<String>,
    /// Logics included (one `<tasks name="LOGIC">` each); the runs are the tasks
    /// of [`Manifest::tasks`] with this definition's track and these logics.
    pub logics: Vec<Logic>,
    /// Number of tasks included.
    pub tasks: usize,
}

/// One task-definition file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskEntry {
    /// The track.
    pub track: Track,
    /// The logic.
    pub logic: Logic,
    /// Division of the logic in the track.
    pub division: Division,
    /// The prepared file as written in the YAML (relative to the YAML's directory).
    pub input_file: String,
    /// The prepared file relative to the prepared root (`single-query/QF_BV/scrambled12.smt2`).
    pub prepared: String,
    /// The original benchmark.
    pub original: Smt2File,
    /// Expected status.
    pub status: Status,
    /// Incremental: expected answer of each check-sat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Vec<Status>>,
    /// BenchExec expected verdict written to the YAML (`true` sat, `false` unsat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_verdict: Option<bool>,
}

impl Manifest {
    /// Reads `EXECDIR/manifest.json`.
    pub fn read(execdir: &Path) -> Result<Manifest, DataFileError> {
        let m: Manifest = datafile::read_json(&execdir.join(MANIFEST_FILE))?;
        if m.format != FORMAT || m.version != VERSION {
            return Err(DataFileError::new(
                &execdir.join(MANIFEST_FILE),
                format!(
                    "not a {FORMAT} version {VERSION} (found '{}' version {})",
                    m.format, m.version
                ),
            ));
        }
        Ok(m)
    }

    /// Writes `EXECDIR/manifest.json` and the per-run `EXECDIR/runs-manifest.json.gz`.
    pub fn write(&self, execdir: &Path) -> Result<(), DataFileError> {
        datafile::write_json(&execdir.join(RUNS_FILE), &self.runs())?;
        datafile::write_json(&execdir.join(MANIFEST_FILE), self)
    }

    /// The flat per-run form that `smtcomp ingest --manifest` reads: one entry per
    /// (definition, rundefinition, task), sorted by those keys.
    pub fn runs(&self) -> crate::formats::runs_manifest::Manifest {
        let mut by_track_logic: BTreeMap<(Track, &str), Vec<(&String, &TaskEntry)>> =
            BTreeMap::new();
        for (path, t) in &self.tasks {
            by_track_logic
                .entry((t.track, t.logic.as_str()))
                .or_default()
                .push((path, t));
        }
        let mut runs = Vec::new();
        for (file, d) in &self.definitions {
            for (name, rd) in &d.rundefinitions {
                for logic in &rd.logics {
                    for (path, t) in by_track_logic
                        .get(&(d.track, logic.as_str()))
                        .map(Vec::as_slice)
                        .unwrap_or_default()
                    {
                        runs.push(crate::formats::runs_manifest::ManifestRun {
                            benchmark_definition: file.clone(),
                            rundefinition: name.clone(),
                            task: (*path).clone(),
                            solver: d.solver.clone(),
                            participation: rd.participation as u32,
                            track: d.track,
                            division: d.division.clone(),
                            logic: t.logic.clone(),
                            benchmark: t.original.clone(),
                        });
                    }
                }
            }
        }
        crate::formats::runs_manifest::Manifest {
            format: crate::formats::runs_manifest::MANIFEST_FORMAT,
            runs,
        }
    }

    /// The definition a result file belongs to, from the benchmark name BenchExec
    /// writes in it (`benchmarkname`, the definition file name without `.xml`).
    pub fn definition_by_benchmark_name(&self, name: &str) -> Option<&Definition> {
        self.definitions.get(&format!("{name}.xml"))
    }
}
