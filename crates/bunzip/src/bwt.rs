//! The inverse Burrows-Wheeler transform: from a block's last column and
//! origin row back to the pre-RLE1 data.
//!
//! With `F` the sorted first column and `L` the last one, the `k`-th
//! occurrence of a byte in `L` and its `k`-th occurrence in `F` are the same
//! character of the text. One pass over `L` numbers them: byte `L[i]` goes to
//! row `j = start[L[i]] + (occurrences of L[i] before i)` of `F`. That gives
//! two walks:
//!
//! * forward, `T[j] = i`: from row `j`, the next character of the text is
//!   `L[T[j]]`... starting at `T[orig_ptr]`, each step emits `L[p]` and moves
//!   to `p = T[p]` (the walk libbzip2 makes);
//! * backward, `LF[i] = j`: `L[orig_ptr]` is the text's last character, and
//!   each step to `LF[row]` gives the character before.
//!
//! Each step of a walk is a load from a table of 4 bytes per row whose
//! address depends on the previous load: for a block of 900,000 bytes the
//! table (3.6 MB) does not fit the L2 cache, and one walk is a chain of cache
//! misses. [`two_chains`] runs both walks at once, each producing half of
//! the output, so their misses overlap.

/// Packs a row (at most 900,000 < 2^24) and a byte.
#[inline]
fn pack(row: usize, byte: u8) -> u32 {
    ((row as u32) << 8) | u32::from(byte)
}

/// The first row of each byte value in `F`.
fn starts(counts: &[u32; 256]) -> [u32; 256] {
    let mut start = [0u32; 256];
    let mut sum = 0u32;
    for (s, &c) in start.iter_mut().zip(counts) {
        *s = sum;
        sum += c;
    }
    start
}

/// Inverts with one forward walk. `last` is non-empty, `orig_ptr <
/// last.len()`, `counts` the byte counts of `last`. `tt` is scratch space.
pub fn one_chain(
    last: &[u8],
    counts: &[u32; 256],
    orig_ptr: usize,
    tt: &mut Vec<u32>,
    out: &mut Vec<u8>,
) {
    let n = last.len();
    let mut next = starts(counts);
    tt.clear();
    tt.resize(n, 0);
    for (i, &b) in last.iter().enumerate() {
        let j = next[b as usize] as usize;
        next[b as usize] += 1;
        tt[j] = pack(i, last[j]);
    }
    out.clear();
    out.resize(n, 0);
    let mut p = (tt[orig_ptr] >> 8) as usize;
    for o in out.iter_mut() {
        let e = tt[p];
        *o = e as u8;
        p = (e >> 8) as usize;
    }
}

/// Inverts with the forward and the backward walks interleaved: the forward
/// one writes `out[..n / 2]`, the backward one `out[n / 2..]`. Same
/// preconditions as [`one_chain`]; `tt` and `lf` are scratch space.
///
/// The output is always the one [`one_chain`] gives. On a valid block the
/// permutation is one cycle through all rows, and the walks meet: the row
/// the backward walk read last is the one the forward walk would read next.
/// A damaged block's permutation may have several cycles; if the walks do
/// not meet there, the forward walk is redone over the whole block (when
/// they do meet, the cycle of the origin row has a length dividing the block
/// length, and both walks give the forward walk's bytes).
pub fn two_chains(
    last: &[u8],
    counts: &[u32; 256],
    orig_ptr: usize,
    tt: &mut Vec<u32>,
    lf: &mut Vec<u32>,
    out: &mut Vec<u8>,
) {
    let n = last.len();
    let mut next = starts(counts);
    tt.clear();
    tt.resize(n, 0);
    lf.clear();
    lf.resize(n, 0);
    for (i, &b) in last.iter().enumerate() {
        let j = next[b as usize] as usize;
        next[b as usize] += 1;
        tt[j] = pack(i, last[j]);
        lf[i] = pack(j, b);
    }
    out.clear();
    out.resize(n, 0);
    let half = n / 2;
    let (front, back) = out.split_at_mut(half);
    // Forward from the first character; backward from the last.
    let mut p = (tt[orig_ptr] >> 8) as usize;
    let mut row = orig_ptr;
    let mut last_row = row;
    let extra = back.len() - front.len();
    for (f, b) in front.iter_mut().zip(back[extra..].iter_mut().rev()) {
        let e = tt[p];
        let g = lf[row];
        *f = e as u8;
        *b = g as u8;
        p = (e >> 8) as usize;
        last_row = row;
        row = (g >> 8) as usize;
    }
    if extra == 1 {
        back[0] = lf[row] as u8;
        last_row = row;
    }
    if last_row != p {
        let mut p = (tt[orig_ptr] >> 8) as usize;
        for o in out.iter_mut() {
            let e = tt[p];
            *o = e as u8;
            p = (e >> 8) as usize;
        }
    }
}
