//! The run manifest written by BenchExec generation: what each run is.
//!
//! A run in a result file is identified by the benchmark-definition file
//! (`benchmarkname` in the XML), the rundefinition name and the task (`run@name`).
//! The manifest maps that triple to the competition identity of the run
//! (solver, participation, track, division, logic, benchmark). Schema in
//! `docs/ingest.md`.

use crate::formats::datafile::{self, DataFileError};
use crate::formats::inventory::Smt2File;
use crate::model::{Division, Logic, Track};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The manifest format version this crate reads.
pub const MANIFEST_FORMAT: u32 = 1;

/// A manifest file: `{"format": 1, "runs": [...]}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Format version ([`MANIFEST_FORMAT`]).
    pub format: u32,
    /// One entry per (benchmark definition, rundefinition, task).
    pub runs: Vec<ManifestRun>,
}

/// One run of the competition as generated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestRun {
    /// Benchmark-definition file name (`cvc5_SingleQuery_QF_BV.xml`); the result
    /// XML's `benchmarkname` is this without `.xml`.
    pub benchmark_definition: String,
    /// Rundefinition name (`cvc5,0,SingleQuery`).
    pub rundefinition: String,
    /// Task file path as written in the definition (`tasks/QF_BV/123_x.yml`);
    /// matched against `run@name` by basename, then by the longest common
    /// path suffix.
    pub task: String,
    /// Solver name.
    pub solver: String,
    /// Participation index in the submission.
    pub participation: u32,
    /// Track.
    pub track: Track,
    /// Division.
    pub division: Division,
    /// Logic.
    pub logic: Logic,
    /// The benchmark (its library identity).
    pub benchmark: Smt2File,
}

/// A run that several manifest entries match equally well (the same benchmark
/// definition, rundefinition and task basename, and as long a path suffix).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{entries} manifest entries match task '{task}' equally well")]
pub struct AmbiguousRun {
    /// The run's task, as in the result file.
    pub task: String,
    /// How many entries match.
    pub entries: usize,
}

/// A manifest indexed for lookups.
#[derive(Debug, Default)]
pub struct ManifestIndex {
    runs: Vec<ManifestRun>,
    by_key: HashMap<(String, String, String), Vec<usize>>,
}

fn basename(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

fn common_suffix(a: &str, b: &str) -> usize {
    a.rsplit('/')
        .zip(b.rsplit('/'))
        .take_while(|(x, y)| x == y && *x != ".." && *x != ".")
        .count()
}

impl ManifestIndex {
    /// Reads a manifest file (JSON or JSON.gz) and indexes it.
    pub fn read(path: &Path) -> Result<ManifestIndex, DataFileError> {
        let m: Manifest = datafile::read_json(path)?;
        if m.format != MANIFEST_FORMAT {
            return Err(DataFileError::new(
                path,
                format!(
                    "manifest format {} (this version reads {MANIFEST_FORMAT})",
                    m.format
                ),
            ));
        }
        Ok(ManifestIndex::new(m))
    }

    /// Indexes a manifest.
    pub fn new(m: Manifest) -> ManifestIndex {
        let mut by_key: HashMap<_, Vec<usize>> = HashMap::new();
        for (i, r) in m.runs.iter().enumerate() {
            let bench = r
                .benchmark_definition
                .strip_suffix(".xml")
                .unwrap_or(&r.benchmark_definition);
            by_key
                .entry((
                    bench.to_string(),
                    r.rundefinition.clone(),
                    basename(&r.task).to_string(),
                ))
                .or_default()
                .push(i);
        }
        ManifestIndex {
            runs: m.runs,
            by_key,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// Whether the manifest is empty.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Every entry, in manifest order (indices of [`ManifestIndex::lookup_index`]).
    pub fn runs(&self) -> &[ManifestRun] {
        &self.runs
    }

    /// The entry at `index` (from [`ManifestIndex::lookup_index`]).
    pub fn get(&self, index: usize) -> &ManifestRun {
        &self.runs[index]
    }

    /// The entry of a run; `Ok(None)` if the manifest has none, `Err` if several
    /// entries match equally well.
    pub fn lookup(
        &self,
        benchmarkname: &str,
        rundefinition: &str,
        task: &str,
    ) -> Result<Option<&ManifestRun>, AmbiguousRun> {
        Ok(self
            .lookup_index(benchmarkname, rundefinition, task)?
            .map(|i| &self.runs[i]))
    }

    /// The index of a run's entry (see [`ManifestIndex::lookup`]).
    pub fn lookup_index(
        &self,
        benchmarkname: &str,
        rundefinition: &str,
        task: &str,
    ) -> Result<Option<usize>, AmbiguousRun> {
        let key = (
            benchmarkname.to_string(),
            rundefinition.to_string(),
            basename(task).to_string(),
        );
        let Some(cands) = self.by_key.get(&key) else {
            return Ok(None);
        };
        if let [one] = cands.as_slice() {
            return Ok(Some(*one));
        }
        let score = |i: &usize| common_suffix(&self.runs[*i].task, task);
        let best = cands.iter().map(score).max().unwrap_or(0);
        let winners: Vec<_> = cands.iter().filter(|i| score(i) == best).collect();
        match winners.as_slice() {
            [one] => Ok(Some(**one)),
            _ => Err(AmbiguousRun {
                task: task.to_string(),
                entries: winners.len(),
            }),
        }
    }
}
