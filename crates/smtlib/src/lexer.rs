//! Streaming SMT-LIB 2.6 lexer.
//!
//! The lexer reads bytes from any [`BufRead`] and never needs the whole input in
//! memory. It follows SMT-LIB 2.6 (§3.1 of the standard):
//!
//! * string literals `"..."`, where `""` is the only escape (a backslash is an
//!   ordinary character);
//! * quoted symbols `|...|`, which have no escapes at all;
//! * comments from `;` to the end of the line;
//! * parentheses, which only count outside the three constructs above.
//!
//! Everything else is an *atom*: a maximal run of bytes that are not whitespace,
//! parentheses, `"`, `|` or `;`. Atoms are classified (symbol, keyword, numeral,
//! ...) but never rejected: judging their well-formedness is the solver's job.
//!
//! The lexer appends the raw bytes of every token to a caller-provided sink, and
//! optionally the whitespace and comments in front of it, so a caller can
//! reproduce the input byte for byte (see [`crate::commands`]).

use std::fmt;
use std::io::{self, BufRead};

/// The category of a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// A simple symbol such as `check-sat` or `x!1`.
    Symbol,
    /// A quoted symbol `|...|` (raw bytes include the bars).
    QuotedSymbol,
    /// A keyword such as `:status`.
    Keyword,
    /// A string literal `"..."` (raw bytes include the quotes).
    String,
    /// A numeral such as `42`.
    Numeral,
    /// A decimal such as `4.2`.
    Decimal,
    /// A hexadecimal literal such as `#xFF`.
    Hexadecimal,
    /// A binary literal such as `#b0101`.
    Binary,
}

impl TokenKind {
    /// A short human-readable name, used in diagnostics.
    pub fn describe(self) -> &'static str {
        match self {
            TokenKind::LParen => "'('",
            TokenKind::RParen => "')'",
            TokenKind::Symbol => "symbol",
            TokenKind::QuotedSymbol => "quoted symbol",
            TokenKind::Keyword => "keyword",
            TokenKind::String => "string literal",
            TokenKind::Numeral => "numeral",
            TokenKind::Decimal => "decimal",
            TokenKind::Hexadecimal => "hexadecimal literal",
            TokenKind::Binary => "binary literal",
        }
    }
}

/// A line/column position (both 1-based; columns count bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Position {
    /// 1-based line number.
    pub line: u64,
    /// 1-based byte column.
    pub column: u64,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// One token. Its raw bytes are `sink[start..end]` of the sink passed to
/// [`Lexer::next_token`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// The token category.
    pub kind: TokenKind,
    /// Where the token starts in the input.
    pub pos: Position,
    /// Start offset of the raw token bytes in the sink.
    pub start: usize,
    /// End offset (exclusive) of the raw token bytes in the sink.
    pub end: usize,
}

/// A lexical error.
#[derive(Debug)]
pub enum LexError {
    /// End of input inside a string literal.
    UnterminatedString(Position),
    /// End of input inside a quoted symbol.
    UnterminatedQuotedSymbol(Position),
    /// The underlying reader failed.
    Io(io::Error),
}

impl std::fmt::Display for LexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LexError::UnterminatedString(pos) => {
                write!(f, "unterminated string literal starting at {pos}")
            }
            LexError::UnterminatedQuotedSymbol(pos) => {
                write!(f, "unterminated quoted symbol starting at {pos}")
            }
            LexError::Io(e) => write!(f, "cannot read input: {e}"),
        }
    }
}

impl std::error::Error for LexError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LexError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for LexError {
    fn from(e: io::Error) -> LexError {
        LexError::Io(e)
    }
}

/// Whitespace as defined by SMT-LIB (space, tab, line feed, carriage return),
/// plus form feed and vertical tab, which are harmless to accept.
#[inline]
pub fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Moves a line/column position over `bytes`.
#[inline]
fn advance(line: &mut u64, column: &mut u64, bytes: &[u8]) {
    match bytes.iter().rposition(|&c| c == b'\n') {
        Some(last) => {
            *line += bytes.iter().filter(|&&c| c == b'\n').count() as u64;
            *column = (bytes.len() - last) as u64;
        }
        None => *column += bytes.len() as u64,
    }
}

/// Bytes that end an atom.
#[inline]
fn is_delimiter(b: u8) -> bool {
    is_whitespace(b) || matches!(b, b'(' | b')' | b'"' | b'|' | b';')
}

/// Streaming SMT-LIB lexer over a buffered reader.
pub struct Lexer<R> {
    src: R,
    line: u64,
    column: u64,
}

impl<R: BufRead> Lexer<R> {
    /// Creates a lexer positioned at line 1, column 1.
    pub fn new(src: R) -> Self {
        Self::with_position(src, Position { line: 1, column: 1 })
    }

    /// Creates a lexer whose first byte is at `pos` (useful when a header was
    /// consumed from the same reader before).
    pub fn with_position(src: R, pos: Position) -> Self {
        Lexer {
            src,
            line: pos.line,
            column: pos.column,
        }
    }

    /// The position of the next unread byte.
    pub fn position(&self) -> Position {
        Position {
            line: self.line,
            column: self.column,
        }
    }

    /// The underlying reader. Consuming bytes through it bypasses position
    /// tracking.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.src
    }

    /// Gives back the underlying reader.
    pub fn into_inner(self) -> R {
        self.src
    }

    /// Reads the next token, appending its raw bytes to `sink`.
    ///
    /// Whitespace and comments before the token are skipped; when
    /// `keep_trivia` is true they are appended to `sink` too. Returns
    /// `Ok(None)` at end of input (after any trailing trivia).
    pub fn next_token(
        &mut self,
        sink: &mut Vec<u8>,
        keep_trivia: bool,
    ) -> Result<Option<Token>, LexError> {
        self.skip_trivia(sink, keep_trivia)?;
        let Some(b) = self.peek()? else {
            return Ok(None);
        };
        let pos = self.position();
        let start = sink.len();
        let kind = match b {
            b'(' => {
                self.bump(sink, b);
                TokenKind::LParen
            }
            b')' => {
                self.bump(sink, b);
                TokenKind::RParen
            }
            b'"' => {
                self.read_string(sink, pos)?;
                TokenKind::String
            }
            b'|' => {
                self.bump(sink, b);
                if !self.take_until(sink, b'|')? {
                    return Err(LexError::UnterminatedQuotedSymbol(pos));
                }
                TokenKind::QuotedSymbol
            }
            _ => {
                self.take_while(Some(sink), |c| !is_delimiter(c))?;
                classify_atom(&sink[start..])
            }
        };
        Ok(Some(Token {
            kind,
            pos,
            start,
            end: sink.len(),
        }))
    }

    /// Skips whitespace and comments (appending them to `sink` if asked).
    fn skip_trivia(&mut self, sink: &mut Vec<u8>, keep: bool) -> Result<(), LexError> {
        loop {
            self.take_while(keep.then_some(&mut *sink), is_whitespace)?;
            if self.peek()? != Some(b';') {
                return Ok(());
            }
            self.take_while(keep.then_some(&mut *sink), |c| c != b'\n')?;
        }
    }

    /// Reads a string literal; the opening quote is the next byte.
    fn read_string(&mut self, sink: &mut Vec<u8>, pos: Position) -> Result<(), LexError> {
        self.bump(sink, b'"');
        loop {
            if !self.take_until(sink, b'"')? {
                return Err(LexError::UnterminatedString(pos));
            }
            // `""` inside a string is an escaped quote; anything else ends it.
            if self.peek()? == Some(b'"') {
                self.bump(sink, b'"');
            } else {
                return Ok(());
            }
        }
    }

    #[inline]
    fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.src.fill_buf() {
                Ok(buf) => return Ok(buf.first().copied()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Consumes the byte `b` that [`Self::peek`] just returned.
    #[inline]
    fn bump(&mut self, sink: &mut Vec<u8>, b: u8) {
        self.src.consume(1);
        sink.push(b);
        self.advance(&[b]);
    }

    #[inline]
    fn advance(&mut self, bytes: &[u8]) {
        advance(&mut self.line, &mut self.column, bytes);
    }

    /// Consumes bytes while `pred` holds, appending them to `sink` if given.
    fn take_while(
        &mut self,
        mut sink: Option<&mut Vec<u8>>,
        pred: impl Fn(u8) -> bool,
    ) -> io::Result<()> {
        loop {
            let buf = match self.src.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(());
            }
            let n = buf.iter().position(|&c| !pred(c)).unwrap_or(buf.len());
            let done = n < buf.len();
            advance(&mut self.line, &mut self.column, &buf[..n]);
            if let Some(sink) = sink.as_deref_mut() {
                sink.extend_from_slice(&buf[..n]);
            }
            self.src.consume(n);
            if done {
                return Ok(());
            }
        }
    }

    /// Consumes bytes up to and including `end`, appending them to `sink`.
    /// Returns false if the input ended first.
    fn take_until(&mut self, sink: &mut Vec<u8>, end: u8) -> io::Result<bool> {
        self.take_while(Some(sink), |c| c != end)?;
        match self.peek()? {
            Some(b) => {
                self.bump(sink, b);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// Classifies an atom (a non-empty run of non-delimiter bytes).
pub fn classify_atom(atom: &[u8]) -> TokenKind {
    match atom {
        [b':', ..] => TokenKind::Keyword,
        [b'#', b'x', rest @ ..] if !rest.is_empty() && rest.iter().all(u8::is_ascii_hexdigit) => {
            TokenKind::Hexadecimal
        }
        [b'#', b'b', rest @ ..]
            if !rest.is_empty() && rest.iter().all(|&c| c == b'0' || c == b'1') =>
        {
            TokenKind::Binary
        }
        _ if atom.iter().all(u8::is_ascii_digit) => TokenKind::Numeral,
        _ => {
            let mut parts = atom.splitn(2, |&c| c == b'.');
            let int = parts.next().unwrap_or_default();
            match parts.next() {
                Some(frac)
                    if !int.is_empty()
                        && !frac.is_empty()
                        && int.iter().all(u8::is_ascii_digit)
                        && frac.iter().all(u8::is_ascii_digit) =>
                {
                    TokenKind::Decimal
                }
                _ => TokenKind::Symbol,
            }
        }
    }
}

/// A token with its own copy of the raw bytes, returned by [`tokenize`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedToken {
    /// The token category.
    pub kind: TokenKind,
    /// Where the token starts.
    pub pos: Position,
    /// The raw bytes (quotes and bars included).
    pub text: Vec<u8>,
}

/// Tokenizes a whole byte slice (comments and whitespace dropped).
pub fn tokenize(input: &[u8]) -> Result<Vec<OwnedToken>, LexError> {
    let mut lexer = Lexer::new(input);
    let mut sink = Vec::new();
    let mut out = Vec::new();
    while let Some(tok) = lexer.next_token(&mut sink, false)? {
        out.push(OwnedToken {
            kind: tok.kind,
            pos: tok.pos,
            text: sink[tok.start..tok.end].to_vec(),
        });
        sink.clear();
    }
    Ok(out)
}

/// The content of a string literal token: strips the quotes and turns `""`
/// into `"`.
pub fn string_content(raw: &[u8]) -> Vec<u8> {
    let inner = raw
        .strip_prefix(b"\"")
        .and_then(|r| r.strip_suffix(b"\""))
        .unwrap_or(raw);
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        out.push(inner[i]);
        if inner[i] == b'"' && inner.get(i + 1) == Some(&b'"') {
            i += 1;
        }
        i += 1;
    }
    out
}
