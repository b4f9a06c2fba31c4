//! The normalized run record and its JSON Lines (`.jsonl`, `.jsonl.gz`) format.
//!
//! One line per run, fields in a fixed order, absent values as `null` (or left
//! out for the optional track data), floats in Rust's shortest round-trip
//! notation, so the same records always give the same bytes.

use crate::formats::inventory::Smt2File;
use crate::model::{Answer, Division, Logic, Track};
use crate::proof::kv::KeyValues;
use crate::proof::verdict::ProofVerdict;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

pub use crate::formats::run_answer::RunAnswer;

/// A resource limit that was hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Limit {
    /// CPU or wall time.
    Timeout,
    /// Memory.
    Memout,
}

/// Which identity fields were derived from the XML instead of a manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Guessed {
    /// `solver` (from the rundefinition name or the `tool` attribute).
    Solver,
    /// `participation` (from the rundefinition name).
    Participation,
    /// `track` (from the rundefinition name or the task path).
    Track,
    /// `logic` (from the task path).
    Logic,
    /// `division` (from the track and logic).
    Division,
    /// `benchmark` / `benchmark_key` (from the task path).
    Benchmark,
}

/// Where in the log ZIP a run's log is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogRef {
    /// The log archive (`….logfiles.zip`) or log directory, relative to the
    /// ingested root (as in `source`).
    pub archive: String,
    /// The member (or file) name inside it.
    pub member: String,
}

/// Incremental-track data from the trace executor's output.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IncrementalData {
    /// Correct answers: lines exactly `sat` or `unsat` before any `WRONG` line.
    pub correct: u64,
    /// The first wrong answer, if any.
    pub wrong: Option<WrongAnswer>,
    /// The last `time <seconds>` line (the time of the last sat/unsat answer).
    pub last_answer_time: Option<f64>,
    /// The first `BAD …` line (protocol problem; earlier answers still count).
    pub bad: Option<String>,
}

/// A `WRONG solver response: got X, expected Y` line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrongAnswer {
    /// 1-based index of the check-sat answered wrongly (correct answers + 1).
    pub index: u64,
    /// What the solver said.
    pub got: String,
    /// What was expected.
    pub expected: String,
}

/// An unsat core as printed after `unsat`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnsatCore {
    /// The names, bars of quoted symbols removed, sorted, duplicates removed.
    pub names: Vec<String>,
}

/// Where the model text of a model-validation run is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelRef {
    /// The log holding the model.
    pub log: LogRef,
    /// Byte offset of the model text in the (uncompressed) log.
    pub start: u64,
    /// Byte offset just after it.
    pub end: u64,
}

/// Proof-exhibition data (from [`crate::proof::verdict::interpret`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofData {
    /// The checker's verdict.
    pub verdict: ProofVerdict,
    /// Every well-formed `key=value` line, in order.
    pub values: KeyValues,
}

/// One run, normalized. See `docs/ingest.md` for every field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IngestRecord {
    /// The file the run came from, relative to the ingested root.
    pub source: String,
    /// The run's task identifier (`run@name`, verbatim), or the benchmark path
    /// for imported results files.
    pub task: String,
    /// The rundefinition name (`None` for imported results files).
    pub rundefinition: Option<String>,
    /// Solver name.
    pub solver: String,
    /// Participation index in the submission (`None` when unknown).
    pub participation: Option<u32>,
    /// Track (`None` when it could not be determined; the answer is then `error`).
    pub track: Option<Track>,
    /// Division of the logic in the track (`None` if the competition has none).
    pub division: Option<Division>,
    /// Logic.
    pub logic: Option<Logic>,
    /// Benchmark identity, when known.
    pub benchmark: Option<Smt2File>,
    /// Stable benchmark key: `benchmark.path()` when known, else the task path
    /// from the logic directory on (`QF_BV/123_x.yml`).
    pub benchmark_key: String,
    /// Identity fields that were derived from the XML (no manifest entry).
    pub guessed: Vec<Guessed>,
    /// BenchExec status, verbatim.
    pub status: Option<String>,
    /// BenchExec category, verbatim.
    pub category: Option<String>,
    /// Our answer.
    pub answer: RunAnswer,
    /// Set when the answer was given but a limit was hit (`TIMEOUT (true)`):
    /// the answer counts and this says which limit.
    pub limit_hit: Option<Limit>,
    /// Why the answer is `error` (or why a field is missing).
    pub error: Option<String>,
    /// Non-fatal remarks (log missing for a track that does not need it, …).
    pub notes: Vec<String>,
    /// CPU time in seconds.
    pub cputime: Option<f64>,
    /// Wall time in seconds.
    pub walltime: Option<f64>,
    /// Peak memory in bytes.
    pub memory: Option<u64>,
    /// Exit code (when the tool exited normally).
    pub exitcode: Option<i32>,
    /// Signal that killed the tool.
    pub exitsignal: Option<i32>,
    /// BenchExec's termination reason (`cputime`, `memory`, …).
    pub terminationreason: Option<String>,
    /// The first `sat`/`unsat`/`unknown`-position line of the tool output
    /// (the line that decides single-query answers), when the log was read.
    pub output_answer: Option<String>,
    /// Where the log is (when it was found).
    pub log: Option<LogRef>,
    /// Incremental track data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incremental: Option<IncrementalData>,
    /// Unsat-core track: the core (`None` when no core was printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsat_core: Option<UnsatCore>,
    /// Model-validation track: the model text location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelRef>,
    /// Proof-exhibition track: the checker verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofData>,
    /// Imported results files: the original `result` value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor_result: Option<Answer>,
    /// Imported results files: the original `nb_answers`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nb_answers: Option<u64>,
    /// Unsat-core / model validation verdict, written by `smtcomp validate-cores
    /// join` and `smtcomp validate-models` (see `docs/validation.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<crate::formats::verdict::Verdict>,
}

impl IngestRecord {
    /// A record with only the identity set (answer `error`, everything else empty).
    pub fn new(source: impl Into<String>, task: impl Into<String>) -> IngestRecord {
        IngestRecord {
            source: source.into(),
            task: task.into(),
            rundefinition: None,
            solver: String::new(),
            participation: None,
            track: None,
            division: None,
            logic: None,
            benchmark: None,
            benchmark_key: String::new(),
            guessed: Vec::new(),
            status: None,
            category: None,
            answer: RunAnswer::Error,
            limit_hit: None,
            error: None,
            notes: Vec::new(),
            cputime: None,
            walltime: None,
            memory: None,
            exitcode: None,
            exitsignal: None,
            terminationreason: None,
            output_answer: None,
            log: None,
            incremental: None,
            unsat_core: None,
            model: None,
            proof: None,
            anchor_result: None,
            nb_answers: None,
            validation: None,
        }
    }

    /// The canonical sort key: track, solver, participation, benchmark, then
    /// where the run came from (so ties are still ordered).
    pub fn sort_key(&self) -> SortKey<'_> {
        SortKey {
            track: self.track,
            solver: Cow::Borrowed(&self.solver),
            participation: self.participation,
            benchmark_key: Cow::Borrowed(&self.benchmark_key),
            rundefinition: self.rundefinition.as_deref().map(Cow::Borrowed),
            source: Cow::Borrowed(&self.source),
            task: Cow::Borrowed(&self.task),
        }
    }
}

/// The canonical order of records, compared field by field in declaration
/// order. Borrowed from a record ([`IngestRecord::sort_key`]) or owned (read
/// back from an ingestion spill file, where it is stored as JSON).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SortKey<'a> {
    /// Track (`None` first).
    pub track: Option<Track>,
    /// Solver name.
    pub solver: Cow<'a, str>,
    /// Participation index.
    pub participation: Option<u32>,
    /// Benchmark key.
    pub benchmark_key: Cow<'a, str>,
    /// Rundefinition name.
    pub rundefinition: Option<Cow<'a, str>>,
    /// Source file.
    pub source: Cow<'a, str>,
    /// Task identifier.
    pub task: Cow<'a, str>,
}

/// Sorts records into the canonical order ([`IngestRecord::sort_key`]).
/// The sort is stable: records with equal keys keep their input order, so a
/// k-way merge of per-file sorted runs that breaks ties by file order (the
/// streaming ingestion, `ingest::spill`) gives exactly the same order.
pub fn sort_records(records: &mut [IngestRecord]) {
    use rayon::slice::ParallelSliceMut;
    records.par_sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
}
