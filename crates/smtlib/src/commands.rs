//! Splitting an SMT-LIB script into top-level commands, streaming.
//!
//! A command is the text from a top-level `(` to its matching `)`, kept byte
//! for byte (inner whitespace, comments, string literals with embedded
//! newlines included). Whitespace and comments *between* commands are consumed
//! and not part of any command. Anything else at top level (a stray `)`, an
//! atom outside parentheses) is a [`CommandError`].

use std::io::BufRead;
use std::ops::Range;

use super::lexer::{LexError, Lexer, Position, TokenKind};
use super::status::Status;

/// What a command is, as far as an incremental-track driver cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandKind {
    /// `(check-sat)` (no arguments), in any spacing.
    CheckSat,
    /// `(check-sat-assuming ...)`.
    CheckSatAssuming,
    /// `(exit)` (no arguments), in any spacing.
    Exit,
    /// `(set-info :status X)` with X one of `sat`, `unsat`, `unknown`.
    SetInfoStatus(Status),
    /// Any other command, including malformed ones such as `(check-sat x)`.
    Other,
}

impl CommandKind {
    /// True for the commands that expect a `sat`/`unsat`/`unknown` answer.
    pub fn is_query(self) -> bool {
        matches!(self, CommandKind::CheckSat | CommandKind::CheckSatAssuming)
    }
}

/// One top-level command, borrowed from the [`CommandReader`]'s buffer.
#[derive(Debug, Clone)]
pub struct Command<'a> {
    /// The exact bytes from `(` to the matching `)`.
    pub text: &'a [u8],
    /// Where the opening parenthesis is.
    pub pos: Position,
    /// The classification of the command.
    pub kind: CommandKind,
    head: Option<Range<usize>>,
}

impl<'a> Command<'a> {
    /// The head symbol (e.g. `b"assert"`), if the command starts with a simple symbol.
    pub fn head(&self) -> Option<&'a [u8]> {
        self.head.clone().map(|r| &self.text[r])
    }

    /// Where the head symbol is in [`Command::text`] (comments between `(`
    /// and the head are not the head, even when they contain its name).
    pub fn head_span(&self) -> Option<Range<usize>> {
        self.head.clone()
    }
}

/// A malformed script.
#[derive(Debug)]
pub enum CommandError {
    /// A token other than `(` at top level.
    Unexpected {
        /// What was found (e.g. `')'`, `symbol`).
        what: &'static str,
        /// Where.
        pos: Position,
    },
    /// End of input before the command's closing parenthesis.
    UnterminatedCommand(Position),
    /// A lexical problem (unterminated string or quoted symbol, I/O).
    Lex(LexError),
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::Unexpected { what, pos } => {
                write!(f, "{pos}: unexpected {what} outside a command")
            }
            CommandError::UnterminatedCommand(pos) => {
                write!(f, "unexpected EOF inside the command starting at {pos}")
            }
            CommandError::Lex(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CommandError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CommandError::Lex(e) => e.source(),
            _ => None,
        }
    }
}

impl From<LexError> for CommandError {
    fn from(e: LexError) -> CommandError {
        CommandError::Lex(e)
    }
}

/// Streaming reader of top-level commands.
pub struct CommandReader<R> {
    lexer: Lexer<R>,
    buf: Vec<u8>,
}

/// Up to this many depth-1 arguments are remembered for classification.
const KEPT_ARGS: usize = 2;

impl<R: BufRead> CommandReader<R> {
    /// Creates a reader starting at line 1.
    pub fn new(src: R) -> Self {
        Self::from_lexer(Lexer::new(src))
    }

    /// Creates a reader from a lexer (e.g. one positioned after a header).
    pub fn from_lexer(lexer: Lexer<R>) -> Self {
        CommandReader {
            lexer,
            buf: Vec::with_capacity(256),
        }
    }

    /// The underlying reader (see [`Lexer::get_mut`]).
    pub fn get_mut(&mut self) -> &mut R {
        self.lexer.get_mut()
    }

    /// The position of the next unread byte.
    pub fn position(&self) -> Position {
        self.lexer.position()
    }

    /// Reads the next command; `Ok(None)` at a clean end of input.
    pub fn next_command(&mut self) -> Result<Option<Command<'_>>, CommandError> {
        self.buf.clear();
        // Shrink a buffer that once held a huge command, to keep memory flat.
        if self.buf.capacity() > 1 << 20 {
            self.buf = Vec::with_capacity(256);
        }
        let Some(open) = self.lexer.next_token(&mut self.buf, false)? else {
            return Ok(None);
        };
        if open.kind != TokenKind::LParen {
            return Err(CommandError::Unexpected {
                what: open.kind.describe(),
                pos: open.pos,
            });
        }
        let mut depth = 1usize;
        let mut head: Option<Range<usize>> = None;
        let mut first = true;
        let mut nargs = 0usize;
        let mut args: [Option<(TokenKind, Range<usize>)>; KEPT_ARGS] = [None, None];
        loop {
            let Some(tok) = self.lexer.next_token(&mut self.buf, true)? else {
                return Err(CommandError::UnterminatedCommand(open.pos));
            };
            match tok.kind {
                TokenKind::RParen => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                kind => {
                    if depth == 1 {
                        if first {
                            if kind == TokenKind::Symbol {
                                head = Some(tok.start..tok.end);
                            }
                        } else {
                            if nargs < KEPT_ARGS {
                                args[nargs] = Some((kind, tok.start..tok.end));
                            }
                            nargs += 1;
                        }
                        first = false;
                    }
                    if kind == TokenKind::LParen {
                        depth += 1;
                    }
                }
            }
        }
        let text = &self.buf[..];
        let head_bytes = head.clone().map(|r| &text[r]);
        let kind = classify(head_bytes, nargs, &args, text);
        Ok(Some(Command {
            text,
            pos: open.pos,
            kind,
            head,
        }))
    }
}

fn classify(
    head: Option<&[u8]>,
    nargs: usize,
    args: &[Option<(TokenKind, Range<usize>)>; KEPT_ARGS],
    text: &[u8],
) -> CommandKind {
    match (head, nargs) {
        (Some(b"check-sat"), 0) => CommandKind::CheckSat,
        (Some(b"check-sat-assuming"), _) => CommandKind::CheckSatAssuming,
        (Some(b"exit"), 0) => CommandKind::Exit,
        (Some(b"set-info"), 2) => match args {
            [
                Some((TokenKind::Keyword, key)),
                Some((TokenKind::Symbol, value)),
            ] if &text[key.clone()] == b":status" => Status::parse(&text[value.clone()])
                .map_or(CommandKind::Other, CommandKind::SetInfoStatus),
            _ => CommandKind::Other,
        },
        _ => CommandKind::Other,
    }
}
