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

/// Fills `tt` with the forward permutation: `tt[j]` packs the row of `L`
/// that row `j` of `F` continues in, and `L[j]`.
fn forward_table(last: &[u8], counts: &[u32; 256], tt: &mut Vec<u32>) {
    let mut next = starts(counts);
    tt.clear();
    tt.resize(last.len(), 0);
    for (i, &b) in last.iter().enumerate() {
        let j = next[b as usize] as usize;
        next[b as usize] += 1;
        tt[j] = pack(i, last[j]);
    }
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
    forward_table(last, counts, tt);
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

/// Segments a block's walk is cut into by [`multi_chain`]: with fewer, the
/// longest segment (walked alone at the end) is a bigger share of the block.
/// Blocks shorter than 64 x this take the single walk.
const SEGMENTS: usize = 256;
/// Cursors walking segments at once in [`multi_chain`]. Measured on 20
/// result files (decode only, user s): 1 cursor 0.51-0.74, 4 0.27-0.33, 8
/// 0.25-0.28, 16 0.25-0.26; the `bzip2` crate 0.47-0.57.
const CURSORS: usize = 8;

/// Scratch space of [`multi_chain`], kept from block to block.
#[derive(Default)]
pub struct MultiScratch {
    marks: Vec<u64>,
    bufs: Vec<Vec<u8>>,
    /// Per segment: (cursor, offset in its buffer, length, end row).
    info: Vec<(usize, usize, usize, usize)>,
    /// Marked rows with their segment, sorted by row.
    rows: Vec<(usize, usize)>,
    seg_start: Vec<usize>,
}

/// Inverts with [`CURSORS`] forward walks at once over one table: the cycle
/// of rows is cut at [`SEGMENTS`] marked rows (the first row of the text and
/// rows spread over the block), each cursor walks a segment from a marked
/// row to the next one, and the segments are then put in the text's order
/// (a segment ends at the row the next one starts from). The loads of
/// different cursors do not depend on each other, so their cache misses
/// overlap. Same preconditions and output as [`one_chain`] (a damaged
/// block, whose permutation is not one cycle, falls back to it).
pub fn multi_chain(
    last: &[u8],
    counts: &[u32; 256],
    orig_ptr: usize,
    tt: &mut Vec<u32>,
    sc: &mut MultiScratch,
    out: &mut Vec<u8>,
) {
    let (k, m) = (CURSORS, SEGMENTS);
    let n = last.len();
    if n < 64 * m {
        return one_chain(last, counts, orig_ptr, tt, out);
    }
    forward_table(last, counts, tt);
    let first = (tt[orig_ptr] >> 8) as usize;
    // Marked rows; segment 0 starts at `first`.
    sc.seg_start.clear();
    sc.seg_start.push(first);
    for s in 1..m {
        let r = s * n / m;
        if r != first {
            sc.seg_start.push(r);
        }
    }
    let m = sc.seg_start.len();
    sc.rows.clear();
    sc.rows
        .extend(sc.seg_start.iter().enumerate().map(|(i, &r)| (r, i)));
    sc.rows.sort_unstable();
    sc.marks.clear();
    sc.marks.resize(n / 64 + 1, 0);
    for &r in &sc.seg_start {
        sc.marks[r / 64] |= 1 << (r % 64);
    }
    let marks = &sc.marks;
    let marked = |p: usize| marks[p / 64] & (1 << (p % 64)) != 0;
    sc.info.clear();
    sc.info.resize(m, (0, 0, 0, 0));
    sc.bufs.resize_with(k, Vec::new);
    for b in &mut sc.bufs {
        b.clear();
    }
    let (info, bufs, seg_start) = (&mut sc.info, &mut sc.bufs, &sc.seg_start);
    let mut cur_p = [0usize; CURSORS];
    let mut cur_seg = [usize::MAX; CURSORS];
    let mut next_seg = 0;
    let mut active = 0;
    for c in 0..k {
        if next_seg < m {
            cur_seg[c] = next_seg;
            cur_p[c] = seg_start[next_seg];
            info[next_seg] = (c, 0, 0, 0);
            next_seg += 1;
            active += 1;
        }
    }
    let mut steps = 0usize;
    while active > 0 {
        for c in 0..k {
            let s = cur_seg[c];
            if s == usize::MAX {
                continue;
            }
            let e = tt[cur_p[c]];
            bufs[c].push(e as u8);
            let np = (e >> 8) as usize;
            cur_p[c] = np;
            if marked(np) {
                let off = info[s].1;
                info[s] = (c, off, bufs[c].len() - off, np);
                if next_seg < m {
                    cur_seg[c] = next_seg;
                    cur_p[c] = seg_start[next_seg];
                    info[next_seg] = (c, bufs[c].len(), 0, 0);
                    next_seg += 1;
                } else {
                    cur_seg[c] = usize::MAX;
                    active -= 1;
                }
            }
        }
        steps += 1;
        if steps > n {
            // Unreachable for any permutation (each cursor returns to a
            // marked row within its cycle), kept as a bound on the work.
            return one_chain(last, counts, orig_ptr, tt, out);
        }
    }
    out.clear();
    out.reserve(n);
    let mut s = 0;
    for _ in 0..m {
        let (c, off, len, end) = info[s];
        let room = n - out.len();
        out.extend_from_slice(&bufs[c][off..off + len.min(room)]);
        if out.len() == n {
            break;
        }
        s = match sc.rows.binary_search_by_key(&end, |&(r, _)| r) {
            Ok(i) => sc.rows[i].1,
            Err(_) => break,
        };
    }
    if out.len() != n {
        // Not one cycle (a damaged block): the single walk's bytes, which
        // the block CRC then rejects.
        one_chain(last, counts, orig_ptr, tt, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn counts_of(last: &[u8]) -> [u32; 256] {
        let mut c = [0u32; 256];
        for &b in last {
            c[b as usize] += 1;
        }
        c
    }

    proptest! {
        /// Any last column, valid or not (a damaged block's permutation may
        /// have several cycles): the segmented walks give exactly the bytes
        /// of the single walk.
        #[test]
        fn multi_chain_gives_the_single_walk_s_bytes(
            last in prop::collection::vec(0u8..4, 64 * SEGMENTS..80 * SEGMENTS),
            orig in any::<prop::sample::Index>(),
        ) {
            let counts = counts_of(&last);
            let orig = orig.index(last.len());
            let (mut tt, mut want, mut got) = (Vec::new(), Vec::new(), Vec::new());
            one_chain(&last, &counts, orig, &mut tt, &mut want);
            let mut sc = MultiScratch::default();
            multi_chain(&last, &counts, orig, &mut tt, &mut sc, &mut got);
            // Reused scratch gives the same bytes.
            let mut again = Vec::new();
            multi_chain(&last, &counts, orig, &mut tt, &mut sc, &mut again);
            prop_assert_eq!(&again, &got);
            prop_assert_eq!(got, want);
        }
    }

    /// The BWT of a text (by sorting its rotations) inverts back to it.
    #[test]
    fn multi_chain_inverts_a_real_bwt() {
        // Random letters, every other 100 bytes a copy of the 100 before:
        // repeats as in XML, and rotations that differ within ~100 bytes.
        let mut x = 12345u32;
        let mut text: Vec<u8> = Vec::new();
        for i in 0..64 * SEGMENTS {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let b = if (i / 100) % 2 == 1 {
                text[i - 100]
            } else {
                b"acgt"[(x >> 30) as usize]
            };
            text.push(b);
        }
        let n = text.len();
        let mut rot: Vec<usize> = (0..n).collect();
        rot.sort_by(|&a, &b| {
            (0..n)
                .map(|k| text[(a + k) % n])
                .cmp((0..n).map(|k| text[(b + k) % n]))
        });
        let last: Vec<u8> = rot.iter().map(|&r| text[(r + n - 1) % n]).collect();
        let orig = rot.iter().position(|&r| r == 0).unwrap();
        let (mut tt, mut out) = (Vec::new(), Vec::new());
        let mut sc = MultiScratch::default();
        multi_chain(&last, &counts_of(&last), orig, &mut tt, &mut sc, &mut out);
        assert_eq!(out, text);
    }
}
