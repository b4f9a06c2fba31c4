//! After the runs: every run of each definition accounted for. A definition
//! that "ran" (BenchExec exited normally with its result files) can still miss
//! runs or have runs that failed to start (an archive not unpacked, a tool
//! BenchExec could not execute); the runs manifest of the generation names
//! every run it should have made.

use super::runner::{DefinitionRun, reason_line};
use super::step::{StageResult, Step};
use crate::benchexec::Manifest;
use crate::formats::runs_manifest::{self, ManifestIndex};
use crate::ingest::{self, IngestOptions};
use crate::model::{Competition, DEFAULT_YEAR};
use std::collections::BTreeMap;
use std::path::Path;

/// One problem line per definition of `runs` that did not run completely:
/// the backend's own failure reason, or (for a definition that ran) the
/// accounting of its runs against `index` (expected, present, missing, failed
/// to start, the first such run) followed by BenchExec's reason line from its
/// log. Empty when every definition ran and every expected run is there and
/// started. Without `index`, only the backends' statuses count.
pub fn account_runs(
    execdir: &Path,
    manifest: &Manifest,
    runs: &[DefinitionRun],
    index: Option<&ManifestIndex>,
) -> StageResult<Vec<String>> {
    Step::Runs.scope(|| {
        // Identity comes from the runs manifest; the definition is only consulted
        // for runs the manifest does not know (which the accounting reports).
        let comp =
            Competition::builtin(manifest.year).or_else(|_| Competition::builtin(DEFAULT_YEAR))?;
        let mut problems = Vec::new();
        for run in runs {
            if let Some(why) = run.failure() {
                problems.push(format!("{}: {why}", run.definition));
                continue;
            }
            let Some(index) = index else { continue };
            if let Some(problem) =
                account_definition(execdir, manifest, &run.definition, index, &comp)
            {
                problems.push(match run.log.as_deref().and_then(reason_line) {
                    Some(why) => format!("{problem}; BenchExec said: {why}"),
                    None => problem,
                });
            }
        }
        Ok(problems)
    })
}

/// What the result files of one definition say against the runs manifest.
#[derive(Debug, Default)]
pub struct DefinitionState {
    /// The runs its results lack: rundefinition name -> task paths (relative
    /// to the execution directory). What `run-local --only-missing` runs again.
    pub missing: BTreeMap<String, Vec<String>>,
    /// Runs BenchExec left unfinished in its result files: listed without any
    /// column (BenchExec was stopped, by an interrupt, a Slurm cancel or a lost
    /// node, before the run ended). Their definition is redone whole, into a new
    /// result set (see `workspace::rounds`); a run with a result, even `FAILED`,
    /// is not counted.
    pub unfinished: usize,
}

/// The [`DefinitionState`] of definition `file`, from one reading of its
/// result files against the runs manifest `index`.
pub fn definition_state(
    execdir: &Path,
    manifest: &Manifest,
    file: &str,
    index: &ManifestIndex,
) -> anyhow::Result<DefinitionState> {
    let comp = identity(manifest)?;
    let mut out = DefinitionState::default();
    let Some((_, got)) = ingest_definition(execdir, manifest, file, index, &comp) else {
        return Ok(out);
    };
    for r in &got.records {
        if r.error.as_deref() == Some(ingest::MISSING_ERROR) {
            if let Some(rd) = &r.rundefinition {
                out.missing
                    .entry(rd.clone())
                    .or_default()
                    .push(r.task.clone());
            }
        } else if r.status.is_none() {
            out.unfinished += 1;
        }
    }
    Ok(out)
}

/// The runs of definition `file` its results lack ([`DefinitionState::missing`]).
pub fn missing_runs(
    execdir: &Path,
    manifest: &Manifest,
    file: &str,
    index: &ManifestIndex,
) -> anyhow::Result<BTreeMap<String, Vec<String>>> {
    Ok(definition_state(execdir, manifest, file, index)?.missing)
}

/// How many runs of definition `file` BenchExec left unfinished
/// ([`DefinitionState::unfinished`]).
pub fn unfinished_runs(
    execdir: &Path,
    manifest: &Manifest,
    file: &str,
    index: &ManifestIndex,
) -> anyhow::Result<usize> {
    Ok(definition_state(execdir, manifest, file, index)?.unfinished)
}

/// The competition used for runs the manifest does not know: the manifest's
/// year if it is a built-in edition, else the default one. (Identity comes
/// from the runs manifest; unknown runs are reported by the accounting.)
fn identity(manifest: &Manifest) -> anyhow::Result<Competition> {
    Ok(Competition::builtin(manifest.year).or_else(|_| Competition::builtin(DEFAULT_YEAR))?)
}

/// The results of definition `file` ingested against its part of the runs
/// manifest: (expected runs, what ingestion found); `None` for a definition
/// the generation manifest does not have.
fn ingest_definition(
    execdir: &Path,
    manifest: &Manifest,
    file: &str,
    index: &ManifestIndex,
    comp: &Competition,
) -> Option<(usize, ingest::Ingested)> {
    let runs: Vec<_> = index.definition_runs(file).map(|r| r.to_owned()).collect();
    let expected = runs.len();
    let mine = ManifestIndex::new(runs_manifest::Manifest {
        format: runs_manifest::MANIFEST_FORMAT,
        runs,
    });
    let dir = execdir.join(&manifest.definitions.get(file)?.results_dir);
    let got = ingest::ingest(
        &[dir],
        &IngestOptions {
            competition: comp,
            manifest: Some(&mine),
            progress: false,
        },
    );
    Some((expected, got))
}

/// The runs of definition `file` that BenchExec should have made but did not
/// (missing from its result files) or that failed to start, as one line naming
/// the definition, the counts and the first such run; `None` when every run is
/// there and started.
fn account_definition(
    execdir: &Path,
    manifest: &Manifest,
    file: &str,
    index: &ManifestIndex,
    comp: &Competition,
) -> Option<String> {
    let (expected, got) = ingest_definition(execdir, manifest, file, index, comp)?;
    let acc = got.summary.manifest?;
    if !acc.incomplete() && got.summary.input_errors.is_empty() {
        return None;
    }
    let t = &acc.total;
    let mut line = format!(
        "{file}: of {expected} expected run(s), {} present, {} missing, {} failed to start",
        t.present, t.missing, t.failed
    );
    if let Some(first) = acc.failed_runs.first().or(acc.missing_runs.first()) {
        line.push_str(&format!(" (first: {first})"));
    }
    for e in &got.summary.input_errors {
        line.push_str(&format!("; {e}"));
    }
    Some(line)
}
