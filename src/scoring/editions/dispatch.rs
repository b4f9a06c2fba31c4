//! One edition dispatch: what an edition (2025, 2023, 2015, 2008) scores a
//! track with, which scoring policies it can apply, and its unsat-core
//! validation rule. `smtcomp score`, `export website`, `validate-cores join`
//! and `smtcomp run`'s validation and scoring stages all ask here, so a
//! workspace of the 2023 definition scores and validates by the 2023 rules,
//! and a policy an edition cannot apply is an error, never ignored.
//!
//! A new edition: its module beside [`super::e2023`], one arm in each
//! function below.

use super::{EditionError, e2008, e2015, e2023, p2023, p2024};
use crate::model::{Competition, Division, RulesEdition, Track};
use crate::scoring::{Policy, ScoringInput, TrackScores};
use crate::validate::CoreRule;
use std::collections::BTreeSet;

/// The scoring policies the command line names (`--policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyChoice {
    /// The rules text of the edition.
    Rules,
    /// What the organizers' tool published in 2025 (named deviations of the
    /// 2025 rules).
    Published2025,
    /// What the organizers published for the 2023 Parallel and Cloud tracks
    /// ([`super::p2023`]).
    Published2023,
    /// What the organizers published for 2024 ([`super::p2024`]), scored
    /// under the 2025 rules.
    Published2024,
    /// The edition's own published policy (2025: `published-2025`, 2023:
    /// `published-2023`).
    Published,
}

/// The policy `edition` scores with when `choice` is asked for; an error
/// when the edition cannot apply it (`published-2025` reproduces the 2025
/// tool and exists for the 2025 rules only).
pub fn policy(edition: RulesEdition, choice: PolicyChoice) -> Result<Policy, EditionError> {
    match (edition, choice) {
        (RulesEdition::Rules2025, PolicyChoice::Rules) => Ok(Policy::rules()),
        (RulesEdition::Rules2025, PolicyChoice::Published2025) => Ok(Policy::published_2025()),
        (RulesEdition::Rules2025, PolicyChoice::Published2024) => Ok(p2024::policy()),
        (RulesEdition::Rules2023, PolicyChoice::Rules) => Ok(e2023::policy()),
        (RulesEdition::Rules2015, PolicyChoice::Rules) => {
            Ok(super::join_policy(&format!("rules-{edition}"), true))
        }
        (RulesEdition::Rules2008, PolicyChoice::Rules) => {
            Ok(super::join_policy(&format!("rules-{edition}"), false))
        }
        (RulesEdition::Rules2023, PolicyChoice::Published2023) => Ok(p2023::policy()),
        (RulesEdition::Rules2025, PolicyChoice::Published) => Ok(Policy::published_2025()),
        (RulesEdition::Rules2023, PolicyChoice::Published) => Ok(p2023::policy()),
        (edition, policy) => Err(EditionError::PolicyRefused { policy, edition }),
    }
}

/// The unsat-core validation rule of `edition`; an error for the editions
/// without an Unsat Core Track.
pub fn core_rule(edition: RulesEdition) -> Result<CoreRule, EditionError> {
    match edition {
        RulesEdition::Rules2025 => Ok(CoreRule::Majority2025),
        RulesEdition::Rules2023 => Ok(CoreRule::Refutation2023),
        e => Err(EditionError::NoUnsatCoreTrack(e)),
    }
}

/// A track scored by its edition: the engine's scores (2025, 2023), or the
/// edition's own tables (2015, 2008).
#[derive(Debug)]
pub enum EditionScores {
    /// The engine's scores (the 2025 engine, or the 2023 edition on it).
    Engine(Box<TrackScores>),
    /// The 2015 rules' tables.
    Tables2015(e2015::Scores),
    /// The 2008 rules' tables.
    Tables2008(e2008::Scores),
}

impl EditionScores {
    /// The edition's tables as Markdown.
    pub fn markdown(&self) -> String {
        match self {
            EditionScores::Engine(s) => crate::scoring::output::markdown(s, false),
            EditionScores::Tables2015(s) => e2015::markdown(s),
            EditionScores::Tables2008(s) => e2008::markdown(s),
        }
    }
}

/// Scores `track` of `input` by `comp`'s edition `edition` under `policy`
/// (from [`policy`]); an error for a track the edition does not have.
pub fn score(
    comp: &Competition,
    edition: RulesEdition,
    track: Track,
    input: &ScoringInput,
    policy: &Policy,
) -> Result<EditionScores, EditionError> {
    match edition {
        RulesEdition::Rules2025 => Ok(EditionScores::Engine(Box::new(crate::scoring::score(
            input, policy,
        )))),
        RulesEdition::Rules2023 if policy.name == p2023::policy().name => Ok(
            EditionScores::Engine(Box::new(p2023::score(input, policy)?)),
        ),
        RulesEdition::Rules2023 => Ok(EditionScores::Engine(Box::new(e2023::score(input)))),
        RulesEdition::Rules2015 => {
            if !matches!(track, Track::SingleQuery | Track::Incremental) {
                return Err(EditionError::NoSuchTrack {
                    edition,
                    track,
                    tracks: "a main (SingleQuery) and an application (Incremental) track only",
                });
            }
            let experimental: BTreeSet<Division> = match comp.track(track) {
                Some(d) if d.experimental => d.divisions.keys().cloned().collect(),
                Some(d) => d.experimental_divisions.clone(),
                None => BTreeSet::new(),
            };
            Ok(EditionScores::Tables2015(e2015::score(
                input,
                &experimental,
            )))
        }
        RulesEdition::Rules2008 => {
            if track != Track::SingleQuery {
                return Err(EditionError::NoSuchTrack {
                    edition,
                    track,
                    tracks: "a single track (score it as SingleQuery)",
                });
            }
            Ok(EditionScores::Tables2008(e2008::score(input)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_2025_applies_to_the_2025_rules_only() {
        assert!(policy(RulesEdition::Rules2025, PolicyChoice::Published2025).is_ok());
        for e in [
            RulesEdition::Rules2023,
            RulesEdition::Rules2015,
            RulesEdition::Rules2008,
        ] {
            let err = policy(e, PolicyChoice::Published2025).unwrap_err();
            assert_eq!(
                err,
                EditionError::PolicyRefused {
                    policy: PolicyChoice::Published2025,
                    edition: e
                }
            );
            assert!(
                err.to_string().contains(&format!("not to the {e} rules")),
                "{err}"
            );
        }
        assert_eq!(
            policy(RulesEdition::Rules2023, PolicyChoice::Rules).unwrap(),
            e2023::policy()
        );
        // published-2023: the 2023 rules only.
        assert_eq!(
            policy(RulesEdition::Rules2023, PolicyChoice::Published2023).unwrap(),
            p2023::policy()
        );
        for e in [
            RulesEdition::Rules2025,
            RulesEdition::Rules2015,
            RulesEdition::Rules2008,
        ] {
            let err = policy(e, PolicyChoice::Published2023).unwrap_err();
            assert!(
                err.to_string().contains(&format!("not to the {e} rules")),
                "{err}"
            );
        }
    }

    #[test]
    fn published_is_the_editions_own_and_2024_runs_on_the_2025_rules() {
        assert_eq!(
            policy(RulesEdition::Rules2025, PolicyChoice::Published).unwrap(),
            Policy::published_2025()
        );
        assert_eq!(
            policy(RulesEdition::Rules2023, PolicyChoice::Published).unwrap(),
            p2023::policy()
        );
        for e in [RulesEdition::Rules2015, RulesEdition::Rules2008] {
            let err = policy(e, PolicyChoice::Published).unwrap_err();
            assert!(
                err.to_string().contains(&format!("published {e} pages")),
                "{err}"
            );
        }
        assert_eq!(
            policy(RulesEdition::Rules2025, PolicyChoice::Published2024).unwrap(),
            p2024::policy()
        );
        for e in [
            RulesEdition::Rules2023,
            RulesEdition::Rules2015,
            RulesEdition::Rules2008,
        ] {
            let err = policy(e, PolicyChoice::Published2024).unwrap_err();
            assert!(
                err.to_string().contains(&format!("not the {e} rules")),
                "{err}"
            );
        }
    }

    #[test]
    fn each_edition_has_its_core_rule() {
        assert_eq!(
            core_rule(RulesEdition::Rules2025).unwrap(),
            CoreRule::Majority2025
        );
        assert_eq!(
            core_rule(RulesEdition::Rules2023).unwrap(),
            CoreRule::Refutation2023
        );
        assert!(core_rule(RulesEdition::Rules2015).is_err());
    }
}
