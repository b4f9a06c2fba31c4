//! `smtcomp`: run the SMT Competition on BenchExec.
//!
//! The crate is organised as one module per pipeline stage; data flows one way
//! through typed structs:
//!
//! * [`model`]: the competition definition (tracks, divisions, logics, limits, seed inputs)
//! * [`submission`]: solver submissions (the official JSON format), validation, seed
//! * [`smtlib`]: the SMT-LIB lexer and command splitter shared by every stage
//! * [`executor`]: the incremental-track trace executor (`smtcomp-trace-executor`)
//! * [`proof`]: the proof-exhibition wrapper (`smtcomp-proof-wrapper`) and its result interpreter
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
pub mod demo;
pub mod diag;
pub mod executor;
pub mod formats;
pub mod ingest;
pub mod model;
pub mod prepare;
pub mod proof;
pub mod report;
pub mod scoring;
pub mod select;
pub mod smtlib;
pub mod submission;
pub mod sys;
pub mod testsolver;
pub mod util;
pub mod validate;
