//! Tracks of the competition.
//!
//! A track is code, not data: each one has its own execution and scoring
//! semantics. Every track has a stable string name (the one used in
//! submissions and result files) and derived names used in file names.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A competition track, identified by its stable name (`SingleQuery`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Track {
    /// Single Query Track (before 2019: Main Track).
    SingleQuery,
    /// Incremental Track (before 2019: Application Track).
    Incremental,
    /// Unsat-Core Track.
    UnsatCore,
    /// Model-Validation Track.
    ModelValidation,
    /// Parallel Track.
    Parallel,
    /// Cloud Track.
    Cloud,
    /// Proof Exhibition Track (non-competitive).
    ProofExhibition,
    /// Internal: the runs that validate unsat cores (accepted in submissions).
    UnsatCoreValidation,
}

impl Track {
    /// Every track, in a fixed documentation order.
    pub const ALL: [Track; 8] = [
        Track::SingleQuery,
        Track::Incremental,
        Track::UnsatCore,
        Track::ModelValidation,
        Track::Parallel,
        Track::Cloud,
        Track::ProofExhibition,
        Track::UnsatCoreValidation,
    ];

    /// The stable name used in submissions, definitions and result files.
    pub fn name(self) -> &'static str {
        match self {
            Track::SingleQuery => "SingleQuery",
            Track::Incremental => "Incremental",
            Track::UnsatCore => "UnsatCore",
            Track::ModelValidation => "ModelValidation",
            Track::Parallel => "Parallel",
            Track::Cloud => "Cloud",
            Track::ProofExhibition => "ProofExhibition",
            Track::UnsatCoreValidation => "UnsatCoreValidation",
        }
    }

    /// Short name used in data file names (`results-<short>-<year>.json.gz`).
    pub fn short_name(self) -> &'static str {
        match self {
            Track::SingleQuery => "sq",
            Track::Incremental => "inc",
            Track::UnsatCore => "uc",
            Track::ModelValidation => "mv",
            Track::Parallel => "parallel",
            Track::Cloud => "cloud",
            Track::ProofExhibition => "pe",
            Track::UnsatCoreValidation => "uc_val",
        }
    }

    /// Suffix the reference tool appends to BenchExec file and tool names.
    pub fn benchexec_suffix(self) -> &'static str {
        match self {
            Track::SingleQuery => "",
            Track::Incremental => "_inc",
            Track::UnsatCore => "_unsatcore",
            Track::ModelValidation => "_model",
            Track::Parallel => "_parallel",
            Track::Cloud => "_cloud",
            Track::ProofExhibition => "_proof",
            Track::UnsatCoreValidation => "_unsatcorevalidation",
        }
    }

    /// Suffix used for the results web pages (`single-query`, ...).
    pub fn page_suffix(self) -> &'static str {
        match self {
            Track::SingleQuery => "single-query",
            Track::Incremental => "incremental",
            Track::UnsatCore => "unsat-core",
            Track::ModelValidation => "model-validation",
            Track::Parallel => "parallel",
            Track::Cloud => "cloud",
            Track::ProofExhibition => "proof-exhibition",
            Track::UnsatCoreValidation => "unsat-core-validation",
        }
    }

    /// Whether the track runs incremental benchmarks (through the trace executor).
    pub fn is_incremental(self) -> bool {
        self == Track::Incremental
    }
}

impl fmt::Display for Track {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for a string that names no track.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown track '{0}' (known: SingleQuery, Incremental, UnsatCore, ModelValidation, Parallel, Cloud, ProofExhibition, UnsatCoreValidation; also as single-query, ... or sq, inc, uc, mv, pe, uc_val)"
)]
pub struct UnknownTrack(pub String);

impl FromStr for Track {
    type Err = UnknownTrack;

    /// The one track-name parser of the command line and of names derived from
    /// generated files: the stable name (`SingleQuery`), the directory/page name
    /// (`single-query`) or the short name (`sq`, `inc`, ...), case-sensitively.
    /// (Submissions are read by serde, which takes the stable name only.)
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Track::ALL
            .into_iter()
            .find(|t| t.name() == s || t.short_name() == s || t.page_suffix() == s)
            .ok_or_else(|| UnknownTrack(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in Track::ALL {
            assert_eq!(t.name().parse::<Track>().unwrap(), t);
            assert_eq!(t.short_name().parse::<Track>().unwrap(), t);
            assert_eq!(t.page_suffix().parse::<Track>().unwrap(), t);
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, format!("\"{}\"", t.name()));
        }
    }

    #[test]
    fn unknown_track_is_an_error_naming_it() {
        let err = "singlequery".parse::<Track>().unwrap_err();
        assert!(err.to_string().contains("'singlequery'"));
    }
}
