//! Canonical Huffman decoding tables of one coding group.
//!
//! Codes are assigned in the canonical order (by length, then by symbol), as
//! the format defines. A code that is not assigned to a symbol of the group's
//! alphabet is an error; over-subscribed or incomplete sets of lengths are not
//! rejected as such, only the codes that resolve to no symbol.

use crate::bits::BitReader;
use crate::error::{Error, Result};
use std::io::BufRead;

/// Longest code the format allows.
pub const MAX_CODE_LEN: usize = 20;
/// Bits resolved by one table look-up.
const FAST_BITS: u32 = 10;
/// Table entry of a code longer than [`FAST_BITS`].
const SLOW: u32 = 0;
/// Table entry of a prefix that resolves to no symbol.
const INVALID: u32 = u32::MAX;

/// The decoding tables of one group.
pub struct Table {
    /// For each `FAST_BITS`-bit prefix: `length << 16 | symbol`, [`SLOW`] or
    /// [`INVALID`].
    fast: [u32; 1 << FAST_BITS],
    /// Per length: the last code of that length (`-1` when none).
    limit: [i64; MAX_CODE_LEN + 1],
    /// Per length: what to add to a code of that length to get its index in
    /// `perm`.
    offset: [i64; MAX_CODE_LEN + 1],
    /// Symbols in canonical order.
    perm: [u16; 258],
    alpha: usize,
    min_len: u32,
    max_len: u32,
}

impl Default for Table {
    fn default() -> Self {
        Table {
            fast: [INVALID; 1 << FAST_BITS],
            limit: [-1; MAX_CODE_LEN + 1],
            offset: [0; MAX_CODE_LEN + 1],
            perm: [0; 258],
            alpha: 0,
            min_len: 1,
            max_len: 0,
        }
    }
}

impl Table {
    /// Builds the tables from the code length (1 to 20) of each of the
    /// `lengths.len()` (2 to 258) symbols.
    pub fn build(&mut self, lengths: &[u8]) {
        let alpha = lengths.len();
        self.alpha = alpha;
        self.min_len = u32::from(*lengths.iter().min().unwrap_or(&1));
        self.max_len = u32::from(*lengths.iter().max().unwrap_or(&0));
        let mut count = [0i64; MAX_CODE_LEN + 2];
        for &l in lengths {
            count[l as usize] += 1;
        }
        let mut p = 0;
        for len in 1..=MAX_CODE_LEN as u8 {
            for (s, &l) in lengths.iter().enumerate() {
                if l == len {
                    self.perm[p] = s as u16;
                    p += 1;
                }
            }
        }
        let (mut code, mut before) = (0i64, 0i64);
        for (len, &c) in count.iter().enumerate().take(MAX_CODE_LEN + 1).skip(1) {
            self.limit[len] = code + c - 1;
            self.offset[len] = before - code;
            before += c;
            code = (code + c) << 1;
        }
        for v in 0..(1u32 << FAST_BITS) {
            self.fast[v as usize] = self.resolve(v << (24 - FAST_BITS), FAST_BITS);
        }
    }

    /// The entry for the 24 bits `v` looking at lengths up to `up_to`:
    /// `length << 16 | symbol`, [`SLOW`] if no length up to `up_to` matches
    /// but a longer one may, [`INVALID`].
    fn resolve(&self, v: u32, up_to: u32) -> u32 {
        for len in self.min_len..=self.max_len {
            if len > up_to {
                return SLOW;
            }
            let code = i64::from(v >> (24 - len));
            if code <= self.limit[len as usize] {
                let idx = code + self.offset[len as usize];
                return if (0..self.alpha as i64).contains(&idx) {
                    len << 16 | u32::from(self.perm[idx as usize])
                } else {
                    INVALID
                };
            }
        }
        INVALID
    }

    /// Decodes one symbol.
    #[inline]
    pub fn decode<R: BufRead>(&self, bits: &mut BitReader<R>) -> Result<u16> {
        let v = bits.peek24()?;
        let mut e = self.fast[(v >> (24 - FAST_BITS)) as usize];
        if e == SLOW {
            e = self.resolve(v, MAX_CODE_LEN as u32);
        }
        if e == INVALID {
            // Zeros stood in for missing input: the input ended, rather.
            if bits.buffered() < MAX_CODE_LEN as u32 {
                return Err(Error::Truncated);
            }
            return Err(Error::Corrupt("invalid Huffman code"));
        }
        bits.skip(e >> 16)?;
        Ok(e as u16)
    }
}
