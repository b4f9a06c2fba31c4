//! A streaming bzip2 decoder written from the format, for ingesting
//! BenchExec's `.xml.bz2` result files.
//!
//! Decoding a bzip2 block is dominated by the inverse Burrows-Wheeler
//! transform, a chain of dependent loads from a table of 4 bytes per byte of
//! the block (3.6 MB for the usual 900 kB blocks): memory latency bound.
//! [`Walk::Multi`] (the default) cuts that chain at 256 marked rows and
//! walks eight of the pieces at once over the one table, so eight cache
//! misses are in flight instead of one, then joins the pieces in order
//! ([`bwt::multi_chain`]): about twice as fast as libbzip2 on BenchExec
//! result files. [`Walk::One`] is libbzip2's single walk; [`Walk::Two`]
//! walks forward and backward at once over two tables and was measured
//! slower than one walk.
//!
//! ```
//! use std::io::Read;
//! // "hello\n" compressed by `bzip2 -9`.
//! let data: &[u8] = &[
//!     0x42, 0x5a, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59, 0xc1, 0xc0, 0x80, 0xe2, 0x00,
//!     0x00, 0x01, 0x41, 0x00, 0x00, 0x10, 0x02, 0x44, 0xa0, 0x00, 0x30, 0xcd, 0x00, 0xc3, 0x46,
//!     0x29, 0x97, 0x17, 0x72, 0x45, 0x38, 0x50, 0x90, 0xc1, 0xc0, 0x80, 0xe2,
//! ];
//! let mut text = String::new();
//! smtcomp_bunzip::Decoder::new(data).read_to_string(&mut text).unwrap();
//! assert_eq!(text, "hello\n");
//! ```
//!
//! The format: a stream is `BZh` and a level digit `1`-`9` (block size
//! 100,000 x level), blocks, each the 48-bit magic `0x314159265359`, the
//! block's CRC, a "randomised" bit, the 24-bit origin pointer, the map of byte
//! values in use, 2-6 Huffman tables (code lengths 1-20, delta coded), the
//! selectors (which table codes each group of 50 symbols, move-to-front
//! coded), then the symbols (RUNA/RUNB runs of the front byte, move-to-front
//! indices, end of block); then the end-of-stream magic `0x177245385090`, the
//! combined CRC (each block's CRC xored into the combined one rotated left by
//! one bit), and padding to a byte. Streams may be concatenated. The CRC is
//! CRC-32 with polynomial 0x04c11db7, most significant bit first.
//!
//! Untrusted input: every count is checked (groups 2-6, at least one
//! selector and at most 18,002 kept, code lengths 1-20, at least one byte
//! value in use, each Huffman code resolving to a symbol, runs and blocks not
//! longer than the stream's block size, origin pointer inside the block), so
//! a damaged input is an [`Error`], never a panic, and memory stays bounded
//! by the block size (about 12 bytes per byte of it). Work per block is
//! bounded too: at most 50 symbols per selector. Blocks in the obsolete
//! randomised mode (bzip2 0.9.0 and older) are [`Error::Randomised`]: the
//! caller may fall back to another decoder.

mod bits;
mod block;
pub mod bwt;
mod crc;
mod decoder;
mod error;
mod huffman;
mod rle;

pub use decoder::{Decoder, Walk};
pub use error::Error;
