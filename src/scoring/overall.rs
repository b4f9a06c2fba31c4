//! Best overall ranking (rules 7.3.1).

use super::division::{GroupScores, Kind};
use super::policy::Policy;
use serde::Serialize;
use std::collections::BTreeMap;

/// One solver's contribution in one division.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OverallEntry {
    /// Solver.
    pub solver: String,
    /// Division.
    pub division: String,
    /// nn^D · log10 N^D.
    pub contribution: f64,
    /// Tie-break time: CPU score (sequential) or wall score.
    pub time: f64,
    /// Competitive solver.
    pub competitive: bool,
}

/// A solver's overall score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OverallTotal {
    /// Solver.
    pub solver: String,
    /// Σ contributions.
    pub score: f64,
    /// Σ tie-break times.
    pub time: f64,
}

/// Best overall for one kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OverallKind {
    /// Kind.
    pub kind: Kind,
    /// Per-division contributions, sorted by contribution desc.
    pub entries: Vec<OverallEntry>,
    /// Totals, best first (score desc, time asc, name asc).
    pub totals: Vec<OverallTotal>,
    /// The winner and its score.
    pub winner: Option<OverallTotal>,
}

/// nn^D · log10 N^D (0 when N^D = 0).
pub fn contribution(e: u64, n: i64, big_n: u64) -> f64 {
    if big_n == 0 {
        return 0.0;
    }
    let nn = if e == 0 {
        let r = n as f64 / big_n as f64;
        r * r
    } else {
        -2.0
    };
    nn * (big_n as f64).log10()
}

/// Computes best overall for `kind` over the division pages.
pub fn best_overall(groups: &[GroupScores], kind: Kind, policy: &Policy) -> OverallKind {
    let mut entries = Vec::new();
    for g in groups.iter().filter(|g| g.is_division) {
        let Some(p) = g.podium(kind) else { continue };
        let all = policy.recognitions_include_non_competitive;
        if all {
            if p.steps.len() <= 1 {
                continue;
            }
        } else if !g.competitive {
            continue;
        }
        for s in p.steps.iter().filter(|s| all || s.competitive) {
            entries.push(OverallEntry {
                solver: s.solver.clone(),
                division: g.name.clone(),
                contribution: contribution(s.e, s.n, g.n_total),
                time: if kind.uses_cpu_time() { s.c } else { s.w },
                competitive: s.competitive,
            });
        }
    }
    let mut sums: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for e in &entries {
        let t = sums.entry(e.solver.as_str()).or_default();
        t.0 += e.contribution;
        t.1 += e.time;
    }
    let mut totals: Vec<OverallTotal> = sums
        .into_iter()
        .map(|(s, (score, time))| OverallTotal {
            solver: s.to_string(),
            score,
            time,
        })
        .collect();
    totals.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.time.total_cmp(&b.time))
            .then(a.solver.cmp(&b.solver))
    });
    if policy.recognitions_include_non_competitive {
        // The reference tool lists by (contribution, time) descending.
        entries.sort_by(|a, b| {
            b.contribution
                .total_cmp(&a.contribution)
                .then(b.time.total_cmp(&a.time))
                .then(a.division.cmp(&b.division))
                .then(a.solver.cmp(&b.solver))
        });
    } else {
        entries.sort_by(|a, b| {
            b.contribution
                .total_cmp(&a.contribution)
                .then(a.time.total_cmp(&b.time))
                .then(a.division.cmp(&b.division))
                .then(a.solver.cmp(&b.solver))
        });
    }
    let winner = totals.first().cloned();
    OverallKind {
        kind,
        entries,
        totals,
        winner,
    }
}
