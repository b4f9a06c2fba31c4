//! SMT-COMP 2023 scoring: the 2025 engine under the rules policy, plus what the
//! 2023 rules do differently.
//!
//! * Seven tracks; Cloud and Parallel are scored like Single Query with the
//!   parallel score only (the engine's rules policy already computes only the
//!   parallel kind for them, [`crate::scoring::division::kinds_for`]).
//! * No best-overall recognition (2023 rules section 7.3 recognizes biggest lead
//!   and largest contribution only): [`score`] empties it.
//! * Unsat-Core validation (2023 rules 5.4): "the unsatisfiability of an unsat
//!   core is refuted if the number of validation solvers whose result is sat
//!   exceeds the number of checking solvers whose result is unsat":
//!   [`core_refuted`].
//! * Proof Exhibition Track (5.8): not scored; [`proof_summary`] counts checker
//!   verdicts per solver and division, errors (`invalid` or `sat`, the two
//!   erroneous results of 5.8), sums the `holes`, `axioms`, `steps` and
//!   `assertions` statistics, and flags a checker that says `valid` on a
//!   benchmark known to be `sat`; `smtcomp score --track ProofExhibition` prints
//!   it ([`super::e2023_proof`]).

use crate::model::Status;
use crate::proof::{ProofOutcome, ProofVerdict};
use crate::scoring::{Policy, ScoringInput, TrackScores};
use serde::Serialize;
use std::collections::BTreeMap;

/// The 2023 engine policy (the 2025 rules switches; 2023 differs only where this
/// module says).
pub fn policy() -> Policy {
    let mut p = Policy::rules();
    p.name = "rules-2023".into();
    p
}

/// Scores one track under the 2023 rules: the engine, then no best overall.
pub fn score(input: &ScoringInput) -> TrackScores {
    let mut s = crate::scoring::score(input, &policy());
    s.best_overall.clear();
    s
}

/// 2023 rules 5.4: a core is refuted iff more validators said `sat` than `unsat`.
pub fn core_refuted(sat_validators: u64, unsat_validators: u64) -> bool {
    sat_validators > unsat_validators
}

/// Statistics summed by [`proof_summary`] (the checkers' `key=value` lines).
pub const PROOF_STATS: [&str; 4] = ["holes", "axioms", "steps", "assertions"];

/// One Proof Exhibition run, as the summary needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProofRun {
    /// Solver.
    pub solver: String,
    /// Division of the benchmark.
    pub division: String,
    /// Benchmark path.
    pub benchmark: String,
    /// The benchmark's known status (`Sat` makes a `valid` verdict unsound).
    pub status: Status,
    /// The interpreted wrapper output.
    pub outcome: ProofOutcome,
}

/// One (solver, division) line of the summary.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ProofLine {
    /// Solver.
    pub solver: String,
    /// Division.
    pub division: String,
    /// Verdict name -> count (every verdict present, zeros included).
    pub verdicts: BTreeMap<String, u64>,
    /// Erroneous results: `invalid` + `sat`.
    pub errors: u64,
    /// Statistic -> sum over the runs that report it (non-numeric values skipped).
    pub stats: BTreeMap<String, u64>,
    /// Benchmarks known `sat` on which the checker said `valid` (checker unsound).
    pub unsound_valid: Vec<String>,
}

/// Summarizes Proof Exhibition runs per (solver, division), sorted.
pub fn proof_summary(runs: &[ProofRun]) -> Vec<ProofLine> {
    let mut lines: BTreeMap<(String, String), ProofLine> = BTreeMap::new();
    for r in runs {
        let line = lines
            .entry((r.solver.clone(), r.division.clone()))
            .or_insert_with(|| ProofLine {
                solver: r.solver.clone(),
                division: r.division.clone(),
                verdicts: ProofVerdict::ALL
                    .iter()
                    .map(|v| (v.as_str().to_string(), 0))
                    .collect(),
                stats: PROOF_STATS.iter().map(|k| (k.to_string(), 0)).collect(),
                ..ProofLine::default()
            });
        let v = r.outcome.verdict;
        *line.verdicts.entry(v.as_str().to_string()).or_default() += 1;
        if matches!(v, ProofVerdict::Invalid | ProofVerdict::Sat) {
            line.errors += 1;
        }
        for k in PROOF_STATS {
            if let Some(x) = r.outcome.values.get_u64(k) {
                let s = line.stats.entry(k.to_string()).or_default();
                *s = s.saturating_add(x);
            }
        }
        if v == ProofVerdict::Valid && r.status == Status::Sat {
            line.unsound_valid.push(r.benchmark.clone());
        }
    }
    let mut out: Vec<ProofLine> = lines.into_values().collect();
    for l in &mut out {
        l.unsound_valid.sort();
    }
    out
}
