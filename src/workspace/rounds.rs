//! One BenchExec round of a workspace (the competition runs, or the
//! core-validation runs): what is still to run, decided from the result files
//! against the runs manifest, run on the workspace's backend; resumable.

use super::config::{Backend, BackendKind};
use crate::benchexec::{Manifest, RunOptions, result_files, run_subset};
use crate::formats::generation::RUNS_FILE;
use crate::formats::runs_manifest::ManifestIndex;
use crate::pipeline::{
    LocalBenchExec, Runner, SlurmBenchExec, VcloudBenchExec, account_runs, definition_run,
    definition_state, unfinished_runs,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What is still to run in an execution directory.
#[derive(Debug, Default)]
pub struct Pending {
    /// Definitions without any result file.
    pub whole: Vec<String>,
    /// Definitions with results that lack runs: rundefinition -> tasks.
    pub partial: Vec<(String, BTreeMap<String, Vec<String>>)>,
    /// Runs expected in total (the runs manifest).
    pub expected: usize,
    /// Runs missing (no result yet) in the partial definitions and the whole ones.
    pub missing: usize,
    /// Definitions with results holding unfinished runs: (definition, how many).
    pub unfinished: Vec<(String, usize)>,
}

impl Pending {
    /// Nothing left to run: no definition without results, none lacking
    /// runs, none with unfinished runs.
    pub fn is_empty(&self) -> bool {
        self.whole.is_empty() && self.partial.is_empty() && self.unfinished.is_empty()
    }

    /// Runs without a finished result: missing, or unfinished in a result file.
    pub fn without_result(&self) -> usize {
        self.missing + self.unfinished.iter().map(|(_, n)| n).sum::<usize>()
    }
}

/// What is left in `execdir`: definitions without results, and the missing
/// runs of those with results (the accounting of `run-local --only-missing`).
pub fn pending(execdir: &Path) -> anyhow::Result<Pending> {
    let m = Manifest::read(execdir)?;
    let index = ManifestIndex::read(&execdir.join(RUNS_FILE))?;
    let mut per_def: BTreeMap<&str, usize> = BTreeMap::new();
    for r in index.runs() {
        *per_def.entry(r.benchmark_definition).or_default() += 1;
    }
    let mut p = Pending {
        expected: index.len(),
        ..Pending::default()
    };
    for (file, def) in &m.definitions {
        if result_files(&execdir.join(&def.results_dir)).is_empty() {
            p.missing += per_def.get(file.as_str()).copied().unwrap_or(0);
            p.whole.push(file.clone());
        } else {
            let state = definition_state(execdir, &m, file, &index)?;
            if state.unfinished > 0 {
                p.unfinished.push((file.clone(), state.unfinished));
            }
            let missing = state.missing;
            if !missing.is_empty() {
                p.missing += missing.values().map(Vec::len).sum::<usize>();
                p.partial.push((file.clone(), missing));
            }
        }
    }
    Ok(p)
}

/// How a round ended.
#[derive(Debug)]
pub enum Round {
    /// Every run was there already: nothing ran.
    AlreadyComplete {
        /// Runs expected (all present).
        runs: usize,
    },
    /// The backend ran what was missing; now every run is there.
    Completed {
        /// Definitions run (whole or their missing runs).
        definitions: usize,
        /// Runs expected (all present).
        runs: usize,
        /// Of those, definitions whose unfinished results were set aside and run again.
        redone: usize,
    },
    /// An external step is needed (the VerifierCloud): run `command`, then `smtcomp run`.
    Waiting {
        /// Definitions without all their results.
        definitions: usize,
        /// Runs missing.
        missing: usize,
        /// What the organizer runs next.
        command: String,
    },
    /// Runs are still missing after the backend ran: one problem line each.
    Incomplete {
        /// Runs missing.
        missing: usize,
        /// Runs expected.
        runs: usize,
        /// The backends' and the accounting's problem lines.
        problems: Vec<String>,
    },
}

/// BenchExec's options from the workspace's backend.
pub fn run_options(b: &Backend) -> anyhow::Result<RunOptions> {
    Ok(RunOptions {
        benchexec: b.benchexec.clone(),
        jobs: b.jobs,
        container: b.container,
        extra_path: std::env::current_exe()?
            .parent()
            .map(|p| vec![p.to_path_buf()])
            .unwrap_or_default(),
        start_time: b.start_time.clone(),
        timeout: None,
        replace: false,
        read_only_dirs: Vec::new(),
    })
}

/// The command that runs what is missing in `execdir` on the VerifierCloud:
/// `run-vcloud.sh` with BenchExec's client from `[backend] vcloud_benchmark`,
/// else `VCLOUD_BENCHMARK` (left to the script), else the copy
/// `scripts/install-deps` fetches (`$SMTCOMP_TOOLS`, default
/// `~/.local/share/smtcomp-tools`).
pub fn vcloud_command(execdir: &Path, backend: &Backend) -> String {
    vcloud_command_with(execdir, backend, &[])
}

/// [`vcloud_command`] with further arguments of `run-vcloud.sh` (escaped).
fn vcloud_command_with(execdir: &Path, backend: &Backend, args: &[&str]) -> String {
    use crate::util::escape::shell;
    let mut script = shell(&execdir.join("run-vcloud.sh").display().to_string());
    for a in args {
        script.push(' ');
        script.push_str(&shell(a));
    }
    if let Some(client) = &backend.vcloud_benchmark {
        return format!(
            "VCLOUD_BENCHMARK={} {script}",
            shell(&client.display().to_string())
        );
    }
    match std::env::var("VCLOUD_BENCHMARK") {
        Ok(v) if !v.is_empty() => script,
        _ => format!(
            "VCLOUD_BENCHMARK=\"${{SMTCOMP_TOOLS:-$HOME/.local/share/smtcomp-tools}}\"/benchexec-3.35/contrib/vcloud-benchmark.py {script}"
        ),
    }
}

/// One problem line per definition of `pending` that has results but lacks
/// runs, with the command that completes it locally.
fn partial_problems(execdir: &Path, pending: &Pending) -> Vec<String> {
    let exec = crate::util::escape::shell(&execdir.display().to_string());
    pending
        .partial
        .iter()
        .map(|(file, _)| {
            format!(
                "{file}: has results but lacks runs; complete it with `smtcomp run-local --exec {exec} --only-missing --definition {file}`"
            )
        })
        .collect()
}

/// The VerifierCloud client `smtcomp run` calls itself: `[backend]
/// vcloud_benchmark`, else `VCLOUD_BENCHMARK`; `None`: the round waits for
/// the organizer to run [`vcloud_command`].
pub fn vcloud_client(backend: &Backend) -> Option<PathBuf> {
    backend.vcloud_benchmark.clone().or_else(|| {
        std::env::var_os("VCLOUD_BENCHMARK")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// The definitions of `execdir` whose result files hold unfinished runs
/// (BenchExec stopped mid-definition: an interrupt, a cancelled or lost Slurm
/// job): their results directory is moved, whole, below
/// `EXECDIR/superseded/<time>/` (kept, never deleted, and no longer
/// ingested), so that the definition is run again whole into a new result
/// set and every run has exactly one result. `only`: just these definitions
/// (`run-local --definition`). Returns one line per definition set aside.
pub fn set_aside_unfinished(execdir: &Path, only: Option<&[&str]>) -> anyhow::Result<Vec<String>> {
    let m = Manifest::read(execdir)?;
    let index = ManifestIndex::read(&execdir.join(RUNS_FILE))?;
    let mut unfinished = Vec::new();
    for (file, def) in &m.definitions {
        let dir = execdir.join(&def.results_dir);
        if only.is_some_and(|o| !o.contains(&file.as_str())) || result_files(&dir).is_empty() {
            continue;
        }
        let n = unfinished_runs(execdir, &m, file, &index)?;
        if n > 0 {
            unfinished.push((file.clone(), n));
        }
    }
    move_aside(execdir, &m, &unfinished)
}

/// Moves the results directory of each `(definition, unfinished runs)` below
/// `EXECDIR/superseded/<time>/`; one line per definition.
fn move_aside(
    execdir: &Path,
    m: &Manifest,
    unfinished: &[(String, usize)],
) -> anyhow::Result<Vec<String>> {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ").to_string();
    let mut moved = Vec::new();
    for (file, n) in unfinished {
        let Some(def) = m.definitions.get(file) else {
            continue;
        };
        let dir = execdir.join(&def.results_dir);
        let to = execdir
            .join("superseded")
            .join(&stamp)
            .join(&def.results_dir);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::rename(&dir, &to).map_err(|e| {
            anyhow::anyhow!("{}: cannot move to {}: {e}", dir.display(), to.display())
        })?;
        moved.push(format!(
            "{file}: {n} unfinished run(s); its results were moved to {} and it runs again",
            to.display()
        ));
    }
    Ok(moved)
}

/// Runs what is missing in `execdir` on `backend` (`smtcomp` is this program,
/// which the Slurm jobs call).
pub fn run_round(execdir: &Path, backend: &Backend, smtcomp: PathBuf) -> anyhow::Result<Round> {
    // A Slurm array of an earlier run still writing here (its `smtcomp` was
    // killed without cancelling it): its unfinished definitions must not be
    // set aside nor run beside it.
    if let Some(jobs) = crate::pipeline::slurm_live_jobs(&Default::default(), execdir)
        && !jobs.is_empty()
    {
        let ids: Vec<String> = jobs.iter().map(u64::to_string).collect();
        anyhow::bail!(
            "Slurm job array {} of an earlier run still works in {}: wait for it to end (`squeue -j {}`) or cancel it (`scancel {}`), then run again",
            ids.join(", "),
            execdir.display(),
            ids.join(","),
            ids.join(" ")
        );
    }
    // One reading of the results: what is missing, and what BenchExec left
    // unfinished (set aside, then counted again as missing).
    let mut before = pending(execdir)?;
    let set_aside = if before.unfinished.is_empty() {
        Vec::new()
    } else {
        let moved = move_aside(execdir, &Manifest::read(execdir)?, &before.unfinished)?;
        before = pending(execdir)?;
        moved
    };
    if before.is_empty() {
        return Ok(Round::AlreadyComplete {
            runs: before.expected,
        });
    }
    let defs = before.whole.len() + before.partial.len();
    let m = Manifest::read(execdir)?;
    let index = ManifestIndex::read(&execdir.join(RUNS_FILE))?;
    let options = run_options(backend)?;
    let mut problems = Vec::new();
    match backend.kind {
        BackendKind::Vcloud => {
            // Without a client configured, the organizer runs the script where the cloud is reachable.
            let Some(client) = vcloud_client(backend) else {
                // The definitions without results whole; the runs still
                // missing of the others from definitions/missing/.
                let mut commands = Vec::new();
                if !before.whole.is_empty() {
                    commands.push(vcloud_command(execdir, backend));
                }
                if !before.partial.is_empty() {
                    let mut args = vec!["--missing"];
                    for (file, runs) in &before.partial {
                        crate::benchexec::write_subset(execdir, &m, file, runs)?;
                        args.push(file.as_str());
                    }
                    commands.push(vcloud_command_with(execdir, backend, &args));
                }
                return Ok(Round::Waiting {
                    definitions: defs,
                    missing: before.missing,
                    command: commands.join("; "),
                });
            };
            let runner = VcloudBenchExec::new(client);
            runner.check()?;
            let whole: Vec<&str> = before.whole.iter().map(String::as_str).collect();
            let mut runs = runner.run(execdir, &m, &whole);
            // A definition with results: its runs still missing, next to them.
            for (file, missing) in &before.partial {
                runs.push(runner.run_missing(execdir, &m, file, missing));
            }
            problems.extend(account_runs(execdir, &m, &runs, Some(&index))?);
        }
        BackendKind::Local => {
            let runner = LocalBenchExec { options, calls: 1 };
            runner.check()?;
            let whole: Vec<&str> = before.whole.iter().map(String::as_str).collect();
            let mut runs = runner.run(execdir, &m, &whole);
            for (file, missing) in &before.partial {
                let call = run_subset(execdir, &m, file, missing, &runner.options);
                runs.push(definition_run(file, call, missing.len()));
            }
            problems.extend(account_runs(execdir, &m, &runs, Some(&index))?);
        }
        BackendKind::Slurm => {
            let s = &backend.slurm;
            let mut runner = SlurmBenchExec::new(smtcomp, options);
            runner.definitions_per_job = s.definitions_per_job.unwrap_or(1).max(1);
            runner.max_parallel = s.max_parallel_jobs;
            runner.partition = s.partition.clone();
            runner.cpus_per_job = s.cpus_per_job;
            runner.mem_per_job_mb = s.mem_per_job_mb;
            runner.sbatch_args = s.sbatch_args.clone();
            runner.timeout = s.timeout_s.map(std::time::Duration::from_secs);
            runner.check()?;
            let whole: Vec<&str> = before.whole.iter().map(String::as_str).collect();
            let runs = runner.run(execdir, &m, &whole);
            problems.extend(account_runs(execdir, &m, &runs, Some(&index))?);
            // A job's `run-local` skips a definition that has results.
            problems.extend(partial_problems(execdir, &before));
        }
    }
    let after = pending(execdir)?;
    if after.is_empty() {
        Ok(Round::Completed {
            definitions: defs,
            runs: after.expected,
            redone: set_aside.len(),
        })
    } else {
        problems.extend(set_aside);
        for (file, n) in &after.unfinished {
            problems.push(format!(
                "{file}: {n} unfinished run(s) (BenchExec was stopped in it); the next `smtcomp run` sets its results aside and runs it again"
            ));
        }
        if problems.is_empty() {
            problems.push(format!(
                "{} run(s) of {} definition(s) still missing",
                after.missing,
                after.whole.len() + after.partial.len()
            ));
        }
        Ok(Round::Incomplete {
            missing: after.without_result(),
            runs: after.expected,
            problems,
        })
    }
}
