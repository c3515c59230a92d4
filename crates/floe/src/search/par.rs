//! Breadth-first enumeration on every core, for puzzles with a perfect hash.

use super::store::DENSE_LIMIT;
use super::{Enumeration, LimitKind, Limits, Progress, Puzzle, Stats};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// States handed to one task at a time.
const CHUNK: usize = 1 << 12;

/// A bit array that several threads set concurrently.
///
/// Allocated zeroed (`calloc`), so the operating system backs only the pages that are
/// touched: a sparse space (a few million positions among billions of possible ones) costs
/// memory for what is reached, not for what is possible.
struct AtomicBits {
    words: *mut u64,
    len: usize,
}

// SAFETY: the words are only ever accessed through `AtomicU64` (see `word`), so sharing the
// pointer between threads is as safe as sharing a `[AtomicU64]`.
unsafe impl Sync for AtomicBits {}
unsafe impl Send for AtomicBits {}

const _: () = assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>());

impl AtomicBits {
    fn new(bits: u64) -> Self {
        let len = bits.div_ceil(64) as usize;
        let words = Box::into_raw(vec![0u64; len].into_boxed_slice()) as *mut u64;
        AtomicBits { words, len }
    }
    #[inline]
    fn word(&self, k: usize) -> &AtomicU64 {
        assert!(k < self.len);
        // SAFETY: `k` is in bounds of the allocation made in `new`, which lives as long as
        // `self`; `u64` and `AtomicU64` have the same size and alignment (checked above);
        // and no word is ever accessed other than atomically.
        unsafe { AtomicU64::from_ptr(self.words.add(k)) }
    }
    /// Sets bit `i`; true if this call set it.
    #[inline]
    fn claim(&self, i: u64) -> bool {
        let w = self.word((i / 64) as usize);
        let m = 1u64 << (i % 64);
        // a plain load first: most successors were seen already
        w.load(Ordering::Relaxed) & m == 0 && w.fetch_or(m, Ordering::Relaxed) & m == 0
    }
    fn bytes(&self) -> usize {
        self.len * 8
    }
}

impl Drop for AtomicBits {
    fn drop(&mut self) {
        // SAFETY: `words` and `len` are exactly what `new` got from `Box::into_raw`.
        unsafe {
            drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                self.words, self.len,
            )));
        }
    }
}

/// Breadth-first enumeration of every state reachable from the start, on all threads of the
/// current rayon pool. Each worker folds the states it discovers into an accumulator made by
/// `init` with `visit(acc, state, distance)`; accumulators are combined with `merge` and the
/// result is returned with the [`Enumeration`] (which has the same figures as
/// [`enumerate`](super::enumerate)'s).
///
/// Needs the puzzle's perfect hash ([`Puzzle::rank_space`]) with at most 2^35 possible states
/// (a 4 GiB bit array) and its inverse ([`Puzzle::unrank`]); returns `None` otherwise.
/// Memory: one bit per possible state (touched in full) and the current and next layers as
/// sorted ranks (8 bytes a state).
/// `max_states` is exact; a timeout is noticed within one chunk of work per thread.
///
/// ```
/// use floe::search::{enumerate_par, Limits, Puzzle};
/// // the digits under "add one" and "double", modulo 10, from 1; each digit is its own
/// // perfect hash, in a space of 10
/// struct Digits;
/// impl Puzzle for Digits {
///     type State = u8;
///     type Move = char;
///     fn start(&self) -> u8 {
///         1
///     }
///     fn successors(&self, &x: &u8, out: &mut Vec<(char, u8)>) {
///         out.extend([('+', (x + 1) % 10), ('*', 2 * x % 10)]);
///     }
///     fn is_goal(&self, _: &u8) -> bool {
///         false
///     }
///     fn rank_space(&self) -> Option<u64> {
///         Some(10)
///     }
///     fn rank(&self, &x: &u8) -> Option<u64> {
///         Some(x.into())
///     }
///     fn unrank(&self, r: u64) -> Option<u8> {
///         (r < 10).then_some(r as u8)
///     }
/// }
/// // every thread collects the digits farthest from 1 that it finds
/// let (e, mut farthest) = enumerate_par(
///     &Digits,
///     &Limits::none(),
///     Vec::new,
///     |v, &x, d| if d == 4 { v.push(x) },
///     |mut a, b| { a.extend(b); a },
/// )
/// .unwrap();
/// assert_eq!((e.states, e.histogram), (10, vec![1, 1, 2, 3, 3]));
/// farthest.sort();
/// assert_eq!(farthest, [0, 7, 9]);
/// ```
pub fn enumerate_par<P, A, I, V, M>(
    p: &P,
    limits: &Limits,
    init: I,
    visit: V,
    merge: M,
) -> Option<(Enumeration, A)>
where
    P: Puzzle + Sync,
    P::State: Send + Sync,
    A: Send,
    I: Fn() -> A + Sync + Send,
    V: Fn(&mut A, &P::State, u32) + Sync + Send,
    M: Fn(A, A) -> A + Sync + Send,
{
    let space = p.rank_space().filter(|&n| n <= DENSE_LIMIT)?;
    let begin = Instant::now();
    let deadline = limits.deadline_from(begin);
    let max = limits.max_states.unwrap_or(u64::MAX);
    // Without a state limit, workers count privately and add up once per chunk.
    let limited = limits.max_states.is_some();
    let rank = |s: &P::State| {
        p.rank(s)
            .expect("a puzzle with a rank space ranks every state")
    };
    let seen = AtomicBits::new(space);
    let stored = AtomicU64::new(0);
    let expanded = AtomicU64::new(0);
    let generated = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let limit_hit = std::sync::Mutex::new(None::<LimitKind>);
    let hit = |l: LimitKind| {
        stop.store(true, Ordering::Relaxed);
        let mut g = limit_hit.lock().unwrap_or_else(|e| e.into_inner());
        g.get_or_insert(l);
    };

    let start = p.start();
    let start_rank = rank(&start);
    // The layers are kept as ranks, sorted: a state is rebuilt from its rank when expanded.
    p.unrank(start_rank)?;
    seen.claim(start_rank);
    let mut acc = init();
    if max == 0 {
        hit(LimitKind::MaxStates);
    } else {
        stored.store(1, Ordering::Relaxed);
        visit(&mut acc, &start, 0);
    }
    let mut histogram = vec![1u64];
    let mut layer: Vec<u64> = vec![start_rank];
    let mut peak_bytes = 0usize;

    while !stop.load(Ordering::Relaxed) && !layer.is_empty() {
        let depth = histogram.len() as u32;
        let (next, layer_acc, _): (Vec<Vec<u64>>, A, _) = layer
            .par_chunks(CHUNK)
            .fold(
                || (Vec::new(), init(), Vec::new()),
                |(mut out, mut a, mut candidates): (_, _, Vec<(u64, P::State)>), chunk| {
                    if stop.load(Ordering::Relaxed) {
                        return (out, a, candidates);
                    }
                    if let Some(l) = limits.check(deadline) {
                        hit(l);
                        return (out, a, candidates);
                    }
                    // Two passes: first every successor of the chunk with its rank, then the
                    // probes of the bit array in a tight loop, which keeps many cache misses
                    // in flight at once. The chunk's states are neighbours in rank order, so
                    // their successors fall on neighbouring words of the bit array.
                    candidates.clear();
                    p.for_each_next_of_ranks(chunk, |rt, t| candidates.push((rt, t)));
                    let gen = candidates.len() as u64;
                    let mut found = Vec::new();
                    let mut new_here = 0u64;
                    for (r, t) in candidates.drain(..) {
                        if !seen.claim(r) {
                            continue;
                        }
                        if limited && stored.fetch_add(1, Ordering::Relaxed) >= max {
                            hit(LimitKind::MaxStates);
                            break;
                        }
                        new_here += 1;
                        visit(&mut a, &t, depth);
                        found.push(r);
                    }
                    if !limited {
                        stored.fetch_add(new_here, Ordering::Relaxed);
                    }
                    expanded.fetch_add(chunk.len() as u64, Ordering::Relaxed);
                    generated.fetch_add(gen, Ordering::Relaxed);
                    if !found.is_empty() {
                        out.push(found);
                    }
                    (out, a, candidates)
                },
            )
            .map(|(out, a, _)| (out, a, ()))
            .reduce(
                || (Vec::new(), init(), ()),
                |(mut o1, a1, ()), (o2, a2, ())| {
                    o1.extend(o2);
                    (o1, merge(a1, a2), ())
                },
            );
        acc = merge(acc, layer_acc);
        let n: usize = next.iter().map(Vec::len).sum();
        let pieces: usize = next.iter().map(Vec::capacity).sum();
        peak_bytes = peak_bytes.max(seen.bytes() + (layer.capacity() + pieces + n) * 8);
        drop(std::mem::take(&mut layer));
        let mut joined = Vec::with_capacity(n);
        for piece in next {
            joined.extend_from_slice(&piece);
        }
        joined.par_sort_unstable();
        if n > 0 {
            histogram.push(n as u64);
        }
        layer = joined;
        if let Some(report) = &limits.progress {
            let stats = Stats {
                states: stored.load(Ordering::Relaxed).min(max),
                expanded: expanded.load(Ordering::Relaxed),
                generated: generated.load(Ordering::Relaxed),
                depth,
                elapsed: begin.elapsed(),
            };
            report(&Progress { stats });
        }
    }
    let limit = *limit_hit.lock().unwrap_or_else(|e| e.into_inner());
    let states = stored.load(Ordering::Relaxed).min(max);
    let stats = Stats {
        states,
        expanded: expanded.load(Ordering::Relaxed),
        generated: generated.load(Ordering::Relaxed),
        depth: histogram.len().saturating_sub(1) as u32,
        elapsed: begin.elapsed(),
    };
    Some((
        Enumeration {
            states,
            histogram,
            limit,
            stats,
            peak_bytes,
        },
        acc,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::enumerate;
    use crate::search::testing::Line;

    #[test]
    fn parallel_enumeration_matches_the_sequential_one() {
        let p = Line::new(1, -1, 100_000);
        let seq = enumerate(&p, &Limits::none(), |_, _| {});
        let mut depth_seq = vec![0u32; 100_001];
        enumerate(&p, &Limits::none(), |s, d| depth_seq[*s as usize] = d);
        let (par, depths) = enumerate_par(
            &p,
            &Limits::none(),
            Vec::new,
            |v: &mut Vec<(i64, u32)>, s, d| v.push((*s, d)),
            |mut a, b| {
                a.extend(b);
                a
            },
        )
        .unwrap();
        assert_eq!(par.states, seq.states);
        assert_eq!(par.histogram, seq.histogram);
        assert_eq!(par.limit, None);
        assert_eq!(depths.len() as u64, par.states);
        for (s, d) in depths {
            assert_eq!(depth_seq[s as usize], d, "state {s}");
        }
    }

    #[test]
    fn ice_blocks_enumerate_alike_in_parallel() {
        use crate::games::ice::{Free, IcePuzzle, Level};
        for (rows, cols, k, states) in [(5, 5, 4, 9_541), (6, 6, 5, 284_684)] {
            let l = Level::empty_board(rows, cols, k).unwrap();
            let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
            let seq = enumerate(&p, &Limits::none(), |_, _| {});
            let (par, n) = enumerate_par(
                &p,
                &Limits::none(),
                || 0u64,
                |c, _, _| *c += 1,
                |a, b| a + b,
            )
            .unwrap();
            assert_eq!((par.states, n), (states, states));
            assert_eq!(par.histogram, seq.histogram);
            assert_eq!(par.stats.expanded, seq.stats.expanded);
            assert_eq!(par.stats.generated, seq.stats.generated);
        }
    }

    #[test]
    fn parallel_enumeration_stops_exactly_at_max_states() {
        let p = Line::new(1, -1, 100_000);
        for n in [1, 7, 5000] {
            let (e, count) = enumerate_par(
                &p,
                &Limits::none().max_states(n),
                || 0u64,
                |c, _, _| *c += 1,
                |a, b| a + b,
            )
            .unwrap();
            assert_eq!(e.limit, Some(LimitKind::MaxStates));
            assert_eq!(e.states, n);
            assert_eq!(count, n);
        }
    }
}
