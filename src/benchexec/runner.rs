//! Running generated definitions on the local `benchexec`, safely (spec 6.6):
//! BenchExec starts in its own session, its output goes to a file (never a pipe),
//! each call has a hard timeout, and afterwards the whole process group gets
//! SIGKILL, so a deadlocked tool-info container process cannot outlive the call.

use super::BenchexecError;
use super::scripts::call_timeout;
use super::visibility;
use crate::formats::generation::{Definition, Manifest};
use crate::model::Track;
use crate::util::process::{self, Sink, Supervised};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How to call BenchExec.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The `benchexec` executable (a name looked up on PATH, or a path).
    pub benchexec: PathBuf,
    /// Parallel runs per call (`-N`).
    pub jobs: Option<u32>,
    /// Container mode (default); `false` passes `--no-container`.
    pub container: bool,
    /// Directories put in front of PATH (e.g. where `smtcomp-trace-executor` is).
    pub extra_path: Vec<PathBuf>,
    /// Fixed `--startTime` (`YYYY-MM-DD hh:mm:ss`) for reproducible file names.
    pub start_time: Option<String>,
    /// Limit of one call; default: [`call_timeout`].
    pub timeout: Option<Duration>,
    /// Remove the definition's earlier results first (a fresh run, as the demo's
    /// and `test-solver`'s stages want); `false` keeps them (`run-local`: resumable).
    pub replace: bool,
    /// Directories mounted read-only into the container besides `/` (which
    /// is read-only already): those under a hidden directory (`/home`,
    /// `/tmp`, `/run`) that the runs need, e.g. a solver's directory.
    pub read_only_dirs: Vec<PathBuf>,
}

/// The outcome of one `benchexec` call.
#[derive(Debug, Clone)]
pub struct CallOutcome {
    /// Definition file name (manifest key).
    pub definition: String,
    /// Exit code of `benchexec`, `None` if killed (timeout).
    pub exit_code: Option<i32>,
    /// Whether the hard timeout fired.
    pub timed_out: bool,
    /// The result XML files written (`*.results.*.xml.bz2`), sorted.
    pub results: Vec<PathBuf>,
    /// BenchExec's own output.
    pub log: PathBuf,
    /// Wall time of the call.
    pub elapsed: Duration,
    /// What the runs could see besides `/` (read-only): the execution
    /// directory, the prepared benchmarks, the directories mounted read-only.
    pub visible: Vec<PathBuf>,
}

impl CallOutcome {
    /// Whether BenchExec ended normally and wrote one result file per rundefinition.
    pub fn ok(&self, def: &Definition) -> bool {
        self.exit_code == Some(0) && self.results.len() == def.rundefinitions.len()
    }
}

fn container_args(
    execdir: &Path,
    prepared: &Path,
    container: bool,
    read_only: &[PathBuf],
) -> Vec<String> {
    if !container {
        return vec!["--no-container".into()];
    }
    let mut v: Vec<String> = [
        "--read-only-dir",
        "/",
        "--hidden-dir",
        "/home",
        "--overlay-dir",
    ]
    .map(String::from)
    .into();
    v.push(execdir.display().to_string());
    if !prepared.starts_with(execdir) {
        v.push("--read-only-dir".into());
        v.push(prepared.display().to_string());
    }
    for d in read_only.iter().filter(|d| d.as_path() != execdir) {
        v.push("--read-only-dir".into());
        v.push(d.display().to_string());
    }
    v
}

/// Subdirectory of `definitions/` for the definitions of `--only-missing` calls.
pub const MISSING_DIR: &str = "missing";

/// The result XML files (`*.results.*.xml.bz2`) in `dir`, sorted; none if it
/// does not exist.
pub fn result_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut results: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.contains(".results.") && n.ends_with(".xml.bz2"))
        })
        .collect();
    results.sort();
    results
}

/// Runs the definition `file` of `m` (execution directory `execdir`, absolute).
/// Results already in its results directory are kept (BenchExec names each
/// call's files after its start time).
pub fn run_definition(
    execdir: &Path,
    m: &Manifest,
    file: &str,
    opts: &RunOptions,
) -> Result<CallOutcome, BenchexecError> {
    let def = m
        .definitions
        .get(file)
        .ok_or_else(|| BenchexecError::NoDefinition(file.to_string()))?;
    run_file(execdir, m, file, &def.path, opts)
}

/// Runs only the given runs of definition `file` (rundefinition name -> task
/// paths relative to `execdir`): writes `definitions/missing/<file>` (the same
/// benchmark name, so the results map back through the manifest) and runs it
/// into the definition's results directory, next to the results already there.
pub fn run_subset(
    execdir: &Path,
    m: &Manifest,
    file: &str,
    runs: &std::collections::BTreeMap<String, Vec<String>>,
    opts: &RunOptions,
) -> Result<CallOutcome, BenchexecError> {
    let rel = write_subset(execdir, m, file, runs)?;
    let mut sub = m.clone();
    if let Some(d) = sub.definitions.get_mut(file) {
        for (name, rd) in d.rundefinitions.iter_mut() {
            rd.tasks = runs.get(name).map_or(0, Vec::len);
        }
        d.rundefinitions.retain(|_, rd| rd.tasks > 0);
    }
    run_file(execdir, &sub, file, &rel, opts)
}

/// Writes the definition of `runs` (rundefinition -> tasks) of definition
/// `file` to `EXECDIR/definitions/missing/<file>` (what `run-local
/// --only-missing` and `run-vcloud.sh --missing` run); returns its path
/// relative to `execdir`.
pub fn write_subset(
    execdir: &Path,
    m: &Manifest,
    file: &str,
    runs: &std::collections::BTreeMap<String, Vec<String>>,
) -> Result<String, BenchexecError> {
    let def = m
        .definitions
        .get(file)
        .ok_or_else(|| BenchexecError::NoDefinition(file.to_string()))?;
    let rel = format!("definitions/{MISSING_DIR}/{file}");
    let path = execdir.join(&rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(BenchexecError::io(parent, "create"))?;
    }
    std::fs::write(&path, super::definition::render_subset(def, runs))
        .map_err(BenchexecError::io(&path, "write"))?;
    Ok(rel)
}

/// The `--startTime` of a call writing into `out`: the fixed one, unless a
/// result file there already carries it (an earlier attempt: the same names
/// would collide), then none (BenchExec's own clock, so every attempt gets
/// its own file names).
pub fn fresh_start_time(out: &Path, fixed: Option<&str>) -> Option<String> {
    let t = fixed?;
    let stamp = t.replace(' ', "_").replace(':', "-");
    let taken = std::fs::read_dir(out)
        .map(|d| {
            d.filter_map(Result::ok)
                .any(|e| e.file_name().to_string_lossy().contains(&stamp))
        })
        .unwrap_or(false);
    (!taken).then(|| t.to_string())
}

fn run_file(
    execdir: &Path,
    m: &Manifest,
    file: &str,
    def_path: &str,
    opts: &RunOptions,
) -> Result<CallOutcome, BenchexecError> {
    let def = &m.definitions[file];
    let out = execdir.join(&def.results_dir);
    if opts.replace && out.exists() {
        std::fs::remove_dir_all(&out).map_err(BenchexecError::io(&out, "remove"))?;
    }
    let before = result_files(&out);
    std::fs::create_dir_all(&out).map_err(BenchexecError::io(&out, "create"))?;
    let log = out.join("benchexec.log");
    let log_file = std::fs::File::create(&log).map_err(BenchexecError::io(&log, "create"))?;
    let log_err = log_file
        .try_clone()
        .map_err(BenchexecError::io(&log, "open"))?;
    let prepared = execdir.join(&m.prepared);
    let prepared = std::fs::canonicalize(&prepared).map_err(BenchexecError::io(
        &prepared,
        "resolve the prepared directory",
    ))?;

    let mut search = opts.extra_path.clone();
    search.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    // The helpers in EXECDIR/bin/ (visible in the container wherever EXECDIR
    // lives), the hidden directories the runs need mounted (visibility.rs).
    visibility::stage_helpers(execdir, visibility::helpers_of(def.track), &search)?;
    let mut path = vec![execdir.join("bin")];
    path.extend(search);
    let mut read_only = opts.read_only_dirs.clone();
    read_only.extend(visibility::definition_mounts(execdir, def, &path));
    read_only.extend(visibility::env_read_only_dirs()?);
    let read_only = visibility::outermost(read_only);

    let mut argv = vec![
        opts.benchexec.to_string_lossy().into_owned(),
        def_path.to_string(),
    ];
    argv.extend(container_args(
        execdir,
        &prepared,
        opts.container,
        &read_only,
    ));
    argv.extend(
        [
            "--results-per-rundefinition",
            "--maxLogfileSize",
            "-1",
            "-o",
        ]
        .map(String::from),
    );
    argv.push(format!("{}/", out.display()));
    if let Some(n) = opts.jobs {
        argv.extend(["-N".to_string(), n.to_string()]);
    }
    if let Some(t) = fresh_start_time(&out, opts.start_time.as_deref()) {
        argv.extend(["--startTime".to_string(), t]);
    }
    let mut pythonpath = vec![execdir.to_path_buf()];
    pythonpath.extend(std::env::split_paths(
        &std::env::var_os("PYTHONPATH").unwrap_or_default(),
    ));
    let limit = opts
        .timeout
        .unwrap_or_else(|| Duration::from_secs(call_timeout(m, file)));
    let mut call = Supervised::new(argv, limit);
    call.cwd = Some(execdir.to_path_buf());
    call.env = vec![
        (
            "PATH".into(),
            std::env::join_paths(path).map_err(|source| BenchexecError::Environment {
                var: "PATH",
                source,
            })?,
        ),
        (
            "PYTHONPATH".into(),
            std::env::join_paths(pythonpath).map_err(|source| BenchexecError::Environment {
                var: "PYTHONPATH",
                source,
            })?,
        ),
    ];
    // BenchExec's output goes to a file, never a pipe (spec 6.6).
    call.stdout = Sink::File(log_file);
    call.stderr = Sink::File(log_err);
    call.poll = Duration::from_millis(50);
    // The workspace's lock stays held while this call runs (even if we are killed).
    call.inherit_locks = true;
    // BenchExec can leave its tool-info worker behind; the guard removes it
    // even after we were killed (the worker would hold the lock for ever).
    call.guarded = true;
    let finished = process::run(call).map_err(|source| BenchexecError::Start {
        benchexec: opts.benchexec.clone(),
        source,
    })?;
    let (status, timed_out) = (finished.status, finished.timed_out);
    // This call's result files: those that were not there before.
    let results: Vec<PathBuf> = result_files(&out)
        .into_iter()
        .filter(|p| !before.contains(p))
        .collect();
    Ok(CallOutcome {
        definition: file.to_string(),
        exit_code: status.and_then(|s| s.code()),
        timed_out,
        results,
        log,
        elapsed: finished.elapsed,
        visible: [execdir.to_path_buf(), prepared]
            .into_iter()
            .chain(read_only)
            .collect(),
    })
}

/// The definitions of `m` selected by track and division names (all if `None`).
pub fn select<'a>(m: &'a Manifest, track: Option<Track>, division: Option<&str>) -> Vec<&'a str> {
    m.definitions
        .iter()
        .filter(|(_, d)| {
            track.is_none_or(|t| d.track == t) && division.is_none_or(|x| d.division.as_str() == x)
        })
        .map(|(k, _)| k.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_start_time_is_dropped_when_an_earlier_attempt_used_it() {
        let dir = tempfile::tempdir().unwrap();
        let fixed = Some("2025-07-01 12:00:00");
        assert_eq!(fresh_start_time(dir.path(), None), None);
        assert_eq!(
            fresh_start_time(dir.path(), fixed).as_deref(),
            Some("2025-07-01 12:00:00")
        );
        std::fs::write(
            dir.path()
                .join("z3_QF_LIA.2025-07-01_12-00-00.results.z3,0,SingleQuery.xml.bz2"),
            "",
        )
        .unwrap();
        assert_eq!(fresh_start_time(dir.path(), fixed), None);
        assert_eq!(
            fresh_start_time(dir.path(), Some("2025-07-01 13:00:00")).as_deref(),
            Some("2025-07-01 13:00:00")
        );
    }
}
