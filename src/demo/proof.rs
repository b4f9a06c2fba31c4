//! The demo's Proof Exhibition Track: not scored (2023 rules 5.8), summarized per
//! solver and division from the ingested proof-wrapper runs
//! ([`crate::scoring::editions::e2023::proof_summary`]).

use crate::ingest::IngestRecord;
use crate::model::{Competition, Status, Track};
use crate::prepare::PreparedSet;
use crate::proof::{ProofOutcome, ProofVerdict};
use crate::scoring::editions::e2023::{ProofLine, ProofRun, proof_summary};
use std::collections::HashMap;
use std::path::Path;

/// The Proof Exhibition runs of `runs` as the summary needs them: the benchmark's
/// known status from the prepared set, the division from the record (or from the
/// competition by logic). A run without proof data (no log, unreadable output)
/// counts with verdict `unknown`: it is reported, never dropped.
pub fn proof_runs(
    comp: &Competition,
    runs: &[IngestRecord],
    sets: &[PreparedSet],
) -> Vec<ProofRun> {
    let statuses: HashMap<String, Status> = sets
        .iter()
        .filter(|s| s.track == Track::ProofExhibition)
        .flat_map(|s| s.benchmarks.iter().map(|b| (b.original.path(), b.status)))
        .collect();
    let track = comp.track(Track::ProofExhibition);
    runs.iter()
        .filter(|r| r.track == Some(Track::ProofExhibition))
        .map(|r| {
            let benchmark = r
                .benchmark
                .as_ref()
                .map(|b| b.path())
                .unwrap_or_else(|| r.benchmark_key.clone());
            let division = r
                .division
                .as_ref()
                .map(|d| d.to_string())
                .or_else(|| {
                    let logic = r.logic.as_ref()?;
                    Some(track?.division_of(logic.as_str())?.to_string())
                })
                .unwrap_or_else(|| "(unknown division)".into());
            let outcome = match &r.proof {
                Some(p) => ProofOutcome {
                    verdict: p.verdict,
                    verdict_line: Some(p.verdict.as_str().to_string()),
                    values: p.values.clone(),
                },
                None => ProofOutcome {
                    verdict: ProofVerdict::Unknown,
                    verdict_line: None,
                    values: Default::default(),
                },
            };
            ProofRun {
                solver: r.solver.clone(),
                division,
                status: statuses.get(&benchmark).copied().unwrap_or(Status::Unknown),
                benchmark,
                outcome,
            }
        })
        .collect()
}

/// Summarizes the Proof Exhibition runs and writes `proof-exhibition.json` into `dir`.
pub fn summarize(
    comp: &Competition,
    runs: &[IngestRecord],
    sets: &[PreparedSet],
    dir: &Path,
) -> anyhow::Result<Vec<ProofLine>> {
    let lines = proof_summary(&proof_runs(comp, runs, sets));
    std::fs::create_dir_all(dir)?;
    crate::datafile::write_json(&dir.join("proof-exhibition.json"), &lines)?;
    Ok(lines)
}
