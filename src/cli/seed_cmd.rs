//! `smtcomp seed ...`

use super::{CmdResult, GlobalArgs, Outcome, fail, print, to_json};
use crate::submission::{competition_seed, load_set};
use clap::Args;
use std::fmt::Write;
use std::path::PathBuf;

/// Arguments of `smtcomp seed`.
#[derive(Debug, Args)]
pub struct SeedArgs {
    /// Directory of submission files (or files). Default in a workspace: its submissions.
    #[arg(long, num_args = 1.., value_name = "DIR")]
    submissions: Vec<PathBuf>,
    /// floor(100 x NYSE Composite opening value); default: the workspace's
    /// `[seed] nyse_value`, else the competition's.
    #[arg(long, value_name = "N")]
    nyse: Option<u64>,
    /// Count a missing seed of a competitive submission as 0 instead of failing.
    #[arg(long)]
    missing_seed_as_zero: bool,
    /// Count every entrant other than the organizers' (the rules' literal text,
    /// section 6) instead of the competitive submissions only (the organizers'
    /// tool): non-competitive submissions count too, except the base solvers the
    /// definition names (`base_solvers`), which the organizers enter.
    #[arg(long)]
    all_entrants: bool,
    /// Machine-readable JSON with every contribution.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(global: &GlobalArgs, mut args: SeedArgs) -> CmdResult {
    args.submissions =
        super::workspace_defaults::submissions(std::mem::take(&mut args.submissions))?;
    args.nyse = super::workspace_defaults::nyse(args.nyse)?;
    let comp = global.competition()?;
    let loaded = load_set(&args.submissions, &comp);
    let unreadable: Vec<_> = loaded.iter().filter(|l| l.submission.is_none()).collect();
    if !unreadable.is_empty() {
        for l in &unreadable {
            for p in &l.problems {
                eprintln!("{p}");
            }
        }
        eprintln!(
            "{} {} submission file(s) cannot be read; the seed depends on all of them",
            crate::util::colour::error_prefix(),
            unreadable.len()
        );
        return Ok(Outcome::Problems);
    }
    if loaded.is_empty() {
        fail!("no submission files found in the given paths");
    }
    let tuples: Vec<_> = loaded
        .iter()
        .filter_map(|l| {
            l.submission.as_ref().map(|s| {
                let organizers = comp.base_solvers.values().any(|b| b == &s.name);
                let counted = if args.all_entrants {
                    s.competitive || !organizers
                } else {
                    s.competitive
                };
                (
                    l.file.display().to_string(),
                    s.name.clone(),
                    s.seed,
                    counted,
                )
            })
        })
        .collect();
    let nyse = args.nyse.or(comp.seed.nyse_value);
    let report = match competition_seed(&tuples, nyse, args.missing_seed_as_zero) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{} {e}", crate::util::colour::error_prefix());
            return Ok(Outcome::Problems);
        }
    };
    if args.json {
        print(&to_json(&report)?)?;
        return Ok(Outcome::Ok);
    }
    let mut s = String::new();
    let _ = writeln!(s, "Competition seed for {} (rules section 6):", comp.name);
    let width = report
        .contributions
        .iter()
        .map(|c| c.solver.len())
        .max()
        .unwrap_or(0);
    for c in &report.contributions {
        let seed = c.seed.map_or("none".to_string(), |x| x.to_string());
        let note = match (c.counted, c.seed) {
            (true, Some(_)) => "",
            (true, None) => "  (counted, no seed: counted as 0)",
            (false, _) if args.all_entrants => "  (the organizers' entry: not counted)",
            (false, _) => "  (not competitive: not counted)",
        };
        let _ = writeln!(s, "  {:width$}  {seed:>12}{note}", c.solver);
    }
    let counted = report.contributions.iter().filter(|c| c.counted).count();
    let _ = writeln!(
        s,
        "sum of {counted} {} seeds mod 2^30 = {}",
        if args.all_entrants {
            "entrants'"
        } else {
            "competitive"
        },
        report.sum_mod_2_30
    );
    match report.nyse_value {
        Some(v) => {
            let from = if args.nyse.is_some() {
                "--nyse".to_string()
            } else {
                format!("{} definition", comp.name)
            };
            let _ = writeln!(s, "NYSE value ({from}) = {v}");
        }
        None => {
            let _ = writeln!(
                s,
                "NYSE value not known yet: pass --nyse N once the index has opened (the seed below is provisional)"
            );
        }
    }
    let _ = writeln!(s, "seed = {}", report.seed);
    print(&s)?;
    Ok(Outcome::Ok)
}
