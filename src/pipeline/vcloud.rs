//! The VerifierCloud as a [`Runner`]: BenchExec's own client
//! (`contrib/vcloud-benchmark.py`) driven by the generated
//! `EXECDIR/run-vcloud.sh`, one supervised call per definition (own session,
//! deadline, group kill), its output kept in `<results_dir>/vcloud-client.log`.
//! The client uploads the tool directory's files the tool-info modules name
//! and writes BenchExec's result files into `<results_dir>/`, where the local
//! runner leaves them; ingestion and everything after it stay the same.

use super::runner::{DefinitionRun, RunStatus, Runner, reason_of};
use crate::benchexec::{Manifest, result_files};
use crate::util::process::{Sink, Supervised};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The log of one definition's client call, in its results directory.
pub const CLIENT_LOG: &str = "vcloud-client.log";

/// BenchExec's VerifierCloud client, one call per definition.
#[derive(Debug, Clone)]
pub struct VcloudBenchExec {
    /// `vcloud-benchmark.py` (BenchExec's `contrib/`), given to
    /// `run-vcloud.sh` as `VCLOUD_BENCHMARK`.
    pub client: PathBuf,
    /// Longest one definition's call may take (the cloud queues runs: the
    /// definition's own bound, `run-vcloud.sh`'s table, is not applied here).
    pub timeout: Duration,
}

impl VcloudBenchExec {
    /// The client `client`, with a week as the bound of one call.
    pub fn new(client: PathBuf) -> VcloudBenchExec {
        VcloudBenchExec {
            client,
            timeout: Duration::from_secs(7 * 24 * 3600),
        }
    }

    /// The runs still missing of definition `file`, which has results:
    /// `runs` (rundefinition -> tasks) written to
    /// `definitions/missing/<file>` and run by `run-vcloud.sh --missing`
    /// into the definition's results directory, next to its results.
    pub fn run_missing(
        &self,
        execdir: &Path,
        manifest: &Manifest,
        file: &str,
        runs: &std::collections::BTreeMap<String, Vec<String>>,
    ) -> DefinitionRun {
        if let Err(reason) = crate::benchexec::write_subset(execdir, manifest, file, runs) {
            return DefinitionRun {
                definition: file.to_string(),
                status: RunStatus::Failed {
                    reason: reason.to_string(),
                },
                log: None,
            };
        }
        let expected = runs.values().filter(|t| !t.is_empty()).count();
        self.call(execdir, manifest, file, Some(expected))
    }

    fn run_one(&self, execdir: &Path, manifest: &Manifest, file: &str) -> DefinitionRun {
        self.call(execdir, manifest, file, None)
    }

    /// One `run-vcloud.sh` call on `file`: whole (`missing: None`), or its
    /// missing runs, `Some(new result files expected)`.
    fn call(
        &self,
        execdir: &Path,
        manifest: &Manifest,
        file: &str,
        missing: Option<usize>,
    ) -> DefinitionRun {
        let failed = |reason: String, log: Option<PathBuf>| DefinitionRun {
            definition: file.to_string(),
            status: RunStatus::Failed { reason },
            log,
        };
        let Some(def) = manifest.definitions.get(file) else {
            return failed(format!("{file}: not in the manifest"), None);
        };
        if matches!(
            def.track,
            crate::model::Track::Parallel | crate::model::Track::Cloud
        ) {
            return failed(
                format!(
                    "{} definitions do not run on the VerifierCloud (no worker offers {} cores and {} MB; \
                     run-vcloud.sh leaves them out): run them on the cloud machines and ingest their CSV \
                     (`smtcomp ingest results.csv`)",
                    def.track, def.limits.cores, def.limits.memory_mb
                ),
                None,
            );
        }
        let out = execdir.join(&def.results_dir);
        if let Err(e) = std::fs::create_dir_all(&out) {
            return failed(format!("{}: cannot create: {e}", out.display()), None);
        }
        let log = out.join(CLIENT_LOG);
        let before = result_files(&out).len();
        let sink = match std::fs::File::create(&log) {
            Ok(f) => f,
            Err(e) => return failed(format!("{}: cannot create: {e}", log.display()), None),
        };
        let stderr = match sink.try_clone() {
            Ok(f) => Sink::File(f),
            Err(e) => return failed(format!("{}: {e}", log.display()), None),
        };
        let mut argv = vec![execdir.join("run-vcloud.sh").display().to_string()];
        if missing.is_some() {
            argv.push("--missing".into());
        }
        argv.push(def.path.clone());
        let mut p = Supervised::new(argv, self.timeout);
        p.cwd = Some(execdir.to_path_buf());
        p.env.push((
            "VCLOUD_BENCHMARK".into(),
            self.client.clone().into_os_string(),
        ));
        p.stdout = Sink::File(sink);
        p.stderr = stderr;
        p.inherit_locks = true;
        let finished = crate::util::process::run(p);
        let expected = missing.unwrap_or(def.rundefinitions.len());
        let got = result_files(&out).len().saturating_sub(before);
        let status = match finished {
            Err(e) => RunStatus::Failed {
                reason: format!("cannot start run-vcloud.sh: {e}"),
            },
            Ok(f) if f.timed_out => RunStatus::TimedOut {
                reason: format!(
                    "the VerifierCloud client ran longer than {} s (see {})",
                    self.timeout.as_secs(),
                    log.display()
                ),
            },
            Ok(f) if f.code() == Some(0) && got == expected => RunStatus::Ran,
            Ok(f) => RunStatus::Failed {
                reason: format!(
                    "the VerifierCloud client {}, {got} of {expected} result file(s) (see {}){}",
                    crate::util::process::exit_text(f.code()),
                    log.display(),
                    last_words(&log)
                        .map(|l| format!("; it said: {l}"))
                        .unwrap_or_default()
                ),
            },
        };
        DefinitionRun {
            definition: file.to_string(),
            status,
            log: Some(log),
        }
    }
}

/// The client's reason from its log (the last 64 KiB): its last `ERROR` or
/// `CRITICAL` line, else its last line that is not our script's own
/// `== ...`/`FAILED` line.
fn last_words(log: &Path) -> Option<String> {
    let text = crate::util::bounded::read_tail(log, 64 << 10)?;
    reason_of(
        text.lines()
            .filter(|l| !l.trim_start().starts_with("==") && !l.trim_start().starts_with("FAILED")),
    )
}

impl Runner for VcloudBenchExec {
    fn check(&self) -> anyhow::Result<()> {
        if !self.client.is_file() {
            anyhow::bail!(
                "{}: BenchExec's VerifierCloud client not found (`[backend] vcloud_benchmark` \
                 in smtcomp.toml or VCLOUD_BENCHMARK: BenchExec's contrib/vcloud-benchmark.py)",
                self.client.display()
            );
        }
        Ok(())
    }

    /// The definitions one after the other: the client is a JVM of its own
    /// and the cloud runs each collection's runs in parallel.
    fn run(&self, execdir: &Path, manifest: &Manifest, definitions: &[&str]) -> Vec<DefinitionRun> {
        definitions
            .iter()
            .map(|f| self.run_one(execdir, manifest, f))
            .collect()
    }
}
