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
//! * `manifest`: the generation manifest (reading side; [`crate::benchexec::Manifest`]);
//! * `record`: the normalized record and its canonical order ([`crate::formats::runtable`]);
//! * `jsonl`: the JSON Lines files (reader, streaming writer; [`crate::formats::jsonl`]);
//! * [`spill`]: the external merge behind [`ingest_to_file`];
//! * [`anchor`]: import of `results-*.json.gz`;
//! * [`summary`]: the accounting;
//! * `synth`: a synthetic BenchExec result set generator (tests, benchmark).
//!
//! Nothing aborts the whole ingestion: a run that cannot be interpreted is an
//! `error` record with its reason, a file that cannot be read is reported in
//! the [`Summary`] (and makes [`Ingested::has_unreadable`] true).

mod anchor;
pub mod aws_csv;
mod file;
mod interpret;
mod logs;
mod schedule;
mod spill;
mod summary;
#[cfg(any(test, feature = "testkit"))]
pub mod synth;
#[cfg(any(test, feature = "testkit"))]
pub mod synth_competition;
mod xml;

pub use anchor::answer_of;
pub use interpret::{CoreError, LogText, interpret, parse_unsat_core};
pub use logs::{MAX_LOG_BYTES, output_start};
pub use spill::SpillError;

pub use crate::formats::jsonl::{JsonlWriter, TableError, read_jsonl, read_table, write_jsonl};
pub use crate::formats::runs_manifest::{Manifest, ManifestIndex, ManifestRun, RunRef};
pub use crate::formats::runtable::{IngestRecord, RunAnswer, SortKey, sort_records};
pub use crate::formats::table_identity::{TableIdentity, check_table};
pub use file::{MAX_PLAUSIBLE_SECONDS, plausible_seconds};
pub use interpret::{MAX_CORE_OUTPUT_BYTES, MAX_PROOF_OUTPUT_BYTES, MAX_STATUS_DEPTH};
pub use logs::MAX_LOG_READ_BYTES;
pub use summary::{FileSummary, GroupAccount, MAX_LISTED_RUNS, ManifestAccounting, Summary};
pub use xml::{
    MAX_ATTRIBUTE_BYTES, MAX_COLUMNS_PER_RUN, MAX_ELEMENT_BYTES, MAX_FILE_ATTRIBUTE_BYTES,
    MAX_RUNS_PER_FILE,
};

use crate::benchexec::phase;
use crate::model::Competition;
use std::collections::{BTreeMap, BTreeSet};
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
    /// Cloud/Parallel results as CSV ([`aws_csv`]; `*.csv` given, or
    /// `results*.csv` in a directory).
    ResultsCsv {
        /// The file.
        path: PathBuf,
        /// Its name relative to the input root.
        source: String,
    },
}

impl Input {
    /// The file's size in bytes (0 when it cannot be read: the reader reports
    /// that), the estimate of its reading cost for the schedule.
    fn size(&self) -> u64 {
        let (Input::ResultXml { path, .. }
        | Input::ResultsJson { path, .. }
        | Input::ResultsCsv { path, .. }) = self;
        std::fs::metadata(path).map_or(0, |m| m.len())
    }
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

/// What discovery found under the given paths.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    /// The input files, sorted, each once (also when reached through several
    /// symbolic links).
    pub inputs: Vec<Input>,
    /// Problems: missing paths, files of unknown kind, unreadable directories,
    /// symbolic-link loops, links leading outside the given paths.
    pub errors: Vec<String>,
    /// Remarks: a file reached twice (read once).
    pub warnings: Vec<String>,
}

impl Discovered {
    /// Already known inputs (tests, callers that list files themselves).
    pub fn of(inputs: Vec<Input>, errors: Vec<String>) -> Discovered {
        Discovered {
            inputs,
            errors,
            warnings: Vec::new(),
        }
    }
}

/// Finds the input files under `roots` (directories are walked, sorted; a file
/// is taken as given if its name fits).
///
/// Symbolic links are followed when they lead inside one of the given paths
/// (a link loop is reported, not followed); a link leading elsewhere is
/// reported and not followed. A file reached twice is read once (a warning).
pub fn discover(roots: &[PathBuf]) -> Discovered {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let canon_roots: Vec<PathBuf> = roots
        .iter()
        .filter_map(|r| std::fs::canonicalize(r).ok())
        .collect();
    let inside = |p: &Path| canon_roots.iter().any(|r| p.starts_with(r));
    // Canonical path -> the source it was first found as.
    let mut seen: std::collections::HashMap<PathBuf, String> = std::collections::HashMap::new();
    let mut take = |path: PathBuf, source: String, kind: u8, warnings: &mut Vec<String>| {
        let canon = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if let Some(first) = seen.get(&canon) {
            if *first != source {
                warnings.push(format!(
                    "{}: the same file as {first} (symbolic link); read once",
                    path.display()
                ));
            }
            return None;
        }
        seen.insert(canon, source.clone());
        Some(match kind {
            XML => Input::ResultXml { path, source },
            CSV => Input::ResultsCsv { path, source },
            _ => Input::ResultsJson { path, source },
        })
    };
    for root in roots {
        if root.is_file() {
            let name = root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let kind = if is_result_xml(&name) {
                XML
            } else if aws_csv::is_results_csv(&name) {
                CSV
            } else {
                JSON
            };
            if kind != JSON || name.ends_with(".json") || name.ends_with(".json.gz") {
                inputs.extend(take(root.clone(), name, kind, &mut warnings));
            } else {
                errors.push(format!(
                    "{}: not a result XML (….results.….xml[.bz2|.gz]), results file (*.json[.gz]) or CSV results (*.csv)",
                    root.display()
                ));
            }
            continue;
        }
        if !root.is_dir() {
            let what = if root.is_symlink() {
                "dangling symbolic link"
            } else {
                "no such file or directory"
            };
            errors.push(format!("{}: {what}", root.display()));
            continue;
        }
        let mut walker = walkdir::WalkDir::new(root)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter();
        while let Some(entry) = walker.next() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let at = e
                        .path()
                        .map_or_else(|| root.display().to_string(), |p| p.display().to_string());
                    if e.loop_ancestor().is_some() {
                        errors.push(format!("{at}: symbolic link loop; not followed"));
                    } else if e.path().is_some_and(|p| p.is_symlink() && !p.exists()) {
                        errors.push(format!("{at}: dangling symbolic link"));
                    } else {
                        errors.push(format!("{at}: {e}"));
                    }
                    continue;
                }
            };
            let n = entry.file_name().to_string_lossy();
            let is_dir = entry.file_type().is_dir();
            if is_dir && entry.depth() > 0 && (n.ends_with(".files") || n.ends_with(".logfiles")) {
                walker.skip_current_dir();
                continue;
            }
            if entry.path_is_symlink() {
                let target = std::fs::canonicalize(entry.path()).ok();
                if !target.as_deref().is_some_and(inside) {
                    errors.push(format!(
                        "{}: symbolic link to {}, outside the given paths; not followed",
                        entry.path().display(),
                        target.map_or_else(|| "?".into(), |t| t.display().to_string())
                    ));
                    if is_dir {
                        walker.skip_current_dir();
                    }
                    continue;
                }
            }
            if !entry.file_type().is_file() {
                continue;
            }
            let source = entry
                .path()
                .strip_prefix(root)
                .unwrap_or(entry.path())
                .to_string_lossy()
                .into_owned();
            if is_result_xml(&n) {
                inputs.extend(take(entry.path().to_path_buf(), source, XML, &mut warnings));
            } else if is_results_json(&n) {
                inputs.extend(take(
                    entry.path().to_path_buf(),
                    source,
                    JSON,
                    &mut warnings,
                ));
            } else if n.starts_with("results") && aws_csv::is_results_csv(&n) {
                inputs.extend(take(entry.path().to_path_buf(), source, CSV, &mut warnings));
            }
        }
    }
    inputs.sort();
    inputs.dedup();
    Discovered {
        inputs,
        errors,
        warnings,
    }
}

/// Kinds of input files found by [`discover`].
const XML: u8 = 0;
const JSON: u8 = 1;
const CSV: u8 = 2;

/// The message for inputs in which no result file was found.
pub fn no_inputs_message(roots: &[PathBuf]) -> String {
    let paths: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
    format!(
        "no result files (*.results.*.xml[.bz2|.gz], results*.json[.gz], results*.csv) found under {}",
        paths.join(", ")
    )
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
            summary.unreadable.push(e.to_string());
            Vec::new()
        }
    };
    summary.runs = records.len() as u64;
    file::FileOutcome {
        meta: vec![file::RunMeta::default(); records.len()],
        records,
        summary,
        header: None,
    }
}

fn import_csv(path: &Path, source: &str, comp: &Competition) -> file::FileOutcome {
    let got = aws_csv::import(path, source, comp);
    let mut summary = FileSummary {
        source: source.to_string(),
        kind: "results-csv",
        ..Default::default()
    };
    // Every bad row is a problem of the file (exit 1), named with its line.
    if got.rows > 0 && !got.bad.is_empty() {
        summary.unreadable.push(format!(
            "{}: {} of {} row(s) bad, not ingested",
            path.display(),
            got.bad.len(),
            got.rows
        ));
    }
    summary.unreadable.extend(got.bad);
    summary.runs = got.records.len() as u64;
    file::FileOutcome {
        meta: vec![file::RunMeta::default(); got.records.len()],
        records: got.records,
        summary,
        header: None,
    }
}

/// The solver x track x division of a run (accounting groups).
type GroupKey = (String, String, String);

fn group_of(r: &IngestRecord) -> GroupKey {
    (
        r.solver.clone(),
        r.track.map(|t| t.to_string()).unwrap_or_default(),
        r.division
            .as_ref()
            .map(|d| d.to_string())
            .unwrap_or_default(),
    )
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
    /// `(manifest entry, failed to start)` of the runs that matched the
    /// manifest (8 bytes a run: 1.8 million runs in 2025; a run listed in the
    /// accounting is named by the part's source and the entry's task).
    matched: Vec<(u32, bool)>,
    /// Runs not in the manifest (only with a manifest): per group, and the
    /// first few as `source: task`.
    unexpected: BTreeMap<GroupKey, u64>,
    unexpected_runs: Vec<String>,
    kept: bool,
    stored: T,
}

/// Where a part's records are kept ([`ingest_inputs`]: in memory; [`ingest_inputs_to_file`]:
/// a spilled run). The duplicate-file check reads the tasks back from there, and only for
/// the files it compares, instead of every part keeping a set of its task names (which
/// made the peak memory grow with the number of runs).
trait StoredRecords {
    /// Why the records cannot be read back.
    type Error;
    /// The distinct tasks (`run@name`) of the records.
    fn tasks(&self) -> Result<BTreeSet<String>, Self::Error>;
}

impl StoredRecords for Vec<IngestRecord> {
    type Error = std::convert::Infallible;
    fn tasks(&self) -> Result<BTreeSet<String>, Self::Error> {
        Ok(self.iter().map(|r| r.task.clone()).collect())
    }
}

impl StoredRecords for spill::Run {
    type Error = spill::SpillError;
    fn tasks(&self) -> Result<BTreeSet<String>, spill::SpillError> {
        spill::Run::tasks(self)
    }
}

fn read_input(input: &Input, opts: &IngestOptions<'_>) -> file::FileOutcome {
    match input {
        Input::ResultXml { path, source } => {
            file::ingest_xml(path, source, opts.competition, opts.manifest)
        }
        Input::ResultsJson { path, source } => import_json(path, source, opts.competition),
        Input::ResultsCsv { path, source } => import_csv(path, source, opts.competition),
    }
}

/// Reads every input (in parallel, one file per task, the biggest first), sorts its records and
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
    // Biggest files first (see `schedule`); results in input order.
    let order = schedule::largest_first(&inputs.iter().map(Input::size).collect::<Vec<_>>());
    let parts = schedule::run_in_order(&order, |i| {
        let input = &inputs[i];
        let mut o = read_input(input, opts);
        let mut statuses = BTreeMap::new();
        let mut answers = BTreeMap::new();
        let mut matched = Vec::new();
        let mut unexpected: BTreeMap<GroupKey, u64> = BTreeMap::new();
        let mut unexpected_runs = Vec::new();
        for (r, m) in o.records.iter().zip(&o.meta) {
            *statuses
                .entry(r.status.clone().unwrap_or_else(|| "(none)".into()))
                .or_default() += 1;
            *answers.entry(r.answer.as_str().to_string()).or_default() += 1;
            if opts.manifest.is_some() {
                match m.entry {
                    Some(e) => matched.push((e as u32, m.failed)),
                    None => {
                        *unexpected.entry(group_of(r)).or_default() += 1;
                        if unexpected_runs.len() < summary::MAX_LISTED_RUNS {
                            unexpected_runs.push(format!("{}: {}", r.source, r.task));
                        }
                    }
                }
            }
        }
        o.records.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let part = Part {
            summary: o.summary,
            header: o.header,
            records: o.records.len() as u64,
            statuses,
            answers,
            matched,
            unexpected,
            unexpected_runs,
            kept: true,
            stored: store(i, o.records)?,
        };
        bar.inc(1);
        Ok(part)
    });
    bar.finish_and_clear();
    parts
}

/// Legacy BenchExec writes the same runs to a per-rundefinition file (no
/// `block`) and per-task-set files (`block`): keep the former only
/// (benchexec-formats.md 9 #13) — once it is verified that every run of the
/// per-task-set file really is in the per-rundefinition file. Otherwise the
/// per-task-set file is kept (with a warning).
fn drop_duplicate_files<T: StoredRecords>(parts: &mut [Part<T>]) -> Result<(), T::Error> {
    let key = |o: &Part<T>| -> Option<(String, Option<String>)> {
        let h = o.header.as_ref()?;
        let src = &o.summary.source;
        let cut = src.rfind(".results.")?;
        Some((
            src[..cut].to_string(),
            h.rundefinition().map(str::to_string),
        ))
    };
    let mut whole: BTreeMap<(String, Option<String>), usize> = BTreeMap::new();
    for (i, o) in parts.iter().enumerate() {
        if let (Some(k), Some(h)) = (key(o), o.header.as_ref())
            && h.block.is_none()
        {
            whole.insert(k, i);
        }
    }
    // (per-task-set part, its per-rundefinition part), grouped by the latter so
    // that its tasks are read once.
    let mut pairs = Vec::new();
    for (i, o) in parts.iter().enumerate() {
        let has_block = o.header.as_ref().is_some_and(|h| h.block.is_some());
        if has_block
            && let Some(k) = key(o)
            && let Some(&w) = whole.get(&k)
        {
            pairs.push((w, i));
        }
    }
    pairs.sort_unstable();
    let mut verdicts = Vec::new();
    let mut whole_read: Option<usize> = None;
    let mut whole_tasks = BTreeSet::new();
    for (w, i) in pairs {
        if whole_read != Some(w) {
            whole_tasks = parts[w].stored.tasks()?;
            whole_read = Some(w);
        }
        let o = &parts[i];
        let tasks = o.stored.tasks()?;
        let absent = tasks.iter().filter(|t| !whole_tasks.contains(*t)).count();
        // Every run read (a file that could not be read completely has
        // fewer tasks than runs: then nothing is verified).
        let complete = tasks.len() as u64 == o.records && o.summary.unreadable.is_empty();
        verdicts.push((i, parts[w].summary.source.clone(), absent, complete));
    }
    for (i, w, absent, complete) in verdicts {
        let o = &mut parts[i];
        if absent == 0 && complete {
            o.summary.warnings.push(format!(
                "its {} runs are also in {w} (per-rundefinition file; verified); skipped",
                o.records
            ));
            o.kept = false;
        } else if absent > 0 {
            o.summary.warnings.push(format!(
                "a per-task-set file of the rundefinition of {w}, but {absent} of its {} runs are not in {w}: kept",
                o.records
            ));
        } else {
            o.summary.warnings.push(format!(
                "a per-task-set file of the rundefinition of {w}, not read completely (or with repeated tasks): kept"
            ));
        }
    }
    Ok(())
}

/// The manifest accounting over the kept parts, and the records of the
/// manifest runs that have no result (answer `error`,
/// `missing: no result for this run`), in manifest order.
fn account<T>(
    parts: &[Part<T>],
    manifest: &ManifestIndex,
) -> (summary::ManifestAccounting, Vec<IngestRecord>) {
    use summary::{GroupAccount, ManifestAccounting};
    let mut acc = ManifestAccounting::default();
    let mut groups: BTreeMap<GroupKey, GroupAccount> = BTreeMap::new();
    let group_of_entry = |r: &RunRef<'_>| -> GroupKey {
        (
            r.solver.to_string(),
            r.track.to_string(),
            r.division.to_string(),
        )
    };
    let new_group = |k: &GroupKey| GroupAccount {
        solver: k.0.clone(),
        track: k.1.clone(),
        division: k.2.clone(),
        ..Default::default()
    };
    let mut hits = vec![0u64; manifest.len()];
    for r in manifest.runs() {
        let k = group_of_entry(&r);
        groups
            .entry(k.clone())
            .or_insert_with(|| new_group(&k))
            .expected += 1;
    }
    for p in parts.iter().filter(|p| p.kept) {
        for &(e, failed) in &p.matched {
            let e = e as usize;
            acc.runs_read += 1;
            let entry = manifest.get(e);
            let what = || format!("{}: {}", p.summary.source, entry.task);
            let k = group_of_entry(&entry);
            let g = groups.entry(k.clone()).or_insert_with(|| new_group(&k));
            hits[e] += 1;
            if hits[e] > 1 {
                g.duplicated += 1;
                if acc.duplicated_runs.len() < summary::MAX_LISTED_RUNS {
                    acc.duplicated_runs.push(what());
                }
                continue;
            }
            g.present += 1;
            if failed {
                g.failed += 1;
                if acc.failed_runs.len() < summary::MAX_LISTED_RUNS {
                    acc.failed_runs.push(what());
                }
            }
        }
        for (k, n) in &p.unexpected {
            acc.runs_read += n;
            groups
                .entry(k.clone())
                .or_insert_with(|| new_group(k))
                .unexpected += n;
        }
        for u in &p.unexpected_runs {
            if acc.unexpected_runs.len() < summary::MAX_LISTED_RUNS {
                acc.unexpected_runs.push(u.clone());
            }
        }
    }
    let mut missing = Vec::new();
    for (i, r) in manifest.runs().enumerate() {
        if hits[i] > 0 {
            continue;
        }
        let k = group_of_entry(&r);
        groups
            .entry(k.clone())
            .or_insert_with(|| new_group(&k))
            .missing += 1;
        if acc.missing_runs.len() < summary::MAX_LISTED_RUNS {
            acc.missing_runs.push(format!(
                "{}: {}: {}",
                r.benchmark_definition, r.rundefinition, r.task
            ));
        }
        missing.push(missing_record(&r));
    }
    for g in groups.values() {
        acc.total.expected += g.expected;
        acc.total.present += g.present;
        acc.total.missing += g.missing;
        acc.total.failed += g.failed;
        acc.total.unexpected += g.unexpected;
        acc.total.duplicated += g.duplicated;
    }
    acc.groups = groups.into_values().collect();
    (acc, missing)
}

/// The record of a manifest run without a result.
pub fn missing_record(r: &RunRef<'_>) -> IngestRecord {
    let mut rec = IngestRecord::new(r.benchmark_definition, r.task);
    rec.rundefinition = Some(r.rundefinition.to_string());
    rec.solver = r.solver.to_string();
    rec.participation = Some(r.participation);
    rec.track = Some(r.track);
    rec.division = Some(r.division.clone());
    rec.logic = Some(r.logic.clone());
    rec.benchmark_key = r.benchmark.path();
    rec.benchmark = Some(r.benchmark.clone());
    rec.answer = RunAnswer::Error;
    rec.error = Some(MISSING_ERROR.into());
    rec.notes.push(format!(
        "in the runs manifest (benchmark definition {}) but in no result file",
        r.benchmark_definition
    ));
    rec
}

/// The `error` of a record written for a manifest run without a result.
pub const MISSING_ERROR: &str = "missing: no result for this run";

/// Drops duplicate files and completes the accounting: the stored records of
/// the kept files (in input order), the records of missing manifest runs, and
/// the summary.
fn settle<T: StoredRecords>(
    mut parts: Vec<Part<T>>,
    found: &Discovered,
    manifest: Option<&ManifestIndex>,
) -> Result<(Vec<T>, Vec<IngestRecord>, Summary), T::Error> {
    drop_duplicate_files(&mut parts)?;
    let (accounting, missing) = match manifest {
        Some(m) => {
            let (a, r) = account(&parts, m);
            (Some(a), r)
        }
        None => (None, Vec::new()),
    };
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
    let mut errors = found.errors.clone();
    if found.inputs.is_empty() && errors.is_empty() {
        errors.push("no result files found".into());
    }
    let mut summary = Summary::new(files, errors);
    summary.input_warnings = found.warnings.clone();
    summary.manifest = accounting;
    summary.add_missing_records(missing.len() as u64);
    Ok((kept, missing, summary))
}

/// Ingests the given inputs (see the module documentation), keeping every
/// record in memory. For big inputs, [`ingest_to_file`] needs far less memory
/// and writes the same bytes as [`write_jsonl`] of these records.
///
/// No input file at all is an input error ([`Ingested::has_unreadable`]).
pub fn ingest(roots: &[PathBuf], opts: &IngestOptions<'_>) -> Ingested {
    let mut found = discover(roots);
    if found.inputs.is_empty() {
        found.errors.push(no_inputs_message(roots));
    }
    ingest_inputs(&found, opts)
}

/// Ingests already discovered inputs (in memory).
pub fn ingest_inputs(found: &Discovered, opts: &IngestOptions<'_>) -> Ingested {
    let Ok(parts) = read_parts(&found.inputs, opts, |_, records| {
        Ok::<_, std::convert::Infallible>(records)
    });
    let Ok((kept, missing, summary)) = settle(parts, found, opts.manifest);
    // No preallocation: the vector grows in place (mremap) while each file's
    // records are moved and freed, so the records are never held twice.
    let mut records = Vec::new();
    for mut r in kept {
        records.append(&mut r);
    }
    // The missing runs after every file: ties keep this order (as the merge).
    records.extend(missing);
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
/// Errors are system errors (output or temporary files cannot be written) and
/// inputs without any result file (then nothing is written); other input
/// problems are in the summary. Temporary files are removed in every case.
pub fn ingest_to_file(
    roots: &[PathBuf],
    opts: &IngestOptions<'_>,
    output: &Path,
) -> Result<Summary, IngestError> {
    let found = discover(roots);
    if found.inputs.is_empty() {
        let mut message = no_inputs_message(roots);
        for e in &found.errors {
            message.push_str(&format!("\n{e}"));
        }
        return Err(IngestError::NoInputs {
            message,
            output: output.to_path_buf(),
        });
    }
    ingest_inputs_to_file(&found, opts, output, spill::default_fan_in())
}

/// Why an ingestion wrote no run table (problems of the inputs are in its
/// summary instead).
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// No result file under the roots.
    #[error("{message}; nothing written to {}", output.display())]
    NoInputs {
        /// What was looked for and where (and why directories could not be walked).
        message: String,
        /// The table that was not written.
        output: PathBuf,
    },
    /// The run table cannot be written.
    #[error(transparent)]
    Table(#[from] crate::formats::jsonl::TableError),
    /// The temporary files cannot be written or read.
    #[error(transparent)]
    Spill(#[from] spill::SpillError),
}

/// Ingests already discovered inputs into a file, merging at most `fan_in`
/// spilled runs at once (see [`ingest_to_file`]).
pub fn ingest_inputs_to_file(
    found: &Discovered,
    opts: &IngestOptions<'_>,
    output: &Path,
    fan_in: usize,
) -> Result<Summary, IngestError> {
    phase("ingest: start");
    let identity = TableIdentity::of(opts.competition);
    if found.inputs.len() <= 1 {
        // One file's records are in memory for its sort anyway: spilling and
        // merging them would only add work (a 65k-row results file: 0.45 s
        // instead of 1.0 s).
        let got = ingest_inputs(found, opts);
        write_jsonl(output, Some(&identity), &got.records)?;
        return Ok(got.summary);
    }
    let mut out = JsonlWriter::create(output, Some(&identity))?;
    let dir = spill::SpillDir::create(output)?;
    let parts = read_parts(&found.inputs, opts, |i, records| {
        spill::write_run(&dir.file(&format!("file-{i}")), &records)
    })?;
    phase("ingest: files read and spilled");
    let (mut runs, mut missing, summary) = settle(parts, found, opts.manifest)?;
    if !missing.is_empty() {
        sort_records(&mut missing);
        runs.push(spill::write_run(&dir.file("missing"), &missing)?);
        drop(missing);
    }
    phase("ingest: duplicates and accounting settled");
    spill::merge_into(&dir, runs, fan_in, &mut out)?;
    out.finish()?;
    phase("ingest: merged and written");
    Ok(summary)
}
