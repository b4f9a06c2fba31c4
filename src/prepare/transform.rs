//! Our own per-track transformation of an SMT-LIB script (rules 2025 section
//! 5.1), used when the official scrambler is not given:
//!
//! * every track but Incremental: `(set-option :print-success false)` first;
//! * Model Validation / Unsat Core / Proof Exhibition: `(set-option
//!   :produce-models|produce-unsat-cores|produce-proofs true)` as the second command,
//!   and `(get-model)` / `(get-unsat-core)` / `(get-proof)` after each check-sat;
//! * Unsat Core: every top-level assertion named `(! t :named smtcompN)`; an
//!   assertion the benchmark already names (`(! t :named a)`) gets our name
//!   instead of a second, nested one, and later uses of `a` are renamed
//!   `smtcompN`; the benchmark's own `(get-unsat-core)` (as its own
//!   `(get-model)` / `(get-proof)` in those tracks) is dropped, ours follows
//!   each check-sat;
//! * Incremental: the trace-executor format (expected answers, marker, script,
//!   closing `(exit)`);
//! * `set-info` commands are removed, and so are the benchmark's own settings
//!   of the options set above (the rules want a single one).
//!
//! Commands are copied byte for byte, one per line.

use crate::model::{Status, Track};
use crate::smtlib::{CommandKind, CommandReader};
use std::collections::HashMap;
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
pub fn transform(
    track: Track,
    script: impl BufRead,
) -> Result<Transformed, crate::smtlib::CommandError> {
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
    // Benchmark names replaced by ours (`a` -> `smtcompN`).
    let mut renamed: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
    while let Some(cmd) = reader.next_command()? {
        let head = cmd.head().unwrap_or_default();
        if query_follow_up.is_some_and(|f| f.as_bytes()[1..f.len() - 1] == *head) {
            // Ours follows every check-sat; a second one would print the
            // answer twice and make the run an error.
            continue;
        }
        let renamed_text = if renamed.is_empty() {
            None
        } else {
            rename_symbols(cmd.text, &renamed)
        };
        let text = renamed_text.as_deref().unwrap_or(cmd.text);
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
                body.extend_from_slice(text);
                body.push(b'\n');
                break;
            }
            _ => {}
        }
        if head == b"assert" {
            asserts += 1;
            if name_asserts {
                let head_end = cmd.head_span().map_or(0, |r| r.end);
                let (named, old) = name_assert(text, head_end, asserts);
                if let Some(old) = old {
                    renamed.insert(old, format!("smtcomp{asserts}").into_bytes());
                }
                body.extend_from_slice(&named);
                body.push(b'\n');
                continue;
            }
        }
        body.extend_from_slice(text);
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

/// `(assert t)` -> `(assert (! t :named smtcompN))`, keeping `t` byte for
/// byte; `head_end` is where the head `assert` ends in `text` (found by the
/// command reader, so a comment holding the word is never taken for it).
///
/// An assertion already named at its top, `(assert (! t ... :named a ...))`,
/// becomes `(assert (! t ... :named smtcompN ...))` (one name, ours; nesting
/// ours over it would let solvers report `a`), and `a` is returned so that
/// later uses are renamed.
fn name_assert(text: &[u8], head_end: usize, n: u64) -> (Vec<u8>, Option<Vec<u8>>) {
    // The command is `(` trivia `assert` <rest> `)`; <rest> holds the term (and
    // maybe comments, which end at a newline before the final parenthesis).
    let rest = &text[head_end.min(text.len() - 1)..text.len() - 1];
    let ours = format!(":named smtcomp{n}");
    let mut out = Vec::with_capacity(text.len() + 32);
    if let Some(names) = top_level_names(rest)
        && let Some(first) = names.first()
    {
        out.extend_from_slice(b"(assert");
        let mut at = 0;
        for (i, (span, _)) in names.iter().enumerate() {
            out.extend_from_slice(&rest[at..span.start]);
            if i == 0 {
                out.extend_from_slice(ours.as_bytes());
            }
            at = span.end;
        }
        out.extend_from_slice(&rest[at..]);
        out.push(b')');
        return (out, Some(first.1.clone()));
    }
    out.extend_from_slice(b"(assert (!");
    out.extend_from_slice(rest);
    out.extend_from_slice(format!(" {ours}))").as_bytes());
    (out, None)
}

/// The `:named NAME` attributes of a term `(! t attr*)` (span of keyword and
/// value, and the name without bars), or `None` when the term is not an
/// annotation with a name.
fn top_level_names(term: &[u8]) -> Option<Vec<(std::ops::Range<usize>, Vec<u8>)>> {
    use crate::smtlib::{Lexer, TokenKind};
    let mut lexer = Lexer::new(term);
    let mut sink = Vec::with_capacity(term.len());
    let mut next = |sink: &mut Vec<u8>| lexer.next_token(sink, true).ok().flatten();
    if next(&mut sink)?.kind != TokenKind::LParen {
        return None;
    }
    let bang = next(&mut sink)?;
    if bang.kind != TokenKind::Symbol || sink[bang.start..bang.end] != *b"!" {
        return None;
    }
    let mut names = Vec::new();
    let mut depth = 1usize;
    let mut named_at: Option<usize> = None;
    while depth > 0 {
        let t = next(&mut sink)?;
        match t.kind {
            TokenKind::LParen => depth += 1,
            TokenKind::RParen => depth -= 1,
            TokenKind::Keyword if depth == 1 && sink[t.start..t.end] == *b":named" => {
                named_at = Some(t.start);
                continue;
            }
            TokenKind::Symbol | TokenKind::QuotedSymbol if depth == 1 => {
                if let Some(start) = named_at {
                    names.push((start..t.end, symbol_name(&sink[t.start..t.end]).to_vec()));
                }
            }
            _ => {}
        }
        named_at = None;
    }
    // Nothing but trivia may follow the term.
    if next(&mut sink).is_some() || names.is_empty() {
        return None;
    }
    Some(names)
}

/// A symbol without its bars (`|a b|` -> `a b`): `|a|` and `a` are one symbol.
fn symbol_name(raw: &[u8]) -> &[u8] {
    raw.strip_prefix(b"|")
        .and_then(|r| r.strip_suffix(b"|"))
        .unwrap_or(raw)
}

/// `text` with every symbol in `renamed` replaced (`None` when none occurs).
fn rename_symbols(text: &[u8], renamed: &HashMap<Vec<u8>, Vec<u8>>) -> Option<Vec<u8>> {
    use crate::smtlib::{Lexer, TokenKind};
    let mut lexer = Lexer::new(text);
    let mut sink = Vec::with_capacity(text.len());
    let mut out = Vec::new();
    let mut copied = 0;
    while let Ok(Some(t)) = lexer.next_token(&mut sink, true) {
        if matches!(t.kind, TokenKind::Symbol | TokenKind::QuotedSymbol)
            && let Some(new) = renamed.get(symbol_name(&sink[t.start..t.end]))
        {
            // With trivia kept, offsets in `sink` are offsets in `text`.
            out.extend_from_slice(&text[copied..t.start]);
            out.extend_from_slice(new);
            copied = t.end;
        }
    }
    if copied == 0 {
        return None;
    }
    out.extend_from_slice(&text[copied..]);
    Some(out)
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

    /// Regression (issue 18): `assert` in a comment between `(` and the head
    /// was taken for the head and garbled the assertion.
    #[test]
    fn a_comment_holding_assert_is_not_the_head() {
        let out = run(Track::UnsatCore, "(; assert (x)\nassert p)\n(check-sat)\n");
        assert!(out.contains("(assert (! p :named smtcomp1))\n"), "{out}");
    }

    /// Regression (issue 18): the benchmark's own `(get-unsat-core)` plus
    /// ours printed two cores, an error in every run. Only ours is left.
    #[test]
    fn the_benchmarks_own_get_unsat_core_is_dropped() {
        let out = run(
            Track::UnsatCore,
            "(declare-fun p () Bool)\n(assert p)\n(check-sat)\n(get-unsat-core)\n(exit)\n",
        );
        assert_eq!(out.matches("(get-unsat-core)").count(), 1, "{out}");
        assert!(
            out.ends_with("(check-sat)\n(get-unsat-core)\n(exit)\n"),
            "{out}"
        );
        let out = run(
            Track::ModelValidation,
            "(assert true)\n(check-sat)\n(get-model)\n",
        );
        assert_eq!(out.matches("(get-model)").count(), 1, "{out}");
    }

    /// Regression (issue 18): an assertion the benchmark names got ours
    /// nested over its own. Now it carries ours only (other attributes kept)
    /// and later uses of its name are renamed.
    #[test]
    fn existing_names_are_replaced_not_nested() {
        let out = run(
            Track::UnsatCore,
            "(declare-fun p () Bool)\n(assert (! p :named a))\n(assert (! (not |a|) :weight 2 :named b))\n(check-sat-assuming (a))\n(check-sat)\n",
        );
        assert!(out.contains("(assert (! p :named smtcomp1))\n"), "{out}");
        assert!(
            out.contains("(assert (! (not smtcomp1) :weight 2 :named smtcomp2))\n"),
            "{out}"
        );
        assert!(out.contains("(check-sat-assuming (smtcomp1))\n"), "{out}");
        assert!(
            !out.contains(":named a") && !out.contains(":named b"),
            "{out}"
        );
    }

    #[test]
    fn malformed_scripts_are_errors() {
        let e = transform(Track::SingleQuery, "(assert (and a b)".as_bytes()).unwrap_err();
        assert!(
            matches!(e, crate::smtlib::CommandError::UnterminatedCommand(_)),
            "{e}"
        );
        assert!(e.to_string().contains("EOF"), "{e}");
        assert!(transform(Track::SingleQuery, "(assert \"abc)".as_bytes()).is_err());
        assert!(transform(Track::SingleQuery, ")".as_bytes()).is_err());
    }
}
