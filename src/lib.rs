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
//! * [`cli`]: the `smtcomp` command line (argument parsing and command dispatch)

pub mod cli;
pub mod executor;
pub mod model;
pub mod proof;
pub mod smtlib;
pub mod submission;
