//! The last stage: run-length decoding of the pre-RLE1 data ("RLE1": four
//! equal bytes are followed by a count, 0 to 255, of further copies), written
//! into the caller's buffer and resumable at any point.

/// Where the output of one block stands.
#[derive(Default)]
pub struct Rle {
    /// Next byte of the pre-RLE1 data to read.
    pos: usize,
    /// The byte of the current run of equal bytes (`256`: none yet).
    last: u16,
    /// Length of that run (1 to 4).
    run: u32,
    /// Copies of `last` still to write (from a count byte).
    pending: u32,
}

impl Rle {
    /// A decoder at the start of a block.
    pub fn new() -> Self {
        Rle {
            pos: 0,
            last: 256,
            run: 0,
            pending: 0,
        }
    }

    /// Whether everything of `pre` was written.
    pub fn done(&self, pre: &[u8]) -> bool {
        self.pos == pre.len() && self.pending == 0
    }

    /// Writes output decoded from `pre` into `out`; returns how many bytes.
    pub fn fill(&mut self, pre: &[u8], out: &mut [u8]) -> usize {
        let mut w = 0;
        while w < out.len() {
            if self.pending > 0 {
                let k = (self.pending as usize).min(out.len() - w);
                out[w..w + k].fill(self.last as u8);
                w += k;
                self.pending -= k as u32;
                continue;
            }
            if self.run == 4 {
                // A count byte follows four equal bytes, then a new run
                // starts whatever the next byte is.
                let Some(&c) = pre.get(self.pos) else { break };
                self.pos += 1;
                self.pending = u32::from(c);
                self.run = 0;
                if self.pending == 0 {
                    self.last = 256;
                }
                continue;
            }
            // Plain bytes: copy while no run of four completes.
            let room = out.len() - w;
            let avail = &pre[self.pos..];
            if avail.is_empty() {
                break;
            }
            let lim = room.min(avail.len());
            let mut k = 0;
            let (mut last, mut run) = (self.last, self.run);
            while k < lim {
                let b = avail[k];
                out[w + k] = b;
                k += 1;
                if u16::from(b) == last {
                    run += 1;
                    if run == 4 {
                        break;
                    }
                } else {
                    last = u16::from(b);
                    run = 1;
                }
            }
            self.last = last;
            self.run = run;
            self.pos += k;
            w += k;
        }
        w
    }
}
