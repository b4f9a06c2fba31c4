//! The wrapper's phases and its stdout contract.
//!
//! ```text
//! ; run solver
//! ; compressing proof
//! ; proof size: <N> (<M> compressed)
//! ; checking proof
//! <checker stdout, unchanged>
//! proofsize=<N>
//! compressedsize=<M>
//! solver_cpu_time=... (see report.rs for the full list)
//! ```
//!
//! Nothing but `;` comments is printed before the checker's output. When the
//! solver is stopped by the wrapper's own limit (or the wrapper is signalled),
//! the checker is skipped and a `; checker skipped: ...` comment replaces
//! `; checking proof`.

use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::capture::{self, Pump, PumpResult, Sink};
use super::options::Options;
use super::process::{self, Exit, Stop};
use super::report::{PhaseSummary, Report, comment};
use super::signals;

/// File name of the solver's stderr log inside OUTDIR.
pub const SOLVER_LOG: &str = "solver-error.log";
/// File name of the checker's stderr log inside OUTDIR.
pub const CHECKER_LOG: &str = "checker-error.log";

/// Result of a completed wrapper run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunResult {
    /// The report that was printed.
    pub report: Report,
    /// The termination signal received, which the caller must re-raise.
    pub interrupted: Option<i32>,
}

/// Writes `text` to stdout and flushes. Errors (a closed stdout) are ignored:
/// the run goes on so that children are still stopped and files written.
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn create(path: &Path, what: &str) -> anyhow::Result<File> {
    File::create(path).with_context(|| format!("cannot create {what} '{}'", path.display()))
}

/// One phase as seen from the outside.
struct Phase {
    summary: PhaseSummary,
    stop: Stop,
    stdout: PumpResult,
}

/// How to run one phase.
struct PhaseSpec<'a> {
    /// `solver` or `checker`, for messages.
    name: &'a str,
    /// Full command line.
    argv: Vec<OsString>,
    /// Where stdout goes.
    stdout: Sink,
    /// The stderr log (capped at `log_cap` bytes).
    log: File,
    log_cap: u64,
    timeout: Option<Duration>,
    grace: Duration,
    /// Raised by the stdout sink when the proof cap is reached.
    cap_flag: Option<&'a AtomicBool>,
}

/// Why the checker was not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    Signal(i32),
    SolverTimeout,
    NoBudget,
    /// The proof file is no longer the regular file the wrapper created (the
    /// solver replaced it, e.g. by a symbolic link to another file).
    ProofReplaced,
}

/// Spawns the phase's command, streams its stdout to the sink and its stderr to
/// the capped log, supervises it and returns its summary. A command that cannot
/// be started is reported as a `;` comment and exit status 126/127.
fn run_phase(spec: PhaseSpec<'_>) -> Phase {
    let PhaseSpec {
        name,
        argv,
        stdout: stdout_sink,
        log,
        log_cap,
        timeout,
        grace,
        cap_flag,
    } = spec;
    let cpu_before = process::children_cpu();
    let started = Instant::now();
    let mut child = match process::spawn(&argv) {
        Ok(child) => child,
        Err(e) => {
            let program = argv
                .first()
                .map(|p| p.to_string_lossy())
                .unwrap_or_default();
            say(&comment(&format!("cannot run {name} '{program}': {e}")));
            return Phase {
                summary: PhaseSummary {
                    cpu: Duration::ZERO,
                    wall: started.elapsed(),
                    exit: Exit::Code(process::spawn_failure_code(&e)),
                    timed_out: false,
                    stderr_truncated: false,
                },
                stop: Stop::Completed,
                stdout: PumpResult::default(),
            };
        }
    };
    // spawn() always pipes both streams.
    let out_pump = child.stdout.take().map(|s| Pump::start(s, stdout_sink));
    let log_sink = Sink::File {
        file: log,
        cap: Some(log_cap),
        on_cap: None,
    };
    let err_pump = child.stderr.take().map(|s| Pump::start(s, log_sink));
    let outcome = process::supervise(&child, started, timeout, grace, cap_flag);
    if outcome.escaped > 0 {
        say(&comment(&format!(
            "{name}: killed {} process(es) that had left its process group",
            outcome.escaped
        )));
    }
    let stdout = out_pump.map(Pump::finish).unwrap_or_default();
    let stderr = err_pump.map(Pump::finish).unwrap_or_default();
    if let Some(e) = &stdout.error {
        say(&comment(&format!("{name} stdout: write error: {e}")));
    }
    if let Some(e) = &stderr.error {
        say(&comment(&format!("{name} stderr log: write error: {e}")));
    }
    Phase {
        summary: PhaseSummary {
            cpu: process::children_cpu().saturating_sub(cpu_before),
            wall: outcome.wall,
            exit: outcome.exit,
            timed_out: outcome.stop == Stop::Timeout,
            stderr_truncated: stderr.truncated,
        },
        stop: outcome.stop,
        stdout,
    }
}

fn with_args(cmd: &[OsString], extra: &[&Path]) -> Vec<OsString> {
    let mut argv = cmd.to_vec();
    argv.extend(extra.iter().map(|p| p.as_os_str().to_owned()));
    argv
}

/// Compresses the proof if it is below the threshold. Returns the compressed
/// size (`None` if not compressed) and the time spent. A stale `.gz` from an
/// earlier run is removed when the proof is not compressed.
///
/// Only a regular file is compressed, and only its `proof_size` bytes (a
/// device such as `/dev/zero` given as the proof file never ends): the
/// work is thus bounded by the proof's size, which is why it is not cut by
/// the total budget (its time is reported separately).
fn compress(opts: &Options, proof_size: u64, gz: &Path) -> (Option<u64>, Duration) {
    let started = Instant::now();
    // The file itself, never what a link the solver put there points to.
    let regular = std::fs::symlink_metadata(&opts.proof_file).is_ok_and(|m| m.is_file());
    if !regular {
        say(&comment(&format!(
            "proof file '{}' is not a regular file; not compressed",
            opts.proof_file.display()
        )));
    }
    if !regular || proof_size >= opts.compress_threshold || signals::pending().is_some() {
        let _ = std::fs::remove_file(gz);
        return (None, started.elapsed());
    }
    let cancelled = || signals::pending().is_some();
    match capture::gzip_file(&opts.proof_file, gz, proof_size, &cancelled) {
        Ok(size) => (Some(size), started.elapsed()),
        Err(e) => {
            say(&comment(&format!(
                "cannot compress proof to '{}': {e}",
                gz.display()
            )));
            (None, started.elapsed())
        }
    }
}

/// The checker's limit: `--checker-timeout`, and with `--total-budget` what is
/// left of it (possibly zero).
fn checker_limit(opts: &Options, run_started: Instant) -> Option<Duration> {
    let remaining = opts
        .total_budget
        .map(|total| total.saturating_sub(run_started.elapsed()));
    match (opts.checker_timeout, remaining) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Why the checker must not run, if it must not.
fn skip_reason(solver_stop: Stop, checker_timeout: Option<Duration>) -> Option<Skip> {
    if let Some(sig) = signals::pending() {
        Some(Skip::Signal(sig))
    } else if solver_stop == Stop::Timeout {
        Some(Skip::SolverTimeout)
    } else if checker_timeout.is_some_and(|t| t.is_zero()) {
        Some(Skip::NoBudget)
    } else {
        None
    }
}

/// The identity (device, inode) of the directory entry `path` itself (a
/// symbolic link is not followed); `None` when it does not exist.
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

/// Runs the whole wrapper: solver, compression, checker, report.
///
/// Setup errors (the output directory or a file cannot be created) are returned
/// before anything is printed; everything that goes wrong later is reported on
/// stdout as comments and `key=value` lines.
pub fn run(opts: &Options) -> anyhow::Result<RunResult> {
    let run_started = Instant::now();
    std::fs::create_dir_all(&opts.outdir)
        .with_context(|| format!("cannot create output directory '{}'", opts.outdir.display()))?;
    let proof = create(&opts.proof_file, "proof file")?;
    // The proof file as created: a solver that puts another file (or a symbolic
    // link to one) in its place is caught by comparing after the solver.
    let created = file_id(&opts.proof_file);
    let solver_log = create(&opts.outdir.join(SOLVER_LOG), "solver log")?;
    let checker_log = create(&opts.outdir.join(CHECKER_LOG), "checker log")?;
    signals::install().context("cannot install signal handlers")?;
    process::become_subreaper();

    // Phase 1: solver, stdout to the proof file only.
    say("; run solver\n");
    let cap_hit = Arc::new(AtomicBool::new(false));
    let proof_sink = Sink::File {
        file: proof,
        cap: opts.max_proof_bytes,
        on_cap: Some(Arc::clone(&cap_hit)),
    };
    let solver = run_phase(PhaseSpec {
        name: "solver",
        argv: with_args(&opts.solver, &[&opts.benchmark]),
        stdout: proof_sink,
        log: solver_log,
        log_cap: opts.max_log_bytes,
        timeout: opts.solver_timeout,
        grace: opts.kill_grace,
        cap_flag: Some(&cap_hit),
    });

    // Phase 2: compression (timed separately).
    say("; compressing proof\n");
    let proof_size = std::fs::symlink_metadata(&opts.proof_file)
        .map(|m| m.len())
        .unwrap_or(solver.stdout.written);
    // The proof is the file the wrapper created: another one (a symbolic link
    // to another file, say) put in its place is never compressed, published or checked.
    let replaced = created.is_some() && file_id(&opts.proof_file) != created;
    if replaced {
        say(&comment(&format!(
            "proof file '{}' was replaced during the solver run (not the file the wrapper created); not compressed, not checked",
            opts.proof_file.display()
        )));
    }
    let (compressed_size, compress_wall) = if replaced {
        let _ = std::fs::remove_file(opts.compressed_path());
        (None, Duration::ZERO)
    } else {
        compress(opts, proof_size, &opts.compressed_path())
    };
    let compressed_text = compressed_size.map(|s| s.to_string()).unwrap_or_default();
    say(&format!(
        "; proof size: {proof_size} ({compressed_text} compressed)\n"
    ));

    // Phase 3: checker, stdout passed through.
    let checker_timeout = checker_limit(opts, run_started);
    let skip = if replaced {
        Some(Skip::ProofReplaced)
    } else {
        skip_reason(solver.stop, checker_timeout)
    };
    let checker = match skip {
        Some(reason) => {
            let reason = match reason {
                Skip::Signal(sig) => format!("wrapper received signal {sig}"),
                Skip::SolverTimeout => "solver timeout".to_string(),
                Skip::NoBudget => "total budget used up".to_string(),
                Skip::ProofReplaced => {
                    "the proof file is not the regular file the wrapper created".to_string()
                }
            };
            say(&comment(&format!("checker skipped: {reason}")));
            None
        }
        None => {
            say("; checking proof\n");
            let phase = run_phase(PhaseSpec {
                name: "checker",
                argv: with_args(&opts.checker, &[&opts.benchmark, &opts.proof_file]),
                stdout: Sink::Stdout,
                log: checker_log,
                log_cap: opts.max_log_bytes,
                timeout: checker_timeout,
                grace: opts.kill_grace,
                cap_flag: None,
            });
            if phase.stdout.last_byte.is_some_and(|b| b != b'\n') {
                say("\n"); // keep the key=value lines on lines of their own
            }
            Some(phase.summary)
        }
    };

    let report = Report {
        proof_size,
        compressed_size,
        solver: solver.summary,
        proof_truncated: solver.stdout.truncated,
        compress_wall,
        checker,
        checker_out_of_budget: skip == Some(Skip::NoBudget),
        wrapper_signal: signals::pending(),
    };
    say(&report.render());
    Ok(RunResult {
        interrupted: signals::pending(),
        report,
    })
}
