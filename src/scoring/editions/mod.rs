//! Historical rules editions (2008, 2015, 2023) on top of the 2025 engine.
//!
//! An edition is data (a competition definition, `competitions/<year>.toml`)
//! plus a small scoring policy. Every edition reuses the engine's join
//! ([`super::soundness::build`]: every registered solver × every benchmark with
//! runs, one effective answer per cell, actual CPU/wall times) and its team /
//! competitive-division logic ([`super::competitive`]); only the per-benchmark
//! rule, the division order and the recognitions differ:
//!
//! * [`e2015`]: raw score ⟨e, n, w, c⟩, sequential ⟨e_S, n_S, c_S⟩, lexicographic
//!   orders, the competition-wide score (main track);
//! * [`e2008`]: +1 / −8 points, disqualification after four wrong answers in a
//!   division, ties by average CPU time on correct answers, three groups needed;
//! * [`e2023`]: the 2025 engine (rules policy) without best overall, plus the
//!   2023 unsat-core refutation rule and the Proof Exhibition summary.
//!
//! `docs/editions.md` maps every rule to its code.

pub mod dispatch;
pub mod e2008;
pub mod e2015;
pub mod e2023;
pub mod e2023_proof;
mod error;
pub mod p2023;
pub mod p2024;

pub use error::EditionError;

use super::input::{Participant, ScoringInput};
use super::policy::Policy;
use super::soundness::{self, DivisionTable};
use crate::model::Division;

/// The engine policy used by the 2008 and 2015 editions for the join: an answer
/// counts only if the solver terminated within the time limit (2015 rules 7.1:
/// "the solver process must terminate ... within the time limit"; 2008 rules
/// section 3: solvers over the limit are killed and score as `unknown`).
/// A memory kill: 2015 counts an answer given before it (the process
/// terminated, abnormally, within the time limit); 2008 scores "exhausting
/// memory" as an abort, unknown (`memout_counts` false).
pub fn join_policy(name: &str, memout_counts: bool) -> Policy {
    let mut p = Policy::rules();
    p.name = name.into();
    p.timeout_discards_answer = true;
    p.memout_discards_answer = !memout_counts;
    p
}

/// The engine's division tables for `input` under [`join_policy`].
pub fn tables(input: &ScoringInput, name: &str, memout_counts: bool) -> Vec<DivisionTable> {
    soundness::build(input, &join_policy(name, memout_counts)).0
}

/// Participants (indexes) that entered `division` (any of its logics).
pub fn entrants(input: &ScoringInput, division: &Division) -> Vec<usize> {
    input
        .participants
        .iter()
        .enumerate()
        .filter(|(_, p)| p.entries.get(division).is_some_and(|ls| !ls.is_empty()))
        .map(|(i, _)| i)
        .collect()
}

/// Distinct teams among the competitive (author-submitted) entrants.
pub fn competitive_teams(input: &ScoringInput, entrants: &[usize]) -> usize {
    let ids: Vec<&str> = entrants
        .iter()
        .map(|&i| &input.participants[i])
        .filter(|p: &&Participant| p.competitive)
        .map(|p| p.team.as_str())
        .collect();
    super::competitive::distinct_teams(&ids)
}
