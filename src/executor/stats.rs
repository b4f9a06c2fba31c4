//! Per-command statistics (`--te-stats FILE`): one JSON object per line.
//!
//! Records, in order: the handshake, every command sent (kind `cmd` or
//! `query`), the benchmark's `(exit)` if reached (kind `exit`), and a final
//! record (kind `end`) with the outcome and the solver's exit status. Times
//! are seconds on a monotonic clock whose zero is just before the solver was
//! spawned. Each line is flushed at once so a killed run keeps its records.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use serde::Serialize;

/// One command record.
#[derive(Debug, Serialize)]
pub struct CommandRecord<'a> {
    /// 0 for the handshake, then 1, 2, ... for each command of the body.
    pub index: u64,
    /// `handshake`, `cmd`, `query` or `exit`.
    pub kind: &'a str,
    /// Line of the command in the benchmark file (0 for the handshake).
    pub line: u64,
    /// Bytes sent (command plus newline).
    pub bytes: usize,
    /// When the last byte was written.
    pub send_s: f64,
    /// When the response line was complete (absent for `exit`).
    pub response_s: Option<f64>,
    /// `response_s - send_s`.
    pub latency_s: Option<f64>,
    /// Solver CPU (user + system, whole process tree) at response time.
    pub solver_cpu_s: Option<f64>,
    /// The response line, trimmed and quoted like in messages.
    pub response: Option<String>,
    /// The expected answer, for queries.
    pub expected: Option<&'a str>,
}

/// The final record.
#[derive(Debug, Serialize)]
pub struct EndRecord<'a> {
    /// Always `end`.
    pub kind: &'a str,
    /// `done`, `wrong`, `bad`, `timeout` or `signal`.
    pub outcome: &'a str,
    /// Number of accepted query answers.
    pub answers: u64,
    /// Time of the last `sat`/`unsat` answer, if any.
    pub last_answer_s: Option<f64>,
    /// Total wall time of the run.
    pub wall_s: f64,
    /// Solver exit code, if it exited.
    pub solver_exit: Option<i32>,
    /// Signal that ended the solver, if any.
    pub solver_signal: Option<i32>,
    /// Solver CPU time from `wait4` (its reaped descendants included).
    pub solver_cpu_s: f64,
    /// Whether the executor had to SIGTERM / SIGKILL the solver group.
    pub sent_sigterm: bool,
    /// See `sent_sigterm`.
    pub sent_sigkill: bool,
}

/// The stats file, or nothing.
pub struct Stats {
    out: Option<BufWriter<File>>,
}

impl Stats {
    /// No statistics.
    pub fn disabled() -> Stats {
        Stats { out: None }
    }

    /// Creates (truncates) the stats file.
    pub fn create(path: &Path) -> io::Result<Stats> {
        Ok(Stats {
            out: Some(BufWriter::new(File::create(path)?)),
        })
    }

    /// True when records are written.
    pub fn enabled(&self) -> bool {
        self.out.is_some()
    }

    /// Appends one record and flushes. Failures are ignored (stats must never
    /// change the run's outcome).
    pub fn write(&mut self, record: &impl Serialize) {
        if let Some(out) = self.out.as_mut() {
            let _ = serde_json::to_writer(&mut *out, record)
                .map_err(io::Error::other)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
        }
    }
}

/// Cumulative CPU seconds (user + system, reaped children included) of `pid`
/// and its live descendants, from `/proc`. `None` if `pid` is gone.
pub fn solver_cpu(pid: libc::pid_t) -> Option<f64> {
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let ticks = if ticks > 0 { ticks as f64 } else { 100.0 };
    let mut total = 0u64;
    let mut stack = vec![pid];
    let mut seen = 0;
    while let Some(p) = stack.pop() {
        let Some(t) = proc_ticks(p) else {
            if p == pid {
                return None;
            }
            continue;
        };
        total += t;
        seen += 1;
        if seen > 4096 {
            break;
        }
        if let Ok(children) = std::fs::read_to_string(format!("/proc/{p}/task/{p}/children")) {
            stack.extend(
                children
                    .split_ascii_whitespace()
                    .filter_map(|c| c.parse::<libc::pid_t>().ok()),
            );
        }
    }
    Some(total as f64 / ticks)
}

/// utime + stime + cutime + cstime of one process, in clock ticks.
fn proc_ticks(pid: libc::pid_t) -> Option<u64> {
    let stat = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which ends at the last ')'.
    let close = stat.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&stat[close + 1..]).ok()?;
    // rest starts with field 3 (state); utime..cstime are fields 14..17.
    let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
    let get = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<i64>().ok());
    let sum = get(14)? + get(15)? + get(16)? + get(17)?;
    Some(sum.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_cpu_is_readable() {
        let pid = std::process::id() as libc::pid_t;
        assert!(solver_cpu(pid).is_some_and(|c| c >= 0.0));
        assert_eq!(solver_cpu(-5), None);
    }
}
