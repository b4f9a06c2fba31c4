//! Benchmark statuses and run answers, with the stable names of the reference
//! tool's data files (`results-*.json.gz`, `benchmarks-*.json.gz`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The expected status of a benchmark (`set-info :status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Unsatisfiable.
    Unsat,
    /// Satisfiable.
    Sat,
    /// Not known.
    Unknown,
    /// An incremental benchmark (one status per check-sat).
    Incremental,
}

impl Status {
    /// The stable name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Unsat => "unsat",
            Status::Sat => "sat",
            Status::Unknown => "unknown",
            Status::Incremental => "incremental",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The outcome of one run, as stored in results files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Answer {
    /// `unsat`.
    #[serde(rename = "unsat")]
    Unsat,
    /// `sat`.
    #[serde(rename = "sat")]
    Sat,
    /// `unknown` (includes errors and crashes without an answer).
    #[serde(rename = "unknown")]
    Unknown,
    /// An incremental run (answers counted in `nb_answers`).
    #[serde(rename = "incremental")]
    Incremental,
    /// Memory limit hit.
    OutOfMemory,
    /// Time limit hit.
    Timeout,
    /// Model validation has not run yet.
    ModelNotValidated,
    /// The model does not satisfy the benchmark.
    ModelUnsat,
    /// The model could not be parsed.
    ModelParsingError,
    /// The model misses a function definition.
    ModelPartialFunctionMissing,
    /// The model validator failed.
    ModelValidatorException,
    /// The validator rejected the benchmark's typing.
    ModelValidatorBenchmarkStrictTyping,
    /// The model validator timed out.
    ModelValidatorTimeout,
    /// An incremental run with a wrong answer.
    IncrementalError,
    /// The unsat core was not validated (the reference tool's JSON spelling).
    #[serde(rename = "UnsatCoreNotValidated")]
    UnsatCoreInvalidated,
}

impl Answer {
    /// Whether this is a definite `sat`/`unsat` answer.
    pub fn is_definite(self) -> bool {
        matches!(self, Answer::Sat | Answer::Unsat)
    }

    /// Whether the answer contradicts a known status.
    pub fn contradicts(self, status: Status) -> bool {
        matches!(
            (self, status),
            (Answer::Sat, Status::Unsat) | (Answer::Unsat, Status::Sat)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_names_match_the_reference_files() {
        assert_eq!(
            serde_json::to_string(&Answer::Timeout).unwrap(),
            "\"Timeout\""
        );
        assert_eq!(serde_json::to_string(&Answer::Sat).unwrap(), "\"sat\"");
        assert_eq!(
            serde_json::to_string(&Answer::UnsatCoreInvalidated).unwrap(),
            "\"UnsatCoreNotValidated\""
        );
        assert_eq!(
            serde_json::from_str::<Status>("\"unknown\"").unwrap(),
            Status::Unknown
        );
        assert!(Answer::Sat.contradicts(Status::Unsat));
        assert!(!Answer::Timeout.contradicts(Status::Sat));
    }
}
