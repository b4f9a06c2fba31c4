//! One run: spawn, handshake, header, lock-step loop, shutdown.

use std::io::BufRead;
use std::time::Instant;

use smtcomp_smtlib::{CommandKind, CommandReader, Status};

use super::args::Options;
use super::input;
use super::lines::Line;
use super::output::{Output, own_words, quote};
use super::process::{Control, Interrupt, Solver, StderrSink, cloexec_inherited, resolve};
use super::signals::{self, SignalPipe};
use super::stats::{CommandRecord, EndRecord, ProcCpu, Stats};

/// The handshake, byte for byte.
pub const HANDSHAKE: &[u8] = b"(set-option :print-success true)\n";

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// All expected queries answered, `(exit)` reached, or (body mode) end of file.
    Done,
    /// A `sat`/`unsat` answer contradicted the expectation.
    Wrong,
    /// Any `BAD ...` message (and usage errors).
    Bad,
    /// The watchdog fired.
    Timeout,
    /// SIGTERM/SIGINT/SIGHUP: the caller re-raises it.
    Signal(libc::c_int),
}

impl Outcome {
    /// The process exit code (signals are re-raised instead).
    pub fn exit_code(self) -> i32 {
        match self {
            Outcome::Done => 0,
            Outcome::Wrong => 2,
            Outcome::Bad | Outcome::Timeout => 1,
            Outcome::Signal(sig) => 128 + sig,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Outcome::Done => "done",
            Outcome::Wrong => "wrong",
            Outcome::Bad => "bad",
            Outcome::Timeout => "timeout",
            Outcome::Signal(_) => "signal",
        }
    }
}

/// Runs one benchmark and prints the result lines to `out`.
pub fn run(opts: &Options, out: &mut Output) -> Outcome {
    let Ok(signals) = SignalPipe::install() else {
        out.line("BAD executor: cannot install signal handlers");
        return Outcome::Bad;
    };
    let stats = match &opts.stats {
        None => Stats::disabled(),
        Some(path) => match Stats::create(path) {
            Ok(stats) => stats,
            Err(_) => {
                out.line(&format!(
                    "BAD stats file (cannot open): '{}'",
                    quote(path.as_os_str().as_encoded_bytes())
                ));
                return Outcome::Bad;
            }
        },
    };
    let stderr = match &opts.solver_stderr {
        None => StderrSink::Null,
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => StderrSink::File(file, opts.solver_stderr_limit),
            Err(_) => {
                out.line(&format!(
                    "BAD solver stderr file (cannot open): '{}'",
                    quote(path.as_os_str().as_encoded_bytes())
                ));
                return Outcome::Bad;
            }
        },
    };
    let cannot_execute = format!(
        "BAD response to set-option command: 'Cannot execute: {}'",
        quote(opts.solver.as_encoded_bytes())
    );
    cloexec_inherited();
    let t0 = Instant::now();
    let Some(program) = resolve(&opts.solver) else {
        out.line(&cannot_execute);
        return Outcome::Bad;
    };
    let solver = match Solver::spawn(&program, &opts.solver, &opts.solver_args, stderr) {
        Ok(solver) => {
            signals::set_solver_group(solver.pid());
            solver
        }
        Err(_) => {
            out.line(&cannot_execute);
            return Outcome::Bad;
        }
    };
    let mut session = Session {
        opts,
        out,
        stats,
        cpu: ProcCpu::new(),
        solver,
        signals,
        t0,
        // A watchdog beyond what the clock can represent is no watchdog.
        deadline: opts.timeout.and_then(|t| t0.checked_add(t)),
        answers: 0,
        last_answer: None,
        index: 0,
        sendbuf: Vec::with_capacity(256),
    };
    let outcome = session.drive();
    session.finish(outcome)
}

struct Session<'a> {
    opts: &'a Options,
    out: &'a mut Output,
    stats: Stats,
    /// Samples the solver tree's CPU for the stats records.
    cpu: ProcCpu,
    solver: Solver,
    signals: SignalPipe,
    t0: Instant,
    deadline: Option<Instant>,
    answers: u64,
    last_answer: Option<f64>,
    index: u64,
    sendbuf: Vec<u8>,
}

/// What the protocol expects back from one command.
enum Expect {
    Success,
    Answer(Status),
}

impl Session<'_> {
    fn now(&self) -> f64 {
        self.t0.elapsed().as_secs_f64()
    }

    /// Sends `bytes` and reads one response line; returns the send time.
    fn send_recv(&mut self, bytes: &[u8]) -> Result<(f64, Line), Interrupt> {
        let ctl = Control {
            signals: &self.signals,
            deadline: self.deadline,
        };
        self.solver.send(bytes, &ctl)?;
        let send_s = self.t0.elapsed().as_secs_f64();
        let line = self.solver.recv(&ctl)?;
        Ok((send_s, line))
    }

    fn bad(&mut self, message: &str) -> Outcome {
        self.out.line(message);
        Outcome::Bad
    }

    /// Maps an I/O interruption to an outcome, printing its message.
    fn interrupted(&mut self, why: Interrupt, eof_message: &str) -> Outcome {
        // The signal handler kills the solver, so a signal often shows up as
        // end of file first.
        let why = match (why, self.signals.pending()) {
            (Interrupt::Eof, Some(sig)) => Interrupt::Signal(sig),
            _ => why,
        };
        match why {
            Interrupt::Eof => self.bad(eof_message),
            Interrupt::Flooded => {
                self.bad("BAD response: too many unsolicited lines from the solver")
            }
            Interrupt::Timeout => {
                if self.opts.report_timeout {
                    self.out.line("BAD response: timeout");
                }
                Outcome::Timeout
            }
            Interrupt::Signal(sig) => Outcome::Signal(sig),
        }
    }

    fn drive(&mut self) -> Outcome {
        if let Err(outcome) = self.handshake() {
            return outcome;
        }
        let mut src = match input::open(&self.opts.benchmark) {
            Ok(src) => src,
            Err(e) => return self.bad(&e.to_string()),
        };
        if self.opts.status_from_body {
            let body = input::body(src, 0);
            return self.run_body(body, None);
        }
        let header = match input::read_header(&mut src, self.opts.continue_after_unknown) {
            Ok(header) => header,
            Err(e) => return self.bad(&e.to_string()),
        };
        let body = input::body(src, header.lines);
        self.run_body(body, Some(header.expected))
    }

    fn handshake(&mut self) -> Result<(), Outcome> {
        const EOF: &str = "BAD response to set-option command: unexpected EOF";
        let (send_s, line) = self
            .send_recv(HANDSHAKE)
            .map_err(|why| self.interrupted(why, EOF))?;
        let response_s = self.now();
        self.record(
            0,
            "handshake",
            0,
            HANDSHAKE.len(),
            send_s,
            Some((&line, response_s)),
            None,
        );
        if line.is(b"success") {
            Ok(())
        } else {
            let message = format!(
                "BAD response to set-option command: '{}'",
                quote(&line.text)
            );
            Err(self.bad(&message))
        }
    }

    /// The lock-step loop. `expected` is the header (None: status from body).
    fn run_body<R: BufRead>(
        &mut self,
        mut body: CommandReader<R>,
        expected: Option<Vec<Status>>,
    ) -> Outcome {
        let mut queries = 0usize;
        let mut body_status: Option<Status> = None;
        loop {
            if expected.as_ref().is_some_and(|e| queries == e.len()) {
                return Outcome::Done;
            }
            let command = match body.next_command() {
                Ok(Some(command)) => command,
                Ok(None) if expected.is_none() => return Outcome::Done,
                Ok(None) => return self.bad("BAD benchmark: unexpected EOF"),
                Err(e) => return self.bad(&own_words(&format!("BAD benchmark: {e}"))),
            };
            let (kind, line) = (command.kind, command.pos.line);
            self.index += 1;
            let expect = match kind {
                CommandKind::Exit => {
                    let t = self.now();
                    self.record(self.index, "exit", line, 0, t, None, None);
                    return Outcome::Done;
                }
                CommandKind::SetInfoStatus(status) if expected.is_none() => {
                    body_status = Some(status);
                    self.index -= 1;
                    continue;
                }
                k if k.is_query() => {
                    let status = match &expected {
                        Some(e) => e[queries],
                        None => body_status.take().unwrap_or(Status::Unknown),
                    };
                    if expected.is_none()
                        && status == Status::Unknown
                        && !self.opts.continue_after_unknown
                    {
                        return Outcome::Done;
                    }
                    queries += 1;
                    Expect::Answer(status)
                }
                _ => Expect::Success,
            };
            self.sendbuf.clear();
            self.sendbuf.extend_from_slice(command.text);
            self.sendbuf.push(b'\n');
            if let Err(outcome) = self.exchange(expect, line) {
                return outcome;
            }
        }
    }

    /// Sends `self.sendbuf`, reads one response line and judges it.
    fn exchange(&mut self, expect: Expect, line_no: u64) -> Result<(), Outcome> {
        const EOF: &str = "BAD response: unexpected EOF";
        let buf = std::mem::take(&mut self.sendbuf);
        let reply = self.send_recv(&buf);
        let bytes = buf.len();
        self.sendbuf = buf;
        let (send_s, line) = reply.map_err(|why| self.interrupted(why, EOF))?;
        let response_s = self.now();
        match expect {
            Expect::Success => {
                self.record(
                    self.index,
                    "cmd",
                    line_no,
                    bytes,
                    send_s,
                    Some((&line, response_s)),
                    None,
                );
                if !line.is(b"success") {
                    let message =
                        format!("BAD response to status command: '{}'", quote(&line.text));
                    return Err(self.bad(&message));
                }
            }
            Expect::Answer(expected) => {
                self.record(
                    self.index,
                    "query",
                    line_no,
                    bytes,
                    send_s,
                    Some((&line, response_s)),
                    Some(expected),
                );
                let Some(answer) = line.token().and_then(Status::parse) else {
                    let message = format!("BAD response to check command: '{}'", quote(&line.text));
                    return Err(self.bad(&message));
                };
                let contradicts =
                    answer != Status::Unknown && expected != Status::Unknown && answer != expected;
                if contradicts {
                    self.out.line(&format!(
                        "WRONG solver response: got {answer}, expected {expected}"
                    ));
                    return Err(Outcome::Wrong);
                }
                self.out.answer(answer);
                self.answers += 1;
                if answer != Status::Unknown {
                    self.last_answer = Some(response_s);
                    if self.opts.times {
                        self.out.time(response_s);
                    }
                }
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        index: u64,
        kind: &str,
        line: u64,
        bytes: usize,
        send_s: f64,
        response: Option<(&Line, f64)>,
        expected: Option<Status>,
    ) {
        if !self.stats.enabled() {
            return;
        }
        let micros = |s: f64| (s * 1e6).round() as i64;
        let response_s = response.map(|(_, t)| micros(t));
        let record = CommandRecord {
            index,
            kind,
            line,
            bytes,
            send_s: micros(send_s) as f64 / 1e6,
            response_s: response_s.map(|r| r as f64 / 1e6),
            latency_s: response_s.map(|r| (r - micros(send_s)) as f64 / 1e6),
            // At most one /proc sample a millisecond (see MIN_SAMPLE_INTERVAL_S).
            solver_cpu_s: self
                .cpu
                .sample_recent(self.solver.pid(), response.map_or(send_s, |(_, t)| t)),
            response: response.map(|(l, _)| quote(l.token().unwrap_or(&l.text))),
            expected: expected.map(Status::as_str),
        };
        self.stats.write(&record);
    }

    /// Shutdown sequence and final stats record.
    fn finish(mut self, outcome: Outcome) -> Outcome {
        let exit = match outcome {
            Outcome::Done => self.solver.shutdown(true, self.opts.grace, &self.signals),
            // No (exit) is owed after WRONG/BAD: the solver is stopped at
            // once, without the grace period of a normal end.
            Outcome::Wrong | Outcome::Bad => {
                self.solver
                    .shutdown(false, std::time::Duration::ZERO, &self.signals)
            }
            Outcome::Timeout => self.solver.terminate(&self.signals),
            Outcome::Signal(sig) => {
                self.solver.late_signal = Some(sig);
                self.solver.terminate(&self.signals)
            }
        };
        let outcome = match (outcome, self.solver.late_signal) {
            (Outcome::Signal(_), _) | (_, None) => outcome,
            (_, Some(sig)) => Outcome::Signal(sig),
        };
        let end = EndRecord {
            kind: "end",
            outcome: outcome.name(),
            answers: self.answers,
            last_answer_s: self.last_answer,
            wall_s: self.now(),
            solver_exit: exit.code,
            solver_signal: exit.signal,
            solver_cpu_s: exit.cpu_s,
            sent_sigterm: exit.sent_term,
            sent_sigkill: exit.sent_kill,
        };
        self.stats.write(&end);
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        assert_eq!(Outcome::Done.exit_code(), 0);
        assert_eq!(Outcome::Bad.exit_code(), 1);
        assert_eq!(Outcome::Timeout.exit_code(), 1);
        assert_eq!(Outcome::Wrong.exit_code(), 2);
    }

    #[test]
    fn input_error_messages_have_original_prefixes() {
        let e = input::InputError::CannotOpen("x y".into());
        assert_eq!(e.to_string(), "BAD benchmark (cannot open): 'x y'");
    }
}
