//! BenchExec integration: benchmark definitions, task files, tool-info modules,
//! run scripts and the generation manifest (`smtcomp generate`), and a safe local
//! runner (`smtcomp run-local`).
//!
//! Layout of an execution directory (`EXECDIR`), all paths relative to it:
//!
//! ```text
//! manifest.json                          the Manifest: definitions, rundefinitions, tasks
//! definitions/<solver><suffix>_<division>.xml
//! tasks/SMT.prp                          empty property file
//! tasks/<track dir>/<LOGIC>/scrambledN.yml
//! tools/*.py                             tool-info modules (PYTHONPATH=EXECDIR)
//! run-local.sh, run-vcloud.sh, docker/<rundefinition>.sh
//! bin/                                   smtcomp-trace-executor, smtcomp-proof-wrapper (copied before each call, visibility.rs)
//! results/<track dir>/<definition>/      BenchExec output (*.results.*.xml.bz2, *.logfiles.zip)
//! ```

mod binaries;
mod container;
mod definition;
mod error;
mod names;
mod paths;
mod plan;
mod runner;
mod scripts;
mod store;
pub mod system;
mod tasks;
mod validation;
pub mod visibility;
mod write;

pub use binaries::binary_problems;
pub use definition::{NO_RESULT_FILES, result_files_pattern};
pub use error::BenchexecError;
pub use names::sanitize;
pub use runner::{
    CallOutcome, MISSING_DIR, RunOptions, fresh_start_time, result_files, run_definition,
    run_subset, select, write_subset,
};
pub use scripts::call_timeout;

pub use crate::formats::generation::Manifest;
pub use crate::submission::SolverLocation;
pub use plan::{DEFAULT_MAX_TASKS, PlanInput};
pub use write::HELPER_BINARIES;

use crate::model::{Competition, Division, Track};
use crate::submission::Submission;
use std::path::{Path, PathBuf};

/// Options of [`generate`].
#[derive(Debug, Clone)]
pub struct GenerateOptions {
    /// Prepared root (from `smtcomp prepare`).
    pub prepared: PathBuf,
    /// Execution directory (created if missing).
    pub out: PathBuf,
    /// Test-mode limits.
    pub test: bool,
    /// Binary resolution.
    pub location: SolverLocation,
    /// Copy the helper binaries from this directory into `EXECDIR/bin/`.
    pub binaries_from: Option<PathBuf>,
    /// At most this many tasks per definition (`None`: [`DEFAULT_MAX_TASKS`]).
    pub max_tasks: Option<usize>,
    /// Fail (writing nothing) when a run's solver binary is missing or not
    /// executable in the execution directory ([`binary_problems`]).
    pub check_binaries: bool,
    /// (track, division) pairs not to run: the non-competitive divisions
    /// (rules 6; `smtcomp generate` computes them from the submissions' teams).
    pub skip_divisions: std::collections::BTreeSet<(Track, Division)>,
}

/// What [`generate`] produced.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The manifest written, except its tasks: `manifest.tasks` is empty (the
    /// 370k task entries of a whole competition are written, not kept in memory;
    /// [`Manifest::read`] the execution directory for them).
    pub manifest: Manifest,
    /// The number of task files written (the entries of `manifest.json`'s `tasks`).
    pub tasks: usize,
    /// Non-fatal remarks.
    pub warnings: Vec<String>,
}

/// Plans and writes an execution directory. Errors list every problem found
/// (file, solver and reason); nothing is written when there is one.
pub fn generate(
    comp: &Competition,
    submissions: &[&Submission],
    opts: &GenerateOptions,
) -> Result<Generated, Vec<String>> {
    let canon = |p: &Path, what: &str| {
        std::fs::canonicalize(p).map_err(|e| vec![format!("{}: {what}: {e}", p.display())])
    };
    let prepared = canon(&opts.prepared, "cannot open the prepared directory")?;
    std::fs::create_dir_all(&opts.out)
        .map_err(|e| vec![format!("{}: cannot create: {e}", opts.out.display())])?;
    let out = canon(&opts.out, "cannot open the output directory")?;
    let input = PlanInput {
        competition: comp,
        submissions: submissions.to_vec(),
        prepared: prepared.clone(),
        out: out.clone(),
        test: opts.test,
        location: opts.location.clone(),
        max_tasks: opts.max_tasks.unwrap_or(DEFAULT_MAX_TASKS),
        skip_divisions: &opts.skip_divisions,
    };
    phase("start");
    let (manifest, store, mut warnings) = plan::plan(&input)?;
    phase("plan");
    if opts.check_binaries {
        let problems = binary_problems(&out, submissions, &manifest, &opts.location);
        if !problems.is_empty() {
            return Err(problems);
        }
    }
    warnings.extend(
        write::write(&out, &manifest, &store, opts.binaries_from.as_deref())
            .map_err(|e| vec![e.to_string()])?,
    );
    let tasks = store.len();
    drop(store);
    Ok(Generated {
        manifest,
        tasks,
        warnings,
    })
}

/// With `SMTCOMP_PHASES` set, one line on stderr per phase of `generate` (and of a
/// streaming ingestion, `ingest::ingest_inputs_to_file`): the time since the first
/// phase, resident and peak memory (for `scripts/bench-generate`, `scripts/bench-ingest`
/// and profiling; never in normal output).
pub(crate) fn phase(name: &str) {
    use std::sync::OnceLock;
    static START: OnceLock<Option<std::time::Instant>> = OnceLock::new();
    let Some(t0) =
        START.get_or_init(|| std::env::var_os("SMTCOMP_PHASES").map(|_| std::time::Instant::now()))
    else {
        return;
    };
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let mb = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    eprintln!(
        "phase: {name}: {:.2} s, resident {} MB, peak {} MB",
        t0.elapsed().as_secs_f64(),
        mb("VmRSS:"),
        mb("VmHWM:")
    );
}
