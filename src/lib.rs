//! `smtcomp`: run the SMT Competition on BenchExec.
//!
//! One module per pipeline stage, on layers (lowest first; a module uses only
//! lower layers, which `tests/it/layering.rs` checks; see `docs/architecture.md`):
//!
//! * the helper crates [`smtlib`], [`executor`] (trace executor), [`proof`]
//!   (proof wrapper), re-exported here;
//! * [`model`]: the competition definition (tracks, divisions, logics, limits, seed inputs);
//! * [`util`]: glibc `random()`, escaping, process supervision, parallel map;
//! * [`formats`]: the on-disk artefacts stages share (inventory, results files,
//!   prepared set, manifests, run table and verdicts, the answer-line rule);
//! * [`diag`]: located problems (file, place, severity, message);
//! * [`submission`], [`benchmarks`]: submissions (official JSON, rules, commands,
//!   seed); the inventory scan of an SMT-LIB library;
//! * [`select`]: benchmark selection by the rules, with glibc `random()`;
//! * [`prepare`]: per-track preparation of selected benchmarks;
//! * [`archives`]: solver archives: download, hash check, safe unpacking;
//! * [`benchexec`]: BenchExec definitions, task files, tool-info modules, scripts, local runner;
//! * [`ingest`]: BenchExec results (XML + log ZIPs) and results files into one run table;
//! * [`validate`]: unsat-core and model validation, verdicts into the run table;
//! * [`scoring`]: scores and rankings (every rules edition, named policies);
//! * [`report`]: the static results site (HTML, SVG plots) and the scores XML with XSLT;
//! * [`pipeline`]: the stages as typed steps, the stage cache, runner backends;
//! * [`demo`], [`testsolver`]: the demo competition; a solver author's test run;
//! * [`workspace`]: `smtcomp.toml`, the stage driver of `smtcomp run`, `smtcomp status`;
//! * [`cli`]: the `smtcomp` command line (typed options, one exit-code mapping).

// The module docs describe the internal structure, private modules included
// (`cargo doc --document-private-items` resolves those links).
#![allow(rustdoc::private_intra_doc_links)]

pub mod archives;
pub mod benchexec;
pub mod benchmarks;
pub mod cli;
pub mod demo;
pub mod diag;
pub mod formats;
pub mod ingest;
pub mod model;
pub mod pipeline;
pub mod prepare;
pub mod report;
pub mod scoring;
pub mod select;
pub mod submission;
pub mod testsolver;
pub mod util;
pub mod validate;
pub mod workspace;

/// The SMT-LIB lexer, command splitter and status words: the workspace crate
/// `smtcomp-smtlib` (`crates/smtlib`), re-exported so that `smtcomp::smtlib::...`
/// paths keep working.
pub use smtcomp_smtlib as smtlib;

/// The incremental-track trace executor: the workspace crate
/// `smtcomp-trace-executor` (`crates/trace-executor`, binary
/// `smtcomp-trace-executor`), re-exported as `smtcomp::executor`.
pub use smtcomp_trace_executor as executor;

/// The Proof Exhibition Track wrapper and the interpreter of its output
/// ([`proof::verdict`], [`proof::kv`]): the workspace crate `smtcomp-proof-wrapper`
/// (`crates/proof-wrapper`, binary `smtcomp-proof-wrapper`), re-exported as
/// `smtcomp::proof`.
pub use smtcomp_proof_wrapper as proof;
