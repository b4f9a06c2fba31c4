//! Located problems: what is wrong, where (file and place in it: a JSON path,
//! `line N`, `run NAME`) and how bad. Every stage reports input problems this
//! way, so the command line prints them in one format
//! (`FILE: PLACE: error|warning: message`) and maps them to one exit code.

use serde::Serialize;
use std::fmt;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Breaks the schema or the rules: `validate` fails.
    Error,
    /// Worth a look, but the submission is usable as written.
    Warning,
}

/// One problem in one input file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The file, as given on the command line.
    pub file: String,
    /// Where in the file: a JSON path (`$.participations[1].logics`, `$` for the
    /// whole file), `line N`, `run NAME`. Serialized as `path` (the field name
    /// of `submissions validate --json`).
    #[serde(rename = "path")]
    pub place: String,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, and how to fix it.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}: {}: {}: {}",
            self.file, self.place, sev, self.message
        )
    }
}

/// Collects problems for one file.
#[derive(Debug, Default)]
pub struct Problems {
    file: String,
    list: Vec<Problem>,
}

impl Problems {
    /// An empty collector for `file`.
    pub fn new(file: impl Into<String>) -> Self {
        Problems {
            file: file.into(),
            list: Vec::new(),
        }
    }

    /// Records an error at `place`.
    pub fn error(&mut self, place: &str, message: impl Into<String>) {
        self.push(place, Severity::Error, message.into());
    }

    /// Records a warning at `place`.
    pub fn warning(&mut self, place: &str, message: impl Into<String>) {
        self.push(place, Severity::Warning, message.into());
    }

    fn push(&mut self, place: &str, severity: Severity, message: String) {
        self.list.push(Problem {
            file: self.file.clone(),
            place: place.to_string(),
            severity,
            message,
        });
    }

    /// Whether any error was recorded.
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|p| p.severity == Severity::Error)
    }

    /// The problems, in the order found.
    pub fn into_vec(self) -> Vec<Problem> {
        self.list
    }
}
