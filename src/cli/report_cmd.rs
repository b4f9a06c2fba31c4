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
    #[arg(long, required = true, num_args = 1.., value_name = "TRACK")]
    track: Vec<Track>,
    /// Runs of every reported track: results files or JSON lines (ingested run table), gz or not.
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    runs: Vec<PathBuf>,
    /// Benchmark inventory (`benchmarks-YYYY.json.gz` format).
    #[arg(long, value_name = "FILE")]
    inventory: PathBuf,
    /// Submission files or directories.
    #[arg(long, required = true, num_args = 1.., value_name = "DIR")]
    submissions: Vec<PathBuf>,
    /// Scoring policy: `rules` (default) or `published-2025`.
    #[arg(long, value_enum, default_value = "rules")]
    policy: PolicyName,
    /// Output directory of the site.
    #[arg(short = 'o', long, value_name = "SITE")]
    output: PathBuf,
}

pub(super) fn run(global: &GlobalArgs, args: ReportArgs) -> CmdResult {
    let comp = global.competition()?;
    let policy = args.policy.policy();
    for t in &args.track {
        if comp.track(*t).is_none() {
            eprintln!("error: track {t} is not defined in {}", comp.name);
            return Ok(Outcome::Problems);
        }
    }
    let (runs, inventory, subs) =
        super::score_cmd::load_inputs(&comp, &args.runs, &args.inventory, &args.submissions)?;
    for &t in &args.track {
        super::score_cmd::require_runs_of(t, &runs, &args.runs)?;
    }
    let mut tracks = Vec::new();
    for &t in &args.track {
        let mine: Vec<_> = runs.iter().filter(|r| r.track == t).cloned().collect();
        let (input, missing) = scoring::build_input(&comp, t, &subs, &inventory, mine);
        if !missing.is_empty() {
            eprintln!(
                "warning: {t}: {} benchmark(s) not in the inventory (status unknown), e.g. {}",
                missing.len(),
                missing[0]
            );
        }
        tracks.push(TrackReport::compute(input, &policy));
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
    let summary = report::write_site_with_progress(&tracks, &[], &args.output, &pb)?;
    println!("{summary}");
    Ok(Outcome::Ok)
}
