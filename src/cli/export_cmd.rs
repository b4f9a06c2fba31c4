//! `smtcomp export website -o OUT`: the files of the organizers' Hugo site.

use super::score_cmd::{load_inputs, unknown_solvers_stop};
use super::{CmdResult, Failure, GlobalArgs, Outcome, PolicyName, to_json};
use crate::model::{RulesEdition, Track};
use crate::report::website;
use crate::scoring;
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `smtcomp export ...`.
#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// The organizers' website files: `content/results/<page>.md` (division, logic,
    /// recognition and track summary pages) and `data/{tracks,division_tracks,participants}.json`.
    Website(WebsiteArgs),
}

/// Arguments of `smtcomp export website`.
#[derive(Debug, Args)]
pub struct WebsiteArgs {
    /// Output directory (the website's `web/` directory: files go to `content/results/` and `data/`).
    #[arg(
        short = 'o',
        long = "output",
        value_name = "DIR",
        required_unless_present = "out_pos"
    )]
    out: Option<PathBuf>,
    /// The output directory as a positional argument (the older spelling).
    #[arg(value_name = "OUT", hide = true, conflicts_with = "out")]
    out_pos: Option<PathBuf>,
    /// Runs of the exported tracks: results files or JSON lines (ingested run table), gz or not
    /// (default in a workspace: its validated run table).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    runs: Vec<PathBuf>,
    /// Benchmark inventory (`benchmarks-YYYY.json.gz` format; default in a workspace: its inventory).
    #[arg(long, value_name = "FILE")]
    inventory: Option<PathBuf>,
    /// Submission files or directories (default in a workspace: its submissions).
    #[arg(long, num_args = 1.., value_name = "DIR")]
    submissions: Vec<PathBuf>,
    /// Tracks to export (default: every track of the definition that has runs).
    #[arg(long, num_args = 1.., value_name = "TRACK", value_parser = super::values::tracks())]
    track: Vec<Track>,
    /// Scoring policy: `rules` (default) or `published-2025` (as the organizers' tool).
    #[arg(long, value_enum, default_value = "rules")]
    policy: PolicyName,
    /// Export anyway when runs belong to solvers no submission names (they are ignored).
    #[arg(long)]
    allow_unknown_solvers: bool,
    /// `resultdate` of every page (`YYYY-MM-DD`). Default: the date of
    /// `SOURCE_DATE_EPOCH` if set, else today (UTC); `none`: the year.
    #[arg(long, value_name = "DATE")]
    date: Option<String>,
    /// One JSON document instead of the summary line: `{"output", "tracks",
    /// "files": [paths relative to the output directory]}`.
    #[arg(long)]
    json: bool,
}

/// Runs `smtcomp export ...`.
pub(super) fn run(global: &GlobalArgs, cmd: ExportCommand) -> CmdResult {
    match cmd {
        ExportCommand::Website(args) => website_cmd(global, args),
    }
}

fn website_cmd(global: &GlobalArgs, mut args: WebsiteArgs) -> CmdResult {
    let inventory = super::workspace_defaults::fill_scoring(
        &mut args.runs,
        args.inventory.take(),
        &mut args.submissions,
        true,
    )?;
    let out = super::flag_or_positional(args.out.clone(), args.out_pos.clone(), "--output")?;
    let comp = global.competition()?;
    if comp.rules != RulesEdition::Rules2025 {
        return Err(Failure::usage(format!(
            "export website scores under the 2025 rules; {} uses the {} rules",
            comp.name, comp.rules
        )));
    }
    let date = super::report_cmd::generation_date(args.date.as_deref())?;
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
    let (runs, mut inventory, subs) =
        load_inputs(&comp, &args.runs, &inventory, &args.submissions)?;
    let tracks: Vec<Track> = if args.track.is_empty() {
        comp.tracks
            .keys()
            .copied()
            .filter(|t| runs.iter().any(|r| r.track == *t))
            .filter(|t| !matches!(t, Track::ProofExhibition | Track::UnsatCoreValidation))
            .collect()
    } else {
        args.track.clone()
    };
    if tracks.is_empty() {
        eprintln!(
            "{} no runs of a track of {} in the given runs; nothing written",
            crate::util::colour::error_prefix(),
            comp.name
        );
        return Ok(Outcome::Problems);
    }
    let policy = args.policy.engine_policy("export website")?;
    let mut tracks = tracks;
    super::score_cmd::distinct_tracks(&mut tracks);
    let mut by_track = super::score_cmd::split_by_track(runs);
    // Every check before the first file is written: a refused export writes
    // nothing. Then one track at a time is scored and written (its pages are
    // not held beside the other tracks').
    for &t in &tracks {
        if unknown_solvers_stop(
            by_track.get(&t).map_or(&[], Vec::as_slice),
            &subs,
            t,
            args.allow_unknown_solvers,
            &format!("{t}: "),
            "--allow-unknown-solvers exports without these runs; nothing written",
        ) {
            return Ok(Outcome::Problems);
        }
        if by_track.get(&t).is_none_or(Vec::is_empty) {
            eprintln!(
                "{} no runs of track {t}; nothing written",
                crate::util::colour::error_prefix()
            );
            return Ok(Outcome::Problems);
        }
    }
    // The files written, per track in the order asked (the largest track is
    // written last, when the other tracks' runs are freed), then the data files.
    let mut track_files: Vec<Vec<PathBuf>> = tracks.iter().map(|_| Vec::new()).collect();
    let write = |files: &mut Vec<PathBuf>, rel: PathBuf, text: &str| -> anyhow::Result<()> {
        let path = out.join(&rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&path, text)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        files.push(rel);
        Ok(())
    };
    let order = super::score_cmd::largest_last(&tracks, &by_track);
    let n = order.len();
    for (k, (slot, t)) in order.into_iter().enumerate() {
        let files = &mut track_files[slot];
        let mine = by_track.remove(&t).unwrap_or_default();
        let (input, missing) = scoring::build_input(
            &comp,
            t,
            &subs,
            &super::score_cmd::inventory_for(k + 1 == n, &mut inventory),
            mine,
        );
        if !missing.is_empty() {
            eprintln!(
                "{} {t}: {} benchmark(s) not in the inventory (status unknown), e.g. {}",
                crate::util::colour::warning_prefix(),
                missing.len(),
                missing[0]
            );
        }
        let scores = scoring::score(&input, &policy);
        for (name, page) in website::results_pages(
            &scores,
            input.time_limit as u64,
            input.memory_mb,
            comp.year,
            date.as_deref(),
        ) {
            write(
                files,
                PathBuf::from("content/results").join(format!("{name}.md")),
                &to_json(&page)?,
            )?;
        }
        for (name, text) in website::chart_pages(&input, &scores) {
            write(
                files,
                PathBuf::from("content/results").join(format!("{name}.html")),
                &text,
            )?;
        }
    }
    let mut files: Vec<PathBuf> = track_files.into_iter().flatten().collect();
    write(
        &mut files,
        "data/tracks.json".into(),
        &to_json(&website::tracks_data(&comp))?,
    )?;
    write(
        &mut files,
        "data/division_tracks.json".into(),
        &to_json(&website::division_tracks_data(&comp))?,
    )?;
    write(
        &mut files,
        "data/participants.json".into(),
        &to_json(&website::participants_data(&subs))?,
    )?;
    let names: Vec<String> = tracks.iter().map(|t| t.to_string()).collect();
    if args.json {
        let rels: Vec<String> = files.iter().map(|rel| rel.display().to_string()).collect();
        super::print(&to_json(&serde_json::json!({
            "output": out.display().to_string(),
            "tracks": names,
            "files": rels,
        }))?)?;
        return Ok(Outcome::Ok);
    }
    println!(
        "wrote {} file(s) for {} to {} (content/results/, data/)",
        files.len(),
        names.join(", "),
        out.display()
    );
    Ok(Outcome::Ok)
}
