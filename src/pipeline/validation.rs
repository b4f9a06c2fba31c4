//! Step 7, validation: unsat cores (validation tasks, validator runs, the
//! majority rule) and models (substituted into the benchmark, checked), the
//! verdicts written into the run table.

use super::step::{StageResult, Step};
use crate::benchexec::SolverLocation;
use crate::ingest::{IngestRecord, write_jsonl};
use crate::model::Competition;
use crate::submission::Submission;
use crate::validate::cores::{self, CoreManifest, GenerateOptions, TimeLimit, Validators};
use crate::validate::{
    Checker, JoinSummary, ModelOptions, ModelSummary, ValidatorCommands, validate_models,
};
use std::path::{Path, PathBuf};

/// The competition's core validators (rules 7.4: the solvers sound in Single
/// Query, judged from `records`' Single Query runs and the statuses known in
/// `prepared`) and their time limit (the Unsat Core Track's, 1200 s without it).
pub fn sound_in_sq_validators(
    records: &[IngestRecord],
    comp: &Competition,
    prepared: &Path,
) -> (Validators, TimeLimit) {
    let time_s = comp
        .track(crate::model::Track::UnsatCore)
        .map_or(1200.0, |t| f64::from(t.limits.time_s));
    let statuses = cores::known_statuses(prepared);
    let validators = Validators::SoundInSq(cores::sound_in_sq(records, &statuses));
    (validators, TimeLimit::Track(time_s))
}

/// How to validate the unsat cores.
#[derive(Debug, Clone)]
pub struct CoreValidation {
    /// Which solvers validate.
    pub validators: Validators,
    /// Each validator's command.
    pub commands: ValidatorCommands,
    /// The validators' time limit.
    pub time_limit: TimeLimit,
    /// The edition's rule ([`crate::scoring::editions::dispatch::core_rule`]).
    pub rule: crate::validate::CoreRule,
}

/// What [`validate_cores`] did.
#[derive(Debug, Clone)]
pub struct CoresValidated {
    /// Distinct cores (validation tasks).
    pub tasks: usize,
    /// Validator runs.
    pub validation_runs: usize,
    /// The verdicts written.
    pub joined: JoinSummary,
}

/// The validators' commands: each submission's Single Query command on the
/// task's logic, binaries on PATH (as on BenchExec).
pub fn submission_validators(
    comp: &Competition,
    subs: &[&Submission],
) -> StageResult<ValidatorCommands> {
    Step::Validation.scope(|| {
        let mut commands = ValidatorCommands::default();
        let location = SolverLocation {
            solver_dirs: Default::default(),
            on_path: true,
            dirs_for_paths_only: false,
        };
        let problems = commands.add_submissions(comp, subs, &location);
        if !problems.is_empty() {
            anyhow::bail!("validator commands: {}", problems.join("; "));
        }
        Ok(commands)
    })
}

/// Runs every validation task of `manifest` (below `dir`) locally and writes
/// the validator runs to `output`.
pub fn run_validators(
    dir: &Path,
    manifest: &CoreManifest,
    commands: &ValidatorCommands,
    jobs: usize,
    output: &Path,
) -> StageResult<Vec<IngestRecord>> {
    Step::Validation.scope(|| {
        let runs = cores::run_local(dir, manifest, commands, jobs);
        write_jsonl(output, None, &runs)?;
        Ok(runs)
    })
}

/// Validates the cores of the Unsat-Core runs in `records` (tasks below `dir`,
/// validator runs in `dir`'s `local-runs.jsonl`) and writes the verdicts into them.
pub fn validate_cores(
    records: &mut [IngestRecord],
    prepared: &Path,
    dir: &Path,
    how: &CoreValidation,
    jobs: usize,
) -> StageResult<CoresValidated> {
    Step::Validation.scope(|| {
        std::fs::create_dir_all(dir)?;
        let (manifest, generated) = cores::generate(
            records,
            &GenerateOptions {
                prepared,
                out: dir,
                validators: &how.validators,
                time_limit: how.time_limit,
            },
        )?;
        let runs = run_validators(
            dir,
            &manifest,
            &how.commands,
            jobs,
            &dir.join(cores::LOCAL_RUNS),
        )?;
        let joined = crate::validate::join_with(records, &manifest, &runs, how.rule);
        Ok(CoresValidated {
            tasks: generated.tasks,
            validation_runs: runs.len(),
            joined,
        })
    })
}

/// The models' checker of the demo and of `test-solver`: z3 on the benchmark
/// with the model substituted, 10 s per model.
pub fn z3_models(
    prepared: &Path,
    logs: &Path,
    cache: Option<PathBuf>,
    jobs: usize,
) -> ModelOptions {
    ModelOptions {
        prepared: prepared.to_path_buf(),
        logs: logs.to_path_buf(),
        checker: Checker::Builtin(vec!["z3".into(), "-smt2".into()]),
        timeout: std::time::Duration::from_secs(10),
        cache,
        jobs,
    }
}

/// Validates the models of the Model-Validation runs in `records`.
pub fn validate_model_runs(records: &mut [IngestRecord], opts: &ModelOptions) -> ModelSummary {
    validate_models(records, opts)
}
