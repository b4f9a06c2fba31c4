//! Biggest lead ranking (rules 7.3.2).

use super::division::{GroupScores, Kind};
use super::policy::Policy;
use serde::Serialize;

/// The lead of a division's winner over the next solver.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeadEntry {
    /// Division.
    pub division: String,
    /// Winner.
    pub solver: String,
    /// Next solver.
    pub second: String,
    /// (n1 + 1) / (n2 + 1).
    pub correct_rank: f64,
    /// (t2 + 1) / (t1 + 1), t = CPU (sequential) or wall score.
    pub time_rank: f64,
}

/// Biggest lead for one kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeadKind {
    /// Kind.
    pub kind: Kind,
    /// Entries, best first (correct desc, time desc, division asc).
    pub entries: Vec<LeadEntry>,
    /// Winner: the first entry's solver.
    pub winner: Option<String>,
}

/// Computes biggest lead for `kind` over the division pages.
pub fn biggest_lead(groups: &[GroupScores], kind: Kind, policy: &Policy) -> LeadKind {
    let mut entries = Vec::new();
    for g in groups.iter().filter(|g| g.is_division) {
        let Some(p) = g.podium(kind) else { continue };
        let pair = if policy.recognitions_include_non_competitive {
            // Reference: the first two steps of the list, competitive or not.
            if p.steps.len() <= 1 || p.steps[0].n == 0 {
                continue;
            }
            (&p.steps[0], &p.steps[1])
        } else {
            if !g.competitive {
                continue;
            }
            let Some(w) = &p.winner else { continue };
            let mut comp = p.steps.iter().filter(|s| s.competitive);
            let first = comp.find(|s| &s.solver == w);
            let Some(first) = first else { continue };
            let Some(second) = comp.next() else { continue };
            (first, second)
        };
        let t = |s: &super::division::SolverScore| if kind.uses_cpu_time() { s.c } else { s.w };
        entries.push(LeadEntry {
            division: g.name.clone(),
            solver: pair.0.solver.clone(),
            second: pair.1.solver.clone(),
            correct_rank: (pair.0.n as f64 + 1.0) / (pair.1.n as f64 + 1.0),
            time_rank: (t(pair.1) + 1.0) / (t(pair.0) + 1.0),
        });
    }
    entries.sort_by(|a, b| {
        b.correct_rank
            .total_cmp(&a.correct_rank)
            .then(b.time_rank.total_cmp(&a.time_rank))
            .then(a.division.cmp(&b.division))
    });
    let winner = entries.first().map(|e| e.solver.clone());
    LeadKind {
        kind,
        entries,
        winner,
    }
}
