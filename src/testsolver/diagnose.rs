//! The verdict of one `test-solver` run, in plain words, from the ingested run
//! record (answer, limits, exit code, signal, validation) and its log.

use super::report::{RunResult, Verdict};
use crate::formats::runtable::ProofData;
use crate::formats::runtable::{IngestRecord, RunAnswer};
use crate::formats::verdict::Verdict as Validation;
use crate::formats::verdict::{CoreStatus, ModelStatus};
use crate::model::{Answer, Status, Track};
use crate::prepare::INCREMENTAL_MARKER;
use crate::prepare::PreparedBenchmark;
use crate::proof::ProofVerdict;
use crate::smtlib::CommandReader;
use std::path::Path;

/// Longest quoted line (bytes) in a reason.
const MAX_LINE: usize = 200;
/// Output lines quoted after a crash.
const TAIL_LINES: usize = 3;

/// What [`diagnose`] needs besides the record.
pub struct Context<'a> {
    /// The prepared benchmark of the run.
    pub benchmark: &'a PreparedBenchmark,
    /// The prepared file (absolute).
    pub file: &'a Path,
    /// The ingested results root (`EXECDIR/results`), which log references are relative to.
    pub results: &'a Path,
    /// The track's time limit (seconds).
    pub time_limit: u32,
    /// The track's memory limit (MB).
    pub memory_mb: u64,
    /// Incremental: locates the command a bad response answered (replay).
    pub locate: &'a dyn Fn() -> Option<Located>,
    /// What the runs could see besides `/`: the output directory and the
    /// directories mounted read-only (a hidden file elsewhere gets a hint).
    pub visible: &'a [std::path::PathBuf],
    /// `--no-validation`: cores and models were deliberately not validated
    /// (an unvalidated run stays OK, saying so, instead of NOT CHECKED).
    pub no_validation: bool,
}

/// The command a solver's response answered (incremental).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// 1-based position among the benchmark's commands (0: the handshake).
    pub index: usize,
    /// The command, on one line (cut).
    pub command: String,
    /// The response.
    pub response: String,
    /// How the solver ended in the replay: its exit code.
    pub solver_exit: Option<i64>,
    /// How the solver ended in the replay: the signal that killed it.
    pub solver_signal: Option<i64>,
    /// The solver's last standard-error lines in the replay (indented).
    pub stderr_tail: String,
}

impl Located {
    /// How the solver ended when it ended abnormally (a signal, or a nonzero
    /// exit code with what it usually means), with its last standard-error
    /// lines; `None` for a normal exit.
    pub fn crash(&self) -> Option<String> {
        let how = if let Some(sig) = self.solver_signal {
            format!("killed by signal {sig}{}", signal_name(sig as i32))
        } else {
            match self.solver_exit {
                Some(0) | None => return None,
                Some(127) => {
                    "exit code 127 (the command or a shared library it needs was not found)".into()
                }
                Some(126) => {
                    "exit code 126 (the command is not executable, or a bad interpreter)".into()
                }
                Some(c) => format!("exit code {c}"),
            }
        };
        Some(if self.stderr_tail.is_empty() {
            how
        } else {
            format!(
                "{how}; its last standard-error lines:\n{}",
                self.stderr_tail
            )
        })
    }
}

/// The verdict of `r` (a run of the benchmark in `cx`).
pub fn diagnose(r: &IngestRecord, cx: &Context<'_>) -> RunResult {
    let expected_status = cx.benchmark.status;
    let mut out = RunResult {
        benchmark: cx.benchmark.original.path(),
        prepared: String::new(),
        expected: match &cx.benchmark.expected {
            Some(e) => format!(
                "{} check-sat",
                e.iter()
                    .take_while(|s| matches!(s, Status::Sat | Status::Unsat))
                    .count()
            ),
            None => expected_status.name().to_string(),
        },
        answer: r.answer.as_str().to_string(),
        time_s: r.walltime,
        verdict: Verdict::Fail,
        reason: String::new(),
        log: r
            .log
            .as_ref()
            .map(|l| format!("{}!{}", l.archive, l.member)),
        generated: false,
    };
    let output = read_output(r, cx.results);
    let fail = |out: &mut RunResult, why: String| {
        out.verdict = Verdict::Fail;
        out.reason = why;
    };
    if let Some(expected) = &cx.benchmark.expected {
        incremental(r, cx, expected, output.as_deref(), &mut out);
        return out;
    }
    if let Some(p) = r
        .proof
        .as_ref()
        .filter(|_| r.track == Some(Track::ProofExhibition))
    {
        proof(p, cx, &mut out);
        return out;
    }
    match r.answer {
        RunAnswer::Sat | RunAnswer::Unsat => {
            let got = if r.answer == RunAnswer::Sat {
                Status::Sat
            } else {
                Status::Unsat
            };
            if matches!(expected_status, Status::Sat | Status::Unsat) && got != expected_status {
                fail(
                    &mut out,
                    format!("wrong answer: answered {got}, expected {expected_status}"),
                );
                return out;
            }
            out.verdict = Verdict::Ok;
            if let Some(l) = r.limit_hit {
                out.reason = format!("answered, but the {l:?} limit was hit afterwards (counts)")
                    .to_lowercase();
            }
            validation(r, &mut out, cx.no_validation);
        }
        RunAnswer::Unknown => {
            let why = match r.output_answer.as_deref() {
                Some("unknown") => "no answer: the solver answered unknown".to_string(),
                Some(line) => format!(
                    "no answer: the first output line is '{}', not sat, unsat or unknown{}{}",
                    cut(line),
                    exit_text(r).map_or(String::new(), |e| format!(" ({e})")),
                    hidden_hint(output.as_deref(), cx.visible)
                ),
                None => format!(
                    "no answer: the solver printed nothing{}",
                    exit_text(r).map_or(String::new(), |e| format!(" ({e})"))
                ),
            };
            fail(&mut out, why);
        }
        RunAnswer::Timeout => fail(
            &mut out,
            format!(
                "timeout: no answer within the time limit of {} s",
                cx.time_limit
            ),
        ),
        RunAnswer::Memout => fail(
            &mut out,
            format!(
                "memout: the memory limit of {} MB was exceeded",
                cx.memory_mb
            ),
        ),
        RunAnswer::Done | RunAnswer::Error => {
            fail(&mut out, error_text(r, output.as_deref(), cx.visible))
        }
    }
    out
}

/// Proof Exhibition runs: the checker's verdict on the solver's proof (2023
/// rules 5.8: `invalid`, and `sat` on these unsat benchmarks, are erroneous).
fn proof(p: &ProofData, cx: &Context<'_>, out: &mut RunResult) {
    let v = &p.values;
    let size = v
        .get_u64("proofsize")
        .map_or(String::new(), |n| format!(", proof of {n} bytes"));
    let solver_exit = v
        .get("solver_exit")
        .map_or(String::new(), |e| format!(", solver exit code {e}"));
    out.answer = format!("proof {}", p.verdict.as_str());
    let (ok, reason) = match p.verdict {
        ProofVerdict::Valid => (true, format!("proof checked valid{size}")),
        ProofVerdict::Holey => (true, format!("proof valid with holes{size}")),
        ProofVerdict::Invalid => (false, format!("proof checker said invalid{size}")),
        ProofVerdict::Sat => (
            false,
            "wrong answer: answered sat, expected unsat (the checker reports sat)".into(),
        ),
        ProofVerdict::Unknown => (
            false,
            format!(
                "no proof: the checker says unknown (the solver answered unknown or gave no proof{solver_exit})"
            ),
        ),
        ProofVerdict::Timeout => (
            false,
            format!(
                "timeout: solver and checker did not finish within {} s{}",
                cx.time_limit,
                if v.get("checker_timeout") == Some("1") {
                    " (the checker ran out of time)"
                } else {
                    ""
                }
            ),
        ),
        ProofVerdict::Error => (
            false,
            format!(
                "checker gave no verdict (valid, holey, invalid, sat or unknown){}",
                v.get("checker_exit")
                    .map_or(String::new(), |e| format!(", checker exit code {e}"))
            ),
        ),
    };
    out.verdict = if ok { Verdict::Ok } else { Verdict::Fail };
    out.reason = reason;
}

/// Unsat-core and model validation verdicts of an answered run.
fn validation(r: &IngestRecord, out: &mut RunResult, no_validation: bool) {
    // A run whose core or model no validator looked at: not checked, unless asked.
    let unchecked = |out: &mut RunResult, what: String, install: &str| {
        if no_validation {
            out.reason = format!("{what} not validated (--no-validation)");
        } else {
            out.verdict = Verdict::NotChecked;
            out.reason = format!(
                "{what} not checked: no validator on PATH; install {install}, or give --no-validation to accept unchecked runs"
            );
        }
    };
    match r.track {
        Some(crate::model::Track::UnsatCore) if r.answer == RunAnswer::Unsat => {
            let Some(core) = &r.unsat_core else {
                out.verdict = Verdict::Fail;
                out.reason = "unsat core missing: nothing followed unsat (the benchmark ends with (get-unsat-core))".into();
                return;
            };
            match &r.validation {
                Some(Validation::Core(v)) => {
                    let answers = v
                        .validators
                        .iter()
                        .map(|a| format!("{} {}", a.solver, a.answer))
                        .collect::<Vec<_>>()
                        .join(", ");
                    match v.status {
                        CoreStatus::Validated => {
                            out.reason = format!(
                                "core of {} assertion(s) validated ({answers})",
                                core.names.len()
                            )
                        }
                        CoreStatus::Refuted => {
                            out.verdict = Verdict::Fail;
                            out.reason = format!(
                                "unsat core refuted: the benchmark restricted to the core ({}) is sat ({answers}); a needed assertion is missing",
                                core.names.join(" ")
                            );
                        }
                        CoreStatus::Malformed => {
                            out.verdict = Verdict::Fail;
                            out.reason = format!(
                                "unsat core not well-formed: it names assertions the benchmark does not have ({}); it scores nothing (rules 7.1.4)",
                                core.names.join(" ")
                            );
                        }
                        CoreStatus::NotValidated => {
                            out.reason = format!(
                                "core of {} assertion(s) not validated: no validator decided ({answers})",
                                core.names.len()
                            )
                        }
                    }
                }
                _ => unchecked(
                    out,
                    format!("core of {} assertion(s)", core.names.len()),
                    "cvc5 or z3 (`pip install z3-solver`)",
                ),
            }
        }
        Some(crate::model::Track::ModelValidation) if r.answer == RunAnswer::Sat => {
            match &r.validation {
                Some(Validation::Model(v)) => {
                    let why = v.reason.clone().unwrap_or_default();
                    match v.status {
                        ModelStatus::Valid => out.reason = format!("model valid ({})", v.validator),
                        ModelStatus::Invalid => {
                            out.verdict = Verdict::Fail;
                            out.reason = format!("model invalid: {why}");
                        }
                        ModelStatus::Unknown => {
                            let what = match v.result {
                                Answer::ModelParsingError if r.model.is_none() => "model missing",
                                Answer::ModelParsingError => "model unparsable",
                                Answer::ModelPartialFunctionMissing => "model partial",
                                _ => "model not validated",
                            };
                            // A validator problem is not the solver's fault.
                            if what != "model not validated" {
                                out.verdict = Verdict::Fail;
                            }
                            out.reason = format!("{what}: {why}");
                        }
                    }
                }
                _ if r.model.is_none() => {
                    out.verdict = Verdict::Fail;
                    out.reason = "model missing: nothing followed sat".into();
                }
                _ => unchecked(out, "model".into(), "z3 (`pip install z3-solver`)"),
            }
        }
        _ => {}
    }
}

/// Incremental runs: all answers right, or the first problem and the command
/// it concerned.
fn incremental(
    r: &IngestRecord,
    cx: &Context<'_>,
    expected: &[Status],
    output: Option<&str>,
    out: &mut RunResult,
) {
    // The trace executor stops after the leading run of known answers.
    let n = expected
        .iter()
        .take_while(|s| matches!(s, Status::Sat | Status::Unsat))
        .count();
    let answered = output.map_or(0, |o| {
        o.lines()
            .filter(|l| matches!(l.trim(), "sat" | "unsat" | "unknown"))
            .count()
    });
    out.answer = format!("{answered}/{n}");
    let data = r.incremental.clone().unwrap_or_default();
    if let Some(w) = &data.wrong {
        out.answer = format!("{}/{n}", w.index);
        out.reason = format!(
            "wrong answer to check-sat {} of {n}: answered {}, expected {}{}",
            w.index,
            w.got,
            w.expected,
            query_text(cx.file, w.index as usize).map_or(String::new(), |q| format!(": {q}"))
        );
        return;
    }
    match r.answer {
        RunAnswer::Done => {
            out.verdict = Verdict::Ok;
            if answered < n {
                out.verdict = Verdict::Fail;
                out.reason = format!("only {answered} of {n} check-sat answered");
            }
            return;
        }
        RunAnswer::Timeout => {
            out.reason = format!(
                "timeout after {answered} of {n} check-sat answers (limit {} s){}",
                cx.time_limit,
                if answered == 0 {
                    "; if the solver did answer, it buffers its output: it must flush standard output after each response (the trace executor waits for each line before it sends the next command)"
                } else {
                    ""
                }
            );
            return;
        }
        RunAnswer::Memout => {
            out.reason = format!(
                "memout after {answered} of {n} check-sat answers (limit {} MB)",
                cx.memory_mb
            );
            return;
        }
        _ => {}
    }
    let after = format!("after {answered} of {n} check-sat answers");
    let Some(bad) = &data.bad else {
        out.reason = format!("{} ({after})", error_text(r, output, cx.visible));
        return;
    };
    out.reason = if let Some(what) = bad.strip_prefix("BAD response to set-option command: ") {
        if let Some(x) = what
            .strip_prefix("'Cannot execute: ")
            .and_then(|w| w.strip_suffix('\''))
        {
            format!("the solver could not be started: cannot execute {x}")
        } else if let Some(crash) = what
            .contains("unexpected EOF")
            .then(|| (cx.locate)().and_then(|l| l.crash()))
            .flatten()
        {
            format!(
                "the solver crashed before answering the first command, (set-option :print-success true), which the trace executor sends first: {crash}"
            )
        } else {
            format!(
                "solver answered {what} to (set-option :print-success true), which the trace executor sends first; it must answer success"
            )
        }
    } else if let Some(what) = bad.strip_prefix("BAD response to check command: ") {
        format!(
            "solver answered {what} to check-sat {} of {n}{}; expected sat, unsat or unknown",
            answered + 1,
            query_text(cx.file, answered + 1).map_or(String::new(), |q| format!(" ({q})"))
        )
    } else if let Some(what) = bad.strip_prefix("BAD response to status command: ") {
        match (cx.locate)() {
            Some(l) if l.index > 0 => format!(
                "solver answered {what} to {} (command {} of the benchmark, {after}); it must answer success",
                l.command, l.index
            ),
            _ => format!(
                "solver answered {what} to a command that is not a check-sat ({after}); it must answer success"
            ),
        }
    } else if bad == "BAD response: unexpected EOF" {
        let located = (cx.locate)();
        let at = match &located {
            Some(l) => format!(" at {} (command {} of the benchmark)", l.command, l.index),
            None => String::new(),
        };
        match located.as_ref().and_then(Located::crash) {
            Some(crash) => format!("the solver crashed{at}, {after}: {crash}"),
            None => {
                let ended = exit_text(r).unwrap_or_else(|| "stopped".into());
                format!("the solver closed its output ({ended}){at}, {after}")
            }
        }
    } else if bad.contains("error") {
        format!("error {after}: {bad}")
    } else {
        format!("{bad} ({after})")
    };
}

/// The `k`-th (1-based) query of an incremental prepared file, on one line.
pub fn query_text(file: &Path, k: usize) -> Option<String> {
    nth_command(file, |c| c.kind.is_query(), k)
}

/// The `k`-th (1-based) command of an incremental prepared file's body.
pub fn command_text(file: &Path, k: usize) -> Option<String> {
    nth_command(file, |_| true, k)
}

fn nth_command(
    file: &Path,
    keep: impl Fn(&crate::smtlib::Command<'_>) -> bool,
    k: usize,
) -> Option<String> {
    let bytes = std::fs::read(file).ok()?;
    let marker = memchr::memmem::find(&bytes, INCREMENTAL_MARKER.as_bytes())?;
    let body = &bytes[marker + INCREMENTAL_MARKER.len()..];
    let mut reader = CommandReader::new(body);
    let mut seen = 0;
    while let Ok(Some(c)) = reader.next_command() {
        if keep(&c) {
            seen += 1;
            if seen == k {
                return Some(one_line(&String::from_utf8_lossy(c.text)));
            }
        }
    }
    None
}

/// Whitespace runs collapsed to one space, cut at [`MAX_LINE`] bytes.
fn one_line(s: &str) -> String {
    cut(&s.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn cut(s: &str) -> String {
    if s.len() <= MAX_LINE {
        return s.to_string();
    }
    let mut end = MAX_LINE;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

/// "exit code N" or "killed by signal N (SIGX)", when the record has one.
fn exit_text(r: &IngestRecord) -> Option<String> {
    if let Some(sig) = r.exitsignal {
        return Some(format!("killed by signal {sig}{}", signal_name(sig)));
    }
    r.exitcode
        .filter(|c| *c != 0)
        .map(|c| format!("exit code {c}"))
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        1 => " (SIGHUP)",
        2 => " (SIGINT)",
        4 => " (SIGILL)",
        6 => " (SIGABRT)",
        7 => " (SIGBUS)",
        8 => " (SIGFPE)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        13 => " (SIGPIPE)",
        15 => " (SIGTERM)",
        _ => "",
    }
}

/// Why an `error` run failed: an `(error ...)` line, a crash with its exit code
/// or signal and the last output lines, or the ingestion's reason.
fn error_text(r: &IngestRecord, output: Option<&str>, visible: &[std::path::PathBuf]) -> String {
    let first = r.output_answer.as_deref().unwrap_or("");
    let tail = output.map(last_lines).unwrap_or_default();
    let tail = if tail.is_empty() {
        String::new()
    } else {
        format!("; last output lines:\n{tail}")
    };
    if r.exitsignal.is_none() && first.to_ascii_lowercase().contains("error") {
        return format!(
            "error: the solver printed {}{}",
            cut(first),
            exit_text(r).map_or(String::new(), |e| format!(" ({e})"))
        );
    }
    let hint = hidden_hint(output, visible);
    match exit_text(r) {
        Some(e) => format!("crash: {e}{tail}{hint}"),
        None => format!(
            "error: {}{tail}{hint}",
            r.error.clone().unwrap_or_else(|| "no answer".into())
        ),
    }
}

/// A file the solver's output names that BenchExec's container hides
/// (`/home`, `/tmp`) but exists here: a line naming it and the remedy, or "".
fn hidden_hint(output: Option<&str>, visible: &[std::path::PathBuf]) -> String {
    output
        .and_then(|o| crate::benchexec::visibility::hidden_path_hint(o, visible))
        .map_or(String::new(), |h| format!("\n  {h}"))
}

/// The last [`TAIL_LINES`] non-blank lines, each indented and cut.
fn last_lines(output: &str) -> String {
    let lines: Vec<&str> = output.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(TAIL_LINES)..]
        .iter()
        .map(|l| format!("  | {}", cut(l.trim_end())))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tool output of a run (after BenchExec's header), from its log.
fn read_output(r: &IngestRecord, results: &Path) -> Option<String> {
    let log = r.log.as_ref()?;
    let path = results.join(&log.archive);
    let bytes = if path.is_dir() {
        std::fs::read(path.join(log.member.rsplit('/').next()?)).ok()?
    } else {
        let mut zip = zip::ZipArchive::new(std::fs::File::open(&path).ok()?).ok()?;
        let mut member = zip.by_name(&log.member).ok()?;
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut member, &mut v).ok()?;
        v
    };
    let start = crate::ingest::output_start(&bytes);
    Some(String::from_utf8_lossy(&bytes[start..]).into_owned())
}
