//! The generation manifest (`EXECDIR/manifest.json`): everything `generate` wrote,
//! so that results ingestion maps each BenchExec run back to its solver,
//! participation, track, division, logic and benchmark without parsing names.
//!
//! Every collection is a map with a stable key (never a list position):
//! definitions by file name, rundefinitions by name, tasks by path. The schema
//! is documented in `docs/benchexec.md`.

use crate::formats::datafile::{self, DataFileError};
use crate::formats::inventory::{Smt2File, Smt2FileRef};
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
    /// The generated per-solver tool-info modules, keyed by module name
    /// (`tools.smtcomp_tool_z3`, file `tools/smtcomp_tool_z3.py`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tools: BTreeMap<String, ToolModule>,
}

impl Manifest {
    /// The number of runs of every definition (tasks x rundefinitions).
    pub fn run_count(&self) -> usize {
        self.definitions
            .values()
            .flat_map(|d| d.rundefinitions.values())
            .map(|r| r.tasks)
            .sum()
    }
}

/// One generated tool-info module: a subclass of a track's module (`smtcomp_tool`,
/// `smtcomp_incremental`, `smtcomp_proof`) that knows its solver, so that
/// `executable()` resolves with `--tool-directory` and `program_files()` names
/// everything a remote executor must upload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolModule {
    /// The module it extends (`smtcomp_tool`).
    pub base: String,
    /// The solver (submission name, verbatim): the module's `name()`.
    pub solver: String,
    /// The module's `version()`: from the submission's archive (hash or file name).
    pub version: String,
    /// The solver binary of the first participation (relative to the execution
    /// directory, absolute, or a bare name on `PATH`): `executable()` of the
    /// file-based module.
    pub binary: String,
    /// Directories or files (relative to the execution directory, or absolute) the
    /// runs need besides the executable: the participations' unpacked archives.
    pub program_files: Vec<String>,
    /// Incremental: the trace executor gets `--continue-after-unknown` (the
    /// track definition's `continue_after_unknown`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub continue_after_unknown: bool,
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
    /// When set, the definition runs only part of its tasks (one heat, one chunk of
    /// at most `generate --max-tasks`), listed one by one; otherwise every task of
    /// its logics (one pattern per logic). See [`Manifest::definition_tasks`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<TaskSelection>,
}

/// The part of a definition's tasks it runs: of the tasks of its track and of
/// `logics` (logic order, then path order), those of `heat`, from position
/// `offset`, `len` of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskSelection {
    /// Only tasks of this heat (`None`: tasks without a heat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heat: Option<u32>,
    /// The logics of the unsplit definition (of all its rundefinitions).
    pub logics: Vec<Logic>,
    /// Position of the first task.
    pub offset: usize,
    /// Number of tasks.
    pub len: usize,
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
    /// The participation's unpacked archive (relative to the execution directory,
    /// or absolute), `None` for a solver on `PATH`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<String>,
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
    /// Heat (1-based) of the selection, if it had heats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heat: Option<u32>,
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
        self.write_runs(&execdir.join(RUNS_FILE))?;
        datafile::write_json(&execdir.join(MANIFEST_FILE), self)
    }

    /// Writes [`Manifest::runs`] to `path` (gzip) without building it: each
    /// definition's runs are serialized from borrowed fields and compressed as one
    /// gzip member, definitions in parallel, members in definition order (the
    /// decompressed JSON is exactly `serde_json::to_writer(&self.runs())` plus a
    /// newline; readers take multi-member gzip).
    pub fn write_runs(&self, path: &Path) -> Result<(), DataFileError> {
        let index = self.by_track_logic();
        write_runs_with(path, &self.definitions, |d| {
            definition_tasks(&index, d)
                .into_iter()
                .map(|(task, t)| RunTask {
                    task: std::borrow::Cow::Borrowed(task.as_str()),
                    logic: t.logic.as_str(),
                    benchmark: t.original.borrowed(),
                })
                .collect()
        })
    }

    /// The tasks definition `d` runs (some rundefinitions only those of their
    /// logics): of its track and the logics of its rundefinitions, in logic then
    /// path order, restricted to its [`TaskSelection`].
    pub fn definition_tasks<'a>(&'a self, d: &Definition) -> Vec<(&'a String, &'a TaskEntry)> {
        definition_tasks(&self.by_track_logic(), d)
    }

    /// Tasks by (track, logic), in path order.
    pub fn by_track_logic(&self) -> BTreeMap<(Track, &str), Vec<(&String, &TaskEntry)>> {
        let mut by_track_logic: BTreeMap<(Track, &str), Vec<(&String, &TaskEntry)>> =
            BTreeMap::new();
        for (path, t) in &self.tasks {
            by_track_logic
                .entry((t.track, t.logic.as_str()))
                .or_default()
                .push((path, t));
        }
        by_track_logic
    }

    /// The flat per-run form that `smtcomp ingest --manifest` reads: one entry per
    /// (definition, rundefinition, task), sorted by those keys.
    pub fn runs(&self) -> crate::formats::runs_manifest::Manifest {
        let by_track_logic = self.by_track_logic();
        let mut runs = Vec::new();
        for (file, d) in &self.definitions {
            let tasks = definition_tasks(&by_track_logic, d);
            for (name, rd) in &d.rundefinitions {
                for (path, t) in &tasks {
                    if !rd.logics.contains(&t.logic) {
                        continue;
                    }
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

/// A [`crate::formats::runs_manifest::ManifestRun`] of borrowed fields: the same
/// JSON (field names and order), without cloning.
#[derive(Serialize)]
struct RunRef<'a> {
    benchmark_definition: &'a str,
    rundefinition: &'a str,
    task: &'a str,
    solver: &'a str,
    participation: u32,
    track: Track,
    division: &'a Division,
    logic: &'a str,
    benchmark: Smt2FileRef<'a>,
}

/// One task of a definition, as the runs manifest needs it.
#[derive(Debug, Clone)]
pub struct RunTask<'a> {
    /// The task path (`tasks/single-query/QF_BV/scrambled12.yml`).
    pub task: std::borrow::Cow<'a, str>,
    /// Its logic.
    pub logic: &'a str,
    /// Its original benchmark.
    pub benchmark: Smt2FileRef<'a>,
}

/// A [`TaskEntry`] of borrowed fields: the same JSON (field names, order and
/// omitted fields), for writing `manifest.json` from compact storage.
#[derive(Debug, Serialize)]
pub struct TaskEntryRef<'a> {
    /// The track.
    pub track: Track,
    /// The logic.
    pub logic: &'a str,
    /// Division of the logic in the track.
    pub division: &'a str,
    /// The prepared file relative to the YAML's directory.
    pub input_file: &'a str,
    /// The prepared file relative to the prepared root.
    pub prepared: &'a str,
    /// The original benchmark.
    pub original: Smt2FileRef<'a>,
    /// Expected status.
    pub status: Status,
    /// Incremental: expected answer of each check-sat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<&'a [Status]>,
    /// BenchExec expected verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_verdict: Option<bool>,
    /// Heat (1-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heat: Option<u32>,
}

impl TaskEntry {
    /// The borrowed form (serialized the same way).
    pub fn borrowed(&self) -> TaskEntryRef<'_> {
        TaskEntryRef {
            track: self.track,
            logic: self.logic.as_str(),
            division: self.division.as_str(),
            input_file: &self.input_file,
            prepared: &self.prepared,
            original: self.original.borrowed(),
            status: self.status,
            expected: self.expected.as_deref(),
            expected_verdict: self.expected_verdict,
            heat: self.heat,
        }
    }
}

/// Writes the runs manifest of `definitions` to `path` (gzip) without building
/// it ([`Manifest::write_runs`]): `tasks_of(d)` gives the tasks definition `d`
/// runs, in order ([`definition_tasks`]). Each definition's runs are serialized
/// and compressed as one gzip member, definitions in parallel in bounded batches,
/// members in definition order (the decompressed JSON is exactly
/// `serde_json::to_writer(&manifest.runs())` plus a newline; readers take
/// multi-member gzip).
pub fn write_runs_with<'d, F>(
    path: &Path,
    definitions: &'d BTreeMap<String, Definition>,
    tasks_of: F,
) -> Result<(), DataFileError>
where
    F: Fn(&'d Definition) -> Vec<RunTask<'d>> + Sync,
{
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use rayon::prelude::*;
    use std::io::Write;

    let err = |e: std::io::Error| DataFileError::new(path, format!("cannot write: {e}"));
    let member = |text: &[u8]| -> std::io::Result<Vec<u8>> {
        let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
        gz.write_all(text)?;
        gz.finish()
    };
    let defs: Vec<(&String, &Definition)> = definitions.iter().collect();
    // Whether a run was written before definition k (for the separating comma).
    let mut before = Vec::with_capacity(defs.len());
    let mut any = false;
    for (_, d) in &defs {
        before.push(any);
        any |= d.rundefinitions.values().any(|rd| rd.tasks > 0);
    }
    let definition_member = |file: &String, d: &'d Definition, comma: bool| {
        let mut text = Vec::new();
        let mut first = !comma;
        let tasks = tasks_of(d);
        for (name, rd) in &d.rundefinitions {
            for t in &tasks {
                if !rd.logics.iter().any(|l| l.as_str() == t.logic) {
                    continue;
                }
                if !first {
                    text.push(b',');
                }
                first = false;
                serde_json::to_writer(
                    &mut text,
                    &RunRef {
                        benchmark_definition: file,
                        rundefinition: name,
                        task: &t.task,
                        solver: &d.solver,
                        participation: rd.participation as u32,
                        track: d.track,
                        division: &d.division,
                        logic: t.logic,
                        benchmark: t.benchmark,
                    },
                )
                .map_err(std::io::Error::other)?;
            }
        }
        if text.is_empty() {
            Ok(Vec::new())
        } else {
            member(&text)
        }
    };
    datafile::write_replacing(path, |file| {
        let mut w = std::io::BufWriter::new(file);
        w.write_all(&member(
            format!(
                "{{\"format\":{},\"runs\":[",
                crate::formats::runs_manifest::MANIFEST_FORMAT
            )
            .as_bytes(),
        )?)?;
        // Bounded batches, each written as soon as it is compressed: at most
        // this many definitions' runs in memory at once.
        for batch in defs.chunks(64).zip(before.chunks(64)) {
            let parts: Vec<std::io::Result<Vec<u8>>> = batch
                .0
                .par_iter()
                .zip(batch.1.par_iter())
                .map(|((file, d), comma)| definition_member(file, d, *comma))
                .collect();
            for part in parts {
                w.write_all(&part?)?;
            }
        }
        w.write_all(&member(b"]}\n")?)?;
        w.flush()
    })
    .map_err(err)
}

/// [`Manifest::definition_tasks`] with the index of [`Manifest::by_track_logic`].
pub fn definition_tasks<'a>(
    index: &BTreeMap<(Track, &str), Vec<(&'a String, &'a TaskEntry)>>,
    d: &Definition,
) -> Vec<(&'a String, &'a TaskEntry)> {
    let logics: std::collections::BTreeSet<&str> = match &d.selection {
        Some(sel) => sel.logics.iter().map(Logic::as_str).collect(),
        None => d
            .rundefinitions
            .values()
            .flat_map(|rd| rd.logics.iter().map(Logic::as_str))
            .collect(),
    };
    let all = logics
        .into_iter()
        .flat_map(|l| {
            index
                .get(&(d.track, l))
                .map(Vec::as_slice)
                .unwrap_or_default()
        })
        .copied();
    match &d.selection {
        None => all.collect(),
        Some(sel) => all
            .filter(|(_, t)| t.heat == sel.heat)
            .skip(sel.offset)
            .take(sel.len)
            .collect(),
    }
}
