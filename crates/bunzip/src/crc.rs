//! The CRC-32 of bzip2: polynomial 0x04c11db7, most significant bit first
//! (not reflected), initial value and final complement 0xffffffff.
//!
//! Updated eight bytes at a time ("slicing by 8"): table `k` holds the CRC
//! contribution of a byte followed by `k` zero bytes.

/// The eight tables, computed at compile time.
static TABLES: [[u32; 256]; 8] = tables();

const fn tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut c = (i as u32) << 24;
        let mut k = 0;
        while k < 8 {
            c = if c & 0x8000_0000 != 0 {
                (c << 1) ^ 0x04c1_1db7
            } else {
                c << 1
            };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut s = 1;
    while s < 8 {
        let mut i = 0;
        while i < 256 {
            let prev = t[s - 1][i];
            t[s][i] = (prev << 8) ^ t[0][(prev >> 24) as usize];
            i += 1;
        }
        s += 1;
    }
    t
}

/// A running CRC (before the final complement).
#[derive(Debug, Clone, Copy)]
pub struct Crc(u32);

impl Default for Crc {
    fn default() -> Self {
        Crc(0xffff_ffff)
    }
}

impl Crc {
    /// Adds `data` to the CRC.
    pub fn update(&mut self, data: &[u8]) {
        let t = &TABLES;
        let mut c = self.0;
        let mut chunks = data.chunks_exact(8);
        for ch in &mut chunks {
            let a = c ^ u32::from_be_bytes([ch[0], ch[1], ch[2], ch[3]]);
            c = t[7][(a >> 24) as usize]
                ^ t[6][((a >> 16) & 0xff) as usize]
                ^ t[5][((a >> 8) & 0xff) as usize]
                ^ t[4][(a & 0xff) as usize]
                ^ t[3][ch[4] as usize]
                ^ t[2][ch[5] as usize]
                ^ t[1][ch[6] as usize]
                ^ t[0][ch[7] as usize];
        }
        for &b in chunks.remainder() {
            c = (c << 8) ^ t[0][((c >> 24) ^ u32::from(b)) as usize];
        }
        self.0 = c;
    }

    /// The final value.
    pub fn value(self) -> u32 {
        !self.0
    }
}

#[cfg(test)]
mod tests {
    use super::Crc;

    /// Byte-at-a-time reference, straight from the definition.
    fn slow(data: &[u8]) -> u32 {
        let mut c = 0xffff_ffffu32;
        for &b in data {
            c ^= u32::from(b) << 24;
            for _ in 0..8 {
                c = if c & 0x8000_0000 != 0 {
                    (c << 1) ^ 0x04c1_1db7
                } else {
                    c << 1
                };
            }
        }
        !c
    }

    #[test]
    fn check_value_and_slicing_agree_with_the_definition() {
        // The catalogued check value of CRC-32/BZIP2 over "123456789".
        let mut c = Crc::default();
        c.update(b"123456789");
        assert_eq!(c.value(), 0xfc89_1918);
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        for split in [0, 1, 7, 8, 9, 500, 999, 1000] {
            let mut c = Crc::default();
            c.update(&data[..split]);
            c.update(&data[split..]);
            assert_eq!(c.value(), slow(&data), "split {split}");
        }
    }
}
