//! `smtcomp benchmarks ...`

use super::{CmdResult, GlobalArgs, Outcome, print, require};
use crate::benchmarks::{Inventory, scan};
use crate::model::Status;
use clap::Subcommand;
use std::fmt::Write;
use std::path::PathBuf;

/// Subcommands of `smtcomp benchmarks`.
#[derive(Debug, Subcommand)]
pub enum BenchmarksCommand {
    /// Scan an SMT-LIB library into an inventory (logic, family, status, assertions,
    /// check-sats, per-check-sat statuses); unreadable files are listed with the reason.
    ///
    /// Exit 1 when some files could not be read (they are in the inventory's "errors").
    Scan {
        /// Library root (with `non-incremental/` and `incremental/`, or logic directories).
        /// Default in a workspace: its `library`.
        root: Option<PathBuf>,
        /// Output file (`.json` or `.json.gz`). Default in a workspace: its inventory.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Worker threads (default: all cores).
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
    },
    /// Summarize an inventory: benchmarks per logic and status.
    Stats {
        /// Inventory file (ours or a `benchmarks-YYYY.json.gz`). Default in a
        /// workspace: its inventory.
        inventory: Option<PathBuf>,
        /// One JSON document instead of the table: `{"inventory", "logics": {LOGIC:
        /// {"sat", "unsat", "unknown", "incremental"}}, "total": {...}}`.
        #[arg(long)]
        json: bool,
    },
    /// List the benchmarks a past competition ran in a track (and division or
    /// logic), from the organizers' published results file, one library path
    /// per line: the list `test-solver --benchmarks` and `score --selection` read.
    ///
    /// Needs `--year Y` (or `--competition FILE`) for the year and its divisions.
    /// The results file is `--results FILE`, else `results-<track>-<year>.json.gz`
    /// in the current directory or its `data/` (a clone of the organizers'
    /// smt-comp.github.io). Exit codes: 0 listed; 1 a division or logic asked
    /// for has no benchmark in the results, or the results file is missing or
    /// of another track; 2 no year, or a division or logic the year's track
    /// does not have.
    Used {
        /// The track (name or short name: sq, inc, uc, mv, parallel, cloud).
        #[arg(long, value_name = "T", value_parser = super::values::tracks())]
        track: crate::model::Track,
        /// Only this division (repeatable), as the year's definition names it.
        #[arg(long, value_name = "D")]
        division: Vec<String>,
        /// Only this logic (repeatable).
        #[arg(long, value_name = "L")]
        logic: Vec<String>,
        /// The organizers' results file of that track and year.
        #[arg(long, value_name = "FILE")]
        results: Option<PathBuf>,
        /// Write the list here instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
}

pub(super) fn run(global: &GlobalArgs, cmd: BenchmarksCommand) -> CmdResult {
    match cmd {
        BenchmarksCommand::Scan { root, output, jobs } => {
            let root = super::workspace_defaults::library(root, "<ROOT>")?;
            let output = super::workspace_defaults::inventory(output, "--output <FILE>")?;
            require!(root.is_dir(), "{}: not a directory", root.display());
            let comp = global.competition()?;
            let inv = scan(
                &root,
                &comp,
                jobs.unwrap_or_else(crate::util::parallel::default_jobs),
            );
            let mut s = String::new();
            for e in &inv.errors {
                let _ = writeln!(s, "{}: {}", e.path, e.reason);
            }
            if inv.non_incremental.is_empty() && inv.incremental.is_empty() {
                eprint!("{s}");
                super::fail!(
                    "{}: no readable .smt2 benchmark found ({} unreadable); nothing written to {}",
                    root.display(),
                    inv.errors.len(),
                    output.display()
                );
            }
            inv.write(&output)?;
            let _ = writeln!(
                s,
                "{}: {} non-incremental, {} incremental, {} unreadable",
                output.display(),
                inv.non_incremental.len(),
                inv.incremental.len(),
                inv.errors.len()
            );
            print(&s)?;
            Ok(if inv.errors.is_empty() {
                Outcome::Ok
            } else {
                Outcome::Problems
            })
        }
        BenchmarksCommand::Used {
            track,
            division,
            logic,
            results,
            output,
        } => super::benchmarks_used::run(global, track, &division, &logic, results, output),
        BenchmarksCommand::Stats { inventory, json } => {
            let inventory = super::workspace_defaults::inventory(inventory, "<INVENTORY>")?;
            global.unused("benchmarks stats")?;
            let inv = Inventory::read_cached(&inventory)?;
            if json {
                print(&super::to_json(&stats_json(&inventory, &inv))?)?;
            } else {
                print(&stats(&inv))?;
            }
            Ok(Outcome::Ok)
        }
    }
}

/// Benchmarks per logic: `[sat, unsat, unknown, incremental]`, logics sorted.
fn counts(inv: &Inventory) -> std::collections::BTreeMap<&str, [usize; 4]> {
    use std::collections::BTreeMap;
    let mut by_logic: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for b in &inv.non_incremental {
        let e = by_logic.entry(b.file.logic.as_str()).or_default();
        match b.status {
            Status::Sat => e[0] += 1,
            Status::Unsat => e[1] += 1,
            _ => e[2] += 1,
        }
    }
    for b in &inv.incremental {
        by_logic.entry(b.file.logic.as_str()).or_default()[3] += 1;
    }
    by_logic
}

/// `--json` of `benchmarks stats`: the table's counts, keys in a fixed order.
fn stats_json(path: &std::path::Path, inv: &Inventory) -> serde_json::Value {
    let row = |c: &[usize; 4]| serde_json::json!({"sat": c[0], "unsat": c[1], "unknown": c[2], "incremental": c[3]});
    let by_logic = counts(inv);
    let mut total = [0usize; 4];
    let mut logics = serde_json::Map::new();
    for (logic, c) in &by_logic {
        for k in 0..4 {
            total[k] += c[k];
        }
        logics.insert((*logic).to_string(), row(c));
    }
    serde_json::json!({
        "inventory": path.display().to_string(),
        "logics": logics,
        "total": row(&total),
    })
}

fn stats(inv: &Inventory) -> String {
    let by_logic = counts(inv);
    let mut s = format!(
        "{:<16} {:>8} {:>8} {:>8} {:>11}\n",
        "logic", "sat", "unsat", "unknown", "incremental"
    );
    let mut total = [0usize; 4];
    for (logic, c) in &by_logic {
        let _ = writeln!(
            s,
            "{logic:<16} {:>8} {:>8} {:>8} {:>11}",
            c[0], c[1], c[2], c[3]
        );
        for k in 0..4 {
            total[k] += c[k];
        }
    }
    let _ = writeln!(
        s,
        "{:<16} {:>8} {:>8} {:>8} {:>11}",
        "total", total[0], total[1], total[2], total[3]
    );
    s
}
