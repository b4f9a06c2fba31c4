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

/// Examples of missing or unexpected runs listed in the report (the counts
/// are complete; the lists stop here).
pub const MAX_LISTED_RUNS: usize = 50;

/// The runs of one solver x track x division against the runs manifest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct GroupAccount {
    /// Solver.
    pub solver: String,
    /// Track (empty when unknown: an unexpected run whose track was not found).
    pub track: String,
    /// Division (empty when unknown).
    pub division: String,
    /// Runs in the manifest.
    pub expected: u64,
    /// Manifest runs with a result (`expected = present + missing`).
    pub present: u64,
    /// Manifest runs without a result: each is an `error` record
    /// (`missing: no result for this run`).
    pub missing: u64,
    /// Present runs that BenchExec did not start or that gave no result
    /// (status `FAILED`, a run without columns, no status column).
    pub failed: u64,
    /// Runs in the results that are not in the manifest.
    pub unexpected: u64,
    /// Results beyond the first for the same manifest run (in two result files).
    pub duplicated: u64,
}

/// The results against the runs manifest (`--manifest`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ManifestAccounting {
    /// Totals over every group.
    pub total: GroupAccount,
    /// Per solver x track x division, sorted.
    pub groups: Vec<GroupAccount>,
    /// Runs read from the kept files: `present + duplicated + unexpected`.
    pub runs_read: u64,
    /// The first [`MAX_LISTED_RUNS`] missing runs (`definition: rundefinition: task`).
    pub missing_runs: Vec<String>,
    /// The first [`MAX_LISTED_RUNS`] runs that failed to start (`source: task`).
    pub failed_runs: Vec<String>,
    /// The first [`MAX_LISTED_RUNS`] unexpected runs (`source: task`).
    pub unexpected_runs: Vec<String>,
    /// The first [`MAX_LISTED_RUNS`] results beyond the first of a manifest
    /// run (`source: task`: the second result file holding it).
    pub duplicated_runs: Vec<String>,
}

impl ManifestAccounting {
    /// Whether runs are missing, failed to start or were found twice.
    pub fn incomplete(&self) -> bool {
        self.total.missing > 0 || self.total.failed > 0 || self.total.duplicated > 0
    }
}

/// The accounting of a whole ingestion.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Per input file, sorted by source.
    pub files: Vec<FileSummary>,
    /// Inputs that are not result files or cannot be walked.
    pub input_errors: Vec<String>,
    /// Remarks on the inputs (a file reached twice through a symbolic link).
    pub input_warnings: Vec<String>,
    /// The results against the runs manifest, when one was given.
    pub manifest: Option<ManifestAccounting>,
    /// Records written for manifest runs without a result (included in
    /// `records`, in `answers` as `error` and in `statuses` as `(missing)`).
    pub missing_records: u64,
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

    /// Whether the manifest accounting found missing, failed or duplicated runs
    /// (the command then exits with 1 unless `--allow-missing`).
    pub fn has_missing(&self) -> bool {
        self.manifest
            .as_ref()
            .is_some_and(ManifestAccounting::incomplete)
    }

    /// Adds the records written for missing manifest runs to the totals.
    pub fn add_missing_records(&mut self, n: u64) {
        if n == 0 {
            return;
        }
        self.missing_records += n;
        self.records += n;
        *self.answers.entry("error".into()).or_default() += n;
        *self.statuses.entry("(missing)".into()).or_default() += n;
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
        if let Some(m) = &self.manifest {
            let t = &m.total;
            let _ = writeln!(
                s,
                "manifest: {} expected, {} present, {} missing, {} failed to start, {} unexpected, {} duplicated ({} runs read = {} present + {} duplicated + {} unexpected)",
                t.expected,
                t.present,
                t.missing,
                t.failed,
                t.unexpected,
                t.duplicated,
                m.runs_read,
                t.present,
                t.duplicated,
                t.unexpected
            );
            for g in &m.groups {
                let _ = writeln!(
                    s,
                    "  {} / {} / {}: expected {}, present {}, missing {}, failed {}, unexpected {}, duplicated {}",
                    g.solver,
                    if g.track.is_empty() { "?" } else { &g.track },
                    if g.division.is_empty() {
                        "?"
                    } else {
                        &g.division
                    },
                    g.expected,
                    g.present,
                    g.missing,
                    g.failed,
                    g.unexpected,
                    g.duplicated
                );
            }
            let lists = [
                ("missing", t.missing, &m.missing_runs),
                ("failed to start", t.failed, &m.failed_runs),
                ("unexpected", t.unexpected, &m.unexpected_runs),
                ("duplicated", t.duplicated, &m.duplicated_runs),
            ];
            for (what, n, list) in lists {
                for r in list {
                    let _ = writeln!(s, "  {what}: {r}");
                }
                if n > list.len() as u64 {
                    let _ = writeln!(s, "  … and {} more {what}", n - list.len() as u64);
                }
            }
            if self.missing_records > 0 {
                let _ = writeln!(
                    s,
                    "{} missing runs written as error records (\"missing: no result for this run\")",
                    self.missing_records
                );
            }
        }
        for w in &self.input_warnings {
            let _ = writeln!(s, "warning: {w}");
        }
        for e in &self.input_errors {
            let _ = writeln!(s, "error: {e}");
        }
        s
    }
}
