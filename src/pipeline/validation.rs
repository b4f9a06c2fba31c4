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
    let statuses = cores::known_statuses(prepared);
    let validators = Validators::SoundInSq(cores::sound_in_sq(records, &statuses));
    (validators, uc_time_limit(comp))
}

/// What core validation reads of a run table ([`core_inputs`]).
#[derive(Debug)]
pub struct CoreInputs {
    /// The Unsat-Core runs that answered `unsat` with a core: the only runs
    /// [`cores::generate`] reads.
    pub with_core: Vec<IngestRecord>,
    /// The validators: the solvers sound in Single Query (rules 7.4).
    pub validators: Validators,
    /// Their time limit (the Unsat Core Track's, 1200 s without it).
    pub time_limit: TimeLimit,
}

/// [`sound_in_sq_validators`] and the runs [`cores::generate`] reads, from one
/// pass over the run table at `table` (a full-size table is never held as
/// records: the Single Query runs are judged one at a time).
pub fn core_inputs(table: &Path, comp: &Competition, prepared: &Path) -> StageResult<CoreInputs> {
    Step::Validation.scope(|| {
        let statuses = cores::known_statuses(prepared);
        let mut scan = cores::CoreScan::new(&statuses);
        for r in crate::formats::jsonl::open_table(table)?.1 {
            scan.add(r?);
        }
        Ok(CoreInputs {
            with_core: scan.with_core,
            validators: Validators::SoundInSq(scan.soundness.finish()),
            time_limit: uc_time_limit(comp),
        })
    })
}

/// Whether the run table at `table` holds an Unsat-Core run with a core (read
/// until the first one).
pub fn has_unsat_cores(table: &Path) -> StageResult<bool> {
    Step::Validation.scope(|| {
        for r in crate::formats::jsonl::open_table(table)?.1 {
            let r = r?;
            if r.track == Some(crate::model::Track::UnsatCore) && r.unsat_core.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    })
}

fn uc_time_limit(comp: &Competition) -> TimeLimit {
    let time_s = comp
        .track(crate::model::Track::UnsatCore)
        .map_or(1200.0, |t| f64::from(t.limits.time_s));
    TimeLimit::Track(time_s)
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

/// The core verdicts to write into a run table ([`validate_table`]).
#[derive(Debug, Clone, Copy)]
pub struct CoreVerdicts<'a> {
    /// The validation tasks.
    pub manifest: &'a CoreManifest,
    /// The validator runs.
    pub validation: &'a [IngestRecord],
    /// The edition's rule.
    pub rule: crate::validate::CoreRule,
}

/// What [`validate_table`] did.
#[derive(Debug, Clone, Default)]
pub struct TableValidated {
    /// The core verdicts written, when cores were validated.
    pub cores: Option<JoinSummary>,
    /// The model verdicts, when the table had Model-Validation runs.
    pub models: Option<ModelSummary>,
    /// Runs written.
    pub runs: usize,
}

/// Writes `output`: the run table `input` (kept as it is; `output` may be the
/// same file, replaced by a rename only when complete) with the core verdicts
/// of `cores` and the verdicts of `models` for its Model-Validation runs.
///
/// Bounded memory: the table is read as a stream, once to collect the
/// Model-Validation runs (validated in parallel, the only runs held), once
/// more to write every run with its verdict.
pub fn validate_table(
    input: &Path,
    output: &Path,
    cores: Option<CoreVerdicts<'_>>,
    models: &ModelOptions,
) -> StageResult<TableValidated> {
    Step::Validation.scope(|| {
        let mut model_runs = model_runs_of(input)?;
        let summary =
            (!model_runs.is_empty()).then(|| validate_model_runs(&mut model_runs, models));
        let mut done = write_validated(input, output, model_runs, cores)?;
        done.models = summary;
        Ok(done)
    })
}

/// The Model-Validation runs of the run table `input`, in table order (one
/// streaming pass; only these runs are held).
pub fn model_runs_of(input: &Path) -> anyhow::Result<Vec<IngestRecord>> {
    Ok(model_runs_in(crate::formats::jsonl::open_table(input)?.1)?)
}

/// The Model-Validation runs of a stream of records, in order (the first
/// error stops the stream).
pub fn model_runs_in<E>(
    records: impl IntoIterator<Item = Result<IngestRecord, E>>,
) -> Result<Vec<IngestRecord>, E> {
    let mut model_runs = Vec::new();
    for r in records {
        let r = r?;
        if r.track == Some(crate::model::Track::ModelValidation) {
            model_runs.push(r);
        }
    }
    Ok(model_runs)
}

/// Writes `output`: the run table `input` read again run by run, each
/// Model-Validation run replaced by the next of `model_runs` (the
/// [`model_runs_of`] `input`, validated) and, with `cores`, the core verdicts
/// joined. An error, with nothing written, when the table's Model-Validation
/// runs are not those of `model_runs` (it changed in between). `output` may be
/// `input` (replaced by a rename when complete). `models` of the result is `None`.
pub fn write_validated(
    input: &Path,
    output: &Path,
    model_runs: Vec<IngestRecord>,
    cores: Option<CoreVerdicts<'_>>,
) -> anyhow::Result<TableValidated> {
    use crate::formats::jsonl::{JsonlWriter, open_table};
    let mut done = TableValidated::default();
    let mut joiner =
        cores.map(|c| crate::validate::CoreJoiner::new(c.manifest, c.validation, c.rule));
    let (identity, records) = open_table(input)?;
    let mut out = JsonlWriter::create(output, identity.as_ref())?;
    let mut validated = model_runs.into_iter();
    for r in records {
        let mut r = r?;
        if r.track == Some(crate::model::Track::ModelValidation) {
            let v = validated.next().filter(|v| {
                (&v.source, &v.task, &v.solver, &v.rundefinition)
                    == (&r.source, &r.task, &r.solver, &r.rundefinition)
            });
            let Some(v) = v else {
                anyhow::bail!(
                    "{}: the table changed while it was validated (run {} of {}); nothing written to {}",
                    input.display(),
                    r.task,
                    r.solver,
                    output.display()
                );
            };
            r = v;
        }
        if let Some(j) = &mut joiner {
            j.apply(&mut r);
        }
        out.write_record(&r)?;
        done.runs += 1;
    }
    if validated.next().is_some() {
        anyhow::bail!(
            "{}: the table changed while it was validated (fewer Model-Validation runs); nothing written to {}",
            input.display(),
            output.display()
        );
    }
    out.finish()?;
    done.cores = joiner.map(crate::validate::CoreJoiner::finish);
    Ok(done)
}
