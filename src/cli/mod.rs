//! The `smtcomp` command line: argument definitions and dispatch.
//!
//! Exit codes: 0 success, 1 problems found in the input (invalid submissions,
//! unreadable or inconsistent files), 2 usage errors (reported by clap).

mod archives_cmd;
mod benchmarks_cmd;
mod benchmarks_used;
mod competition_cmd;
mod demo_cmd;
mod export_cmd;
mod generate_cmd;
mod ingest_cmd;
mod init_cmd;
mod meta_cmd;
mod prepare_cmd;
mod report_cmd;
mod run_cmd;
mod run_local_cmd;
mod run_slurm_cmd;
mod score_cmd;
mod seed_cmd;
mod select_cmd;
mod status_cmd;
mod submissions_cmd;
mod test_solver_cmd;
mod validate_cmd;
mod values;
mod workspace_defaults;

use crate::model::{Competition, DEFAULT_YEAR};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// How a command that ran to its end went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything was fine: exit 0.
    Ok,
    /// The command did its work and found (and reported) problems in its
    /// input or in the results: exit 1.
    Problems,
}

/// Why a command stopped before its end. (Not a `std::error::Error`, like
/// `anyhow::Error`, so that every error converts into it with `?`.)
#[derive(Debug)]
pub enum Failure {
    /// The command line cannot work (a flag combination, a value): exit 2.
    Usage(String),
    /// Problems in the input, already reported one per line: exit 1.
    Reported,
    /// Anything else (an unreadable file, an I/O error), with its context: exit 1.
    Error(anyhow::Error),
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure::Error(e.into())
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Usage(m) => f.write_str(m),
            Failure::Reported => f.write_str("stopped after the problems reported above"),
            Failure::Error(e) => write!(f, "{e:#}"),
        }
    }
}

/// `return` a [`Failure::Error`] from a command (`bail!` for [`CmdResult`]).
macro_rules! fail {
    ($($arg:tt)*) => {
        return Err($crate::cli::Failure::Error(anyhow::anyhow!($($arg)*)))
    };
}
pub(crate) use fail;

/// [`fail!`] unless the condition holds (`ensure!` for [`CmdResult`]).
macro_rules! require {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            $crate::cli::fail!($($arg)*);
        }
    };
}
pub(crate) use require;

impl Failure {
    /// A usage error with this message (a typed error's text).
    pub fn usage(message: impl std::fmt::Display) -> Failure {
        Failure::Usage(message.to_string())
    }
}

/// What every command returns.
pub type CmdResult = Result<Outcome, Failure>;

/// The one mapping from a command's result to the process exit code
/// (0 ok, 1 problems in the input or results, 2 usage, 128 + signal when
/// interrupted), printing the error.
pub fn exit_code(result: CmdResult) -> u8 {
    // Interrupted: the interrupt watcher stops the children and exits 128 + signal.
    if let Some(sig) = crate::util::interrupt::interrupted() {
        return crate::util::interrupt::finish(sig);
    }
    match result {
        Ok(Outcome::Ok) => 0,
        Ok(Outcome::Problems) => 1,
        Err(Failure::Reported) => 1,
        Err(Failure::Error(e)) => {
            eprintln!("{} {e:#}", crate::util::colour::error_prefix());
            1
        }
        Err(Failure::Usage(m)) => {
            eprintln!("{} {m}", crate::util::colour::error_prefix());
            2
        }
    }
}

/// Run the SMT Competition on BenchExec: submissions, competition definition,
/// seed, selection, BenchExec generation, results and scoring.
#[derive(Debug, Parser)]
#[command(name = "smtcomp", version = VERSION, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 success, 1 problems found in the input or results (or an error), 2 usage error, 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (the BenchExec calls and Slurm jobs started are stopped first)."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// `smtcomp --version`: the package version and the git commit it was built
/// from (`unknown` outside a git checkout, e.g. from a source tarball; build.rs).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("SMTCOMP_GIT_COMMIT"),
    ")"
);

/// `--color`: when to colour errors, warnings and verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorArg {
    /// On terminals, unless `NO_COLOR` is set (`CLICOLOR_FORCE` forces it).
    #[default]
    Auto,
    /// Always, even when piped.
    Always,
    /// Never.
    Never,
}

impl From<ColorArg> for crate::util::colour::ColourChoice {
    fn from(c: ColorArg) -> Self {
        use crate::util::colour::ColourChoice;
        match c {
            ColorArg::Auto => ColourChoice::Auto,
            ColorArg::Always => ColourChoice::Always,
            ColorArg::Never => ColourChoice::Never,
        }
    }
}

/// Options every command accepts.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Competition definition file (TOML or JSON) instead of a built-in edition.
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "year")]
    pub competition: Option<PathBuf>,
    /// Built-in competition edition to use (default: 2025).
    #[arg(long, global = true, value_name = "YEAR", value_parser = values::years())]
    pub year: Option<u16>,
    /// Colour errors, warnings and verdicts: `auto` on terminals unless NO_COLOR is set.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,
}

impl GlobalArgs {
    /// The competition selected by `--competition` or `--year`, else the
    /// workspace's (`smtcomp.toml`), else the default edition.
    pub fn competition(&self) -> anyhow::Result<Competition> {
        Ok(match &self.competition {
            Some(path) => Competition::from_path(path)?,
            None => match self.year {
                Some(year) => Competition::builtin(year)?,
                None => match crate::workspace::Workspace::discover()? {
                    Some(ws) => ws.competition()?,
                    None => Competition::builtin(DEFAULT_YEAR)?,
                },
            },
        })
    }

    /// Whether `--competition` or `--year` was given.
    pub fn given(&self) -> bool {
        self.competition.is_some() || self.year.is_some()
    }

    /// A usage error when `--competition`/`--year` was given to `command`,
    /// which does not use a competition definition (a flag that would be
    /// silently ignored is rejected instead).
    pub fn unused(&self, command: &str) -> Result<(), Failure> {
        if !self.given() {
            return Ok(());
        }
        let flag = if self.competition.is_some() {
            "--competition"
        } else {
            "--year"
        };
        Err(Failure::usage(format!(
            "{flag} is not used by `smtcomp {command}` (it takes its competition from its inputs)"
        )))
    }
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write a competition workspace (DIR/smtcomp.toml): definition, submissions, library, backend.
    Init(init_cmd::InitArgs),
    /// Run the workspace's competition stage by stage, resuming what is done.
    #[command(
        after_help = "Exit codes: 0 every stage done (or every stage up to --until); 1 a stage failed, or waits (the VerifierCloud: the commands to run are printed); 2 usage error (no workspace, a bad flag); 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (BenchExec calls and Slurm arrays stopped first; the next `smtcomp run` resumes)."
    )]
    Run(run_cmd::RunArgs),
    /// Progress and missing runs per track, division and solver, while BenchExec runs.
    #[command(
        after_help = "Exit codes: 0 every generated round complete (every run done once, every result file readable) and nothing running; 1 runs missing, failed, duplicated or unreadable, a run in progress (lock held, or a Slurm array of ours working), or nothing generated yet; 2 usage error."
    )]
    Status(status_cmd::StatusArgs),
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
    /// Solver archives: download, check the submission's hash, unpack safely into EXECDIR/archives/.
    #[command(subcommand)]
    Archives(archives_cmd::ArchivesCommand),
    /// Write BenchExec definitions, task files, tool-info modules, run scripts and a manifest.
    Generate(generate_cmd::GenerateArgs),
    /// Run generated definitions on the local BenchExec (safely), results into EXECDIR/results/.
    RunLocal(run_local_cmd::RunLocalArgs),
    /// Run generated definitions as a Slurm job array (BenchExec on each node), results into EXECDIR/results/.
    RunSlurm(run_slurm_cmd::RunSlurmArgs),
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
    /// Export files for the organizers' website (SMT-COMP/smt-comp.github.io).
    #[command(subcommand)]
    Export(export_cmd::ExportCommand),
    /// Test a submission's solver on small benchmarks of every entered track and logic,
    /// through tool-info, real BenchExec and our binaries; a verdict per run.
    #[command(
        name = "test-solver",
        after_help = "Exit codes: 0 PASSED (every entered combination run and checked); 1 FAILED (a solver problem: wrong answer, crash, refuted core or model, timeout); 2 INCOMPLETE or unusable input: runs NOT RUN (BenchExec or our configuration) or NOT CHECKED (no validator; --no-validation accepts them), a submission with errors, filters that select nothing; 130/143 interrupted."
    )]
    TestSolver(test_solver_cmd::TestSolverArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions(meta_cmd::CompletionsArgs),
    /// Write man pages: smtcomp.1 and one smtcomp-<command>.1 per (sub)command, into DIR.
    Man(meta_cmd::ManArgs),
}

/// The exit codes of a command whose help states none of its own.
const EXIT_CODES: &str = "Exit codes: 0 success, 1 problems found in the input or results (or an error), 2 usage error, 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP.";

/// The command line definition: [`Cli`]'s, with the exit codes in the help of
/// every (sub)command that does not state its own. `main`, completions and
/// man pages all use this one.
pub fn command() -> clap::Command {
    fn with_exit_codes(cmd: clap::Command) -> clap::Command {
        let cmd = cmd.mut_subcommands(with_exit_codes);
        if cmd.get_after_help().is_some() {
            cmd
        } else {
            cmd.after_help(EXIT_CODES)
        }
    }
    with_exit_codes(<Cli as clap::CommandFactory>::command())
}

/// Parses the process's command line with [`command`] (exits on a usage error).
pub fn parse() -> Cli {
    let matches = command().get_matches();
    <Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> CmdResult {
    crate::util::colour::set_choice(cli.global.color.into());
    // SIGINT, SIGTERM, SIGHUP stop the programs we started too (no orphan BenchExec).
    crate::util::interrupt::install();
    match cli.command {
        Command::Init(args) => init_cmd::run(&cli.global, args),
        Command::Run(args) => run_cmd::run(&cli.global, args),
        Command::Status(args) => status_cmd::run(&cli.global, args),
        Command::Competition(cmd) => competition_cmd::run(&cli.global, cmd),
        Command::Demo(args) => demo_cmd::run_demo(&cli.global, args),
        Command::Submissions(cmd) => submissions_cmd::run(&cli.global, cmd),
        Command::Seed(args) => seed_cmd::run(&cli.global, args),
        Command::Benchmarks(cmd) => benchmarks_cmd::run(&cli.global, cmd),
        Command::Select(args) => select_cmd::run(&cli.global, args),
        Command::Archives(cmd) => archives_cmd::run(&cli.global, cmd),
        Command::Generate(args) => generate_cmd::run(&cli.global, args),
        Command::RunLocal(args) => run_local_cmd::run(&cli.global, args),
        Command::RunSlurm(args) => run_slurm_cmd::run(&cli.global, args),
        Command::Prepare(args) => prepare_cmd::run(&cli.global, args),
        Command::Ingest(args) => ingest_cmd::run(&cli.global, args),
        Command::ValidateCores(cmd) => validate_cmd::run_cores(&cli.global, cmd),
        Command::ValidateModels(args) => validate_cmd::run_models(&cli.global, args),
        Command::Score(args) => score_cmd::run(&cli.global, args),
        Command::Report(args) => report_cmd::run(&cli.global, args),
        Command::Export(cmd) => export_cmd::run(&cli.global, cmd),
        Command::TestSolver(args) => test_solver_cmd::run_test_solver(&cli.global, args),
        Command::Completions(args) => meta_cmd::completions(&cli.global, args),
        Command::Man(args) => meta_cmd::man(&cli.global, args),
    }
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

/// `--track TRACK` of a command about exactly one track (`select`, `prepare`);
/// a positional TRACK is the older spelling (hidden in the help).
#[derive(Debug, Args)]
pub struct OneTrack {
    /// The track: SingleQuery, Incremental, UnsatCore, ModelValidation, Parallel, Cloud,
    /// ProofExhibition (any case; also single-query, sq, inc, uc, mv, pe).
    #[arg(
        long = "track",
        value_name = "TRACK",
        value_parser = values::tracks(),
        required_unless_present = "track_pos"
    )]
    track: Option<crate::model::Track>,
    /// The track as a positional argument (the older spelling).
    #[arg(value_name = "TRACK", hide = true, conflicts_with = "track", value_parser = values::tracks())]
    track_pos: Option<crate::model::Track>,
}

impl OneTrack {
    /// The track given (clap requires exactly one of the two spellings).
    pub fn get(&self) -> crate::model::Track {
        self.track
            .or(self.track_pos)
            .expect("clap requires --track or TRACK")
    }
}

/// The value of an option that also has an older positional spelling (hidden
/// in the help): clap makes one of them required and rejects both.
pub(crate) fn flag_or_positional(
    flag: Option<PathBuf>,
    positional: Option<PathBuf>,
    name: &str,
) -> Result<PathBuf, Failure> {
    flag.or(positional)
        .ok_or_else(|| Failure::usage(format!("{name} is required")))
}

/// `--jobs N` of a command with worker threads: N, or every core
/// (`available_parallelism`) when not given.
pub(crate) fn jobs(given: Option<u32>) -> usize {
    given.map_or_else(crate::util::parallel::default_jobs, |n| n as usize)
}

/// Pretty JSON with a final newline (deterministic: maps are sorted).
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> anyhow::Result<String> {
    Ok(serde_json::to_string_pretty(value)? + "\n")
}

/// A scoring policy named on the command line (`--policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PolicyName {
    /// The rules text (default).
    #[value(name = "rules", alias = "default", alias = "rules-2025")]
    Rules,
    /// What the organizers' tool published in 2025 (named deviations).
    #[value(name = "published-2025")]
    Published2025,
    /// What the organizers published for the 2023 Parallel and Cloud tracks
    /// (named deviations of the 2023 rules; with --year 2023).
    #[value(name = "published-2023")]
    Published2023,
    /// What the organizers published for 2024 (the 2025 tool; Parallel and
    /// Cloud over both tracks' benchmarks, a removed result kept in N).
    #[value(name = "published-2024")]
    Published2024,
    /// The organizers' published policy of the edition scored: published-2025
    /// under the 2025 rules, published-2023 under the 2023 rules.
    #[value(name = "published")]
    Published,
}

impl PolicyName {
    /// The policy of the 2025 engine `command` scores with (`report`, `export
    /// website`); `published-2023` is its own scorer, for `smtcomp score` only:
    /// a usage error here, never a silently different policy.
    pub fn engine_policy(self, command: &str) -> Result<crate::scoring::Policy, Failure> {
        match self {
            PolicyName::Rules => Ok(crate::scoring::Policy::rules()),
            PolicyName::Published2025 => Ok(crate::scoring::Policy::published_2025()),
            PolicyName::Published2023 => Err(Failure::usage(format!(
                "--policy published-2023 reproduces the organizers' 2023 Parallel and Cloud tables for `smtcomp score --year 2023`; {command} does not apply it"
            ))),
            PolicyName::Published2024 => Err(Failure::usage(format!(
                "--policy published-2024 reproduces the organizers' 2024 pages from their results files for `smtcomp score`; {command} does not apply it"
            ))),
            PolicyName::Published => Err(Failure::usage(format!(
                "--policy published is the scored edition's own published policy, for `smtcomp score`; {command} scores with the 2025 engine: name the policy (published-2025)"
            ))),
        }
    }

    /// The choice an edition is asked to apply
    /// ([`crate::scoring::editions::dispatch::policy`]).
    pub fn choice(self) -> crate::scoring::editions::dispatch::PolicyChoice {
        use crate::scoring::editions::dispatch::PolicyChoice;
        match self {
            PolicyName::Rules => PolicyChoice::Rules,
            PolicyName::Published2025 => PolicyChoice::Published2025,
            PolicyName::Published2023 => PolicyChoice::Published2023,
            PolicyName::Published2024 => PolicyChoice::Published2024,
            PolicyName::Published => PolicyChoice::Published,
        }
    }
}

/// Parses `NAME=DIR` (`--solver-dir`): a non-empty name and a directory path.
pub fn name_dir(s: &str) -> Result<(String, PathBuf), String> {
    match s.split_once('=') {
        Some((name, dir)) if !name.is_empty() && !dir.is_empty() => {
            Ok((name.to_string(), PathBuf::from(dir)))
        }
        _ => Err(format!("expected NAME=DIR, got '{s}'")),
    }
}

/// The longest time limit any option accepts (one year, in seconds): larger
/// values cannot be represented as a deadline on every platform.
pub const MAX_SECONDS: f64 = 31_536_000.0;

/// Parses a time limit in seconds: a finite number above 0 and at most
/// [`MAX_SECONDS`].
pub fn seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= MAX_SECONDS => Ok(t),
        Ok(_) => Err(format!(
            "expected seconds above 0 and at most {MAX_SECONDS}, got '{s}'"
        )),
        Err(_) => Err(format!("expected seconds, got '{s}'")),
    }
}

/// `--time-limit` of core validation: `track`, `producing` or a number of seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeLimitArg {
    /// The Unsat Core Track's time limit, never below the producing run's time
    /// (2025 rules 5.4; the default).
    Track,
    /// The time of the producing run (2025 rules 5.4).
    Producing,
    /// A fixed limit in seconds.
    Seconds(f64),
}

/// Parses [`TimeLimitArg`].
pub fn time_limit(s: &str) -> Result<TimeLimitArg, String> {
    match s {
        "track" => return Ok(TimeLimitArg::Track),
        "producing" => return Ok(TimeLimitArg::Producing),
        _ => {}
    }
    seconds(s)
        .map(TimeLimitArg::Seconds)
        .map_err(|e| format!("expected `track`, `producing` or seconds: {e}"))
}

/// Parses seconds like [`seconds`], also accepting 0.
pub fn seconds_or_zero(s: &str) -> Result<f64, String> {
    if s.trim().parse::<f64>() == Ok(0.0) {
        return Ok(0.0);
    }
    seconds(s)
}
