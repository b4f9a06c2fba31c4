//! Borrowed views of one run-table line ([`IngestLine`], the fields of an
//! [`IngestRecord`]) and of one results record ([`RunRecordLine`], the fields of
//! a [`RunRecord`]): `smtcomp score` reads 500,000-line tables, and the owned
//! records allocate a dozen strings per line that scoring never looks at.
//!
//! Each view has its record's fields, names, types and required-ness, with
//! `&str` where the record has `String`: a line a view accepts is accepted by the
//! record with the same values. A string with an escape cannot be borrowed, so
//! such a line is rejected by the view; readers then parse the owned record (the
//! view accepts a subset of the lines, never more).
//!
//! [`IngestRecord`]: crate::formats::runtable::IngestRecord
//! [`RunRecord`]: crate::formats::results::RunRecord

use crate::formats::runtable::{
    Guessed, IncrementalData, Limit, ModelRef, ProofData, RunAnswer, UnsatCore,
};
use crate::formats::verdict::Verdict;
use crate::model::{Answer, Track};
use serde::Deserialize;

/// A benchmark identity ([`Smt2File`](crate::benchmarks::Smt2File)), borrowed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Smt2FileRef<'a> {
    /// Whether it is an incremental benchmark.
    pub incremental: bool,
    /// Its logic.
    pub logic: &'a str,
    /// Family path parts.
    #[serde(borrow)]
    pub family: Vec<&'a str>,
    /// File name.
    pub name: &'a str,
}

/// [`LogRef`](crate::formats::runtable::LogRef), borrowed.
#[derive(Debug, Deserialize)]
pub struct LogRefLine<'a> {
    /// The log archive.
    pub archive: &'a str,
    /// The member inside it.
    pub member: &'a str,
}

/// One run-table line, borrowed (see the module doc). The fields scoring does
/// not use are parsed (checked) and dropped.
#[derive(Debug, Deserialize)]
pub struct IngestLine<'a> {
    /// The file the run came from.
    pub source: &'a str,
    /// The run's task identifier.
    pub task: &'a str,
    /// The rundefinition name.
    pub rundefinition: Option<&'a str>,
    /// Solver name.
    pub solver: &'a str,
    /// Participation index.
    pub participation: Option<u32>,
    /// Track.
    pub track: Option<Track>,
    /// Division.
    pub division: Option<&'a str>,
    /// Logic.
    pub logic: Option<&'a str>,
    /// Benchmark identity.
    #[serde(borrow)]
    pub benchmark: Option<Smt2FileRef<'a>>,
    /// Stable benchmark key.
    pub benchmark_key: &'a str,
    /// Guessed identity fields.
    pub guessed: Vec<Guessed>,
    /// BenchExec status.
    pub status: Option<&'a str>,
    /// BenchExec category.
    pub category: Option<&'a str>,
    /// Our answer.
    pub answer: RunAnswer,
    /// The limit hit while answering.
    pub limit_hit: Option<Limit>,
    /// Why the answer is `error`.
    pub error: Option<&'a str>,
    /// Remarks.
    #[serde(borrow)]
    pub notes: Vec<&'a str>,
    /// CPU time in seconds.
    pub cputime: Option<f64>,
    /// Wall time in seconds.
    pub walltime: Option<f64>,
    /// Peak memory in bytes.
    pub memory: Option<u64>,
    /// Exit code.
    pub exitcode: Option<i32>,
    /// Signal.
    pub exitsignal: Option<i32>,
    /// BenchExec's termination reason.
    pub terminationreason: Option<&'a str>,
    /// The answer line of the output.
    pub output_answer: Option<&'a str>,
    /// Where the log is.
    #[serde(borrow)]
    pub log: Option<LogRefLine<'a>>,
    /// Incremental track data.
    #[serde(default)]
    pub incremental: Option<IncrementalData>,
    /// Unsat core.
    #[serde(default)]
    pub unsat_core: Option<UnsatCore>,
    /// Model location.
    #[serde(default)]
    pub model: Option<ModelRef>,
    /// Proof checker verdict.
    #[serde(default)]
    pub proof: Option<ProofData>,
    /// Imported results: the original `result`.
    #[serde(default)]
    pub anchor_result: Option<Answer>,
    /// Imported results: the original `nb_answers`.
    #[serde(default)]
    pub nb_answers: Option<u64>,
    /// Validation verdict.
    #[serde(default)]
    pub validation: Option<Verdict>,
}

/// One results record, borrowed (see the module doc).
#[derive(Debug, Deserialize)]
pub struct RunRecordLine<'a> {
    /// Track.
    pub track: Track,
    /// Solver name.
    pub solver: &'a str,
    /// Benchmark.
    #[serde(borrow)]
    pub file: Smt2FileRef<'a>,
    /// Outcome.
    pub result: Answer,
    /// CPU time in seconds.
    pub cpu_time: f64,
    /// Wall-clock time in seconds.
    pub wallclock_time: f64,
    /// Peak memory in bytes.
    pub memory_usage: f64,
    /// Incremental: number of answers; unsat core: core size.
    #[serde(default)]
    pub nb_answers: Option<u64>,
}

/// A results file (`{"results": [...]}`, [`ResultsFile`](crate::formats::results::ResultsFile)),
/// borrowed (see the module doc).
#[derive(Debug, Deserialize)]
pub struct ResultsFileView<'a> {
    /// The runs.
    #[serde(borrow)]
    pub results: Vec<RunRecordLine<'a>>,
}
