//! Non-competitive divisions, which are not run (rules 2025 section 6: "We will
//! not run non-competitive divisions"): `select`, `generate` and `smtcomp run`
//! skip them unless `--include-non-competitive` (the workspace's
//! `include_non_competitive`). The one place this rule is written.

use crate::model::{Competition, Division, Logic, Track};
use crate::submission::LoadedSubmission;
use std::collections::{BTreeMap, BTreeSet};

/// One division of a track as the submissions enter it.
#[derive(Debug, Default)]
pub struct Entered {
    /// Teams (`scoring::teams`) of its competitive (author-submitted) entrants.
    pub teams: BTreeSet<String>,
    /// Logics entered by any submission.
    pub logics: BTreeSet<Logic>,
}

impl Entered {
    /// The most entrants that are pairwise of different teams
    /// (`scoring::distinct_teams`): competitive from 2.
    pub fn distinct_teams(&self) -> usize {
        let ids: Vec<&str> = self.teams.iter().map(String::as_str).collect();
        crate::scoring::distinct_teams(&ids)
    }
}

/// The divisions of every track the submissions enter, except the Proof
/// Exhibition Track (an exhibition: no competitive divisions) and the internal
/// Unsat Core validation runs, with their entrants' teams. A division is
/// competitive when two of its entrants are of different teams
/// ([`Entered::distinct_teams`] >= 2; docs/scoring.md, "Teams").
pub fn entered(
    loaded: &[LoadedSubmission],
    comp: &Competition,
) -> BTreeMap<(Track, Division), Entered> {
    let subs: Vec<_> = loaded
        .iter()
        .filter_map(|l| l.submission.as_ref())
        .collect();
    let teams = crate::scoring::teams(&subs, &comp.base_solvers, &comp.teams);
    let mut out: BTreeMap<(Track, Division), Entered> = BTreeMap::new();
    for l in loaded {
        let Some(s) = l.submission.as_ref() else {
            continue;
        };
        for (&track, divisions) in &l.entries {
            if matches!(track, Track::ProofExhibition | Track::UnsatCoreValidation) {
                continue;
            }
            for (division, logics) in divisions {
                let d = out.entry((track, division.clone())).or_default();
                if s.competitive {
                    d.teams
                        .insert(teams.get(&s.name).cloned().unwrap_or(s.name.clone()));
                }
                d.logics.extend(logics.iter().cloned());
            }
        }
    }
    out
}

/// The non-competitive divisions of [`entered`], with their team counts, as
/// `DIVISION (N team(s))` for a note.
pub fn describe(skipped: &BTreeMap<(Track, Division), Entered>) -> String {
    skipped
        .iter()
        .map(|((track, d), e)| format!("{track} {d} ({} team(s))", e.distinct_teams()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The (track, division) pairs of [`entered`] with fewer than two teams:
/// not run (rules 6).
pub fn non_competitive(
    loaded: &[LoadedSubmission],
    comp: &Competition,
) -> BTreeSet<(Track, Division)> {
    entered(loaded, comp)
        .into_iter()
        .filter(|(_, e)| e.distinct_teams() < 2)
        .map(|(k, _)| k)
        .collect()
}
