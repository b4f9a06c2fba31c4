//! The benchmark file: the header of expected answers, the marker line, and
//! the SMT-LIB body, read as a stream.
//!
//! ```text
//! ((sat|unsat|unknown)\n)*
//! --- BENCHMARK BEGINS HERE ---
//! <SMT-LIB script>
//! ```
//!
//! Header entries and the marker may carry surrounding whitespace and CRLF.
//! Expectations take one byte each; the body is never loaded as a whole.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use smtcomp_smtlib::{CommandReader, Lexer, Position, Status};

use super::output::{own_words, quote};

/// The marker line that ends the header.
pub const MARKER: &[u8] = b"--- BENCHMARK BEGINS HERE ---";

/// Header lines longer than this are necessarily invalid; only this much is kept.
const HEADER_LINE_CAP: usize = 4096;

/// Read buffer size for the benchmark.
const READ_BUFFER: usize = 1 << 16;

/// Why the benchmark cannot be used; `Display` is the exact stdout line.
#[derive(Debug)]
pub enum InputError {
    /// The file cannot be opened (or is a directory).
    CannotOpen(std::path::PathBuf),
    /// Reading failed half-way.
    Read(io::Error),
    /// A header line that is not an expectation nor the marker.
    BadHeaderLine(Vec<u8>),
    /// End of file before the marker.
    MissingMarker,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::CannotOpen(path) => write!(
                f,
                "BAD benchmark (cannot open): '{}'",
                quote(path.as_os_str().as_encoded_bytes())
            ),
            InputError::Read(e) => {
                f.write_str(&own_words(&format!("BAD benchmark (cannot read): {e}")))
            }
            InputError::BadHeaderLine(line) => write!(f, "BAD expected result: '{}'", quote(line)),
            InputError::MissingMarker => {
                f.write_str("BAD benchmark: missing '--- BENCHMARK BEGINS HERE ---'")
            }
        }
    }
}

impl std::error::Error for InputError {}

/// The expected answers of a header.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    /// Expectations of the queries that will be run, in order.
    pub expected: Vec<Status>,
    /// Number of header lines including the marker.
    pub lines: u64,
}

/// Opens a benchmark for buffered reading.
pub fn open(path: &Path) -> Result<BufReader<File>, InputError> {
    let file = File::open(path).map_err(|_| InputError::CannotOpen(path.to_path_buf()))?;
    match file.metadata() {
        Ok(m) if !m.is_dir() => Ok(BufReader::with_capacity(READ_BUFFER, file)),
        _ => Err(InputError::CannotOpen(path.to_path_buf())),
    }
}

/// Trims ASCII whitespace (including `\r`) on both sides.
pub fn trim(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

/// Reads the header up to and including the marker line.
///
/// Without `all_entries` (the original's default) only the leading run of
/// `sat`/`unsat` entries is kept; the remaining lines are still validated.
pub fn read_header<R: BufRead>(src: &mut R, all_entries: bool) -> Result<Header, InputError> {
    let mut header = Header::default();
    let mut stored_all = true;
    let mut line = Vec::new();
    loop {
        let Some(cut) =
            read_capped_line(src, &mut line, HEADER_LINE_CAP).map_err(InputError::Read)?
        else {
            return Err(InputError::MissingMarker);
        };
        header.lines += 1;
        if cut {
            // Only whitespace may follow a valid entry; anything else beyond
            // the cap makes the line invalid (`sat` + spaces + `x` is not `sat`).
            return Err(InputError::BadHeaderLine(line.clone()));
        }
        let word = trim(&line);
        if word == MARKER {
            return Ok(header);
        }
        let status = Status::parse(word).ok_or_else(|| InputError::BadHeaderLine(line.clone()))?;
        if status == Status::Unknown && !all_entries {
            stored_all = false;
        }
        if stored_all {
            header.expected.push(status);
        }
    }
}

/// Reads one line (through `\n`) into `line`, keeping at most `cap` bytes and
/// discarding the rest. Returns `None` at end of input with nothing read, else
/// whether a byte other than whitespace was discarded.
pub fn read_capped_line<R: BufRead>(
    src: &mut R,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<bool>> {
    line.clear();
    let mut any = false;
    let mut cut = false;
    loop {
        let buf = match src.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(cut));
        }
        any = true;
        let (n, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = cap.saturating_sub(line.len());
        let kept = n.min(room);
        line.extend_from_slice(&buf[..kept]);
        cut |= buf[kept..n].iter().any(|b| !b.is_ascii_whitespace());
        src.consume(n);
        if done {
            return Ok(Some(cut));
        }
    }
}

/// Makes a command reader for the body, with line numbers continuing after
/// `header_lines` lines.
pub fn body<R: BufRead>(src: R, header_lines: u64) -> CommandReader<R> {
    CommandReader::from_lexer(Lexer::with_position(
        src,
        Position {
            line: header_lines + 1,
            column: 1,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(text: &str, all: bool) -> Result<Header, InputError> {
        read_header(&mut text.as_bytes(), all)
    }

    #[test]
    fn leading_run_without_flag() {
        let h = header(
            "sat\nunsat\nunknown\nsat\n--- BENCHMARK BEGINS HERE ---\n",
            false,
        )
        .unwrap();
        assert_eq!(h.expected, vec![Status::Sat, Status::Unsat]);
        assert_eq!(h.lines, 5);
        let h = header(
            "sat\nunsat\nunknown\nsat\n--- BENCHMARK BEGINS HERE ---\n",
            true,
        )
        .unwrap();
        assert_eq!(h.expected.len(), 4);
    }

    #[test]
    fn whitespace_and_crlf_tolerated() {
        let h = header(
            "  sat \r\n\tunsat\r\n  --- BENCHMARK BEGINS HERE ---  \r\n",
            false,
        )
        .unwrap();
        assert_eq!(h.expected, vec![Status::Sat, Status::Unsat]);
    }

    #[test]
    fn bad_lines() {
        let e = header("sat\n\n--- BENCHMARK BEGINS HERE ---\n", false).unwrap_err();
        assert_eq!(e.to_string(), "BAD expected result: ''");
        let e = header("satisfiable\r\n", false).unwrap_err();
        assert_eq!(e.to_string(), "BAD expected result: 'satisfiable'");
        let e = header("sat\n", false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "BAD benchmark: missing '--- BENCHMARK BEGINS HERE ---'"
        );
        let e = header("", false).unwrap_err();
        assert!(matches!(e, InputError::MissingMarker));
    }

    #[test]
    fn header_line_beyond_the_cap_is_not_an_entry() {
        let long = format!("sat{}x\n--- BENCHMARK BEGINS HERE ---\n", " ".repeat(5000));
        let e = header(&long, false).unwrap_err();
        assert!(
            e.to_string().starts_with("BAD expected result: 'sat   "),
            "{e}"
        );
        // Trailing whitespace beyond the cap is still whitespace.
        let ok = format!("sat{}\n--- BENCHMARK BEGINS HERE ---\n", " ".repeat(5000));
        assert_eq!(header(&ok, false).unwrap().expected, vec![Status::Sat]);
    }

    #[test]
    fn capped_line() {
        let mut src = "abcdef\nxy".as_bytes();
        let mut line = Vec::new();
        assert_eq!(
            read_capped_line(&mut src, &mut line, 3).unwrap(),
            Some(true)
        );
        assert_eq!(line, b"abc");
        assert_eq!(
            read_capped_line(&mut src, &mut line, 3).unwrap(),
            Some(false)
        );
        assert_eq!(line, b"xy");
        assert_eq!(read_capped_line(&mut src, &mut line, 3).unwrap(), None);
        let mut src = "sat   \r\n".as_bytes();
        assert_eq!(
            read_capped_line(&mut src, &mut line, 4).unwrap(),
            Some(false)
        );
    }
}
