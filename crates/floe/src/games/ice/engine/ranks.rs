//! The ranks of a position's pushes, listed without a branch the processor could
//! mispredict: the inner loop of the enumerations that keep ranks only (the single process's
//! layers of bits and the shared path's workers).

use super::{IcePuzzle, Slide, Walking, MAX_RANKED};
#[cfg(target_arch = "x86_64")]
use crate::bits::COMPRESS;
use crate::bits::{Binomials, Bits};
use crate::games::ice::level::WalkRule;
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
                    // SAFETY: this processor has the instructions the functions are built
                    // with (checked just above and here).
                    return unsafe {
                        if std::is_x86_feature_detected!("avx2") {
                            self.ranks_of_ranks_wide(bin, k, ranks, out)
                        } else {
                            self.ranks_of_ranks_counting(bin, k, ranks, out)
                        }
                    };
                }
                // SAFETY: no AVX2 asked for
                unsafe { self.ranks_of_ranks::<false>(bin, k, ranks, out) }
            }
            _ => self.for_each_next_of_ranks(ranks, |r, _| out.push(r)),
        }
    }

    /// Under `free`: the ranks of every push from the blocks whose cells in increasing
    /// order are `with.pos` and whose colex rank is `rank`, written from `room` on (as
    /// [`IcePuzzle::next_ranked`] lists them, without the states); returns how many.
    /// `pushes` holds every push of the position listed before (legal or not), whose blocks
    /// from the `fresh`-th up were where they are now (all of them when `fresh` is `k`), the
    /// others on cells up to `changed` before and after: the pushes of the blocks that
    /// stayed are taken from it where the blocks that moved cannot change them (below).
    ///
    /// A push is worked out without a branch that depends on the position: its end, its
    /// legality and its rank, the blocks a vertical push passes in cell order (whose places
    /// shift by one) counted and their terms' changes read from running sums kept per
    /// position; a block's four pushes are then written together, the legal ones first
    /// ([`emit`]).
    ///
    /// # Safety
    /// `room` has room for `4 * with.pos.len()` ranks; with `WIDE` the processor has AVX2.
    #[inline(always)]
    unsafe fn next_ranks<const WIDE: bool>(
        &self,
        with: &Around<B>,
        rank: u64,
        (fresh, changed): (usize, usize),
        pushes: &mut Pushes,
        room: *mut u64,
    ) -> usize {
        let mut n = 0;
        for (a, &i) in with.pos.iter().enumerate() {
            let i = i as usize;
            let a = a & PLACE;
            let slides = &self.slides[i];
            if a < fresh {
                let up = self.up_push(with, &slides[0], i, a);
                let right = row_push(with, &slides[1], i, a, true);
                let down = self.down_push(with, &slides[2], i, a);
                let left = row_push(with, &slides[3], i, a, false);
                pushes.shift[a] = [up.shift, right.shift, down.shift, left.shift];
                pushes.legal[a] = up.legal | right.legal << 1 | down.legal << 2 | left.legal << 3;
                pushes.moves[a] = up.moves | right.moves << 1 | down.moves << 2 | left.moves << 3;
                pushes.reach[a] = up.reach;
            } else {
                // The block stayed, and so did the blocks above it; the blocks that moved
                // were all below it, on cells up to `changed`. Its pushes to the right and
                // down end where they ended, pass the same blocks and take the same place
                // (as many blocks are below it as before): the same change of the rank.
                // Only their pushers (the cells to the left and above) may have changed.
                // The push to the left is the same but for the lowest block that stayed,
                // whose left neighbour in cell order moved. The push up is the same if
                // everything it looked at (up to the block it hit, or to the end of its
                // way) is above `changed`.
                let moves = pushes.moves[a];
                let right = u8::from(with.blocks.and(slides[1].stops).is_empty()) << 1;
                let down = u8::from(with.blocks.and(slides[2].stops).is_empty()) << 2;
                let mut legal = (pushes.legal[a] & 0b1001) | ((right | down) & moves);
                if a == fresh {
                    let left = row_push(with, &slides[3], i, a, false);
                    pushes.shift[a][3] = left.shift;
                    legal = (legal & 0b0111) | left.legal << 3;
                    pushes.moves[a] = (moves & 0b0111) | left.moves << 3;
                }
                if pushes.reach[a] as usize <= changed {
                    let up = self.up_push(with, &slides[0], i, a);
                    pushes.shift[a][0] = up.shift;
                    legal = (legal & 0b1110) | up.legal;
                    pushes.moves[a] = (pushes.moves[a] & 0b1110) | up.moves;
                    pushes.reach[a] = up.reach;
                }
                pushes.legal[a] = legal;
            }
            // SAFETY: `n ≤ 4a`, so the four slots from `n` on are in `room` (the caller's
            // promise); `WIDE` only where the processor has AVX2 (the same).
            n += unsafe { emit::<WIDE>(rank, &pushes.shift[a], pushes.legal[a], room.add(n)) };
        }
        n
    }

    /// Where a push along a column that hits `hit` (the blocks on its way; `first`, the
    /// first of them as [`Bits::bottom`] or [`Bits::top`] gives it) ends.
    #[inline(always)]
    fn column_end(&self, di: usize, sl: &Slide<B>, hit: B, first: usize) -> usize {
        // chosen by a mask, not a branch: whether a block is on the way is as likely as not
        let clear = usize::from(hit.is_empty()).wrapping_neg();
        (sl.dest as usize & clear) | (self.before[di][first] as usize & !clear)
    }

    /// The push up of the `a`-th block, on cell `i`: the blocks from where it ends up to
    /// its own cell move one place up. Its `reach` is the block it hit, or the end of its
    /// way.
    #[inline(always)]
    fn up_push(&self, with: &Around<B>, sl: &Slide<B>, i: usize, a: usize) -> Push {
        let hit = with.blocks.and(sl.ray);
        let first = hit.top();
        let dest = self.column_end(0, sl, hit, first);
        // the blocks below `dest`
        let b = with.blocks.count_below_cell(dest) as usize & PLACE;
        let passed = with.up[b].wrapping_sub(with.up[a]);
        Push {
            reach: if hit.is_empty() {
                sl.dest
            } else {
                (first - 1) as u16
            },
            ..column_push(with, sl, (i, a), (b, dest), passed)
        }
    }

    /// The push down of the `a`-th block, on cell `i`: the blocks from its own cell to
    /// where it ends move one place down.
    #[inline(always)]
    fn down_push(&self, with: &Around<B>, sl: &Slide<B>, i: usize, a: usize) -> Push {
        let hit = with.blocks.and(sl.ray);
        let dest = self.column_end(2, sl, hit, hit.bottom());
        // the blocks below `dest` but itself (none if it stays)
        let b = (with.blocks.count_below_cell(dest) - u32::from(dest > i)) as usize & PLACE;
        let passed = with.down[a + 1].wrapping_sub(with.down[(b + 1) & PLACE_END]);
        column_push(with, sl, (i, a), (b, dest), passed)
    }

    /// Under `free` with `k ≤ MAX_RANKED` blocks: [`Puzzle::next_ranks_of_ranks`], each
    /// position rebuilt from the one before ([`Binomials::unrank_after`]), its running sums
    /// and its set of blocks brought up to date from the smallest block that moved down, and
    /// its pushes taken from those of the one before where they stay the same. The walk
    /// over the positions is written out as `for_each_next_of_ranks` writes it: shared
    /// through a helper taking a closure, this loop ran a fifth slower (10.25 against 8.60
    /// user s on 8×8 with 6 blocks, one thread).
    ///
    /// # Safety
    /// With `WIDE` the processor has AVX2.
    #[inline(always)]
    unsafe fn ranks_of_ranks<const WIDE: bool>(
        &self,
        bin: &Binomials,
        k: usize,
        ranks: &[u64],
        out: &mut Vec<u64>,
    ) {
        let mut pos: [u16; MAX_RANKED] = std::array::from_fn(|j| j as u16);
        let mut top = [0u64; MAX_RANKED + 1];
        let mut sums = Sums::default();
        let mut pushes = Pushes::default();
        let (pos, top) = (&mut pos[..k], &mut top[..=k]);
        // the first position is listed afresh
        let mut first = true;
        for &r in ranks {
            let rewritten = bin.unrank_after(r, pos, top);
            // The blocks below the `rewritten`-th are on cells up to pos[rewritten - 1], and
            // were on cells up to it: on ranks that do not go down the largest element
            // rewritten does not either (it grows, or it is the smallest, and the elements
            // above it stayed).
            let (fresh, changed) = match (first, rewritten.checked_sub(1)) {
                (false, Some(m)) => (rewritten, pos[m] as usize),
                _ => (k, 0),
            };
            first = false;
            sums.update(bin, pos, fresh);
            let with = Around {
                bin,
                blocks: sums.blocks[0],
                pos,
                own: &sums.own,
                down: &sums.down,
                up: &sums.up,
            };
            out.reserve(4 * k);
            let len = out.len();
            // SAFETY: room was reserved for the `4 * k` ranks a position has at most, and
            // `next_ranks` wrote the `n` before the new end; `WIDE` as promised.
            unsafe {
                let n = self.next_ranks::<WIDE>(
                    &with,
                    r,
                    (fresh, changed),
                    &mut pushes,
                    out.as_mut_ptr().add(len),
                );
                out.set_len(len + n);
            }
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
        // SAFETY: no AVX2 asked for
        unsafe { self.ranks_of_ranks::<false>(bin, k, ranks, out) }
    }

    /// [`IcePuzzle::ranks_of_ranks_counting`] writing a block's four pushes with one AVX2
    /// store (x86-64 since about 2015).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,lzcnt,avx2")]
    fn ranks_of_ranks_wide(&self, bin: &Binomials, k: usize, ranks: &[u64], out: &mut Vec<u64>) {
        // SAFETY: this function is built for AVX2, and called only where it runs
        unsafe { self.ranks_of_ranks::<true>(bin, k, ranks, out) }
    }
}

/// Writes the ranks `rank + shift[d]` of the pushes `d` whose bit is set in `legal`, in
/// order, from `to` on; returns how many. The four slots from `to` on may all be written.
///
/// # Safety
/// `to` has room for four ranks; with `WIDE` the processor has AVX2.
#[inline(always)]
unsafe fn emit<const WIDE: bool>(rank: u64, shift: &[u64; 4], legal: u8, to: *mut u64) -> usize {
    #[cfg(target_arch = "x86_64")]
    if WIDE {
        // SAFETY: as promised by the caller
        return unsafe { emit_avx2(rank, shift, legal, to) };
    }
    let mut n = 0;
    for (d, &s) in shift.iter().enumerate() {
        // SAFETY: n ≤ d < 4
        unsafe { to.add(n).write(rank.wrapping_add(s)) };
        n += usize::from(legal >> d & 1);
    }
    n
}

/// [`emit`] with AVX2: the four ranks added at once, the legal ones brought to the front by
/// one shuffle ([`COMPRESS`]) and stored together.
///
/// # Safety
/// As [`emit`], and the processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn emit_avx2(rank: u64, shift: &[u64; 4], legal: u8, to: *mut u64) -> usize {
    use std::arch::x86_64::*;
    let legal = usize::from(legal & 15);
    // The four shifts were just stored one by one: read them so too (volatile, lest they
    // be merged into one wide load, which cannot take them from the pending stores and
    // waits until they reach the cache: 8×8 with 7 blocks ran 6 % slower so).
    // SAFETY: `shift` is four u64
    let s = |d: usize| unsafe { std::ptr::read_volatile(shift.as_ptr().add(d)) } as i64;
    let v = _mm256_add_epi64(
        _mm256_set1_epi64x(rank as i64),
        _mm256_set_epi64x(s(3), s(2), s(1), s(0)),
    );
    // SAFETY: `legal < 16`; `to` has room for four ranks (the caller's promise)
    unsafe {
        let order = _mm256_loadu_si256(COMPRESS[legal].as_ptr().cast());
        _mm256_storeu_si256(to.cast(), _mm256_permutevar8x32_epi32(v, order));
    }
    legal.count_ones() as usize
}

/// A push along a row passes no block: the block keeps its place `a` among them.
#[inline(always)]
fn row_push<B: Bits>(with: &Around<B>, sl: &Slide<B>, i: usize, a: usize, right: bool) -> Push {
    let pos = with.pos;
    // along a row the cells that hold blocks are numbered one after the other, so the first
    // block on the way is the next block in cell order, if it is that near
    let dest = if right {
        let bound = pos.get(a + 1).map_or(usize::MAX, |&p| p as usize - 1);
        bound.min(sl.dest as usize)
    } else {
        let bound = if a == 0 { 0 } else { pos[a - 1] as usize + 1 };
        bound.max(sl.dest as usize)
    };
    let moves = dest != i;
    Push {
        shift: with.bin.term(a, dest).wrapping_sub(with.own[a]),
        legal: u8::from(moves & with.blocks.and(sl.stops).is_empty()),
        moves: u8::from(moves),
        reach: 0,
    }
}

/// A push along a column: the `a`-th block, on cell `i`, ends on `dest` in place `b`, the
/// blocks it passes changing the rank by `passed`.
#[inline(always)]
fn column_push<B: Bits>(
    with: &Around<B>,
    sl: &Slide<B>,
    (i, a): (usize, usize),
    (b, dest): (usize, usize),
    passed: u64,
) -> Push {
    let moves = dest != i;
    Push {
        shift: passed
            .wrapping_add(with.bin.term(b, dest))
            .wrapping_sub(with.own[a]),
        legal: u8::from(moves & with.blocks.and(sl.stops).is_empty()),
        moves: u8::from(moves),
        reach: 0,
    }
}

// places are below MAX_RANKED, and the sums have one more: the masks say so to the
// compiler, which then checks no index
const PLACE: usize = MAX_RANKED - 1;
const PLACE_END: usize = 2 * MAX_RANKED - 1;

/// What the pushes of a position are worked out from: its blocks as a set and as cells in
/// increasing order, and its running sums ([`Sums`]).
struct Around<'a, B> {
    bin: &'a Binomials,
    blocks: B,
    pos: &'a [u16],
    own: &'a [u64; MAX_RANKED],
    down: &'a [u64; 2 * MAX_RANKED],
    up: &'a [u64; 2 * MAX_RANKED],
}

/// A push as [`IcePuzzle::next_ranks`] works it out: what it adds to the position's rank,
/// whether it is legal, whether it moves the block at all (whatever its pusher's cell
/// holds), and for a push up the lowest cell it looked at.
#[derive(Clone, Copy, Default)]
struct Push {
    shift: u64,
    legal: u8,
    moves: u8,
    reach: u16,
}

/// Every push of the position [`IcePuzzle::next_ranks`] listed last, by block, in the
/// order of `Dir::ALL`: what each adds to the rank, and as bits (the `d`-th for the `d`-th
/// direction) which are legal and which move the block; the reach of each push up.
struct Pushes {
    shift: [[u64; 4]; MAX_RANKED],
    legal: [u8; MAX_RANKED],
    moves: [u8; MAX_RANKED],
    reach: [u16; MAX_RANKED],
}

impl Default for Pushes {
    fn default() -> Self {
        Pushes {
            shift: [[0; 4]; MAX_RANKED],
            legal: [0; MAX_RANKED],
            moves: [0; MAX_RANKED],
            reach: [0; MAX_RANKED],
        }
    }
}

/// The running sums of a position, from the largest block down, so that the blocks that
/// stayed keep theirs: `own[m]`, the term of the `m`-th block; `up[m]` (`down[m]`), what the
/// terms of blocks `m..k` change by when each takes the place above (below) its own, so
/// that the blocks from place `b` to place `a` change the rank by `up[b] − up[a]` when
/// each moves one place up; `blocks[m]`, the set of blocks `m..k`.
struct Sums<B> {
    own: [u64; MAX_RANKED],
    up: [u64; 2 * MAX_RANKED],
    down: [u64; 2 * MAX_RANKED],
    blocks: [B; MAX_RANKED + 1],
}

impl<B: Bits> Default for Sums<B> {
    fn default() -> Self {
        Sums {
            own: [0; MAX_RANKED],
            up: [0; 2 * MAX_RANKED],
            down: [0; 2 * MAX_RANKED],
            blocks: [B::empty(); MAX_RANKED + 1],
        }
    }
}

impl<B: Bits> Sums<B> {
    /// Brings the sums up to date for the blocks `pos`, of which those from the
    /// `fresh`-th up are where they were at the last call (`fresh = pos.len()` the first
    /// time).
    #[inline(always)]
    fn update(&mut self, bin: &Binomials, pos: &[u16], fresh: usize) {
        let k = pos.len();
        for m in (0..fresh).rev() {
            let p = pos[m] as usize;
            let own = bin.term(m, p);
            self.own[m] = own;
            // the largest block never takes the place above (there is none): no term read
            let up = if m + 1 < k {
                bin.term(m + 1, p).wrapping_sub(own)
            } else {
                0
            };
            // nor the smallest the place below
            let down = if m > 0 {
                bin.term(m - 1, p).wrapping_sub(own)
            } else {
                0
            };
            self.up[m] = self.up[m + 1].wrapping_add(up);
            self.down[m] = self.down[m + 1].wrapping_add(down);
            self.blocks[m] = self.blocks[m + 1].or(B::bit(p));
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
        let k = p.start.count() as usize;
        let mut portable = vec![7];
        // SAFETY: no AVX2 asked for
        unsafe { p.ranks_of_ranks::<false>(bin, k, ranks, &mut portable) };
        assert_eq!(portable[1..], want[..], "appended after what was there");
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt") {
            let mut wide = vec![7];
            // SAFETY: this processor has AVX2 and counts bits (checked just above)
            unsafe { p.ranks_of_ranks::<true>(bin, k, ranks, &mut wide) };
            assert_eq!(wide, portable, "four pushes a store");
        }
    }

    /// Every rank of a stretch of `n` from a third into the space (all of a smaller one):
    /// most pushes are taken from the position before.
    fn every_rank_of_a_stretch<B: Bits>(p: &IcePuzzle<B, Free>, n: u64) {
        let space = p.rank_space().unwrap();
        let from = if space > n { space / 3 } else { 0 };
        let every: Vec<u64> = (from..space.min(from + n)).collect();
        ranks_listed_as_pushes_are(p, &every);
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
            every_rank_of_a_stretch(&p, n as u64);
        }
        // up rays that end at floor or a wall above blocks that stay, the smallest block
        // walking through their ends; no block at all
        for text in [
            "=-=-\n----\n-$-$\n----\n",
            "#-=-#\n-----\n-$-$-\n--$--\n",
            "--\n--\n",
        ] {
            let p = IcePuzzle::<u64, Free>::new(&level(text)).unwrap();
            every_rank_of_a_stretch(&p, 5000);
        }
        let none = IcePuzzle::<u64, Free>::new(&level("--\n--\n")).unwrap();
        ranks_listed_as_pushes_are(&none, &[0, 0]);
        // the same rank again and again (a position listed twice in a row)
        let p = IcePuzzle::<u64, Free>::new(&level("$-#--\n-$=-$\n--#-.\n-$---\n-----\n")).unwrap();
        ranks_listed_as_pushes_are(&p, &[40, 40, 41, 41, 41, 900, 900]);
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
        every_rank_of_a_stretch(&p, 3000);
        let p = IcePuzzle::<Wide<4>, Free>::new(&wide(12, 14, 5)).unwrap();
        ranks_listed_as_pushes_are(&p, &some_ranks(&p, 3000, 4));
        every_rank_of_a_stretch(&p, 3000);
    }
}
