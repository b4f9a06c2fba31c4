//! `smtcomp prepare ...`

use super::{CmdResult, GlobalArgs, Outcome, print, require};
use crate::formats::datafile;
use crate::prepare::{PrepareOptions, PreparedSet, prepare};
use crate::select::Selection;
use clap::Args;
use std::fmt::Write;
use std::path::PathBuf;

/// Arguments of `smtcomp prepare`.
#[derive(Debug, Args)]
pub struct PrepareArgs {
    #[command(flatten)]
    track: super::OneTrack,
    /// Selection file (`smtcomp select` output).
    #[arg(long, value_name = "FILE")]
    selection: PathBuf,
    /// SMT-LIB library root. Default in a workspace: its `library`.
    #[arg(long = "library", value_name = "ROOT")]
    library_flag: Option<PathBuf>,
    /// The library used: `--library` or the workspace's.
    #[arg(skip)]
    library: PathBuf,
    /// Output root; files go to OUT/<track>/<LOGIC>/scrambledN.smt2 with OUT/<track>/prepared.json.
    /// Default in a workspace: its `prepared/`.
    #[arg(short = 'o', long = "output", alias = "out", value_name = "DIR")]
    out_flag: Option<PathBuf>,
    /// The output root used: `-o` or the workspace's.
    #[arg(skip)]
    out: PathBuf,
    /// The official SMT-COMP scrambler binary, used instead of our own transformation.
    #[arg(long, value_name = "PATH")]
    scrambler: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// One JSON document instead of the text: `{"track", "track_dir", "method",
    /// "prepared", "failed", "failures": [{"file", "reason"}]}`.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(global: &GlobalArgs, mut args: PrepareArgs) -> CmdResult {
    args.library =
        super::workspace_defaults::library(args.library_flag.take(), "--library <ROOT>")?;
    args.out = super::workspace_defaults::prepared(args.out_flag.take(), "--output <DIR>")?;
    global.unused("prepare")?;
    let selection: Selection = datafile::read_json(&args.selection)?;
    require!(
        selection.track == args.track.get(),
        "{}: this selection is for {}, not {}",
        args.selection.display(),
        selection.track,
        args.track.get()
    );
    require!(
        !selection.benchmarks.is_empty(),
        "{}: the selection holds no benchmark; nothing prepared",
        args.selection.display()
    );
    require!(
        args.library.is_dir(),
        "{}: not a directory",
        args.library.display()
    );
    if let Some(s) = &args.scrambler {
        require!(s.is_file(), "{}: scrambler not found", s.display());
    }
    let opts = PrepareOptions {
        library: args.library,
        out: args.out.clone(),
        scrambler: args.scrambler,
        jobs: args
            .jobs
            .unwrap_or_else(crate::util::parallel::default_jobs),
    };
    let set = prepare(&selection, &opts)?;
    let track_dir = PreparedSet::track_dir(&args.out, args.track.get());
    if args.json {
        let failures: Vec<_> = set
            .failures
            .iter()
            .map(|f| serde_json::json!({"file": f.original.path(), "reason": f.reason}))
            .collect();
        print(&super::to_json(&serde_json::json!({
            "track": args.track.get().to_string(),
            "track_dir": track_dir.display().to_string(),
            "method": set.method,
            "prepared": set.benchmarks.len(),
            "failed": set.failures.len(),
            "failures": failures,
        }))?)?;
        return Ok(if set.failures.is_empty() {
            Outcome::Ok
        } else {
            Outcome::Problems
        });
    }
    let mut s = String::new();
    for f in &set.failures {
        let _ = writeln!(s, "{}: {}", f.original.path(), f.reason);
    }
    let _ = writeln!(
        s,
        "{}: {} prepared, {} failed ({})",
        track_dir.display(),
        set.benchmarks.len(),
        set.failures.len(),
        set.method
    );
    print(&s)?;
    Ok(if set.failures.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}
