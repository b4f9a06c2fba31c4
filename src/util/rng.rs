//! A bit-exact port of glibc's `srandom()`/`random()` (the TYPE_3 additive
//! feedback generator), which the rules require for all competition randomness.

/// glibc `random()` state after `srandom(seed)`.
#[derive(Debug, Clone)]
pub struct GlibcRandom {
    ring: [u32; 34],
    index: usize,
}

impl GlibcRandom {
    /// The generator after `srandom(seed)`; like glibc, seed 0 behaves as seed 1.
    pub fn new(seed: u32) -> GlibcRandom {
        let mut r = [0u32; 34];
        let seed = if seed == 0 { 1 } else { seed };
        r[0] = seed;
        for i in 1..31 {
            // 16807 * r[i-1] mod (2^31 - 1) by Schrage's method, in signed arithmetic
            // with C's truncating division (this matters for seeds >= 2^31).
            let prev = i64::from(r[i - 1] as i32);
            let hi = prev / 127_773;
            let lo = prev % 127_773;
            let mut word = 16_807 * lo - 2_836 * hi;
            if word < 0 {
                word += 2_147_483_647;
            }
            r[i] = word as u32;
        }
        for i in 31..34 {
            r[i] = r[i - 31];
        }
        let mut g = GlibcRandom { ring: r, index: 34 };
        for _ in 34..344 {
            g.step();
        }
        g
    }

    fn step(&mut self) -> u32 {
        let i = self.index;
        let v = self.ring[(i - 31) % 34].wrapping_add(self.ring[(i - 3) % 34]);
        self.ring[i % 34] = v;
        // Keep the index in 34..68: the ring positions only depend on it mod 34.
        self.index = if i + 1 >= 68 { i + 1 - 34 } else { i + 1 };
        v
    }

    /// The next value of `random()`: uniform in `0..2^31`.
    pub fn next_random(&mut self) -> u32 {
        self.step() >> 1
    }

    /// A uniform value in `0..n` (n > 0), by rejection sampling on `random()`,
    /// so there is no modulo bias.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0)");
        let n = n as u64;
        let range = 1u64 << 31;
        if n >= range {
            // Two draws for huge ranges (not needed for realistic benchmark counts).
            let v = (u64::from(self.next_random()) << 31) | u64::from(self.next_random());
            return (v % n) as usize;
        }
        let limit = range - range % n;
        loop {
            let r = u64::from(self.next_random());
            if r < limit {
                return (r % n) as usize;
            }
        }
    }

    /// Chooses `k` distinct indices of `0..n` uniformly (a partial Fisher-Yates
    /// shuffle); the result is in draw order.
    pub fn sample_indices(&mut self, n: usize, k: usize) -> Vec<usize> {
        let k = k.min(n);
        let mut pool: Vec<usize> = (0..n).collect();
        for i in 0..k {
            let j = i + self.below(n - i);
            pool.swap(i, j);
        }
        pool.truncate(k);
        pool
    }

    /// Shuffles `items` in place (Fisher-Yates from the front).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        let n = items.len();
        for i in 0..n.saturating_sub(1) {
            let j = i + self.below(n - i);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(seed: u32, n: usize) -> Vec<u32> {
        let mut g = GlibcRandom::new(seed);
        (0..n).map(|_| g.next_random()).collect()
    }

    #[test]
    fn reference_values_from_glibc() {
        assert_eq!(
            first(12345, 10),
            [
                383100999, 858300821, 357768173, 455528251, 133005921, 116285904, 591987137,
                102557902, 689413528, 585691128
            ]
        );
        assert_eq!(first(1, 3), [1804289383, 846930886, 1681692777]);
        assert_eq!(first(0, 3), first(1, 3));
        assert_eq!(first(4294967295, 3), [254925627, 1205188300, 366127624]);
    }

    #[test]
    fn sampling_is_distinct_and_in_range() {
        let mut g = GlibcRandom::new(42);
        let s = g.sample_indices(100, 30);
        let mut d = s.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), 30);
        assert!(s.iter().all(|&i| i < 100));
        assert_eq!(g.sample_indices(5, 10).len(), 5);
        assert!(g.below(1) == 0);
    }
}
