//! What the executor prints on stdout, and how solver or benchmark text is
//! quoted in messages.
//!
//! Every line is flushed at once, so a SIGKILL from the harness never loses
//! an answer. Write errors on stdout are ignored: there is nowhere else to
//! report them (the executor never writes to stderr).

use std::io::{self, Write};

use smtcomp_smtlib::Status;

/// At most this many input bytes are shown inside quotes.
pub const QUOTE_LIMIT: usize = 1024;

/// The executor's stdout.
pub struct Output<W: Write = io::Stdout> {
    out: W,
}

impl Output<io::Stdout> {
    /// Output to the process's stdout.
    pub fn stdout() -> Self {
        Output { out: io::stdout() }
    }
}

impl<W: Write> Output<W> {
    /// Output to any writer (used by tests).
    pub fn new(out: W) -> Self {
        Output { out }
    }

    /// Prints one line and flushes.
    pub fn line(&mut self, text: &str) {
        let _ = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.write_all(b"\n"))
            .and_then(|()| self.out.flush());
    }

    /// Prints an accepted answer.
    pub fn answer(&mut self, status: Status) {
        self.line(status.as_str());
    }

    /// Prints `time <seconds>` in fixed-point notation (the `results.py` format).
    pub fn time(&mut self, seconds: f64) {
        let seconds = if seconds > 0.0 { seconds } else { 0.0 };
        self.line(&format!("time {seconds:.6}"));
    }

    /// Gives back the writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Our own words never contain "error" (any case): the tool-info reads that
/// word as the solver's ERROR. An I/O failure's text ("Input/output error
/// (os error 5)") says "failure" instead. Apply only to text without quoted
/// solver output (the solver's own `(error ...)` must stay visible).
pub fn own_words(text: &str) -> String {
    let text = &text.replace(" (os error ", " (errno ");
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(at) = lower[i..].find("error") {
        let at = i + at;
        out.push_str(&text[i..at]);
        out.push_str(if text.as_bytes()[at] == b'E' {
            "Failure"
        } else {
            "failure"
        });
        i = at + "error".len();
    }
    out.push_str(&text[i..]);
    out
}

/// Renders bytes for a single-line quoted message: a trailing CR/LF is
/// stripped, control bytes and invalid UTF-8 become `\xNN`, and more than
/// [`QUOTE_LIMIT`] bytes are cut with `...`.
pub fn quote(bytes: &[u8]) -> String {
    let mut text = bytes;
    while let [rest @ .., b'\n' | b'\r'] = text {
        text = rest;
    }
    let (shown, cut) = if text.len() > QUOTE_LIMIT {
        (&text[..QUOTE_LIMIT], true)
    } else {
        (text, false)
    };
    let mut out = String::with_capacity(shown.len() + 8);
    for chunk in shown.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                push_escaped(&mut out, c as u32);
            } else {
                out.push(c);
            }
        }
        for &b in chunk.invalid() {
            push_escaped(&mut out, u32::from(b));
        }
    }
    if cut {
        out.push_str("...");
    }
    out
}

fn push_escaped(out: &mut String, c: u32) {
    if c <= 0xff {
        out.push_str(&format!("\\x{c:02x}"));
    } else {
        out.push_str(&format!("\\u{{{c:x}}}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_strips_line_end_and_escapes() {
        assert_eq!(quote(b"unsupported\n"), "unsupported");
        assert_eq!(quote(b"sat\r\n"), "sat");
        assert_eq!(quote(b"a\tb\x00\x1b[1m"), "a\\x09b\\x00\\x1b[1m");
        assert_eq!(quote(b"\xff\xfeok"), "\\xff\\xfeok");
        assert_eq!(quote("é".as_bytes()), "é");
        assert_eq!(
            quote(b"(error \"line 1\nline 2\")"),
            "(error \"line 1\\x0aline 2\")"
        );
    }

    #[test]
    fn own_words_never_say_error() {
        assert_eq!(
            own_words("BAD benchmark (cannot read): Input/output error (os error 5)"),
            "BAD benchmark (cannot read): Input/output failure (errno 5)"
        );
        assert_eq!(own_words("ERRORS Error"), "FailureS Failure");
        assert_eq!(own_words("no such word"), "no such word");
    }

    #[test]
    fn quote_truncates() {
        let long = vec![b'a'; 5000];
        let q = quote(&long);
        assert_eq!(q.len(), QUOTE_LIMIT + 3);
        assert!(q.ends_with("a..."));
    }

    #[test]
    fn output_lines() {
        let mut o = Output::new(Vec::new());
        o.answer(Status::Unsat);
        o.time(1.5);
        o.time(-0.0);
        assert_eq!(o.into_inner(), b"unsat\ntime 1.500000\ntime 0.000000\n");
    }
}
