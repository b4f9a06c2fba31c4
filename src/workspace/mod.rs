//! The competition workspace: `smtcomp.toml` ([`Workspace`]: definition,
//! submissions, library, execution directory, seed inputs, backend), the
//! stage driver of `smtcomp run` ([`run()`]) and the progress of its BenchExec
//! rounds for `smtcomp status` ([`status`]).
//!
//! The loader lives here and only here: every command that takes a
//! competition, submissions, a library or an execution directory asks
//! [`Workspace::discover`] for its defaults (flags override).

mod config;
mod rounds;
mod run;
pub mod status;

pub use config::{
    Backend, BackendKind, DefinitionSource, ENV_VAR, FILE_NAME, InitOptions, SeedInputs,
    SelectionSettings, SlurmSettings, Workspace, WorkspaceError, find, render,
};
pub use rounds::{
    Pending, Round, pending, run_round, set_aside_unfinished, vcloud_client, vcloud_command,
};
pub use run::{LOCK_FILE, RunReport, StageLine, State, lock, run, running, stage_named, tracks};
pub use status::{GroupStatus, Palette, RoundStatus, round_status};
