//! Validation of unsat cores and models (rules 2025 sections 5.4, 5.5), with
//! the verdicts written back into the run table for scoring
//! (`IngestRecord::validation`, see `docs/validation.md`).
//!
//! ```text
//! UC runs --cores::generate--> restricted benchmarks + validation.json (+ prepared.json)
//!   --cores::run_local or BenchExec + ingest--> UnsatCoreValidation runs
//!   --join::join (majority rule)--> CoreVerdict in each UC run
//! MV runs --models::validate_models (Dolmen or built-in, cached)--> ModelVerdict in each MV run
//! ```
//!
//! * the verdict schema is [`crate::formats::verdict`]; what it means for scoring is
//!   `crate::scoring::runtable`;
//! * [`cores`], [`restrict`], [`join`], [`commands`]: unsat-core validation;
//! * [`models`], [`model_text`], [`dolmen`], [`cache`]: model validation;
//! * [`sexp`], [`process`]: lexer-based s-expressions, validator processes;

mod cache;
mod commands;
pub mod cores;
mod dolmen;
mod join;
mod model_text;
mod models;
mod process;
mod restrict;
mod sexp;

pub use commands::ValidatorCommands;
pub use join::JoinSummary;
pub use join::{CoreJoiner, CoreRule, join, join_with};
pub use models::{Checker, ModelOptions, ModelSummary, record_verdicts, validate_models};
pub use process::split_command;

pub use crate::formats::verdict::{
    CoreStatus, CoreVerdict, ModelStatus, ModelVerdict, ValidatorAnswer, Verdict,
};
