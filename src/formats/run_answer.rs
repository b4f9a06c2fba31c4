//! What we made of one run: the answer of the run table ([`RunAnswer`]); its
//! own file so that the run table and the validation verdicts both use it
//! without importing each other.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Our interpretation of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunAnswer {
    /// The solver answered `sat`.
    Sat,
    /// The solver answered `unsat`.
    Unsat,
    /// The solver answered `unknown` (or nothing, without a crash or limit).
    Unknown,
    /// An incremental run that ended normally (its answers are in `incremental`).
    Done,
    /// The time limit was hit before an answer.
    Timeout,
    /// The memory limit was hit before an answer.
    Memout,
    /// The run crashed, failed, or cannot be interpreted (see `error`).
    Error,
}

impl RunAnswer {
    /// Every answer, in the order used by summaries.
    pub const ALL: [RunAnswer; 7] = [
        RunAnswer::Sat,
        RunAnswer::Unsat,
        RunAnswer::Unknown,
        RunAnswer::Done,
        RunAnswer::Timeout,
        RunAnswer::Memout,
        RunAnswer::Error,
    ];

    /// The stable lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            RunAnswer::Sat => "sat",
            RunAnswer::Unsat => "unsat",
            RunAnswer::Unknown => "unknown",
            RunAnswer::Done => "done",
            RunAnswer::Timeout => "timeout",
            RunAnswer::Memout => "memout",
            RunAnswer::Error => "error",
        }
    }
}

impl fmt::Display for RunAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
