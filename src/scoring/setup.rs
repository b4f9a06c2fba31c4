//! Building the scoring input from the competition, submissions, inventory and
//! runs, and one page ([`GroupScores`]) from a division table.

use super::competitive;
use super::division::{GroupScores, Kind, in_group, podium};
use super::input::{Participant, ScoredRun, ScoringInput, bench_infos_of, paths_of};
use super::policy::Policy;
use super::soundness::DivisionTable;
use crate::benchmarks::{Inventory, Smt2File};
use crate::model::{Competition, Logic, Track};
use crate::submission::LoadedSubmission;
use crate::util::fxhash::FxHashSet;
use std::collections::BTreeMap;

/// Builds the input of `track`: participants from the submissions (teams per
/// [`competitive::teams`]), benchmark facts from the inventory. Returns the input
/// and the benchmarks of the runs that the inventory does not know.
pub fn build_input(
    comp: &Competition,
    track: Track,
    submissions: &[LoadedSubmission],
    inventory: &Inventory,
    runs: Vec<ScoredRun>,
) -> (ScoringInput, Vec<String>) {
    build_input_selected(comp, track, submissions, inventory, runs, Vec::new())
}

/// [`build_input`] scoring a selection: every selected benchmark of the track's
/// logics is in N, run or not (`score --selection`; the organizers' pages).
pub fn build_input_selected(
    comp: &Competition,
    track: Track,
    submissions: &[LoadedSubmission],
    inventory: &Inventory,
    runs: Vec<ScoredRun>,
    selection: Vec<Smt2File>,
) -> (ScoringInput, Vec<String>) {
    build_input_with_paths(comp, track, submissions, inventory, runs, selection, None)
}

/// [`build_input_selected`] given `paths`, the [`paths_of`] of `runs` (every
/// track's) and `selection`, when the caller built them already (`score`
/// filters the inventory by them): reused when every run is of `track`, so the
/// set is not built twice; otherwise the paths of `track`'s runs are collected.
pub fn build_input_with_paths(
    comp: &Competition,
    track: Track,
    submissions: &[LoadedSubmission],
    inventory: &Inventory,
    runs: Vec<ScoredRun>,
    selection: Vec<Smt2File>,
    paths: Option<FxHashSet<String>>,
) -> (ScoringInput, Vec<String>) {
    let def = comp.track(track);
    let subs: Vec<_> = submissions
        .iter()
        .filter_map(|l| l.submission.as_ref())
        .collect();
    let teams = competitive::teams(&subs, &comp.base_solvers, &comp.teams);
    let mut participants: Vec<Participant> = submissions
        .iter()
        .filter_map(|l| {
            let s = l.submission.as_ref()?;
            let entries = l.entries.get(&track)?.clone();
            Some(Participant {
                solver: s.name.clone(),
                competitive: s.competitive,
                team: teams
                    .get(&s.name)
                    .cloned()
                    .unwrap_or_else(|| s.name.clone()),
                base: comp.base_solvers.get(&s.name).cloned(),
                entries,
            })
        })
        .collect();
    participants.sort_by(|a, b| a.solver.cmp(&b.solver));
    participants.dedup_by(|a, b| a.solver == b.solver);
    // One table of one track (the usual case): neither copied nor re-collected.
    let (runs, paths) = if runs.iter().all(|r| r.track == track) {
        (runs, paths)
    } else {
        (
            runs.into_iter().filter(|r| r.track == track).collect(),
            None,
        )
    };
    let paths = paths.unwrap_or_else(|| paths_of(runs.iter().map(|r| &*r.file).chain(&selection)));
    let (benchmarks, missing) = bench_infos_of(inventory, paths);
    let input = ScoringInput {
        track,
        time_limit: def.map_or(1200.0, |d| f64::from(d.limits.time_s)),
        cores: def.map_or(1, |d| d.limits.cores),
        memory_mb: def.map_or(0, |d| d.limits.memory_mb),
        year: comp.year,
        divisions: def.map(|d| d.divisions.clone()).unwrap_or_default(),
        participants,
        runs,
        benchmarks,
        base_solvers: comp.base_solvers.clone(),
        selection,
    };
    (input, missing)
}

/// Scores one page: the division (`logic` = `None`) or one of its logics.
pub fn group(
    table: &DivisionTable,
    logic: Option<&Logic>,
    kinds: &[Kind],
    input: &ScoringInput,
    policy: &Policy,
) -> GroupScores {
    let files: Vec<_> = table.files.iter().filter(|f| in_group(f, logic)).collect();
    let n_benchmarks = files.len() as u64;
    let n_total = match input.track {
        Track::Incremental => files.iter().map(|f| f.info.check_sats).sum(),
        Track::UnsatCore => files.iter().map(|f| f.info.asserts).sum(),
        _ => n_benchmarks,
    };
    let mut logics = BTreeMap::new();
    if logic.is_none() {
        for f in &files {
            *logics.entry(f.logic.to_string()).or_insert(0u64) += 1;
        }
    }
    let present: Vec<&Participant> = if policy.name_prefix_teams {
        let mut with_rows = vec![false; input.participants.len()];
        let grouped: Vec<bool> = table.files.iter().map(|f| in_group(f, logic)).collect();
        for c in &table.cells {
            if grouped[c.file] {
                with_rows[c.solver] = true;
            }
        }
        (0..with_rows.len())
            .filter(|&i| with_rows[i])
            .map(|i| &input.participants[i])
            .collect()
    } else {
        input
            .participants
            .iter()
            .filter(|p| match logic {
                Some(l) => p.entered(&table.division, l),
                None => p.entries.contains_key(&table.division),
            })
            .collect()
    };
    let competitive = competitive::is_competitive(&present, policy.name_prefix_teams);
    let podiums = kinds
        .iter()
        .map(|&k| podium(table, logic, k, input, policy, competitive))
        .collect();
    let (name, identifier) = match logic {
        Some(l) => (l.to_string(), l.to_string()),
        None => (table.division.to_string(), table.division.identifier()),
    };
    GroupScores {
        name,
        identifier,
        division: table.division.to_string(),
        is_division: logic.is_none(),
        logics,
        n_benchmarks,
        n_total,
        competitive,
        experimental: false,
        podiums,
    }
}
