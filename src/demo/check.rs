//! The demo's self-check: every selected benchmark has a run for every entered
//! solver, no answer contradicts the corpus' known status, validation refuted
//! no core and rejected no model, and no proof checker said `invalid`.

use crate::formats::runtable::{IngestRecord, RunAnswer};
use crate::formats::verdict::Verdict;
use crate::formats::verdict::{CoreStatus, ModelStatus};
use crate::model::{Competition, Status, Track};
use crate::prepare::PreparedSet;
use crate::proof::ProofVerdict;
use crate::submission::{LoadedSubmission, Submission};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Per-track counts and the problems found.
#[derive(Debug, Default, Serialize)]
pub struct DemoCheck {
    /// Track -> answer -> number of runs.
    pub answers: BTreeMap<String, BTreeMap<String, usize>>,
    /// Runs expected (selected benchmark x entered solver) per track.
    pub expected_runs: BTreeMap<String, usize>,
    /// Missing runs (`track solver benchmark`).
    pub missing: Vec<String>,
    /// Wrong answers (`track solver benchmark: got X, expected Y`).
    pub wrong: Vec<String>,
}

impl DemoCheck {
    /// Whether everything ran and nothing was wrong.
    pub fn ok(&self) -> bool {
        self.missing.is_empty() && self.wrong.is_empty()
    }
}

/// Checks `runs` against the prepared sets and the submissions' entries.
pub fn check(
    runs: &[IngestRecord],
    sets: &[PreparedSet],
    subs: &[&Submission],
    comp: &Competition,
) -> DemoCheck {
    let mut c = DemoCheck::default();
    let mut have: BTreeSet<(Track, String, String)> = BTreeSet::new();
    for r in runs {
        let Some(track) = r.track else { continue };
        *c.answers
            .entry(track.name().to_string())
            .or_default()
            .entry(r.answer.as_str().to_string())
            .or_default() += 1;
        let key = r
            .benchmark
            .as_ref()
            .map(|b| b.path())
            .unwrap_or_else(|| r.benchmark_key.clone());
        have.insert((track, r.solver.clone(), key.clone()));
        let expected = sets
            .iter()
            .find(|s| s.track == track)
            .and_then(|s| s.benchmarks.iter().find(|b| b.original.path() == key));
        let Some(b) = expected else { continue };
        let wrong = match (r.answer, b.status) {
            (RunAnswer::Sat, Status::Unsat) | (RunAnswer::Unsat, Status::Sat) => true,
            (RunAnswer::Done, _) => r.incremental.as_ref().is_some_and(|i| i.wrong.is_some()),
            _ => false,
        };
        let refuted = match &r.validation {
            Some(Verdict::Core(v)) => v.status == CoreStatus::Refuted,
            Some(Verdict::Model(v)) => v.status == ModelStatus::Invalid,
            None => false,
        };
        if refuted {
            c.wrong
                .push(format!("{track} {} {key}: refuted by validation", r.solver));
        }
        if let Some(p) = r
            .proof
            .as_ref()
            .filter(|p| p.verdict == ProofVerdict::Invalid)
        {
            c.wrong.push(format!(
                "{track} {} {key}: proof checker said {}",
                r.solver,
                p.verdict.as_str()
            ));
        }
        if wrong {
            c.wrong.push(format!(
                "{track} {} {key}: got {}, expected {}",
                r.solver,
                r.answer.as_str(),
                b.status
            ));
        }
    }
    for set in sets {
        let track = set.track;
        let entered: Vec<&Submission> = subs
            .iter()
            .copied()
            .filter(|s| entered_logics(s, comp, track).next().is_some())
            .collect();
        for b in &set.benchmarks {
            for s in &entered {
                if !entered_logics(s, comp, track).any(|l| l == b.original.logic.as_str()) {
                    continue;
                }
                *c.expected_runs.entry(track.name().to_string()).or_default() += 1;
                if !have.contains(&(track, s.name.clone(), b.original.path())) {
                    c.missing
                        .push(format!("{track} {} {}", s.name, b.original.path()));
                }
            }
        }
    }
    c
}

/// The logics `s` enters in `track`.
fn entered_logics<'a>(
    s: &'a Submission,
    comp: &'a Competition,
    track: Track,
) -> impl Iterator<Item = String> + 'a {
    let loaded = LoadedSubmission {
        file: Default::default(),
        submission: Some(s.clone()),
        entries: {
            let mut p = crate::submission::Problems::new("");
            crate::submission::entries(s, comp, &mut p)
        },
        problems: Vec::new(),
    };
    loaded
        .entries
        .get(&track)
        .map(|d| {
            d.values()
                .flatten()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter()
}
