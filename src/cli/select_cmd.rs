//! `smtcomp select ...`

use super::{CmdResult, Failure, GlobalArgs, Outcome, print, to_json};
use crate::benchmarks::Inventory;
use crate::formats::datafile;
use crate::formats::inventory::InventoryView;
use crate::formats::inventory_cache;
use crate::formats::results::{ResultsFile, RunRecord};
use crate::model::{Competition, Logic, RulesEdition, Status, Track};
use crate::select::{
    PreviousRelease, Selection, SelectionInputs, SoundAnswers, Triviality, fastest_solves,
    select_parallel, select_view, write_selection_json,
};
use crate::submission::load_set;
use crate::util::writeback::with_write_behind;
use clap::Args;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};

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
    #[arg(long, value_name = "YEAR")]
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
    if edition_2008 {
        return run_2008(&comp, &args, seed);
    }
    // The edition's own filters (2015: no unknown status; 2023: no arrays or
    // datatypes in Model Validation) follow `rules`.
    comp.rules = args.edition.unwrap_or(comp.rules);
    let mut notes = Vec::new();
    let previous_release = match &args.previous_inventory {
        Some(f) => {
            let p = PreviousRelease::from_inventory(&Inventory::read_cached(f)?);
            notes.push(format!(
                "new families: not in {} ({} families)",
                f.display(),
                p.families()
            ));
            Some(p)
        }
        None => None,
    };
    let previous = read_results(&args.previous_results, &comp, &mut notes, true)?;
    let current = read_results(&args.current_results, &comp, &mut notes, false)?;
    // Expected statuses by path: only needed to judge results.
    let no_results = previous.is_empty() && current.is_empty();
    let statuses = |inv: &InventoryView<'_>| -> HashMap<String, Status> {
        if no_results {
            HashMap::new()
        } else {
            inv.benches(false).map(|b| (b.path(), b.status)).collect()
        }
    };
    let only = only_logics(&args.submissions, &comp, args.track.get())?;
    let only = if args.include_non_competitive {
        only
    } else {
        competitive_only(&args.submissions, &comp, args.track.get(), only, &mut notes)?
    };
    let track = args.track.get();
    if matches!(track, Track::Parallel | Track::Cloud) {
        let inv = Inventory::read_cached(&args.inventory)?;
        let fastest = fastest_solves(previous.iter().map(Vec::as_slice), &statuses(&inv.view()));
        let mut selection = select_parallel(&inv, &comp, track, seed, &fastest, only.as_ref())
            .map_err(|e| anyhow::anyhow!(e))?;
        notes.append(&mut selection.notes);
        selection.notes = notes;
        require_selected(&args, selection.benchmarks.len())?;
        if args.explain {
            print(&explain(&selection))?;
        }
        match &args.output {
            Some(path) => datafile::write_json(path, &selection)?,
            None if !args.explain => print(&to_json(&selection)?)?,
            None => {}
        }
        // The process ends here: freeing the inventory and the selection one
        // allocation at a time (a million strings) would only cost time.
        std::mem::forget(inv);
        std::mem::forget(selection);
        return Ok(Outcome::Ok);
    }
    // The other tracks select over the inventory borrowed from its cache: no
    // string is copied per benchmark, and the file is written by hand
    // (`select::write_selection_json`, the bytes serde_json would write).
    // Only the track's list and the logics of its divisions (those entered,
    // with --submissions) are decoded; every non-incremental benchmark when
    // results are judged (their expected statuses).
    let def = comp.track(track);
    let lists = |incremental_list: bool, logic: &str| {
        (!incremental_list && !no_results)
            || (incremental_list == track.is_incremental()
                && def.is_some_and(|d| d.division_of(logic).is_some())
                && only.as_ref().is_none_or(|o| o.contains(logic)))
    };
    inventory_cache::with_view_of(&args.inventory, &lists, |inv| -> CmdResult {
        let statuses = statuses(inv);
        let triviality = Triviality::tally(
            previous.iter().map(Vec::as_slice),
            &statuses,
            comp.selection.trivial_time_s,
        );
        let all_current: Vec<RunRecord> = current.into_iter().flatten().collect();
        let sound = SoundAnswers::collect(&all_current, &statuses, &comp);
        let input = SelectionInputs {
            competition: &comp,
            track,
            seed,
            triviality: &triviality,
            sound: &sound,
            heats: args.heats,
            only_logics: only.as_ref(),
            previous: previous_release.as_ref(),
            test_per_logic: args.test.then_some(args.test_per_logic),
        };
        if args.test {
            let note = test_note(&args, &triviality, seed, comp.selection.trivial_time_s);
            eprintln!("note: {note}");
            notes.push(note);
        }
        let mut selection = select_view(inv, &input).map_err(|e| anyhow::anyhow!(e))?;
        notes.append(&mut selection.notes);
        selection.notes = notes;
        require_selected(&args, selection.benchmarks.len())?;
        if args.explain {
            print(&explain(&selection.to_owned()))?;
        }
        match &args.output {
            Some(path) if path.extension().is_some_and(|e| e == "gz") => {
                datafile::write_json(path, &selection.to_owned())?
            }
            // 68 MB for Single Query: its write-back is started while the
            // rest is written (the rename that replaces the file would
            // otherwise wait while all of it is queued).
            Some(path) => datafile::write_replacing(path, |file| {
                with_write_behind(&file, |behind| {
                    let mut w = BufWriter::with_capacity(1 << 20, behind);
                    write_selection_json(&mut w, &selection)?;
                    w.write_all(b"\n")?;
                    w.flush()
                })
            })
            .map_err(|e| datafile::DataFileError::new(path, format!("cannot write: {e}")))?,
            None if !args.explain => {
                let mut out = std::io::stdout().lock();
                match write_selection_json(&mut out, &selection)
                    .and_then(|_| out.write_all(b"\n"))
                    .and_then(|_| out.flush())
                {
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                    other => other?,
                }
            }
            None => {}
        }
        Ok(Outcome::Ok)
    })?
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
    let only = only_logics(&args.submissions, comp, args.track.get())?;
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

/// What `--test` preferred, for stderr and the selection's notes.
fn test_note(args: &SelectArgs, triviality: &Triviality, seed: u32, trivial_s: f64) -> String {
    let n = args.test_per_logic;
    if triviality.known() == 0 {
        format!(
            "test run: up to {n} benchmarks per logic, seed {seed}; no previous results, so no \
             benchmark is known to be trivial: drawn from all eligible ones (new families first)"
        )
    } else {
        format!(
            "test run: up to {n} benchmarks per logic, seed {seed}; in logics with benchmarks \
             solved by every solver in under {trivial_s} s in the previous results, only those"
        )
    }
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

/// Reads results files; previous-year files outside the configured years are skipped.
fn read_results(
    files: &[PathBuf],
    comp: &Competition,
    notes: &mut Vec<String>,
    previous: bool,
) -> anyhow::Result<Vec<Vec<RunRecord>>> {
    let mut sets = Vec::new();
    for f in files {
        if previous
            && let Some(year) = year_in_name(f)
            && !comp.selection.previous_results_years.contains(&year)
        {
            notes.push(format!(
                "{}: ignored, {year} is not among the previous_results_years of {}",
                f.display(),
                comp.name
            ));
            continue;
        }
        sets.push(ResultsFile::read(f)?.results);
    }
    Ok(sets)
}

/// A 4-digit year (19xx/20xx) in the file name, if any.
fn year_in_name(path: &Path) -> Option<u16> {
    let name = path.file_name()?.to_string_lossy();
    let re = regex::Regex::new(r"(?:^|[^0-9])((?:19|20)[0-9]{2})(?:[^0-9]|$)").ok()?;
    re.captures(&name)?.get(1)?.as_str().parse().ok()
}

/// Logics entered in `track` by the given submissions, if any were given.
fn only_logics(
    paths: &[PathBuf],
    comp: &Competition,
    track: Track,
) -> anyhow::Result<Option<BTreeSet<Logic>>> {
    if paths.is_empty() {
        return Ok(None);
    }
    let loaded = load_set(paths, comp);
    if let Some(bad) = loaded.iter().find(|l| l.submission.is_none()) {
        let reasons: Vec<String> = bad.problems.iter().map(|p| p.to_string()).collect();
        anyhow::bail!("cannot read submission:\n{}", reasons.join("\n"));
    }
    Ok(Some(
        loaded
            .iter()
            .filter_map(|l| l.entries.get(&track))
            .flat_map(|divisions| divisions.values().flatten().cloned())
            .collect(),
    ))
}

/// Rules 6: non-competitive divisions are not run. With submissions, keeps of
/// `only` (the logics entered) those of the track's competitive divisions
/// (`noncompetitive::entered`) and notes the divisions left out.
fn competitive_only(
    paths: &[PathBuf],
    comp: &Competition,
    track: Track,
    only: Option<BTreeSet<Logic>>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Option<BTreeSet<Logic>>> {
    let Some(mut only) = only else {
        return Ok(None);
    };
    let mut skipped = super::noncompetitive::entered(&load_set(paths, comp), comp);
    skipped.retain(|(t, _), e| *t == track && e.teams.len() < 2);
    for e in skipped.values() {
        only.retain(|l| !e.logics.contains(l));
    }
    if !skipped.is_empty() {
        notes.push(format!(
            "non-competitive divisions not selected (rules 6; --include-non-competitive \
             selects them): {}",
            super::noncompetitive::describe(&skipped)
        ));
    }
    Ok(Some(only))
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
