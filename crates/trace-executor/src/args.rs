//! Command-line grammar of `smtcomp-trace-executor`.
//!
//! `[OPTIONS] [--continue-after-unknown] SOLVER [SOLVER_ARG...] BENCHMARK`:
//! the last argument is always the benchmark, everything between the options
//! and it is the solver argv, passed through unchanged. Our own options are
//! only recognised *before* SOLVER, as `--te-NAME[=VALUE]` or the short
//! aliases `--NAME[ VALUE]` listed in [`USAGE_DETAILS`]. An unknown
//! `--te-...` option is a usage error; any other word ends the options and is
//! taken as the solver path, as in the original.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::time::Duration;

/// Default grace period between the end of the run and SIGTERM.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(2);
/// Default cap of the captured solver stderr (`--te-solver-stderr`).
pub const DEFAULT_STDERR_LIMIT: u64 = 10_000_000;

/// Everything needed for one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Store every header entry, `unknown` included (the original's flag).
    pub continue_after_unknown: bool,
    /// Print `time <s>` after each `sat`/`unsat` answer.
    pub times: bool,
    /// Write one JSON line per command to this file.
    pub stats: Option<PathBuf>,
    /// Global wall-clock watchdog.
    pub timeout: Option<Duration>,
    /// Print `BAD response: timeout` when the watchdog fires.
    pub report_timeout: bool,
    /// Grace period before SIGTERM at shutdown.
    pub grace: Duration,
    /// Take expectations from `(set-info :status X)` in the body.
    pub status_from_body: bool,
    /// Capture solver stderr into this file instead of `/dev/null`.
    pub solver_stderr: Option<PathBuf>,
    /// Size cap of the captured stderr.
    pub solver_stderr_limit: u64,
    /// The solver path as given.
    pub solver: OsString,
    /// Solver arguments, verbatim.
    pub solver_args: Vec<OsString>,
    /// The benchmark file.
    pub benchmark: PathBuf,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Invocation {
    /// Run a benchmark.
    Run(Box<Options>),
    /// `--help` as the sole argument.
    Help,
    /// `--version` as the sole argument.
    Version,
}

/// A command-line problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgsError {
    /// Too few positional arguments: print the original usage line.
    Usage,
    /// A malformed option of ours.
    BadOption(String),
}

impl std::fmt::Display for ArgsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgsError::Usage => f.write_str("missing SOLVER or BENCHMARK"),
            ArgsError::BadOption(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ArgsError {}

/// The original usage line, without the program name.
pub const USAGE_TAIL: &str =
    "[--continue-after-unknown] SOLVER [SOLVER_OPTIONS] BENCHMARK_WITH_SOLUTIONS";

/// Option summary printed by `--help`.
pub const USAGE_DETAILS: &str = "\
Options (only before SOLVER; --te-NAME=VALUE or --NAME VALUE):
  --continue-after-unknown      run every header entry, unknown ones included
  --te-times, --times           print 'time <s>' after each sat/unsat answer
  --te-stats=FILE, --stats FILE write one JSON line per command to FILE
  --te-status-from-body, --status-from-body
                                take expectations from (set-info :status X)
  --te-timeout=S, --timeout S   wall-clock watchdog for the whole run
  --te-report-timeout, --report-timeout
                                print 'BAD response: timeout' when it fires
  --te-grace=S, --grace S       grace period before SIGTERM (default 2)
  --te-solver-stderr=FILE, --solver-stderr FILE
                                capture solver stderr (default /dev/null)
  --te-solver-stderr-limit=BYTES, --solver-stderr-limit BYTES
                                cap of the captured stderr (default 10000000)
  --                            end of options; the next word is SOLVER
";

#[derive(Clone, Copy)]
enum Opt {
    Continue,
    Times,
    Stats,
    StatusFromBody,
    Timeout,
    ReportTimeout,
    Grace,
    SolverStderr,
    SolverStderrLimit,
}

impl Opt {
    fn lookup(name: &str) -> Option<Opt> {
        Some(match name {
            "continue-after-unknown" => Opt::Continue,
            "times" => Opt::Times,
            "stats" => Opt::Stats,
            "status-from-body" => Opt::StatusFromBody,
            "timeout" => Opt::Timeout,
            "report-timeout" => Opt::ReportTimeout,
            "grace" => Opt::Grace,
            "solver-stderr" => Opt::SolverStderr,
            "solver-stderr-limit" => Opt::SolverStderrLimit,
            _ => return None,
        })
    }

    fn takes_value(self) -> bool {
        matches!(
            self,
            Opt::Stats | Opt::Timeout | Opt::Grace | Opt::SolverStderr | Opt::SolverStderrLimit
        )
    }
}

/// Parses `args` (without the program name).
pub fn parse(args: &[OsString]) -> Result<Invocation, ArgsError> {
    if args.len() == 1 {
        match args[0].as_bytes() {
            b"--help" => return Ok(Invocation::Help),
            b"--version" => return Ok(Invocation::Version),
            _ => {}
        }
    }
    let mut opts = Options {
        continue_after_unknown: false,
        times: false,
        stats: None,
        timeout: None,
        report_timeout: false,
        grace: DEFAULT_GRACE,
        status_from_body: false,
        solver_stderr: None,
        solver_stderr_limit: DEFAULT_STDERR_LIMIT,
        solver: OsString::new(),
        solver_args: Vec::new(),
        benchmark: PathBuf::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let Some(word) = args[i].to_str() else { break };
        if word == "--" {
            i += 1;
            break;
        }
        let Some(body) = word.strip_prefix("--") else {
            break;
        };
        let (name, inline_value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        let prefixed = name.strip_prefix("te-");
        let Some(opt) = Opt::lookup(prefixed.unwrap_or(name)) else {
            if prefixed.is_some() {
                return Err(ArgsError::BadOption(format!("unknown option --{name}")));
            }
            break; // not ours: this is the solver path
        };
        // An alias without the prefix must not swallow a solver called
        // e.g. `--times=x`: only the prefixed form takes `=VALUE`.
        if inline_value.is_some() && prefixed.is_none() && !opt.takes_value() {
            break;
        }
        i += 1;
        let value = if opt.takes_value() {
            match inline_value {
                Some(v) => Some(OsString::from(v)),
                None => {
                    let v = args.get(i).cloned().ok_or_else(|| {
                        ArgsError::BadOption(format!("option --{name} needs a value"))
                    })?;
                    i += 1;
                    Some(v)
                }
            }
        } else if inline_value.is_some() {
            return Err(ArgsError::BadOption(format!(
                "option --{name} takes no value"
            )));
        } else {
            None
        };
        apply(&mut opts, opt, name, value)?;
    }
    let positional = &args[i..];
    if positional.len() < 2 {
        return Err(ArgsError::Usage);
    }
    opts.solver = positional[0].clone();
    opts.solver_args = positional[1..positional.len() - 1].to_vec();
    opts.benchmark = PathBuf::from(&positional[positional.len() - 1]);
    Ok(Invocation::Run(Box::new(opts)))
}

fn apply(
    opts: &mut Options,
    opt: Opt,
    name: &str,
    value: Option<OsString>,
) -> Result<(), ArgsError> {
    let value = value.unwrap_or_default();
    match opt {
        Opt::Continue => opts.continue_after_unknown = true,
        Opt::Times => opts.times = true,
        Opt::StatusFromBody => opts.status_from_body = true,
        Opt::ReportTimeout => opts.report_timeout = true,
        Opt::Stats => opts.stats = Some(PathBuf::from(value)),
        Opt::SolverStderr => opts.solver_stderr = Some(PathBuf::from(value)),
        Opt::Timeout => opts.timeout = Some(seconds(name, &value)?),
        Opt::Grace => opts.grace = seconds(name, &value)?,
        Opt::SolverStderrLimit => {
            opts.solver_stderr_limit = value
                .to_str()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| bad_value(name, &value))?
        }
    }
    Ok(())
}

fn bad_value(name: &str, value: &OsStr) -> ArgsError {
    ArgsError::BadOption(format!(
        "invalid value for --{name}: '{}'",
        value.to_string_lossy()
    ))
}

/// Largest number of seconds accepted by a time option (about 31 years).
pub const MAX_SECONDS: f64 = 1e9;

/// Parses a non-negative number of seconds such as `2` or `0.5`, at most
/// [`MAX_SECONDS`] (larger values overflow the clock).
fn seconds(name: &str, value: &OsStr) -> Result<Duration, ArgsError> {
    let s = value
        .to_str()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| bad_value(name, value))?;
    if s > MAX_SECONDS {
        return Err(ArgsError::BadOption(format!(
            "invalid value for --{name}: '{}' (more than {MAX_SECONDS:.0} seconds)",
            value.to_string_lossy()
        )));
    }
    Duration::try_from_secs_f64(s).map_err(|_| bad_value(name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    fn run(words: &[&str]) -> Options {
        match parse(&args(words)).unwrap() {
            Invocation::Run(o) => *o,
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn original_grammar() {
        let o = run(&[
            "--continue-after-unknown",
            "./s",
            "--incremental",
            "-x",
            "b",
        ]);
        assert!(o.continue_after_unknown);
        assert_eq!(o.solver, "./s");
        assert_eq!(o.solver_args, args(&["--incremental", "-x"]));
        assert_eq!(o.benchmark, PathBuf::from("b"));
        let o = run(&["s", "b"]);
        assert!(!o.continue_after_unknown && o.solver_args.is_empty());
    }

    #[test]
    fn too_few_positionals_is_usage() {
        assert_eq!(parse(&args(&[])), Err(ArgsError::Usage));
        assert_eq!(parse(&args(&["b"])), Err(ArgsError::Usage));
        assert_eq!(
            parse(&args(&["--continue-after-unknown", "b"])),
            Err(ArgsError::Usage)
        );
        assert_eq!(
            parse(&args(&["--times", "--stats", "f", "b"])),
            Err(ArgsError::Usage)
        );
    }

    #[test]
    fn own_options_only_before_solver() {
        let o = run(&[
            "--te-times",
            "--stats",
            "st.json",
            "--te-grace=0.5",
            "s",
            "--times",
            "b",
        ]);
        assert!(o.times);
        assert_eq!(o.stats, Some(PathBuf::from("st.json")));
        assert_eq!(o.grace, Duration::from_millis(500));
        assert_eq!(o.solver_args, args(&["--times"]));
        let o = run(&["--", "--times", "b"]);
        assert_eq!(o.solver, "--times");
        let o = run(&["--foo", "a", "b"]);
        assert_eq!(o.solver, "--foo");
    }

    #[test]
    fn help_and_version_only_alone() {
        assert_eq!(parse(&args(&["--help"])), Ok(Invocation::Help));
        assert_eq!(parse(&args(&["--version"])), Ok(Invocation::Version));
        assert_eq!(run(&["--help", "b"]).solver, "--help");
    }

    #[test]
    fn bad_options() {
        assert!(matches!(
            parse(&args(&["--te-bogus", "s", "b"])),
            Err(ArgsError::BadOption(_))
        ));
        assert!(matches!(
            parse(&args(&["--timeout", "x", "s", "b"])),
            Err(ArgsError::BadOption(_))
        ));
        assert!(matches!(
            parse(&args(&["--te-timeout=1e19", "s", "b"])),
            Err(ArgsError::BadOption(_))
        ));
        assert!(matches!(
            parse(&args(&["--te-grace=NaN", "s", "b"])),
            Err(ArgsError::BadOption(_))
        ));
        assert!(matches!(
            parse(&args(&["--te-grace=-1", "s", "b"])),
            Err(ArgsError::BadOption(_))
        ));
        assert!(matches!(
            parse(&args(&["--stats"])),
            Err(ArgsError::BadOption(_))
        ));
    }
}
