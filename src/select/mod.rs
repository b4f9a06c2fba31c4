//! Benchmark selection by the rules (2025 section 6), with glibc `random()`.

pub mod random;

pub use random::GlibcRandom;
