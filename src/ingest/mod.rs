//! Results ingestion: BenchExec result XMLs and log ZIPs (and the reference
//! tool's published `results-*.json.gz` files) into one normalized run table.
//!
//! ```text
//! inputs (dirs/files) --discover--> result XMLs + results files
//!   --(parallel, one file per task)--> xml::parse (streaming) + logs (ZIP random access)
//!   --interpret--> IngestRecord per run --sort--> runs.jsonl.gz + Summary
//! ```
//!
//! * [`xml`]: streaming result-XML reader (plain, `.bz2`, `.gz`);
//! * [`logs`]: log location (table-generator's rule) and ZIP access;
//! * [`interpret`]: status → answer, and the track data from the log;
//! * [`manifest`]: the generation manifest (reading side);
//! * [`record`]: the normalized record and its JSON Lines format;
//! * [`anchor`]: import of `results-*.json.gz`;
//! * [`summary`]: the accounting;
//! * [`synth`]: a synthetic BenchExec result set generator (tests, benchmark).
//!
//! Nothing aborts the whole ingestion: a run that cannot be interpreted is an
//! `error` record with its reason, a file that cannot be read is reported in
//! the [`Summary`] (and makes [`Ingested::has_unreadable`] true).

pub mod anchor;
pub mod file;
pub mod interpret;
pub mod logs;
pub mod manifest;
pub mod record;
pub mod summary;
pub mod synth;
pub mod xml;

pub use manifest::{Manifest, ManifestIndex, ManifestRun};
pub use record::{IngestRecord, RunAnswer, read_jsonl, sort_records, write_jsonl};
pub use summary::{FileSummary, Summary};

use crate::model::Competition;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Options of an ingestion.
pub struct IngestOptions<'a> {
    /// The competition (for divisions).
    pub competition: &'a Competition,
    /// The generation manifest, if any.
    pub manifest: Option<&'a ManifestIndex>,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// What an ingestion produced.
#[derive(Debug)]
pub struct Ingested {
    /// Every record, in canonical order.
    pub records: Vec<IngestRecord>,
    /// The accounting.
    pub summary: Summary,
}

impl Ingested {
    /// Whether some input could not be read.
    pub fn has_unreadable(&self) -> bool {
        self.summary.has_unreadable()
    }
}

/// An input file found by discovery.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Input {
    /// A BenchExec result XML (`….results.….xml[.bz2|.gz]`).
    ResultXml {
        /// The file.
        path: PathBuf,
        /// Its name relative to the input root.
        source: String,
    },
    /// A reference-tool results file (`*.json`, `*.json.gz`).
    ResultsJson {
        /// The file.
        path: PathBuf,
        /// Its name relative to the input root.
        source: String,
    },
}

/// Whether a file name is a BenchExec result XML.
pub fn is_result_xml(name: &str) -> bool {
    name.contains(".results.")
        && (name.ends_with(".xml") || name.ends_with(".xml.bz2") || name.ends_with(".xml.gz"))
}

/// Whether a file name is a reference-tool results file (`results-*.json[.gz]`).
pub fn is_results_json(name: &str) -> bool {
    name.starts_with("results") && (name.ends_with(".json") || name.ends_with(".json.gz"))
}

/// Finds the input files under `roots` (directories are walked, sorted; a file
/// is taken as given if its name fits). Returns the inputs, sorted, and the
/// problems (missing paths, files of unknown kind).
pub fn discover(roots: &[PathBuf]) -> (Vec<Input>, Vec<String>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for root in roots {
        if root.is_file() {
            let name = root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if is_result_xml(&name) {
                inputs.push(Input::ResultXml {
                    path: root.clone(),
                    source: name,
                });
            } else if name.ends_with(".json") || name.ends_with(".json.gz") {
                inputs.push(Input::ResultsJson {
                    path: root.clone(),
                    source: name,
                });
            } else {
                errors.push(format!(
                    "{}: not a result XML (….results.….xml[.bz2|.gz]) or results file (*.json[.gz])",
                    root.display()
                ));
            }
            continue;
        }
        if !root.is_dir() {
            errors.push(format!("{}: no such file or directory", root.display()));
            continue;
        }
        let walker = walkdir::WalkDir::new(root)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                let n = e.file_name().to_string_lossy();
                !(e.file_type().is_dir()
                    && e.depth() > 0
                    && (n.ends_with(".files") || n.ends_with(".logfiles")))
            });
        for entry in walker {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    errors.push(format!("{}: {e}", root.display()));
                    continue;
                }
            };
            if !entry.file_type().is_file() {
                continue;
            }
            let name = entry.file_name().to_string_lossy();
            let source = entry
                .path()
                .strip_prefix(root)
                .unwrap_or(entry.path())
                .to_string_lossy()
                .into_owned();
            if is_result_xml(&name) {
                inputs.push(Input::ResultXml {
                    path: entry.path().to_path_buf(),
                    source,
                });
            } else if is_results_json(&name) {
                inputs.push(Input::ResultsJson {
                    path: entry.path().to_path_buf(),
                    source,
                });
            }
        }
    }
    inputs.sort();
    inputs.dedup();
    (inputs, errors)
}

fn import_json(path: &Path, source: &str, comp: &Competition) -> file::FileOutcome {
    let mut summary = FileSummary {
        source: source.to_string(),
        kind: "results-json",
        ..Default::default()
    };
    let records = match anchor::import(path, source, comp) {
        Ok(r) => r,
        Err(e) => {
            summary.unreadable.push(e);
            Vec::new()
        }
    };
    summary.runs = records.len() as u64;
    file::FileOutcome {
        records,
        summary,
        header: None,
    }
}

/// Legacy BenchExec writes the same runs to a per-rundefinition file (no
/// `block`) and per-task-set files (`block`): keep the former only
/// (benchexec-formats.md 9 #13).
fn drop_duplicate_files(outcomes: &mut [file::FileOutcome]) {
    let key = |o: &file::FileOutcome| -> Option<(String, Option<String>)> {
        let h = o.header.as_ref()?;
        let src = &o.summary.source;
        let cut = src.rfind(".results.")?;
        Some((
            src[..cut].to_string(),
            h.rundefinition().map(str::to_string),
        ))
    };
    let mut whole: BTreeMap<(String, Option<String>), String> = BTreeMap::new();
    for o in outcomes.iter() {
        if let (Some(k), Some(h)) = (key(o), o.header.as_ref())
            && h.block.is_none()
        {
            whole.insert(k, o.summary.source.clone());
        }
    }
    for o in outcomes.iter_mut() {
        let has_block = o.header.as_ref().is_some_and(|h| h.block.is_some());
        if has_block
            && let Some(k) = key(o)
            && let Some(w) = whole.get(&k)
        {
            o.summary.warnings.push(format!(
                "its {} runs are also in {w} (per-rundefinition file); skipped",
                o.records.len()
            ));
            o.records.clear();
        }
    }
}

/// Ingests the given inputs (see the module documentation).
pub fn ingest(roots: &[PathBuf], opts: &IngestOptions<'_>) -> Ingested {
    let (inputs, input_errors) = discover(roots);
    ingest_inputs(&inputs, input_errors, opts)
}

/// Ingests already discovered inputs.
pub fn ingest_inputs(
    inputs: &[Input],
    input_errors: Vec<String>,
    opts: &IngestOptions<'_>,
) -> Ingested {
    let bar = if opts.progress {
        let b = indicatif::ProgressBar::new(inputs.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} files {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut outcomes: Vec<file::FileOutcome> = inputs
        .par_iter()
        .map(|input| {
            let out = match input {
                Input::ResultXml { path, source } => {
                    file::ingest_xml(path, source, opts.competition, opts.manifest)
                }
                Input::ResultsJson { path, source } => import_json(path, source, opts.competition),
            };
            bar.inc(1);
            out
        })
        .collect();
    bar.finish_and_clear();
    drop_duplicate_files(&mut outcomes);
    // No preallocation: the vector grows in place (mremap) while each file's
    // records are moved and freed, so the records are never held twice.
    let mut records = Vec::new();
    let mut files = Vec::with_capacity(outcomes.len());
    for mut o in outcomes {
        o.summary.records = o.records.len() as u64;
        for r in &o.records {
            *o.summary
                .statuses
                .entry(r.status.clone().unwrap_or_else(|| "(none)".into()))
                .or_default() += 1;
            *o.summary
                .answers
                .entry(r.answer.as_str().to_string())
                .or_default() += 1;
        }
        records.append(&mut o.records);
        drop(o.records);
        files.push(o.summary);
    }
    sort_records(&mut records);
    Ingested {
        records,
        summary: Summary::new(files, input_errors),
    }
}
