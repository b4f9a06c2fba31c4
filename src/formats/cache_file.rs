//! The container shared by the binary caches (the inventory cache,
//! [`crate::formats::inventory_cache`], and the run cache of `score`): where
//! cache files live, their header, the checks before a payload is trusted, the
//! atomic write, and the varint encoding with a bounds-checked reader.
//!
//! A cache file is a 56-byte header followed by the payload:
//!
//! | bytes | content |
//! |---|---|
//! | 0-7 | magic bytes naming the cache's kind |
//! | 8-11 | format version (little endian) |
//! | 12-43 | content hash (BLAKE3, [`content_hash`]) of the file the cache copies |
//! | 44-51 | payload length (little endian) |
//! | 52-55 | CRC-32 of the payload (little endian) |

use crate::formats::datafile;
use std::borrow::Cow;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Length of the header before the payload.
pub const HEADER_LEN: usize = 8 + 4 + 32 + 8 + 4;

/// Why a cache file cannot be trusted (the cache is then rebuilt from its source).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CacheError {
    /// Shorter than the header.
    #[error("truncated: {len} bytes, shorter than the header")]
    ShortHeader {
        /// The file's length.
        len: usize,
    },
    /// Another kind of file.
    #[error("not {what} (magic bytes)")]
    Magic {
        /// What the cache should be ([`CacheKind::what`]).
        what: &'static str,
    },
    /// Written by another format version.
    #[error("format version {found}, expected {expected}")]
    Version {
        /// The file's version.
        found: u32,
        /// The version read.
        expected: u32,
    },
    /// A copy of another file (its content hash differs).
    #[error("made from another {copies} (content hash differs)")]
    OtherSource {
        /// What the cache copies ([`CacheKind::source`]).
        copies: &'static str,
    },
    /// The payload's length is not the header's.
    #[error("truncated or extended: payload of {found} bytes, header says {header}")]
    Length {
        /// The payload's length.
        found: usize,
        /// The header's length.
        header: u64,
    },
    /// The payload's checksum differs.
    #[error("corrupt: payload checksum differs")]
    Checksum,
    /// The payload cannot be decoded.
    #[error("corrupt at byte {at}: {reason}")]
    Corrupt {
        /// Bytes of the payload read before the fault.
        at: usize,
        /// What the decoder found.
        reason: DecodeFault,
    },
    /// Bytes left after the payload's last item.
    #[error("corrupt: trailing bytes after {at}")]
    Trailing {
        /// Bytes of the payload decoded.
        at: usize,
    },
}

/// What a payload decoder found wrong (the reason of [`CacheError::Corrupt`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DecodeFault(pub Cow<'static, str>);

impl From<&'static str> for DecodeFault {
    fn from(s: &'static str) -> Self {
        DecodeFault(Cow::Borrowed(s))
    }
}

impl From<String> for DecodeFault {
    fn from(s: String) -> Self {
        DecodeFault(Cow::Owned(s))
    }
}

impl DecodeFault {
    /// The fault as a [`CacheError::Corrupt`] at `r`'s position.
    pub fn at(self, r: &Reader<'_>) -> CacheError {
        CacheError::Corrupt {
            at: r.position(),
            reason: self,
        }
    }
}

/// One kind of cache file.
#[derive(Debug, Clone, Copy)]
pub struct CacheKind {
    /// Magic bytes at the start of every file of this kind.
    pub magic: &'static [u8; 8],
    /// Format version; a file of another version is rebuilt.
    pub version: u32,
    /// File name prefix (`<prefix>-<hex hash>.bin`).
    pub prefix: &'static str,
    /// What the cache is, for messages ("an inventory cache").
    pub what: &'static str,
    /// What the cache copies, for messages ("inventory").
    pub source: &'static str,
}

/// The cache directory from the environment: `$SMTCOMP_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/smtcomp`, else `~/.cache/smtcomp`; `None` when caching is
/// disabled (`SMTCOMP_CACHE_DIR` set and empty) or no home directory is known.
pub fn cache_dir() -> Option<PathBuf> {
    match std::env::var_os("SMTCOMP_CACHE_DIR") {
        Some(d) if d.is_empty() => None,
        Some(d) => Some(PathBuf::from(d)),
        None => std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .map(|d| d.join("smtcomp")),
    }
}

/// The content hash a cache is keyed and checked by: BLAKE3 of the bytes.
///
/// BLAKE3 and not SHA-256: both are collision-resistant (a crafted input
/// cannot take another file's cache), but BLAKE3 hashes a 100 MB inventory or
/// run table several times faster (SIMD lanes), and the hash is computed on
/// every call that may use a cache.
pub fn content_hash(bytes: &[u8]) -> [u8; 32] {
    blake3::hash(bytes).into()
}

/// [`content_hash`] of the file `path`, read in 1 MiB blocks (its bytes are
/// not kept), with its length.
pub fn file_content_hash(path: &Path) -> std::io::Result<(u64, [u8; 32])> {
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let mut h = blake3::Hasher::new();
    let mut block = vec![0u8; 1 << 20];
    let mut len = 0u64;
    loop {
        match f.read(&mut block) {
            Ok(0) => return Ok((len, h.finalize().into())),
            Ok(n) => {
                h.update(&block[..n]);
                len += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The cache file of `kind` in `dir` for a file whose bytes hash to `hash`.
pub fn path(kind: &CacheKind, dir: &Path, hash: &[u8; 32]) -> PathBuf {
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    dir.join(format!("{}-{hex}.bin", kind.prefix))
}

/// The whole cache file: header, then `payload`.
pub fn frame(kind: &CacheKind, hash: &[u8; 32], payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(kind.magic);
    out.extend_from_slice(&kind.version.to_le_bytes());
    out.extend_from_slice(hash);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of a cache file once its header (magic, version, content hash,
/// length) and checksum are checked, or why it cannot be trusted.
pub fn checked_payload<'b>(
    kind: &CacheKind,
    bytes: &'b [u8],
    hash: &[u8; 32],
) -> Result<&'b [u8], CacheError> {
    if bytes.len() < HEADER_LEN {
        return Err(CacheError::ShortHeader { len: bytes.len() });
    }
    if &bytes[..8] != kind.magic {
        return Err(CacheError::Magic { what: kind.what });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or_default());
    if version != kind.version {
        return Err(CacheError::Version {
            found: version,
            expected: kind.version,
        });
    }
    if &bytes[12..44] != hash {
        return Err(CacheError::OtherSource {
            copies: kind.source,
        });
    }
    let len = u64::from_le_bytes(bytes[44..52].try_into().unwrap_or_default());
    let crc = u32::from_le_bytes(bytes[52..56].try_into().unwrap_or_default());
    let payload = &bytes[HEADER_LEN..];
    if payload.len() as u64 != len {
        return Err(CacheError::Length {
            found: payload.len(),
            header: len,
        });
    }
    if crc32fast::hash(payload) != crc {
        return Err(CacheError::Checksum);
    }
    Ok(payload)
}

/// The bytes of a cache file, refusing one larger than any input could make
/// ([`datafile::MAX_DATA_BYTES`]) before reading it.
pub fn read_bounded(cache: &Path) -> std::io::Result<Vec<u8>> {
    let f = std::fs::File::open(cache)?;
    // One allocation of the file's size (plus the byte that tells the file
    // grew): no growing and moving while reading. The length is only a hint;
    // the bound is enforced on what is read.
    let hint = f
        .metadata()
        .map_or(0, |m| m.len())
        .min(datafile::MAX_DATA_BYTES);
    let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0).saturating_add(1));
    // Many megabytes written once: huge pages save most of the page faults.
    crate::util::hugepages::advise_spare(&mut bytes);
    f.take(datafile::MAX_DATA_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > datafile::MAX_DATA_BYTES {
        return Err(std::io::Error::other("larger than any cache file"));
    }
    Ok(bytes)
}

/// Writes the cache file atomically under a temporary name unique to this
/// process (concurrent writers of the same cache never interleave).
pub fn write_atomic(dir: &Path, cache: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let tmp = cache.with_extension(format!("{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|_| std::fs::rename(&tmp, cache));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Appends `x` as a LEB128 varint.
pub fn put_u(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Appends `s` prefixed by its length.
pub fn put_bytes(out: &mut Vec<u8>, s: &[u8]) {
    put_u(out, s.len() as u64);
    out.extend_from_slice(s);
}

/// A bounds-checked cursor over a payload: every read says "unexpected end"
/// or similar instead of reading past it.
pub struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `b`.
    pub fn new(b: &'a [u8]) -> Self {
        Reader { b, at: 0 }
    }

    /// Whether every byte was read.
    pub fn at_end(&self) -> bool {
        self.at == self.b.len()
    }

    /// How many bytes were read.
    pub fn position(&self) -> usize {
        self.at
    }

    /// How many bytes are left.
    pub fn remaining(&self) -> usize {
        self.b.len() - self.at
    }

    /// The next byte.
    pub fn byte(&mut self) -> Result<u8, DecodeFault> {
        let x = *self.b.get(self.at).ok_or("unexpected end")?;
        self.at += 1;
        Ok(x)
    }

    /// The next varint.
    #[inline]
    pub fn u(&mut self) -> Result<u64, DecodeFault> {
        // Most varints of a cache are one byte: that case is inlined.
        match self.b.get(self.at) {
            Some(&b) if b < 0x80 => {
                self.at += 1;
                Ok(u64::from(b))
            }
            _ => self.u_long(),
        }
    }

    /// [`Reader::u`] of a varint of several bytes (or at the end).
    #[inline(never)]
    fn u_long(&mut self) -> Result<u64, DecodeFault> {
        let mut x = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            x |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(x);
            }
        }
        Err("varint too long".into())
    }

    /// A count of items, each at least `min` bytes long (`min` >= 1): never
    /// more than the bytes left allow, so a corrupt count cannot make the
    /// decoder allocate without bound.
    pub fn count(&mut self, min: usize) -> Result<usize, DecodeFault> {
        let n = self.u()?;
        let left = ((self.b.len() - self.at) / min.max(1)) as u64;
        if n > left {
            return Err(format!("count {n} exceeds the remaining bytes").into());
        }
        Ok(n as usize)
    }

    /// The item of `table` at the next varint.
    pub fn index<'t, T>(&mut self, table: &'t [T]) -> Result<&'t T, DecodeFault> {
        let i = self.u()?;
        usize::try_from(i)
            .ok()
            .and_then(|i| table.get(i))
            .ok_or_else(|| format!("index {i} out of range ({})", table.len()).into())
    }

    /// The next 8 bytes as a little-endian `f64`.
    pub fn f64(&mut self) -> Result<f64, DecodeFault> {
        let b = self.bytes(8)?;
        Ok(f64::from_bits(u64::from_le_bytes(
            b.try_into().map_err(|_| "short float")?,
        )))
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], DecodeFault> {
        let end = self
            .at
            .checked_add(n)
            .filter(|e| *e <= self.b.len())
            .ok_or("length past the end")?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }

    /// Bytes written by [`put_bytes`].
    pub fn bytes_prefixed(&mut self) -> Result<&'a [u8], DecodeFault> {
        let n = usize::try_from(self.u()?).map_err(|_| "length too large")?;
        self.bytes(n)
    }

    /// A string written by [`put_bytes`], checked to be UTF-8.
    pub fn str(&mut self) -> Result<&'a str, DecodeFault> {
        let b = self.bytes_prefixed()?;
        std::str::from_utf8(b).map_err(|e| format!("invalid UTF-8: {e}").into())
    }

    /// [`Reader::str`], owned.
    pub fn string(&mut self) -> Result<String, DecodeFault> {
        self.str().map(str::to_owned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIND: CacheKind = CacheKind {
        magic: b"SMTCTST\0",
        version: 3,
        prefix: "test",
        what: "a test cache",
        source: "file",
    };

    #[test]
    fn varints_round_trip() {
        for x in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut b = Vec::new();
            put_u(&mut b, x);
            let mut r = Reader::new(&b);
            assert_eq!(r.u().unwrap(), x);
            assert!(r.at_end());
        }
    }

    #[test]
    fn frame_round_trips_and_every_header_field_is_checked() {
        let hash = [7u8; 32];
        let file = frame(&KIND, &hash, b"payload");
        assert_eq!(file.len(), HEADER_LEN + 7);
        assert_eq!(checked_payload(&KIND, &file, &hash).unwrap(), b"payload");
        assert!(
            checked_payload(&KIND, &file, &[8u8; 32])
                .unwrap_err()
                .to_string()
                .contains("another file")
        );
        let other = CacheKind { version: 4, ..KIND };
        assert!(
            checked_payload(&other, &file, &hash)
                .unwrap_err()
                .to_string()
                .contains("version 3")
        );
        let other = CacheKind {
            magic: b"SMTCXXX\0",
            ..KIND
        };
        assert!(
            checked_payload(&other, &file, &hash)
                .unwrap_err()
                .to_string()
                .contains("magic")
        );
        assert!(
            checked_payload(&KIND, &file[..20], &hash)
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        assert!(
            checked_payload(&KIND, &file[..file.len() - 1], &hash)
                .unwrap_err()
                .to_string()
                .contains("payload of 6 bytes")
        );
        let mut flipped = file.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(
            checked_payload(&KIND, &flipped, &hash)
                .unwrap_err()
                .to_string()
                .contains("checksum")
        );
    }

    #[test]
    fn counts_are_bounded_by_the_bytes_left() {
        let mut b = Vec::new();
        put_u(&mut b, 1_000_000);
        b.extend_from_slice(&[0; 10]);
        assert!(Reader::new(&b).count(1).is_err());
        let mut b = Vec::new();
        put_u(&mut b, 5);
        b.extend_from_slice(&[0; 10]);
        assert_eq!(Reader::new(&b).count(2).unwrap(), 5);
        assert!(Reader::new(&b).count(3).is_err());
    }
}
