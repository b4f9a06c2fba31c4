//! Per-command statistics (`--te-stats FILE`): one JSON object per line.
//!
//! Records, in order: the handshake, every command sent (kind `cmd` or
//! `query`), the benchmark's `(exit)` if reached (kind `exit`), and a final
//! record (kind `end`) with the outcome and the solver's exit status. Times
//! are seconds on a monotonic clock whose zero is just before the solver was
//! spawned. Each line is flushed at once so a killed run keeps its records.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// One command record.
#[derive(Debug)]
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
#[derive(Debug)]
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

/// A record serialisable as one JSON object (fields in declaration order).
pub trait Record {
    /// Writes the record as a single-line JSON object.
    fn write_json(&self, out: &mut String);
}

/// Minimal JSON writer for flat objects (the only shape the stats use).
struct Obj<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Obj<'a> {
    fn new(out: &'a mut String) -> Obj<'a> {
        out.push('{');
        Obj { out, first: true }
    }

    fn key(&mut self, key: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        json_str(self.out, key);
        self.out.push(':');
        self.out
    }

    fn u64(&mut self, key: &str, v: u64) -> &mut Self {
        let _ = write!(self.key(key), "{v}");
        self
    }

    fn i32(&mut self, key: &str, v: Option<i32>) -> &mut Self {
        match v {
            Some(v) => {
                let _ = write!(self.key(key), "{v}");
            }
            None => self.key(key).push_str("null"),
        }
        self
    }

    fn f64(&mut self, key: &str, v: Option<f64>) -> &mut Self {
        match v {
            // Shortest round-trip form (`1.0`, `0.25`, `1e-6`): valid JSON numbers.
            Some(v) if v.is_finite() => {
                let _ = write!(self.key(key), "{v:?}");
            }
            _ => self.key(key).push_str("null"),
        }
        self
    }

    fn bool(&mut self, key: &str, v: bool) -> &mut Self {
        self.key(key).push_str(if v { "true" } else { "false" });
        self
    }

    fn str(&mut self, key: &str, v: Option<&str>) -> &mut Self {
        match v {
            Some(v) => json_str(self.key(key), v),
            None => self.key(key).push_str("null"),
        }
        self
    }

    fn end(&mut self) {
        self.out.push('}');
    }
}

/// Appends `s` as a JSON string literal.
fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

impl Record for CommandRecord<'_> {
    fn write_json(&self, out: &mut String) {
        Obj::new(out)
            .u64("index", self.index)
            .str("kind", Some(self.kind))
            .u64("line", self.line)
            .u64("bytes", self.bytes as u64)
            .f64("send_s", Some(self.send_s))
            .f64("response_s", self.response_s)
            .f64("latency_s", self.latency_s)
            .f64("solver_cpu_s", self.solver_cpu_s)
            .str("response", self.response.as_deref())
            .str("expected", self.expected)
            .end();
    }
}

impl Record for EndRecord<'_> {
    fn write_json(&self, out: &mut String) {
        Obj::new(out)
            .str("kind", Some(self.kind))
            .str("outcome", Some(self.outcome))
            .u64("answers", self.answers)
            .f64("last_answer_s", self.last_answer_s)
            .f64("wall_s", Some(self.wall_s))
            .i32("solver_exit", self.solver_exit)
            .i32("solver_signal", self.solver_signal)
            .f64("solver_cpu_s", Some(self.solver_cpu_s))
            .bool("sent_sigterm", self.sent_sigterm)
            .bool("sent_sigkill", self.sent_sigkill)
            .end();
    }
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
    pub fn write(&mut self, record: &impl Record) {
        if let Some(out) = self.out.as_mut() {
            let mut line = String::with_capacity(256);
            record.write_json(&mut line);
            line.push('\n');
            let _ = out.write_all(line.as_bytes()).and_then(|()| out.flush());
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
    fn records_are_json_lines() {
        let mut s = String::new();
        CommandRecord {
            index: 1,
            kind: "query",
            line: 7,
            bytes: 12,
            send_s: 0.5,
            response_s: Some(1.0),
            latency_s: Some(0.000001),
            solver_cpu_s: None,
            response: Some("'a\"b\\c\u{1}'".into()),
            expected: Some("sat"),
        }
        .write_json(&mut s);
        assert_eq!(
            s,
            r#"{"index":1,"kind":"query","line":7,"bytes":12,"send_s":0.5,"response_s":1.0,"latency_s":1e-6,"solver_cpu_s":null,"response":"'a\"b\\c\u0001'","expected":"sat"}"#
        );
        let mut s = String::new();
        EndRecord {
            kind: "end",
            outcome: "done",
            answers: 2,
            last_answer_s: None,
            wall_s: f64::NAN,
            solver_exit: Some(0),
            solver_signal: None,
            solver_cpu_s: 0.25,
            sent_sigterm: false,
            sent_sigkill: true,
        }
        .write_json(&mut s);
        assert_eq!(
            s,
            r#"{"kind":"end","outcome":"done","answers":2,"last_answer_s":null,"wall_s":null,"solver_exit":0,"solver_signal":null,"solver_cpu_s":0.25,"sent_sigterm":false,"sent_sigkill":true}"#
        );
    }

    #[test]
    fn own_cpu_is_readable() {
        let pid = std::process::id() as libc::pid_t;
        assert!(solver_cpu(pid).is_some_and(|c| c >= 0.0));
        assert_eq!(solver_cpu(-5), None);
    }
}
