//! The competition pipeline as typed steps, their one driver ([`drive`]),
//! the resumable stage cache and the runner backends. `smtcomp run`
//! (`workspace`), `smtcomp demo` and `smtcomp test-solver` are [`Plan`]s of
//! the driver: which stages run and how, never another copy of the sequence.
//!
//! ```text
//! inventory -> selection -> preparation -> generation -> runs (Runner) -> ingestion
//!   -> core validation: tasks -> core validation: generation -> core validation: runs
//!   -> validation (cores, models) -> scoring -> report
//! ```
//!
//! | step | function | in | out |
//! |---|---|---|---|
//! | inventory | [`library_view`], [`inventory`], [`complete_inventory`] | benchmark library | [`Inventory`](crate::benchmarks::Inventory) |
//! | selection | [`seed`], [`select_track`] | inventory, competition, seed | [`Selection`](crate::select::Selection) |
//! | preparation | [`prepare_selections`] | selections, library | [`PreparedSet`](crate::prepare::PreparedSet)s |
//! | generation | [`generate`] ([`Generation`]) | prepared sets, submissions | `EXECDIR` + [`Manifest`](crate::benchexec::Manifest) |
//! | runs | [`Runner::run`], [`run_all`], [`account_runs`] | `EXECDIR`, definitions, runs manifest | result files, [`DefinitionRun`]s, missing runs |
//! | ingestion | [`ingest_results`], [`ingest_complete`] | `EXECDIR/results` | run table |
//! | validation | [`validate_cores`], [`run_validators`], [`validate_model_runs`] | run table, prepared sets | verdicts in the run table |
//! | scoring | [`score_tracks`], [`winners`], [`proof_summary`] | run table, inventory | [`TrackReport`](crate::report::TrackReport)s |
//! | report | [`site`] | track reports | the static site |
//!
//! Each step fails with a [`StageError`] naming the [`Step`].
//!
//! [`Stages`] makes the driver's cached steps resumable: a stage whose inputs
//! did not change since it last completed is reused.
//!
//! [`Runner`] is where execution backends plug in: [`LocalBenchExec`] (the
//! local, supervised `benchexec`) and [`Replay`] (recorded result files, for
//! tests), [`SlurmBenchExec`] (a Slurm job array, each task BenchExec on a
//! chunk of the definitions) and [`VcloudBenchExec`] (BenchExec's
//! VerifierCloud client through the generated `run-vcloud.sh`).

mod accounting;
mod driver;
mod generation;
mod ingestion;
mod inventory;
pub mod noncompetitive;
mod preparation;
mod runner;
mod scoring;
pub mod selection;
mod site;
mod slurm;
mod stage;
mod step;
mod validation;
mod vcloud;

pub use accounting::{
    DefinitionState, account_runs, definition_state, missing_runs, unfinished_runs,
};
pub use driver::{Cache, Decision, Outcome, Plan, RunReport, StageLine, State, Stop, drive};
pub use generation::{Generation, check_solver_binaries, generate, install_archives};
pub use ingestion::{ingest_complete, ingest_results, ingest_results_to, results_dir};
pub use inventory::{complete_inventory, inventory, library_view};
pub use preparation::{prepare_all, prepare_selections};
pub use runner::{
    DefinitionRun, LocalBenchExec, Replay, RunStatus, Runner, definition_run, failures,
    missing_helpers, on_path, reason_line, require_all, run_all,
};
pub use scoring::{TrackRuns, proof_summary, score_tracks, winners};
pub use selection::{seed, select_track};
pub use site::site;
pub use slurm::{
    JOB_NAME as SLURM_JOB_NAME, SlurmBenchExec, SlurmCommands, TaskState,
    live_jobs as slurm_live_jobs, parse_job_id, parse_scontrol, parse_status,
};
pub use stage::{Cached, Stages, fingerprint};
pub use step::{StageError, StageResult, Step, UnknownStage};
pub use validation::{
    CoreInputs, CoreValidation, CoreVerdicts, CoresValidated, TableValidated, core_inputs,
    has_unsat_cores, model_runs_in, model_runs_of, run_validators, sound_in_sq_validators,
    submission_validators, validate_cores, validate_model_runs, validate_table, write_validated,
    z3_models,
};
pub use vcloud::{CLIENT_LOG, VcloudBenchExec};
