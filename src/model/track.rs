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

/// Error for a string that names no track: the name, the closest known names
/// (edit distance at most 3 after normalising) and the list of tracks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTrack(pub String);

impl UnknownTrack {
    /// The known spellings closest to the unknown name (best first, at most three).
    pub fn suggestions(&self) -> Vec<&'static str> {
        let wanted = normalise(&self.0);
        let mut scored: Vec<(usize, &'static str)> = Track::ALL
            .into_iter()
            .flat_map(|t| [t.name(), t.page_suffix(), t.short_name()])
            .map(|n| (edit_distance(&wanted, &normalise(n)), n))
            .filter(|&(d, n)| d <= 3 && d < normalise(n).len())
            .collect();
        scored.sort();
        let mut out: Vec<&'static str> = Vec::new();
        for (_, n) in scored {
            // One spelling per track: the first (closest) one.
            let t: Track = n.parse().expect("a known name");
            if !out.iter().any(|o| o.parse::<Track>().ok() == Some(t)) {
                out.push(n);
            }
        }
        out.truncate(3);
        out
    }
}

impl fmt::Display for UnknownTrack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown track '{}'", self.0)?;
        let near = self.suggestions();
        if !near.is_empty() {
            write!(f, " (did you mean {}?)", near.join(", "))?;
        }
        f.write_str(
            "; known: SingleQuery, Incremental, UnsatCore, ModelValidation, Parallel, Cloud, \
             ProofExhibition, UnsatCoreValidation, in any case, with or without - or _ \
             (single-query, unsat_core), or short: sq, inc, uc, mv, pe, uc_val",
        )
    }
}

impl std::error::Error for UnknownTrack {}

/// A track name reduced for comparison: lower case, without `-`, `_` and spaces.
fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Levenshtein distance (names are a few ASCII letters).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

impl FromStr for Track {
    type Err = UnknownTrack;

    /// The one track-name parser of the command line and of names derived from
    /// generated files: the stable name (`SingleQuery`), the directory/page name
    /// (`single-query`) or the short name (`sq`, `inc`, ...), in any case and
    /// with or without `-`/`_` (`singlequery`, `Single_Query`, `UC`). An
    /// unknown name is an error with the closest names.
    /// (Submissions are read by serde, which takes the stable name only.)
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = normalise(s);
        Track::ALL
            .into_iter()
            .find(|t| {
                [t.name(), t.short_name(), t.page_suffix()]
                    .iter()
                    .any(|n| normalise(n) == wanted)
            })
            .filter(|_| !wanted.is_empty())
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
    fn names_in_any_case_and_separator() {
        for (name, t) in [
            ("singlequery", Track::SingleQuery),
            ("SINGLE-QUERY", Track::SingleQuery),
            ("Single_Query", Track::SingleQuery),
            ("SQ", Track::SingleQuery),
            ("unsat_core", Track::UnsatCore),
            ("ModelValidation", Track::ModelValidation),
            ("model-validation", Track::ModelValidation),
            ("Inc", Track::Incremental),
            ("proofexhibition", Track::ProofExhibition),
            ("parallel", Track::Parallel),
            ("CLOUD", Track::Cloud),
            ("uc-val", Track::UnsatCoreValidation),
        ] {
            assert_eq!(name.parse::<Track>(), Ok(t), "{name}");
        }
    }

    #[test]
    fn unknown_track_is_an_error_naming_it_with_the_closest_names() {
        let err = "singel-query".parse::<Track>().unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("unknown track 'singel-query' (did you mean SingleQuery?)"),
            "{text}"
        );
        // "Main" (the pre-2019 name) is near nothing: no suggestion, the list.
        let text = "Main".parse::<Track>().unwrap_err().to_string();
        assert!(!text.contains("did you mean"), "{text}");
        assert!(text.contains("known: SingleQuery, Incremental"), "{text}");
        // "paralel": one edit from parallel.
        assert_eq!(
            "paralel".parse::<Track>().unwrap_err().suggestions(),
            ["Parallel"]
        );
        assert!("".parse::<Track>().is_err());
        assert!("-".parse::<Track>().is_err());
    }
}
