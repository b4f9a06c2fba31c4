//! Runner backends: who executes the BenchExec definitions of a generation
//! manifest. Everything before (generation) and after (ingestion of
//! `EXECDIR/<results_dir>/`) is the same for every backend.
//!
//! * [`LocalBenchExec`]: the local `benchexec`, safely supervised
//!   ([`crate::benchexec::run_definition`]), several calls side by side;
//! * [`Replay`]: recorded result files copied into place (tests: the
//!   orchestration without BenchExec and without timing).
//!
//! * [`super::SlurmBenchExec`]: a Slurm job array (`slurm.rs`);
//! * [`super::VcloudBenchExec`]: BenchExec's VerifierCloud client (`vcloud.rs`).
//!
//! A new backend implements [`Runner`]: it runs the
//! definitions however it likes and leaves, per definition, the result files
//! (`*.results.*.xml.bz2` and `*.logfiles.zip` or the `*.logfiles/` directory)
//! in `EXECDIR/<results_dir>/`, where the local runner leaves them.

use super::step::{StageResult, Step};
use crate::benchexec::{CallOutcome, Manifest, RunOptions, run_definition};
use std::path::{Path, PathBuf};

/// What happened to one definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunStatus {
    /// Every rundefinition has its result file.
    Ran,
    /// BenchExec failed (or could not start, or a recording is missing);
    /// `reason` says why, with BenchExec's own reason line when it logged one.
    Failed {
        /// One line: what went wrong.
        reason: String,
    },
    /// The call's hard limit fired.
    TimedOut {
        /// One line, naming BenchExec's log.
        reason: String,
    },
}

/// The outcome of one definition of a [`Runner::run`] call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefinitionRun {
    /// The definition file name (the manifest key).
    pub definition: String,
    /// What happened.
    pub status: RunStatus,
    /// BenchExec's own output for this definition, when the backend has it
    /// (its reason line explains runs that did not start).
    pub log: Option<PathBuf>,
}

impl DefinitionRun {
    /// Why the definition has no complete results (`None` when it ran).
    pub fn failure(&self) -> Option<&str> {
        match &self.status {
            RunStatus::Ran => None,
            RunStatus::Failed { reason } | RunStatus::TimedOut { reason } => Some(reason),
        }
    }
}

/// The failed definitions of `runs`: definition -> why.
pub fn failures(runs: &[DefinitionRun]) -> std::collections::BTreeMap<String, String> {
    runs.iter()
        .filter_map(|r| Some((r.definition.clone(), r.failure()?.to_string())))
        .collect()
}

/// Runs definitions of a generation manifest.
///
/// `run` executes `definitions` (keys of `manifest.definitions`) of the
/// execution directory `execdir` (absolute; `manifest` is its
/// `manifest.json`) and leaves each definition's BenchExec result files in
/// `execdir/<results_dir>/` (replacing what was there). It returns one
/// [`DefinitionRun`] per requested definition, in the order given. It does not
/// fail as a whole: a definition that could not run is a
/// [`RunStatus::Failed`] naming the reason.
pub trait Runner: Sync {
    /// Whether the backend can run at all (e.g. its executable exists), asked
    /// before anything is prepared for it; default: yes.
    fn check(&self) -> anyhow::Result<()> {
        Ok(())
    }

    /// Runs `definitions` of `manifest` in `execdir`; see the trait.
    fn run(&self, execdir: &Path, manifest: &Manifest, definitions: &[&str]) -> Vec<DefinitionRun>;
}

/// The local `benchexec`: one supervised call per definition
/// ([`run_definition`]: own session, output to `benchexec.log`, hard timeout,
/// group kill), `calls` of them side by side with a progress bar.
#[derive(Debug, Clone)]
pub struct LocalBenchExec {
    /// How to call BenchExec.
    pub options: RunOptions,
    /// BenchExec calls side by side (most of a small call is BenchExec's own
    /// start-up, not the solver).
    pub calls: usize,
}

impl Runner for LocalBenchExec {
    fn check(&self) -> anyhow::Result<()> {
        if !is_executable(&self.options.benchexec) {
            anyhow::bail!("{}", benchexec_not_found(&self.options.benchexec));
        }
        if let Some(problem) = cgroup_problem(&self.options.benchexec) {
            anyhow::bail!("{problem}");
        }
        let mut dirs = self.options.extra_path.clone();
        dirs.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        let missing = missing_helpers(&dirs);
        if !missing.is_empty() {
            anyhow::bail!(
                "{} not found in {} nor on PATH: build the whole workspace (`cargo build --release --workspace`), the helper binaries are member crates",
                missing.join(", "),
                self.options
                    .extra_path
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        Ok(())
    }

    fn run(&self, execdir: &Path, manifest: &Manifest, definitions: &[&str]) -> Vec<DefinitionRun> {
        crate::util::parallel::map(definitions, self.calls, "benchexec definitions", |f| {
            let expected = manifest
                .definitions
                .get(*f)
                .map_or(0, |d| d.rundefinitions.len());
            let outcome = run_definition(execdir, manifest, f, &self.options);
            crate::util::fault::point("runs", "after-definition");
            definition_run(f, outcome, expected)
        })
    }
}

/// A BenchExec call's outcome as a [`DefinitionRun`] of definition `file`:
/// it ran when BenchExec exited 0 with `result_files` result files; otherwise
/// the reason names the exit code (or the timeout) and BenchExec's own reason
/// line from its log.
pub fn definition_run(
    file: &str,
    outcome: Result<CallOutcome, crate::benchexec::BenchexecError>,
    result_files: usize,
) -> DefinitionRun {
    let log = outcome.as_ref().ok().map(|o| o.log.clone());
    let status = match outcome {
        Ok(o) if o.exit_code == Some(0) && o.results.len() == result_files => RunStatus::Ran,
        Ok(o) if o.timed_out => RunStatus::TimedOut {
            reason: format!("BenchExec timed out (see {})", o.log.display()),
        },
        Ok(o) => RunStatus::Failed {
            reason: format!(
                "BenchExec {}{} (see {}){}{}",
                crate::util::process::exit_text(o.exit_code),
                if o.exit_code == Some(0) {
                    format!(" but {} of {result_files} result file(s)", o.results.len())
                } else {
                    String::new()
                },
                o.log.display(),
                reason_line(&o.log)
                    .map(|l| format!("; BenchExec said: {l}"))
                    .unwrap_or_default(),
                container_hint(&o.log, &o.visible)
                    .map(|h| format!("; {h}"))
                    .unwrap_or_default(),
            ),
        },
        Err(e) => RunStatus::Failed {
            reason: e.to_string(),
        },
    };
    DefinitionRun {
        definition: file.to_string(),
        status,
        log,
    }
}

/// [`crate::benchexec::system::cgroup_problem`], asked once per process and
/// BenchExec (the check takes about a second).
fn cgroup_problem(benchexec: &Path) -> Option<String> {
    use std::collections::BTreeMap;
    use std::sync::Mutex;
    static ASKED: Mutex<BTreeMap<PathBuf, Option<String>>> = Mutex::new(BTreeMap::new());
    let mut asked = ASKED.lock().unwrap_or_else(|e| e.into_inner());
    asked
        .entry(benchexec.to_path_buf())
        .or_insert_with(|| crate::benchexec::system::cgroup_problem(benchexec))
        .clone()
}

/// The message for a `benchexec` that is not there: how to install it (for
/// users outside our checkout too) and how to point at it.
pub fn benchexec_not_found(benchexec: &Path) -> String {
    format!(
        "{}: BenchExec not found: install it with `pip install benchexec==3.35` (in the smtcomp \
         repository: `scripts/install-deps`), or name it: `[backend] benchexec` in smtcomp.toml, \
         `--benchexec PATH` for run-local, run-slurm, test-solver and demo",
        benchexec.display()
    )
}

/// Whether `name` is an executable file on PATH.
pub fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(name).is_file()))
}

/// Whether `p` is an executable file (a name without `/` is looked up on PATH).
/// The helper binaries BenchExec's runs need that none of `dirs` holds.
pub fn missing_helpers(dirs: &[PathBuf]) -> Vec<&'static str> {
    crate::benchexec::HELPER_BINARIES
        .iter()
        .copied()
        .filter(|b| !dirs.iter().any(|d| d.join(b).is_file()))
        .collect()
}

fn is_executable(p: &Path) -> bool {
    if p.components().count() > 1 {
        return p.is_file();
    }
    on_path(&p.to_string_lossy())
}

/// Why the container may be the cause of a failed call: a path of BenchExec's
/// log (its last 1 MiB) that exists here but is hidden from the runs (in none
/// of the `visible` directories)
/// ([`crate::benchexec::visibility::hidden_path_hint`]).
pub fn container_hint(log: &Path, visible: &[PathBuf]) -> Option<String> {
    let text = crate::util::bounded::read_tail(log, 1 << 20)?;
    crate::benchexec::visibility::hidden_path_hint(&text, visible)
}

/// BenchExec's reason for failing, from its log: the last `ERROR`/`CRITICAL`
/// line (without the time stamp), else the last non-empty line.
pub fn reason_line(log: &Path) -> Option<String> {
    let text = std::fs::read_to_string(log).ok()?;
    reason_of(text.lines())
}

/// The last `ERROR` or `CRITICAL` line of BenchExec-style log `lines` (its
/// message only), else the last non-empty line; at most 300 characters.
pub fn reason_of<'a>(lines: impl Iterator<Item = &'a str>) -> Option<String> {
    let lines: Vec<&str> = lines.map(str::trim).filter(|l| !l.is_empty()).collect();
    let line = lines
        .iter()
        .rev()
        .find(|l| l.contains(" - ERROR - ") || l.contains(" - CRITICAL - "))
        .or(lines.last())?;
    let short = line
        .split_once(" - ERROR - ")
        .or_else(|| line.split_once(" - CRITICAL - "))
        .map_or(*line, |(_, m)| m);
    Some(short.chars().take(300).collect())
}

/// Recorded result files: for definition `D` with results directory
/// `results/<track>/<D>/`, the files of `<recording>/<track>/<D>/` (a previous
/// run's `EXECDIR/results/` tree) are copied into `EXECDIR/results/<track>/<D>/`.
/// A definition without a recorded result file fails, naming the definition
/// and the directory looked at.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The recording: a copy of some `EXECDIR/results/`.
    pub recording: PathBuf,
}

impl Replay {
    fn replay(&self, execdir: &Path, results_dir: &str) -> Result<(), String> {
        let rel = Path::new(results_dir);
        let rel = rel.strip_prefix("results").unwrap_or(rel);
        let from = self.recording.join(rel);
        let recorded = std::fs::read_dir(&from)
            .map(|d| {
                d.filter_map(Result::ok).any(|e| {
                    e.file_name()
                        .to_str()
                        .is_some_and(|n| n.contains(".results.") && n.ends_with(".xml.bz2"))
                })
            })
            .unwrap_or(false);
        if !recorded {
            return Err(format!(
                "no recorded BenchExec results in {}",
                from.display()
            ));
        }
        let to = execdir.join(results_dir);
        if to.exists() {
            std::fs::remove_dir_all(&to)
                .map_err(|e| format!("{}: cannot remove: {e}", to.display()))?;
        }
        for entry in walkdir::WalkDir::new(&from).sort_by_file_name() {
            let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
            let target = to.join(
                entry
                    .path()
                    .strip_prefix(&from)
                    .map_err(|e| e.to_string())?,
            );
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target)
            } else {
                std::fs::copy(entry.path(), &target).map(|_| ())
            }
            .map_err(|e| format!("{}: cannot write: {e}", target.display()))?;
        }
        Ok(())
    }
}

impl Runner for Replay {
    fn run(&self, execdir: &Path, manifest: &Manifest, definitions: &[&str]) -> Vec<DefinitionRun> {
        definitions
            .iter()
            .map(|f| {
                let def = manifest.definitions.get(*f);
                let status = match def {
                    None => Err(format!("{f}: no such definition in the manifest")),
                    Some(def) => self.replay(execdir, &def.results_dir),
                };
                let log = def
                    .map(|d| execdir.join(&d.results_dir).join("benchexec.log"))
                    .filter(|l| l.is_file());
                DefinitionRun {
                    definition: f.to_string(),
                    log,
                    status: match status {
                        Ok(()) => RunStatus::Ran,
                        Err(reason) => RunStatus::Failed {
                            reason: format!("replay of {f}: {reason}"),
                        },
                    },
                }
            })
            .collect()
    }
}

/// Step 5, runs: every definition of `manifest` (in `execdir`) on `runner`.
pub fn run_all(runner: &dyn Runner, execdir: &Path, manifest: &Manifest) -> Vec<DefinitionRun> {
    let definitions = crate::benchexec::select(manifest, None, None);
    runner.run(execdir, manifest, &definitions)
}

/// An error listing every definition of `runs` that did not run.
pub fn require_all(runs: &[DefinitionRun]) -> StageResult<()> {
    Step::Runs.scope(|| {
        let failed: Vec<String> = failures(runs)
            .into_iter()
            .map(|(f, why)| format!("{f}: {why}"))
            .collect();
        if !failed.is_empty() {
            anyhow::bail!(
                "BenchExec failed for {} definitions:\n{}",
                failed.len(),
                failed.join("\n")
            );
        }
        Ok(())
    })
}
