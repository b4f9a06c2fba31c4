//! `smtcomp`: run the SMT Competition on BenchExec.
//!
//! The crate is organised as one module per pipeline stage; data flows one way
//! through typed structs:
//!
//! * [`model`]: the competition definition (tracks, divisions, logics, limits, seed inputs)
//! * [`submission`]: solver submissions (the official JSON format), validation, seed
//! * [`smtlib`]: the SMT-LIB lexer and command splitter shared by every stage (crate `smtcomp-smtlib`)
//! * [`executor`]: the incremental-track trace executor (crate and binary `smtcomp-trace-executor`)
//! * [`proof`]: the proof-exhibition wrapper (crate and binary `smtcomp-proof-wrapper`) and its result interpreter
//! * [`benchexec`]: BenchExec definitions, task files, tool-info modules, run scripts, local runner
//! * [`benchmarks`]: the benchmark inventory (`benchmarks-YYYY.json.gz` format)
//! * [`select`]: benchmark selection by the rules, with glibc `random()`
//! * [`prepare`]: per-track preparation of selected benchmarks (`prepared.json`)
//! * [`ingest`]: results ingestion (BenchExec XML + log ZIPs, results files) into one run table
//! * [`validate`]: unsat-core and model validation, verdicts into the run table
//! * [`results`]: run results (`results-*.json.gz` format)
//! * [`scoring`]: scores and rankings (2025 rules exactly, plus the `published-2025` policy)
//! * [`report`]: the static results site (HTML, SVG plots) and the scores XML with XSLT
//! * [`parallel`]: order-preserving parallel map with a terminal-only progress bar
//! * [`datafile`]: JSON(.gz) data file reading and writing
//! * [`demo`]: the demo competition (the whole pipeline on the bundled corpus)
//! * [`cli`]: the `smtcomp` command line (argument parsing and command dispatch)

pub mod benchexec;
pub mod benchmarks;
pub mod cli;
pub mod datafile;
pub mod demo;
pub mod ingest;
pub mod model;
pub mod parallel;
pub mod prepare;
pub mod report;
pub mod results;
pub mod scoring;
pub mod select;
pub mod submission;
pub mod testsolver;
pub mod validate;

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
