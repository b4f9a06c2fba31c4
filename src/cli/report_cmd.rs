//! `smtcomp report ...`: the static results site.

use super::{CmdResult, GlobalArgs, Outcome, PolicyName};
use crate::model::Track;
use crate::report::{self, TrackReport};
use crate::scoring::{self};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `smtcomp report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Tracks to report (one site, one index per track).
    /// Default in a workspace: the tracks it runs.
    #[arg(long, num_args = 1.., value_name = "TRACK", value_parser = super::values::tracks())]
    track: Vec<Track>,
    /// Runs of every reported track: results files or JSON lines (ingested run table), gz or not.
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
    /// Submission files or directories.
    /// Default in a workspace: its submissions.
    #[arg(long, num_args = 1.., value_name = "DIR")]
    submissions: Vec<PathBuf>,
    /// Scoring policy: `rules` (default) or `published-2025`.
    #[arg(long, value_enum, default_value = "rules")]
    policy: PolicyName,
    /// Output directory of the site.
    /// Default in a workspace: its `site/`.
    #[arg(short = 'o', long = "output", value_name = "SITE")]
    output_flag: Option<PathBuf>,
    /// The site directory used: `-o` or the workspace's.
    #[arg(skip)]
    output: PathBuf,
    /// Report anyway when runs belong to solvers that no submission names (they
    /// are ignored); without it that is an error (exit 1), as for `score`.
    #[arg(long)]
    allow_unknown_solvers: bool,
    /// Generation date shown in every page's footer (`YYYY-MM-DD`). Default: the
    /// date of `SOURCE_DATE_EPOCH` if set (reproducible builds), else today (UTC);
    /// `--date none` shows no date.
    #[arg(long, value_name = "DATE")]
    date: Option<String>,
    /// The selection of a track (`TRACK=FILE`, repeatable; several files of one track are
    /// united, e.g. Parallel and Cloud): its benchmarks without a run count as not solved
    /// and are reported as missing, as in `smtcomp score --selection`.
    #[arg(long, value_name = "TRACK=FILE", value_parser = parse_selection)]
    selection: Vec<(Track, PathBuf)>,
    /// One JSON document instead of the summary line: `{"site", "index", "tracks",
    /// "pages", "plots", "other", "bytes"}`.
    #[arg(long)]
    json: bool,
}

/// `TRACK=FILE` of `--selection`.
fn parse_selection(s: &str) -> Result<(Track, PathBuf), String> {
    let (t, f) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: expected TRACK=FILE, e.g. SingleQuery=selection-sq.json"))?;
    let track: Track = t.parse().map_err(|e| format!("{e}"))?;
    if f.is_empty() {
        return Err(format!("{s:?}: no file after '='"));
    }
    Ok((track, PathBuf::from(f)))
}

/// The generation date: `--date` (`none`: no date), else `SOURCE_DATE_EPOCH`, else today (UTC).
pub(super) fn generation_date(arg: Option<&str>) -> Result<Option<String>, super::Failure> {
    match arg {
        Some("none") => Ok(None),
        Some(d) => chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .map(|d| Some(d.format("%Y-%m-%d").to_string()))
            .map_err(|e| {
                super::Failure::usage(format!("--date {d:?}: not a date YYYY-MM-DD ({e})"))
            }),
        None => {
            let epoch = std::env::var("SOURCE_DATE_EPOCH").ok();
            let when = match epoch.as_deref().map(str::parse::<i64>) {
                Some(Ok(secs)) => chrono::DateTime::from_timestamp(secs, 0).ok_or_else(|| {
                    super::Failure::usage(format!("SOURCE_DATE_EPOCH={secs}: out of range"))
                })?,
                Some(Err(e)) => {
                    return Err(super::Failure::usage(format!(
                        "SOURCE_DATE_EPOCH={:?}: not a number of seconds ({e})",
                        epoch.unwrap_or_default()
                    )));
                }
                None => chrono::Utc::now(),
            };
            Ok(Some(when.format("%Y-%m-%d").to_string()))
        }
    }
}

pub(super) fn run(global: &GlobalArgs, mut args: ReportArgs) -> CmdResult {
    args.inventory = super::workspace_defaults::fill_scoring(
        &mut args.runs,
        args.inventory_flag.take(),
        &mut args.submissions,
        true,
    )?;
    let comp = global.competition()?;
    args.output = super::workspace_defaults::site(args.output_flag.take())?;
    args.track = super::workspace_defaults::tracks(
        std::mem::take(&mut args.track),
        &comp,
        &args.submissions,
    )?;
    let meta = report::SiteMeta {
        competition: comp.name.clone(),
        generated: generation_date(args.date.as_deref())?,
    };
    let policy = args.policy.engine_policy("report")?;
    for t in &args.track {
        if comp.track(*t).is_none() {
            eprintln!(
                "{} track {t} is not defined in {}",
                crate::util::colour::error_prefix(),
                comp.name
            );
            return Ok(Outcome::Problems);
        }
    }
    for (t, f) in &args.selection {
        if !args.track.contains(t) {
            return Err(super::Failure::usage(format!(
                "--selection {t}={}: track {t} is not reported (--track)",
                f.display()
            )));
        }
    }
    let mut selections: std::collections::BTreeMap<Track, Vec<crate::benchmarks::Smt2File>> =
        Default::default();
    for (t, f) in &args.selection {
        selections
            .entry(*t)
            .or_default()
            .extend(super::score_cmd::read_selection(f)?);
    }
    for files in selections.values_mut() {
        files.sort_by_cached_key(|f| f.path());
        files.dedup();
    }
    let every_selected: Vec<_> = selections.values().flatten().cloned().collect();
    let (runs, mut inventory, subs) = super::score_cmd::load_inputs_selected(
        &comp,
        &args.runs,
        &args.inventory,
        &args.submissions,
        &every_selected,
    )?;
    super::score_cmd::distinct_tracks(&mut args.track);
    let mut by_track = super::score_cmd::split_by_track(runs);
    for &t in &args.track {
        super::score_cmd::require_runs_of(
            t,
            by_track.get(&t).map_or(&[], Vec::as_slice),
            &args.runs,
        )?;
    }
    // Every check before the first page is written: a refused report writes nothing.
    for &t in &args.track {
        if super::score_cmd::unknown_solvers_stop(
            by_track.get(&t).map_or(&[], Vec::as_slice),
            &subs,
            t,
            args.allow_unknown_solvers,
            &format!("{t}: "),
            "--allow-unknown-solvers reports without these runs",
        ) {
            return Ok(Outcome::Problems);
        }
    }
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    pb.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} pages")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_message("report");
    // One track at a time: scored, its pages written, its runs dropped (the
    // site index needs only the scores), the largest track last; the site
    // lists them in the order asked.
    let mut site = report::SiteWriter::new(&meta, &args.output, &pb);
    let mut tracks: Vec<Option<TrackReport>> = args.track.iter().map(|_| None).collect();
    let order = super::score_cmd::largest_last(&args.track, &by_track);
    let n = order.len();
    for (k, (slot, t)) in order.into_iter().enumerate() {
        let mine = by_track.remove(&t).unwrap_or_default();
        let selection = selections.remove(&t).unwrap_or_default();
        let with_selection = !selection.is_empty();
        let (input, missing) = scoring::build_input_selected(
            &comp,
            t,
            &subs,
            &super::score_cmd::inventory_for(k + 1 == n, &mut inventory),
            mine,
            selection,
        );
        if !missing.is_empty() {
            pb.suspend(|| {
                eprintln!(
                    "{} {t}: {} benchmark(s) not in the inventory (status unknown), e.g. {}",
                    crate::util::colour::warning_prefix(),
                    missing.len(),
                    missing[0]
                )
            });
        }
        let report = TrackReport::compute(input, &policy);
        if with_selection {
            for m in &report.scores.missing {
                pb.suspend(|| {
                    eprintln!(
                        "missing: {t}: {}: {} benchmark(s) without a run (scored unsolved), e.g. {}",
                        m.solver,
                        m.count,
                        m.examples.join(", ")
                    )
                });
            }
        }
        site.track(&report)?;
        tracks[slot] = Some(report.light());
    }
    let tracks: Vec<TrackReport> = tracks.into_iter().flatten().collect();
    let summary = site.finish(&tracks, &[])?;
    if args.json {
        let names: Vec<String> = args.track.iter().map(|t| t.to_string()).collect();
        super::print(&super::to_json(&serde_json::json!({
            "site": summary.dir.display().to_string(),
            "index": summary.dir.join("index.html").display().to_string(),
            "tracks": names,
            "pages": summary.pages,
            "plots": summary.plots,
            "other": summary.other,
            "bytes": summary.bytes,
        }))?)?;
    } else {
        println!("{summary}");
    }
    Ok(Outcome::Ok)
}
