//! `smtcomp demo`: the whole pipeline on the bundled corpus with real solvers.

use super::run_slurm_cmd::SlurmArgs;
use super::{CmdResult, GlobalArgs, Outcome, print};
use crate::demo::{DemoOptions, local_runner, run, winners};
use crate::pipeline::Runner;
use clap::Args;
use std::fmt::Write;
use std::path::PathBuf;

/// (track position, track name, division) for the winners listing.
type DivisionKey = (usize, String, String);

/// Arguments of `smtcomp demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Output directory (re-running reuses finished stages).
    #[arg(
        short = 'o',
        long = "output",
        alias = "out",
        value_name = "DIR",
        default_value = "demo-output"
    )]
    out: PathBuf,
    /// Parallel runs and worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Redo every stage.
    #[arg(long)]
    fresh: bool,
    /// The SMT-LIB corpus (the repository's `corpus/`).
    #[arg(long, value_name = "DIR", default_value = "corpus")]
    corpus: PathBuf,
    /// The example submissions.
    #[arg(long, value_name = "DIR", default_value = "demo/submissions")]
    submissions: PathBuf,
    /// The demo competition definition.
    #[arg(
        id = "demo_competition",
        long = "demo-competition",
        value_name = "FILE",
        default_value = "demo/competition.toml"
    )]
    competition: PathBuf,
    /// Unpacked solver archives (copied to the execution directory's `archives/`).
    #[arg(long, value_name = "DIR", default_value = "demo/archives")]
    archives: PathBuf,
    /// The `benchexec` executable.
    #[arg(long, value_name = "PATH", default_value = "benchexec")]
    benchexec: PathBuf,
    /// Where the BenchExec definitions run: the local BenchExec, or a Slurm job
    /// array (a one-node cluster: `scripts/slurm-local start`).
    #[arg(long, value_enum, default_value = "local")]
    backend: Backend,
    #[command(flatten)]
    slurm: SlurmArgs,
    /// One JSON document instead of the summary: `{"output", "site_index", "ok",
    /// "runs": {TRACK: {"answers", "expected"}}, "winners": [{"track", "division",
    /// "kind", "solver"}], "proofs", "stages": [{"name", "seconds", "reused"}],
    /// "missing", "wrong"}`.
    #[arg(long)]
    json: bool,
}

/// Where the demo's BenchExec definitions run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// The local `benchexec`, several calls side by side.
    Local,
    /// A Slurm job array, each task `smtcomp run-local` on a chunk of definitions.
    Slurm,
}

pub(super) fn run_demo(global: &GlobalArgs, args: DemoArgs) -> CmdResult {
    global.unused("demo")?;
    let bin_dir = std::env::current_exe()?
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default();
    let jobs = args
        .jobs
        .unwrap_or_else(crate::util::parallel::default_jobs);
    let opts = DemoOptions {
        corpus: args.corpus,
        submissions: args.submissions,
        competition: args.competition,
        archives: args.archives,
        out: args.out.clone(),
        jobs,
        fresh: args.fresh,
    };
    let local = local_runner(args.benchexec, bin_dir, jobs);
    let slurm;
    let runner: &dyn Runner = match args.backend {
        Backend::Local => &local,
        Backend::Slurm => {
            // One BenchExec run per array task: Slurm spreads the tasks over the cores.
            let mut options = local.options.clone();
            options.jobs = Some(1);
            options.extra_path = Vec::new();
            slurm = args.slurm.runner(options)?;
            &slurm
        }
    };
    let outcome = run(&opts, runner, &mut |line| eprintln!("demo: {line}"))?;
    if args.json {
        print(&super::to_json(&demo_json(&outcome, &args.out))?)?;
        return Ok(if outcome.check.ok() {
            Outcome::Ok
        } else {
            Outcome::Problems
        });
    }
    let mut s = String::new();
    let _ = writeln!(s, "\nRuns per track and answer:");
    for (track, answers) in &outcome.check.answers {
        let parts: Vec<String> = answers.iter().map(|(a, n)| format!("{a} {n}")).collect();
        let expected = outcome.check.expected_runs.get(track).copied().unwrap_or(0);
        let _ = writeln!(
            s,
            "  {track:<16} {} (expected runs: {expected})",
            parts.join(", ")
        );
    }
    let _ = writeln!(s, "\nWinners (competitive divisions, rules policy):");
    // One line per division: the winner, or the winner of each kind when they differ.
    let mut by_division: std::collections::BTreeMap<DivisionKey, Vec<(&str, String)>> =
        Default::default();
    for (track, division, kind, solver) in winners(&outcome.scores) {
        let order = crate::demo::DEMO_TRACKS
            .iter()
            .position(|t| *t == track)
            .unwrap_or(9);
        by_division
            .entry((order, track.name().to_string(), division))
            .or_default()
            .push((kind, solver));
    }
    if by_division.is_empty() {
        let _ = writeln!(s, "  none (no competitive division)");
    }
    for ((_, track, division), kinds) in &by_division {
        let first = &kinds[0].1;
        let text = if kinds.iter().all(|(_, w)| w == first) {
            first.clone()
        } else {
            kinds
                .iter()
                .map(|(k, w)| format!("{k}: {w}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(s, "  {track:<16} {division:<28} {text}");
    }
    if !outcome.proofs.is_empty() {
        let _ = writeln!(
            s,
            "\nProof Exhibition (not scored; checker verdicts, errors = invalid + sat):"
        );
        for l in &outcome.proofs {
            let verdicts: Vec<String> = l
                .verdicts
                .iter()
                .filter(|(_, n)| **n > 0)
                .map(|(v, n)| format!("{v} {n}"))
                .collect();
            let _ = writeln!(
                s,
                "  {:<16} {:<28} {}; errors {}",
                l.solver,
                l.division,
                verdicts.join(", "),
                l.errors
            );
        }
    }
    let total: f64 = outcome.timings.iter().map(|t| t.1).sum();
    let _ = writeln!(
        s,
        "\nStages: {}",
        outcome
            .timings
            .iter()
            .map(|(n, t, reused)| if *reused {
                format!("{n} reused")
            } else {
                format!("{n} {t:.1} s")
            })
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(s, "Total {total:.1} s; output in {}", args.out.display());
    let _ = writeln!(s, "Results site: {}", outcome.site_index.display());
    for m in &outcome.check.missing {
        let _ = writeln!(s, "MISSING RUN: {m}");
    }
    for w in &outcome.check.wrong {
        let _ = writeln!(s, "WRONG ANSWER: {w}");
    }
    let _ = writeln!(
        s,
        "Check: {}",
        if outcome.check.ok() {
            "every selected benchmark ran for every entered solver; no wrong answer"
        } else {
            "FAILED"
        }
    );
    print(&s)?;
    Ok(if outcome.check.ok() {
        Outcome::Ok
    } else {
        Outcome::Problems
    })
}

/// `--json` of `demo`: what the text summary shows, keys in a fixed order.
fn demo_json(outcome: &crate::demo::DemoOutcome, out: &std::path::Path) -> serde_json::Value {
    let mut runs = serde_json::Map::new();
    for (track, answers) in &outcome.check.answers {
        runs.insert(
            track.clone(),
            serde_json::json!({
                "answers": answers,
                "expected": outcome.check.expected_runs.get(track).copied().unwrap_or(0),
            }),
        );
    }
    let winners: Vec<_> = winners(&outcome.scores)
        .into_iter()
        .map(|(track, division, kind, solver)| {
            serde_json::json!({
                "track": track.name(), "division": division, "kind": kind, "solver": solver,
            })
        })
        .collect();
    let proofs: Vec<_> = outcome
        .proofs
        .iter()
        .map(|l| {
            serde_json::json!({
                "solver": l.solver, "division": l.division,
                "verdicts": l.verdicts, "errors": l.errors,
            })
        })
        .collect();
    let stages: Vec<_> = outcome
        .timings
        .iter()
        .map(|(n, t, reused)| serde_json::json!({"name": n, "seconds": t, "reused": reused}))
        .collect();
    serde_json::json!({
        "output": out.display().to_string(),
        "site_index": outcome.site_index.display().to_string(),
        "ok": outcome.check.ok(),
        "runs": runs,
        "winners": winners,
        "proofs": proofs,
        "stages": stages,
        "missing": outcome.check.missing,
        "wrong": outcome.check.wrong,
    })
}
