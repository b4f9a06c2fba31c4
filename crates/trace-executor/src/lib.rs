//! The incremental-track trace executor (`smtcomp-trace-executor`), a drop-in
//! replacement for SMT-COMP's `smtlib2_trace_executor`.
//!
//! It feeds a solver one command at a time over stdin, checks each response
//! (`success`, or `sat`/`unsat`/`unknown` for queries) against the expected
//! answers in the benchmark header, and prints one line per answer. See
//! `docs/trace-executor.md` for the user documentation.
//!
//! * [`args`]: command-line grammar;
//! * [`input`]: header and streaming body;
//! * [`process`]: solver lookup, process group, non-blocking I/O, shutdown;
//! * [`lines`]: bounded line assembly of solver output;
//! * [`run`]: the protocol (handshake, lock-step loop, judging);
//! * [`output`], [`stats`], [`signals`]: stdout, JSON statistics, signals.

pub mod args;
pub mod input;
pub mod lines;
pub mod output;
pub mod process;
pub mod run;
pub mod signals;
pub mod stats;

use std::ffi::OsString;

pub use args::{ArgsError, Invocation, Options};
pub use run::Outcome;

/// Entry point of the binary: runs with the given argv (program name first)
/// and returns the exit code. A SIGTERM/SIGINT/SIGHUP received during the run
/// is re-raised here after the solver was stopped, so this may not return.
pub fn main_with_args(argv: Vec<OsString>) -> i32 {
    let program = argv
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| "smtcomp-trace-executor".into());
    let mut out = output::Output::stdout();
    let usage = format!("Usage: {program} {}", args::USAGE_TAIL);
    let rest = argv.get(1..).unwrap_or_default();
    match args::parse(rest) {
        Ok(Invocation::Help) => {
            out.line(&usage);
            out.line("");
            out.line(args::USAGE_DETAILS.trim_end());
            0
        }
        Ok(Invocation::Version) => {
            out.line(&format!(
                "smtcomp-trace-executor {}",
                env!("CARGO_PKG_VERSION")
            ));
            0
        }
        Err(ArgsError::Usage) => {
            out.line(&usage);
            1
        }
        Err(ArgsError::BadOption(why)) => {
            out.line(&format!("BAD option: {why}"));
            out.line(&usage);
            1
        }
        Ok(Invocation::Run(opts)) => match run::run(&opts, &mut out) {
            Outcome::Signal(sig) => signals::reraise(sig),
            outcome => outcome.exit_code(),
        },
    }
}
