//! The benchmark inventory of an SMT-LIB library: the scanner that builds it
//! (`benchmarks scan`), the corpus linker, benchmark lists and the benchmarks a
//! past competition used (`benchmarks used`); the inventory format itself is
//! [`crate::formats::inventory`].

mod library;
pub mod list;
mod scan;
pub mod used;

pub use library::link_corpus;
pub use scan::{ScriptFacts, scan, script_facts};

pub use crate::formats::inventory::{
    Category, IncrementalInfo, Inventory, NonIncrementalInfo, ScanError, Smt2File,
};
