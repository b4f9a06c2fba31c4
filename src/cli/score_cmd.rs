//! `smtcomp score ...`

use super::{CmdResult, Failure, GlobalArgs, Outcome, PolicyName, print, require, to_json};
use crate::benchmarks::{Inventory, Smt2File};
use crate::formats::datafile;
use crate::formats::inventory_cache;
use crate::formats::results::{ResultsFile, RunRecord};
use crate::formats::runline::{IngestLine, ResultsFileView, RunRecordLine};
use crate::ingest::IngestRecord;
use crate::model::Division;
use crate::model::{RulesEdition, Track};
use crate::scoring::{self, Policy, ScoredRun, editions, explain, output};
use crate::submission::load_set;
use crate::util::fxhash::FxHashSet;
use clap::{Args, ValueEnum};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Output formats of `smtcomp score`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScoreFormat {
    /// One JSON document: every page (`PodiumDivision`) and recognition, by page name.
    Json,
    /// The website's files: one `<page>.md` (JSON front matter) per page into the `-o` directory.
    Pages,
    /// One CSV line per (page, kind, solver).
    Csv,
    /// Markdown tables (division pages) for the terminal.
    Md,
    /// One XML document referencing `xsl/scores.xsl` (copy `xsl/` next to it; see `--xsl`).
    Xml,
}

/// Arguments of `smtcomp score`.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Track to score (SingleQuery, Incremental, UnsatCore, ModelValidation, Parallel, Cloud),
    /// or ProofExhibition for the (unscored) Proof Exhibition summary of the 2023 rules 5.8
    /// (`--format md|json|csv`; runs from an `smtcomp ingest` run table).
    #[arg(long)]
    track: Track,
    /// Runs: a results file (`{"results": [...]}`) or JSON lines of run records, gz or not.
    /// Default in a workspace: its validated run table.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    runs: Vec<PathBuf>,
    /// Benchmark inventory (`benchmarks-YYYY.json.gz` format). Default in a
    /// workspace: its inventory.
    #[arg(long = "inventory", value_name = "FILE")]
    inventory_flag: Option<PathBuf>,
    /// The inventory used: `--inventory` or the workspace's.
    #[arg(skip)]
    inventory: PathBuf,
    /// Submission files or directories (who is registered where, competitive flags, teams).
    /// Required except for `--track ProofExhibition`.
    #[arg(long, num_args = 1.., value_name = "DIR")]
    submissions: Vec<PathBuf>,
    /// Scoring policy: `rules` (the edition's rules, default), `published-2025`
    /// (the organizers' 2025 tool), `published-2024` (their 2024 pages, from
    /// their 2024 results files; Parallel and Cloud need the runs of both),
    /// `published-2023` (their 2023 Parallel and Cloud pages, with --year 2023)
    /// or `published` (the edition's own: 2025 or 2023).
    #[arg(long, value_enum, default_value = "rules")]
    policy: PolicyName,
    /// Rules edition to score under: 2008, 2015, 2023 or 2025 (default: the
    /// competition definition's `rules`). 2008 and 2015 print `md` or `json` only.
    #[arg(long, value_name = "YEAR", value_parser = super::values::editions())]
    edition: Option<RulesEdition>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ScoreFormat::Md)]
    format: ScoreFormat,
    /// Output file (directory for `--format pages`); default stdout.
    #[arg(short = 'o', long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// List, per division, where `rules` and `published-2025` differ and which switch causes it.
    #[arg(long)]
    explain_differences: bool,
    /// Markdown: include logic pages too.
    #[arg(long)]
    logics: bool,
    /// XML: the `href` of the `<?xml-stylesheet?>` instruction (empty: none).
    #[arg(long, default_value = "xsl/scores.xsl", value_name = "HREF")]
    xsl: String,
    /// Score a selection (`smtcomp select` output, or one benchmark path per line):
    /// every selected benchmark of the track is in N, and a registered solver
    /// without a run on it is unsolved and reported as missing. Several files:
    /// their union (the organizers' Parallel/Cloud pages count both selections).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    selection: Vec<PathBuf>,
    /// Score anyway when runs belong to solvers that no submission names (they
    /// are ignored and counted); without it that is an error (exit 1).
    #[arg(long)]
    allow_unknown_solvers: bool,
}

/// The longest line of a run table that is read (a bound on untrusted input).
const MAX_RUN_LINE: u64 = 64 << 20;

/// Reads runs for scoring: a results file (`{"results": [...]}`), or JSON lines
/// of either the ingested run table (`smtcomp ingest`) or [`RunRecord`]s.
/// Ingested runs without a track or benchmark identity are skipped and counted.
///
/// JSON lines are streamed: one line in memory at a time, each converted to a
/// [`ScoredRun`] at once (a 500,000-run table is never held as text). A file
/// whose first line is not a run record is read whole as a results file.
pub fn read_runs(path: &Path) -> anyhow::Result<(Vec<ScoredRun>, usize)> {
    let got = read_runs_file(path)?;
    Ok((got.runs, got.skipped))
}

pub use crate::scoring::run_cache::RunsFile;

/// [`read_runs`], with the table's competition identity (a header line is
/// recognized first in the file only), through the run cache
/// ([`scoring::run_cache`]: a later read of the same file decodes the binary
/// copy written by the first).
pub fn read_runs_file(path: &Path) -> anyhow::Result<RunsFile> {
    scoring::run_cache::read(path, parse_runs_file)
}

/// [`read_runs_file`] from the JSON text, without the cache.
pub fn parse_runs_file(path: &Path) -> anyhow::Result<RunsFile> {
    use std::io::BufRead;
    let cannot = |e: std::io::Error| anyhow::anyhow!("{}: cannot read: {e}", path.display());
    let mut reader = std::io::BufReader::with_capacity(1 << 16, datafile::open_prefetched(path)?);
    let mut line = Vec::new();
    let mut out = Vec::new();
    let mut skipped = 0;
    let mut number = 0usize;
    let mut identity = None;
    let mut ingested = false;
    // The previous line was a results record (not a run-table line).
    let mut records = false;
    let mut files = scoring::FileInterner::default();
    let done = |runs, skipped, identity, ingested| RunsFile {
        runs,
        skipped,
        identity,
        ingested,
    };
    loop {
        line.clear();
        let n = (&mut reader)
            .take(MAX_RUN_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(cannot)?;
        if n == 0 {
            break;
        }
        number += 1;
        if line.len() as u64 > MAX_RUN_LINE {
            anyhow::bail!(
                "{}:{number}: line longer than {MAX_RUN_LINE} bytes",
                path.display()
            );
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        if out.is_empty() && skipped == 0 && identity.is_none() {
            if let Some(id) = crate::ingest::TableIdentity::parse_header(&line) {
                identity = Some(id);
                ingested = true;
                continue;
            }
        }
        if out.is_empty() && skipped == 0 {
            // The first record decides the format: a one-line results file,
            // a run-table line, or (neither) a multi-line results file.
            if let Ok(f) = serde_json::from_slice::<ResultsFile>(&line) {
                let rest = datafile::read_to_end_bounded(&mut reader).map_err(cannot)?;
                if rest.trim_ascii().is_empty() && identity.is_none() {
                    return Ok(done(
                        interned(f.results.into_iter().map(ScoredRun::from_owned)),
                        0,
                        None,
                        false,
                    ));
                }
            } else if !is_run_line(&line) && identity.is_none() {
                line.extend_from_slice(
                    &datafile::read_to_end_bounded(&mut reader).map_err(cannot)?,
                );
                let (runs, skipped) = whole(path, &line, number)?;
                return Ok(done(runs, skipped, None, false));
            }
        }
        let (run, from_table) = run_line(path, number, &line, records, &mut files)?;
        ingested |= from_table;
        records = !from_table;
        match run {
            Some(run) => out.push(run),
            None => skipped += 1,
        }
    }
    Ok(done(out, skipped, identity, ingested))
}

fn is_run_line(line: &[u8]) -> bool {
    serde_json::from_slice::<IngestRecord>(line).is_ok()
        || serde_json::from_slice::<RunRecord>(line).is_ok()
}

/// One JSON line: an ingested run (`None` without track or benchmark
/// identity; `true`: from a run table) or a results record, its benchmark
/// shared through `files`.
///
/// A line that parses as both is an ingested run. After a results record
/// (`records`), a line that cannot be an ingested run (no `benchmark_key`
/// key, which a run-table line requires, and no backslash, so no escape that
/// could spell it) is parsed as a results record first: one parse per line, not two.
/// Each record is parsed borrowed first ([`crate::formats::runline`]: no
/// allocation but the solver name and a new benchmark), owned when that fails
/// (an escaped string); a view accepts no line its record rejects.
fn run_line(
    path: &Path,
    number: usize,
    line: &[u8],
    records: bool,
    files: &mut scoring::FileInterner,
) -> anyhow::Result<(Option<ScoredRun>, bool)> {
    let no_escape = memchr::memchr(b'\\', line).is_none();
    if records && no_escape && memchr::memmem::find(line, b"benchmark_key").is_none() {
        if let Ok(r) = serde_json::from_slice::<RunRecordLine>(line) {
            return Ok((Some(scoring::scored_record_line(r, files)), false));
        }
    }
    if no_escape {
        if let Ok(r) = serde_json::from_slice::<IngestLine>(line) {
            return Ok((scoring::scored_run_line(r, files), true));
        }
    }
    if let Ok(r) = serde_json::from_slice::<IngestRecord>(line) {
        return Ok((intern(crate::scoring::scored_run(&r), files), true));
    }
    if no_escape {
        if let Ok(r) = serde_json::from_slice::<RunRecordLine>(line) {
            return Ok((Some(scoring::scored_record_line(r, files)), false));
        }
    }
    let r = serde_json::from_slice::<RunRecord>(line).map_err(|e| {
        anyhow::anyhow!(
            "{}:{number}: neither an ingested run nor a results record: {e}",
            path.display()
        )
    })?;
    Ok((intern(Some(ScoredRun::from_owned(r)), files), false))
}

/// `run` with its benchmark and solver name shared through `files`.
fn intern(run: Option<ScoredRun>, files: &mut scoring::FileInterner) -> Option<ScoredRun> {
    run.map(|mut r| {
        r.file = files.intern(r.file);
        r.solver = files.solver(&r.solver);
        r
    })
}

/// A whole file that did not start with a run line: a (multi-line) results
/// file, or else JSON lines whose first bad line is reported (`text` starts at
/// line `first` of the file; only blank lines precede it).
fn whole(path: &Path, text: &[u8], first: usize) -> anyhow::Result<(Vec<ScoredRun>, usize)> {
    if let Some(runs) = results_view(text) {
        return Ok((runs, 0));
    }
    if let Ok(f) = serde_json::from_slice::<ResultsFile>(text) {
        return Ok((
            interned(f.results.into_iter().map(ScoredRun::from_owned)),
            0,
        ));
    }
    let mut out = Vec::new();
    let mut skipped = 0;
    let mut files = scoring::FileInterner::default();
    for (i, line) in text.split(|b| *b == b'\n').enumerate() {
        if line.trim_ascii().is_empty() {
            continue;
        }
        match run_line(path, first + i, line, false, &mut files)?.0 {
            Some(run) => out.push(run),
            None => skipped += 1,
        }
    }
    Ok((out, skipped))
}

/// The runs of a results file without escaped strings, parsed borrowed
/// ([`ResultsFileView`]: the same runs as [`ResultsFile`]); `None` when the
/// view rejects `text` (the owned parse then decides).
fn results_view(text: &[u8]) -> Option<Vec<ScoredRun>> {
    if memchr::memchr(b'\\', text).is_some() {
        return None;
    }
    let f = serde_json::from_slice::<ResultsFileView>(text).ok()?;
    let mut files = scoring::FileInterner::default();
    Some(
        f.results
            .into_iter()
            .map(|r| scoring::scored_record_line(r, &mut files))
            .collect(),
    )
}

/// `runs` with equal benchmarks and solver names sharing one allocation
/// ([`scoring::FileInterner`]).
fn interned(runs: impl Iterator<Item = ScoredRun>) -> Vec<ScoredRun> {
    let mut files = scoring::FileInterner::default();
    runs.map(|mut r| {
        r.file = files.intern(r.file);
        r.solver = files.solver(&r.solver);
        r
    })
    .collect()
}

/// The inputs of scoring: every run of `runs` (warning about unplaceable ones),
/// the inventory and the submissions (printing the problems of unreadable ones).
pub(super) fn load_inputs(
    comp: &crate::model::Competition,
    runs: &[PathBuf],
    inventory: &Path,
    submissions: &[PathBuf],
) -> anyhow::Result<(
    Vec<ScoredRun>,
    Inventory,
    Vec<crate::submission::LoadedSubmission>,
)> {
    load_inputs_selected(comp, runs, inventory, submissions, &[])
}

/// [`load_inputs`], reading the inventory facts of `selection` too.
pub(super) fn load_inputs_selected(
    comp: &crate::model::Competition,
    runs: &[PathBuf],
    inventory: &Path,
    submissions: &[PathBuf],
    selection: &[Smt2File],
) -> anyhow::Result<(
    Vec<ScoredRun>,
    Inventory,
    Vec<crate::submission::LoadedSubmission>,
)> {
    Ok(load_inputs_with_paths(comp, runs, inventory, submissions, selection)?.0)
}

/// The runs, the inventory facts and the submissions of scoring.
type Inputs = (
    Vec<ScoredRun>,
    Inventory,
    Vec<crate::submission::LoadedSubmission>,
);

/// [`load_inputs_selected`], returning too the library paths of the runs and
/// of `selection` ([`scoring::paths_of`]) that the inventory was filtered by,
/// for [`scoring::build_input_with_paths`].
fn load_inputs_with_paths(
    comp: &crate::model::Competition,
    runs: &[PathBuf],
    inventory: &Path,
    submissions: &[PathBuf],
    selection: &[Smt2File],
) -> anyhow::Result<(Inputs, FxHashSet<String>)> {
    let mut all = Vec::new();
    for p in runs {
        let RunsFile {
            runs: got,
            skipped,
            identity,
            ingested,
        } = read_runs_file(p)?;
        if identity.is_some() || ingested {
            if let Some(warning) = crate::ingest::check_table(p, identity.as_ref(), comp)? {
                eprintln!("{warning}");
            }
        }
        if skipped > 0 {
            eprintln!(
                "{} {}: {skipped} run(s) without track or benchmark identity skipped",
                crate::util::colour::warning_prefix(),
                p.display()
            );
        }
        if all.is_empty() {
            // One table (the usual case): no copy of its runs.
            all = got;
        } else {
            all.extend(got);
        }
    }
    // Only the facts of the benchmarks that were run are needed.
    let wanted = scoring::paths_of(all.iter().map(|r| &*r.file).chain(selection));
    // Their kinds and logics first: the library's other logics are skipped
    // without building a path per benchmark.
    let logics: FxHashSet<(bool, &str)> = wanted
        .iter()
        .filter_map(|p| inventory_cache::kind_and_logic(p))
        .collect();
    let keep = inventory_cache::Keep {
        logic: &|incremental, logic| logics.contains(&(incremental, logic)),
        path: &|p| wanted.contains(p),
    };
    let inventory = Inventory::read_cached_only(inventory, &keep)?;
    drop(logics);
    let subs = load_set(submissions, comp);
    let unreadable = subs.iter().filter(|l| l.submission.is_none()).count();
    for l in subs.iter().filter(|l| l.submission.is_none()) {
        for p in &l.problems {
            eprintln!("{p}");
        }
    }
    // A solver whose submission cannot be read would vanish from the scores.
    anyhow::ensure!(
        unreadable == 0,
        "{unreadable} submission file(s) cannot be read (see above); nothing written"
    );
    anyhow::ensure!(
        !subs.is_empty(),
        "no submission files found in {}; nothing written",
        paths_list(submissions)
    );
    Ok(((all, inventory, subs), wanted))
}

/// `a, b, c` for messages.
pub(super) fn paths_list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `runs` moved into one vector per track, each allocated once at its size:
/// a track's runs are never copied beside all the others (1.5 million Single
/// Query runs copied took 184 MB more in `report`).
pub(super) fn split_by_track(
    runs: Vec<ScoredRun>,
) -> std::collections::BTreeMap<Track, Vec<ScoredRun>> {
    let mut counts: std::collections::BTreeMap<Track, usize> = Default::default();
    for r in &runs {
        *counts.entry(r.track).or_default() += 1;
    }
    let mut out: std::collections::BTreeMap<Track, Vec<ScoredRun>> = counts
        .into_iter()
        .map(|(t, n)| (t, Vec::with_capacity(n)))
        .collect();
    for r in runs {
        if let Some(v) = out.get_mut(&r.track) {
            v.push(r);
        }
    }
    out
}

/// `tracks` without repetitions, in their first order.
pub(super) fn distinct_tracks(tracks: &mut Vec<Track>) {
    let mut seen = std::collections::BTreeSet::new();
    tracks.retain(|t| seen.insert(*t));
}

/// The order to score `tracks` in when each track's runs are dropped after
/// it: fewest runs first, so the largest track (Single Query) is scored when
/// every other track's runs are already freed (ties: in `tracks` order).
/// Each returned pair is the track and its index in `tracks`, where its
/// output goes.
pub(super) fn largest_last(
    tracks: &[Track],
    by_track: &std::collections::BTreeMap<Track, Vec<ScoredRun>>,
) -> Vec<(usize, Track)> {
    let mut order: Vec<(usize, Track)> = tracks.iter().copied().enumerate().collect();
    order.sort_by_key(|&(i, t)| (by_track.get(&t).map_or(0, Vec::len), i));
    order
}

/// The inventory to build a track's input from, in the [`largest_last`]
/// loop: borrowed, or for the `last` track moved out of `inventory` (left
/// empty), so that it is freed as soon as that input is built, before the
/// largest track is scored (use it as a temporary of the build call).
pub(super) fn inventory_for(
    last: bool,
    inventory: &mut Inventory,
) -> std::borrow::Cow<'_, Inventory> {
    if last {
        std::borrow::Cow::Owned(std::mem::take(inventory))
    } else {
        std::borrow::Cow::Borrowed(inventory)
    }
}

/// An error when `runs` hold no run of `track` (scoring nothing would print
/// empty tables and exit 0).
pub(super) fn require_runs_of(
    track: Track,
    runs: &[ScoredRun],
    files: &[PathBuf],
) -> anyhow::Result<()> {
    anyhow::ensure!(
        runs.iter().any(|r| r.track == track),
        "no runs of track {track} in {}; nothing written",
        paths_list(files)
    );
    Ok(())
}

pub(super) fn run(global: &GlobalArgs, mut args: ScoreArgs) -> CmdResult {
    args.inventory = super::workspace_defaults::fill_scoring(
        &mut args.runs,
        args.inventory_flag.take(),
        &mut args.submissions,
        args.track != Track::ProofExhibition,
    )?;
    let comp = global.competition()?;
    let edition = args.edition.unwrap_or(comp.rules);
    // The edition's policy; one it cannot apply is an error, never ignored.
    let policy =
        editions::dispatch::policy(edition, args.policy.choice()).map_err(Failure::usage)?;
    if comp.track(args.track).is_none() {
        eprintln!(
            "{} track {} is not defined in {}",
            crate::util::colour::error_prefix(),
            args.track,
            comp.name
        );
        return Ok(Outcome::Problems);
    }
    if args.track == Track::ProofExhibition {
        return proof_exhibition(&comp, edition, &args);
    }
    if args.submissions.is_empty() {
        return Err(Failure::usage(
            "--submissions is required (except for --track ProofExhibition)",
        ));
    }
    let mut selection = Vec::new();
    for p in &args.selection {
        selection.extend(read_selection(p)?);
    }
    selection.sort_by_cached_key(|f| f.path());
    selection.dedup();
    // published-2024 counts benchmarks the runs do not show (editions::p2024).
    let pages_2024 = policy.name == editions::p2024::NAME && selection.is_empty();
    let mut facts_of = selection.clone();
    if pages_2024 {
        facts_of.extend(editions::p2024::removed_results(args.track));
    }
    let ((runs, inventory, subs), paths) = load_inputs_with_paths(
        &comp,
        &args.runs,
        &args.inventory,
        &args.submissions,
        &facts_of,
    )?;
    require_runs_of(args.track, &runs, &args.runs)?;
    if pages_2024 {
        selection = editions::p2024::selection(args.track, &runs).map_err(Failure::usage)?;
    }
    if unknown_solvers_stop(
        &runs,
        &subs,
        args.track,
        args.allow_unknown_solvers,
        "",
        "check the submissions; --allow-unknown-solvers scores without these runs",
    ) {
        return Ok(Outcome::Problems);
    }
    let with_selection = !selection.is_empty();
    let (mut input, missing) = scoring::build_input_with_paths(
        &comp,
        args.track,
        &subs,
        &inventory,
        runs,
        selection,
        Some(paths),
    );
    // Its facts are in `input` now: freed before the join (peak memory: the
    // entries of the 500,000-run table's 110,000 benchmarks are ~27 MB).
    drop(inventory);
    if !missing.is_empty() {
        eprintln!(
            "{} {} benchmark(s) of the runs are not in the inventory (scored with status unknown), e.g. {}",
            crate::util::colour::warning_prefix(),
            missing.len(),
            missing[0]
        );
    }
    if args.explain_differences {
        let diffs = explain::explain(&input, &Policy::rules(), &Policy::published_2025());
        let text = match args.format {
            ScoreFormat::Json | ScoreFormat::Pages | ScoreFormat::Xml => to_json(&diffs)?,
            _ => explain::summary(&diffs),
        };
        return write_out(args.output.as_deref(), &text);
    }
    let mut joined = None;
    let scores = match edition {
        // The runs are not needed once joined: released early (peak memory).
        RulesEdition::Rules2025 => {
            let (mut scores, tables) = scoring::score_releasing_runs(&mut input, &policy);
            joined = Some(tables);
            if policy.name == editions::p2024::NAME {
                editions::p2024::as_published(&mut scores);
            }
            scores
        }
        RulesEdition::Rules2023 if policy.name == editions::p2023::policy().name => {
            editions::p2023::score(&input, &policy).map_err(Failure::usage)?
        }
        RulesEdition::Rules2023 => editions::e2023::score(&input),
        RulesEdition::Rules2015 | RulesEdition::Rules2008 => {
            return historical(&comp, edition, &input, &args);
        }
    };
    if scores.join != Default::default() {
        eprintln!("note: ignored input: {}", scores.join);
    }
    if with_selection {
        for m in &scores.missing {
            eprintln!(
                "missing: {}: {} benchmark(s) without a run (scored unsolved), e.g. {}",
                m.solver,
                m.count,
                m.examples.join(", ")
            );
        }
    }
    let (t, mem) = (input.time_limit as u64, input.memory_mb);
    let written = match args.format {
        ScoreFormat::Json => {
            let mut doc = serde_json::Map::new();
            doc.insert("policy".into(), serde_json::to_value(&policy)?);
            doc.insert(
                "disagreements".into(),
                serde_json::to_value(&scores.disagreements)?,
            );
            doc.insert("unsound".into(), serde_json::to_value(&scores.unsound)?);
            if with_selection {
                doc.insert("missing".into(), serde_json::to_value(&scores.missing)?);
            }
            doc.insert(
                "pages".into(),
                serde_json::Value::Object(output::pages(&scores, t, mem, comp.year)),
            );
            let written = write_out(args.output.as_deref(), &to_json(&doc)?);
            // Not freed value by value (see the end of this function).
            std::mem::forget(doc);
            written
        }
        ScoreFormat::Pages => {
            let Some(dir) = args.output else {
                return Err(Failure::usage("--format pages needs -o DIR"));
            };
            std::fs::create_dir_all(&dir)?;
            for (name, v) in output::pages(&scores, t, mem, comp.year) {
                std::fs::write(dir.join(format!("{name}.md")), to_json(&v)?)?;
            }
            Ok(Outcome::Ok)
        }
        ScoreFormat::Csv => write_out(args.output.as_deref(), &output::csv(&scores)),
        ScoreFormat::Xml => write_out(
            args.output.as_deref(),
            &crate::report::scores_xml(
                &scores,
                input.time_limit,
                mem,
                comp.year,
                Some(args.xsl.as_str()).filter(|h| !h.is_empty()),
            ),
        ),
        ScoreFormat::Md => write_out(
            args.output.as_deref(),
            &output::markdown(&scores, args.logics),
        ),
    };
    // The process ends after this command: returning the memory of every run,
    // benchmark and score to the allocator one by one would cost up to a tenth
    // of the command (the 2025 Incremental track), and nothing else needs it.
    std::mem::forget((input, scores, joined));
    written
}

/// `score --edition 2015|2008`: the edition's own tables (Markdown or JSON).
fn historical(
    comp: &crate::model::Competition,
    edition: RulesEdition,
    input: &scoring::ScoringInput,
    args: &ScoreArgs,
) -> CmdResult {
    if !matches!(args.format, ScoreFormat::Md | ScoreFormat::Json) {
        return Err(Failure::usage(format!(
            "--edition {edition} supports --format md or json only"
        )));
    }
    let json = args.format == ScoreFormat::Json;
    let text = if edition == RulesEdition::Rules2015 {
        if !matches!(args.track, Track::SingleQuery | Track::Incremental) {
            return Err(Failure::usage(
                "the 2015 rules have a main (SingleQuery) and an application (Incremental) track only",
            ));
        }
        let def = comp.track(args.track);
        let experimental: BTreeSet<Division> = match def {
            Some(d) if d.experimental => d.divisions.keys().cloned().collect(),
            Some(d) => d.experimental_divisions.clone(),
            None => BTreeSet::new(),
        };
        let s = editions::e2015::score(input, &experimental);
        if json {
            to_json(&s)?
        } else {
            editions::e2015::markdown(&s)
        }
    } else {
        if args.track != Track::SingleQuery {
            return Err(Failure::usage(
                "the 2008 rules have a single track (score it as SingleQuery)",
            ));
        }
        let s = editions::e2008::score(input);
        if json {
            to_json(&s)?
        } else {
            editions::e2008::markdown(&s)
        }
    };
    write_out(args.output.as_deref(), &text)
}

/// `score --track ProofExhibition`: the 2023 Proof Exhibition summary.
fn proof_exhibition(
    comp: &crate::model::Competition,
    edition: RulesEdition,
    args: &ScoreArgs,
) -> CmdResult {
    use editions::e2023_proof as pe;
    if matches!(edition, RulesEdition::Rules2008 | RulesEdition::Rules2015) {
        return Err(Failure::usage(format!(
            "the {edition} rules have no Proof Exhibition track"
        )));
    }
    if !matches!(
        args.format,
        ScoreFormat::Md | ScoreFormat::Json | ScoreFormat::Csv
    ) {
        return Err(Failure::usage(
            "--track ProofExhibition supports --format md, json or csv only",
        ));
    }
    let mut records = Vec::new();
    for p in &args.runs {
        let (identity, got) = crate::ingest::read_table(p).map_err(|e| {
            anyhow::anyhow!(
                "{e} (the Proof Exhibition summary needs an `smtcomp ingest` run table)"
            )
        })?;
        if let Some(warning) = crate::ingest::check_table(p, identity.as_ref(), comp)? {
            eprintln!("{warning}");
        }
        records.extend(got);
    }
    require!(
        records
            .iter()
            .any(|r| r.track == Some(Track::ProofExhibition)),
        "no runs of track ProofExhibition in {}; nothing written",
        paths_list(&args.runs)
    );
    let inventory = Inventory::read_cached(&args.inventory)?;
    let statuses = inventory
        .non_incremental
        .iter()
        .map(|b| (b.file.path(), b.status))
        .collect();
    let report = pe::report(&records, comp, &statuses);
    let text = match args.format {
        ScoreFormat::Json => to_json(&report)?,
        ScoreFormat::Csv => pe::csv(&report),
        _ => pe::markdown(&report),
    };
    write_out(args.output.as_deref(), &text)
}

/// Whether runs of solvers that no submission names stop the command: prints
/// `error: {prefix}runs of solvers that no submission names: S (N run(s)), ... ({hint})`
/// (true), or with `allow` a warning that they are ignored (false).
pub(super) fn unknown_solvers_stop(
    runs: &[ScoredRun],
    subs: &[crate::submission::LoadedSubmission],
    track: Track,
    allow: bool,
    prefix: &str,
    hint: &str,
) -> bool {
    let unknown = unknown_solvers(runs, subs, track);
    if unknown.is_empty() {
        return false;
    }
    let list = unknown
        .iter()
        .map(|(s, n)| format!("{s} ({n} run(s))"))
        .collect::<Vec<_>>()
        .join(", ");
    if allow {
        eprintln!(
            "{} {prefix}runs of solvers that no submission names, ignored: {list}",
            crate::util::colour::warning_prefix()
        );
        false
    } else {
        eprintln!(
            "{} {prefix}runs of solvers that no submission names: {list} ({hint})",
            crate::util::colour::error_prefix()
        );
        true
    }
}

/// Solvers with runs that no readable submission names, with their run counts
/// in `track` (sorted by name). Their runs could not be scored: never dropped
/// silently.
pub fn unknown_solvers(
    runs: &[ScoredRun],
    subs: &[crate::submission::LoadedSubmission],
    track: Track,
) -> Vec<(String, usize)> {
    let named: std::collections::HashSet<&str> = subs
        .iter()
        .filter_map(|l| l.submission.as_ref())
        .map(|s| s.name.as_str())
        .collect();
    let mut out: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in runs
        .iter()
        .filter(|r| r.track == track && !named.contains(r.solver.as_str()))
    {
        *out.entry(r.solver.as_str()).or_default() += 1;
    }
    out.into_iter().map(|(s, n)| (s.to_string(), n)).collect()
}

/// The benchmarks of a selection file: `smtcomp select` output (JSON, gz or
/// not: its `benchmarks[].file`), or one benchmark path per line
/// (`non-incremental/LOGIC/family.../name.smt2`; blank lines and `#` comments
/// skipped).
pub fn read_selection(path: &Path) -> anyhow::Result<Vec<Smt2File>> {
    Ok(crate::benchmarks::list::read(path)?.files)
}

fn write_out(path: Option<&Path>, text: &str) -> CmdResult {
    match path {
        Some(p) => std::fs::write(p, text)?,
        None => print(text)?,
    }
    Ok(Outcome::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Answer;

    fn records() -> Vec<RunRecord> {
        let r = |solver: &str, name: &str, result: Answer| RunRecord {
            track: Track::SingleQuery,
            solver: solver.into(),
            file: crate::benchmarks::Smt2File {
                incremental: false,
                logic: crate::model::Logic::new("QF_BV"),
                family: vec!["f".into()],
                name: name.into(),
            },
            result,
            cpu_time: 1.5,
            wallclock_time: 1.25,
            memory_usage: 1e6,
            nb_answers: None,
        };
        vec![
            r("a", "x.smt2", Answer::Sat),
            r("b", "x.smt2", Answer::Unsat),
            r("a", "y.smt2", Answer::Timeout),
        ]
    }

    /// Every accepted shape gives the same runs (the streaming reader decides
    /// the format from the first record).
    #[test]
    fn results_files_and_json_lines_read_alike() {
        let dir = tempfile::tempdir().unwrap();
        let want: Vec<ScoredRun> = records().iter().map(ScoredRun::from_record).collect();
        let file = ResultsFile { results: records() };
        let pretty = dir.path().join("pretty.json");
        file.write(&pretty).unwrap();
        let gz = dir.path().join("one-line.json.gz");
        file.write(&gz).unwrap();
        let lines = dir.path().join("runs.jsonl");
        let mut text = String::from("\n  \n");
        for r in records() {
            text.push_str(&serde_json::to_string(&r).unwrap());
            text.push('\n');
        }
        std::fs::write(&lines, &text).unwrap();
        for p in [&pretty, &gz, &lines] {
            assert_eq!(read_runs(p).unwrap(), (want.clone(), 0), "{}", p.display());
        }
        std::fs::write(&lines, format!("{text}{{\"not\": 1}}\n")).unwrap();
        let e = read_runs(&lines).unwrap_err().to_string();
        assert!(e.contains("runs.jsonl:6: neither an ingested run"), "{e}");
        std::fs::write(&lines, "\n\n{broken\n").unwrap();
        let e = read_runs(&lines).unwrap_err().to_string();
        assert!(e.contains("runs.jsonl:3: neither"), "{e}");
    }
}
