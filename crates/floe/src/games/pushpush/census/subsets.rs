//! The block sets of one layer: the `k`-subsets of the `n` cells in colex order, which is the
//! numeric order of their `u32` masks. Their colex ranks ([`crate::bits::Binomials::rank`])
//! number the layer's tables; this module ranks a `u32` mask a byte at a time, steps to the
//! next set and finds the set of a rank.

use crate::bits::Binomials;

/// The `k`-subsets of `n` cells (`n` ≤ 32).
pub(super) struct Subsets {
    /// Number of subsets: C(n, k).
    pub(super) count: u64,
    /// `bytes[byte_index][ones_below][byte]`: the rank terms of the cells of one byte of the
    /// mask when `ones_below` cells of the set lie below that byte (at most 24, so the
    /// index is taken modulo 32 and needs no bounds check).
    bytes: Box<[[[u32; 256]; 32]; 4]>,
    /// Ones in each byte (a table: `count_ones` is a dozen instructions without `popcnt`).
    ones: [u8; 256],
    binomials: Binomials,
    n: usize,
    k: usize,
}

impl Subsets {
    pub(super) fn new(n: usize, k: usize) -> Subsets {
        let binomials = Binomials::new(32, 32);
        // C(pos, m) for m > 32 is 0 (pos < 32); every rank of a layer fits u32, since
        // C(32, 16) < 2^32, and the terms of sets that are not k-subsets are never read
        let c = |pos: usize, m: usize| if m > 32 { 0 } else { binomials.get(pos, m) };
        let mut bytes: Box<[[[u32; 256]; 32]; 4]> = vec![[[0u32; 256]; 32]; 4]
            .into_boxed_slice()
            .try_into()
            .expect("four tables");
        for i in 0..4 {
            for below in 0..32 {
                for byte in 0..256usize {
                    let mut r = 0u64;
                    let mut j = below;
                    for bit in 0..8 {
                        if byte >> bit & 1 == 1 {
                            r += c(8 * i + bit, j + 1);
                            j += 1;
                        }
                    }
                    bytes[i][below][byte] = r as u32;
                }
            }
        }
        let mut ones = [0u8; 256];
        for (byte, o) in ones.iter_mut().enumerate() {
            *o = byte.count_ones() as u8;
        }
        Subsets {
            count: binomials.get(n, k),
            bytes,
            ones,
            binomials,
            n,
            k,
        }
    }

    /// The colex rank of a `k`-subset.
    #[inline]
    pub(super) fn rank(&self, b: u32) -> usize {
        let b0 = (b & 255) as usize;
        let b1 = (b >> 8 & 255) as usize;
        let b2 = (b >> 16 & 255) as usize;
        let b3 = (b >> 24) as usize;
        let c1 = self.ones[b0] as usize;
        let c2 = c1 + self.ones[b1] as usize;
        let c3 = c2 + self.ones[b2] as usize;
        let t = &self.bytes;
        (t[0][0][b0] as usize)
            + t[1][c1 & 31][b1] as usize
            + t[2][c2 & 31][b2] as usize
            + t[3][c3 & 31][b3] as usize
    }

    /// The `k`-subset of colex rank `r` (< `count`).
    pub(super) fn unrank(&self, mut r: u64) -> u32 {
        let mut b = 0u32;
        let mut top = self.n;
        for j in (1..=self.k).rev() {
            // the largest cell `pos` with C(pos, j) ≤ r
            let mut pos = top - 1;
            while self.binomials.get(pos, j) > r {
                pos -= 1;
            }
            b |= 1 << pos;
            r -= self.binomials.get(pos, j);
            top = pos;
        }
        b
    }
}

/// The next mask with as many ones (Gosper's hack); `b` must not be 0 nor the last set.
#[inline]
pub(super) fn next_subset(b: u32) -> u32 {
    let b = u64::from(b);
    let t = b | (b - 1);
    ((t + 1) | (((!t & (t + 1)) - 1) >> (b.trailing_zeros() + 1))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_the_colex_ranks_of_bits_and_follow_numeric_order() {
        let b = Binomials::new(32, 32);
        for (n, k) in [(9, 0), (9, 1), (9, 4), (9, 8), (12, 6), (20, 3)] {
            let s = Subsets::new(n, k);
            let mut want = 0u64;
            let mut set = s.unrank(0);
            assert_eq!(set, ((1u64 << k) - 1) as u32);
            for x in 0u32..(1 << n) {
                if x.count_ones() as usize != k {
                    continue;
                }
                assert_eq!(s.rank(x) as u64, want, "{n} {k} {x:b}");
                assert_eq!(b.rank(u64::from(x)), want);
                assert_eq!(s.unrank(want), x);
                assert_eq!(set, x);
                want += 1;
                if want < s.count {
                    set = next_subset(set);
                }
            }
            assert_eq!(want, s.count);
        }
        // the largest ranks of 32 cells fit
        let s = Subsets::new(32, 16);
        let top = s.unrank(s.count - 1);
        assert_eq!(top, 0xffff_0000);
        assert_eq!(s.rank(top) as u64, s.count - 1);
    }
}
