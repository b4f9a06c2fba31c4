//! Per-command statistics (`--te-stats FILE`): one JSON object per line.
//!
//! Records, in order: the handshake, every command sent (kind `cmd` or
//! `query`), the benchmark's `(exit)` if reached (kind `exit`), and a final
//! record (kind `end`) with the outcome and the solver's exit status. Times
//! are seconds on a monotonic clock whose zero is just before the solver was
//! spawned. Each line is flushed at once so a killed run keeps its records.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
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
    /// Solver CPU (user + system, whole process tree) at response time, from
    /// a /proc sample of at most 1 ms before ([`MIN_SAMPLE_INTERVAL_S`]).
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
///
/// Each record is formatted into a reused buffer and written with one
/// `write(2)` (no user-space buffering to flush), so a killed run keeps every
/// record written before.
pub struct Stats {
    out: Option<File>,
    line: String,
}

impl Stats {
    /// No statistics.
    pub fn disabled() -> Stats {
        Stats {
            out: None,
            line: String::new(),
        }
    }

    /// Creates (truncates) the stats file.
    pub fn create(path: &Path) -> io::Result<Stats> {
        Ok(Stats {
            out: Some(File::create(path)?),
            line: String::with_capacity(512),
        })
    }

    /// True when records are written.
    pub fn enabled(&self) -> bool {
        self.out.is_some()
    }

    /// Appends one record at once. Failures are ignored (stats must never
    /// change the run's outcome).
    pub fn write(&mut self, record: &impl Record) {
        if let Some(out) = self.out.as_mut() {
            self.line.clear();
            record.write_json(&mut self.line);
            self.line.push('\n');
            let _ = out.write_all(self.line.as_bytes());
        }
    }
}

/// Shortest time between two /proc samples of [`ProcCpu::sample_recent`]
/// (the per-command stats records): the kernel reports CPU time in clock
/// ticks (10 ms at the usual 100 per second), so a sample less than 1 ms after
/// the last one is nearly always the same, while the /proc reads cost about as
/// much as the rest of a record (against a solver answering in microseconds:
/// 6.6 us of CPU per command with a sample each, issue 39 item 5).
pub const MIN_SAMPLE_INTERVAL_S: f64 = 0.001;

/// Most processes of a solver tree whose `/proc` files [`ProcCpu`] keeps open
/// between samples; further descendants are read by opening their files anew.
const CACHED_PROCESSES: usize = 64;

/// Most processes summed in one sample (a runaway fork bomb is cut there).
const MAX_PROCESSES: usize = 4096;

/// The open `/proc` files of one process of the solver tree.
struct ProcFiles {
    pid: libc::pid_t,
    /// `/proc/PID/stat`.
    stat: File,
    /// `/proc/PID/task/PID/children`.
    children: File,
    /// The sample that last visited this process.
    seen: u64,
}

impl ProcFiles {
    fn open(pid: libc::pid_t) -> Option<ProcFiles> {
        Some(ProcFiles {
            pid,
            stat: File::open(format!("/proc/{pid}/stat")).ok()?,
            children: File::open(format!("/proc/{pid}/task/{pid}/children")).ok()?,
            seen: 0,
        })
    }
}

/// Samples the cumulative CPU time (user + system, reaped children
/// included) of a process and its live descendants from `/proc`, as
/// [`solver_cpu`] does, but cheaply enough for every command: the
/// `stat` and `children` files of the processes seen are kept open and
/// re-read from offset 0 (`pread(2)`, one call per file and process), with
/// no allocation in the common case.
///
/// An open `/proc/PID` file stays bound to the process it was opened for:
/// once that process is gone, reads fail (`ESRCH`) even if the number is
/// reused, and the entry is then opened anew by number (the new process) or
/// dropped. Entries not visited by a sample are closed.
pub struct ProcCpu {
    /// The last sample of [`ProcCpu::sample_recent`]: (time, pid, value).
    last: Option<(f64, libc::pid_t, Option<f64>)>,
    ticks: f64,
    cache: Vec<ProcFiles>,
    round: u64,
    buf: Vec<u8>,
    stack: Vec<libc::pid_t>,
}

impl Default for ProcCpu {
    fn default() -> Self {
        ProcCpu::new()
    }
}

impl ProcCpu {
    /// An empty sampler.
    pub fn new() -> ProcCpu {
        ProcCpu {
            last: None,
            ticks: clock_ticks(),
            cache: Vec::new(),
            round: 0,
            buf: Vec::with_capacity(1024),
            stack: Vec::new(),
        }
    }

    /// Cumulative CPU seconds of `pid` and its live descendants (the same
    /// value as [`solver_cpu`]); `None` if `pid` is gone.
    pub fn sample(&mut self, pid: libc::pid_t) -> Option<f64> {
        self.round += 1;
        let mut total = 0u64;
        let mut seen = 0usize;
        self.stack.clear();
        self.stack.push(pid);
        while let Some(p) = self.stack.pop() {
            let Some(ticks) = self.visit(p) else {
                if p == pid {
                    self.evict();
                    return None;
                }
                continue;
            };
            total += ticks;
            seen += 1;
            if seen > MAX_PROCESSES {
                break;
            }
        }
        self.evict();
        Some(total as f64 / self.ticks)
    }

    /// [`ProcCpu::sample`] at time `now_s` (seconds, non-decreasing), or the
    /// previous sample of the same process when it was taken less than
    /// [`MIN_SAMPLE_INTERVAL_S`] before.
    pub fn sample_recent(&mut self, pid: libc::pid_t, now_s: f64) -> Option<f64> {
        if let Some((t, p, v)) = self.last
            && p == pid
            && (t..t + MIN_SAMPLE_INTERVAL_S).contains(&now_s)
        {
            return v;
        }
        let v = self.sample(pid);
        self.last = Some((now_s, pid, v));
        v
    }

    /// Number of processes whose files are kept open.
    pub fn cached(&self) -> usize {
        self.cache.len()
    }

    /// Reads one process: its ticks, and its children pushed on the stack.
    fn visit(&mut self, pid: libc::pid_t) -> Option<u64> {
        if let Some(k) = self.cache.iter().position(|e| e.pid == pid) {
            let round = self.round;
            let entry = &mut self.cache[k];
            if let Some(ticks) = read_entry(entry, &mut self.buf, &mut self.stack) {
                entry.seen = round;
                return Some(ticks);
            }
            // That process is gone; the number may belong to a new one.
            self.cache.swap_remove(k);
        }
        let mut entry = ProcFiles::open(pid)?;
        let ticks = read_entry(&mut entry, &mut self.buf, &mut self.stack)?;
        if self.cache.len() < CACHED_PROCESSES {
            entry.seen = self.round;
            self.cache.push(entry);
        }
        Some(ticks)
    }

    /// Closes the files of processes this sample did not reach.
    fn evict(&mut self) {
        let round = self.round;
        self.cache.retain(|e| e.seen == round);
    }
}

/// Reads the whole of a `/proc` file from offset 0 into `buf` (`pread(2)`).
fn pread_all(file: &File, buf: &mut Vec<u8>) -> Option<()> {
    buf.clear();
    loop {
        if buf.capacity() - buf.len() < 512 {
            buf.reserve(buf.capacity().max(1024));
        }
        let offset = buf.len() as libc::off_t;
        let spare = buf.spare_capacity_mut();
        let room = spare.len();
        // SAFETY: reading into the vector's spare capacity; `set_len` below
        // covers only the bytes the kernel wrote.
        let n = unsafe { libc::pread(file.as_raw_fd(), spare.as_mut_ptr().cast(), room, offset) };
        if n < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return None;
        }
        if n == 0 {
            return Some(());
        }
        // SAFETY: the kernel initialised `n` more bytes.
        unsafe { buf.set_len(buf.len() + n as usize) };
        // `/proc` files are seq_files: a read fills the buffer as far as the
        // text goes, so a short read is the end (saves a read returning 0).
        if (n as usize) < room || buf.len() > 1 << 24 {
            return Some(());
        }
    }
}

/// Ticks of one open process, its children's pids appended to `stack`.
fn read_entry(
    entry: &mut ProcFiles,
    buf: &mut Vec<u8>,
    stack: &mut Vec<libc::pid_t>,
) -> Option<u64> {
    pread_all(&entry.stat, buf)?;
    let ticks = stat_ticks(buf)?;
    if pread_all(&entry.children, buf).is_some() {
        push_pids(buf, stack);
    }
    Some(ticks)
}

/// Appends the decimal pids of a `children` file to `stack`.
fn push_pids(text: &[u8], stack: &mut Vec<libc::pid_t>) {
    stack.extend(
        text.split(|b| b.is_ascii_whitespace())
            .filter_map(|w| std::str::from_utf8(w).ok()?.parse::<libc::pid_t>().ok()),
    );
}

/// utime + stime + cutime + cstime of a `/proc/PID/stat` text, in ticks.
fn stat_ticks(stat: &[u8]) -> Option<u64> {
    // Fields after the command name, which ends at the last ')'.
    let close = stat.iter().rposition(|&b| b == b')')?;
    // The rest starts with field 3 (state); utime..cstime are fields 14..17.
    let mut fields = stat[close + 1..]
        .split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty())
        .skip(14 - 3);
    let mut sum = 0i64;
    for _ in 14..=17 {
        sum += std::str::from_utf8(fields.next()?)
            .ok()?
            .parse::<i64>()
            .ok()?;
    }
    Some(sum.max(0) as u64)
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as f64 } else { 100.0 }
}

/// Cumulative CPU seconds (user + system, reaped children included) of `pid`
/// and its live descendants, from `/proc`. `None` if `pid` is gone.
/// One-off form of [`ProcCpu::sample`] (opens every file anew).
pub fn solver_cpu(pid: libc::pid_t) -> Option<f64> {
    let ticks = clock_ticks();
    let mut total = 0u64;
    let mut stack = vec![pid];
    let mut seen = 0;
    let mut buf = Vec::new();
    while let Some(p) = stack.pop() {
        let Some(t) = proc_ticks(p) else {
            if p == pid {
                return None;
            }
            continue;
        };
        total += t;
        seen += 1;
        if seen > MAX_PROCESSES {
            break;
        }
        if let Ok(children) = std::fs::read(format!("/proc/{p}/task/{p}/children")) {
            buf.clear();
            buf.extend_from_slice(&children);
            push_pids(&buf, &mut stack);
        }
    }
    Some(total as f64 / ticks)
}

/// utime + stime + cutime + cstime of one process, in clock ticks.
fn proc_ticks(pid: libc::pid_t) -> Option<u64> {
    stat_ticks(&std::fs::read(format!("/proc/{pid}/stat")).ok()?)
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
    fn stat_fields_after_the_last_paren() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
        // majflt cmajflt utime=11 stime=22 cutime=33 cstime=44 ...; a command
        // name with ") 1 2" in it must not shift the fields.
        let stat = b"42 (a) 1 2 (b) S 1 42 42 0 -1 4194304 100 0 0 0 11 22 33 44 20 0 1 0";
        assert_eq!(stat_ticks(stat), Some(11 + 22 + 33 + 44));
        assert_eq!(stat_ticks(b"42 (a) S 1 2"), None);
        assert_eq!(stat_ticks(b"no paren"), None);
        let mut pids = vec![1];
        push_pids(b"7 8\n9 x ", &mut pids);
        assert_eq!(pids, vec![1, 7, 8, 9]);
    }

    /// Burns CPU in this process until its /proc figure grows.
    fn burn_until_above(cpu: &mut ProcCpu, pid: libc::pid_t, v: f64) -> f64 {
        let mut x = 0u64;
        loop {
            for i in 0..1_000_000u64 {
                x = x.wrapping_mul(31).wrapping_add(i);
            }
            std::hint::black_box(x);
            let now = cpu.sample(pid).unwrap();
            if now > v {
                return now;
            }
        }
    }

    #[test]
    fn recent_samples_are_reused_for_one_millisecond_only() {
        let pid = std::process::id() as libc::pid_t;
        let mut cpu = ProcCpu::new();
        let first = cpu.sample_recent(pid, 10.0).unwrap();
        let later = burn_until_above(&mut ProcCpu::new(), pid, first);
        // Within the interval: the earlier sample, though the CPU time grew.
        assert_eq!(cpu.sample_recent(pid, 10.0009), Some(first));
        // Another process: sampled anew.
        assert_eq!(cpu.sample_recent(pid + 1_000_000, 10.0009), None);
        // After the interval (or a clock going back): sampled anew.
        let again = cpu.sample_recent(pid, 10.0011).unwrap();
        assert!(again >= later, "{again} < {later}");
        let back = cpu.sample_recent(pid, 5.0).unwrap();
        assert!(back >= again);
    }

    #[test]
    fn sampler_agrees_with_one_off_reads_and_follows_the_tree() {
        // A sleeping tree: sh with two sleeping children (their CPU does not
        // move while we compare).
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & sleep 30 & wait"])
            .spawn()
            .unwrap();
        let pid = child.id() as libc::pid_t;
        let mut cpu = ProcCpu::new();
        // Wait until both children exist (no timing assertion: a bound on tries).
        for _ in 0..5000 {
            if cpu.sample(pid).is_some() && cpu.cached() == 3 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(cpu.cached(), 3, "sh and its two sleeps");
        let again = cpu.sample(pid).unwrap();
        assert_eq!(Some(again), solver_cpu(pid));
        // Kill the children: their files are closed at the next sample.
        let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap();
        for c in children.split_ascii_whitespace() {
            // SAFETY: signalling a child of our child.
            unsafe { libc::kill(c.parse().unwrap(), libc::SIGKILL) };
        }
        let _ = child.wait();
        assert_eq!(cpu.sample(pid), None);
        assert_eq!(cpu.cached(), 0);
    }

    #[test]
    fn own_cpu_is_readable() {
        let pid = std::process::id() as libc::pid_t;
        assert!(solver_cpu(pid).is_some_and(|c| c >= 0.0));
        assert_eq!(solver_cpu(-5), None);
        let mut cpu = ProcCpu::new();
        assert!(cpu.sample(pid).is_some_and(|c| c >= 0.0));
        assert_eq!(cpu.sample(-5), None);
    }
}
