//! The demo's Proof Exhibition Track: not scored (2023 rules 5.8), summarized per
//! solver and division from the ingested proof-wrapper runs by the same code as
//! `smtcomp score --track ProofExhibition` ([`e2023_proof::report`]).

use crate::ingest::IngestRecord;
use crate::model::{Competition, Status, Track};
use crate::prepare::PreparedSet;
use crate::scoring::editions::e2023::ProofLine;
use crate::scoring::editions::e2023_proof;
use std::collections::HashMap;
use std::path::Path;

/// Summarizes the Proof Exhibition runs (known statuses from the prepared set)
/// and writes `proof-exhibition.json` and `proof-exhibition.md` into `dir`.
pub fn summarize(
    comp: &Competition,
    runs: &[IngestRecord],
    sets: &[PreparedSet],
    dir: &Path,
) -> anyhow::Result<Vec<ProofLine>> {
    let statuses: HashMap<String, Status> = sets
        .iter()
        .filter(|s| s.track == Track::ProofExhibition)
        .flat_map(|s| s.benchmarks.iter().map(|b| (b.original.path(), b.status)))
        .collect();
    let proof_runs: Vec<IngestRecord> = runs
        .iter()
        .filter(|r| r.track == Some(Track::ProofExhibition))
        .cloned()
        .collect();
    let report = e2023_proof::report(&proof_runs, comp, &statuses);
    std::fs::create_dir_all(dir)?;
    crate::formats::datafile::write_json(&dir.join("proof-exhibition.json"), &report)?;
    std::fs::write(
        dir.join("proof-exhibition.md"),
        e2023_proof::markdown(&report),
    )?;
    Ok(report.lines)
}
