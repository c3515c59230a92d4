//! The ranks of a position's pushes, listed without a branch the processor could
//! mispredict: the inner loop of the enumerations that keep ranks only (the single process's
//! layers of bits and the shared path's workers).

use super::{IcePuzzle, Walking, MAX_RANKED};
use crate::bits::{Binomials, Bits};
use crate::games::ice::level::WalkRule;
use crate::grid::Dir;
use crate::search::Puzzle;

impl<B: Bits, R: Walking> IcePuzzle<B, R> {
    /// [`Puzzle::next_ranks_of_ranks`]: under `free` with at most `MAX_RANKED` blocks the
    /// loop of [`IcePuzzle::next_ranks`], built for this processor's instructions where it
    /// has them; else the ranks of the states [`Puzzle::for_each_next_of_ranks`] lists.
    pub(super) fn list_ranks(&self, ranks: &[u64], out: &mut Vec<u64>) {
        let k = self.start.count() as usize;
        match self.ranks.as_ref() {
            Some((bin, _)) if R::RULE == WalkRule::Free && k <= MAX_RANKED => {
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("popcnt")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("lzcnt")
                {
                    // SAFETY: this processor has the instructions the function is built with
                    // (checked just above).
                    return unsafe { self.ranks_of_ranks_counting(bin, k, ranks, out) };
                }
                self.ranks_of_ranks(bin, k, ranks, out)
            }
            _ => self.for_each_next_of_ranks(ranks, |r, _| out.push(r)),
        }
    }

    /// Under `free`: the ranks of every push from the blocks `blocks`, whose cells in
    /// increasing order are `pos` and whose colex rank is `rank`, written to the front of
    /// `out` (as [`IcePuzzle::next_ranked`] lists them, without the states); returns how
    /// many. Written without a branch that depends on the position: every direction of
    /// every block is worked out and kept or not by moving the end of `out`, and the blocks
    /// a vertical push passes in cell order (whose places shift by one) are counted, their
    /// terms' changes read from running sums made once per position.
    #[inline(always)]
    fn next_ranks(
        &self,
        bin: &Binomials,
        blocks: B,
        pos: &[u16],
        rank: u64,
        sums: &mut Sums,
    ) -> usize {
        let k = pos.len();
        // own[m]: the term of the m-th block; down[j]/up[j]: what the terms of blocks 1..=j
        // (0..j) change by when each takes the place below (above) its own
        let Sums { own, down, up, out } = sums;
        for (m, &p) in pos.iter().enumerate() {
            own[m] = bin.term(m, p as usize);
        }
        for m in 1..k {
            let p = pos[m] as usize;
            down[m] = down[m - 1].wrapping_add(bin.term(m - 1, p).wrapping_sub(own[m]));
            let q = pos[m - 1] as usize;
            up[m] = up[m - 1].wrapping_add(bin.term(m, q).wrapping_sub(own[m - 1]));
        }
        // places are below MAX_RANKED and at most 4 * MAX_RANKED pushes are listed: the
        // masks say so to the compiler, which then checks no index
        const PLACE: usize = MAX_RANKED - 1;
        const LISTED: usize = 4 * MAX_RANKED - 1;
        let mut n = 0;
        for (a, &i) in pos.iter().enumerate() {
            let i = i as usize;
            let a = a & PLACE;
            let without = rank.wrapping_sub(own[a]);
            // along a row the cells that hold blocks are numbered one after the other, so
            // the first block on the way is the next block in cell order, if it is that near
            let right = pos.get(a + 1).map_or(usize::MAX, |&p| p as usize - 1);
            let left = if a == 0 { 0 } else { pos[a - 1] as usize + 1 };
            for (di, sl) in self.slides[i].iter().enumerate() {
                let d = Dir::ALL[di];
                let dest = match d {
                    Dir::Right => right.min(sl.dest as usize),
                    Dir::Left => left.max(sl.dest as usize),
                    _ => {
                        let hit = blocks.and(sl.ray);
                        let first = if d.is_forward() {
                            hit.bottom()
                        } else {
                            hit.top()
                        };
                        // chosen by a mask, not a branch: whether a block is on the way is
                        // as likely as not
                        let clear = usize::from(hit.is_empty()).wrapping_neg();
                        (sl.dest as usize & clear) | (self.before[di][first] as usize & !clear)
                    }
                };
                let legal = blocks.and(sl.stops).is_empty() & (dest != i);
                // the pushed block's place among the blocks after the push (a push along a
                // row passes none)
                let b = match d {
                    Dir::Left | Dir::Right => a,
                    _ => (blocks.count_below(dest) - u32::from(dest > i)) as usize & PLACE,
                };
                let passed = if d.is_forward() {
                    down[b].wrapping_sub(down[a])
                } else {
                    up[a].wrapping_sub(up[b])
                };
                out[n & LISTED] = without.wrapping_add(passed).wrapping_add(bin.term(b, dest));
                n += usize::from(legal);
            }
        }
        n
    }

    /// Under `free` with `k ≤ MAX_RANKED` blocks: [`Puzzle::next_ranks_of_ranks`], each
    /// position rebuilt from the one before ([`Binomials::unrank_after`]). The walk over the
    /// positions is written out as `for_each_next_of_ranks` writes it: shared through a
    /// helper taking a closure, this loop ran a fifth slower (10.25 against 8.60 user s on
    /// 8×8 with 6 blocks, one thread).
    #[inline(always)]
    fn ranks_of_ranks(&self, bin: &Binomials, k: usize, ranks: &[u64], out: &mut Vec<u64>) {
        let mut pos: [u16; MAX_RANKED] = std::array::from_fn(|j| j as u16);
        let mut top = [0u64; MAX_RANKED + 1];
        let mut sums = Sums::default();
        let (pos, top) = (&mut pos[..k], &mut top[..=k]);
        for &r in ranks {
            bin.unrank_after(r, pos, top);
            let mut blocks = B::empty();
            for &i in pos.iter() {
                blocks.set(i as usize);
            }
            let n = self.next_ranks(bin, blocks, pos, r, &mut sums);
            out.extend_from_slice(&sums.out[..n]);
        }
    }

    /// [`IcePuzzle::ranks_of_ranks`] built for processors that count bits and find the
    /// first and last set bit in one instruction each (x86-64 since about 2013), which
    /// the portable build leaves to several.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,lzcnt")]
    fn ranks_of_ranks_counting(
        &self,
        bin: &Binomials,
        k: usize,
        ranks: &[u64],
        out: &mut Vec<u64>,
    ) {
        self.ranks_of_ranks(bin, k, ranks, out)
    }
}

/// The running sums of [`IcePuzzle::next_ranks`] and the ranks it lists, kept from one
/// position to the next.
struct Sums {
    own: [u64; MAX_RANKED],
    down: [u64; MAX_RANKED],
    up: [u64; MAX_RANKED],
    out: [u64; 4 * MAX_RANKED],
}

impl Default for Sums {
    fn default() -> Self {
        Sums {
            own: [0; MAX_RANKED],
            down: [0; MAX_RANKED],
            up: [0; MAX_RANKED],
            out: [0; 4 * MAX_RANKED],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Wide;
    use crate::games::ice::format::parse_floe;
    use crate::games::ice::level::Level;
    use crate::games::ice::Free;

    fn level(text: &str) -> Level {
        parse_floe(text, "t").unwrap().remove(0)
    }

    /// The ranks [`Puzzle::next_ranks_of_ranks`] lists (with and without the counting
    /// instructions) against the ranks of the pushes worked out one by one, on `ranks`.
    fn ranks_listed_as_pushes_are<B: Bits>(p: &IcePuzzle<B, Free>, ranks: &[u64]) {
        let mut want = Vec::new();
        for &r in ranks {
            let s = p.unrank(r).unwrap();
            p.for_each_next(&s, |t| want.push(p.rank(&t).unwrap()));
        }
        let mut got = Vec::new();
        p.next_ranks_of_ranks(ranks, &mut got);
        assert_eq!(got, want);
        let (bin, _) = p.ranks.as_ref().unwrap();
        let mut portable = vec![7];
        p.ranks_of_ranks(bin, p.start.count() as usize, ranks, &mut portable);
        assert_eq!(portable[1..], want[..], "appended after what was there");
    }

    /// Sorted distinct ranks: `n` drawn uniformly from the whole space, its first and last.
    fn some_ranks<B: Bits>(p: &IcePuzzle<B, Free>, n: usize, seed: u64) -> Vec<u64> {
        use rand::{RngExt, SeedableRng};
        let space = p.rank_space().unwrap();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut v: Vec<u64> = (0..n).map(|_| rng.random_range(0..space)).collect();
        v.extend([0, space - 1]);
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn ranks_listed_alone_are_the_ranks_of_the_pushes() {
        // walls beside and between blocks (pushers that are walls), floor that holds none,
        // targets, one block and many, on every bit-set width
        for (text, n) in [
            ("$-#--\n-$=-$\n--#-.\n-$---\n-----\n", 3000),
            ("$-$-$-\n------\n-$-#--\n---$--\n", 3000),
            ("#----\n-$-#-\n--=--\n", 100),
            ("$$$$$$\n$$$$$$\n------\n-#--#-\n", 3000),
        ] {
            let p = IcePuzzle::<u64, Free>::new(&level(text)).unwrap();
            ranks_listed_as_pushes_are(&p, &some_ranks(&p, n, 1));
        }
        // the reference boards: every position of a stretch of neighbouring ranks (as a
        // layer's page gives them) and ranks from all over
        for (rows, cols, k) in [(8, 8, 7), (8, 8, 1), (6, 7, 12)] {
            let p =
                IcePuzzle::<u64, Free>::new(&Level::empty_board(rows, cols, k).unwrap()).unwrap();
            let run: Vec<u64> = (0..2000u64)
                .map(|r| r * 7 % p.rank_space().unwrap())
                .collect();
            let mut run = run;
            run.sort_unstable();
            run.dedup();
            ranks_listed_as_pushes_are(&p, &run);
            ranks_listed_as_pushes_are(&p, &some_ranks(&p, 3000, 2));
        }
        let wide = |rows, cols, k| Level::empty_board(rows, cols, k).unwrap();
        let p = IcePuzzle::<u128, Free>::new(&wide(9, 10, 6)).unwrap();
        ranks_listed_as_pushes_are(&p, &some_ranks(&p, 3000, 3));
        let p = IcePuzzle::<Wide<4>, Free>::new(&wide(12, 14, 5)).unwrap();
        ranks_listed_as_pushes_are(&p, &some_ranks(&p, 3000, 4));
    }
}
