//! The `smtcomp` command line: argument definitions and dispatch.
//!
//! Exit codes: 0 success, 1 problems found in the input (invalid submissions,
//! unreadable or inconsistent files), 2 usage errors (reported by clap).

mod benchmarks_cmd;
mod competition_cmd;
mod demo_cmd;
mod generate_cmd;
mod ingest_cmd;
mod prepare_cmd;
mod report_cmd;
mod run_local_cmd;
mod score_cmd;
mod seed_cmd;
mod select_cmd;
mod submissions_cmd;
mod test_solver_cmd;
mod validate_cmd;

use crate::model::{Competition, DEFAULT_YEAR};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code for success.
pub const EXIT_OK: u8 = 0;
/// Exit code when the input has problems.
pub const EXIT_PROBLEMS: u8 = 1;
/// Exit code for usage errors (clap's own).
pub const EXIT_USAGE: u8 = 2;

/// Run the SMT Competition on BenchExec: submissions, competition definition,
/// seed, selection, BenchExec generation, results and scoring.
#[derive(Debug, Parser)]
#[command(name = "smtcomp", version, about, long_about = None)]
#[command(after_help = "Exit codes: 0 success, 1 problems found in the input, 2 usage error.")]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command accepts.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Competition definition file (TOML or JSON) instead of a built-in edition.
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "year")]
    pub competition: Option<PathBuf>,
    /// Built-in competition edition to use.
    #[arg(long, global = true, value_name = "YEAR", default_value_t = DEFAULT_YEAR)]
    pub year: u16,
}

impl GlobalArgs {
    /// The competition selected by `--competition` or `--year`.
    pub fn competition(&self) -> anyhow::Result<Competition> {
        Ok(match &self.competition {
            Some(path) => Competition::from_path(path)?,
            None => Competition::builtin(self.year)?,
        })
    }
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show the competition definition: tracks, divisions, logics and limits.
    #[command(subcommand)]
    Competition(competition_cmd::CompetitionCommand),
    /// Validate solver submissions and show what they enter.
    #[command(subcommand)]
    Submissions(submissions_cmd::SubmissionsCommand),
    /// Compute the competition seed from the submissions (rules section 6).
    Seed(seed_cmd::SeedArgs),
    /// Scan an SMT-LIB library into an inventory; summarize inventories.
    #[command(subcommand)]
    Benchmarks(benchmarks_cmd::BenchmarksCommand),
    /// Select the benchmarks of a track (rules section 6) with glibc random().
    Select(select_cmd::SelectArgs),
    /// Write BenchExec definitions, task files, tool-info modules, run scripts and a manifest.
    Generate(generate_cmd::GenerateArgs),
    /// Run generated definitions on the local BenchExec (safely), results into EXECDIR/results/.
    RunLocal(run_local_cmd::RunLocalArgs),
    /// Write the selected benchmarks as the track runs them (named asserts, get-model, ...).
    Prepare(prepare_cmd::PrepareArgs),
    /// Ingest BenchExec results (XML + log ZIPs) and results files into one run table.
    Ingest(ingest_cmd::IngestArgs),
    /// Validate unsat cores: build validation tasks, run them, join the verdicts into the runs.
    #[command(subcommand, name = "validate-cores")]
    ValidateCores(validate_cmd::CoresCommand),
    /// Validate the models of sat answers (Dolmen or a trusted solver), verdicts into the runs.
    #[command(name = "validate-models")]
    ValidateModels(validate_cmd::ModelsArgs),
    /// Score a track: division and logic pages, best overall, biggest lead, largest contribution.
    Score(score_cmd::ScoreArgs),
    /// Run the demo competition: the whole pipeline on the bundled corpus, real solvers, real BenchExec.
    Demo(demo_cmd::DemoArgs),
    /// Write the static results site: HTML pages, SVG plots, scores XML and XSLT.
    Report(report_cmd::ReportArgs),
    /// Test a submission's solver on small benchmarks of every entered track and logic,
    /// through tool-info, real BenchExec and our binaries; a verdict per run.
    #[command(name = "test-solver")]
    TestSolver(test_solver_cmd::TestSolverArgs),
}

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let code = match cli.command {
        Command::Competition(cmd) => competition_cmd::run(&cli.global, cmd)?,
        Command::Demo(args) => demo_cmd::run_demo(&cli.global, args)?,
        Command::Submissions(cmd) => submissions_cmd::run(&cli.global, cmd)?,
        Command::Seed(args) => seed_cmd::run(&cli.global, args)?,
        Command::Benchmarks(cmd) => benchmarks_cmd::run(&cli.global, cmd)?,
        Command::Select(args) => select_cmd::run(&cli.global, args)?,
        Command::Generate(args) => generate_cmd::run(&cli.global, args)?,
        Command::RunLocal(args) => run_local_cmd::run(&cli.global, args)?,
        Command::Prepare(args) => prepare_cmd::run(&cli.global, args)?,
        Command::Ingest(args) => ingest_cmd::run(&cli.global, args)?,
        Command::ValidateCores(cmd) => validate_cmd::run_cores(&cli.global, cmd)?,
        Command::ValidateModels(args) => validate_cmd::run_models(&cli.global, args)?,
        Command::Score(args) => score_cmd::run(&cli.global, args)?,
        Command::Report(args) => report_cmd::run(&cli.global, args)?,
        Command::TestSolver(args) => test_solver_cmd::run_test_solver(&cli.global, args)?,
    };
    Ok(ExitCode::from(code))
}

/// Writes `text` to stdout; a closed pipe (`| head`) ends output quietly.
pub(crate) fn print(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Pretty JSON with a final newline (deterministic: maps are sorted).
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> anyhow::Result<String> {
    Ok(serde_json::to_string_pretty(value)? + "\n")
}
