//! The scoring engine: SMT-COMP 2025 rules section 7, exactly, plus the
//! `published-2025` policy reproducing what the organizers' tool published.
//!
//! Pipeline: [`input`] (typed runs, benchmark facts, participants) ->
//! [`soundness`] (join every registered solver with every benchmark that has
//! results, sound solvers, disagreements) -> [`benchmark`] (⟨e,n,aw,w,ac,c⟩) ->
//! [`division`] (kinds, counters, order, winners; division and logic pages) ->
//! [`overall`], [`lead`], [`contribution`] (competition-wide recognitions) ->
//! [`output`] (JSON in the website's `PodiumDivision` shape, CSV, Markdown).
//! [`explain`] lists where two policies differ and which switch causes it.
//! `docs/scoring.md` maps every rule to its code.

mod benchmark;
mod competitive;
mod contribution;
mod division;
pub mod editions;
pub mod explain;
mod input;
mod lead;
pub mod output;
mod overall;
mod policy;
pub mod run_cache;
mod runtable;
mod setup;
mod soundness;

pub use competitive::{different_teams, distinct_teams, teams};
pub use runtable::{
    RunScore, anchor_answer, run_score, scored_record_line, scored_run, scored_run_interned,
    scored_run_line,
};
pub use setup::{build_input, build_input_selected, build_input_with_paths};

pub use division::{GroupScores, Kind, Podium, SolverScore};
pub use input::{
    BenchInfo, BenchInfos, FileInterner, Participant, RunTime, ScoredRun, ScoringInput, SolverName,
    paths_of,
};
pub use policy::Policy;

use crate::model::Track;
use rayon::prelude::*;
use serde::Serialize;
pub use soundness::SolverMissing;
use soundness::{Disagreement, JoinReport};

/// Every score of one track under one policy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrackScores {
    /// Track.
    pub track: Track,
    /// Policy name.
    pub policy: String,
    /// Kinds computed.
    pub kinds: Vec<Kind>,
    /// Division pages then logic pages, each sorted by name.
    pub groups: Vec<GroupScores>,
    /// Best overall per kind.
    pub best_overall: Vec<overall::OverallKind>,
    /// Biggest lead per kind.
    pub biggest_lead: Vec<lead::LeadKind>,
    /// Largest contribution per kind.
    pub largest_contribution: Vec<contribution::ContributionKind>,
    /// Removed benchmarks (sound solvers disagree), reported.
    pub disagreements: Vec<Disagreement>,
    /// Division -> unsound solvers.
    pub unsound: Vec<(String, Vec<String>)>,
    /// Ignored input.
    pub join: JoinReport,
    /// Registered solvers' benchmarks without a run (scored as unsolved).
    pub missing: Vec<SolverMissing>,
}

impl TrackScores {
    /// The page (division identifier or logic name) called `name`.
    pub fn group(&self, name: &str, is_division: bool) -> Option<&GroupScores> {
        self.groups
            .iter()
            .find(|g| g.is_division == is_division && (g.name == name || g.identifier == name))
    }
}

/// Scores one track.
pub fn score(input: &ScoringInput, policy: &Policy) -> TrackScores {
    let (tables, join) = soundness::build(input, policy);
    score_tables(&tables, join, input, policy)
}

/// The joined division tables of a scored track (every registered solver x
/// every benchmark with results), handed back by [`score_releasing_runs`]
/// so that a process about to end can forget them instead of freeing each
/// of their cells and paths (`smtcomp score`); dropping them frees them.
#[derive(Debug)]
pub struct JoinedTables(#[allow(dead_code)] Vec<soundness::DivisionTable>);

/// [`score`], releasing `input.runs` as soon as they are joined into the
/// division tables (nothing after the join reads them): the runs of a
/// 500,000-run table (about 60 MB) are freed before the groups are scored,
/// lowering the command's peak memory. `input.runs` is empty afterwards; the
/// scores are those of [`score`]. The joined tables are returned beside the
/// scores ([`JoinedTables`]).
pub fn score_releasing_runs(
    input: &mut ScoringInput,
    policy: &Policy,
) -> (TrackScores, JoinedTables) {
    let (tables, join) = soundness::build(input, policy);
    input.runs = Vec::new();
    let scores = score_tables(&tables, join, input, policy);
    (scores, JoinedTables(tables))
}

/// Scores the joined division tables of a track (everything after the join).
fn score_tables(
    tables: &[soundness::DivisionTable],
    join: JoinReport,
    input: &ScoringInput,
    policy: &Policy,
) -> TrackScores {
    let kinds = division::kinds_for(input.track, policy);
    // Every page (a division, or one logic of it) is scored independently:
    // on the rayon pool, collected in the sequential order (tables in
    // order, each division page then its logics by name), so the result is
    // the same on any number of threads.
    let mut jobs: Vec<(&soundness::DivisionTable, Option<&crate::model::Logic>)> = Vec::new();
    for table in tables {
        jobs.push((table, None));
        let mut present: Vec<_> = table.files.iter().map(|f| &f.logic).collect();
        present.sort();
        present.dedup();
        jobs.extend(present.into_iter().map(|l| (table, Some(l))));
    }
    let scored: Vec<GroupScores> = jobs
        .par_iter()
        .map(|&(table, logic)| setup::group(table, logic, &kinds, input, policy))
        .collect();
    let (divisions, mut logics): (Vec<_>, Vec<_>) = scored.into_iter().partition(|g| g.is_division);
    logics.sort_by(|a, b| a.name.cmp(&b.name));
    let mut groups = divisions;
    groups.extend(logics);
    let best_overall = kinds
        .iter()
        .map(|&k| overall::best_overall(&groups, k, policy))
        .collect();
    let biggest_lead = kinds
        .iter()
        .map(|&k| lead::biggest_lead(&groups, k, policy))
        .collect();
    // One kind per pool task (independent; collected in kind order).
    let largest_contribution = kinds
        .par_iter()
        .map(|&k| contribution::largest_contribution(tables, &groups, k, input, policy))
        .collect();
    let disagreements = tables
        .iter()
        .flat_map(|t| t.disagreements.iter().cloned())
        .collect();
    let unsound = tables
        .iter()
        .filter(|t| !t.unsound.is_empty())
        .map(|t| {
            (
                t.division.to_string(),
                t.unsound
                    .iter()
                    .map(|&i| input.participants[i].solver.clone())
                    .collect(),
            )
        })
        .collect();
    let missing = soundness::missing_runs(tables, input);
    TrackScores {
        missing,
        track: input.track,
        policy: policy.name.clone(),
        kinds,
        groups,
        best_overall,
        biggest_lead,
        largest_contribution,
        disagreements,
        unsound,
        join,
    }
}
