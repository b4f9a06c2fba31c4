//! Import of the reference tool's published `results-*.json.gz` files
//! (anchor spec 10.2) into [`IngestRecord`]s, so past competitions can be
//! re-scored and used for selection.
//!
//! | `result` | `answer` |
//! |---|---|
//! | `sat`, `unsat`, `unknown` | the same |
//! | `Incremental` | `done` (with `incremental.correct` = `nb_answers`) |
//! | `Timeout` / `OutOfMemory` | `timeout` / `memout` |
//! | `Model*` (validation verdicts of sat answers) | `sat` |
//! | `UnsatCoreNotValidated` | `unsat` |
//! | `IncrementalError` | `error` |
//!
//! The original value is kept in `anchor_result`, and `nb_answers` verbatim.

use crate::formats::datafile::DataFileError;
use crate::formats::results::{ResultsFile, RunRecord};
use crate::formats::runtable::{IncrementalData, IngestRecord, RunAnswer};
use crate::model::{Answer, Competition, Track};
use std::path::Path;

/// Our answer for an imported `result`.
pub fn answer_of(a: Answer) -> RunAnswer {
    match a {
        Answer::Sat
        | Answer::ModelNotValidated
        | Answer::ModelUnsat
        | Answer::ModelParsingError
        | Answer::ModelPartialFunctionMissing
        | Answer::ModelValidatorException
        | Answer::ModelValidatorBenchmarkStrictTyping
        | Answer::ModelValidatorTimeout => RunAnswer::Sat,
        Answer::Unsat | Answer::UnsatCoreInvalidated => RunAnswer::Unsat,
        Answer::Unknown => RunAnswer::Unknown,
        Answer::Incremental => RunAnswer::Done,
        Answer::OutOfMemory => RunAnswer::Memout,
        Answer::Timeout => RunAnswer::Timeout,
        Answer::IncrementalError => RunAnswer::Error,
    }
}

/// Converts one results-file row.
pub fn convert(source: &str, r: &RunRecord, comp: &Competition) -> IngestRecord {
    let mut rec = IngestRecord::new(source, r.file.path());
    rec.solver = r.solver.clone();
    rec.track = Some(r.track);
    rec.logic = Some(r.file.logic.clone());
    rec.division = comp
        .track(r.track)
        .and_then(|t| t.division_of(r.file.logic.as_str()))
        .cloned();
    rec.benchmark_key = r.file.path();
    rec.benchmark = Some(r.file.clone());
    rec.answer = answer_of(r.result);
    if r.result == Answer::IncrementalError {
        rec.error = Some("IncrementalError in the imported results".into());
    }
    rec.cputime = Some(r.cpu_time);
    rec.walltime = Some(r.wallclock_time);
    // A negative or absurd time would change a ranking: the row is an error.
    for (what, t) in [
        ("cpu_time", r.cpu_time),
        ("wallclock_time", r.wallclock_time),
    ] {
        if !super::file::plausible_seconds(t) && rec.error.is_none() {
            rec.answer = RunAnswer::Error;
            rec.error = Some(format!(
                "bad {what} value {t} in {source}, row {} (not a time between 0 and {} s)",
                rec.task,
                super::file::MAX_PLAUSIBLE_SECONDS
            ));
            rec.cputime = None;
            rec.walltime = None;
        }
    }
    rec.memory = Some(r.memory_usage.max(0.0).round() as u64);
    rec.anchor_result = Some(r.result);
    rec.nb_answers = r.nb_answers;
    if r.track == Track::Incremental {
        rec.incremental = Some(IncrementalData {
            correct: r.nb_answers.unwrap_or(0),
            ..Default::default()
        });
    }
    rec
}

/// Reads a results file and converts every row.
pub fn import(
    path: &Path,
    source: &str,
    comp: &Competition,
) -> Result<Vec<IngestRecord>, DataFileError> {
    // Whole-buffer parsing is several times faster than serde_json's reader.
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut crate::formats::datafile::open(path)?, &mut bytes).map_err(
        |e| {
            DataFileError::new(
                path,
                format!("cannot read (truncated or corrupt gzip?): {e}"),
            )
        },
    )?;
    let file: ResultsFile = serde_json::from_slice(&bytes)
        .map_err(|e| DataFileError::new(path, format!("invalid content: {e}")))?;
    Ok(file
        .results
        .iter()
        .map(|r| convert(source, r, comp))
        .collect())
}
