//! The benchmark inventory of an SMT-LIB library: the scanner that builds it
//! (`benchmarks scan`) and the corpus linker; the inventory format itself is
//! [`crate::formats::inventory`].

mod library;
mod scan;

pub use library::link_corpus;
pub use scan::{ScriptFacts, scan, script_facts};

pub use crate::formats::inventory::{
    Category, IncrementalInfo, Inventory, NonIncrementalInfo, ScanError, Smt2File,
};
