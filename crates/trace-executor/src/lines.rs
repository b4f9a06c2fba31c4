//! Splitting solver output into lines, with bounded memory.
//!
//! Lines are byte strings in any encoding; CRLF counts as LF. Leading
//! whitespace is dropped while assembling, at most [`LINE_CAP`] further bytes
//! are kept, and whitespace-only lines are skipped (as in the original). A
//! line that lost non-whitespace bytes to the cap is marked `truncated` and
//! can never equal a keyword.

use std::collections::VecDeque;

use smtcomp_smtlib::lexer::is_whitespace;

/// Bytes kept of one solver line (after its leading whitespace).
pub const LINE_CAP: usize = 64 * 1024;

/// One non-blank line of solver output.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    /// The line without its leading whitespace, at most [`LINE_CAP`] bytes,
    /// trailing whitespace and line end included.
    pub text: Vec<u8>,
    /// Non-whitespace bytes were dropped after the cap.
    pub truncated: bool,
}

impl Line {
    /// The trimmed content, or `None` when the line was truncated.
    pub fn token(&self) -> Option<&[u8]> {
        (!self.truncated).then(|| self.text.trim_ascii())
    }

    /// True if the trimmed line is exactly `word`.
    pub fn is(&self, word: &[u8]) -> bool {
        self.token() == Some(word)
    }

    fn is_blank(&self) -> bool {
        self.text.is_empty() && !self.truncated
    }
}

/// Accumulates raw output and yields complete non-blank lines.
#[derive(Debug, Default)]
pub struct LineAssembler {
    current: Line,
    ready: VecDeque<Line>,
}

impl LineAssembler {
    /// Feeds raw bytes.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let (part, done) = match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => (&bytes[..=i], true),
                None => (bytes, false),
            };
            self.append(part);
            bytes = &bytes[part.len()..];
            if done {
                self.finish_line();
            }
        }
    }

    fn append(&mut self, mut part: &[u8]) {
        if self.current.text.is_empty() {
            let skip = part
                .iter()
                .position(|&b| !is_whitespace(b))
                .unwrap_or(part.len());
            part = &part[skip..];
        }
        let room = LINE_CAP - self.current.text.len();
        if part.len() > room {
            let (kept, dropped) = part.split_at(room);
            self.current.text.extend_from_slice(kept);
            if dropped.iter().any(|&b| !is_whitespace(b)) {
                self.current.truncated = true;
            }
        } else {
            self.current.text.extend_from_slice(part);
        }
    }

    fn finish_line(&mut self) {
        let line = std::mem::take(&mut self.current);
        if !line.is_blank() {
            self.ready.push_back(line);
        }
    }

    /// Signals end of output: a final line without newline still counts.
    pub fn finish(&mut self) {
        self.finish_line();
    }

    /// The next complete non-blank line, if any.
    pub fn pop(&mut self) -> Option<Line> {
        self.ready.pop_front()
    }

    /// Number of complete lines waiting.
    pub fn pending(&self) -> usize {
        self.ready.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(chunks: &[&[u8]], finish: bool) -> Vec<Vec<u8>> {
        let mut a = LineAssembler::default();
        for c in chunks {
            a.feed(c);
        }
        if finish {
            a.finish();
        }
        std::iter::from_fn(|| a.pop()).map(|l| l.text).collect()
    }

    #[test]
    fn splits_and_skips_blank() {
        assert_eq!(
            lines(&[b"succ", b"ess\n\n  \r\n sat \r\nuns", b"at"], false),
            vec![b"success\n".to_vec(), b"sat \r\n".to_vec()]
        );
        assert_eq!(lines(&[b"unsat"], true), vec![b"unsat".to_vec()]);
        assert_eq!(lines(&[b"   "], true), Vec::<Vec<u8>>::new());
    }

    #[test]
    fn tokens() {
        let mut a = LineAssembler::default();
        a.feed(b"  sat \r\n");
        assert!(a.pop().unwrap().is(b"sat"));
    }

    #[test]
    fn huge_lines_are_capped() {
        let mut a = LineAssembler::default();
        a.feed(b"sat");
        a.feed(&vec![b' '; LINE_CAP * 2]);
        a.feed(b"\n");
        let l = a.pop().unwrap();
        assert!(!l.truncated && l.is(b"sat"));
        a.feed(&vec![b'x'; LINE_CAP * 2]);
        a.feed(b"\n");
        let l = a.pop().unwrap();
        assert!(l.truncated && l.token().is_none());
        assert_eq!(l.text.len(), LINE_CAP);
    }
}
