//! Accounting: what was read from each input file and what was written.

use crate::formats::runtable::RunAnswer;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// What happened to one input file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FileSummary {
    /// The file, relative to its input root.
    pub source: String,
    /// `result-xml` or `results-json`.
    pub kind: &'static str,
    /// Runs (or rows) read from the file.
    pub runs: u64,
    /// Records written for it (equal to `runs` unless skipped as duplicates).
    pub records: u64,
    /// Records per BenchExec status (`(none)` when the column is missing).
    pub statuses: BTreeMap<String, u64>,
    /// Records per answer.
    pub answers: BTreeMap<String, u64>,
    /// Why the file (or its log archive) could not be read completely: these
    /// make the command exit with 1.
    pub unreadable: Vec<String>,
    /// Other remarks (partial file, missing log archive, duplicate file).
    pub warnings: Vec<String>,
}

/// The accounting of a whole ingestion.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Per input file, sorted by source.
    pub files: Vec<FileSummary>,
    /// Inputs that are not result files or cannot be walked.
    pub input_errors: Vec<String>,
    /// Total records written.
    pub records: u64,
    /// Records per answer.
    pub answers: BTreeMap<String, u64>,
    /// Records per BenchExec status.
    pub statuses: BTreeMap<String, u64>,
}

impl Summary {
    /// Builds the totals from the per-file summaries.
    pub fn new(mut files: Vec<FileSummary>, input_errors: Vec<String>) -> Summary {
        files.sort_by(|a, b| a.source.cmp(&b.source));
        let mut s = Summary {
            input_errors,
            ..Default::default()
        };
        for f in &files {
            s.records += f.records;
            for (k, v) in &f.answers {
                *s.answers.entry(k.clone()).or_default() += v;
            }
            for (k, v) in &f.statuses {
                *s.statuses.entry(k.clone()).or_default() += v;
            }
        }
        s.files = files;
        s
    }

    /// Whether some input could not be read (the command then exits with 1).
    pub fn has_unreadable(&self) -> bool {
        !self.input_errors.is_empty() || self.files.iter().any(|f| !f.unreadable.is_empty())
    }

    /// The human-readable report.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} records from {} files",
            self.records,
            self.files.len()
        );
        for f in &self.files {
            let statuses: Vec<String> = f
                .statuses
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect();
            let _ = writeln!(
                s,
                "  {}: {} runs, {} records [{}]",
                f.source,
                f.runs,
                f.records,
                statuses.join(", ")
            );
            for u in &f.unreadable {
                let _ = writeln!(s, "    error: {u}");
            }
            for w in &f.warnings {
                let _ = writeln!(s, "    warning: {w}");
            }
        }
        let answers: Vec<String> = RunAnswer::ALL
            .iter()
            .filter_map(|a| self.answers.get(a.as_str()).map(|n| format!("{a}: {n}")))
            .collect();
        let _ = writeln!(s, "answers: {}", answers.join(", "));
        for e in &self.input_errors {
            let _ = writeln!(s, "error: {e}");
        }
        s
    }
}
