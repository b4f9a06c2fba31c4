//! Command line of `smtcomp-proof-wrapper`.
//!
//! ```text
//! smtcomp-proof-wrapper [OPTIONS] BENCHMARK [OUTDIR] [--solver CMD... [-- --checker CMD...]]
//! smtcomp-proof-wrapper [OPTIONS] BENCHMARK [OUTDIR] [--checker CMD...]
//! ```
//!
//! The solver and checker commands are split off before clap sees the rest:
//! `--solver` takes every following word up to the pair `-- --checker` (or the
//! end), `--checker` takes every word after it. The solver command gets the
//! benchmark appended, the checker command the benchmark and the proof file.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::time::Duration;

use clap::{CommandFactory, Parser};

/// Default drop-in solver command, relative to the working directory.
pub const DEFAULT_SOLVER: &str = "./smtcomp_solver";
/// Default drop-in checker command, relative to the working directory.
pub const DEFAULT_CHECKER: &str = "./smtcomp_checker";

const AFTER_HELP: &str = "\
Commands:
  --solver CMD...  solver command (default ./smtcomp_solver); BENCHMARK is appended.
                   Ends at the word pair `-- --checker` or at the end of the line.
  --checker CMD... checker command (default ./smtcomp_checker); BENCHMARK and the
                   proof file are appended. Takes every remaining word.
  Both must come after all other options and arguments.

Exit status: 0 whatever the solver and checker do; 2 on usage or setup errors;
on SIGTERM/SIGINT/SIGHUP the wrapper stops the active child group, prints its
report and dies of the same signal.";

/// Raw command line as parsed by clap (the commands are handled separately).
#[derive(Debug, Parser)]
#[command(
    name = "smtcomp-proof-wrapper",
    version,
    about = "Proof Exhibition Track wrapper: run a solver, then a proof checker on its proof \
             (drop-in replacement for starexec_run_proof)",
    after_help = AFTER_HELP
)]
struct Cli {
    /// Benchmark file passed to the solver and the checker.
    #[arg(value_name = "BENCHMARK")]
    benchmark: PathBuf,

    /// Directory for solver-error.log, checker-error.log and proof.txt.gz.
    #[arg(value_name = "OUTDIR", default_value = ".")]
    outdir: PathBuf,

    /// File receiving the solver's stdout (the proof); the checker's second argument.
    #[arg(long, value_name = "PATH", default_value = "proof.txt")]
    proof_file: PathBuf,

    /// Stop the solver once its stdout exceeds this many bytes; keep the prefix.
    #[arg(long, value_name = "BYTES")]
    max_proof_bytes: Option<u64>,

    /// Gzip the proof only if it is smaller than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 1_000_000_000)]
    compress_threshold: u64,

    /// Cap for each of solver-error.log and checker-error.log (excess is discarded).
    #[arg(long, value_name = "BYTES", default_value_t = 10_000_000)]
    max_log_bytes: u64,

    /// Wall-clock limit for the solver phase.
    #[arg(long, value_name = "SECONDS", value_parser = parse_secs)]
    solver_timeout: Option<Duration>,

    /// Wall-clock limit for the checker phase.
    #[arg(long, value_name = "SECONDS", value_parser = parse_secs)]
    checker_timeout: Option<Duration>,

    /// Wall-clock budget for the whole run; the checker gets what the solver left.
    #[arg(long, value_name = "SECONDS", value_parser = parse_secs)]
    total_budget: Option<Duration>,

    /// With --total-budget: time reserved for the checker (the solver gets the rest).
    #[arg(long, value_name = "SECONDS", value_parser = parse_secs_or_zero, default_value = "0")]
    checker_reserve: Duration,

    /// Time between SIGTERM and SIGKILL when the wrapper stops a process group.
    #[arg(long, value_name = "SECONDS", value_parser = parse_secs_or_zero, default_value = "2")]
    kill_grace: Duration,
}

/// Validated options of one wrapper run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Benchmark path (passed unchanged to both commands).
    pub benchmark: PathBuf,
    /// Output directory for logs and the compressed proof.
    pub outdir: PathBuf,
    /// Proof file (relative to the working directory unless absolute).
    pub proof_file: PathBuf,
    /// Solver command without the benchmark.
    pub solver: Vec<OsString>,
    /// Checker command without the benchmark and proof file.
    pub checker: Vec<OsString>,
    /// Hard cap on the proof size.
    pub max_proof_bytes: Option<u64>,
    /// Compress only proofs smaller than this.
    pub compress_threshold: u64,
    /// Cap of each stderr log.
    pub max_log_bytes: u64,
    /// Solver phase limit (already combined with the total budget).
    pub solver_timeout: Option<Duration>,
    /// Checker phase limit (the total budget is applied at run time).
    pub checker_timeout: Option<Duration>,
    /// Budget for the whole run.
    pub total_budget: Option<Duration>,
    /// SIGTERM → SIGKILL delay.
    pub kill_grace: Duration,
}

/// Why the command line was rejected.
#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    /// Reported by clap (includes `--help` and `--version`, which are not errors).
    #[error("{0}")]
    Clap(#[from] clap::Error),
    /// Our own usage error.
    #[error("smtcomp-proof-wrapper: {0}\nTry 'smtcomp-proof-wrapper --help'.")]
    Usage(String),
}

impl OptionsError {
    /// Prints the message (stdout for help/version, stderr otherwise) and returns
    /// the exit code: 0 for help/version, 2 for errors.
    pub fn report(&self) -> i32 {
        match self {
            OptionsError::Clap(e) => {
                let _ = e.print();
                if e.use_stderr() { 2 } else { 0 }
            }
            OptionsError::Usage(msg) => {
                eprintln!("smtcomp-proof-wrapper: {msg}\nTry 'smtcomp-proof-wrapper --help'.");
                2
            }
        }
    }
}

fn parse_secs(s: &str) -> Result<Duration, String> {
    let d = parse_secs_or_zero(s)?;
    if d.is_zero() {
        return Err("must be greater than 0".into());
    }
    Ok(d)
}

fn parse_secs_or_zero(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !(0.0..=1e9).contains(&v) {
        return Err(format!(
            "'{s}' is not a number of seconds between 0 and 1e9"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Long options of [`Cli`] that take a separate value word.
fn value_options() -> Vec<String> {
    Cli::command()
        .get_arguments()
        .filter(|a| a.get_action().takes_values())
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect()
}

/// Argv split into clap's part, the solver command and the checker command.
type Split = (Vec<OsString>, Option<Vec<OsString>>, Option<Vec<OsString>>);

/// Splits argv (without the program name) into clap's part, the solver command
/// and the checker command.
fn split_commands(mut args: Vec<OsString>) -> Result<Split, OptionsError> {
    let takes_value = value_options();
    let mut i = 0;
    while i < args.len() {
        let word = args[i].to_string_lossy();
        if word == "--" {
            break; // everything after is positional for clap
        }
        if word == "--solver" || word == "--checker" {
            break;
        }
        i += if takes_value.iter().any(|o| *o == word) {
            2
        } else {
            1
        };
    }
    let mut rest = args.split_off(i.min(args.len()));
    let head = args;
    let (mut solver, mut checker) = (None, None);
    if rest.first().is_some_and(|w| w == OsStr::new("--solver")) {
        let words = rest.split_off(1);
        let end = words
            .windows(2)
            .position(|w| w[0] == OsStr::new("--") && w[1] == OsStr::new("--checker"));
        match end {
            Some(end) => {
                let mut words = words;
                let after = words.split_off(end + 2);
                words.truncate(end);
                solver = Some(words);
                checker = Some(after);
            }
            None => solver = Some(words),
        }
    } else if rest.first().is_some_and(|w| w == OsStr::new("--checker")) {
        checker = Some(rest.split_off(1));
    } else {
        // `--` or nothing: give it back to clap.
        let mut head = head;
        head.extend(rest);
        return Ok((head, None, None));
    }
    for (name, cmd) in [("--solver", &solver), ("--checker", &checker)] {
        if cmd.as_ref().is_some_and(|c| c.is_empty()) {
            return Err(OptionsError::Usage(format!("{name} needs a command")));
        }
    }
    Ok((head, solver, checker))
}

impl Options {
    /// Parses the full argv (program name first).
    pub fn parse_from(argv: impl IntoIterator<Item = OsString>) -> Result<Options, OptionsError> {
        let mut argv: Vec<OsString> = argv.into_iter().collect();
        if argv.is_empty() {
            argv.push("smtcomp-proof-wrapper".into());
        }
        let rest = argv.split_off(1);
        let (head, solver, checker) = split_commands(rest)?;
        argv.extend(head);
        let cli = Cli::try_parse_from(argv)?;
        if cli.benchmark.as_os_str().is_empty() {
            return Err(OptionsError::Usage("BENCHMARK must not be empty".into()));
        }
        if cli.proof_file.as_os_str().is_empty() {
            return Err(OptionsError::Usage("--proof-file must not be empty".into()));
        }
        let mut solver_timeout = cli.solver_timeout;
        if let Some(total) = cli.total_budget {
            if cli.checker_reserve >= total {
                return Err(OptionsError::Usage(format!(
                    "--checker-reserve ({:.3} s) must be smaller than --total-budget ({:.3} s)",
                    cli.checker_reserve.as_secs_f64(),
                    total.as_secs_f64()
                )));
            }
            let share = total - cli.checker_reserve;
            solver_timeout = Some(solver_timeout.map_or(share, |t| t.min(share)));
        } else if !cli.checker_reserve.is_zero() {
            return Err(OptionsError::Usage(
                "--checker-reserve needs --total-budget".into(),
            ));
        }
        Ok(Options {
            benchmark: cli.benchmark,
            outdir: cli.outdir,
            proof_file: cli.proof_file,
            solver: solver.unwrap_or_else(|| vec![DEFAULT_SOLVER.into()]),
            checker: checker.unwrap_or_else(|| vec![DEFAULT_CHECKER.into()]),
            max_proof_bytes: cli.max_proof_bytes,
            compress_threshold: cli.compress_threshold,
            max_log_bytes: cli.max_log_bytes,
            solver_timeout,
            checker_timeout: cli.checker_timeout,
            total_budget: cli.total_budget,
            kill_grace: cli.kill_grace,
        })
    }

    /// The gzip file: `<OUTDIR>/<proof file name>.gz` (`proof.txt.gz` by default).
    pub fn compressed_path(&self) -> PathBuf {
        let mut name = self
            .proof_file
            .file_name()
            .map(OsString::from)
            .unwrap_or_else(|| "proof.txt".into());
        name.push(".gz");
        self.outdir.join(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, OptionsError> {
        Options::parse_from(
            std::iter::once("w")
                .chain(args.iter().copied())
                .map(OsString::from),
        )
    }

    fn words(ws: &[&str]) -> Vec<OsString> {
        ws.iter().map(OsString::from).collect()
    }

    #[test]
    fn drop_in_defaults() {
        let o = parse(&["b.smt2"]).unwrap();
        assert_eq!(o.benchmark, PathBuf::from("b.smt2"));
        assert_eq!(o.outdir, PathBuf::from("."));
        assert_eq!(o.proof_file, PathBuf::from("proof.txt"));
        assert_eq!(o.solver, words(&["./smtcomp_solver"]));
        assert_eq!(o.checker, words(&["./smtcomp_checker"]));
        assert_eq!(o.max_log_bytes, 10_000_000);
        assert_eq!(o.compress_threshold, 1_000_000_000);
        assert_eq!(o.solver_timeout, None);
        assert_eq!(o.compressed_path(), PathBuf::from("./proof.txt.gz"));
        let o = parse(&["my bench.smt2", "out dir"]).unwrap();
        assert_eq!(o.outdir, PathBuf::from("out dir"));
    }

    #[test]
    fn explicit_commands() {
        let o = parse(&[
            "--max-proof-bytes",
            "100",
            "b",
            "o",
            "--solver",
            "cvc5",
            "--lang",
            "smt2",
            "--",
            "x",
            "--",
            "--checker",
            "sh",
            "-c",
            "--solver",
        ])
        .unwrap();
        assert_eq!(o.max_proof_bytes, Some(100));
        assert_eq!(o.solver, words(&["cvc5", "--lang", "smt2", "--", "x"]));
        assert_eq!(o.checker, words(&["sh", "-c", "--solver"]));
        let o = parse(&["b", "--checker", "c", "--solver"]).unwrap();
        assert_eq!(o.solver, words(&["./smtcomp_solver"]));
        assert_eq!(o.checker, words(&["c", "--solver"]));
        let o = parse(&["b", "--solver", "s", "--checker", "c"]).unwrap();
        assert_eq!(o.solver, words(&["s", "--checker", "c"]));
        // An option value that looks like --solver is a value.
        let o = parse(&["--proof-file=--solver", "b"]).unwrap();
        assert_eq!(o.proof_file, PathBuf::from("--solver"));
    }

    #[test]
    fn budgets() {
        let o = parse(&["--total-budget", "10", "--checker-reserve", "4", "b"]).unwrap();
        assert_eq!(o.solver_timeout, Some(Duration::from_secs(6)));
        let o = parse(&["--total-budget", "10", "--solver-timeout", "2.5", "b"]).unwrap();
        assert_eq!(o.solver_timeout, Some(Duration::from_millis(2500)));
        assert!(matches!(
            parse(&["--total-budget", "3", "--checker-reserve", "3", "b"]),
            Err(OptionsError::Usage(_))
        ));
        assert!(matches!(
            parse(&["--checker-reserve", "3", "b"]),
            Err(OptionsError::Usage(_))
        ));
    }

    #[test]
    fn usage_errors() {
        for bad in [
            &[][..],
            &["b", "--solver"],
            &["b", "--solver", "s", "--", "--checker"],
            &["--solver-timeout", "0", "b"],
            &["--solver-timeout", "-1", "b"],
            &["--solver-timeout", "nan", "b"],
            &["--max-proof-bytes", "x", "b"],
            &["b", "o", "extra"],
            &[""],
        ] {
            let err = parse(bad).unwrap_err();
            let is_error = match &err {
                OptionsError::Clap(e) => e.use_stderr(),
                OptionsError::Usage(_) => true,
            };
            assert!(is_error, "{bad:?} should be a usage error");
        }
    }
}
