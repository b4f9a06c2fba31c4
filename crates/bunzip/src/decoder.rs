//! The streaming [`Decoder`]: a [`Read`] adapter over a [`BufRead`] of one or
//! more concatenated bzip2 streams.

use crate::bits::BitReader;
use crate::block::{Block, Scratch, read_block};
use crate::bwt;
use crate::crc::Crc;
use crate::error::{Error, Result};
use crate::rle::Rle;
use std::io::{BufRead, Read};

/// How the inverse BWT walks a block (see [`crate::bwt`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Walk {
    /// One forward walk (as libbzip2).
    One,
    /// A forward and a backward walk interleaved (measured slower than one:
    /// two tables; docs/performance.md, branch bunzip).
    Two,
    /// Eight forward walks at once over segments of the cycle, one table
    /// (the default: about twice as fast as one walk on result files;
    /// docs/performance.md, "Ingest: eight walks over one table").
    #[default]
    Multi,
}

/// Where the decoder stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before a stream header; `first` for the input's first stream (which
    /// must exist).
    StreamStart { first: bool },
    /// Before a block or the end-of-stream marker.
    BlockStart,
    /// Writing out the current block.
    Output,
    /// After the last stream.
    Done,
    /// After an error (returned again by further reads).
    Failed,
}

/// Decodes concatenated bzip2 streams from a [`BufRead`].
///
/// Memory: one block in its three forms (last column, walk tables, pre-RLE1
/// data, the segmented walk's pieces), at most about 12 bytes per byte of the block size (11 MB for
/// `-9`), whatever the input; input is read ahead by at most 8 bytes.
///
/// Errors ([`Error`] inside the [`std::io::Error`]): the output of a block
/// is checked against its CRC before any of its bytes is delivered (unlike
/// libbzip2, which delivers a block and fails after it), so a damaged block
/// yields no byte: a reader keeping what it read before an error never keeps
/// altered data. An empty input, or
/// bytes after the last stream that are not another complete stream, are
/// errors, as with the `bzip2` crate's `MultiBzDecoder`.
pub struct Decoder<R> {
    bits: BitReader<R>,
    walk: Walk,
    state: State,
    /// Block size of the current stream (100,000 x level).
    max_len: usize,
    /// Combined CRC of the current stream's blocks so far.
    stream_crc: u32,
    scratch: Scratch,
    block: Block,
    tt: Vec<u32>,
    lf: Vec<u32>,
    multi: bwt::MultiScratch,
    pre: Vec<u8>,
    rle: Rle,
    /// Where a block's output is decoded once to check its CRC (64 KiB).
    check: Vec<u8>,
    error: Option<String>,
}

impl<R: BufRead> Decoder<R> {
    /// A decoder of `inner` with the default walk.
    pub fn new(inner: R) -> Self {
        Self::with_walk(inner, Walk::default())
    }

    /// A decoder of `inner` with the given walk (for comparisons).
    pub fn with_walk(inner: R, walk: Walk) -> Self {
        Decoder {
            bits: BitReader::new(inner),
            walk,
            state: State::StreamStart { first: true },
            max_len: 0,
            stream_crc: 0,
            scratch: Scratch::default(),
            block: Block::default(),
            tt: Vec::new(),
            lf: Vec::new(),
            multi: bwt::MultiScratch::default(),
            pre: Vec::new(),
            rle: Rle::new(),
            check: vec![0; 64 << 10],
            error: None,
        }
    }

    /// One step of the state machine that produces no output.
    fn advance(&mut self) -> Result<()> {
        match self.state {
            State::StreamStart { first } => {
                if !first && self.bits.at_end()? {
                    self.state = State::Done;
                    return Ok(());
                }
                let magic = self.bits.bits(24)?;
                if magic != 0x42_5a_68 {
                    return Err(Error::NotBzip2);
                }
                let level = self.bits.bits(8)?;
                if !(u32::from(b'1')..=u32::from(b'9')).contains(&level) {
                    return Err(Error::NotBzip2);
                }
                self.max_len = (level - u32::from(b'0')) as usize * 100_000;
                self.stream_crc = 0;
                self.state = State::BlockStart;
            }
            State::BlockStart => {
                let magic = (u64::from(self.bits.bits(24)?) << 24) | u64::from(self.bits.bits(24)?);
                match magic {
                    0x3141_5926_5359 => {
                        read_block(
                            &mut self.bits,
                            self.max_len,
                            &mut self.scratch,
                            &mut self.block,
                        )?;
                        let b = &self.block;
                        let orig = b.orig_ptr as usize;
                        match self.walk {
                            Walk::One => bwt::one_chain(
                                &b.last,
                                &b.counts,
                                orig,
                                &mut self.tt,
                                &mut self.pre,
                            ),
                            Walk::Multi => bwt::multi_chain(
                                &b.last,
                                &b.counts,
                                orig,
                                &mut self.tt,
                                &mut self.multi,
                                &mut self.pre,
                            ),
                            Walk::Two => bwt::two_chains(
                                &b.last,
                                &b.counts,
                                orig,
                                &mut self.tt,
                                &mut self.lf,
                                &mut self.pre,
                            ),
                        }
                        // The block's CRC before any of its bytes is delivered: a
                        // damaged block yields nothing (a reader that keeps what it
                        // read before an error keeps no altered data).
                        let mut crc = Crc::default();
                        let mut dry = Rle::new();
                        while !dry.done(&self.pre) {
                            let n = dry.fill(&self.pre, &mut self.check);
                            crc.update(&self.check[..n]);
                        }
                        if crc.value() != self.block.crc {
                            return Err(Error::Crc);
                        }
                        self.rle = Rle::new();
                        self.state = State::Output;
                    }
                    0x1772_4538_5090 => {
                        let stored = self.bits.bits(32)?;
                        if stored != self.stream_crc {
                            return Err(Error::Crc);
                        }
                        self.bits.align();
                        self.state = State::StreamStart { first: false };
                    }
                    _ => return Err(Error::Corrupt("bad block magic")),
                }
            }
            State::Output => {
                // The block was written out whole (its CRC checked before).
                self.stream_crc = self.stream_crc.rotate_left(1) ^ self.block.crc;
                self.state = State::BlockStart;
            }
            State::Done | State::Failed => {}
        }
        Ok(())
    }
}

impl<R: BufRead> Read for Decoder<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match self.state {
                State::Done => return Ok(0),
                State::Failed => {
                    let msg = self.error.clone().unwrap_or_default();
                    return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, msg));
                }
                _ if out.is_empty() => return Ok(0),
                State::Output if !self.rle.done(&self.pre) => {
                    let n = self.rle.fill(&self.pre, out);
                    return Ok(n);
                }
                _ => {}
            }
            if let Err(e) = self.advance() {
                self.state = State::Failed;
                self.error = Some(e.to_string());
                return Err(e.into_io());
            }
        }
    }
}
