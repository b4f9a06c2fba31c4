//! `smtcomp init DIR --competition FILE --submissions DIR --library DIR`:
//! writes the workspace file `DIR/smtcomp.toml` (see [`crate::workspace`]).

use super::{CmdResult, Failure, GlobalArgs, Outcome, print};
use crate::model::Track;
use crate::workspace::{
    BackendKind, DefinitionSource, FILE_NAME, InitOptions, SelectionSettings, Workspace, render,
};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `smtcomp init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The workspace directory (created if needed): `smtcomp.toml` and what `smtcomp run` writes.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Directory of the submission files.
    #[arg(long, value_name = "DIR")]
    submissions: PathBuf,
    /// The benchmark library (`non-incremental/`, `incremental/`).
    #[arg(long, value_name = "DIR")]
    library: PathBuf,
    /// The BenchExec execution directory (default: DIR/exec).
    #[arg(long, value_name = "DIR")]
    execdir: Option<PathBuf>,
    /// Unpacked solver archives, one directory per solver (default: binaries on PATH).
    #[arg(long, value_name = "DIR")]
    archives: Option<PathBuf>,
    /// A benchmark inventory to use instead of scanning the library (e.g. the
    /// release's `benchmarks-YYYY.json.gz`, or `smtcomp benchmarks scan` output).
    #[arg(long, value_name = "FILE")]
    inventory: Option<PathBuf>,
    /// Previous years' Single Query results for the selection (triviality;
    /// Parallel/Cloud hardness), as `smtcomp select --previous-results`.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    previous_results: Vec<PathBuf>,
    /// This year's Single Query results for the selection (Unsat Core and Model
    /// Validation status filters), as `smtcomp select --current-results`.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    current_results: Vec<PathBuf>,
    /// The previous release's inventory (new families), as `smtcomp select
    /// --previous-inventory`.
    #[arg(long, value_name = "FILE")]
    previous_inventory: Option<PathBuf>,
    /// Divide each division's selection into this many heats.
    #[arg(long, value_name = "K", default_value_t = 0)]
    heats: u32,
    /// Tracks to run (repeatable; default: every track the submissions enter).
    #[arg(long = "track", value_name = "TRACK", value_parser = super::values::tracks())]
    tracks: Vec<Track>,
    /// Which backend runs BenchExec: local, slurm or vcloud.
    #[arg(long, value_name = "KIND", default_value = "local", value_parser = super::values::backends())]
    backend: BackendKind,
    /// Parallel runs per BenchExec call.
    #[arg(long, value_name = "N")]
    jobs: Option<u32>,
    /// Overwrite an existing smtcomp.toml.
    #[arg(long)]
    force: bool,
}

pub(super) fn run(global: &GlobalArgs, args: InitArgs) -> CmdResult {
    let definition = match (&global.competition, global.year) {
        (Some(p), _) => DefinitionSource::File(std::path::absolute(p)?),
        (None, Some(y)) => DefinitionSource::Year(y),
        (None, None) => {
            return Err(Failure::usage(
                "init needs the competition definition: --competition FILE (or --year YEAR for a built-in edition)",
            ));
        }
    };
    // The definition must load, the inputs must be there.
    global.competition()?;
    for (flag, p) in [
        ("--submissions", &args.submissions),
        ("--library", &args.library),
    ] {
        if !p.is_dir() {
            super::fail!("{flag} {}: not a directory", p.display());
        }
    }
    if let Some(a) = &args.archives
        && !a.is_dir()
    {
        super::fail!("--archives {}: not a directory", a.display());
    }
    let files = args
        .previous_results
        .iter()
        .map(|f| ("--previous-results", f))
        .chain(
            args.current_results
                .iter()
                .map(|f| ("--current-results", f)),
        )
        .chain(
            args.previous_inventory
                .iter()
                .map(|f| ("--previous-inventory", f)),
        )
        .chain(args.inventory.iter().map(|f| ("--inventory", f)));
    for (flag, f) in files {
        if !f.is_file() {
            super::fail!("{flag} {}: not a file", f.display());
        }
    }
    std::fs::create_dir_all(&args.dir)
        .map_err(|e| anyhow::anyhow!("{}: cannot create: {e}", args.dir.display()))?;
    let dir = std::fs::canonicalize(&args.dir)?;
    let file = dir.join(FILE_NAME);
    if file.exists() && !args.force {
        super::fail!("{}: exists; --force overwrites it", file.display());
    }
    let abs = |p: &PathBuf| std::path::absolute(p);
    let opts = InitOptions {
        definition,
        submissions: abs(&args.submissions)?,
        library: abs(&args.library)?,
        execdir: args.execdir.as_ref().map(abs).transpose()?,
        archives: args.archives.as_ref().map(abs).transpose()?,
        inventory: args.inventory.as_ref().map(abs).transpose()?,
        selection: SelectionSettings {
            previous_results: args
                .previous_results
                .iter()
                .map(abs)
                .collect::<Result<_, _>>()?,
            current_results: args
                .current_results
                .iter()
                .map(abs)
                .collect::<Result<_, _>>()?,
            previous_inventory: args.previous_inventory.as_ref().map(abs).transpose()?,
            heats: args.heats,
        },
        tracks: args.tracks,
        backend: args.backend,
        jobs: args.jobs,
    };
    let text = render(&dir, &opts)?;
    // What is written must read back.
    Workspace::parse(&text, &file)?;
    std::fs::write(&file, text)
        .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", file.display()))?;
    print(&format!(
        "wrote {}\nnext: cd {} && smtcomp run\n",
        file.display(),
        crate::util::escape::shell(&dir.display().to_string())
    ))?;
    Ok(Outcome::Ok)
}
