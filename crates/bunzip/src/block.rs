//! One block's entropy stage: header fields, symbol map, Huffman groups,
//! selectors, then the RUNA/RUNB + move-to-front decoding into the block's
//! last column (the Burrows-Wheeler transform of the pre-RLE1 data).

use crate::bits::BitReader;
use crate::error::{Error, Result};
use crate::huffman::{MAX_CODE_LEN, Table};
use std::io::BufRead;

/// Symbols coded with one selector (one Huffman group).
const GROUP_SIZE: usize = 50;
/// Selectors kept; a block may declare up to 32,767 but never needs more than
/// 900,000 / 50 + 2 (the excess is read and ignored, as libbzip2 1.0.8 does).
const MAX_SELECTORS: usize = 18_002;
/// Largest RUNA/RUNB weight accepted (a run longer than any block is an
/// error before its weights overflow).
const MAX_RUN_WEIGHT: u32 = 1 << 21;

/// A decoded block: its last column and what the inverse BWT needs.
pub struct Block {
    /// CRC of the block's output, as stored.
    pub crc: u32,
    /// Row of the original data among the sorted rotations.
    pub orig_ptr: u32,
    /// The last column (`len` bytes are valid).
    pub last: Vec<u8>,
    /// How many times each byte value occurs in `last`.
    pub counts: [u32; 256],
}

impl Default for Block {
    fn default() -> Self {
        Block {
            crc: 0,
            orig_ptr: 0,
            last: Vec::new(),
            counts: [0; 256],
        }
    }
}

/// Reusable working tables of the entropy decoder.
pub struct Scratch {
    tables: Vec<Table>,
    selectors: Vec<u8>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            tables: (0..6).map(|_| Table::default()).collect(),
            selectors: Vec::with_capacity(MAX_SELECTORS),
        }
    }
}

/// Reads a block after its magic number into `out`; `max_len` is the
/// stream's block size (100,000 x level).
pub fn read_block<R: BufRead>(
    bits: &mut BitReader<R>,
    max_len: usize,
    scratch: &mut Scratch,
    out: &mut Block,
) -> Result<()> {
    out.crc = bits.bits(32)?;
    if bits.bit()? {
        return Err(Error::Randomised);
    }
    out.orig_ptr = bits.bits(24)?;

    // Symbol map: 16 ranges of 16 byte values.
    let used16 = bits.bits(16)?;
    let mut seq_to_byte = [0u8; 256];
    let mut in_use = 0usize;
    for r in 0..16 {
        if used16 & (0x8000 >> r) != 0 {
            let m = bits.bits(16)?;
            for j in 0..16 {
                if m & (0x8000 >> j) != 0 {
                    seq_to_byte[in_use] = (r * 16 + j) as u8;
                    in_use += 1;
                }
            }
        }
    }
    if in_use == 0 {
        return Err(Error::Corrupt("no symbols in use"));
    }
    let alpha = in_use + 2;

    let groups = bits.bits(3)? as usize;
    if !(2..=6).contains(&groups) {
        return Err(Error::Corrupt("number of Huffman groups not in 2..6"));
    }
    let declared = bits.bits(15)? as usize;
    if declared == 0 {
        return Err(Error::Corrupt("no selectors"));
    }
    // Selectors, move-to-front coded, each a unary index.
    let mut mtf_groups = [0u8, 1, 2, 3, 4, 5];
    scratch.selectors.clear();
    for _ in 0..declared {
        let mut j = 0usize;
        while bits.bit()? {
            j += 1;
            if j >= groups {
                return Err(Error::Corrupt("selector out of range"));
            }
        }
        let g = mtf_groups[j];
        mtf_groups.copy_within(0..j, 1);
        mtf_groups[0] = g;
        if scratch.selectors.len() < MAX_SELECTORS {
            scratch.selectors.push(g);
        }
    }

    // Code lengths, delta coded.
    let mut lengths = [0u8; 258];
    for t in 0..groups {
        let mut cur = bits.bits(5)? as i32;
        for l in lengths.iter_mut().take(alpha) {
            loop {
                if !(1..=MAX_CODE_LEN as i32).contains(&cur) {
                    return Err(Error::Corrupt("code length not in 1..20"));
                }
                if !bits.bit()? {
                    break;
                }
                cur += if bits.bit()? { -1 } else { 1 };
            }
            *l = cur as u8;
        }
        scratch.tables[t].build(&lengths[..alpha]);
    }

    decode_symbols(bits, max_len, scratch, &seq_to_byte, in_use, out)?;
    if out.orig_ptr as usize >= out.last.len() {
        return Err(Error::Corrupt("origin pointer past the block's end"));
    }
    Ok(())
}

/// The RUNA/RUNB + move-to-front stage.
fn decode_symbols<R: BufRead>(
    bits: &mut BitReader<R>,
    max_len: usize,
    scratch: &Scratch,
    seq_to_byte: &[u8; 256],
    in_use: usize,
    out: &mut Block,
) -> Result<()> {
    let eob = (in_use + 1) as u16;
    let mut mtf: [u8; 256] = std::array::from_fn(|i| i as u8);
    out.last.clear();
    out.last.reserve(max_len);
    out.counts = [0; 256];
    let (mut run, mut weight) = (0u32, 1u32);
    let mut group_left = 0usize;
    let mut next_selector = 0usize;
    let mut table = &scratch.tables[0];
    loop {
        if group_left == 0 {
            let Some(&g) = scratch.selectors.get(next_selector) else {
                return Err(Error::Corrupt("more symbols than selectors"));
            };
            next_selector += 1;
            table = &scratch.tables[g as usize];
            group_left = GROUP_SIZE;
        }
        group_left -= 1;
        let sym = table.decode(bits)?;
        if sym <= 1 {
            // RUNA adds the weight, RUNB twice the weight (bijective base 2).
            if weight > MAX_RUN_WEIGHT {
                return Err(Error::Corrupt("run longer than the block"));
            }
            run += weight << sym;
            weight <<= 1;
            continue;
        }
        if run > 0 {
            let n = run as usize;
            if out.last.len() + n > max_len {
                return Err(Error::Corrupt("block longer than its declared size"));
            }
            let b = seq_to_byte[mtf[0] as usize];
            out.last.resize(out.last.len() + n, b);
            out.counts[b as usize] += run;
            run = 0;
            weight = 1;
        }
        if sym == eob {
            return Ok(());
        }
        if sym > eob {
            return Err(Error::Corrupt("symbol past the end-of-block code"));
        }
        if out.last.len() >= max_len {
            return Err(Error::Corrupt("block longer than its declared size"));
        }
        let pos = (sym - 1) as usize;
        let v = mtf[pos];
        mtf.copy_within(0..pos, 1);
        mtf[0] = v;
        let b = seq_to_byte[v as usize];
        out.last.push(b);
        out.counts[b as usize] += 1;
    }
}
