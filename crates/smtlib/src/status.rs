//! The three possible answers to a `check-sat`.

use std::fmt;

/// A `check-sat` answer or expectation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// `sat`
    Sat,
    /// `unsat`
    Unsat,
    /// `unknown`
    Unknown,
}

impl Status {
    /// Parses the exact word `sat`, `unsat` or `unknown`.
    pub fn parse(word: &[u8]) -> Option<Status> {
        match word {
            b"sat" => Some(Status::Sat),
            b"unsat" => Some(Status::Unsat),
            b"unknown" => Some(Status::Unknown),
            _ => None,
        }
    }

    /// The SMT-LIB spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
