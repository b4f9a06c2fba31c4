//! Core-restricted benchmarks: the prepared Unsat-Core file with only the
//! assertions named in the core, names stripped (the semantics of the
//! official `scrambler -seed 0 -term_annot false -core FILE`, trace-executor
//! spec 3.3), built with the project's command splitter.

use super::sexp::{self, Sexp};
use crate::smtlib::{CommandReader, tokenize};
use std::collections::BTreeSet;

/// A restricted benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restricted {
    /// The file content.
    pub text: Vec<u8>,
    /// Assertions kept.
    pub asserts: u64,
    /// Core names that name no assertion of the benchmark (ignored, as the
    /// scrambler does).
    pub unknown_names: Vec<String>,
}

/// The `:named` name of an `(assert (! t … :named n …))` command, and the
/// command rewritten without the name (`(assert t)`, or `(assert (! t attrs))`
/// when other attributes remain). `None` name: not a named assertion.
/// Why a benchmark cannot be restricted to a core.
#[derive(Debug, thiserror::Error)]
pub enum RestrictError {
    /// The benchmark's commands cannot be read.
    #[error(transparent)]
    Commands(#[from] crate::smtlib::CommandError),
    /// An assertion is not an s-expression.
    #[error("{pos}: {source}")]
    Assertion {
        /// Where the assertion starts.
        pos: crate::smtlib::Position,
        /// Why.
        source: sexp::SexpError,
    },
    /// An annotation `(!` without a term.
    #[error("{0}: `(!` without a term")]
    EmptyAnnotation(crate::smtlib::Position),
}

/// Why [`split_named`] cannot split an assertion (its caller adds where).
enum SplitError {
    Sexp(sexp::SexpError),
    EmptyAnnotation,
}

fn split_named(text: &[u8]) -> Result<(Option<String>, Vec<u8>), SplitError> {
    let nodes = sexp::parse_all(text).map_err(SplitError::Sexp)?;
    let cmd = nodes.first().and_then(Sexp::items).unwrap_or(&[]);
    let Some(bang) = cmd.get(1).filter(|b| b.head(text) == Some(b"!")) else {
        return Ok((None, text.to_vec()));
    };
    let parts = bang.items().unwrap_or(&[]);
    let Some(term) = parts.get(1) else {
        return Err(SplitError::EmptyAnnotation);
    };
    let mut name = None;
    let mut rest: Vec<&[u8]> = Vec::new();
    let mut i = 2;
    while i < parts.len() {
        let key = &text[parts[i].span()];
        let value = parts.get(i + 1).filter(|v| {
            !matches!(
                v,
                Sexp::Atom {
                    kind: crate::smtlib::TokenKind::Keyword,
                    ..
                }
            )
        });
        if key == b":named" {
            name = value
                .and_then(|v| v.symbol(text))
                .map(|s| String::from_utf8_lossy(s).into_owned());
        } else {
            rest.push(key);
            if let Some(v) = value {
                rest.push(&text[v.span()]);
            }
        }
        i += if value.is_some() { 2 } else { 1 };
    }
    let mut out = b"(assert ".to_vec();
    if rest.is_empty() {
        out.extend_from_slice(&text[term.span()]);
    } else {
        out.extend_from_slice(b"(! ");
        out.extend_from_slice(&text[term.span()]);
        for r in rest {
            out.push(b' ');
            out.extend_from_slice(r);
        }
        out.push(b')');
    }
    out.push(b')');
    Ok((name, out))
}

/// Whether a `set-option` sets `:produce-unsat-cores` (dropped).
fn sets_core_option(text: &[u8]) -> bool {
    tokenize(text)
        .ok()
        .and_then(|t| t.get(2).map(|k| k.text == b":produce-unsat-cores"))
        .unwrap_or(false)
}

/// Restricts `benchmark` (a prepared Unsat-Core file) to the assertions named
/// in `core`. Errors name the position of the malformed command.
pub fn restrict(benchmark: &[u8], core: &[String]) -> Result<Restricted, RestrictError> {
    let wanted: BTreeSet<&str> = core.iter().map(String::as_str).collect();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut reader = CommandReader::new(benchmark);
    let mut text = Vec::with_capacity(benchmark.len());
    let mut asserts = 0;
    while let Some(cmd) = reader.next_command()? {
        let head = cmd.head().unwrap_or_default();
        match head {
            b"set-info" | b"get-unsat-core" => continue,
            b"set-option" if sets_core_option(cmd.text) => continue,
            b"assert" => {
                let (name, stripped) = split_named(cmd.text).map_err(|e| match e {
                    SplitError::Sexp(source) => RestrictError::Assertion {
                        pos: cmd.pos,
                        source,
                    },
                    SplitError::EmptyAnnotation => RestrictError::EmptyAnnotation(cmd.pos),
                })?;
                match name {
                    Some(n) if !wanted.contains(n.as_str()) => {
                        seen.insert(n);
                        continue;
                    }
                    Some(n) => {
                        seen.insert(n);
                    }
                    None => {}
                }
                asserts += 1;
                text.extend_from_slice(&stripped);
            }
            _ => text.extend_from_slice(cmd.text),
        }
        text.push(b'\n');
    }
    let unknown_names = wanted
        .iter()
        .filter(|n| !seen.contains(**n))
        .map(|n| n.to_string())
        .collect();
    Ok(Restricted {
        text,
        asserts,
        unknown_names,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const UC: &str = "(set-option :print-success false)\n(set-option :produce-unsat-cores true)\n(set-logic QF_UF)\n(declare-fun p () Bool)\n(assert (! p :named smtcomp1))\n(assert (! (not p) :named smtcomp2))\n(assert (! (or p |a )b|) :named |smtcomp3|))\n(assert (! (forall ((x Int)) (! (> x 0) :pattern (x))) :named smtcomp4 :weight 2))\n(check-sat)\n(get-unsat-core)\n(exit)\n";

    fn core(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn keeps_only_the_core_names_stripped() {
        let r = restrict(UC.as_bytes(), &core(&["smtcomp1", "smtcomp3", "nope"])).unwrap();
        assert_eq!(
            String::from_utf8(r.text).unwrap(),
            "(set-option :print-success false)\n(set-logic QF_UF)\n(declare-fun p () Bool)\n(assert p)\n(assert (or p |a )b|))\n(check-sat)\n(exit)\n"
        );
        assert_eq!((r.asserts, r.unknown_names), (2, vec!["nope".to_string()]));
        let r = restrict(UC.as_bytes(), &core(&["smtcomp4"])).unwrap();
        let t = String::from_utf8(r.text).unwrap();
        assert!(
            t.contains("(assert (! (forall ((x Int)) (! (> x 0) :pattern (x))) :weight 2))\n"),
            "{t}"
        );
        assert_eq!(restrict(UC.as_bytes(), &[]).unwrap().asserts, 0);
    }

    #[test]
    fn unnamed_assertions_are_kept_and_bad_input_is_an_error() {
        let r = restrict(b"(assert q)(assert (! r :named a))", &core(&[])).unwrap();
        assert_eq!(r.text, b"(assert q)\n");
        assert!(restrict(b"(assert (! p :named a)", &core(&["a"])).is_err());
        let e = restrict(b"(assert (!))", &core(&["a"])).unwrap_err();
        assert!(
            matches!(e, RestrictError::EmptyAnnotation(p) if p.line == 1),
            "{e}"
        );
        assert!(e.to_string().contains("line 1"), "{e}");
    }
}
