//! Proof Exhibition Track: the `smtcomp-proof-wrapper` binary (a drop-in replacement
//! for the StarExec-era `starexec_run_proof` script) and the result interpreter
//! that turns its output into the track's verdict.
//!
//! * [`options`]: command line (`BENCHMARK [OUTDIR]`, `--solver CMD... -- --checker CMD...`)
//! * [`run`]: the phases (solver, compression, checker) and the stdout contract
//! * [`process`]: child processes in their own process group, timeouts, group kills
//! * [`capture`]: capped streaming of child output to files or stdout, gzip
//! * [`signals`]: SIGTERM/SIGINT/SIGHUP handling (forward, flush, re-raise)
//! * [`report`]: the trailing `key=value` lines and comment escaping
//! * [`kv`]: the `key=value` line syntax shared by the wrapper and the interpreter
//! * [`verdict`]: the result interpreter ([`interpret`] → [`ProofOutcome`])
//!
//! The user documentation is `docs/proof-wrapper.md`.

pub mod capture;
pub mod kv;
pub mod options;
pub mod process;
pub mod report;
pub mod run;
pub mod signals;
pub mod verdict;

pub use kv::KeyValues;
pub use options::Options;
pub use verdict::{ProofOutcome, ProofVerdict, interpret, interpret_bytes};
