//! Why an edition cannot score what it is asked to.

use super::dispatch::PolicyChoice;
use crate::model::{RulesEdition, Track};

/// Why a track cannot be scored by an edition or a policy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditionError {
    /// A `--policy` the edition cannot apply (never ignored).
    #[error("{}", policy_refused(*policy, *edition))]
    PolicyRefused {
        /// The policy asked for.
        policy: PolicyChoice,
        /// The edition scored.
        edition: RulesEdition,
    },
    /// The edition has no Unsat Core Track (no core-validation rule).
    #[error("the {0} rules have no Unsat Core Track")]
    NoUnsatCoreTrack(RulesEdition),
    /// The edition has no such track.
    #[error("the {edition} rules have {tracks}")]
    NoSuchTrack {
        /// The edition.
        edition: RulesEdition,
        /// The track asked for.
        track: Track,
        /// The tracks it has, in words.
        tracks: &'static str,
    },
    /// `published-2023` reproduces the Parallel and Cloud pages only.
    #[error(
        "--policy published-2023 reproduces the organizers' 2023 Parallel and Cloud pages; \
         their {0} pages need results that are not public (score it with --policy rules)"
    )]
    Published2023Track(Track),
    /// `published-2024` of Parallel or Cloud without the other track's runs.
    #[error(
        "--policy {policy} scores {track} over the benchmarks of both the Parallel and the \
         Cloud Track (the organizers' 2024 pages count their union), but the runs hold none \
         of the {missing} Track: give its results too (--runs), or both selections (--selection)"
    )]
    OtherTrackMissing {
        /// The policy's name.
        policy: &'static str,
        /// The track scored.
        track: Track,
        /// The track without runs.
        missing: Track,
    },
}

/// Why `policy` does not apply to the `edition` rules, and what to do.
fn policy_refused(policy: PolicyChoice, e: RulesEdition) -> String {
    match policy {
        PolicyChoice::Published => format!(
            "--policy published: the organizers' published {e} pages are not reproduced here (a \
             published policy exists for the 2025 and 2023 rules); leave --policy out to score by the {e} rules"
        ),
        PolicyChoice::Published2023 => format!(
            "--policy published-2023 reproduces the organizers' 2023 Parallel and Cloud pages and \
             applies to the 2023 rules only, not to the {e} rules (score with --year 2023, or leave --policy out)"
        ),
        PolicyChoice::Published2024 => format!(
            "--policy published-2024 reproduces the organizers' 2024 pages on the 2025 engine (the \
             2024 rules are not an edition here): it applies under the 2025 rules only, not the {e} \
             rules (score with --edition 2025)"
        ),
        PolicyChoice::Published2025 => format!(
            "--policy published-2025 reproduces the organizers' 2025 tool and applies to the 2025 \
             rules only, not to the {e} rules (score with --edition 2025, or leave --policy out)"
        ),
        PolicyChoice::Rules => format!("the {e} rules apply to every edition"),
    }
}
