//! Helpers shared by the trace-executor integration tests.
#![allow(dead_code)]

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The executor under test.
pub fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_smtcomp-trace-executor"))
}

/// The scripted mock solver (`src/bin/smtcomp-mock-solver.rs`), a binary of
/// this crate that Cargo builds for the tests.
pub fn mock() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_smtcomp-mock-solver"))
}

/// The outcome of one executor run.
#[derive(Debug)]
pub struct Run {
    /// Everything written to stdout.
    pub stdout: String,
    /// Everything written to stderr (must stay empty).
    pub stderr: String,
    /// Exit code, if it exited.
    pub code: Option<i32>,
    /// Signal, if it was killed.
    pub signal: Option<i32>,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl Run {
    /// Asserts stdout, exit code and an empty stderr.
    pub fn expect(&self, stdout: &str, code: i32) {
        assert_eq!(self.stdout, stdout, "stdout of {self:#?}");
        assert_eq!(self.code, Some(code), "exit code of {self:#?}");
        assert_eq!(self.stderr, "", "stderr must stay empty");
    }
}

/// Runs a command with a hard guard of `limit` (the test fails if exceeded).
pub fn run_cmd(mut cmd: Command, limit: Duration) -> Run {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        out.read_to_end(&mut s).ok();
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        err.read_to_end(&mut s).ok();
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!("executor still running after {limit:?}: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    Run {
        stdout: String::from_utf8_lossy(&t_out.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&t_err.join().unwrap()).into_owned(),
        code: status.code(),
        signal: status.signal(),
        elapsed,
    }
}

/// Runs the executor with `args` in `dir`, guarded by 60 s.
pub fn run_in(dir: &Path, args: &[&str]) -> Run {
    let mut cmd = Command::new(exe());
    cmd.args(args).current_dir(dir);
    run_cmd(cmd, Duration::from_secs(60))
}

/// A temporary directory for one test.
pub fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

/// Writes a file in `dir` and returns its path as a string.
pub fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write fixture");
    path.to_string_lossy().into_owned()
}

/// A benchmark with the header `expected` and the given body.
pub fn bench(dir: &Path, expected: &[&str], body: &str) -> String {
    let mut text = String::new();
    for e in expected {
        text.push_str(e);
        text.push('\n');
    }
    text.push_str("--- BENCHMARK BEGINS HERE ---\n");
    text.push_str(body);
    write(dir, "bench.smt2", text)
}

/// The mock path as a string.
pub fn mock_s() -> String {
    mock().to_string_lossy().into_owned()
}

/// Runs the executor: `opts` (ours), the mock with `mock_args`, then `bench`.
pub fn run_mock(dir: &Path, opts: &[&str], mock_args: &[&str], bench: &str) -> Run {
    let m = mock_s();
    let mut args: Vec<&str> = opts.to_vec();
    args.push(&m);
    args.extend_from_slice(mock_args);
    args.push(bench);
    run_in(dir, &args)
}

/// The command lines the mock logged with `--log`, as `(early, text)`.
pub fn logged(path: &Path) -> Vec<(bool, String)> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| {
            let mut parts = l.splitn(3, '\t');
            let _index = parts.next();
            let early = parts.next() == Some("1");
            (early, parts.next().unwrap_or("").to_string())
        })
        .collect()
}

/// True if a process with this pid exists (and is not a zombie).
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
        Err(_) => false,
    }
}

/// Reads a pid written by the mock.
pub fn read_pid(path: &Path) -> i32 {
    for _ in 0..500 {
        if let Ok(s) = std::fs::read_to_string(path) {
            if let Ok(pid) = s.trim().parse() {
                return pid;
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no pid in {}", path.display());
}

/// The standard body used by many tests (§1.9 of the spec): 3 queries.
pub const BODY: &str = "(set-logic QF_UF)
(declare-fun a () Bool)
(push 1)
(assert a)
(check-sat)
(pop 1)
(check-sat)
(assert (not a))
(check-sat)
(exit)
";
