//! Our own per-track transformation of an SMT-LIB script (rules 2025 section
//! 5.1), used when the official scrambler is not given:
//!
//! * every track but Incremental: `(set-option :print-success false)` first;
//! * Model Validation / Unsat Core / Proof Exhibition: `(set-option
//!   :produce-models|produce-unsat-cores|produce-proofs true)` as the second command,
//!   and `(get-model)` / `(get-unsat-core)` / `(get-proof)` after each check-sat;
//! * Unsat Core: every top-level assertion named `(! t :named smtcompN)`;
//! * Incremental: the trace-executor format (expected answers, marker, script,
//!   closing `(exit)`);
//! * `set-info` commands are removed, and so are the benchmark's own settings
//!   of the options set above (the rules want a single one).
//!
//! Commands are copied byte for byte, one per line.

use crate::model::{Status, Track};
use crate::smtlib::{CommandKind, CommandReader};
use std::io::BufRead;

/// The marker between the expected answers and the script (trace-executor format).
pub const INCREMENTAL_MARKER: &str = "--- BENCHMARK BEGINS HERE ---";

/// A transformed benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transformed {
    /// The file content.
    pub text: Vec<u8>,
    /// Expected answer of each check-sat (from `set-info :status`, else unknown).
    pub expected: Vec<Status>,
    /// Number of assertions.
    pub asserts: u64,
}

/// Transforms `script` for `track`; the error names line and column.
pub fn transform(track: Track, script: impl BufRead) -> Result<Transformed, String> {
    let (option, query_follow_up) = match track {
        Track::ModelValidation => (Some(":produce-models"), Some("(get-model)")),
        Track::UnsatCore | Track::UnsatCoreValidation => {
            (Some(":produce-unsat-cores"), Some("(get-unsat-core)"))
        }
        Track::ProofExhibition => (Some(":produce-proofs"), Some("(get-proof)")),
        _ => (None, None),
    };
    let incremental = track == Track::Incremental;
    let name_asserts = matches!(track, Track::UnsatCore | Track::UnsatCoreValidation);
    let mut body: Vec<u8> = Vec::new();
    if !incremental {
        body.extend_from_slice(b"(set-option :print-success false)\n");
    }
    if let Some(opt) = option {
        body.extend_from_slice(format!("(set-option {opt} true)\n").as_bytes());
    }
    let mut reader = CommandReader::new(script);
    let mut expected = Vec::new();
    let mut pending: Option<Status> = None;
    let mut asserts = 0u64;
    let mut saw_exit = false;
    while let Some(cmd) = reader.next_command().map_err(|e| e.to_string())? {
        let head = cmd.head().unwrap_or_default();
        match cmd.kind {
            CommandKind::SetInfoStatus(s) => {
                pending = Some(match s {
                    crate::smtlib::Status::Sat => Status::Sat,
                    crate::smtlib::Status::Unsat => Status::Unsat,
                    crate::smtlib::Status::Unknown => Status::Unknown,
                });
                continue;
            }
            _ if head == b"set-info" => continue,
            _ if head == b"set-option" && sets_managed_option(cmd.text, option, incremental) => {
                continue;
            }
            CommandKind::Exit => {
                saw_exit = true;
                body.extend_from_slice(cmd.text);
                body.push(b'\n');
                break;
            }
            _ => {}
        }
        if head == b"assert" {
            asserts += 1;
            if name_asserts {
                body.extend_from_slice(&name_assert(cmd.text, asserts));
                body.push(b'\n');
                continue;
            }
        }
        body.extend_from_slice(cmd.text);
        body.push(b'\n');
        if cmd.kind.is_query() {
            expected.push(pending.take().unwrap_or(Status::Unknown));
            if let Some(f) = query_follow_up {
                body.extend_from_slice(f.as_bytes());
                body.push(b'\n');
            }
        }
    }
    let text = if incremental {
        if !saw_exit {
            body.extend_from_slice(b"(exit)\n");
        }
        let mut t = Vec::with_capacity(body.len() + expected.len() * 6 + 32);
        for s in &expected {
            t.extend_from_slice(s.name().as_bytes());
            t.push(b'\n');
        }
        t.extend_from_slice(INCREMENTAL_MARKER.as_bytes());
        t.push(b'\n');
        t.extend_from_slice(&body);
        t
    } else {
        body
    };
    Ok(Transformed {
        text,
        expected,
        asserts,
    })
}

/// Whether a `set-option` command sets `:print-success` (non-incremental tracks)
/// or the track's own option: those are replaced by ours.
fn sets_managed_option(text: &[u8], option: Option<&str>, incremental: bool) -> bool {
    let Ok(tokens) = crate::smtlib::tokenize(text) else {
        return false;
    };
    let key = tokens.get(2).map(|t| t.text.as_slice()).unwrap_or_default();
    (!incremental && key == b":print-success") || option.is_some_and(|o| key == o.as_bytes())
}

/// `(assert t)` -> `(assert (! t :named smtcompN))`, keeping `t` byte for byte.
fn name_assert(text: &[u8], n: u64) -> Vec<u8> {
    // The command is `(` ws* `assert` <rest> `)`; <rest> holds the term (and maybe
    // comments, which end at a newline before the final parenthesis).
    let open = text.iter().position(|&b| b == b'(').unwrap_or(0);
    let after_open = &text[open + 1..];
    let head_at = after_open
        .windows(6)
        .position(|w| w == b"assert")
        .unwrap_or(0);
    let rest = &after_open[head_at + 6..text.len() - open - 2];
    let mut out = Vec::with_capacity(text.len() + 32);
    out.extend_from_slice(b"(assert (!");
    out.extend_from_slice(rest);
    out.extend_from_slice(format!(" :named smtcomp{n}))").as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "; comment\n(set-info :smt-lib-version 2.6)\n(set-logic QF_UF)\n(set-info :status unsat)\n(set-option :produce-models true)\n(declare-fun p () Bool)\n(assert p)\n(assert (not p)) ; tail\n(check-sat)\n(exit)\n";

    fn run(track: Track, s: &str) -> String {
        String::from_utf8(transform(track, s.as_bytes()).unwrap().text).unwrap()
    }

    #[test]
    fn single_query() {
        assert_eq!(
            run(Track::SingleQuery, SCRIPT),
            "(set-option :print-success false)\n(set-logic QF_UF)\n(set-option :produce-models true)\n(declare-fun p () Bool)\n(assert p)\n(assert (not p))\n(check-sat)\n(exit)\n"
        );
    }

    #[test]
    fn unsat_core_names_every_assertion() {
        assert_eq!(
            run(Track::UnsatCore, SCRIPT),
            "(set-option :print-success false)\n(set-option :produce-unsat-cores true)\n(set-logic QF_UF)\n(set-option :produce-models true)\n(declare-fun p () Bool)\n(assert (! p :named smtcomp1))\n(assert (! (not p) :named smtcomp2))\n(check-sat)\n(get-unsat-core)\n(exit)\n"
        );
    }

    #[test]
    fn model_validation_replaces_the_benchmarks_own_option() {
        let out = run(Track::ModelValidation, SCRIPT);
        assert_eq!(out.matches(":produce-models").count(), 1);
        assert!(out.starts_with("(set-option :print-success false)\n(set-option :produce-models true)\n(set-logic QF_UF)\n"));
        assert!(out.contains("(check-sat)\n(get-model)\n(exit)\n"));
    }

    #[test]
    fn incremental_trace_executor_format() {
        let s = "(set-logic QF_LIA)\n(set-info :status sat)\n(check-sat)\n(push 1)\n(check-sat)\n(set-info :status unsat)\n(check-sat-assuming (a))\n";
        let t = transform(Track::Incremental, s.as_bytes()).unwrap();
        assert_eq!(t.expected, [Status::Sat, Status::Unknown, Status::Unsat]);
        assert_eq!(
            String::from_utf8(t.text).unwrap(),
            "sat\nunknown\nunsat\n--- BENCHMARK BEGINS HERE ---\n(set-logic QF_LIA)\n(check-sat)\n(push 1)\n(check-sat)\n(check-sat-assuming (a))\n(exit)\n"
        );
    }

    #[test]
    fn strings_and_quoted_symbols_survive() {
        let s = "(assert (= |a )b| \"x)\"\"y\"))\n(check-sat)";
        let out = run(Track::UnsatCore, s);
        assert!(
            out.contains("(assert (! (= |a )b| \"x)\"\"y\") :named smtcomp1))\n"),
            "{out}"
        );
    }

    #[test]
    fn malformed_scripts_are_errors() {
        assert!(
            transform(Track::SingleQuery, "(assert (and a b)".as_bytes())
                .unwrap_err()
                .contains("EOF")
        );
        assert!(transform(Track::SingleQuery, "(assert \"abc)".as_bytes()).is_err());
        assert!(transform(Track::SingleQuery, ")".as_bytes()).is_err());
    }
}
