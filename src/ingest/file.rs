//! Ingestion of one result XML file: runs → records.

use super::interpret::{LogText, interpret};
use super::logs::{self, LogReader};
use super::summary::FileSummary;
use super::xml::{self, ResultHeader, XmlRun};
use crate::benchmarks::Smt2File;
use crate::formats::runs_manifest::{FileRuns, ManifestIndex};
use crate::formats::runtable::{Guessed, IngestRecord, LogRef, RunAnswer};
use crate::model::{Competition, Logic, Track, is_valid_name};
use std::collections::HashMap;
use std::path::Path;

/// Largest time accepted (seconds, about 11.6 days): longer ones are absurd
/// for any track and would change a ranking, so the run is an `error`.
pub const MAX_PLAUSIBLE_SECONDS: f64 = 1e6;

/// How one run of a file stands against the runs manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RunMeta {
    /// The manifest entry it matched (`None`: not in the manifest, or no manifest).
    pub entry: Option<usize>,
    /// BenchExec did not start the tool or gave no result: status `FAILED`, a
    /// run without columns, or no status column.
    pub failed: bool,
}

/// The result of ingesting one file.
#[derive(Debug)]
pub struct FileOutcome {
    /// The records, in file order.
    pub records: Vec<IngestRecord>,
    /// Per record (same order): its manifest entry and whether it failed to start.
    pub meta: Vec<RunMeta>,
    /// The accounting.
    pub summary: FileSummary,
    /// The root attributes (when the root was read).
    pub header: Option<ResultHeader>,
}

/// Parses a time column (`1.5s`, `1e-05s`): finite, not negative, at most
/// [`MAX_PLAUSIBLE_SECONDS`].
pub fn seconds(v: &str) -> Option<f64> {
    v.strip_suffix('s')
        .unwrap_or(v)
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|x| plausible_seconds(*x))
}

/// Whether a time in seconds is one a run can take.
pub fn plausible_seconds(x: f64) -> bool {
    x.is_finite() && (0.0..=MAX_PLAUSIBLE_SECONDS).contains(&x)
}

/// Parses a memory column (`671744B`, legacy `671744`).
fn bytes(v: &str) -> Option<u64> {
    let t = v.strip_suffix('B').unwrap_or(v).trim();
    t.parse::<u64>().ok().or_else(|| {
        t.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .map(|x| x.round() as u64)
    })
}

/// What the rundefinition name `<solver>,<participation>,<Track>` of a file
/// says about its runs (computed once per file: parsing the track name was a
/// noticeable part of each run's cost).
#[derive(Debug, Clone)]
struct HeaderGuess {
    solver: String,
    participation: Option<u32>,
    track: Option<Track>,
}

impl HeaderGuess {
    fn of(header: &ResultHeader) -> HeaderGuess {
        let rundef = header.rundefinition().unwrap_or("");
        let parts: Vec<&str> = rundef.split(',').collect();
        if let [solver, part, track] = parts.as_slice() {
            let t = track.split('.').next().unwrap_or(track);
            HeaderGuess {
                solver: solver.to_string(),
                participation: part.trim().parse().ok(),
                track: t.parse::<Track>().ok(),
            }
        } else {
            HeaderGuess {
                solver: header.tool.clone().unwrap_or_else(|| rundef.to_string()),
                participation: None,
                track: None,
            }
        }
    }
}

/// Identity guessed from the XML: solver, participation, track from the
/// rundefinition name ([`HeaderGuess`]); logic and benchmark from the task path.
fn guess_identity(rec: &mut IngestRecord, guess: &HeaderGuess, task: &str) {
    rec.guessed.push(Guessed::Solver);
    rec.guessed.push(Guessed::Participation);
    rec.guessed.push(Guessed::Track);
    rec.solver.clone_from(&guess.solver);
    rec.participation = guess.participation;
    rec.track = guess.track;
    let comps: Vec<&str> = task
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    let lib = comps
        .iter()
        .rposition(|c| *c == "incremental" || *c == "non-incremental");
    rec.guessed.push(Guessed::Logic);
    rec.guessed.push(Guessed::Benchmark);
    match lib {
        Some(i) if comps.len() >= i + 3 && is_valid_name(comps[i + 1]) => {
            let incremental = comps[i] == "incremental";
            let last = comps[comps.len() - 1];
            let name = last.strip_suffix(".yml").unwrap_or(last);
            let file = Smt2File {
                incremental,
                logic: Logic::new(comps[i + 1]),
                family: comps[i + 2..comps.len() - 1]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                name: name.to_string(),
            };
            if rec.track.is_none() {
                rec.track = Some(if incremental {
                    Track::Incremental
                } else {
                    Track::SingleQuery
                });
            }
            rec.logic = Some(file.logic.clone());
            rec.benchmark_key = file.path();
            rec.benchmark = Some(file);
        }
        _ => {
            let n = comps.len();
            if n >= 2 && is_valid_name(comps[n - 2]) {
                rec.logic = Some(Logic::new(comps[n - 2]));
                rec.benchmark_key = format!("{}/{}", comps[n - 2], comps[n - 1]);
            } else {
                rec.benchmark_key = comps.last().map_or(task, |v| v).to_string();
            }
        }
    }
}

struct Ctx<'a> {
    source: &'a str,
    comp: &'a Competition,
    /// The manifest's entries of this file (`None`: no manifest).
    file_runs: Option<FileRuns<'a>>,
    archive_rel: String,
    guess: HeaderGuess,
}

fn identify(
    ctx: &Ctx<'_>,
    header: &ResultHeader,
    run: &XmlRun,
    rec: &mut IngestRecord,
) -> Option<usize> {
    rec.rundefinition = header.rundefinition().map(str::to_string);
    let entry = ctx
        .file_runs
        .map(|f| f.lookup_index(&run.name).map(|i| i.map(|i| (i, f.get(i)))));
    match entry {
        Some(Ok(Some((i, m)))) => {
            rec.solver = m.solver.to_string();
            rec.participation = Some(m.participation);
            rec.track = Some(m.track);
            rec.division = Some(m.division.clone());
            rec.logic = Some(m.logic.clone());
            rec.benchmark_key = m.benchmark.path();
            rec.benchmark = Some(m.benchmark.clone());
            return Some(i);
        }
        Some(Ok(None)) => rec.notes.push("run not in the manifest".into()),
        Some(Err(e)) => rec.notes.push(e.to_string()),
        None => {}
    }
    guess_identity(rec, &ctx.guess, &run.name);
    if let (Some(t), Some(l)) = (rec.track, &rec.logic) {
        rec.division = ctx
            .comp
            .track(t)
            .and_then(|td| td.division_of(l.as_str()))
            .cloned();
        rec.guessed.push(Guessed::Division);
    }
    None
}

fn build(
    ctx: &Ctx<'_>,
    header: &ResultHeader,
    run: &XmlRun,
    log: LogText<'_>,
    log_cut: Option<u64>,
) -> (IngestRecord, RunMeta) {
    let mut rec = IngestRecord::new(ctx.source, run.name.clone());
    let entry = identify(ctx, header, run, &mut rec);
    let rec = fill(rec, run, log, log_cut);
    let failed = run.columns == 0
        || rec.status.is_none()
        || rec.status.as_deref().map(str::trim) == Some("FAILED");
    (rec, RunMeta { entry, failed })
}

/// A time column whose value is not a plausible time (its run is an `error`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "bad {column} value '{value}' in {file}, run '{run}' (not a time between 0 and {MAX_PLAUSIBLE_SECONDS} s)"
)]
pub struct BadTime {
    /// The column (`cputime`, `walltime`).
    pub column: String,
    /// Its value (the first 100 characters).
    pub value: String,
    /// The result file.
    pub file: String,
    /// The run (its first 200 characters).
    pub run: String,
}

/// A time column: the value, or the reason the run is an `error`.
fn time_column(run: &XmlRun, title: &str, source: &str) -> Result<Option<f64>, BadTime> {
    let Some(v) = run.column(title) else {
        return Ok(None);
    };
    match seconds(v) {
        Some(x) => Ok(Some(x)),
        None => Err(BadTime {
            column: title.to_string(),
            value: v.chars().take(100).collect(),
            file: source.to_string(),
            run: run.name.chars().take(200).collect(),
        }),
    }
}

fn fill(
    mut rec: IngestRecord,
    run: &XmlRun,
    log: LogText<'_>,
    log_cut: Option<u64>,
) -> IngestRecord {
    rec.notes.extend(run.cut.iter().cloned());
    rec.status = run.column("status").map(str::to_string);
    rec.category = run.column("category").map(str::to_string);
    if rec.status.is_some() && rec.category.is_none() {
        rec.notes.push("no category column".into());
    }
    // A negative, NaN or absurd time would change a ranking: the run is an error.
    let mut bad_time = None;
    match time_column(run, "cputime", &rec.source) {
        Ok(t) => rec.cputime = t,
        Err(e) => bad_time = Some(e),
    }
    match time_column(run, "walltime", &rec.source) {
        Ok(t) => rec.walltime = t,
        Err(e) => bad_time = bad_time.or(Some(e)),
    }
    if let Some(v) = run.column("memory").or_else(|| run.column("memUsage")) {
        rec.memory = bytes(v);
        if rec.memory.is_none() {
            rec.notes.push(format!("bad memory value '{v}'"));
        }
    }
    rec.exitcode = run
        .column("returnvalue")
        .and_then(|v| v.trim().parse().ok());
    rec.exitsignal = run.column("exitsignal").and_then(|v| v.trim().parse().ok());
    rec.terminationreason = run.column("terminationreason").map(str::to_string);
    if let LogText::Read { at, .. } = &log {
        rec.log = Some(at.clone());
    }
    let Some(track) = rec.track else {
        rec.answer = RunAnswer::Error;
        rec.error = Some("cannot determine the track of the run".into());
        if let LogText::Unavailable(why) = &log {
            rec.notes.push(why.clone());
        }
        return rec;
    };
    let it = if run.columns == 0 {
        super::interpret::Interpretation {
            answer: Some(RunAnswer::Error),
            error: Some(
                "BenchExec did not execute the run (no columns; table-generator: aborted)".into(),
            ),
            ..Default::default()
        }
    } else {
        interpret(track, rec.status.as_deref(), &log)
    };
    rec.answer = it.answer.unwrap_or(RunAnswer::Error);
    rec.limit_hit = it.limit_hit;
    rec.error = it.error;
    rec.notes.extend(it.notes);
    rec.output_answer = it.output_answer;
    rec.incremental = it.incremental;
    rec.unsat_core = it.unsat_core;
    rec.model = it.model;
    rec.proof = it.proof;
    if let Some(full) = log_cut {
        rec.notes.push(format!(
            "log cut: only the first {} of {full} bytes were read",
            logs::MAX_LOG_READ_BYTES
        ));
        // Where the whole output counts, a cut log cannot be interpreted.
        let needs_all = match track {
            Track::Incremental => true,
            Track::UnsatCore => rec.answer == RunAnswer::Unsat,
            _ => false,
        };
        if needs_all && rec.answer != RunAnswer::Error {
            rec.answer = RunAnswer::Error;
            rec.error = Some(format!(
                "log of {full} bytes is longer than the {} bytes read: its {} cannot be read completely",
                logs::MAX_LOG_READ_BYTES,
                if track == Track::Incremental {
                    "trace"
                } else {
                    "unsat core"
                }
            ));
            rec.incremental = None;
            rec.unsat_core = None;
        }
        if let Some(m) = rec.model.as_mut() {
            // The model runs to the end of the whole member.
            m.end = full;
        }
    }
    if let Some(e) = bad_time {
        rec.answer = RunAnswer::Error;
        rec.limit_hit = None;
        rec.error = Some(e.to_string());
    }
    if rec.answer == RunAnswer::Error && rec.error.is_none() {
        rec.error = Some("no interpretation".into());
    }
    rec
}

/// Ingests one result XML. Never panics on bad input: problems become `error`
/// records or entries in the file summary.
pub fn ingest_xml(
    path: &Path,
    source: &str,
    comp: &Competition,
    manifest: Option<&ManifestIndex>,
) -> FileOutcome {
    let mut summary = FileSummary {
        source: source.to_string(),
        kind: "result-xml",
        ..Default::default()
    };
    let input = match xml::open_results(path) {
        Ok(i) => i,
        Err(e) => {
            summary.unreadable.push(format!("cannot open: {e}"));
            return FileOutcome {
                records: Vec::new(),
                meta: Vec::new(),
                summary,
                header: None,
            };
        }
    };
    let mut runs: Vec<XmlRun> = Vec::new();
    let mut header: Option<ResultHeader> = None;
    let parsed = xml::parse(input, |h, r| {
        if header.is_none() {
            header = Some(h.clone());
        }
        runs.push(r);
    });
    match parsed {
        Ok(h) => header = Some(h),
        Err(f) => summary.unreadable.push(format!(
            "{} ({} runs read before the error were kept)",
            f.reason, f.runs_read
        )),
    }
    let Some(header) = header else {
        return FileOutcome {
            records: Vec::new(),
            meta: Vec::new(),
            summary,
            header: None,
        };
    };
    summary.warnings.extend(header.cut.iter().cloned());
    if let Some(e) = &header.error {
        summary.warnings.push(format!(
            "BenchExec marked the file as partial: error=\"{e}\""
        ));
    }
    let loc = logs::location(path);
    let archive_rel = loc.as_ref().map_or(String::new(), |l| {
        let name = if l.dir.is_dir() { &l.dir } else { &l.zip };
        let file = name
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match source.rfind('/') {
            Some(i) => format!("{}/{file}", &source[..i]),
            None => file,
        }
    });
    let ctx = Ctx {
        source,
        comp,
        file_runs: manifest.map(|m| {
            m.file_runs(
                header.benchmarkname.as_deref().unwrap_or(""),
                header.rundefinition().unwrap_or(""),
            )
        }),
        archive_rel,
        guess: HeaderGuess::of(&header),
    };
    let rundef = header.rundefinition().map(str::to_string);
    // Each run's log name, built once.
    let names: Vec<String> = runs
        .iter()
        .map(|r| logs::log_name(rundef.as_deref(), &r.name))
        .collect();
    let mut name_count: HashMap<&str, u32> = HashMap::new();
    for name in &names {
        *name_count.entry(name).or_default() += 1;
    }
    let dups = name_count.values().filter(|n| **n > 1).count();
    if dups > 0 {
        summary.warnings.push(format!(
            "{dups} task basename(s) shared by several runs: BenchExec overwrote their logs"
        ));
    }
    let mut reader = loc.map(LogReader::new);
    let mut records = Vec::with_capacity(runs.len());
    let mut meta = Vec::with_capacity(runs.len());
    for (run, name) in runs.iter().zip(&names) {
        let shared = name_count.get(name.as_str()).copied().unwrap_or(1);
        let (rec, m) = match reader.as_mut() {
            None => build(
                &ctx,
                &header,
                run,
                LogText::Unavailable("no log location: file name has no '.results.'".into()),
                None,
            ),
            Some(_) if shared > 1 => build(
                &ctx,
                &header,
                run,
                LogText::Unavailable(format!(
                    "log {name} is shared by {shared} runs with the same task basename (BenchExec overwrote it); not read"
                )),
                None,
            ),
            Some(rd) => {
                let member = rd.member(name);
                match rd.read(name) {
                    Ok(_) => {
                        let cut = rd.last_cut();
                        let bytes = rd.read_again();
                        let start = logs::output_start(bytes);
                        let at = LogRef {
                            archive: ctx.archive_rel.clone(),
                            member,
                        };
                        build(
                            &ctx,
                            &header,
                            run,
                            LogText::Read {
                                log: bytes,
                                start,
                                at,
                            },
                            cut,
                        )
                    }
                    Err(e) => build(
                        &ctx,
                        &header,
                        run,
                        LogText::Unavailable(e.to_string()),
                        None,
                    ),
                }
            }
        };
        records.push(rec);
        meta.push(m);
    }
    if let Some(rd) = &reader {
        let (orphans, first) = rd.orphans(rundef.as_deref(), &names);
        if orphans > 0 {
            summary.warnings.push(format!(
                "{orphans} log(s) in {} belong to no run of this file (a run lost from the result file, or logs of another attempt): {}{}",
                rd.location().zip.file_name().unwrap_or_default().to_string_lossy(),
                first.join(", "),
                if orphans > first.len() { ", ..." } else { "" }
            ));
        }
        if let Some(e) = rd.archive_error() {
            summary.unreadable.push(e.to_string());
        } else if !rd.location().zip.exists() && !rd.location().dir.is_dir() && !runs.is_empty() {
            summary.warnings.push(format!(
                "no log archive {}",
                rd.location()
                    .zip
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
            ));
        }
    }
    summary.runs = runs.len() as u64;
    FileOutcome {
        records,
        meta,
        summary,
        header: Some(header),
    }
}
