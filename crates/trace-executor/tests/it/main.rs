//! Integration tests of `smtcomp-trace-executor` (one test binary; one module
//! per area, helpers in [`common`]). The scripted mock solver is the crate's
//! `smtcomp-mock-solver` binary, the executor its `smtcomp-trace-executor`
//! binary (both through `CARGO_BIN_EXE_*`).

mod common;

mod compat;
mod fixes;
mod hostile;
mod lexer;
mod process;
mod scale;
mod solvers;
