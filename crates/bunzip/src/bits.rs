//! Most-significant-bit-first bit reader over a [`BufRead`].

use crate::error::{Error, Result};
use std::io::BufRead;

/// Reads bits from `inner`, buffering at most 8 bytes of it: what is left in
/// the buffer after a stream's end (whole bytes) is the start of the next one.
pub struct BitReader<R> {
    inner: R,
    /// The next bits, first bit in the most significant position.
    buf: u64,
    /// How many bits of `buf` are valid.
    count: u32,
}

impl<R: BufRead> BitReader<R> {
    /// A reader at the start of `inner`.
    pub fn new(inner: R) -> Self {
        BitReader {
            inner,
            buf: 0,
            count: 0,
        }
    }

    /// Tops the buffer up to at least 57 bits, or to what the input has left.
    #[inline]
    fn refill(&mut self) -> Result<()> {
        while self.count <= 56 {
            let avail = match self.inner.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::Io(e)),
            };
            if avail.is_empty() {
                return Ok(());
            }
            let take = (((64 - self.count) / 8) as usize).min(avail.len());
            for &b in &avail[..take] {
                self.buf |= u64::from(b) << (56 - self.count);
                self.count += 8;
            }
            self.inner.consume(take);
        }
        Ok(())
    }

    /// Reads `n` bits (1 to 32) as a number.
    #[inline]
    pub fn bits(&mut self, n: u32) -> Result<u32> {
        debug_assert!((1..=32).contains(&n));
        if self.count < n {
            self.refill()?;
            if self.count < n {
                return Err(Error::Truncated);
            }
        }
        let v = (self.buf >> (64 - n)) as u32;
        self.buf <<= n;
        self.count -= n;
        Ok(v)
    }

    /// Reads one bit.
    #[inline]
    pub fn bit(&mut self) -> Result<bool> {
        Ok(self.bits(1)? == 1)
    }

    /// The next 24 bits without consuming them, zeros past the end of the
    /// input; [`BitReader::skip`] then checks that the bits used exist.
    #[inline]
    pub fn peek24(&mut self) -> Result<u32> {
        if self.count < 24 {
            self.refill()?;
        }
        Ok((self.buf >> 40) as u32)
    }

    /// Bits buffered (after [`BitReader::peek24`]: fewer than 24 only at the
    /// end of the input).
    #[inline]
    pub fn buffered(&self) -> u32 {
        self.count
    }

    /// Consumes `n` (1 to 24) bits seen by [`BitReader::peek24`].
    #[inline]
    pub fn skip(&mut self, n: u32) -> Result<()> {
        if self.count < n {
            return Err(Error::Truncated);
        }
        self.buf <<= n;
        self.count -= n;
        Ok(())
    }

    /// Drops the bits up to the next byte boundary of the input.
    pub fn align(&mut self) {
        let r = self.count % 8;
        self.buf = if r == 0 { self.buf } else { self.buf << r };
        self.count -= r;
    }

    /// Whether the input has no bits left (after [`BitReader::align`]).
    pub fn at_end(&mut self) -> Result<bool> {
        if self.count == 0 {
            self.refill()?;
        }
        Ok(self.count == 0)
    }
}
