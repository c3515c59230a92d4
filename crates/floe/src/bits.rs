//! Fixed-width bit sets used as compact puzzle states ("bitboards").
//!
//! [`Bits`] is implemented by `u64`, `u128` and [`Wide<N>`] (N × 64 bits). Game engines are
//! generic over it and pick the narrowest type that holds their board, so a 7×7 board costs one
//! machine word per state and a 30×30 board still works.

use std::fmt::Debug;
use std::hash::Hash;

/// A fixed-capacity set of small integers (bit indices `0..CAPACITY`).
///
/// Indices at or beyond [`Bits::CAPACITY`] are a logic error; every method may panic on them in
/// debug builds.
pub trait Bits: Copy + Eq + Ord + Hash + Default + Debug + Send + Sync + 'static {
    /// Number of bits.
    const CAPACITY: usize;
    /// The empty set.
    fn empty() -> Self {
        Self::default()
    }
    /// The set holding only `i`.
    fn bit(i: usize) -> Self;

    /// Whether `i` is in the set.
    fn get(&self, i: usize) -> bool;
    /// Adds `i`.
    fn set(&mut self, i: usize);
    /// Removes `i`.
    fn clear(&mut self, i: usize);
    /// Intersection.
    fn and(self, other: Self) -> Self;
    /// Union.
    fn or(self, other: Self) -> Self;
    /// Symmetric difference.
    fn xor(self, other: Self) -> Self;
    /// `self` without the elements of `other`.
    fn and_not(self, other: Self) -> Self;
    /// Whether the set is empty.
    fn is_empty(&self) -> bool;
    /// Number of elements.
    fn count(&self) -> u32;
    /// Smallest element.
    fn lowest(&self) -> Option<usize>;
    /// Largest element.
    fn highest(&self) -> Option<usize>;
    /// The `k`-th 64-bit word: elements `64k..64k + 63` as bits (0 past the capacity).
    fn word(&self, k: usize) -> u64;
    /// Adds the elements of the `k`-th word given as bits (see [`Bits::word`]); words past
    /// the capacity must be 0.
    fn or_word(&mut self, k: usize, w: u64);
    /// How many elements are below `i` (`i ≤ CAPACITY`): the place `i` takes in the set's
    /// increasing order.
    fn count_below(&self, i: usize) -> u32;
    /// [`Bits::count_below`] for `i < CAPACITY` (a cell, not the end), which the integer
    /// sets answer with fewer instructions.
    #[inline]
    fn count_below_cell(&self, i: usize) -> u32 {
        self.count_below(i)
    }
    /// The smallest element, or `CAPACITY` when the set is empty ([`Bits::lowest`] without
    /// a branch where the processor counts trailing zeros).
    fn bottom(&self) -> usize {
        self.lowest().unwrap_or(Self::CAPACITY)
    }
    /// One more than the largest element, or 0 when the set is empty.
    fn top(&self) -> usize {
        self.highest().map_or(0, |i| i + 1)
    }
    /// Removes and returns the smallest element.
    fn pop_lowest(&mut self) -> Option<usize> {
        let i = self.lowest()?;
        self.clear(i);
        Some(i)
    }
    /// Whether every element of `other` is in `self`.
    fn contains_all(&self, other: Self) -> bool {
        other.and_not(*self).is_empty()
    }
    /// Iterates the elements in increasing order.
    fn ones(self) -> Ones<Self> {
        Ones(self)
    }
}

/// Iterator over the elements of a [`Bits`] value, smallest first.
#[derive(Clone, Debug)]
pub struct Ones<B>(B);

impl<B: Bits> Iterator for Ones<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        self.0.pop_lowest()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

macro_rules! impl_bits_int {
    ($t:ty, $width:expr) => {
        impl Bits for $t {
            const CAPACITY: usize = $width;
            #[inline]
            fn bit(i: usize) -> Self {
                debug_assert!(i < $width);
                (1 as $t) << i
            }
            #[inline]
            fn get(&self, i: usize) -> bool {
                debug_assert!(i < $width);
                (*self >> i) & 1 == 1
            }
            #[inline]
            fn set(&mut self, i: usize) {
                *self |= Self::bit(i);
            }
            #[inline]
            fn clear(&mut self, i: usize) {
                *self &= !Self::bit(i);
            }
            #[inline]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline]
            fn or(self, other: Self) -> Self {
                self | other
            }
            #[inline]
            fn xor(self, other: Self) -> Self {
                self ^ other
            }
            #[inline]
            fn and_not(self, other: Self) -> Self {
                self & !other
            }
            #[inline]
            fn is_empty(&self) -> bool {
                *self == 0
            }
            #[inline]
            fn count(&self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(&self) -> Option<usize> {
                if *self == 0 {
                    None
                } else {
                    Some(self.trailing_zeros() as usize)
                }
            }
            #[inline]
            fn highest(&self) -> Option<usize> {
                if *self == 0 {
                    None
                } else {
                    Some($width - 1 - self.leading_zeros() as usize)
                }
            }
            #[inline]
            fn bottom(&self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn top(&self) -> usize {
                $width - self.leading_zeros() as usize
            }
            #[inline]
            fn count_below_cell(&self, i: usize) -> u32 {
                debug_assert!(i < $width);
                (*self & (1 as $t).wrapping_shl(i as u32).wrapping_sub(1)).count_ones()
            }
            #[inline]
            fn count_below(&self, i: usize) -> u32 {
                debug_assert!(i <= $width);
                match (1 as $t).checked_shl(i as u32) {
                    Some(b) => (*self & b.wrapping_sub(1)).count_ones(),
                    None => self.count_ones(),
                }
            }
            #[inline]
            fn word(&self, k: usize) -> u64 {
                if 64 * k < $width {
                    (*self >> (64 * k)) as u64
                } else {
                    0
                }
            }
            #[inline]
            fn or_word(&mut self, k: usize, w: u64) {
                if 64 * k < $width {
                    *self |= (w as $t) << (64 * k);
                } else {
                    debug_assert_eq!(w, 0);
                }
            }
            #[inline]
            fn pop_lowest(&mut self) -> Option<usize> {
                if *self == 0 {
                    None
                } else {
                    let i = self.trailing_zeros() as usize;
                    *self &= *self - 1;
                    Some(i)
                }
            }
        }
    };
}

impl_bits_int!(u64, 64);
impl_bits_int!(u128, 128);

/// A bit set of `N` 64-bit words, for boards larger than 128 cells.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

impl<const N: usize> Bits for Wide<N> {
    const CAPACITY: usize = 64 * N;
    #[inline]
    fn bit(i: usize) -> Self {
        let mut w = [0; N];
        w[i / 64] = 1 << (i % 64);
        Wide(w)
    }
    #[inline]
    fn get(&self, i: usize) -> bool {
        (self.0[i / 64] >> (i % 64)) & 1 == 1
    }
    #[inline]
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    #[inline]
    fn and(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        self
    }
    #[inline]
    fn or(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        self
    }
    #[inline]
    fn xor(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a ^= b;
        }
        self
    }
    #[inline]
    fn and_not(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        self
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(k, w)| 64 * k + w.trailing_zeros() as usize)
    }
    #[inline]
    fn highest(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .rev()
            .find(|(_, &w)| w != 0)
            .map(|(k, w)| 64 * k + 63 - w.leading_zeros() as usize)
    }
    #[inline]
    fn count_below(&self, i: usize) -> u32 {
        let (q, r) = (i / 64, i % 64);
        let whole: u32 = self.0[..q.min(N)].iter().map(|w| w.count_ones()).sum();
        match self.0.get(q) {
            Some(w) if r > 0 => whole + (w & ((1u64 << r) - 1)).count_ones(),
            _ => whole,
        }
    }
    #[inline]
    fn word(&self, k: usize) -> u64 {
        self.0.get(k).copied().unwrap_or(0)
    }
    #[inline]
    fn or_word(&mut self, k: usize, w: u64) {
        match self.0.get_mut(k) {
            Some(x) => *x |= w,
            None => debug_assert_eq!(w, 0),
        }
    }
}

/// Dense bit array over `0..len`, used as a visited set indexed by a perfect hash.
///
/// Allocated zeroed, so the operating system only backs the pages that are touched.
#[derive(Clone, Debug)]
pub struct BitArray {
    words: Vec<u64>,
    len: u64,
}

impl BitArray {
    /// A zeroed array of `len` bits.
    pub fn new(len: u64) -> Self {
        let words = len.div_ceil(64) as usize;
        BitArray {
            words: vec![0; words],
            len,
        }
    }
    /// [`BitArray::new`], or `None` when the system refuses the memory (a large array under
    /// `ulimit -v` or a cgroup's limit: the caller stops, or does without, instead of the
    /// abort of a failed `vec!`).
    pub fn try_new(len: u64) -> Option<Self> {
        let words = usize::try_from(len.div_ceil(64)).ok()?;
        Some(BitArray {
            words: crate::mem::zeroed_words(words)?.into_vec(),
            len,
        })
    }
    /// Number of bits.
    pub fn len(&self) -> u64 {
        self.len
    }
    /// Whether the array has no bits at all.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Sets bit `i`; returns whether it was clear before.
    #[inline]
    pub fn insert(&mut self, i: u64) -> bool {
        debug_assert!(i < self.len);
        let w = &mut self.words[(i / 64) as usize];
        let m = 1u64 << (i % 64);
        let was_clear = *w & m == 0;
        *w |= m;
        was_clear
    }
    /// Whether bit `i` is set.
    #[inline]
    pub fn contains(&self, i: u64) -> bool {
        self.words[(i / 64) as usize] >> (i % 64) & 1 == 1
    }
    /// Bytes of heap memory held.
    pub fn heap_bytes(&self) -> usize {
        self.words.len() * 8
    }
    /// The bits, 64 a word, bit `i` in word `i / 64` at `i % 64`.
    pub fn words(&self) -> &[u64] {
        &self.words
    }
    /// Clears every bit. Only the pages (of 512 words) that hold a bit are written: the
    /// pages of a sparse array never touched are only read, and stay unbacked (a `fill`
    /// would make the whole array resident).
    pub fn clear(&mut self) {
        for page in self.words.chunks_mut(512) {
            if page.iter().fold(0, |any, &w| any | w) != 0 {
                page.fill(0);
            }
        }
    }
    /// Appends to `out` the set bits from word `*at` on, in increasing order, a whole word
    /// at a time until `out` holds `n` or more (or the words end); `*at` moves past the
    /// words read. False when no bit was left.
    pub fn ones_from(&self, at: &mut usize, n: usize, out: &mut Vec<u64>) -> bool {
        let start = out.len();
        while *at < self.words.len() && out.len() - start < n {
            let mut w = self.words[*at];
            let base = *at as u64 * 64;
            while w != 0 {
                out.push(base + u64::from(w.trailing_zeros()));
                w &= w - 1;
            }
            *at += 1;
        }
        out.len() > start
    }
}

/// For each mask of four lanes, the 32-bit lanes that bring the masked 64-bit lanes to the
/// front, in order.
#[cfg(target_arch = "x86_64")]
pub(crate) const COMPRESS: [[i32; 8]; 16] = {
    let mut t = [[0i32; 8]; 16];
    let mut m = 0;
    while m < 16 {
        let mut at = 0;
        let mut lane: i32 = 0;
        while lane < 4 {
            if m >> lane & 1 == 1 {
                t[m][at] = 2 * lane;
                t[m][at + 1] = 2 * lane + 1;
                at += 2;
            }
            lane += 1;
        }
        m += 1;
    }
    t
};

/// Table of binomial coefficients C(n, k) for n ≤ `max_n`, k ≤ `max_k`, saturating at
/// `u64::MAX`; used for combinatorial ranking of k-subsets (colex order).
#[derive(Clone, Debug)]
pub struct Binomials {
    max_n: usize,
    max_k: usize,
    table: Vec<u64>,
    /// `colex[(j << stride) + pos]` = C(pos, j + 1): the rank terms, laid out so that one
    /// rank reads one short run per element, each run `2^stride ≥ max_n + 1` long (a
    /// shift finds a run, not a multiplication).
    colex: Vec<u64>,
    stride: u32,
}

impl Binomials {
    /// Builds the table.
    pub fn new(max_n: usize, max_k: usize) -> Self {
        let w = max_k + 1;
        let mut table = vec![0u64; (max_n + 1) * w];
        for n in 0..=max_n {
            table[n * w] = 1;
            for k in 1..=max_k.min(n) {
                let a = table[(n - 1) * w + k - 1];
                let b = if k < n { table[(n - 1) * w + k] } else { 0 };
                table[n * w + k] = a.saturating_add(b);
            }
        }
        let stride = (max_n + 1).next_power_of_two().trailing_zeros();
        let mut colex = vec![0u64; max_k << stride];
        for j in 0..max_k {
            for pos in 0..=max_n {
                colex[(j << stride) + pos] = if j < pos { table[pos * w + j + 1] } else { 0 };
            }
        }
        Binomials {
            max_n,
            max_k,
            table,
            colex,
            stride,
        }
    }
    /// C(n, k), saturating.
    #[inline]
    pub fn get(&self, n: usize, k: usize) -> u64 {
        if k > n {
            0
        } else {
            self.table[n * (self.max_k + 1) + k]
        }
    }
    /// C(pos, j + 1): the term of an element at `pos` that is the `j`-th smallest (from 0)
    /// of its set in [`Binomials::rank`]; `j < max_k`, `pos ≤ max_n`.
    #[inline(always)]
    pub fn term(&self, j: usize, pos: usize) -> u64 {
        self.colex[(j << self.stride) + pos]
    }
    /// Turns `pos` (the elements, increasing, of a k-subset with `k = pos.len() ≤ max_k`)
    /// into the k-subset of colex rank `r`, given that `pos` held a subset of rank at most
    /// `r` (or the subset of rank 0, `0..k`) and `top[j]` the sum of its terms from the
    /// `j`-th element up (`top.len() = k + 1`, `top[k] = 0`); keeps `top` so. The elements
    /// that do not change are kept without a look, and they are found from the smallest up:
    /// the subsets that share the elements from the `j`-th up have the ranks from `top[j]`
    /// to `top[j] + C(pos[j], j)`, so on increasing ranks close together (where mostly the
    /// smallest element moves) a step costs a comparison or two. Returns how many elements,
    /// from the smallest, it wrote: those above them are as they were.
    #[inline]
    pub fn unrank_after(&self, r: u64, pos: &mut [u16], top: &mut [u64]) -> usize {
        let k = pos.len();
        if k == 0 {
            return 0;
        }
        // the elements from the j-th up stay: r is below the end of their ranks
        // (C(p, 1) = p, so the first look needs no table)
        let mut j = 1;
        while j < k && r - top[j] >= self.term(j - 1, pos[j] as usize) {
            j += 1;
        }
        if j > 1 {
            // the (j − 1)-th grows, the ones below it are found afresh
            let e = j - 1;
            let rem = r - top[j];
            let mut p = pos[e] as usize + 1;
            while p < self.max_n && self.term(e, p + 1) <= rem {
                p += 1;
            }
            pos[e] = p as u16;
            top[e] = top[j] + self.term(e, p);
            for e in (1..e).rev() {
                let rem = r - top[e + 1];
                let mut p = pos[e + 1] as usize - 1;
                while self.term(e, p) > rem {
                    p -= 1;
                }
                pos[e] = p as u16;
                top[e] = top[e + 1] + self.term(e, p);
            }
        }
        pos[0] = (r - top[1]) as u16;
        top[0] = r;
        j
    }
    /// Colex rank of a k-subset given as a bit set: Σ C(pos_j, j+1) over its elements in
    /// increasing order. A bijection from k-subsets of `0..n` onto `0..C(n, k)`.
    /// The set must have at most `max_k` elements, all at most `max_n`.
    #[inline]
    pub fn rank<B: Bits>(&self, set: B) -> u64 {
        let stride = 1 << self.stride;
        let mut r = 0u64;
        let mut base = 0;
        for pos in set.ones() {
            r = r.wrapping_add(self.colex[base + pos]);
            base += stride;
        }
        r
    }
    /// The `k`-subset of colex rank `r` (the inverse of [`Binomials::rank`]): `None` when
    /// `k > max_k` or `r ≥ C(max_n, k)`.
    pub fn unrank<B: Bits>(&self, mut r: u64, k: usize) -> Option<B> {
        if k > self.max_k || r >= self.get(self.max_n, k) {
            return None;
        }
        let mut set = B::empty();
        // the largest element first: the largest `pos` with C(pos, j) ≤ r
        let mut pos = self.max_n;
        for j in (1..=k).rev() {
            while pos > 0 && self.get(pos - 1, j) > r {
                pos -= 1;
            }
            // C(pos - 1, j) ≤ r < C(pos, j): the element is pos − 1
            pos -= 1;
            r -= self.get(pos, j);
            set.set(pos);
        }
        Some(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: Bits>() {
        let mut b = B::empty();
        assert!(b.is_empty());
        assert_eq!(b.lowest(), None);
        assert_eq!(b.highest(), None);
        let idx = [0, 5, 63, B::CAPACITY / 2 + 1, B::CAPACITY - 1];
        for &i in &idx {
            b.set(i);
        }
        let mut want: Vec<usize> = idx.to_vec();
        want.sort();
        want.dedup();
        assert_eq!(b.ones().collect::<Vec<_>>(), want);
        assert_eq!(b.count() as usize, want.len());
        assert_eq!(b.lowest(), Some(0));
        assert_eq!(b.highest(), Some(B::CAPACITY - 1));
        assert!(b.get(5) && !b.get(6));
        b.clear(5);
        assert!(!b.get(5));
        let c = B::bit(7).or(B::bit(0));
        assert_eq!(b.and(c), B::bit(0));
        assert!(b.xor(c).get(7));
        assert!(!b.and_not(c).get(0));
        assert!(b.contains_all(B::bit(63)));
        assert!(!b.contains_all(B::bit(7)));
        assert_eq!((b.bottom(), b.top()), (0, B::CAPACITY));
        assert_eq!((B::empty().bottom(), B::empty().top()), (B::CAPACITY, 0));
        assert_eq!(
            (B::bit(70 % B::CAPACITY).bottom(), B::bit(5).top()),
            (70 % B::CAPACITY, 6)
        );
        // the place of every index among the elements, at and between word edges
        for i in 0..=B::CAPACITY {
            let below = b.ones().filter(|&j| j < i).count() as u32;
            assert_eq!(b.count_below(i), below, "below {i}");
        }
        assert_eq!(B::empty().count_below(B::CAPACITY), 0);
    }

    #[test]
    fn all_widths_behave_alike() {
        exercise::<u64>();
        exercise::<u128>();
        exercise::<Wide<3>>();
        exercise::<Wide<16>>();
    }

    #[test]
    fn binomials_and_colex_rank_are_a_bijection() {
        let b = Binomials::new(40, 5);
        assert_eq!(b.get(40, 5), 658_008);
        assert_eq!(b.get(5, 0), 1);
        assert_eq!(b.get(3, 4), 0);
        // every 3-subset of 0..9 gets a distinct rank below C(9,3)
        let mut seen = vec![false; b.get(9, 3) as usize];
        for x in 0u64..(1 << 9) {
            if x.count_ones() == 3 {
                let r = b.rank(x) as usize;
                assert!(!seen[r]);
                seen[r] = true;
                assert_eq!(b.unrank::<u64>(r as u64, 3), Some(x));
            }
        }
        assert!(seen.iter().all(|&s| s));
        // unrank refuses what no subset has
        assert_eq!(b.unrank::<u64>(b.get(40, 3), 3), None);
        assert_eq!(b.unrank::<u64>(0, 6), None);
        let top = b.get(40, 5) - 1;
        assert_eq!(b.rank(b.unrank::<u128>(top, 5).unwrap()), top);
        assert_eq!(b.unrank::<u64>(0, 0), Some(0));
    }

    #[test]
    fn unranking_after_a_smaller_rank_agrees_with_unrank() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        for (n, k) in [(20, 4), (20, 1), (9, 2), (64, 7), (12, 12), (30, 5)] {
            let b = Binomials::new(n, k);
            let space = b.get(n, k);
            // every rank in turn but a few, each twice at times; then jumps of every size,
            // from one to most of the space
            let mut ranks: Vec<u64> = (0..space.min(20_000))
                .filter(|r| r % 7 != 3 && r % 11 != 5)
                .flat_map(|r| std::iter::repeat_n(r, 1 + usize::from(r % 13 == 0)))
                .collect();
            let mut r = 0u64;
            while r < space {
                ranks.push(r);
                let reach = 1u64 << rng.random_range(0..64 - space.leading_zeros());
                r += rng.random_range(1..=reach);
            }
            ranks.push(space - 1);
            // from rank 0 (the subset 0..k) in every run
            for run in [&ranks[..space.min(20_000) as usize / 2], &ranks[..]] {
                let mut pos: Vec<u16> = (0..k as u16).collect();
                let mut top = vec![0u64; k + 1];
                let mut last = 0;
                for &r in run {
                    if r < last {
                        continue;
                    }
                    last = r;
                    let before = pos.clone();
                    let written = b.unrank_after(r, &mut pos, &mut top);
                    let set = b.unrank::<u64>(r, k).unwrap();
                    let want: Vec<u16> = set.ones().map(|i| i as u16).collect();
                    assert_eq!(pos, want, "C({n}, {k}), rank {r}");
                    // what it says it wrote: at least the smallest, and nothing above
                    assert!((1..=k).contains(&written), "C({n}, {k}), rank {r}");
                    assert_eq!(pos[written..], before[written..], "C({n}, {k}), rank {r}");
                    for (j, &t) in top.iter().enumerate() {
                        let sum: u64 = (j..k).map(|m| b.term(m, pos[m] as usize)).sum();
                        assert_eq!(t, sum, "C({n}, {k}), rank {r}, top[{j}]");
                    }
                }
            }
        }
    }

    #[test]
    fn bit_array_inserts_once() {
        let mut a = BitArray::new(130);
        assert!(a.insert(129));
        assert!(!a.insert(129));
        assert!(a.contains(129) && !a.contains(128));
        assert_eq!(a.heap_bytes(), 24);
    }

    #[test]
    fn a_cleared_bit_array_holds_no_bit_and_takes_them_again() {
        // bits in the first and last words of pages, in a page alone, in the short last page
        let len = 512 * 64 * 5 + 100;
        let mut a = BitArray::new(len);
        let bits = [0, 63, 64 * 511 + 5, 64 * 512, 512 * 64 * 3 + 7, len - 1];
        for round in 0..2 {
            for &b in &bits {
                assert!(a.insert(b), "round {round}: bit {b}");
            }
            let mut at = 0;
            let mut out = Vec::new();
            while a.ones_from(&mut at, 3, &mut out) {}
            assert_eq!(out, bits, "round {round}");
            a.clear();
            assert!(a.words().iter().all(|&w| w == 0), "round {round}");
            assert!((0..len).step_by(61).all(|b| !a.contains(b)));
        }
    }
}
