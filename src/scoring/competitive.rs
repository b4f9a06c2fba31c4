//! Teams and competitive divisions (rules section 6).
//!
//! Rules: "A division in a track is competitive if at least two substantially
//! different solvers (i.e., solvers from two different teams) were submitted ...
//! only solvers that are explicitly submitted by their authors determine whether a
//! division is competitive." We implement:
//!
//! * a team is a connected component of *competitive* submissions linked by a
//!   shared contributor name (case- and space-insensitive; non-competitive
//!   submissions such as base solvers entered by the organizers neither count nor
//!   link teams, and form their own team), except that a derived solver and its base
//!   solver are never linked (rules section 4: a derived tool is based on a solver
//!   "from a different group of authors");
//! * the team id is the alphabetically smallest solver name of the component;
//! * a solver the competition definition puts in an explicit team (`[teams]`)
//!   belongs to that team only: it is not linked by contributors, and the team
//!   id is `team:<name>` (the organizers' override, e.g. for two solvers that
//!   share developers but are different teams);
//! * a group is competitive when its competitive (author-submitted) solvers come
//!   from at least two teams.
//!
//! The reference tool (`name_prefix_teams`) uses the lower-cased name prefix before
//! the first `-` over every solver with rows, competitive or not.

use super::input::Participant;
use crate::submission::Submission;
use std::collections::{BTreeMap, BTreeSet, HashMap};

fn normalise(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Solver name -> team id, from the submissions' contributors.
/// `base_solvers` maps derived -> base; those pairs are never merged. Only
/// competitive submissions are linked. `explicit` (solver -> team name, the
/// definition's `[teams]`) overrides the linking for the solvers it lists.
pub fn teams(
    submissions: &[&Submission],
    base_solvers: &BTreeMap<String, String>,
    explicit: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut subs: Vec<&Submission> = submissions.to_vec();
    subs.sort_by(|a, b| a.name.cmp(&b.name));
    let n = subs.len();
    let mut parent: Vec<usize> = (0..n).collect();
    let mut by_contributor: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, s) in subs
        .iter()
        .enumerate()
        .filter(|(_, s)| s.competitive && !explicit.contains_key(&s.name))
    {
        let names: BTreeSet<String> = s.contributors.iter().map(|c| normalise(&c.name)).collect();
        for c in names {
            if !c.is_empty() {
                by_contributor.entry(c).or_default().push(i);
            }
        }
    }
    let is_base_pair = |a: &str, b: &str| {
        base_solvers.get(a).is_some_and(|x| x == b) || base_solvers.get(b).is_some_and(|x| x == a)
    };
    let mut groups: Vec<_> = by_contributor.into_iter().collect();
    groups.sort();
    for (_, members) in groups {
        for w in 0..members.len() {
            for v in (w + 1)..members.len() {
                let (a, b) = (members[w], members[v]);
                if is_base_pair(&subs[a].name, &subs[b].name) {
                    continue;
                }
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                if ra != rb {
                    // Union by smallest index: the root is the smallest name.
                    let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                    parent[hi] = lo;
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            let team = match explicit.get(&subs[i].name) {
                Some(t) => format!("team:{t}"),
                None => subs[find(&mut parent, i)].name.clone(),
            };
            (subs[i].name.clone(), team)
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
