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
    /// Report anyway when runs belong to solvers that no submission names (they
    /// are ignored); without it that is an error (exit 1), as for `score`.
    #[arg(long)]
    allow_unknown_solvers: bool,
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
    let mut tracks = Vec::new();
    for &t in &args.track {
        let unknown = super::score_cmd::unknown_solvers(&runs, &subs, t);
        if !unknown.is_empty() {
            let list = unknown
                .iter()
                .map(|(s, n)| format!("{s} ({n} run(s))"))
                .collect::<Vec<_>>()
                .join(", ");
            if !args.allow_unknown_solvers {
                eprintln!(
                    "error: {t}: runs of solvers that no submission names: {list} (--allow-unknown-solvers reports without these runs)"
                );
                return Ok(Outcome::Problems);
            }
            eprintln!("warning: {t}: runs of solvers that no submission names, ignored: {list}");
        }
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
