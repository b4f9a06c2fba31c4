//! Command line of `smtcomp-proof-wrapper`.
//!
//! ```text
//! smtcomp-proof-wrapper [OPTIONS] BENCHMARK [OUTDIR] [--solver CMD... [-- --checker CMD...]]
//! smtcomp-proof-wrapper [OPTIONS] BENCHMARK [OUTDIR] [--checker CMD...]
//! ```
//!
//! The solver and checker commands are split off before the options are parsed:
//! `--solver` takes every following word up to the pair `-- --checker` (or the
//! end), `--checker` takes every word after it. The solver command gets the
//! benchmark appended, the checker command the benchmark and the proof file.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::time::Duration;

/// Default drop-in solver command, relative to the working directory.
pub const DEFAULT_SOLVER: &str = "./smtcomp_solver";
/// Default drop-in checker command, relative to the working directory.
pub const DEFAULT_CHECKER: &str = "./smtcomp_checker";

/// `--help` text.
const HELP: &str = "\
Proof Exhibition Track wrapper: run a solver, then a proof checker on its proof
(drop-in replacement for starexec_run_proof)

Usage: smtcomp-proof-wrapper [OPTIONS] <BENCHMARK> [OUTDIR] [--solver CMD... [-- --checker CMD...]]
       smtcomp-proof-wrapper [OPTIONS] <BENCHMARK> [OUTDIR] [--checker CMD...]

Arguments:
  <BENCHMARK>  Benchmark file passed to the solver and the checker.
  [OUTDIR]     Directory for solver-error.log, checker-error.log and proof.txt.gz
               [default: .]

Options:
      --proof-file <PATH>            File receiving the solver's stdout (the proof);
                                     the checker's second argument [default: proof.txt]
      --max-proof-bytes <BYTES>      Stop the solver once its stdout exceeds this many
                                     bytes; keep the prefix.
      --compress-threshold <BYTES>   Gzip the proof only if it is smaller than this many
                                     bytes [default: 1000000000]
      --max-log-bytes <BYTES>        Cap for each of solver-error.log and
                                     checker-error.log (excess is discarded)
                                     [default: 10000000]
      --solver-timeout <SECONDS>     Wall-clock limit for the solver phase.
      --checker-timeout <SECONDS>    Wall-clock limit for the checker phase.
      --total-budget <SECONDS>       Wall-clock budget for the whole run; the checker
                                     gets what the solver left.
      --checker-reserve <SECONDS>    With --total-budget: time reserved for the checker
                                     (the solver gets the rest) [default: 0]
      --kill-grace <SECONDS>         Time between SIGTERM and SIGKILL when the wrapper
                                     stops a process group [default: 2]
  -h, --help                         Print help
  -V, --version                      Print version

Commands:
  --solver CMD...  solver command (default ./smtcomp_solver); BENCHMARK is appended.
                   Ends at the word pair `-- --checker` or at the end of the line.
  --checker CMD... checker command (default ./smtcomp_checker); BENCHMARK and the
                   proof file are appended. Takes every remaining word.
  Both must come after all other options and arguments.

Exit status: 0 whatever the solver and checker do; 2 on usage or setup errors;
on SIGTERM/SIGINT/SIGHUP the wrapper stops the active child group, prints its
report and dies of the same signal.
";

/// Long options that take a value (`--NAME VALUE` or `--NAME=VALUE`).
const VALUE_OPTIONS: [&str; 9] = [
    "--proof-file",
    "--max-proof-bytes",
    "--compress-threshold",
    "--max-log-bytes",
    "--solver-timeout",
    "--checker-timeout",
    "--total-budget",
    "--checker-reserve",
    "--kill-grace",
];

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

/// Why the command line was not run: `--help`, `--version` or a usage error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionsError {
    /// `--help` / `-h` (not an error: printed on stdout, exit 0).
    Help,
    /// `--version` / `-V` (not an error: printed on stdout, exit 0).
    Version,
    /// A usage error (printed on stderr, exit 2).
    Usage(String),
}

impl std::fmt::Display for OptionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionsError::Help => f.write_str(HELP.trim_end()),
            OptionsError::Version => {
                write!(f, "smtcomp-proof-wrapper {}", env!("CARGO_PKG_VERSION"))
            }
            OptionsError::Usage(msg) => write!(
                f,
                "smtcomp-proof-wrapper: {msg}\nTry 'smtcomp-proof-wrapper --help'."
            ),
        }
    }
}

impl std::error::Error for OptionsError {}

impl OptionsError {
    /// True for real errors (not `--help` / `--version`).
    pub fn is_error(&self) -> bool {
        matches!(self, OptionsError::Usage(_))
    }

    /// Prints the message (stdout for help/version, stderr otherwise) and returns
    /// the exit code: 0 for help/version, 2 for errors.
    pub fn report(&self) -> i32 {
        if self.is_error() {
            eprintln!("{self}");
            2
        } else {
            println!("{self}");
            0
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

fn parse_bytes(s: &str) -> Result<u64, String> {
    s.parse()
        .map_err(|_| format!("'{s}' is not a number of bytes"))
}

/// The options and arguments before the commands, as given.
#[derive(Debug, Default)]
struct Raw {
    benchmark: Option<PathBuf>,
    outdir: Option<PathBuf>,
    values: Vec<(&'static str, OsString)>,
}

impl Raw {
    fn value(&self, name: &str) -> Option<&OsString> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// Parses the value of option `name` with `parse`, or returns `default`.
    fn get<T>(
        &self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Option<T>, OptionsError> {
        let Some(v) = self.value(name) else {
            return Ok(None);
        };
        let text = v.to_str().ok_or_else(|| {
            OptionsError::Usage(format!("invalid value for {name}: not valid UTF-8"))
        })?;
        parse(text)
            .map(Some)
            .map_err(|why| OptionsError::Usage(format!("invalid value '{text}' for {name}: {why}")))
    }
}

/// Parses the words before the commands: options (`--NAME VALUE`,
/// `--NAME=VALUE`), `--` and up to two positional arguments.
fn parse_head(head: Vec<OsString>) -> Result<Raw, OptionsError> {
    let mut raw = Raw::default();
    let mut positional = Vec::new();
    let mut words = head.into_iter();
    let mut options_done = false;
    while let Some(word) = words.next() {
        let text = word.to_string_lossy();
        if options_done || !text.starts_with('-') || text == "-" {
            positional.push(word);
            continue;
        }
        match &*text {
            "--" => {
                options_done = true;
                continue;
            }
            "-h" | "--help" => return Err(OptionsError::Help),
            "-V" | "--version" => return Err(OptionsError::Version),
            _ => {}
        }
        let bytes = word.as_encoded_bytes();
        let (name, inline) = match bytes.iter().position(|&b| b == b'=') {
            Some(eq) => {
                // SAFETY: split right after an ASCII '=' of a valid OsStr (the
                // value keeps its exact bytes, which need not be UTF-8).
                let value = unsafe { OsStr::from_encoded_bytes_unchecked(&bytes[eq + 1..]) };
                (
                    String::from_utf8_lossy(&bytes[..eq]).into_owned(),
                    Some(value.to_os_string()),
                )
            }
            None => (text.to_string(), None),
        };
        let Some(&known) = VALUE_OPTIONS.iter().find(|o| **o == name) else {
            return Err(OptionsError::Usage(format!("unexpected argument '{text}'")));
        };
        let value = match inline {
            Some(v) => v,
            None => words
                .next()
                .ok_or_else(|| OptionsError::Usage(format!("{known} needs a value")))?,
        };
        if raw.value(known).is_some() {
            return Err(OptionsError::Usage(format!(
                "{known} cannot be given more than once"
            )));
        }
        raw.values.push((known, value));
    }
    let mut positional = positional.into_iter();
    raw.benchmark = positional.next().map(PathBuf::from);
    raw.outdir = positional.next().map(PathBuf::from);
    if let Some(extra) = positional.next() {
        return Err(OptionsError::Usage(format!(
            "unexpected argument '{}'",
            extra.to_string_lossy()
        )));
    }
    Ok(raw)
}

/// Argv split into the options part, the solver command and the checker command.
type Split = (Vec<OsString>, Option<Vec<OsString>>, Option<Vec<OsString>>);

/// Splits argv (without the program name) into the options part, the solver command
/// and the checker command.
fn split_commands(mut args: Vec<OsString>) -> Result<Split, OptionsError> {
    let mut i = 0;
    while i < args.len() {
        let word = args[i].to_string_lossy();
        if word == "--" {
            break; // everything after is positional
        }
        if word == "--solver" || word == "--checker" {
            break;
        }
        i += if VALUE_OPTIONS.iter().any(|o| *o == word) {
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
        // `--` or nothing: all of it is options and arguments.
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
        let mut argv = argv.into_iter();
        let _program = argv.next();
        let (head, solver, checker) = split_commands(argv.collect())?;
        let raw = parse_head(head)?;
        let benchmark = raw
            .benchmark
            .clone()
            .ok_or_else(|| OptionsError::Usage("missing BENCHMARK".into()))?;
        if benchmark.as_os_str().is_empty() {
            return Err(OptionsError::Usage("BENCHMARK must not be empty".into()));
        }
        let proof_file = raw
            .value("--proof-file")
            .map_or_else(|| PathBuf::from("proof.txt"), PathBuf::from);
        if proof_file.as_os_str().is_empty() {
            return Err(OptionsError::Usage("--proof-file must not be empty".into()));
        }
        let total_budget = raw.get("--total-budget", parse_secs)?;
        let checker_reserve = raw
            .get("--checker-reserve", parse_secs_or_zero)?
            .unwrap_or(Duration::ZERO);
        let mut solver_timeout = raw.get("--solver-timeout", parse_secs)?;
        if let Some(total) = total_budget {
            if checker_reserve >= total {
                return Err(OptionsError::Usage(format!(
                    "--checker-reserve ({:.3} s) must be smaller than --total-budget ({:.3} s)",
                    checker_reserve.as_secs_f64(),
                    total.as_secs_f64()
                )));
            }
            let share = total - checker_reserve;
            solver_timeout = Some(solver_timeout.map_or(share, |t| t.min(share)));
        } else if !checker_reserve.is_zero() {
            return Err(OptionsError::Usage(
                "--checker-reserve needs --total-budget".into(),
            ));
        }
        Ok(Options {
            benchmark,
            outdir: raw.outdir.clone().unwrap_or_else(|| PathBuf::from(".")),
            proof_file,
            solver: solver.unwrap_or_else(|| vec![DEFAULT_SOLVER.into()]),
            checker: checker.unwrap_or_else(|| vec![DEFAULT_CHECKER.into()]),
            max_proof_bytes: raw.get("--max-proof-bytes", parse_bytes)?,
            compress_threshold: raw
                .get("--compress-threshold", parse_bytes)?
                .unwrap_or(1_000_000_000),
            max_log_bytes: raw
                .get("--max-log-bytes", parse_bytes)?
                .unwrap_or(10_000_000),
            solver_timeout,
            checker_timeout: raw.get("--checker-timeout", parse_secs)?,
            total_budget,
            kill_grace: raw
                .get("--kill-grace", parse_secs_or_zero)?
                .unwrap_or(Duration::from_secs(2)),
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
    fn help_version_and_option_forms() {
        assert_eq!(parse(&["--help"]), Err(OptionsError::Help));
        assert_eq!(
            parse(&["b", "-h", "--solver", "s"]),
            Err(OptionsError::Help)
        );
        assert_eq!(parse(&["-V"]), Err(OptionsError::Version));
        assert!(!OptionsError::Help.is_error());
        let help = OptionsError::Help.to_string();
        for option in VALUE_OPTIONS {
            assert!(help.contains(option), "{option} missing in --help");
        }
        let o = parse(&["--kill-grace=0.5", "--max-log-bytes", "7", "--", "-b", "-o"]).unwrap();
        assert_eq!(o.kill_grace, Duration::from_millis(500));
        assert_eq!(o.max_log_bytes, 7);
        assert_eq!(o.benchmark, PathBuf::from("-b"));
        assert_eq!(o.outdir, PathBuf::from("-o"));
        assert_eq!(parse(&["-"]).unwrap().benchmark, PathBuf::from("-"));
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
            &["--unknown", "b"],
            &["-x", "b"],
            &["b", "--max-log-bytes"],
            &["--max-log-bytes", "1", "--max-log-bytes=2", "b"],
            &["--proof-file=", "b"],
        ] {
            let err = parse(bad).unwrap_err();
            assert!(err.is_error(), "{bad:?} should be a usage error");
        }
    }
}
