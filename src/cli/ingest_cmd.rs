//! `smtcomp ingest RESULTS... [--manifest F] -o runs.jsonl.gz`

use super::{CmdResult, GlobalArgs, Outcome, print, to_json};
use crate::ingest::{self, IngestOptions, ManifestIndex};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `smtcomp ingest`.
#[derive(Debug, Args)]
pub struct IngestArgs {
    /// Result directories (walked for `*.results.*.xml[.bz2|.gz]` and
    /// `results-*.json[.gz]`) or single files. Default in a workspace:
    /// `EXECDIR/results` (and `--manifest EXECDIR/runs.json.gz`).
    #[arg(num_args = 1.., value_name = "RESULTS")]
    inputs: Vec<PathBuf>,
    /// The generation manifest (JSON or JSON.gz) naming every run.
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
    /// Output: JSON Lines, gzip-compressed if the name ends in `.gz`. Default
    /// in a workspace: its ingested run table.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output_flag: Option<PathBuf>,
    /// The output used: `-o` or the workspace's.
    #[arg(skip)]
    output: PathBuf,
    /// With `--manifest`: exit 0 even when manifest runs are missing, failed
    /// to start or were found twice (they are still reported, and missing runs
    /// are still written as `error` records).
    #[arg(long, requires = "manifest")]
    allow_missing: bool,
    /// Print the accounting summary as JSON.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

pub(super) fn run(global: &GlobalArgs, mut args: IngestArgs) -> CmdResult {
    crate::util::malloc::reuse_buffers();
    args.output = super::workspace_defaults::fill_ingest(
        &mut args.inputs,
        &mut args.manifest,
        args.output_flag.take(),
    )?;
    let comp = global.competition()?;
    let manifest = match &args.manifest {
        Some(p) => match ManifestIndex::read(p) {
            Ok(m) => Some(m),
            Err(e) => {
                eprintln!("{} {e}", crate::util::colour::error_prefix());
                return Ok(Outcome::Problems);
            }
        },
        None => None,
    };
    let opts = IngestOptions {
        competition: &comp,
        manifest: manifest.as_ref(),
        progress: !args.quiet && !args.json,
    };
    // Streaming: memory does not grow with the number of runs.
    let summary = ingest::ingest_to_file(&args.inputs, &opts, &args.output)?;
    if args.json {
        print(&to_json(&summary)?)?;
    } else {
        print(&summary.render())?;
    }
    if summary.has_missing() && !args.allow_missing {
        eprintln!(
            "{} runs of the manifest are missing, failed to start or were found twice (see the report; --allow-missing accepts this)",
            crate::util::colour::error_prefix()
        );
        return Ok(Outcome::Problems);
    }
    Ok(if summary.has_unreadable() {
        Outcome::Problems
    } else {
        Outcome::Ok
    })
}
