//! Teams and competitive divisions (rules section 6).
//!
//! Rules: "A division in a track is competitive if at least two substantially
//! different solvers (i.e., solvers from two different teams) were submitted ...
//! only solvers that are explicitly submitted by their authors determine whether a
//! division is competitive." We implement:
//!
//! * a submission's team id is its author set: the contributor names,
//!   case- and space-insensitive, `authors:` and the sorted names joined by
//!   `; `. "Different teams" is read pairwise ([`different_teams`]): two
//!   submissions are of different teams when their author sets are disjoint;
//!   sharing an author makes them the same team for that pair (Pax {Pia} and
//!   Pax2 {Pia, Ulf} are not two teams). The relation is not transitive:
//!   Alpha {Ann} and Beta {Bob} stay different teams although Hybrid {Ann,
//!   Bob} shares an author with each;
//! * non-competitive submissions (such as base solvers entered by the
//!   organizers) neither count nor join a team: their team is their own name;
//! * a derived solver and its base solver are never one team (rules section 4:
//!   a derived tool is based on a solver "from a different group of authors"),
//!   even with equal author sets: the derived solver's id gets `derived:<name>`;
//! * a solver the competition definition puts in an explicit team (`[teams]`)
//!   belongs to that team only, id `team:<name>` (the organizers' override);
//! * a group is competitive when two of its competitive (author-submitted)
//!   solvers are of different teams; "N distinct teams" (2008) means N solvers
//!   that are pairwise of different teams ([`distinct_teams`]).
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

/// Whether the solvers with team ids `a` and `b` ([`teams`]) are of
/// different teams: author sets (`authors:`) that share no author, a derived
/// solver and its base (`|derived:`), or otherwise different ids (explicit
/// `team:` names, solvers that are their own team).
pub fn different_teams(a: &str, b: &str) -> bool {
    if a == b {
        return false;
    }
    let split = |id: &str| -> Option<(BTreeSet<String>, Option<String>)> {
        let rest = id.strip_prefix("authors:")?;
        let (authors, derived) = match rest.split_once("|derived:") {
            Some((a, d)) => (a, Some(d.to_string())),
            None => (rest, None),
        };
        Some((authors.split("; ").map(str::to_string).collect(), derived))
    };
    match (split(a), split(b)) {
        (Some((sa, da)), Some((sb, db))) => da != db || sa.is_disjoint(&sb),
        _ => true,
    }
}

/// The most solvers among `ids` (team ids) that are pairwise of different
/// teams ([`different_teams`]); an exact search (divisions have few entrants).
pub fn distinct_teams(ids: &[&str]) -> usize {
    let ids: Vec<&str> = ids
        .iter()
        .copied()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    fn grow(ids: &[&str], chosen: &mut Vec<usize>, from: usize, best: &mut usize) {
        *best = (*best).max(chosen.len());
        if chosen.len() + (ids.len() - from) <= *best {
            return;
        }
        for i in from..ids.len() {
            if chosen.iter().all(|&c| different_teams(ids[c], ids[i])) {
                chosen.push(i);
                grow(ids, chosen, i + 1, best);
                chosen.pop();
            }
        }
    }
    let mut best = 0;
    grow(&ids, &mut Vec::new(), 0, &mut best);
    best
}

/// Whether a group with these participants is competitive.
///
/// `present` are the participants taking part in the group (entered, or with
/// rows for the name-prefix rule).
pub fn is_competitive(present: &[&Participant], name_prefix_rule: bool) -> bool {
    if name_prefix_rule {
        let teams: BTreeSet<String> = present.iter().map(|p| name_prefix(&p.solver)).collect();
        return teams.len() >= 2;
    }
    let ids: Vec<&str> = present
        .iter()
        .filter(|p| p.competitive)
        .map(|p| p.team.as_str())
        .collect();
    ids.iter()
        .enumerate()
        .any(|(i, a)| ids[i + 1..].iter().any(|b| different_teams(a, b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn teams_are_read_pairwise_from_disjoint_author_sets() {
        // Pax {Pia} and Pax2 {Pia, Ulf} share Pia: not two teams.
        assert!(!different_teams("authors:pia", "authors:pia; ulf"));
        // Alpha {Ann}, Beta {Bob} stay two teams beside Hybrid {Ann, Bob}.
        assert!(different_teams("authors:ann", "authors:bob"));
        assert!(!different_teams("authors:ann", "authors:ann; bob"));
        assert_eq!(
            distinct_teams(&["authors:ann", "authors:bob", "authors:ann; bob"]),
            2
        );
        // A derived solver is never its base's team; explicit teams by name.
        assert!(different_teams("authors:a", "authors:a|derived:X"));
        assert!(!different_teams("team:T", "team:T"));
        assert!(different_teams("team:T", "authors:a"));
        assert_eq!(distinct_teams(&["authors:a", "authors:b", "authors:c"]), 3);
        assert_eq!(
            distinct_teams(&["authors:a", "authors:a; b", "authors:b"]),
            2
        );
        assert_eq!(distinct_teams(&[]), 0);
    }
}
