//! Incremental-track trace executor (filled in by its own issue).
