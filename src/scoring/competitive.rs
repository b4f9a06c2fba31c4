//! Teams and competitive divisions (rules section 6).
//!
//! Rules: "A division in a track is competitive if at least two substantially
//! different solvers (i.e., solvers from two different teams) were submitted ...
//! only solvers that are explicitly submitted by their authors determine whether a
//! division is competitive." We implement:
//!
//! * a team is a submission's author set: the contributor names,
//!   case- and space-insensitive. Two submissions are from the same team
//!   exactly when their author sets are equal; sharing some authors does not
//!   make them one team, and teams are never linked transitively (linking
//!   through a third submission's authors would merge two disjoint author
//!   groups). The team id is `authors:` and the sorted names, joined by `; `;
//! * non-competitive submissions (such as base solvers entered by the
//!   organizers) neither count nor join a team: their team is their own name;
//! * a derived solver and its base solver are never one team (rules section 4:
//!   a derived tool is based on a solver "from a different group of authors"),
//!   even with equal author sets: the derived solver's id gets `derived:<name>`;
//! * a solver the competition definition puts in an explicit team (`[teams]`)
//!   belongs to that team only, id `team:<name>` (the organizers' override);
//! * a group is competitive when its competitive (author-submitted) solvers come
//!   from at least two teams.
//!
//! The reference tool (`name_prefix_teams`) uses the lower-cased name prefix before
//! the first `-` over every solver with rows, competitive or not.

use super::input::Participant;
use crate::submission::Submission;
use std::collections::{BTreeMap, BTreeSet};

fn normalise(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Solver name -> team id, from the submissions' contributors (module doc).
/// `base_solvers` maps derived -> base; `explicit` (solver -> team name, the
/// definition's `[teams]`) overrides the author sets for the solvers it lists.
pub fn teams(
    submissions: &[&Submission],
    base_solvers: &BTreeMap<String, String>,
    explicit: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let names: BTreeSet<&str> = submissions.iter().map(|s| s.name.as_str()).collect();
    submissions
        .iter()
        .map(|s| {
            let team = if let Some(t) = explicit.get(&s.name) {
                format!("team:{t}")
            } else if !s.competitive {
                s.name.clone()
            } else {
                let authors: BTreeSet<String> = s
                    .contributors
                    .iter()
                    .map(|c| normalise(&c.name))
                    .filter(|c| !c.is_empty())
                    .collect();
                if authors.is_empty() {
                    // No author named: nobody else is known to be on its team.
                    s.name.clone()
                } else {
                    let mut id = format!(
                        "authors:{}",
                        authors.into_iter().collect::<Vec<_>>().join("; ")
                    );
                    if base_solvers
                        .get(&s.name)
                        .is_some_and(|b| names.contains(b.as_str()))
                    {
                        id.push_str(&format!("|derived:{}", s.name));
                    }
                    id
                }
            };
            (s.name.clone(), team)
        })
        .collect()
}

/// The reference tool's team of a solver: the lower-cased prefix before `-`.
pub fn name_prefix(solver: &str) -> String {
    solver.split('-').next().unwrap_or("").to_lowercase()
}

/// Whether a group with these participants is competitive.
///
/// `present` are the participants taking part in the group (entered, or with
/// rows for the name-prefix rule).
pub fn is_competitive(present: &[&Participant], name_prefix_rule: bool) -> bool {
    let teams: BTreeSet<String> = if name_prefix_rule {
        present.iter().map(|p| name_prefix(&p.solver)).collect()
    } else {
        present
            .iter()
            .filter(|p| p.competitive)
            .map(|p| p.team.clone())
            .collect()
    };
    teams.len() >= 2
}
