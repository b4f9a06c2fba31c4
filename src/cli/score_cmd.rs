//! `smtcomp score ...`

use super::{CmdResult, Failure, GlobalArgs, Outcome, PolicyName, print, to_json};
use crate::benchmarks::Inventory;
use crate::formats::datafile;
use crate::formats::results::{ResultsFile, RunRecord};
use crate::ingest::IngestRecord;
use crate::model::Division;
use crate::model::{RulesEdition, Track};
use crate::scoring::{self, Policy, ScoredRun, editions, explain, output};
use crate::submission::load_set;
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
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    runs: Vec<PathBuf>,
    /// Benchmark inventory (`benchmarks-YYYY.json.gz` format).
    #[arg(long, value_name = "FILE")]
    inventory: PathBuf,
    /// Submission files or directories (who is registered where, competitive flags, teams).
    /// Required except for `--track ProofExhibition`.
    #[arg(long, num_args = 1.., value_name = "DIR")]
    submissions: Vec<PathBuf>,
    /// Scoring policy: `rules` (the 2025 rules, default) or `published-2025`.
    #[arg(long, value_enum, default_value = "rules")]
    policy: PolicyName,
    /// Rules edition to score under: 2008, 2015, 2023 or 2025 (default: the
    /// competition definition's `rules`). 2008 and 2015 print `md` or `json` only.
    #[arg(long, value_name = "YEAR")]
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
}

/// Reads runs for scoring: a results file (`{"results": [...]}`), or JSON lines
/// of either the ingested run table (`smtcomp ingest`) or [`RunRecord`]s.
/// Ingested runs without a track or benchmark identity are skipped and counted.
pub fn read_runs(path: &Path) -> anyhow::Result<(Vec<ScoredRun>, usize)> {
    let mut text = String::new();
    datafile::open(path)?
        .read_to_string(&mut text)
        .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
    if let Ok(f) = serde_json::from_str::<ResultsFile>(&text) {
        return Ok((
            f.results.into_iter().map(ScoredRun::from_owned).collect(),
            0,
        ));
    }
    let mut out = Vec::new();
    let mut skipped = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if let Ok(r) = serde_json::from_str::<IngestRecord>(line) {
            match crate::scoring::scored_run(&r) {
                Some(run) => out.push(run),
                None => skipped += 1,
            }
            continue;
        }
        let r = serde_json::from_str::<RunRecord>(line).map_err(|e| {
            anyhow::anyhow!(
                "{}:{}: neither an ingested run nor a results record: {e}",
                path.display(),
                i + 1
            )
        })?;
        out.push(ScoredRun::from_record(&r));
    }
    Ok((out, skipped))
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
    let mut all = Vec::new();
    for p in runs {
        let (got, skipped) = read_runs(p)?;
        if skipped > 0 {
            eprintln!(
                "warning: {}: {skipped} run(s) without track or benchmark identity skipped",
                p.display()
            );
        }
        all.extend(got);
    }
    // Only the facts of the benchmarks that were run are needed.
    let wanted: std::collections::HashSet<String> = all.iter().map(|r| r.file.path()).collect();
    let inventory = Inventory::read_cached_only(inventory, &|p| wanted.contains(p))?;
    let subs = load_set(submissions, comp);
    for l in subs.iter().filter(|l| l.submission.is_none()) {
        for p in &l.problems {
            eprintln!("{p}");
        }
    }
    Ok((all, inventory, subs))
}

pub(super) fn run(global: &GlobalArgs, args: ScoreArgs) -> CmdResult {
    let comp = global.competition()?;
    let edition = args.edition.unwrap_or(comp.rules);
    let mut policy = args.policy.policy();
    if comp.track(args.track).is_none() {
        eprintln!(
            "error: track {} is not defined in {}",
            args.track, comp.name
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
    let (runs, inventory, subs) =
        load_inputs(&comp, &args.runs, &args.inventory, &args.submissions)?;
    let (input, missing) = scoring::build_input(&comp, args.track, &subs, &inventory, runs);
    if !missing.is_empty() {
        eprintln!(
            "warning: {} benchmark(s) of the runs are not in the inventory (scored with status unknown), e.g. {}",
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
    let scores = match edition {
        RulesEdition::Rules2025 => scoring::score(&input, &policy),
        RulesEdition::Rules2023 => {
            policy = editions::e2023::policy();
            editions::e2023::score(&input)
        }
        RulesEdition::Rules2015 | RulesEdition::Rules2008 => {
            return historical(&comp, edition, &input, &args);
        }
    };
    if scores.join != Default::default() {
        eprintln!("note: ignored input: {:?}", scores.join);
    }
    let (t, mem) = (input.time_limit as u64, input.memory_mb);
    match args.format {
        ScoreFormat::Json => {
            let mut doc = serde_json::Map::new();
            doc.insert("policy".into(), serde_json::to_value(&policy)?);
            doc.insert(
                "disagreements".into(),
                serde_json::to_value(&scores.disagreements)?,
            );
            doc.insert("unsound".into(), serde_json::to_value(&scores.unsound)?);
            doc.insert(
                "pages".into(),
                serde_json::Value::Object(output::pages(&scores, t, mem, comp.year)),
            );
            write_out(args.output.as_deref(), &to_json(&doc)?)
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
    }
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
        let got = crate::ingest::read_jsonl(p).map_err(|e| {
            anyhow::anyhow!(
                "{e} (the Proof Exhibition summary needs an `smtcomp ingest` run table)"
            )
        })?;
        records.extend(got);
    }
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

fn write_out(path: Option<&Path>, text: &str) -> CmdResult {
    match path {
        Some(p) => std::fs::write(p, text)?,
        None => print(text)?,
    }
    Ok(Outcome::Ok)
}
