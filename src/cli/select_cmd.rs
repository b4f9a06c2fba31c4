//! `smtcomp select ...`

use super::{CmdResult, Failure, GlobalArgs, Outcome, print, to_json};
use crate::benchmarks::Inventory;
use crate::formats::datafile;
use crate::model::{Competition, RulesEdition, Status, Track};
use crate::pipeline::selection::{Evidence, TEST_NOTE_PREFIX, entered_logics, select_with};
use crate::select::Selection;
use clap::Args;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

/// Arguments of `smtcomp select`.
#[derive(Debug, Args)]
pub struct SelectArgs {
    #[command(flatten)]
    track: super::OneTrack,
    /// Benchmark inventory (`smtcomp benchmarks scan` output or a `benchmarks-YYYY.json.gz`).
    /// Default in a workspace: its inventory.
    #[arg(long = "inventory", value_name = "FILE")]
    inventory_flag: Option<PathBuf>,
    /// The inventory used: `--inventory` or the workspace's.
    #[arg(skip)]
    inventory: PathBuf,
    /// Previous years' Single Query results (`results-sq-YYYY.json.gz`), for triviality and
    /// Parallel/Cloud hardness. Files named with a year outside the definition's
    /// `previous_results_years` are ignored (and said so). `--edition 2008`: the
    /// previous competition's runs (a results file or an `smtcomp ingest` run
    /// table), for the difficulty; required, every file is used.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    previous_results: Vec<PathBuf>,
    /// Selection rules: 2008 (rules section 4: check benchmarks, family pools,
    /// 170/20/10 category slots, difficulty bands) or 2025 (section 6). Default:
    /// 2008 if the definition's `rules` is 2008, else 2025 (2015 and 2023 select
    /// as 2025).
    #[arg(long, value_name = "YEAR", value_parser = super::values::editions())]
    edition: Option<RulesEdition>,
    /// This year's Single Query results, for the status filters of Unsat-Core and
    /// Model-Validation (an unknown status counts when a sound solver answered).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    current_results: Vec<PathBuf>,
    /// The `srandom()` seed (see `smtcomp seed`). With `--test`: default 1 (the
    /// reference tool's test mode).
    #[arg(long, value_name = "N", required_unless_present = "test")]
    seed: Option<u32>,
    /// The organizers' test run (the reference tool's `--test`: min 20, ratio 0,
    /// triviality inverted, seed 1): per logic at most `--test-per-logic`
    /// benchmarks, and in a logic where `--previous-results` show trivial
    /// benchmarks, only trivial ones. Not for Parallel/Cloud or `--edition 2008`.
    #[arg(long)]
    test: bool,
    /// With `--test`: benchmarks per logic.
    #[arg(long, value_name = "N", default_value_t = 20, requires = "test")]
    test_per_logic: usize,
    /// Divide each division's selection into this many heats.
    #[arg(long, value_name = "K", default_value_t = 0)]
    heats: u32,
    /// Only logics entered by at least one of these submissions (files or directories).
    #[arg(long, num_args = 1.., value_name = "DIR")]
    submissions: Vec<PathBuf>,
    /// Print per-logic statistics (all, removed, trivial, filtered, eligible, new, cap, selected).
    #[arg(long)]
    explain: bool,
    /// With --submissions: select in non-competitive divisions too. By default
    /// they are skipped (rules 6: "We will not run non-competitive divisions";
    /// competitive = author-submitted solvers from two teams, docs/scoring.md).
    #[arg(long)]
    include_non_competitive: bool,
    /// The previous release's inventory: a benchmark family is new when it is
    /// not in it (rules 6: "one benchmark from each new benchmark family"); for
    /// a logic it has no benchmark of, the `new_family_prefix` rule decides.
    /// Default: the prefix rule.
    #[arg(long, value_name = "FILE")]
    previous_inventory: Option<PathBuf>,
    /// Output file (JSON; gzip if it ends in .gz). Default: standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Whose draw: `rules` (section 6, C `srandom()`/`random()`, default) or
    /// `published-2025` (the organizers' 2025 tool: polars' sampling, as they
    /// ran it; Incremental only; `docs/selection.md`).
    #[arg(long, value_enum, default_value = "rules")]
    policy: SelectPolicy,
}

/// `select --policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum SelectPolicy {
    /// The rules' selection (section 6).
    Rules,
    /// The organizers' 2025 tool's draw.
    #[value(name = "published-2025")]
    Published2025,
}

pub(super) fn run(global: &GlobalArgs, mut args: SelectArgs) -> CmdResult {
    args.inventory =
        super::workspace_defaults::inventory(args.inventory_flag.take(), "--inventory <FILE>")?;
    let mut comp = global.competition()?;
    let edition_2008 = args.edition.unwrap_or(comp.rules) == RulesEdition::Rules2008;
    if args.test && (edition_2008 || matches!(args.track.get(), Track::Parallel | Track::Cloud)) {
        return Err(Failure::usage(
            "--test selects for SingleQuery, Incremental, UnsatCore, ModelValidation and \
             ProofExhibition under the 2015-2025 rules (not Parallel/Cloud, not --edition 2008)",
        ));
    }
    let seed = args.seed.unwrap_or(1);
    if args.policy == SelectPolicy::Published2025 {
        return run_published(&comp, &args, seed);
    }
    if edition_2008 {
        return run_2008(&comp, &args, seed);
    }
    // The edition's own filters (2015: no unknown status; 2023: no arrays or
    // datatypes in Model Validation) follow `rules`.
    comp.rules = args.edition.unwrap_or(comp.rules);
    let evidence = args.evidence();
    let track = args.track.get();
    Ok(select_with(
        &comp,
        &args.inventory,
        track,
        seed,
        &evidence,
        |chosen| emit(chosen, &args),
    )?)
}

/// Prints or writes a selection as `args` say.
fn emit(
    chosen: crate::pipeline::selection::Chosen<'_, '_>,
    args: &SelectArgs,
) -> anyhow::Result<Outcome> {
    if let Some(note) = chosen
        .notes()
        .iter()
        .find(|n| n.starts_with(TEST_NOTE_PREFIX))
    {
        eprintln!("note: {note}");
    }
    if args.explain {
        print(&explain(&chosen.to_owned()))?;
    }
    match &args.output {
        Some(path) => chosen.write(path)?,
        None if !args.explain => {
            let mut out = std::io::stdout().lock();
            match chosen.write_json(&mut out).and_then(|_| out.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                other => other?,
            }
        }
        None => {}
    }
    // The process ends here: freeing the selection one allocation at a
    // time would only cost time.
    std::mem::forget(chosen);
    Ok(Outcome::Ok)
}

/// `select --policy published-2025`: the organizers' 2025 draw (their tool
/// still counted families of 2024 as new when it selected for 2025).
fn run_published(comp: &Competition, args: &SelectArgs, seed: u32) -> CmdResult {
    if args.test
        || args.heats > 1
        || !args.submissions.is_empty()
        || !args.previous_results.is_empty()
        || !args.current_results.is_empty()
        || args.previous_inventory.is_some()
        || args.edition.is_some()
    {
        return Err(Failure::usage(
            "--policy published-2025 reproduces the organizers' 2025 draw from the inventory and              the seed alone: it takes none of --test, --heats, --submissions, --previous-results,              --current-results, --previous-inventory, --edition",
        ));
    }
    let inv = Inventory::read_cached(&args.inventory)?;
    let chosen = crate::select::select_published_2025(&inv, comp, args.track.get(), seed, "2024")
        .map_err(Failure::usage)?;
    Ok(emit(
        crate::pipeline::selection::Chosen::Owned(chosen),
        args,
    )?)
}

impl SelectArgs {
    /// The evidence the flags give.
    fn evidence(&self) -> Evidence {
        Evidence {
            previous_results: self.previous_results.clone(),
            current_results: self.current_results.clone(),
            previous_inventory: self.previous_inventory.clone(),
            submissions: self.submissions.clone(),
            include_non_competitive: self.include_non_competitive,
            heats: self.heats,
            test_per_logic: self.test.then_some(self.test_per_logic),
        }
    }
}

/// `select --edition 2008`.
fn run_2008(comp: &Competition, args: &SelectArgs, seed: u32) -> CmdResult {
    use crate::select::e2008_inventory as e;
    if args.track.get() != Track::SingleQuery {
        return Err(Failure::usage(
            "the 2008 rules have a single track (select it as SingleQuery)",
        ));
    }
    if args.previous_results.is_empty() {
        return Err(Failure::usage(
            "--edition 2008 needs --previous-results FILE...: the difficulty of every \
             benchmark comes from a previous competition's runs (2008 rules section 4)",
        ));
    }
    if !args.current_results.is_empty() || args.heats > 1 {
        return Err(Failure::usage(
            "--edition 2008 takes neither --current-results nor --heats",
        ));
    }
    let inv = Inventory::read_cached(&args.inventory)?;
    let mut runs = Vec::new();
    for p in &args.previous_results {
        let (got, skipped) = super::score_cmd::read_runs(p)?;
        if skipped > 0 {
            eprintln!(
                "{} {}: {skipped} run(s) without track or benchmark identity skipped",
                crate::util::colour::warning_prefix(),
                p.display()
            );
        }
        runs.extend(got);
    }
    let statuses: HashMap<String, Status> = inv
        .non_incremental
        .iter()
        .map(|b| (b.file.path(), b.status))
        .collect();
    let past: Vec<e::PastRun<'_>> = runs
        .iter()
        .map(|r| e::PastRun {
            solver: &r.solver,
            track: r.track,
            path: r.file.path(),
            answer: r.answer,
            cpu_time: r.cpu_time,
        })
        .collect();
    let tally = e::tally(&past, &statuses);
    let only = entered_logics(&args.submissions, comp, args.track.get())?;
    let mut out =
        e::select_2008(&inv, comp, &tally, seed, only.as_ref()).map_err(|m| anyhow::anyhow!(m))?;
    let sq = runs
        .iter()
        .filter(|r| r.track == Track::SingleQuery)
        .count();
    let mut notes = vec![format!(
        "2008 rules: difficulty of {} benchmark(s) from {sq} previous SingleQuery run(s){}",
        tally.len(),
        match runs.len() - sq {
            0 => String::new(),
            n => format!(" ({n} run(s) of other tracks ignored)"),
        }
    )];
    if comp.rules != RulesEdition::Rules2008 {
        notes.push(format!(
            "divisions of {} (the 2008 divisions: --year 2008)",
            comp.name
        ));
    }
    notes.append(&mut out.selection.notes);
    out.selection.notes = notes;
    require_selected(args, out.selection.benchmarks.len())?;
    if args.explain {
        print(&e::explain(&out))?;
    }
    match &args.output {
        Some(path) => datafile::write_json(path, &out.selection)?,
        None if !args.explain => print(&to_json(&out.selection)?)?,
        None => {}
    }
    Ok(Outcome::Ok)
}

/// An error when nothing was selected (an empty inventory, or no benchmark
/// of the track's logics): an empty selection would prepare and run nothing.
fn require_selected(args: &SelectArgs, selected: usize) -> anyhow::Result<()> {
    anyhow::ensure!(
        selected > 0,
        "{}: no benchmark of track {} selected (an empty inventory, or none of its logics); nothing written",
        args.inventory.display(),
        args.track.get()
    );
    Ok(())
}

/// The `--explain` table.
pub fn explain(s: &Selection) -> String {
    let mut out = String::new();
    let parallel = matches!(s.track, Track::Parallel | Track::Cloud);
    let _ = writeln!(
        out,
        "Selection for {} {} (seed {})",
        s.track, s.year, s.seed
    );
    for n in &s.notes {
        let _ = writeln!(out, "note: {n}");
    }
    let trivial = if parallel { "fast" } else { "trivial" };
    let _ = writeln!(
        out,
        "{:<16} {:>8} {:>7} {:>8} {:>7} {:>7} {:>8} {:>7} {:>7} {:>7} {:>8}",
        "logic",
        "all",
        "removed",
        trivial,
        "status",
        "asserts",
        "eligible",
        "new",
        "newfam",
        "cap",
        "selected"
    );
    let mut total = crate::select::LogicStats::default();
    for (logic, st) in &s.logics {
        let _ = writeln!(
            out,
            "{:<16} {:>8} {:>7} {:>8} {:>7} {:>7} {:>8} {:>7} {:>7} {:>7} {:>8}",
            logic.as_str(),
            st.all,
            st.removed,
            st.trivial,
            st.wrong_status,
            st.too_few_asserts,
            st.eligible,
            st.new,
            st.new_families,
            st.cap,
            st.selected
        );
        total.all += st.all;
        total.removed += st.removed;
        total.trivial += st.trivial;
        total.wrong_status += st.wrong_status;
        total.too_few_asserts += st.too_few_asserts;
        total.eligible += st.eligible;
        total.new += st.new;
        total.new_families += st.new_families;
        total.cap += st.cap;
        total.selected += st.selected;
    }
    let _ = writeln!(
        out,
        "{:<16} {:>8} {:>7} {:>8} {:>7} {:>7} {:>8} {:>7} {:>7} {:>7} {:>8}",
        "total",
        total.all,
        total.removed,
        total.trivial,
        total.wrong_status,
        total.too_few_asserts,
        total.eligible,
        total.new,
        total.new_families,
        total.cap,
        total.selected
    );
    out
}
