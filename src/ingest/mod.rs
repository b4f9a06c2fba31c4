//! Results ingestion: BenchExec result XMLs and log ZIPs (and the reference
//! tool's published `results-*.json.gz` files) into one normalized run table.
//!
//! ```text
//! inputs (dirs/files) --discover--> result XMLs + results files
//!   --(parallel, one file per task)--> xml::parse (streaming) + logs (ZIP random access)
//!   --interpret--> IngestRecord per run --sort per file-->
//!   in memory: concatenate, stable sort            ([`ingest`])
//!   streaming: spill runs, k-way merge to the file ([`ingest_to_file`])
//!   --> runs.jsonl.gz + Summary
//! ```
//!
//! * [`xml`]: streaming result-XML reader (plain, `.bz2`, `.gz`);
//! * [`logs`]: log location (table-generator's rule) and ZIP access;
//! * [`interpret`]: status → answer, and the track data from the log;
//! * [`manifest`]: the generation manifest (reading side);
//! * [`record`]: the normalized record and its canonical order;
//! * [`jsonl`]: the JSON Lines files (reader, streaming writer);
//! * [`spill`]: the external merge behind [`ingest_to_file`];
//! * [`anchor`]: import of `results-*.json.gz`;
//! * [`summary`]: the accounting;
//! * [`synth`]: a synthetic BenchExec result set generator (tests, benchmark).
//!
//! Nothing aborts the whole ingestion: a run that cannot be interpreted is an
//! `error` record with its reason, a file that cannot be read is reported in
//! the [`Summary`] (and makes [`Ingested::has_unreadable`] true).

mod anchor;
mod file;
mod interpret;
mod logs;
mod spill;
mod summary;
#[cfg(any(test, feature = "testkit"))]
pub mod synth;
mod xml;

pub use anchor::answer_of;
pub use interpret::{LogText, interpret, parse_unsat_core};
pub use logs::{MAX_LOG_BYTES, output_start};

pub use crate::formats::jsonl::{JsonlWriter, read_jsonl, write_jsonl};
pub use crate::formats::runs_manifest::{Manifest, ManifestIndex, ManifestRun};
pub use crate::formats::runtable::{IngestRecord, RunAnswer, SortKey, sort_records};
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

/// One input file after parsing: its records sorted (stably) in canonical
/// order and stored as `T` (in memory, or spilled to a run file), with the
/// accounting that is only filled in once duplicates are known.
struct Part<T> {
    summary: FileSummary,
    header: Option<xml::ResultHeader>,
    records: u64,
    statuses: BTreeMap<String, u64>,
    answers: BTreeMap<String, u64>,
    kept: bool,
    stored: T,
}

fn read_input(input: &Input, opts: &IngestOptions<'_>) -> file::FileOutcome {
    match input {
        Input::ResultXml { path, source } => {
            file::ingest_xml(path, source, opts.competition, opts.manifest)
        }
        Input::ResultsJson { path, source } => import_json(path, source, opts.competition),
    }
}

/// Reads every input (in parallel, one file per task), sorts its records and
/// hands them to `store` (with the input's index), keeping only the
/// accounting. At most one file's records per thread are in memory at once
/// unless `store` keeps them.
fn read_parts<T: Send, E: Send>(
    inputs: &[Input],
    opts: &IngestOptions<'_>,
    store: impl Fn(usize, Vec<IngestRecord>) -> Result<T, E> + Sync + Send,
) -> Result<Vec<Part<T>>, E> {
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
    let parts = inputs
        .par_iter()
        .enumerate()
        .map(|(i, input)| {
            let mut o = read_input(input, opts);
            let mut statuses = BTreeMap::new();
            let mut answers = BTreeMap::new();
            for r in &o.records {
                *statuses
                    .entry(r.status.clone().unwrap_or_else(|| "(none)".into()))
                    .or_default() += 1;
                *answers.entry(r.answer.as_str().to_string()).or_default() += 1;
            }
            o.records.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            let part = Part {
                summary: o.summary,
                header: o.header,
                records: o.records.len() as u64,
                statuses,
                answers,
                kept: true,
                stored: store(i, o.records)?,
            };
            bar.inc(1);
            Ok(part)
        })
        .collect();
    bar.finish_and_clear();
    parts
}

/// Legacy BenchExec writes the same runs to a per-rundefinition file (no
/// `block`) and per-task-set files (`block`): keep the former only
/// (benchexec-formats.md 9 #13).
fn drop_duplicate_files<T>(parts: &mut [Part<T>]) {
    let key = |o: &Part<T>| -> Option<(String, Option<String>)> {
        let h = o.header.as_ref()?;
        let src = &o.summary.source;
        let cut = src.rfind(".results.")?;
        Some((
            src[..cut].to_string(),
            h.rundefinition().map(str::to_string),
        ))
    };
    let mut whole: BTreeMap<(String, Option<String>), String> = BTreeMap::new();
    for o in parts.iter() {
        if let (Some(k), Some(h)) = (key(o), o.header.as_ref())
            && h.block.is_none()
        {
            whole.insert(k, o.summary.source.clone());
        }
    }
    for o in parts.iter_mut() {
        let has_block = o.header.as_ref().is_some_and(|h| h.block.is_some());
        if has_block
            && let Some(k) = key(o)
            && let Some(w) = whole.get(&k)
        {
            o.summary.warnings.push(format!(
                "its {} runs are also in {w} (per-rundefinition file); skipped",
                o.records
            ));
            o.kept = false;
        }
    }
}

/// Drops duplicate files and completes the accounting: the stored records of
/// the kept files (in input order) and the summary.
fn settle<T>(mut parts: Vec<Part<T>>, input_errors: Vec<String>) -> (Vec<T>, Summary) {
    drop_duplicate_files(&mut parts);
    let mut kept = Vec::with_capacity(parts.len());
    let mut files = Vec::with_capacity(parts.len());
    for p in parts {
        let mut summary = p.summary;
        if p.kept {
            summary.records = p.records;
            summary.statuses = p.statuses;
            summary.answers = p.answers;
            kept.push(p.stored);
        }
        files.push(summary);
    }
    (kept, Summary::new(files, input_errors))
}

/// Ingests the given inputs (see the module documentation), keeping every
/// record in memory. For big inputs, [`ingest_to_file`] needs far less memory
/// and writes the same bytes as [`write_jsonl`] of these records.
pub fn ingest(roots: &[PathBuf], opts: &IngestOptions<'_>) -> Ingested {
    let (inputs, input_errors) = discover(roots);
    ingest_inputs(&inputs, input_errors, opts)
}

/// Ingests already discovered inputs (in memory).
pub fn ingest_inputs(
    inputs: &[Input],
    input_errors: Vec<String>,
    opts: &IngestOptions<'_>,
) -> Ingested {
    let Ok(parts) = read_parts(inputs, opts, |_, records| {
        Ok::<_, std::convert::Infallible>(records)
    });
    let (kept, summary) = settle(parts, input_errors);
    // No preallocation: the vector grows in place (mremap) while each file's
    // records are moved and freed, so the records are never held twice.
    let mut records = Vec::new();
    for mut r in kept {
        records.append(&mut r);
    }
    // Stable: equal keys stay in input order, as in the streaming merge.
    sort_records(&mut records);
    Ingested { records, summary }
}

/// Ingests the given inputs into a JSON Lines file (gzip-compressed when its
/// name ends in `.gz`) with bounded memory: each file's sorted records are
/// spilled to a temporary directory next to `output` and merged ([`spill`]).
/// The file holds exactly the bytes [`write_jsonl`] writes for
/// [`ingest`]'s records, and the summary is the same.
///
/// A single input is ingested in memory (its records are held for its sort
/// anyway) and written the same way.
///
/// Errors are system errors (output or temporary files cannot be written);
/// input problems are in the summary. Temporary files are removed in every case.
pub fn ingest_to_file(
    roots: &[PathBuf],
    opts: &IngestOptions<'_>,
    output: &Path,
) -> anyhow::Result<Summary> {
    let (inputs, input_errors) = discover(roots);
    ingest_inputs_to_file(&inputs, input_errors, opts, output, spill::default_fan_in())
}

/// Ingests already discovered inputs into a file, merging at most `fan_in`
/// spilled runs at once (see [`ingest_to_file`]).
pub fn ingest_inputs_to_file(
    inputs: &[Input],
    input_errors: Vec<String>,
    opts: &IngestOptions<'_>,
    output: &Path,
    fan_in: usize,
) -> anyhow::Result<Summary> {
    if inputs.len() <= 1 {
        // One file's records are in memory for its sort anyway: spilling and
        // merging them would only add work (a 65k-row results file: 0.45 s
        // instead of 1.0 s).
        let got = ingest_inputs(inputs, input_errors, opts);
        write_jsonl(output, &got.records)?;
        return Ok(got.summary);
    }
    let mut out = JsonlWriter::create(output)?;
    let dir = spill::SpillDir::create(output)?;
    let parts = read_parts(inputs, opts, |i, records| {
        spill::write_run(&dir.file(&format!("file-{i}")), &records)
    })?;
    let (runs, summary) = settle(parts, input_errors);
    spill::merge_into(&dir, runs, fan_in, &mut out)?;
    out.finish()?;
    Ok(summary)
}
