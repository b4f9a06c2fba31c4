//! A buffered reader for random access that keeps its buffer across seeks.
//!
//! `std::io::BufReader` drops its buffer on every `seek`, so a reader that
//! seeks to each small piece it reads (the `zip` crate: the local header of a
//! member, then its data) makes a system call for every piece. [`SeekBuf`]
//! keeps a window of the underlying reader and serves any read that falls
//! inside it from memory: reading the members of a ZIP archive in order
//! costs one system call per window instead of about four per member.
//!
//! The underlying reader must not change while it is read (a file being
//! rewritten may be seen partly old, partly new, as with any buffering).

use std::io::{Read, Seek, SeekFrom};

/// Bytes kept per window by [`SeekBuf::new`].
pub const DEFAULT_WINDOW: usize = 256 << 10;

/// A `Read + Seek` over `R` that serves reads from a window of its bytes.
pub struct SeekBuf<R> {
    inner: R,
    buf: Vec<u8>,
    /// Offset in `inner` of `buf[0]`.
    start: u64,
    /// Valid bytes in `buf`.
    len: usize,
    /// The logical position (what `stream_position` answers).
    pos: u64,
    /// Where `inner` stands, when known (saves a seek before a read).
    inner_pos: Option<u64>,
}

impl<R: Read + Seek> SeekBuf<R> {
    /// A reader with windows of [`DEFAULT_WINDOW`] bytes, at the current
    /// position of `inner`.
    pub fn new(inner: R) -> std::io::Result<Self> {
        Self::with_window(inner, DEFAULT_WINDOW)
    }

    /// A reader with windows of `window` bytes (at least 1).
    pub fn with_window(mut inner: R, window: usize) -> std::io::Result<Self> {
        let pos = inner.stream_position()?;
        Ok(SeekBuf {
            inner,
            buf: vec![0; window.max(1)],
            start: pos,
            len: 0,
            pos,
            inner_pos: Some(pos),
        })
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// Moves `inner` to `pos` unless it is there.
    fn place_inner(&mut self, pos: u64) -> std::io::Result<()> {
        if self.inner_pos != Some(pos) {
            self.inner_pos = None;
            self.inner.seek(SeekFrom::Start(pos))?;
            self.inner_pos = Some(pos);
        }
        Ok(())
    }

    /// Reads into `out` from `inner` at `self.pos`, bypassing the window.
    fn read_direct(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.place_inner(self.pos)?;
        let n = self.inner.read(out);
        let n = match n {
            Ok(n) => n,
            Err(e) => {
                self.inner_pos = None;
                return Err(e);
            }
        };
        self.inner_pos = Some(self.pos + n as u64);
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Read for SeekBuf<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let end = self.start + self.len as u64;
        if self.pos < self.start || self.pos >= end {
            if out.len() >= self.buf.len() {
                return self.read_direct(out);
            }
            // Refill the window at the position.
            self.len = 0;
            self.start = self.pos;
            self.place_inner(self.pos)?;
            let n = match self.inner.read(&mut self.buf) {
                Ok(n) => n,
                Err(e) => {
                    self.inner_pos = None;
                    return Err(e);
                }
            };
            self.len = n;
            self.inner_pos = Some(self.pos + n as u64);
            if n == 0 {
                return Ok(0);
            }
        }
        let from = (self.pos - self.start) as usize;
        let n = (self.len - from).min(out.len());
        out[..n].copy_from_slice(&self.buf[from..from + n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Seek for SeekBuf<R> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
            SeekFrom::End(_) => {
                // Only the underlying reader knows its end.
                self.inner_pos = None;
                let at = self.inner.seek(to)?;
                self.inner_pos = Some(at);
                Some(at)
            }
        };
        let Some(target) = target else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "invalid seek to a negative or overflowing position",
            ));
        };
        self.pos = target;
        Ok(target)
    }

    fn stream_position(&mut self) -> std::io::Result<u64> {
        Ok(self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::io::Cursor;

    #[derive(Debug, Clone)]
    enum Op {
        Read(usize),
        Start(u64),
        Current(i64),
        End(i64),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0usize..80).prop_map(Op::Read),
            (0u64..300).prop_map(Op::Start),
            (-100i64..100).prop_map(Op::Current),
            (-250i64..10).prop_map(Op::End),
        ]
    }

    proptest! {
        /// Every read gives the bytes at the position (at least one when
        /// any is left and asked for) and every seek goes where it should,
        /// whatever the window size (smaller and larger than the reads).
        #[test]
        fn reads_and_seeks_match_the_bytes(
            data in proptest::collection::vec(any::<u8>(), 0..250),
            window in 1usize..64,
            ops in proptest::collection::vec(op(), 0..60),
        ) {
            let len = data.len() as u64;
            let mut r = SeekBuf::with_window(Cursor::new(data.clone()), window).unwrap();
            let mut p = 0u64;
            for op in &ops {
                match *op {
                    Op::Read(n) => {
                        let mut b = vec![0; n];
                        let k = r.read(&mut b).unwrap();
                        let left = len.saturating_sub(p) as usize;
                        prop_assert!(k <= n.min(left));
                        prop_assert!(k > 0 || n == 0 || left == 0);
                        if k > 0 {
                            prop_assert_eq!(&b[..k], &data[p as usize..p as usize + k]);
                        }
                        p += k as u64;
                    }
                    Op::Start(n) => {
                        prop_assert_eq!(r.seek(SeekFrom::Start(n)).unwrap(), n);
                        p = n;
                    }
                    Op::Current(d) => match p.checked_add_signed(d) {
                        Some(t) => {
                            prop_assert_eq!(r.seek(SeekFrom::Current(d)).unwrap(), t);
                            p = t;
                        }
                        None => prop_assert!(r.seek(SeekFrom::Current(d)).is_err()),
                    },
                    Op::End(d) => match len.checked_add_signed(d) {
                        Some(t) => {
                            prop_assert_eq!(r.seek(SeekFrom::End(d)).unwrap(), t);
                            p = t;
                        }
                        None => prop_assert!(r.seek(SeekFrom::End(d)).is_err()),
                    },
                }
                prop_assert_eq!(r.stream_position().unwrap(), p);
            }
        }
    }

    /// Counts the reads and seeks reaching the underlying reader.
    struct Counting {
        inner: Cursor<Vec<u8>>,
        reads: usize,
        seeks: usize,
    }

    impl Read for Counting {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.reads += 1;
            self.inner.read(out)
        }
    }

    impl Seek for Counting {
        fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
            self.seeks += 1;
            self.inner.seek(to)
        }
    }

    #[test]
    fn small_reads_in_order_with_seeks_between_cost_one_read_per_window() {
        let data: Vec<u8> = (0..10_000u32).map(|i| i as u8).collect();
        let inner = Counting {
            inner: Cursor::new(data.clone()),
            reads: 0,
            seeks: 0,
        };
        let mut r = SeekBuf::with_window(inner, 1000).unwrap();
        let mut got = Vec::new();
        let mut at = 0u64;
        while at < 10_000 {
            // A header, then the data after a seek, as the zip crate reads.
            r.seek(SeekFrom::Start(at)).unwrap();
            let mut h = [0u8; 30];
            r.read_exact(&mut h).unwrap();
            got.extend_from_slice(&h);
            r.stream_position().unwrap();
            let mut d = [0u8; 70];
            r.read_exact(&mut d).unwrap();
            got.extend_from_slice(&d);
            at += 100;
        }
        assert_eq!(got, data);
        let c = r.get_ref();
        assert_eq!(c.reads, 10, "one read per window");
        assert!(c.seeks <= 10, "{} seeks", c.seeks);
    }

    #[test]
    fn a_seek_before_the_start_is_an_error_and_keeps_the_position() {
        let mut r = SeekBuf::with_window(Cursor::new(vec![1u8, 2, 3]), 2).unwrap();
        r.seek(SeekFrom::Start(2)).unwrap();
        assert!(r.seek(SeekFrom::Current(-3)).is_err());
        assert_eq!(r.stream_position().unwrap(), 2);
        let mut b = [0u8; 4];
        assert_eq!(r.read(&mut b).unwrap(), 1);
        assert_eq!(b[0], 3);
    }

    #[test]
    fn reads_bigger_than_the_window_go_directly() {
        let data: Vec<u8> = (0..100u8).collect();
        let mut r = SeekBuf::with_window(Cursor::new(data.clone()), 8).unwrap();
        let mut b = vec![0u8; 50];
        r.read_exact(&mut b).unwrap();
        assert_eq!(&b[..], &data[..50]);
        let mut rest = Vec::new();
        r.read_to_end(&mut rest).unwrap();
        assert_eq!(&rest[..], &data[50..]);
    }
}
