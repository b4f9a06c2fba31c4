//! The end-to-end tests: real BenchExec (`benchexec`, `runexec`) with real
//! solvers (z3, yices, cvc5, cvc4) on PATH. `cargo test --test e2e` (several
//! minutes); without the tools the tests print "skipped" unless
//! `SMTCOMP_REQUIRE_SOLVERS=1`. Helpers: `tests/support`.

#[path = "../support/mod.rs"]
mod support;

mod benchexec_e2e;
mod container_scripts;
mod demo;
mod docs_walk;

mod interrupt;
mod kill_anywhere;
mod slurm;
mod slurm_faults;
mod test_run;
mod test_solver;
mod uc_validation_benchexec;
mod vcloud_e2e;
mod workspace;
