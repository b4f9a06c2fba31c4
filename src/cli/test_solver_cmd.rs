//! `smtcomp test-solver SUBMISSION.json`: a submission's solver through the
//! competition's code path on small benchmarks of every entered track and logic.
//!
//! Exit codes: 0 every run passed, 1 some run failed (a solver problem), 2
//! unusable input or a problem on our side (a submission with errors, filters
//! that select nothing, a command that cannot be started, BenchExec missing or
//! failing as a whole, ...).

use super::{CmdResult, Failure, GlobalArgs, Outcome, fail, print};
use crate::model::{Competition, Track};
use crate::submission::{Severity, load_file};
use crate::testsolver::limits::Machine;
use crate::testsolver::{RunnerSetup, TestOptions, local_runner, run};
use clap::Args;
use std::path::PathBuf;

/// The demo definition (short limits; test mode 5 s), the default competition.
const DEMO_COMPETITION: &str = include_str!("../../demo/competition.toml");

/// Arguments of `smtcomp test-solver`.
#[derive(Debug, Args)]
pub struct TestSolverArgs {
    /// The submission file.
    #[arg(value_name = "SUBMISSION.json")]
    submission: PathBuf,
    /// Only this track (repeatable; name or short name: sq, inc, uc, mv).
    #[arg(long = "track", value_name = "T", value_parser = super::values::tracks())]
    tracks: Vec<Track>,
    /// Only logics whose whole name matches this regular expression.
    #[arg(long, value_name = "REGEX")]
    logic: Option<String>,
    /// Benchmark library: a corpus layout (single/, unsat-core/, incremental/)
    /// or an SMT-LIB library (default: the corpus built into smtcomp).
    #[arg(long, value_name = "DIR")]
    library: Option<PathBuf>,
    /// Run exactly the benchmarks this list names (`smtcomp benchmarks used`
    /// output, or a selection file) from the SMT-LIB copy `--library DIR`, with
    /// the competition's limits (`--year Y`) instead of the test limits; its
    /// `# track:` header is the default `--track`. Listed benchmarks missing
    /// from the copy are named and make the test incomplete (exit 2).
    /// A directory here is taken as `--library DIR` (the older spelling).
    #[arg(long, value_name = "FILE")]
    benchmarks: Option<PathBuf>,
    /// The unpacked solver archive: commands with a `/` are relative to it
    /// (default: the current directory; bare names are looked up on PATH).
    #[arg(long, value_name = "DIR")]
    solver_dir: Option<PathBuf>,
    /// Output directory (default: test-solver-output/<solver name>).
    #[arg(short = 'o', long = "output", alias = "out", value_name = "DIR")]
    out: Option<PathBuf>,
    /// Parallel runs and worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// The `benchexec` executable.
    #[arg(long, value_name = "PATH", default_value = "benchexec")]
    benchexec: PathBuf,
    /// Benchmarks per track and logic.
    #[arg(long, value_name = "N", default_value_t = 2)]
    per_logic: usize,
    /// Print the report as JSON on stdout (progress stays on stderr).
    #[arg(long)]
    json: bool,
    /// Test the submission's archive: download its URL, check the hash,
    /// unpack it into OUT/archives and run the commands from there, as the
    /// competition does.
    #[arg(long, conflicts_with = "solver_dir")]
    archive: bool,
    /// Do not validate unsat cores and models. Without it, a run whose core
    /// or model no validator (cvc5, z3 on PATH) could check is NOT CHECKED
    /// and the test INCOMPLETE (exit 2), never PASSED.
    #[arg(long)]
    no_validation: bool,
}

/// `--library` and `--benchmarks` resolved: the library directory, and the
/// list to run (a `--benchmarks` directory is the library, as it used to be).
type LibraryAndList = (
    Option<PathBuf>,
    Option<(PathBuf, crate::benchmarks::list::BenchmarkList)>,
);

fn library_and_list(args: &TestSolverArgs) -> anyhow::Result<LibraryAndList> {
    match (&args.benchmarks, &args.library) {
        (Some(b), None) if b.is_dir() => Ok((Some(b.clone()), None)),
        (Some(b), Some(_)) if b.is_dir() => {
            anyhow::bail!(
                "--benchmarks {}: a directory; give the library as --library and a list file as --benchmarks",
                b.display()
            )
        }
        (Some(b), library) => {
            let Some(library) = library else {
                anyhow::bail!(
                    "--benchmarks {}: give the SMT-LIB copy the listed benchmarks are in as --library DIR (with non-incremental/ and incremental/)",
                    b.display()
                );
            };
            let list = crate::benchmarks::list::read(b)?;
            if list.files.is_empty() {
                anyhow::bail!("--benchmarks {}: lists no benchmark", b.display());
            }
            Ok((Some(library.clone()), Some((b.clone(), list))))
        }
        (None, library) => Ok((library.clone(), None)),
    }
}

pub(super) fn run_test_solver(global: &GlobalArgs, args: TestSolverArgs) -> CmdResult {
    // Documented contract: anything that keeps the test from running is exit 2.
    test_solver(global, args).map_err(|e| match e {
        Failure::Error(e) => Failure::usage(format!("test-solver: {e:#}")),
        other => other,
    })
}

fn test_solver(global: &GlobalArgs, args: TestSolverArgs) -> CmdResult {
    // --competition FILE or --year: its test limits; otherwise the demo definition's.
    let comp = match global.given() {
        true => global.competition()?,
        false => Competition::from_toml(DEMO_COMPETITION, "demo/competition.toml (built in)")?,
    };
    let logic = match &args.logic {
        Some(re) => Some(
            regex::Regex::new(&format!("^(?:{re})$"))
                .map_err(|e| anyhow::anyhow!("--logic {re}: {e}"))?,
        ),
        None => None,
    };
    if args.per_logic == 0 {
        fail!("--per-logic must be at least 1");
    }
    let (library, list) = library_and_list(&args)?;
    let mut tracks = args.tracks.clone();
    if let (true, Some((_, l))) = (tracks.is_empty(), &list) {
        tracks.extend(l.track);
    }
    let loaded = load_file(&args.submission, &comp);
    for p in &loaded.problems {
        eprintln!("{p}");
    }
    let errors = loaded
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .count();
    if errors > 0 || loaded.submission.is_none() {
        fail!(
            "{}: {errors} error(s) in the submission (as `smtcomp submissions validate` reports them above); fix them first",
            args.submission.display()
        );
    }
    let name = loaded
        .submission
        .as_ref()
        .map(|s| s.name.clone())
        .unwrap_or_default();
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("test-solver-output").join(crate::benchexec::sanitize(&name))
    });
    let bin_dir = std::env::current_exe()?
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default();
    let jobs = args
        .jobs
        .unwrap_or_else(crate::util::parallel::default_jobs);
    let opts = TestOptions {
        submission: loaded,
        tracks,
        logic,
        library,
        list,
        solver_dir: args.solver_dir.clone(),
        out: out.clone(),
        jobs,
        bin_dir: bin_dir.clone(),
        per_logic: args.per_logic,
        machine: Machine::this(),
        archive: args.archive,
        no_validation: args.no_validation,
    };
    let benchexec = args.benchexec.clone();
    let make_runner = |setup: &RunnerSetup| -> Box<dyn crate::pipeline::Runner> {
        Box::new(local_runner(benchexec.clone(), bin_dir.clone(), setup))
    };
    let report = run(&comp, &opts, &make_runner, &mut |line| {
        eprintln!("test-solver: {line}")
    })?;
    let text = report.render();
    std::fs::write(out.join("report.txt"), &text)?;
    crate::formats::datafile::write_json(&out.join("report.json"), &report)?;
    if args.json {
        print(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
    } else {
        use crate::util::colour::{Stream, enabled};
        print(&report.render_styled(enabled(Stream::Stdout)))?;
        print(&format!(
            "Report: {}, {}\n",
            out.join("report.txt").display(),
            out.join("report.json").display()
        ))?;
    }
    match report.exit_code() {
        0 => Ok(Outcome::Ok),
        1 => Ok(Outcome::Problems),
        _ => {
            let mut why = Vec::new();
            if let Some(first) = report.missing.first() {
                why.push(format!(
                    "{} listed benchmark(s) not in the library {} (the first: {first})",
                    report.missing.len(),
                    args.library
                        .as_deref()
                        .or(args.benchmarks.as_deref())
                        .map_or(String::new(), |l| l.display().to_string())
                ));
            }
            let ours = report.not_run.saturating_sub(report.missing.len());
            if ours > 0 || !report.problems.is_empty() {
                why.push(format!(
                    "{ours} run(s) not run: {} (a problem on our side, not the solver's)",
                    report.problems.join("; ")
                ));
            }
            if report.passed + report.failed + report.not_run + report.not_checked == 0 {
                why.push("no benchmark was run (see the not-tested lines above)".into());
            }
            if report.not_checked > 0 {
                why.push(format!(
                    "{} run(s) not checked: no validator for their core or model (install one, or give --no-validation)",
                    report.not_checked
                ));
            }
            Err(Failure::usage(format!(
                "test-solver: incomplete, {}",
                why.join("; ")
            )))
        }
    }
}
