//! The Slurm backend of [`Runner`]: one job array, each array task runs
//! BenchExec on one chunk of the definitions on its node.
//!
//! A task runs `smtcomp run-local --exec EXECDIR --definition D` for each definition
//! `D` of its chunk, one after the other, so a definition runs on a node exactly
//! as it runs locally (BenchExec does limits and measurement, the call is
//! supervised, the runs are accounted for against the runs manifest) and leaves
//! its result files in `EXECDIR/<results_dir>/`, where ingestion reads them.
//! The execution directory and the `smtcomp` binary must therefore be on a file
//! system the nodes share (on a one-node cluster: trivially).
//!
//! Every batch gets a directory `EXECDIR/slurm/batch-N/` holding the chunks
//! (`chunk-K.txt`, one definition per line), the job script (`job.sh`), the
//! log of each array task (`job-K.log`) and its status file (`status-K.txt`:
//! one line `EXIT-CODE DEFINITION` per definition it ran). After the array
//! ended (polled with `squeue`, bounded by a deadline after which the array is
//! cancelled), a definition ran iff its status line says 0 and its result files
//! are there; otherwise it failed, with `run-local`'s own error line for it or,
//! when the task never reached it, the Slurm state, reason and exit code of the
//! task (`scontrol show job`) and the last line of its log.

use super::runner::{DefinitionRun, RunStatus, Runner, missing_helpers, on_path};
use crate::benchexec::{Manifest, RunOptions};
use crate::util::escape::shell;
use crate::util::process::{self, Supervised};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The Slurm commands (names looked up on PATH, or paths).
#[derive(Debug, Clone)]
pub struct SlurmCommands {
    /// `sbatch`.
    pub sbatch: PathBuf,
    /// `squeue`.
    pub squeue: PathBuf,
    /// `scontrol`.
    pub scontrol: PathBuf,
    /// `scancel`.
    pub scancel: PathBuf,
}

impl Default for SlurmCommands {
    fn default() -> Self {
        SlurmCommands {
            sbatch: "sbatch".into(),
            squeue: "squeue".into(),
            scontrol: "scontrol".into(),
            scancel: "scancel".into(),
        }
    }
}

/// BenchExec on Slurm: a job array over chunks of the definitions.
#[derive(Debug, Clone)]
pub struct SlurmBenchExec {
    /// The `smtcomp` binary the jobs run (`run-local`); on a file system the
    /// nodes share. Its directory also holds the helper binaries.
    pub smtcomp: PathBuf,
    /// How each job calls BenchExec (`benchexec`, `-N`, container mode, start
    /// time; `extra_path` and `timeout` are `run-local`'s own).
    pub options: RunOptions,
    /// Definitions per array task (at least 1).
    pub definitions_per_job: usize,
    /// At most this many array tasks at once (`--array=...%N`).
    pub max_parallel: Option<usize>,
    /// `--partition`.
    pub partition: Option<String>,
    /// `--cpus-per-task` (default: BenchExec's `-N`, else 1).
    pub cpus_per_job: Option<u32>,
    /// `--mem` in MB (default: the cluster's default).
    pub mem_per_job_mb: Option<u64>,
    /// Further `sbatch` arguments, verbatim.
    pub sbatch_args: Vec<String>,
    /// How long to wait for the whole array (default: every definition's call
    /// time limit one after the other, plus 10 minutes); then it is cancelled.
    pub timeout: Option<Duration>,
    /// How often `squeue` is asked.
    pub poll: Duration,
    /// The Slurm commands.
    pub commands: SlurmCommands,
}

impl SlurmBenchExec {
    /// Defaults: one definition per job, 2 s polling, the commands on PATH.
    pub fn new(smtcomp: PathBuf, options: RunOptions) -> SlurmBenchExec {
        SlurmBenchExec {
            smtcomp,
            options,
            definitions_per_job: 1,
            max_parallel: None,
            partition: None,
            cpus_per_job: None,
            mem_per_job_mb: None,
            sbatch_args: Vec::new(),
            timeout: None,
            poll: Duration::from_secs(2),
            commands: SlurmCommands::default(),
        }
    }
}

/// One array task as Slurm reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskState {
    /// `JobState` (`COMPLETED`, `FAILED`, `CANCELLED`, `TIMEOUT`, ...).
    pub state: String,
    /// `Reason` (`None`, `NonZeroExitCode`, `ReqNodeNotAvail`, ...).
    pub reason: String,
    /// `ExitCode` (`code:signal`).
    pub exit_code: String,
    /// `NodeList`.
    pub node: String,
}

/// The array tasks of `scontrol -o show job ID` output: task id -> state
/// (lines without an `ArrayTaskId` are ignored).
pub fn parse_scontrol(text: &str) -> BTreeMap<usize, TaskState> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let mut task = None;
        let mut st = TaskState::default();
        for field in line.split_whitespace() {
            let Some((k, v)) = field.split_once('=') else {
                continue;
            };
            match k {
                "ArrayTaskId" => task = v.parse::<usize>().ok(),
                "JobState" => st.state = v.to_string(),
                "Reason" => st.reason = v.to_string(),
                "ExitCode" => st.exit_code = v.to_string(),
                "NodeList" => st.node = v.to_string(),
                _ => {}
            }
        }
        if let Some(t) = task {
            out.insert(t, st);
        }
    }
    out
}

/// The job id of `sbatch --parsable` output (`12345` or `12345;cluster`).
pub fn parse_job_id(stdout: &str) -> Option<u64> {
    stdout.trim().split(';').next()?.trim().parse().ok()
}

/// The status file of an array task: definition -> exit code of its
/// `run-local` call (malformed lines ignored).
pub fn parse_status(text: &str) -> BTreeMap<String, i32> {
    text.lines()
        .filter_map(|l| {
            let (code, def) = l.split_once(' ')?;
            Some((def.to_string(), code.parse().ok()?))
        })
        .collect()
}

/// `run-local`'s first error line about `definition` in a job log.
fn error_line(log: &str, definition: &str) -> Option<String> {
    log.lines()
        .find(|l| l.starts_with("error: ") && l.contains(definition))
        .map(|l| l.trim_start_matches("error: ").chars().take(400).collect())
}

fn last_line(text: &str) -> Option<String> {
    text.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| l.chars().take(300).collect())
}

/// Reads at most the last 1 MB of a log (a job's log is untrusted output).
fn read_tail(p: &Path) -> String {
    crate::util::bounded::read_tail(p, 1 << 20).unwrap_or_default()
}

fn result_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| {
                    e.file_name()
                        .to_str()
                        .is_some_and(|n| n.contains(".results.") && n.ends_with(".xml.bz2"))
                })
                .count()
        })
        .unwrap_or(0)
}

fn executable(p: &Path) -> bool {
    if p.components().count() > 1 {
        p.is_file()
    } else {
        on_path(&p.to_string_lossy())
    }
}

/// The job name of our arrays (`sbatch --job-name`).
pub const JOB_NAME: &str = "smtcomp-benchexec";

/// The Slurm job arrays of ours (by [`JOB_NAME`]) still queued or running
/// with `execdir` as their working directory: their ids, sorted. `None` when
/// Slurm is not installed here or does not answer (nothing is known then).
pub fn live_jobs(commands: &SlurmCommands, execdir: &Path) -> Option<Vec<u64>> {
    if !executable(&commands.squeue) {
        return None;
    }
    // Bounded: `status` asks it, and a controller that is down makes
    // squeue retry for its MessageTimeout.
    let out = slurm_within(
        &commands.squeue,
        &[
            "-h".into(),
            "-n".into(),
            JOB_NAME.into(),
            "-o".into(),
            "%F %Z".into(),
        ],
        Duration::from_secs(15),
    )
    .ok()?;
    Some(jobs_in(&out, execdir))
}

/// The job ids of `squeue -o "%F %Z"` lines whose directory is `execdir`.
fn jobs_in(squeue: &str, execdir: &Path) -> Vec<u64> {
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let want = canonical(execdir);
    let mut ids: Vec<u64> = squeue
        .lines()
        .filter_map(|l| {
            let (id, dir) = l.trim().split_once(' ')?;
            (canonical(Path::new(dir.trim())) == want).then(|| id.parse().ok())?
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// How long a cancelled array is polled until its tasks have left the queue:
/// Slurm's default `KillWait` (30 s between SIGTERM and SIGKILL) with room for
/// the node to report back.
pub const CANCEL_GRACE: Duration = Duration::from_secs(120);

/// Why a Slurm command (or the batch directory of an array) failed.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    /// The command could not be started.
    #[error(transparent)]
    Start(#[from] process::StartError),
    /// It failed or ran out of time.
    #[error("`{command}` {status}: {message}")]
    Failed {
        /// The command line.
        command: String,
        /// `timed out`, or its exit status in words.
        status: String,
        /// Its last line of stderr (else of stdout).
        message: String,
    },
    /// A file of the batch directory could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}

fn write_error(path: &Path) -> impl FnOnce(std::io::Error) -> SlurmError + '_ {
    move |source| SlurmError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Runs a Slurm command, its output captured, one minute at most.
fn slurm(cmd: &Path, args: &[String]) -> Result<String, SlurmError> {
    slurm_within(cmd, args, Duration::from_secs(60))
}

/// [`slurm`] bounded by `limit`.
fn slurm_within(cmd: &Path, args: &[String], limit: Duration) -> Result<String, SlurmError> {
    let mut argv = vec![cmd.to_string_lossy().into_owned()];
    argv.extend(args.iter().cloned());
    let f = process::run(Supervised::new(argv.clone(), limit))?;
    let out = String::from_utf8_lossy(&f.stdout).into_owned();
    if f.code() == Some(0) {
        Ok(out)
    } else {
        let err = String::from_utf8_lossy(&f.stderr);
        Err(SlurmError::Failed {
            command: argv.join(" "),
            status: if f.timed_out {
                "timed out".to_string()
            } else {
                process::exit_text(f.code())
            },
            message: last_line(&err)
                .or_else(|| last_line(&out))
                .unwrap_or_default()
                .to_string(),
        })
    }
}

impl SlurmBenchExec {
    /// The arguments of `smtcomp run-local` after `--exec EXECDIR --definition D`.
    fn run_local_args(&self) -> Vec<String> {
        let o = &self.options;
        let mut v = vec![
            "--benchexec".to_string(),
            o.benchexec.to_string_lossy().into_owned(),
        ];
        if let Some(n) = o.jobs {
            v.extend(["--jobs".to_string(), n.to_string()]);
        }
        if !o.container {
            v.push("--no-container".into());
        }
        if let Some(t) = &o.start_time {
            v.extend(["--start-time".to_string(), t.clone()]);
        }
        v
    }

    /// The job script of a batch (every word shell-escaped).
    pub fn job_script(&self, execdir: &Path, batch: &Path) -> String {
        let args: Vec<String> = self.run_local_args().iter().map(|a| shell(a)).collect();
        let mut path = vec![];
        path.extend(self.options.extra_path.iter().cloned());
        if let Some(dir) = self.smtcomp.parent() {
            path.push(dir.to_path_buf());
        }
        let path: Vec<String> = path.iter().map(|p| shell(&p.to_string_lossy())).collect();
        format!(
            "#!/bin/sh\n\
             # Generated by smtcomp (Slurm backend): array task K runs the definitions of\n\
             # chunk-K.txt with `smtcomp run-local`, one after the other, and records\n\
             # `EXIT-CODE DEFINITION` per definition in status-K.txt.\n\
             BATCH={batch}\n\
             EXECDIR={execdir}\n\
             SMTCOMP={smtcomp}\n\
             PATH={path}${{PATH:+:$PATH}}\n\
             export PATH\n\
             K=${{SLURM_ARRAY_TASK_ID:?not an array task}}\n\
             status=\"$BATCH/status-$K.txt\"\n\
             : > \"$status\" || exit 2\n\
             echo \"smtcomp slurm: array task $K on $(hostname)\"\n\
             rc=0\n\
             while IFS= read -r d; do\n\
             \x20 [ -n \"$d\" ] || continue\n\
             \x20 echo \"smtcomp slurm: $d\"\n\
             \x20 \"$SMTCOMP\" run-local --exec \"$EXECDIR\" --definition \"$d\" {args}\n\
             \x20 c=$?\n\
             \x20 echo \"$c $d\" >> \"$status\"\n\
             \x20 [ \"$c\" -eq 0 ] || rc=1\n\
             done < \"$BATCH/chunk-$K.txt\"\n\
             exit $rc\n",
            batch = shell(&batch.to_string_lossy()),
            execdir = shell(&execdir.to_string_lossy()),
            smtcomp = shell(&self.smtcomp.to_string_lossy()),
            path = path.join(":"),
            args = args.join(" "),
        )
    }

    /// The `sbatch` arguments for `chunks` array tasks (before the script).
    fn sbatch_args(
        &self,
        execdir: &Path,
        batch: &Path,
        chunks: usize,
        minutes: u64,
    ) -> Vec<String> {
        let mut array = format!("--array=0-{}", chunks - 1);
        if let Some(p) = self.max_parallel {
            array.push_str(&format!("%{p}"));
        }
        let cpus = self
            .cpus_per_job
            .unwrap_or_else(|| self.options.jobs.unwrap_or(1).max(1));
        let mut v = vec![
            "--parsable".to_string(),
            array,
            format!("--job-name={JOB_NAME}"),
            format!("--output={}/job-%a.log", batch.display()),
            format!("--chdir={}", execdir.display()),
            "--ntasks=1".to_string(),
            format!("--cpus-per-task={cpus}"),
            format!("--time={minutes}"),
        ];
        if let Some(p) = &self.partition {
            v.push(format!("--partition={p}"));
        }
        if let Some(m) = self.mem_per_job_mb {
            v.push(format!("--mem={m}"));
        }
        v.extend(self.sbatch_args.iter().cloned());
        v.push(batch.join("job.sh").display().to_string());
        v
    }

    /// Writes the batch directory; returns it and the chunks.
    fn prepare(
        &self,
        execdir: &Path,
        definitions: &[&str],
    ) -> Result<(PathBuf, Vec<Vec<String>>), SlurmError> {
        let root = execdir.join("slurm");
        std::fs::create_dir_all(&root).map_err(write_error(&root))?;
        let mut n = 1;
        let batch = loop {
            let b = root.join(format!("batch-{n}"));
            match std::fs::create_dir(&b) {
                Ok(()) => break b,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
                Err(e) => return Err(write_error(&b)(e)),
            }
        };
        let chunks: Vec<Vec<String>> = definitions
            .chunks(self.definitions_per_job.max(1))
            .map(|c| c.iter().map(|d| d.to_string()).collect())
            .collect();
        for (k, chunk) in chunks.iter().enumerate() {
            let p = batch.join(format!("chunk-{k}.txt"));
            std::fs::write(&p, chunk.join("\n") + "\n").map_err(write_error(&p))?;
        }
        let script = batch.join("job.sh");
        std::fs::write(&script, self.job_script(execdir, &batch)).map_err(write_error(&script))?;
        Ok((batch, chunks))
    }

    /// Polls `squeue` until no task of `job` is left or `deadline` passes;
    /// returns the last state and reason seen per task, and whether the
    /// deadline passed. The array is then cancelled and polled until its
    /// tasks have left Slurm's queue (`COMPLETING` while their processes are
    /// killed), at most [`CANCEL_GRACE`], so that `scontrol` then reports
    /// their final state and the status files hold everything the tasks wrote.
    fn wait(
        &self,
        job: u64,
        deadline: Instant,
        beat: &crate::util::parallel::Heartbeat,
        tasks: usize,
    ) -> (BTreeMap<usize, (String, String)>, bool) {
        let mut seen = BTreeMap::new();
        let mut errors = 0;
        let mut cancelled: Option<Instant> = None;
        loop {
            match slurm(
                &self.commands.squeue,
                &[
                    "-h".into(),
                    "-r".into(),
                    "-j".into(),
                    job.to_string(),
                    "-o".into(),
                    "%K %T %r".into(),
                ],
            ) {
                Ok(out) => {
                    errors = 0;
                    let mut left = 0;
                    for l in out.lines() {
                        let w: Vec<&str> = l.split_whitespace().collect();
                        if let [task, state, reason @ ..] = w.as_slice()
                            && let Ok(t) = task.parse::<usize>()
                        {
                            left += 1;
                            seen.insert(t, (state.to_string(), reason.join(" ")));
                        }
                    }
                    if left == 0 {
                        return (seen, cancelled.is_some());
                    }
                    beat.set(tasks.saturating_sub(left));
                }
                // squeue forgets a finished job after MinJobAge: "Invalid job id".
                Err(SlurmError::Failed { message, .. }) if message.contains("Invalid job id") => {
                    return (seen, cancelled.is_some());
                }
                Err(_) => {
                    errors += 1;
                    if errors >= 30 {
                        return (seen, cancelled.is_some());
                    }
                }
            }
            match cancelled {
                None if Instant::now() >= deadline => {
                    let _ = slurm(&self.commands.scancel, &[job.to_string()]);
                    cancelled = Some(Instant::now());
                }
                Some(at) if at.elapsed() >= CANCEL_GRACE => return (seen, true),
                _ => {}
            }
            std::thread::sleep(self.poll);
        }
    }

    fn timeout_for(&self, manifest: &Manifest, definitions: &[&str]) -> Duration {
        self.timeout.unwrap_or_else(|| {
            let total: u64 = definitions
                .iter()
                .filter(|d| manifest.definitions.contains_key(**d))
                .map(|d| crate::benchexec::call_timeout(manifest, d))
                .sum();
            Duration::from_secs(total + 600)
        })
    }
}

impl Runner for SlurmBenchExec {
    fn check(&self) -> anyhow::Result<()> {
        let c = &self.commands;
        for cmd in [&c.sbatch, &c.squeue, &c.scontrol, &c.scancel] {
            if !executable(cmd) {
                anyhow::bail!(
                    "{}: Slurm command not found (Debian: slurm-client; a one-node cluster: scripts/slurm-local start)",
                    cmd.display()
                );
            }
        }
        if !self.smtcomp.is_file() {
            anyhow::bail!(
                "{}: the smtcomp binary the Slurm jobs run does not exist",
                self.smtcomp.display()
            );
        }
        if !executable(&self.options.benchexec) {
            anyhow::bail!(
                "{}",
                super::runner::benchexec_not_found(&self.options.benchexec)
            );
        }
        let mut dirs = self.options.extra_path.clone();
        dirs.extend(self.smtcomp.parent().map(Path::to_path_buf));
        let missing = missing_helpers(&dirs);
        if !missing.is_empty() {
            anyhow::bail!(
                "{} not next to {}: build the whole workspace (`cargo build --release --workspace`)",
                missing.join(", "),
                self.smtcomp.display()
            );
        }
        // The controller answers (the cheapest question Slurm has).
        slurm(&c.squeue, &["-h".into(), "-o".into(), "%i".into()]).map_err(|e| {
            anyhow::anyhow!(
                "Slurm does not answer: {e} (a one-node cluster: scripts/slurm-local start)"
            )
        })?;
        Ok(())
    }

    fn run(&self, execdir: &Path, manifest: &Manifest, definitions: &[&str]) -> Vec<DefinitionRun> {
        let fail_all = |reason: String| -> Vec<DefinitionRun> {
            definitions
                .iter()
                .map(|d| DefinitionRun {
                    definition: d.to_string(),
                    log: None,
                    status: RunStatus::Failed {
                        reason: reason.clone(),
                    },
                })
                .collect()
        };
        if definitions.is_empty() {
            return Vec::new();
        }
        // An array of an earlier call still working here (its `smtcomp` was
        // killed without cancelling it) would write results beside ours.
        if let Some(jobs) = live_jobs(&self.commands, execdir)
            && !jobs.is_empty()
        {
            let ids: Vec<String> = jobs.iter().map(u64::to_string).collect();
            return fail_all(format!(
                "Slurm job array {} still works in {} (started by an earlier run that was stopped without cancelling it): wait for it to end (`squeue -j {}`) or cancel it (`scancel {}`), then resume",
                ids.join(", "),
                execdir.display(),
                ids.join(","),
                ids.join(" ")
            ));
        }
        let (batch, chunks) = match self.prepare(execdir, definitions) {
            Ok(x) => x,
            Err(e) => return fail_all(format!("Slurm batch not written: {e}")),
        };
        // Each task's Slurm time limit: its definitions' call limits in a row.
        let minutes = chunks
            .iter()
            .map(|c| {
                let refs: Vec<&str> = c.iter().map(String::as_str).collect();
                self.timeout_for(manifest, &refs).as_secs()
            })
            .max()
            .unwrap_or(600)
            .div_ceil(60);
        let args = self.sbatch_args(execdir, &batch, chunks.len(), minutes);
        let job = match slurm(&self.commands.sbatch, &args).map(|o| (parse_job_id(&o), o)) {
            Ok((Some(id), _)) => id,
            Ok((None, out)) => {
                return fail_all(format!(
                    "sbatch printed no job id: {}",
                    last_line(&out).unwrap_or_default()
                ));
            }
            Err(e) => return fail_all(format!("Slurm job array not submitted: {e}")),
        };
        // An interrupt of ours cancels the array (its tasks' run-local stop their BenchExec).
        let scancel = self.commands.scancel.clone();
        let _cancel = crate::util::interrupt::on_interrupt(
            &format!("Slurm job array {job} (scancel)"),
            move || {
                let _ = std::process::Command::new(&scancel)
                    .arg(job.to_string())
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .status();
            },
        );
        let deadline = Instant::now() + self.timeout_for(manifest, definitions);
        let beat = crate::util::parallel::Heartbeat::on_stderr(
            &format!("Slurm job array {job}: tasks"),
            chunks.len(),
        );
        let (seen, timed_out) = self.wait(job, deadline, &beat, chunks.len());
        drop(beat);
        let states = slurm(
            &self.commands.scontrol,
            &["-o".into(), "show".into(), "job".into(), job.to_string()],
        )
        .map(|o| parse_scontrol(&o))
        .unwrap_or_default();

        let mut out = Vec::with_capacity(definitions.len());
        for (k, chunk) in chunks.iter().enumerate() {
            let log_path = batch.join(format!("job-{k}.log"));
            let log = read_tail(&log_path);
            let status = parse_status(&read_tail(&batch.join(format!("status-{k}.txt"))));
            let slurm_state = match (states.get(&k), seen.get(&k)) {
                (Some(s), _) => format!(
                    "Slurm job {job}_{k}{} {} (reason {}, exit code {})",
                    if s.node.is_empty() || s.node == "(null)" {
                        String::new()
                    } else {
                        format!(" on {}", s.node)
                    },
                    s.state,
                    s.reason,
                    s.exit_code
                ),
                (None, Some((state, reason))) => {
                    format!("Slurm job {job}_{k} last seen {state} (reason {reason})")
                }
                (None, None) => format!("Slurm job {job}_{k}: state unknown"),
            };
            for d in chunk {
                let status = match status.get(d) {
                    Some(0) => {
                        let expected = manifest
                            .definitions
                            .get(d)
                            .map_or(0, |def| def.rundefinitions.len());
                        let dir = manifest
                            .definitions
                            .get(d)
                            .map(|def| execdir.join(&def.results_dir));
                        let got = dir.as_deref().map_or(0, result_files);
                        if expected > 0 && got == expected {
                            RunStatus::Ran
                        } else {
                            RunStatus::Failed {
                                reason: format!(
                                    "run-local succeeded in {slurm_state} but {got} of {expected} result files are in {} (a file system the nodes do not share?)",
                                    dir.map(|p| p.display().to_string()).unwrap_or_default()
                                ),
                            }
                        }
                    }
                    // Killed by a signal after the deadline: the cancel did it.
                    Some(&code) if timed_out && code > 128 => RunStatus::TimedOut {
                        reason: format!(
                            "deadline passed, array cancelled; run-local killed by signal {} in {slurm_state} (log {})",
                            code - 128,
                            log_path.display()
                        ),
                    },
                    Some(code) => RunStatus::Failed {
                        reason: format!(
                            "run-local exit {code} in {slurm_state}: {} (log {})",
                            error_line(&log, d).unwrap_or_else(|| "no error line".into()),
                            log_path.display()
                        ),
                    },
                    None => {
                        let reason = format!(
                            "not run: {slurm_state}; log {}{}",
                            log_path.display(),
                            last_line(&log)
                                .map(|l| format!(": {l}"))
                                .unwrap_or_else(|| " (empty or missing)".into())
                        );
                        if timed_out {
                            RunStatus::TimedOut {
                                reason: format!("deadline passed, array cancelled; {reason}"),
                            }
                        } else {
                            RunStatus::Failed { reason }
                        }
                    }
                };
                // Each job's run-local leaves BenchExec's own log where the
                // local runner does.
                let log = manifest
                    .definitions
                    .get(d)
                    .map(|def| execdir.join(&def.results_dir).join("benchexec.log"))
                    .filter(|l| l.is_file());
                out.push(DefinitionRun {
                    definition: d.clone(),
                    status,
                    log,
                });
            }
        }
        out
    }
}
