//! Supervised child processes: one place that starts a program in its own
//! session (so it and everything it starts form one process group), feeds its
//! stdin, captures its output up to a cap (or sends it to a file), kills the
//! whole group at a deadline, and kills what is left of the group when the
//! program has ended (orphans that keep pipes open or keep running).
//!
//! Used by the local BenchExec runner, the validators, the scrambler and the
//! trace-executor replay of `test-solver`. (The helper binaries BenchExec runs,
//! the trace executor and the proof wrapper, keep their own supervision: they
//! depend on nothing of this crate.)

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Most bytes kept of each captured stream by default (the rest is read and dropped).
pub const MAX_CAPTURE: usize = 8 << 20;

/// Where a child's output stream goes.
#[derive(Debug)]
pub enum Sink {
    /// Captured into memory, at most `cap` bytes kept.
    Capture {
        /// Bytes kept.
        cap: usize,
    },
    /// Written to this file.
    File(File),
    /// Discarded.
    Null,
}

impl Sink {
    /// Capture with the default cap ([`MAX_CAPTURE`]).
    pub fn capture() -> Sink {
        Sink::Capture { cap: MAX_CAPTURE }
    }
}

/// Where a child's stdin comes from.
#[derive(Debug)]
pub enum Source {
    /// `/dev/null`.
    Null,
    /// These bytes (written from a thread; a child that exits without reading is fine).
    Bytes(Vec<u8>),
    /// This file.
    File(File),
}

/// A program to run under supervision.
#[derive(Debug)]
pub struct Supervised {
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Working directory (`None`: ours).
    pub cwd: Option<PathBuf>,
    /// Environment variables to set (on top of ours).
    pub env: Vec<(String, std::ffi::OsString)>,
    /// Stdin.
    pub stdin: Source,
    /// Stdout.
    pub stdout: Sink,
    /// Stderr.
    pub stderr: Sink,
    /// Wall-clock deadline after which the whole process group is killed.
    pub deadline: Duration,
    /// How often to look whether the child ended.
    pub poll: Duration,
    /// Whether the child inherits this process's directory locks
    /// ([`super::dirlock`]): a BenchExec call does, so that the lock stays
    /// held while it runs, even after we were killed.
    pub inherit_locks: bool,
    /// Whether the program runs under the guard ([`super::guard`]), which
    /// kills what is left of its group when it ends even if we were killed
    /// (only in the `smtcomp` binary; elsewhere it runs unguarded).
    pub guarded: bool,
}

impl Supervised {
    /// `argv` with stdin from `/dev/null`, both streams captured, the given deadline.
    pub fn new(argv: Vec<String>, deadline: Duration) -> Supervised {
        Supervised {
            argv,
            cwd: None,
            env: Vec::new(),
            stdin: Source::Null,
            stdout: Sink::capture(),
            stderr: Sink::capture(),
            deadline,
            poll: Duration::from_millis(5),
            inherit_locks: false,
            guarded: false,
        }
    }
}

/// How a supervised program ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    /// Its exit status (`None` if waiting failed).
    pub status: Option<ExitStatus>,
    /// Whether the deadline killed it.
    pub timed_out: bool,
    /// Captured stdout (empty unless [`Sink::Capture`]).
    pub stdout: Vec<u8>,
    /// Captured stderr (empty unless [`Sink::Capture`]).
    pub stderr: Vec<u8>,
    /// Wall-clock time until it ended or was killed.
    pub elapsed: Duration,
}

/// `exit code N`, or `no exit code (killed)`: never Rust's `Some(N)`.
pub fn exit_text(code: Option<i32>) -> String {
    match code {
        Some(c) => format!("exit code {c}"),
        None => "no exit code (killed)".into(),
    }
}

impl Finished {
    /// Exit code, `None` when killed (by a signal or the deadline).
    pub fn code(&self) -> Option<i32> {
        if self.timed_out {
            None
        } else {
            self.status.and_then(|s| s.code())
        }
    }
}

fn drain(mut r: impl Read, cap: usize) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
    kept
}

fn stdio(sink: &mut Sink) -> std::io::Result<(Stdio, Option<usize>)> {
    Ok(match sink {
        Sink::Capture { cap } => (Stdio::piped(), Some(*cap)),
        Sink::File(f) => (Stdio::from(f.try_clone()?), None),
        Sink::Null => (Stdio::null(), None),
    })
}

fn kill_group(pgid: libc::pid_t) {
    // SAFETY: kill(2) on the process group we created; no memory preconditions.
    unsafe { libc::kill(-pgid, libc::SIGKILL) };
}

/// `program first-argument` (file names only), for messages.
fn describe(argv: &[String]) -> String {
    let name = |a: &String| {
        std::path::Path::new(a)
            .file_name()
            .map_or(a.clone(), |n| n.to_string_lossy().into_owned())
    };
    argv.iter().take(2).map(name).collect::<Vec<_>>().join(" ")
}

/// Whether `prog` names an executable file: a path, or a name found on the
/// `PATH` the child gets (`env`'s, else ours); a relative path from `cwd`.
fn runnable(
    prog: &str,
    cwd: Option<&std::path::Path>,
    env: &[(String, std::ffi::OsString)],
) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let exec = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if prog.contains('/') {
        let p = std::path::Path::new(prog);
        return match cwd {
            Some(d) if p.is_relative() => exec(&d.join(p)),
            _ => exec(p),
        };
    }
    let path = env
        .iter()
        .rev()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone())
        .or_else(|| std::env::var_os("PATH"))
        .unwrap_or_default();
    std::env::split_paths(&path).any(|d| exec(&d.join(prog)))
}

/// Why a supervised program was not started.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// No program given.
    #[error("empty command")]
    Empty,
    /// An interrupt arrived before it.
    #[error("{program}: not started: interrupted by {signal}")]
    Interrupted {
        /// The program.
        program: String,
        /// The signal's name (`SIGINT`).
        signal: String,
    },
    /// Its standard output or error could not be set up.
    #[error("{program}: {stream}: {source}")]
    Stdio {
        /// The program.
        program: String,
        /// `stdout` or `stderr`.
        stream: &'static str,
        /// The system's error.
        source: std::io::Error,
    },
    /// The system could not start it (not found, not executable, ...).
    #[error("cannot run {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The system's error.
        source: std::io::Error,
    },
}

/// Runs `p` to its end or its deadline. An error means it could not be started
/// (it names the program and the reason).
pub fn run(mut p: Supervised) -> Result<Finished, StartError> {
    let Some((prog, args)) = p.argv.split_first() else {
        return Err(StartError::Empty);
    };
    if let Some(sig) = super::interrupt::interrupted() {
        return Err(StartError::Interrupted {
            program: prog.clone(),
            signal: super::interrupt::signal_name(sig),
        });
    }
    if p.guarded && !runnable(prog, p.cwd.as_deref(), &p.env) {
        // What spawning it directly would say (the guard would only log it).
        return Err(StartError::Spawn {
            program: prog.clone(),
            source: std::io::Error::from_raw_os_error(libc::ENOENT),
        });
    }
    let mut cmd = match p.guarded {
        true => super::guard::command(prog, args),
        false => None,
    }
    .unwrap_or_else(|| {
        let mut c = Command::new(prog);
        c.args(args);
        c
    });
    if let Some(dir) = &p.cwd {
        cmd.current_dir(dir);
    }
    for (k, v) in &p.env {
        cmd.env(k, v);
    }
    let stdio_error = |stream| {
        move |source| StartError::Stdio {
            program: prog.clone(),
            stream,
            source,
        }
    };
    let (out, out_cap) = stdio(&mut p.stdout).map_err(stdio_error("stdout"))?;
    let (err, err_cap) = stdio(&mut p.stderr).map_err(stdio_error("stderr"))?;
    let input = match std::mem::replace(&mut p.stdin, Source::Null) {
        Source::Null => {
            cmd.stdin(Stdio::null());
            None
        }
        Source::File(f) => {
            cmd.stdin(Stdio::from(f));
            None
        }
        Source::Bytes(b) => {
            cmd.stdin(Stdio::piped());
            Some(b)
        }
    };
    cmd.stdout(out).stderr(err);
    // The locks to hand down, read before the fork (no allocation in the child).
    let lock_fds = if p.inherit_locks {
        super::dirlock::held_fds()
    } else {
        Vec::new()
    };
    // SAFETY: setsid and fcntl are async-signal-safe and touch no memory of the
    // parent; `lock_fds` was allocated before the fork.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            for &fd in &lock_fds {
                libc::fcntl(fd, libc::F_SETFD, 0);
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|source| StartError::Spawn {
        program: prog.clone(),
        source,
    })?;
    let pgid = child.id() as libc::pid_t;
    // An interrupt of ours reaches the child's group too (it has its own session).
    let _group = super::interrupt::register(pgid, &describe(&p.argv));
    let mut pipe_in = child.stdin.take();
    let out = child.stdout.take();
    let err = child.stderr.take();
    let (stdout, stderr, status, timed_out, elapsed) = std::thread::scope(|s| {
        if let (Some(mut pipe), Some(data)) = (pipe_in.take(), input) {
            s.spawn(move || {
                let _ = pipe.write_all(&data);
            });
        }
        let o = s.spawn(move || match (out, out_cap) {
            (Some(r), Some(cap)) => drain(r, cap),
            _ => Vec::new(),
        });
        let e = s.spawn(move || match (err, err_cap) {
            (Some(r), Some(cap)) => drain(r, cap),
            _ => Vec::new(),
        });
        let mut timed_out = false;
        let status = loop {
            match child.try_wait() {
                Ok(Some(st)) => break Some(st),
                Ok(None) if start.elapsed() >= p.deadline => {
                    timed_out = true;
                    kill_group(pgid);
                    break child.wait().ok();
                }
                Ok(None) => std::thread::sleep(p.poll),
                Err(_) => {
                    kill_group(pgid);
                    break None;
                }
            }
        };
        let elapsed = start.elapsed();
        // Descendants that outlived the program would keep the pipes open.
        kill_group(pgid);
        (
            o.join().unwrap_or_default(),
            e.join().unwrap_or_default(),
            status,
            timed_out,
            elapsed,
        )
    });
    Ok(Finished {
        status,
        timed_out,
        stdout,
        stderr,
        elapsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    #[test]
    fn deadline_kills_the_group_and_its_children() {
        // The child's own child holds stdout open: without the group kill the
        // capture would wait for the 30 s sleep.
        let f = run(Supervised::new(
            sh("sleep 30 & sleep 30"),
            Duration::from_millis(200),
        ))
        .unwrap();
        assert!(f.timed_out);
        assert_eq!(f.code(), None);
    }

    #[test]
    fn orphan_holding_the_pipe_is_killed_after_the_program_ends() {
        let f = run(Supervised::new(
            sh("(sleep 30; echo late) & echo early"),
            Duration::from_secs(60),
        ))
        .unwrap();
        assert!(!f.timed_out);
        assert_eq!(f.code(), Some(0));
        assert_eq!(f.stdout, b"early\n");
    }

    #[test]
    fn stdin_bytes_capture_cap_and_exit_code() {
        let mut p = Supervised::new(sh("cat; exit 3"), Duration::from_secs(10));
        p.stdin = Source::Bytes(b"hello world".to_vec());
        p.stdout = Sink::Capture { cap: 5 };
        let f = run(p).unwrap();
        assert_eq!((f.code(), f.stdout.as_slice()), (Some(3), &b"hello"[..]));
    }

    #[test]
    fn output_to_file_and_missing_program() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let mut p = Supervised::new(sh("echo to-file"), Duration::from_secs(10));
        p.stdout = Sink::File(File::create(&path).unwrap());
        let f = run(p).unwrap();
        assert!(f.stdout.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "to-file\n");
        let e = run(Supervised::new(
            vec!["/nonexistent/x".into()],
            Duration::from_secs(1),
        ))
        .unwrap_err();
        assert!(
            matches!(&e, StartError::Spawn { program, source }
                if program == "/nonexistent/x" && source.kind() == std::io::ErrorKind::NotFound),
            "{e}"
        );
        assert!(
            e.to_string()
                .starts_with("cannot run /nonexistent/x: No such file"),
            "{e}"
        );
        assert!(matches!(
            run(Supervised::new(vec![], Duration::from_secs(1))),
            Err(StartError::Empty)
        ));
    }

    #[test]
    fn a_benchexec_like_child_keeps_the_lock_after_the_owner_let_go() {
        let d = tempfile::tempdir().unwrap();
        let lock = super::super::dirlock::acquire(d.path(), ".lock", "owner").unwrap();
        lock.hand_down();
        // A supervised child that inherits the locks (as BenchExec calls do).
        let mut p = Supervised::new(
            vec!["sleep".into(), "2".into()],
            std::time::Duration::from_secs(10),
        );
        p.inherit_locks = true;
        let child = std::thread::spawn(move || run(p));
        std::thread::sleep(std::time::Duration::from_millis(500));
        drop(lock);
        assert!(
            super::super::dirlock::held_by(d.path(), ".lock").is_some(),
            "the child holds it"
        );
        child.join().unwrap().unwrap();
        let start = std::time::Instant::now();
        while super::super::dirlock::held_by(d.path(), ".lock").is_some() {
            assert!(start.elapsed().as_secs() < 10, "the lock is freed");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
