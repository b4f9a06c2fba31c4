//! Model validation of a run table: every `sat` answer of the Model-Validation
//! Track gets a [`ModelVerdict`], from Dolmen (when given) or from the built-in
//! validator (model substituted into the benchmark, a trusted solver asked for
//! `sat`), through the content-hash [`Cache`].

use super::cache::{self, Cache};
use super::model_text::{self, Problem};
use super::{dolmen, process};
use crate::formats::prepared::PreparedSet;
use crate::formats::runtable::{IngestRecord, RunAnswer};
use crate::formats::verdict::{ModelStatus, ModelVerdict, Verdict};
use crate::model::{Answer, Track};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Version of the built-in check; part of every cache key (bump it when the
/// substitution or the interpretation changes).
const BUILTIN_VERSION: &str = "builtin-1";

/// Which validator decides.
#[derive(Debug, Clone)]
pub enum Checker {
    /// Substitute the model and ask a trusted solver (program and arguments;
    /// the substituted file is appended).
    Builtin(Vec<String>),
    /// Dolmen at this path.
    Dolmen(PathBuf),
}

/// Options of a model validation.
#[derive(Debug, Clone)]
pub struct ModelOptions {
    /// Prepared root (holding `model-validation/prepared.json`).
    pub prepared: PathBuf,
    /// Root the run table's log paths are relative to (the ingested directory).
    pub logs: PathBuf,
    /// The validator.
    pub checker: Checker,
    /// Validator time limit per model.
    pub timeout: Duration,
    /// Verdict cache (`None`: no caching).
    pub cache: Option<PathBuf>,
    /// Worker threads.
    pub jobs: usize,
}

/// What a model validation did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ModelSummary {
    /// Runs given a verdict.
    pub validated: usize,
    /// Verdicts by status.
    pub by_status: BTreeMap<String, usize>,
    /// Verdicts by reference-tool result.
    pub by_result: BTreeMap<String, usize>,
    /// Verdicts taken from the cache.
    pub cache_hits: usize,
    /// Verdicts computed by running a validator.
    pub checked: usize,
    /// Runs that could not be validated for reasons not the solver's (missing
    /// benchmark or log, validator not runnable): `run: reason`.
    pub problems: Vec<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

fn run_name(r: &IngestRecord) -> String {
    format!(
        "{} {} ({}: {})",
        r.solver, r.benchmark_key, r.source, r.task
    )
}

/// The validator's identity for cache keys: the kind, the version of our
/// check, the command, the time limit, and the SHA-256 of the program binary
/// (so upgrading z3 or Dolmen invalidates the entries).
pub fn identity(checker: &Checker, timeout: Duration) -> String {
    let (kind, argv) = match checker {
        Checker::Builtin(argv) => (BUILTIN_VERSION, argv.clone()),
        Checker::Dolmen(p) => ("dolmen", vec![p.display().to_string()]),
    };
    let program = argv.first().map(|p| resolve(p)).unwrap_or_default();
    let hash = cache::file_hash(&program).unwrap_or_else(|| "unreadable".into());
    format!(
        "{kind}\n{}\n{}\ntimeout={}ms",
        argv.join(" "),
        hash,
        timeout.as_millis()
    )
}

/// Finds a program on PATH (as given if it contains a `/` or is not found).
pub fn resolve(program: &str) -> PathBuf {
    if program.contains('/') {
        return PathBuf::from(program);
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(program))
}

/// The validator's short name in verdicts.
fn label(checker: &Checker) -> String {
    match checker {
        Checker::Builtin(argv) => format!("builtin:{}", argv.join(" ")),
        Checker::Dolmen(_) => "dolmen".into(),
    }
}

/// Built-in check of one model: parse, substitute, ask the trusted solver.
/// Returns the result, reason and whether the verdict may be cached.
pub fn builtin_check(
    solver: &[String],
    benchmark: &[u8],
    model: &[u8],
    timeout: Duration,
) -> (Answer, Option<String>, bool) {
    let problem = |p: Problem| (p.result, Some(p.reason), true);
    let parsed = match model_text::parse_model(model) {
        Ok(m) => m,
        Err(p) => return problem(p),
    };
    let script = match model_text::substitute(benchmark, model, &parsed) {
        Ok(s) => s,
        Err(p) => return problem(p),
    };
    let tmp = match tempfile_with(&script) {
        Ok(t) => t,
        Err(e) => return (Answer::ModelValidatorException, Some(e), false),
    };
    let f = match process::run(solver, &[tmp.path()], None, timeout) {
        Ok(f) => f,
        Err(e) => return (Answer::ModelValidatorException, Some(e.to_string()), false),
    };
    let who = solver.first().map_or("", String::as_str);
    if f.timed_out {
        let r = format!("{who} did not answer in {} s", timeout.as_secs_f64());
        return (Answer::ModelValidatorTimeout, Some(r), true);
    }
    if let Some(err) = process::first_error(&f.stdout) {
        let r = format!(
            "{who} rejected the model substituted into the benchmark: {}",
            model_text::shown(err.as_bytes())
        );
        return (Answer::ModelValidatorException, Some(r), true);
    }
    match process::first_answer(&f.stdout) {
        Some("sat") => (Answer::Sat, None, true),
        Some("unsat") => (
            Answer::ModelUnsat,
            Some(format!(
                "the model does not satisfy the benchmark ({who}: unsat with the model substituted)"
            )),
            true,
        ),
        other => {
            let last = String::from_utf8_lossy(&f.stderr)
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .to_string();
            let r = format!(
                "{who} gave no verdict ({}; {}; stderr `{}`)",
                other.map_or("no answer".to_string(), |a| format!("answered {a}")),
                crate::util::process::exit_text(f.code()),
                model_text::shown(last.as_bytes())
            );
            // A crash may be the environment's fault: not cached.
            (Answer::ModelValidatorException, Some(r), f.code().is_some())
        }
    }
}

fn tempfile_with(bytes: &[u8]) -> Result<TempFile, String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "smtcomp-model-{}-{}.smt2",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(TempFile(path))
}

struct TempFile(PathBuf);

impl TempFile {
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

struct Outcome {
    verdict: ModelVerdict,
    cached: bool,
    checked: bool,
    problem: Option<String>,
}

/// Validates every Model-Validation run answering `sat` (and marks `unsat`
/// answers INVALID), writing the verdict into `records[i].validation`.
pub fn validate_models(records: &mut [IngestRecord], opts: &ModelOptions) -> ModelSummary {
    let start = Instant::now();
    let mut summary = ModelSummary::default();
    let (files, unreadable) = prepared_files(opts);
    summary.problems.extend(unreadable);
    let mut tasks: Vec<usize> = (0..records.len())
        .filter(|&i| {
            records[i].track == Some(Track::ModelValidation)
                && matches!(records[i].answer, RunAnswer::Sat | RunAnswer::Unsat)
        })
        .collect();
    // Sorted by log archive, so each worker reuses its open ZIP.
    tasks.sort_by(|&a, &b| {
        let k = |i: usize| records[i].model.as_ref().map(|m| m.log.archive.clone());
        k(a).cmp(&k(b)).then(a.cmp(&b))
    });
    let ident = identity(&opts.checker, opts.timeout);
    let name = label(&opts.checker);
    let store = opts.cache.as_ref().map(Cache::new);
    let recs: &[IngestRecord] = records;
    let outcomes = crate::util::parallel::map(&tasks, opts.jobs, "models", |&i| {
        one(&recs[i], &files, opts, &ident, &name, store.as_ref())
    });
    for (i, o) in tasks.iter().zip(outcomes) {
        summary.validated += 1;
        summary.cache_hits += usize::from(o.cached);
        summary.checked += usize::from(o.checked);
        let status = match o.verdict.status {
            ModelStatus::Valid => "VALID",
            ModelStatus::Invalid => "INVALID",
            ModelStatus::Unknown => "UNKNOWN",
        };
        *summary.by_status.entry(status.into()).or_default() += 1;
        let result = serde_json::to_value(o.verdict.result)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        *summary.by_result.entry(result).or_default() += 1;
        if let Some(p) = o.problem {
            summary
                .problems
                .push(format!("{}: {p}", run_name(&records[*i])));
        }
        records[*i].validation = Some(Verdict::Model(o.verdict));
    }
    summary.seconds = start.elapsed().as_secs_f64();
    summary
}

/// What a run's verdict is computed from, read: the prepared benchmark, the
/// log holding the model, and the key of the verdict in the cache.
struct ModelInput<'f> {
    bench_path: &'f Path,
    bench: Vec<u8>,
    log: Vec<u8>,
    /// The model's bytes in `log`.
    model: std::ops::Range<usize>,
    /// The validator's input in `log` (Dolmen reads the answer line too).
    input: std::ops::Range<usize>,
    key: String,
}

/// Why a run has no [`ModelInput`]: the verdict, its reason and whether it
/// is a problem (not the solver's fault).
type NoInput = (Answer, Option<String>, bool);

/// Reads what `r`'s verdict depends on (`r` is a Model-Validation run
/// answering `sat`).
fn model_input<'f>(
    r: &IngestRecord,
    files: &'f HashMap<String, PathBuf>,
    opts: &ModelOptions,
    ident: &str,
) -> Result<ModelInput<'f>, NoInput> {
    let Some(mref) = &r.model else {
        return Err((
            Answer::ModelParsingError,
            Some("no model after sat".into()),
            false,
        ));
    };
    let Some(bench_path) = files.get(&r.benchmark_key) else {
        let why = format!(
            "benchmark {} is not in the prepared Model-Validation set {}",
            r.benchmark_key,
            opts.prepared.display()
        );
        return Err((Answer::ModelNotValidated, Some(why), true));
    };
    let bench = std::fs::read(bench_path).map_err(|e| {
        let why = format!("{}: {e}", bench_path.display());
        (Answer::ModelNotValidated, Some(why), true)
    })?;
    let log = model_text::read_log(&opts.logs, &mref.log)
        .map_err(|e| (Answer::ModelNotValidated, Some(e.to_string()), true))?;
    model_text::slice(&log, mref)
        .map_err(|e| (Answer::ModelNotValidated, Some(e.to_string()), true))?;
    let model = mref.start as usize..mref.end as usize;
    // Dolmen reads the whole solver output (the answer line and the model).
    let input = match opts.checker {
        Checker::Dolmen(_) => crate::ingest::output_start(&log).min(model.start)..model.end,
        Checker::Builtin(_) => model.clone(),
    };
    let key = cache::key(&[ident.as_bytes(), &bench, &log[input.clone()]]);
    Ok(ModelInput {
        bench_path,
        bench,
        log,
        model,
        input,
        key,
    })
}

/// The prepared Model-Validation benchmarks of `opts`: library path -> file
/// (empty, with the reason, when the prepared set cannot be read).
fn prepared_files(opts: &ModelOptions) -> (HashMap<String, PathBuf>, Option<String>) {
    let dir = PreparedSet::track_dir(&opts.prepared, Track::ModelValidation);
    match PreparedSet::read(&opts.prepared, Track::ModelValidation) {
        Ok(set) => (
            set.benchmarks
                .iter()
                .map(|b| (b.original.path(), dir.join(&b.path)))
                .collect(),
            None,
        ),
        Err(e) => (HashMap::new(), Some(format!("prepared set: {e}"))),
    }
}

/// Records verdicts given from elsewhere (another validator's, or a
/// benchmark's recorded ones) in the cache of `opts`, each under the key
/// [`validate_models`] looks up for that run with the same options: every
/// Model-Validation run of `records` answering `sat` whose model, benchmark
/// and log can be read gets `verdict(run)`. Returns how many were recorded.
pub fn record_verdicts(
    records: &[IngestRecord],
    opts: &ModelOptions,
    verdict: impl Fn(&IngestRecord) -> ModelVerdict,
) -> std::io::Result<usize> {
    let Some(dir) = &opts.cache else {
        return Ok(0);
    };
    let store = Cache::new(dir);
    let (files, _) = prepared_files(opts);
    let ident = identity(&opts.checker, opts.timeout);
    let mut n = 0;
    for r in records
        .iter()
        .filter(|r| r.track == Some(Track::ModelValidation) && r.answer == RunAnswer::Sat)
    {
        if let Ok(m) = model_input(r, &files, opts, &ident) {
            store.put(&m.key, &verdict(r))?;
            n += 1;
        }
    }
    Ok(n)
}

fn one(
    r: &IngestRecord,
    files: &HashMap<String, PathBuf>,
    opts: &ModelOptions,
    ident: &str,
    name: &str,
    store: Option<&Cache>,
) -> Outcome {
    let done = |result: Answer, reason: Option<String>, problem: bool| Outcome {
        problem: problem.then(|| reason.clone().unwrap_or_default()),
        verdict: ModelVerdict::new(result, reason, name),
        cached: false,
        checked: false,
    };
    if r.answer == RunAnswer::Unsat {
        return done(
            Answer::ModelUnsat,
            Some("check-sat answered unsat on a sat benchmark".into()),
            false,
        );
    }
    let m = match model_input(r, files, opts, ident) {
        Ok(m) => m,
        Err((result, reason, problem)) => return done(result, reason, problem),
    };
    let (bench, bench_path, key) = (&m.bench, m.bench_path, &m.key);
    let (model, input) = (&m.log[m.model.clone()], &m.log[m.input.clone()]);
    if let Some(v) = store.and_then(|c| c.get(key)) {
        return Outcome {
            verdict: ModelVerdict {
                validator: name.to_string(),
                ..v
            },
            cached: true,
            checked: false,
            problem: None,
        };
    }
    let (result, reason, cacheable) = match &opts.checker {
        Checker::Builtin(argv) => builtin_check(argv, bench, model, opts.timeout),
        Checker::Dolmen(path) => {
            dolmen::check(path, bench_path, input, opts.timeout.as_secs().max(1))
        }
    };
    let verdict = ModelVerdict::new(result, reason.clone(), name);
    if cacheable && let Some(c) = store {
        let _ = c.put(key, &verdict);
    }
    Outcome {
        problem: (!cacheable).then(|| reason.unwrap_or_default()),
        verdict,
        cached: false,
        checked: true,
    }
}
