//! Per-track preparation of selected benchmarks: the files the runs need, and a
//! manifest (`prepared.json`) from prepared file to original benchmark.
//!
//! Layout of a prepared directory `OUT`:
//!
//! ```text
//! OUT/<track dir>/prepared.json           the PreparedSet below
//! OUT/<track dir>/<LOGIC>/scrambled<ID>.smt2
//! ```
//!
//! `<track dir>` is [`crate::model::Track::page_suffix`] (`single-query`, `incremental`,
//! `unsat-core`, `model-validation`, `parallel`, `cloud`, `proof-exhibition`).
//! IDs come from a `random()` shuffle of the selection, so file names do not
//! reveal the benchmark. Incremental files are in the trace-executor format
//! (expected answers, the marker line, the script).

mod run;
mod transform;

pub use transform::{INCREMENTAL_MARKER, transform};

pub use run::{PrepareOptions, library_file, prepare, scrambler_args};

pub use crate::formats::prepared::{MANIFEST_NAME, PrepareFailure, PreparedBenchmark, PreparedSet};
