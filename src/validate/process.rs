//! Running a validator process (a trusted solver, Dolmen, a core validator)
//! with a wall-clock limit, bounded output capture and optional stdin.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Most bytes kept of each of stdout and stderr (the rest is read and dropped).
pub const MAX_CAPTURE: usize = 8 << 20;

/// How a validator process ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    /// Exit code (`None` when killed by a signal or by the time limit).
    pub code: Option<i32>,
    /// Whether the wall-clock limit killed it.
    pub timed_out: bool,
    /// Captured stdout (at most [`MAX_CAPTURE`] bytes).
    pub stdout: Vec<u8>,
    /// Captured stderr (at most [`MAX_CAPTURE`] bytes).
    pub stderr: Vec<u8>,
    /// Wall-clock seconds.
    pub walltime: f64,
}

/// Splits a command line on whitespace (commands are given as `"z3 -smt2"`).
pub fn split_command(cmd: &str) -> Vec<String> {
    cmd.split_whitespace().map(str::to_string).collect()
}

fn drain(mut r: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = MAX_CAPTURE.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
    kept
}

/// Runs `argv` (program and arguments) with `extra` appended, feeding `stdin`,
/// killing it after `limit`. An error means it could not be started.
pub fn run(
    argv: &[String],
    extra: &[&Path],
    stdin: Option<&[u8]>,
    limit: Duration,
) -> Result<Finished, String> {
    let Some((prog, args)) = argv.split_first() else {
        return Err("empty validator command".into());
    };
    use std::os::unix::process::CommandExt;
    let start = Instant::now();
    // Its own process group, so the time limit also ends its children (which
    // would otherwise keep the output pipes open).
    let mut child = Command::new(prog)
        .process_group(0)
        .args(args)
        .args(extra)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {prog}: {e}"))?;
    let input = stdin.map(|s| s.to_vec());
    let mut pipe_in = child.stdin.take();
    let out = child.stdout.take();
    let err = child.stderr.take();
    let (stdout, stderr, status, timed_out) = std::thread::scope(|s| {
        if let (Some(mut p), Some(data)) = (pipe_in.take(), input) {
            // A validator that exits without reading gives a broken pipe: ignored.
            s.spawn(move || {
                let _ = p.write_all(&data);
            });
        }
        let o = s.spawn(move || out.map(drain).unwrap_or_default());
        let e = s.spawn(move || err.map(drain).unwrap_or_default());
        let mut timed_out = false;
        let mut walltime = 0.0;
        let status = loop {
            match child.try_wait() {
                Ok(Some(st)) => {
                    walltime = start.elapsed().as_secs_f64();
                    break Some(st);
                }
                Ok(None) => {}
                Err(_) => break None,
            }
            if start.elapsed() >= limit {
                timed_out = true;
                // The group we created for this child (its id is the group id).
                if let Ok(pgid) = i32::try_from(child.id()) {
                    // SAFETY: kill(2) has no memory-safety preconditions.
                    unsafe { libc::kill(-pgid, libc::SIGKILL) };
                }
                let _ = child.kill();
                walltime = start.elapsed().as_secs_f64();
                break child.wait().ok();
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        (
            o.join().unwrap_or_default(),
            e.join().unwrap_or_default(),
            status,
            (timed_out, walltime),
        )
    });
    let (timed_out, walltime) = timed_out;
    Ok(Finished {
        code: if timed_out {
            None
        } else {
            status.and_then(|s| s.code())
        },
        timed_out,
        stdout,
        stderr,
        walltime,
    })
}

/// The first output line that is a check-sat answer (`sat`, `unsat`,
/// `unknown`), skipping `success` lines; `None` when there is none before
/// other output.
pub fn first_answer(stdout: &[u8]) -> Option<&str> {
    for line in stdout.split(|&b| b == b'\n') {
        let t = std::str::from_utf8(line).unwrap_or("").trim();
        match t {
            "" | "success" => continue,
            "sat" | "unsat" | "unknown" => return Some(t),
            _ if t.starts_with(';') => continue,
            _ => return None,
        }
    }
    None
}

/// The first `(error "...")` line of the output, trimmed, if any.
pub fn first_error(stdout: &[u8]) -> Option<String> {
    stdout
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l).trim().to_string())
        .find(|l| l.starts_with("(error"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_errors() {
        assert_eq!(first_answer(b"success\nsat\n(model)"), Some("sat"));
        assert_eq!(first_answer(b"(error \"x\")\nsat\n"), None);
        assert_eq!(first_answer(b""), None);
        assert_eq!(
            first_error(b"(error \"line 3: unknown\")\nsat\n").as_deref(),
            Some("(error \"line 3: unknown\")")
        );
    }

    #[test]
    fn time_limit_and_stdin() {
        let sh = split_command("sh -c");
        let f = run(
            &[sh.clone(), vec!["sleep 5".into()]].concat(),
            &[],
            None,
            Duration::from_millis(200),
        )
        .unwrap();
        assert!(f.timed_out && f.code.is_none() && f.walltime < 4.0);
        let f = run(
            &[sh, vec!["cat; exit 3".into()]].concat(),
            &[],
            Some(b"hello"),
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!((f.code, f.stdout.as_slice()), (Some(3), &b"hello"[..]));
        assert!(
            run(
                &["/nonexistent/x".into()],
                &[],
                None,
                Duration::from_secs(1)
            )
            .is_err()
        );
    }
}
