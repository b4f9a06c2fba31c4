//! Damage done to a binary cache file (`formats::cache_file` container) that
//! its checksum cannot see: the payload changed, then the header's length and
//! CRC-32 recomputed, as a bug or a file crafted on purpose would leave it.

use smtcomp::formats::cache_file::CacheError;
use std::fmt::Debug;

/// Length of the cache header (magic, version, hash, length, CRC).
pub const HEADER: usize = 56;

/// Recomputes the payload length and CRC-32 in the header of `b`.
pub fn reseal(b: &mut [u8]) {
    let payload_len = (b.len() - HEADER) as u64;
    b[44..52].copy_from_slice(&payload_len.to_le_bytes());
    let crc = crc32fast::hash(&b[HEADER..]);
    b[52..56].copy_from_slice(&crc.to_le_bytes());
}

/// Flips each payload byte of the valid cache file `good` three ways and
/// truncates it at four lengths, resealing each time: `decode` must reject
/// every damaged file with a reason starting with "corrupt" or give a value
/// other than `value` (some flips give another valid value, such as a changed
/// time; the checksum, not the decoder, catches those). Returns the number of
/// flips rejected.
/// Whether a resealed cache's error says its payload is corrupt (the header and
/// checksum passed): [`CacheError::Corrupt`] or [`CacheError::Trailing`].
pub fn is_corrupt(e: &CacheError) -> bool {
    matches!(e, CacheError::Corrupt { .. } | CacheError::Trailing { .. })
        && e.to_string().starts_with("corrupt")
}

pub fn assert_resealed_damage_rejected<T: PartialEq + Debug>(
    good: &[u8],
    value: &T,
    decode: impl Fn(&[u8]) -> Result<T, CacheError>,
) -> usize {
    assert_eq!(&decode(good).unwrap(), value);
    let mut rejected = 0;
    for i in HEADER..good.len() {
        for x in [0x01u8, 0x80, 0xff] {
            let mut b = good.to_vec();
            b[i] ^= x;
            reseal(&mut b);
            match decode(&b) {
                Err(reason) => {
                    assert!(is_corrupt(&reason), "{reason}");
                    rejected += 1;
                }
                Ok(other) => assert!(&other != value, "byte {i} ^ {x:#x}"),
            }
        }
    }
    for len in [HEADER, HEADER + 1, good.len() / 2, good.len() - 1] {
        let mut b = good[..len].to_vec();
        reseal(&mut b);
        let reason = decode(&b).unwrap_err();
        assert!(is_corrupt(&reason), "{reason}");
    }
    rejected
}

/// A damage to a whole cache file and a word the rejection reason must
/// contain.
pub type Damage = (fn(&mut Vec<u8>), &'static str);

/// Damages every cache file's header checks catch: truncations, flipped
/// payload bytes (the checksum), bytes appended, foreign magic bytes and
/// another format version.
pub const HEADER_DAMAGES: [Damage; 8] = [
    (|b| b.truncate(b.len() - 10), "truncated"),
    (|b| b.truncate(20), "truncated"),
    (Vec::clear, "truncated"),
    (|b| *b.last_mut().unwrap() ^= 1, "checksum"),
    (|b| b[300] ^= 0x40, "checksum"),
    (|b| b.extend_from_slice(b"more"), "header says"),
    (|b| b[0] = b'X', "magic"),
    (|b| b[8] = 99, "format version"),
];
