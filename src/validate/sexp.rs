//! S-expressions over the project's SMT-LIB lexer ([`crate::smtlib::Lexer`]),
//! with byte spans into the source so that terms can be copied verbatim.
//! Used for models (`(define-fun …)` lists) and for the assertions of
//! core-restricted benchmarks. Iterative (no recursion), so hostile nesting
//! cannot overflow the stack.

use crate::smtlib::{Lexer, TokenKind};
use std::ops::Range;

/// One node: an atom or a list.
#[derive(Debug)]
pub enum Sexp {
    /// A token other than a parenthesis.
    Atom {
        /// The token kind.
        kind: TokenKind,
        /// Its bytes in the source.
        span: Range<usize>,
    },
    /// `( … )`.
    List {
        /// From `(` to `)` inclusive.
        span: Range<usize>,
        /// The elements.
        items: Vec<Sexp>,
    },
}

impl Sexp {
    /// The node's byte span in the source.
    pub fn span(&self) -> Range<usize> {
        match self {
            Sexp::Atom { span, .. } | Sexp::List { span, .. } => span.clone(),
        }
    }

    /// The elements of a list (`None` for an atom).
    pub fn items(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List { items, .. } => Some(items),
            Sexp::Atom { .. } => None,
        }
    }

    /// The symbol's name (bars of a quoted symbol removed), for symbols only.
    pub fn symbol<'a>(&self, src: &'a [u8]) -> Option<&'a [u8]> {
        match self {
            Sexp::Atom {
                kind: TokenKind::Symbol,
                span,
            } => Some(&src[span.clone()]),
            Sexp::Atom {
                kind: TokenKind::QuotedSymbol,
                span,
            } => Some(&src[span.start + 1..span.end - 1]),
            _ => None,
        }
    }

    /// The head symbol of a list.
    pub fn head<'a>(&self, src: &'a [u8]) -> Option<&'a [u8]> {
        self.items()?.first()?.symbol(src)
    }
}

impl Drop for Sexp {
    // Iterative, so dropping a deeply nested tree cannot overflow the stack.
    fn drop(&mut self) {
        let Sexp::List { items, .. } = self else {
            return;
        };
        let mut pending = std::mem::take(items);
        while let Some(mut node) = pending.pop() {
            if let Sexp::List { items, .. } = &mut node {
                pending.append(items);
            }
        }
    }
}

/// Why a text is not a sequence of s-expressions (with line and column).
#[derive(Debug, thiserror::Error)]
pub enum SexpError {
    /// A lexical error of SMT-LIB.
    #[error(transparent)]
    Lexical(#[from] crate::smtlib::LexError),
    /// A `)` that closes nothing.
    #[error("{0}: unexpected ')'")]
    UnexpectedClose(crate::smtlib::Position),
    /// A `(` that is never closed.
    #[error("unbalanced parentheses: the list at {0} is not closed")]
    Unclosed(crate::smtlib::Position),
}

/// Parses every top-level s-expression of `src`. Errors name line and column.
pub fn parse_all(src: &[u8]) -> Result<Vec<Sexp>, SexpError> {
    parse(src, usize::MAX)
}

/// Parses at most `max` top-level s-expressions of `src` (the rest is not read).
pub fn parse(src: &[u8], max: usize) -> Result<Vec<Sexp>, SexpError> {
    let mut lexer = Lexer::new(src);
    // With trivia kept, the sink receives every byte: offsets are source offsets.
    let mut sink: Vec<u8> = Vec::with_capacity(src.len());
    let mut top: Vec<Sexp> = Vec::new();
    let mut stack: Vec<(usize, crate::smtlib::Position, Vec<Sexp>)> = Vec::new();
    while top.len() < max {
        let tok = match lexer.next_token(&mut sink, true) {
            Ok(Some(t)) => t,
            Ok(None) => break,
            Err(e) => return Err(e.into()),
        };
        let node = match tok.kind {
            TokenKind::LParen => {
                stack.push((tok.start, tok.pos, Vec::new()));
                continue;
            }
            TokenKind::RParen => match stack.pop() {
                Some((start, _, items)) => Sexp::List {
                    span: start..tok.end,
                    items,
                },
                None => return Err(SexpError::UnexpectedClose(tok.pos)),
            },
            kind => Sexp::Atom {
                kind,
                span: tok.start..tok.end,
            },
        };
        match stack.last_mut() {
            Some((_, _, items)) => items.push(node),
            None => top.push(node),
        }
    }
    if let Some((_, pos, _)) = stack.first() {
        return Err(SexpError::Unclosed(*pos));
    }
    Ok(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_symbols() {
        let src = b"; c\n( (define-fun |x y| () Int 1) ) tail";
        let t = parse(src, 1).unwrap();
        assert_eq!(t.len(), 1);
        let def = &t[0].items().unwrap()[0];
        assert_eq!(&src[def.span()], b"(define-fun |x y| () Int 1)");
        assert_eq!(def.head(src), Some(&b"define-fun"[..]));
        assert_eq!(def.items().unwrap()[1].symbol(src), Some(&b"x y"[..]));
        assert_eq!(parse_all(b"a (b) c").unwrap().len(), 3);
    }

    #[test]
    fn hostile_input_is_an_error_not_a_panic() {
        let e = parse_all(b"((a)").unwrap_err();
        assert!(
            matches!(e, SexpError::Unclosed(p) if (p.line, p.column) == (1, 1)),
            "{e}"
        );
        assert!(e.to_string().contains("line 1, column 1"), "{e}");
        assert!(matches!(
            parse_all(b"a)"),
            Err(SexpError::UnexpectedClose(_))
        ));
        assert!(matches!(parse_all(b"(\"abc"), Err(SexpError::Lexical(_))));
        let deep = "(".repeat(1_000_000) + &")".repeat(1_000_000);
        assert_eq!(parse_all(deep.as_bytes()).unwrap().len(), 1);
        let bin: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
        let _ = parse_all(&bin);
    }
}
