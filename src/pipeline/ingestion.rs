//! Step 6, ingestion: the BenchExec result files of an execution directory
//! into the run table.

use super::step::{StageResult, Step};
use crate::ingest::{self, IngestOptions, Ingested, ManifestIndex};
use crate::model::Competition;
use std::path::{Path, PathBuf};

/// The results tree of an execution directory (`EXECDIR/results`).
pub fn results_dir(exec: &Path) -> PathBuf {
    exec.join("results")
}

/// Ingests `EXECDIR/results` with the runs manifest of `EXECDIR`; nothing
/// (no records) when no definition left results.
pub fn ingest_results(exec: &Path, comp: &Competition, progress: bool) -> StageResult<Ingested> {
    Step::Ingestion.scope(|| {
        let index = ManifestIndex::read(&exec.join(crate::formats::generation::RUNS_FILE))?;
        let results = results_dir(exec);
        if !results.is_dir() {
            return Ok(Ingested {
                records: Vec::new(),
                summary: Default::default(),
            });
        }
        Ok(ingest::ingest(
            std::slice::from_ref(&results),
            &IngestOptions {
                competition: comp,
                manifest: Some(&index),
                progress,
            },
        ))
    })
}

/// [`ingest_results`], with an unreadable result file an error.
pub fn ingest_complete(exec: &Path, comp: &Competition, progress: bool) -> StageResult<Ingested> {
    Step::Ingestion.scope(|| {
        let got = ingest_results(exec, comp, progress)?;
        if got.has_unreadable() {
            anyhow::bail!("unreadable results:\n{}", got.summary.render());
        }
        Ok(got)
    })
}

/// [`ingest_results`] into the run table `table` with bounded memory
/// ([`ingest::ingest_to_file`]); an empty table when no definition left
/// results. Returns the ingestion's summary (unreadable files and the
/// accounting are the caller's to judge).
pub fn ingest_results_to(
    exec: &Path,
    comp: &Competition,
    table: &Path,
) -> StageResult<ingest::Summary> {
    Step::Ingestion.scope(|| {
        let index = ManifestIndex::read(&exec.join(crate::formats::generation::RUNS_FILE))?;
        let results = results_dir(exec);
        let identity = ingest::TableIdentity::of(comp);
        if !results.is_dir() {
            ingest::write_jsonl(table, Some(&identity), &[])?;
            return Ok(Default::default());
        }
        let opts = IngestOptions {
            competition: comp,
            manifest: Some(&index),
            progress: false,
        };
        Ok(ingest::ingest_to_file(
            std::slice::from_ref(&results),
            &opts,
            table,
        )?)
    })
}
