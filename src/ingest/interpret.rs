//! From a BenchExec status and a run's log to our answer and track data.
//!
//! The status is classified first ([`classify_status`]); every string maps to
//! something, unknown ones to an `error` with the status in the reason. The
//! log then supplies the track data (see `docs/ingest.md` for the tables).

use crate::formats::runtable::{
    IncrementalData, Limit, LogRef, ModelRef, ProofData, RunAnswer, UnsatCore, WrongAnswer,
};
use crate::model::Track;
use crate::smtlib::{Lexer, TokenKind};

/// What a BenchExec status string says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusClass {
    /// `true` (sat), `false`/`false(…)` (unsat), `unknown`.
    Answer(RunAnswer),
    /// `done`, `DONE`, `DONE (n correct)`, `WRONG…`: an incremental run ended.
    Done,
    /// `TIMEOUT`, `OUT OF MEMORY`, … possibly with the tool's result inside
    /// parentheses (`TIMEOUT (true)`).
    Limit(Limit, Option<Box<StatusClass>>),
    /// A crash, failure or unrecognised status, with the reason.
    Error(String),
}

fn split_paren(s: &str) -> (&str, Option<&str>) {
    match s.find(" (") {
        Some(i) if s.ends_with(')') => (&s[..i], Some(&s[i + 2..s.len() - 1])),
        _ => (s, None),
    }
}

/// Deepest nesting of a status read (`TIMEOUT (TIMEOUT (true))` is 2 deep):
/// BenchExec writes at most one level; deeper is an unrecognised status. Keeps
/// the classification's recursion bounded whatever the input.
pub const MAX_STATUS_DEPTH: usize = 4;

/// Longest status classified (longer ones are unrecognised statuses; the
/// reason quotes the first 200 characters).
pub const MAX_STATUS_BYTES: usize = 4096;

/// Classifies a BenchExec status (benchexec-formats.md 3.4–3.5). Bounded:
/// a status longer than [`MAX_STATUS_BYTES`] or nested deeper than
/// [`MAX_STATUS_DEPTH`] is an unrecognised status (an `error`).
pub fn classify_status(status: &str) -> StatusClass {
    classify_at(status, 0)
}

fn quoted(s: &str) -> String {
    if s.len() <= 200 {
        return s.to_string();
    }
    let cut: String = s.chars().take(200).collect();
    format!("{cut}… ({} bytes)", s.len())
}

fn classify_at(status: &str, depth: usize) -> StatusClass {
    let s = status.trim();
    if s.len() > MAX_STATUS_BYTES {
        return StatusClass::Error(format!(
            "unrecognised BenchExec status '{}' (longer than {MAX_STATUS_BYTES} bytes)",
            quoted(s)
        ));
    }
    if depth >= MAX_STATUS_DEPTH {
        return StatusClass::Error(format!(
            "unrecognised BenchExec status '{}' (nested deeper than {MAX_STATUS_DEPTH} levels)",
            quoted(s)
        ));
    }
    match s {
        "true" => return StatusClass::Answer(RunAnswer::Sat),
        "false" => return StatusClass::Answer(RunAnswer::Unsat),
        "unknown" => return StatusClass::Answer(RunAnswer::Unknown),
        "done" => return StatusClass::Done,
        _ => {}
    }
    if s.starts_with("false(") && s.ends_with(')') {
        return StatusClass::Answer(RunAnswer::Unsat);
    }
    let (head, inner) = split_paren(s);
    let inner_class = || inner.map(|i| Box::new(classify_at(i, depth + 1)));
    match head {
        "TIMEOUT" => StatusClass::Limit(Limit::Timeout, inner_class()),
        "OUT OF MEMORY" | "OUT OF JAVA MEMORY" | "KILLED BY SIGNAL 9" => {
            StatusClass::Limit(Limit::Memout, inner_class())
        }
        "DONE" | "WRONG" => StatusClass::Done,
        "ERROR" => StatusClass::Error(match inner {
            None => "the tool reported an error (status ERROR)".into(),
            Some(n) if n.parse::<i64>().is_ok() => format!("exit code {n} (status {s})"),
            Some(_) => format!("status {}", quoted(s)),
        }),
        "SEGMENTATION FAULT" => StatusClass::Error("segmentation fault (signal 11)".into()),
        "ABORTED" => StatusClass::Error("aborted (signal 6)".into()),
        "KILLED" => StatusClass::Error("killed (signal 15)".into()),
        "FAILED" => StatusClass::Error("BenchExec could not start the tool (status FAILED)".into()),
        "FILES-COUNT LIMIT" | "FILES-SIZE LIMIT" => StatusClass::Error(format!("status {s}")),
        _ if head.starts_with("KILLED BY SIGNAL ") => {
            StatusClass::Error(format!("killed by signal {}", quoted(&head[17..])))
        }
        _ => StatusClass::Error(format!("unrecognised BenchExec status '{}'", quoted(s))),
    }
}

pub use crate::formats::answer_line::{deciding_line, line_answer};

/// Parses trace-executor output (docs/trace-executor: `sat`/`unsat`/`unknown`
/// lines, `time <s>` after sat/unsat, `WRONG solver response: got X, expected Y`,
/// `BAD …`). Lines after a `WRONG` line are ignored.
pub fn parse_incremental(output: &[u8]) -> IncrementalData {
    let mut d = IncrementalData::default();
    for raw in output.split(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(raw);
        let line = text.trim_end_matches('\r');
        match line {
            "sat" | "unsat" => d.correct += 1,
            _ => {
                if let Some(t) = line.strip_prefix("time ") {
                    if let Ok(v) = t.trim().parse::<f64>()
                        && v.is_finite()
                    {
                        d.last_answer_time = Some(v);
                    }
                } else if let Some(rest) = line.strip_prefix("WRONG solver response: got ") {
                    let (got, expected) = match rest.split_once(", expected ") {
                        Some((g, e)) => (g.to_string(), e.to_string()),
                        None => (rest.to_string(), String::new()),
                    };
                    d.wrong = Some(WrongAnswer {
                        index: d.correct + 1,
                        got,
                        expected,
                    });
                    break;
                } else if line.starts_with("BAD") && d.bad.is_none() {
                    d.bad = Some(line.chars().take(200).collect());
                }
            }
        }
    }
    d
}

/// Why the output after `unsat` holds no usable unsat core (its run is an
/// `error`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoreError {
    /// A lexical error of SMT-LIB.
    #[error("unsat core: {0}")]
    Lexical(String),
    /// More `(` than `)`.
    #[error("unsat core: unbalanced parentheses")]
    Unbalanced,
    /// Several cores.
    #[error("{0} unsat cores in the output (one expected)")]
    Several(usize),
}

/// Parses the unsat core printed after the answer with the SMT-LIB lexer.
///
/// Every top-level list whose elements are all symbols (simple or quoted) is a
/// core (`()` is the empty core); other output (`success`, `unsupported`,
/// `(error "…")`, comments) is skipped. No core gives `Ok(None)`; two cores
/// or a lexical error give `Err(reason)`.
pub fn parse_unsat_core(after_answer: &[u8]) -> Result<Option<UnsatCore>, CoreError> {
    // Streaming (no token vector): memory is the names of the list being read
    // and of the first core, whatever the input (`(` repeated millions of times
    // is a depth counter).
    let mut lexer = Lexer::new(after_answer);
    let mut sink = Vec::new();
    let mut first: Option<Vec<String>> = None;
    let mut count = 0usize;
    let mut depth = 0usize;
    let mut flat = true;
    let mut names: Vec<String> = Vec::new();
    loop {
        sink.clear();
        let Some(tok) = lexer
            .next_token(&mut sink, false)
            .map_err(|e| CoreError::Lexical(e.to_string()))?
        else {
            break;
        };
        let text = &sink[tok.start..tok.end];
        match tok.kind {
            TokenKind::LParen => {
                depth += 1;
                if depth == 1 {
                    flat = true;
                    names.clear();
                } else if flat {
                    flat = false;
                    names.clear();
                }
            }
            // A stray `)` at the top level is skipped like any other output.
            TokenKind::RParen if depth == 0 => {}
            TokenKind::RParen => {
                depth -= 1;
                if depth == 0 && flat && names.first().is_none_or(|n| n != "error") {
                    count += 1;
                    if first.is_none() {
                        first = Some(std::mem::take(&mut names));
                    }
                }
            }
            _ if depth == 0 => {}
            TokenKind::Symbol if depth == 1 && flat => {
                names.push(String::from_utf8_lossy(text).into_owned())
            }
            TokenKind::QuotedSymbol if depth == 1 && flat => {
                names.push(String::from_utf8_lossy(&text[1..text.len() - 1]).into_owned())
            }
            _ => {
                if flat {
                    flat = false;
                    names.clear();
                }
            }
        }
    }
    if depth != 0 {
        return Err(CoreError::Unbalanced);
    }
    match (count, first) {
        (0, _) | (_, None) => Ok(None),
        (1, Some(mut names)) => {
            names.sort();
            names.dedup();
            Ok(Some(UnsatCore { names }))
        }
        (n, _) => Err(CoreError::Several(n)),
    }
}

/// Largest unsat-core output (after the answer line) parsed; a bigger one is
/// an `error` for its run.
pub const MAX_CORE_OUTPUT_BYTES: usize = 16 << 20;

/// Proof-exhibition output read for the verdict and `key=value` lines; the
/// rest is cut (a note says so).
pub const MAX_PROOF_OUTPUT_BYTES: usize = 64 << 10;

/// The log of a run as far as interpretation needs it.
pub enum LogText<'a> {
    /// The log was read: the whole log and where the tool output starts.
    Read {
        /// The whole log.
        log: &'a [u8],
        /// Offset of the tool output (after the header).
        start: usize,
        /// Where the log is.
        at: LogRef,
    },
    /// No usable log (missing, unreadable, or shared by several runs).
    Unavailable(String),
}

/// The interpretation of one run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Interpretation {
    /// The answer (`None` only transiently).
    pub answer: Option<RunAnswer>,
    /// Limit hit although an answer was given.
    pub limit_hit: Option<Limit>,
    /// Why the answer is `error`.
    pub error: Option<String>,
    /// Remarks.
    pub notes: Vec<String>,
    /// The deciding output line (non-incremental tracks).
    pub output_answer: Option<String>,
    /// Incremental data.
    pub incremental: Option<IncrementalData>,
    /// Unsat core.
    pub unsat_core: Option<UnsatCore>,
    /// Model location.
    pub model: Option<ModelRef>,
    /// Proof data.
    pub proof: Option<ProofData>,
}

impl Interpretation {
    fn fail(&mut self, reason: impl Into<String>) {
        self.answer = Some(RunAnswer::Error);
        if self.error.is_none() {
            self.error = Some(reason.into());
        }
    }
}

/// Interprets one run of `track` with BenchExec `status` (`None` when the
/// column is missing) and its log.
pub fn interpret(track: Track, status: Option<&str>, log: &LogText<'_>) -> Interpretation {
    let mut it = Interpretation::default();
    let class = status.map(classify_status);
    let output = match log {
        LogText::Read { log, start, .. } => Some(&log[*start..]),
        LogText::Unavailable(_) => None,
    };
    if track == Track::Incremental {
        interpret_incremental(&mut it, class, output, log);
        return it;
    }
    // The deciding line of the output (single-query semantics).
    let decided = output.and_then(deciding_line);
    if track != Track::ProofExhibition {
        it.output_answer = decided.as_ref().map(|(l, _)| l.clone());
    }
    let log_answer = decided
        .as_ref()
        .map(|(l, _)| line_answer(l))
        .filter(|a| matches!(a, RunAnswer::Sat | RunAnswer::Unsat));
    match class {
        None => it.fail("no status column (BenchExec did not finish the run)"),
        Some(StatusClass::Answer(a)) => it.answer = Some(a),
        Some(StatusClass::Limit(limit, inner)) => {
            let inner_answer = match inner.as_deref() {
                Some(StatusClass::Answer(a @ (RunAnswer::Sat | RunAnswer::Unsat))) => Some(*a),
                _ => None,
            };
            match inner_answer.or(log_answer) {
                Some(a) => {
                    it.answer = Some(a);
                    it.limit_hit = Some(limit);
                }
                None => {
                    it.answer = Some(match limit {
                        Limit::Timeout => RunAnswer::Timeout,
                        Limit::Memout => RunAnswer::Memout,
                    })
                }
            }
        }
        Some(StatusClass::Done) => it.fail(format!(
            "status '{}' is an incremental status, but the track is {track}",
            status.unwrap_or_default()
        )),
        Some(StatusClass::Error(r)) => it.fail(r),
    }
    if let (Some(status_answer), Some(logged)) = (it.answer, log_answer)
        && matches!(status_answer, RunAnswer::Sat | RunAnswer::Unsat)
        && status_answer != logged
    {
        it.notes.push(format!(
            "status says {status_answer} but the output's deciding line says {logged}"
        ));
    }
    if let LogText::Unavailable(why) = log {
        it.notes.push(why.clone());
    }
    match track {
        Track::UnsatCore if it.answer == Some(RunAnswer::Unsat) => match (output, &decided) {
            (Some(out), Some((_, after))) if out.len() - after > MAX_CORE_OUTPUT_BYTES => {
                it.fail(format!(
                    "unsat core output is {} bytes (limit {MAX_CORE_OUTPUT_BYTES}); not read",
                    out.len() - after
                ))
            }
            (Some(out), Some((_, after))) => match parse_unsat_core(&out[*after..]) {
                Ok(Some(core)) => it.unsat_core = Some(core),
                Ok(None) => it.notes.push("no unsat core after unsat".into()),
                Err(e) => it.fail(e.to_string()),
            },
            (Some(_), None) => it.notes.push("no unsat core after unsat".into()),
            (None, _) => it.fail("unsat answer but no log to read the core from"),
        },
        Track::ModelValidation if it.answer == Some(RunAnswer::Sat) => match (log, &decided) {
            (LogText::Read { log, start, at }, Some((_, after))) => {
                let begin = start + after;
                let rest = &log[begin..];
                if rest.iter().all(|b| b.is_ascii_whitespace()) {
                    it.notes.push("no model text after sat".into());
                } else {
                    it.model = Some(ModelRef {
                        log: at.clone(),
                        start: begin as u64,
                        end: log.len() as u64,
                    });
                }
            }
            (LogText::Read { .. }, None) => it.notes.push("no model text after sat".into()),
            (LogText::Unavailable(_), _) => it.fail("sat answer but no log to locate the model in"),
        },
        Track::ProofExhibition => {
            if let Some(out) = output {
                let read = if out.len() > MAX_PROOF_OUTPUT_BYTES {
                    it.notes.push(format!(
                        "proof output cut: only the first {MAX_PROOF_OUTPUT_BYTES} of {} bytes were read",
                        out.len()
                    ));
                    &out[..MAX_PROOF_OUTPUT_BYTES]
                } else {
                    out
                };
                let o = crate::proof::verdict::interpret_bytes(read);
                it.proof = Some(ProofData {
                    verdict: o.verdict,
                    values: o.values,
                });
            }
        }
        _ => {}
    }
    it
}

fn interpret_incremental(
    it: &mut Interpretation,
    class: Option<StatusClass>,
    output: Option<&[u8]>,
    log: &LogText<'_>,
) {
    let data = output.map(parse_incremental);
    let limit = match &class {
        Some(StatusClass::Limit(l, _)) => Some(*l),
        _ => None,
    };
    match (&data, limit, &class) {
        (_, Some(l), _) => {
            it.answer = Some(match l {
                Limit::Timeout => RunAnswer::Timeout,
                Limit::Memout => RunAnswer::Memout,
            })
        }
        (None, None, _) => {
            let why = match log {
                LogText::Unavailable(w) => w.clone(),
                LogText::Read { .. } => String::new(),
            };
            it.fail(format!("incremental run without a readable log: {why}"));
        }
        (Some(_), None, None) => it.fail("no status column (BenchExec did not finish the run)"),
        (Some(d), None, Some(c)) => {
            if d.wrong.is_some() {
                it.answer = Some(RunAnswer::Done);
            } else if let Some(bad) = &d.bad {
                it.fail(format!("trace executor: {bad}"));
            } else if let StatusClass::Error(r) = c {
                it.fail(r.clone());
            } else {
                it.answer = Some(RunAnswer::Done);
            }
        }
    }
    if data.is_none()
        && let LogText::Unavailable(w) = log
        && it.answer != Some(RunAnswer::Error)
    {
        it.notes.push(w.clone());
    }
    it.incremental = data;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_kind_is_classified() {
        use RunAnswer::*;
        use StatusClass as C;
        assert_eq!(classify_status("true"), C::Answer(Sat));
        assert_eq!(classify_status("false(unreach-call)"), C::Answer(Unsat));
        assert_eq!(
            classify_status("TIMEOUT (true)"),
            C::Limit(Limit::Timeout, Some(Box::new(C::Answer(Sat))))
        );
        assert_eq!(
            classify_status("TIMEOUT (ERROR (no answer))"),
            C::Limit(
                Limit::Timeout,
                Some(Box::new(C::Error("status ERROR (no answer)".into())))
            )
        );
        assert_eq!(
            classify_status("KILLED BY SIGNAL 9"),
            C::Limit(Limit::Memout, None)
        );
        assert_eq!(classify_status("DONE (3 correct)"), C::Done);
        assert_eq!(
            classify_status("ERROR (3)"),
            C::Error("exit code 3 (status ERROR (3))".into())
        );
        assert_eq!(
            classify_status("KILLED BY SIGNAL 13"),
            C::Error("killed by signal 13".into())
        );
        assert_eq!(
            classify_status("banana"),
            C::Error("unrecognised BenchExec status 'banana'".into())
        );
    }

    #[test]
    fn unsat_cores() {
        let c = parse_unsat_core(b"success\n(a |b c| a)\n")
            .unwrap()
            .unwrap();
        assert_eq!(c.names, ["a", "b c"]);
        assert_eq!(
            parse_unsat_core(b"()").unwrap().unwrap().names,
            Vec::<String>::new()
        );
        assert_eq!(parse_unsat_core(b"unsupported\n").unwrap(), None);
        assert_eq!(parse_unsat_core(b"(error \"no cores\")").unwrap(), None);
        let two = parse_unsat_core(b"(a)\n(b)").unwrap_err();
        assert_eq!(two, CoreError::Several(2));
        assert_eq!(
            two.to_string(),
            "2 unsat cores in the output (one expected)"
        );
        let e = parse_unsat_core(b"(a |b").unwrap_err();
        assert!(
            matches!(&e, CoreError::Lexical(r) if r.contains("unterminated quoted symbol")),
            "{e}"
        );
        assert_eq!(
            parse_unsat_core(b"((a)").unwrap_err(),
            CoreError::Unbalanced
        );
    }

    #[test]
    fn incremental_output() {
        let d = parse_incremental(b"sat\ntime 0.5\nunknown\nunsat\ntime 1.25\nWRONG solver response: got sat, expected unsat\nsat\n");
        assert_eq!(d.correct, 2);
        assert_eq!(d.last_answer_time, Some(1.25));
        assert_eq!(
            d.wrong,
            Some(WrongAnswer {
                index: 3,
                got: "sat".into(),
                expected: "unsat".into()
            })
        );
    }
}
