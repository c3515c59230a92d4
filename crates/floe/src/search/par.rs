//! Breadth-first enumeration on every core, for puzzles with a perfect hash.

use super::store::DENSE_LIMIT;
use super::{Enumeration, LimitKind, Limits, Progress, Puzzle, Stats};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Ranks per page of a layer: a layer is handed out by pages (`2^PAGE_SHIFT` ranks, 8 KiB
/// of the two bits a rank), and a page that holds none of its states is skipped.
pub(super) const PAGE_SHIFT: u32 = 15;
/// States expanded together: their successors (16 bytes each, some 20 a state) stay in the
/// core's own cache until they are judged.
pub(super) const BATCH: usize = 1 << 10;

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
    /// `bits` zeroed bits, or `None` when the memory cannot be had.
    fn new(bits: u64) -> Option<Self> {
        let len = usize::try_from(bits.div_ceil(64)).ok()?;
        let words = Box::into_raw(crate::mem::zeroed_words(len)?) as *mut u64;
        Some(AtomicBits { words, len })
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
    /// The set bits of words `from..to` in increasing order, clearing them; no other thread
    /// may change these words meanwhile.
    fn drain(&self, from: usize, to: usize, mut f: impl FnMut(u64)) {
        for k in from..to.min(self.len) {
            let w = self.word(k);
            let mut bits = w.load(Ordering::Relaxed);
            if bits == 0 {
                continue;
            }
            w.store(0, Ordering::Relaxed);
            while bits != 0 {
                f(k as u64 * 64 + bits.trailing_zeros() as u64);
                bits &= bits - 1;
            }
        }
    }
    fn bytes(&self) -> usize {
        self.len * 8
    }
}

/// Two bits a rank, set by several threads at once: `00` never seen; `01` and `10` in the
/// layer of even and of odd depth ([`code`]); `11` seen and expanded. While a layer is
/// expanded every claim writes the next layer's code, and the drain turns this layer's
/// fields to `11`: neither touches a field the other writes.
struct Marks {
    bits: AtomicBits,
    /// A bit a page of ranks (`2^PAGE_SHIFT` of them) for each code: a page of the layer of
    /// that code holds a state (set on a claim, forgotten by [`Marks::take_pages`]).
    pages: [AtomicBits; 2],
}

/// The code of the states of depth `d` in [`Marks`]: `01` at even depths, `10` at odd ones.
#[inline]
fn code(d: u32) -> u64 {
    1 + u64::from(d & 1)
}

/// The low bit of every two-bit field of a word.
const LOW: u64 = 0x5555_5555_5555_5555;

impl Marks {
    /// The marks of `space` ranks, or `None` when their memory cannot be had.
    fn new(space: u64) -> Option<Self> {
        let pages = || AtomicBits::new(space.div_ceil(1 << PAGE_SHIFT));
        Some(Marks {
            bits: AtomicBits::new(2 * space)?,
            pages: [pages()?, pages()?],
        })
    }
    /// Puts rank `r` in the layer of `code` if it was never seen; true if this call did.
    /// Every claim made while a layer is expanded has the same code: a claim that loses the
    /// race for a field writes the code the winner wrote.
    #[inline]
    fn claim(&self, r: u64, code: u64) -> bool {
        debug_assert!(code == 1 || code == 2, "code {code}");
        let w = self.bits.word((r / 32) as usize);
        let shift = 2 * (r % 32);
        // A plain load first: most successors were seen already. A field found `00` can
        // only take this layer's code meanwhile (only claims write it, and the drain turns
        // fields of the other code only), so setting that one bit (`lock bts`, where the
        // old field asked for a loop of `lock cmpxchg`) tells who claimed it.
        let bit = 1u64 << (shift + code - 1);
        let claimed = w.load(Ordering::Relaxed) >> shift & 3 == 0
            && w.fetch_or(bit, Ordering::Relaxed) & bit == 0;
        if claimed {
            self.pages[(code - 1) as usize].claim(r >> PAGE_SHIFT);
        }
        claimed
    }
    /// Keeps in `ranks` (in their order) those never seen when looked at, by plain loads
    /// and no branch on what they find: the loads of far apart ranks overlap, where a
    /// branch on each would wait for the memory whenever it guessed wrong. Whichever is
    /// kept must still be claimed ([`Marks::claim`]).
    fn keep_unseen(&self, ranks: &mut Vec<u64>) {
        let mut kept = 0;
        for j in 0..ranks.len() {
            let r = ranks[j];
            let w = self.bits.word((r / 32) as usize).load(Ordering::Relaxed);
            ranks[kept] = r;
            kept += usize::from(w >> (2 * (r % 32)) & 3 == 0);
        }
        ranks.truncate(kept);
    }
    /// The pages that hold a state of `code`, in increasing order, forgotten as pages (their
    /// states are marked expanded by [`Marks::drain`]).
    fn take_pages(&self, code: u64) -> Vec<usize> {
        let pages = &self.pages[(code - 1) as usize];
        let mut v = Vec::new();
        pages.drain(0, pages.len, |b| v.push(b as usize));
        v
    }
    /// The ranks of `code` in words `from..to`, in increasing order, each marked expanded;
    /// other threads may claim ranks in these words meanwhile (a claim changes only fields
    /// that were `00` when the layer began, the drain only fields of `code`, which no claim
    /// writes), but no other thread drains them.
    fn drain(&self, from: usize, to: usize, code: u64, mut f: impl FnMut(u64)) {
        debug_assert!(code == 1 || code == 2, "code {code}");
        let len = self.bits.len;
        for k in from..to.min(len) {
            let w = self.bits.word(k);
            let v = w.load(Ordering::Relaxed);
            let (low, high) = (v & LOW, v >> 1 & LOW);
            let mut found = if code == 1 { low & !high } else { high & !low };
            if found == 0 {
                continue;
            }
            // 01 → 11 and 10 → 11: the other bit of each field found
            w.fetch_or(
                if code == 1 { found << 1 } else { found },
                Ordering::Relaxed,
            );
            while found != 0 {
                f(k as u64 * 32 + u64::from(found.trailing_zeros() / 2));
                found &= found - 1;
            }
        }
    }
    fn bytes(&self) -> usize {
        self.bits.bytes() + self.pages[0].bytes() + self.pages[1].bytes()
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

/// A batch's successors, with their states or as ranks alone.
struct Listed<S> {
    states: Vec<(u64, S)>,
    ranks: Vec<u64>,
}

impl<S> Default for Listed<S> {
    fn default() -> Self {
        Listed {
            states: Vec::new(),
            ranks: Vec::new(),
        }
    }
}

/// Starts the thread pool the parallel searches share (rayon's global pool), with smaller
/// stacks under an address-space limit (`ulimit -v`: each thread's stack is mapped when it
/// starts); an error in words when the threads cannot start. A pool started already is fine.
pub fn start_threads() -> Result<(), String> {
    let mut b = rayon::ThreadPoolBuilder::new();
    // under an address-space limit each thread's stack counts whole: smaller ones
    if crate::mem::address_limit().is_some() {
        b = b.stack_size(1 << 20);
    }
    match b.build_global() {
        Ok(()) => Ok(()),
        Err(e) if e.to_string().contains("already") => Ok(()),
        Err(e) => Err(format!(
            "cannot start the worker threads ({e}): the address space this process may map \
             (ulimit -v) is too small for floe; raise it"
        )),
    }
}

/// Breadth-first enumeration of every state reachable from the start, on all threads of the
/// current rayon pool. Each worker folds the states it discovers into an accumulator made by
/// `init` with `visit(acc, state, distance)`; accumulators are combined with `merge` and the
/// result is returned with the [`Enumeration`] (which has the same figures as
/// [`enumerate`](super::enumerate)'s).
///
/// Needs the puzzle's perfect hash ([`Puzzle::rank_space`]) with at most 2^35 possible states
/// (8 GiB at two bits a rank) and its inverse ([`Puzzle::unrank`]); returns `None` otherwise.
/// Memory: two bits per possible state (whether it was seen, and in which layer it is),
/// touched where states are.
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
    layered::<P, A, I, V, M, true>(p, limits, init, visit, merge)
}

/// [`enumerate_par`] for the figures alone: no state is visited, so the successors are
/// listed as ranks only ([`Puzzle::next_ranks_of_ranks`]), and no state is kept
/// beside a rank. The same [`Enumeration`]; `None` where [`enumerate_par`] gives `None`.
///
/// ```
/// use floe::search::{count_par, enumerate, Limits, Puzzle};
/// // 0..1000 under "add one" and "add seven", each number its own perfect hash
/// struct Steps;
/// impl Puzzle for Steps {
///     type State = u16;
///     type Move = ();
///     fn start(&self) -> u16 {
///         0
///     }
///     fn successors(&self, &x: &u16, out: &mut Vec<((), u16)>) {
///         out.extend([x + 1, x + 7].into_iter().filter(|&y| y < 1000).map(|y| ((), y)));
///     }
///     fn is_goal(&self, _: &u16) -> bool {
///         false
///     }
///     fn rank_space(&self) -> Option<u64> {
///         Some(1000)
///     }
///     fn rank(&self, &x: &u16) -> Option<u64> {
///         Some(x.into())
///     }
///     fn unrank(&self, r: u64) -> Option<u16> {
///         (r < 1000).then_some(r as u16)
///     }
/// }
/// let e = count_par(&Steps, &Limits::none()).unwrap();
/// assert_eq!(e.states, 1000);
/// assert_eq!(e.histogram, enumerate(&Steps, &Limits::none(), |_, _| {}).histogram);
/// ```
pub fn count_par<P>(p: &P, limits: &Limits) -> Option<Enumeration>
where
    P: Puzzle + Sync,
    P::State: Send + Sync,
{
    layered::<P, (), _, _, _, false>(p, limits, || (), |_, _, _| {}, |_, _| ()).map(|(e, ())| e)
}

/// The layered enumeration of [`enumerate_par`] (`STATES`: the states are listed and
/// visited) and [`count_par`] (ranks only).
fn layered<P, A, I, V, M, const STATES: bool>(
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
    let Some(marks) = Marks::new(space) else {
        // the visited marks could not be had (an address-space limit): a clean stop
        return Some((
            Enumeration {
                states: 0,
                histogram: Vec::new(),
                limit: Some(LimitKind::MaxMemory),
                stats: Stats::default(),
                peak_bytes: 0,
            },
            init(),
        ));
    };
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
    // A layer is read from the marks in increasing rank: a page's states are neighbours, so
    // their successors fall on neighbouring words of the marks. A state is rebuilt from its
    // rank when expanded.
    p.unrank(start_rank)?;
    marks.claim(start_rank, code(0));
    let mut acc = init();
    if max == 0 {
        hit(LimitKind::MaxStates);
    } else {
        stored.store(1, Ordering::Relaxed);
        visit(&mut acc, &start, 0);
    }
    let mut histogram = vec![1u64];
    let peak_bytes = marks.bytes();

    while !stop.load(Ordering::Relaxed) {
        let depth = histogram.len() as u32;
        // this layer's states are of code(depth - 1), the next layer's of code(depth)
        let (this, new) = (code(depth - 1), code(depth));
        let pages = marks.take_pages(this);
        if pages.is_empty() {
            break;
        }
        let found = AtomicU64::new(0);
        let expand = |a: &mut A, ranks: &[u64], listed: &mut Listed<P::State>| {
            // Two passes: first every successor with its rank, then the probes of the bit
            // array in a tight loop, which keeps many cache misses in flight at once.
            let mut new_here = 0u64;
            let mut keep = |r: u64| {
                if !marks.claim(r, new) {
                    return Some(false);
                }
                if limited && stored.fetch_add(1, Ordering::Relaxed) >= max {
                    hit(LimitKind::MaxStates);
                    return None;
                }
                new_here += 1;
                Some(true)
            };
            if STATES {
                let candidates = &mut listed.states;
                candidates.clear();
                p.for_each_next_of_ranks(ranks, |rt, t| candidates.push((rt, t)));
                generated.fetch_add(candidates.len() as u64, Ordering::Relaxed);
                for (r, t) in candidates.drain(..) {
                    match keep(r) {
                        Some(true) => visit(a, &t, depth),
                        Some(false) => {}
                        None => break,
                    }
                }
            } else {
                let candidates = &mut listed.ranks;
                candidates.clear();
                p.next_ranks_of_ranks(ranks, candidates);
                generated.fetch_add(candidates.len() as u64, Ordering::Relaxed);
                marks.keep_unseen(candidates);
                for &r in candidates.iter() {
                    if keep(r).is_none() {
                        break;
                    }
                }
            }
            if !limited {
                stored.fetch_add(new_here, Ordering::Relaxed);
            }
            found.fetch_add(new_here, Ordering::Relaxed);
            expanded.fetch_add(ranks.len() as u64, Ordering::Relaxed);
        };
        // two bits a rank: 32 ranks a word
        let words = 1usize << (PAGE_SHIFT - 5);
        let layer_acc = pages
            .par_iter()
            .fold(
                || (init(), Listed::default(), Vec::with_capacity(BATCH)),
                |(mut a, mut candidates, mut batch), &b| {
                    let go = || {
                        if stop.load(Ordering::Relaxed) {
                            return false;
                        }
                        if let Some(l) = limits.check(deadline) {
                            hit(l);
                            return false;
                        }
                        true
                    };
                    if !go() {
                        return (a, candidates, batch);
                    }
                    marks.drain(b * words, (b + 1) * words, this, |r| {
                        batch.push(r);
                        if batch.len() == BATCH {
                            if go() {
                                expand(&mut a, &batch, &mut candidates);
                            }
                            batch.clear();
                        }
                    });
                    if !batch.is_empty() && go() {
                        expand(&mut a, &batch, &mut candidates);
                    }
                    batch.clear();
                    (a, candidates, batch)
                },
            )
            .map(|(a, _, _)| a)
            .reduce(&init, &merge);
        acc = merge(acc, layer_acc);
        let n = found.load(Ordering::Relaxed);
        if n > 0 {
            histogram.push(n);
        }
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
        let counted = count_par(&p, &Limits::none()).unwrap();
        assert_eq!(
            (counted.states, counted.histogram),
            (seq.states, seq.histogram)
        );
        assert_eq!(depths.len() as u64, par.states);
        for (s, d) in depths {
            assert_eq!(depth_seq[s as usize], d, "state {s}");
        }
    }

    #[test]
    fn marks_keep_each_rank_in_one_layer_while_threads_claim_and_drain() {
        // three pages, the last one short, the last word partly used
        let n: u64 = (2 << PAGE_SHIFT) + 5;
        let words = (2 * n).div_ceil(64) as usize;
        let m = Marks::new(n).unwrap();
        let layer0: Vec<u64> = (0..n).step_by(3).collect();
        for &r in &layer0 {
            assert!(m.claim(r, code(0)));
            assert!(
                !m.claim(r, code(0)) && !m.claim(r, code(1)),
                "rank {r} claimed twice"
            );
        }
        assert_eq!(m.take_pages(code(0)), [0, 1, 2]);
        assert!(m.take_pages(code(0)).is_empty() && m.take_pages(code(1)).is_empty());
        // one thread drains layer 0 while another claims every rank it can for layer 1, in
        // the same words
        let (drained, claimed) = std::thread::scope(|s| {
            let d = s.spawn(|| {
                let mut v = Vec::new();
                m.drain(0, words, code(0), |r| v.push(r));
                v
            });
            let c = s.spawn(|| (0..n).filter(|&r| m.claim(r, code(1))).collect::<Vec<_>>());
            (d.join().unwrap(), c.join().unwrap())
        });
        assert_eq!(drained, layer0);
        let layer1: Vec<u64> = (0..n).filter(|r| r % 3 != 0).collect();
        assert_eq!(claimed, layer1);
        assert_eq!(m.take_pages(code(1)), [0, 1, 2]);
        // layer 0 was expanded: the layer of depth 2 (its code again) finds none of it
        let mut again = Vec::new();
        m.drain(0, words, code(2), |r| again.push(r));
        assert!(again.is_empty(), "{} ranks drained twice", again.len());
        let mut odd = Vec::new();
        m.drain(0, words, code(1), |r| odd.push(r));
        assert_eq!(odd, layer1);
        // every rank seen: none is claimed again, none drained again
        assert!((0..n).all(|r| !m.claim(r, code(2)) && !m.claim(r, code(3))));
        for d in 0..2 {
            m.drain(0, words, code(d), |r| {
                panic!("rank {r} drained after its layer")
            });
        }
        assert_eq!(m.bytes(), words * 8 + 2 * 8);
    }

    #[test]
    fn the_unseen_ranks_kept_are_those_in_no_layer_in_their_order() {
        // fields of all four kinds in every word, in another pattern in each word (so a
        // look into the wrong word is caught): never seen, expanded, the next layer, this
        // layer; ranks asked for twice and out of order, the first and the last asked unseen
        let n: u64 = 5 * 32 + 3;
        let words = (2 * n).div_ceil(64) as usize;
        let kind = |r: u64| (r + r / 32) % 4;
        let m = Marks::new(n).unwrap();
        for r in (0..n).filter(|&r| kind(r) == 1) {
            assert!(m.claim(r, code(0)));
        }
        m.drain(0, words, code(0), |_| {});
        for r in (0..n).filter(|&r| kind(r) == 2) {
            assert!(m.claim(r, code(1)));
        }
        for r in (0..n).filter(|&r| kind(r) == 3) {
            assert!(m.claim(r, code(2)));
        }
        let mut asked: Vec<u64> = [n - 7]
            .into_iter()
            .chain((0..n).rev())
            .chain([0, 4, 4, 33, 7, 35])
            .collect();
        assert!(
            kind(n - 7) == 0 && kind(35) == 0,
            "the first and the last asked are unseen"
        );
        let unseen: Vec<u64> = asked.iter().copied().filter(|&r| kind(r) == 0).collect();
        assert!(unseen.len() > 40 && unseen.len() < asked.len() / 3);
        m.keep_unseen(&mut asked);
        assert_eq!(asked, unseen);
        let mut none = Vec::new();
        m.keep_unseen(&mut none);
        assert!(none.is_empty());
    }

    #[test]
    fn racing_claims_and_a_drain_lose_no_rank_and_count_none_twice() {
        // a small space and many rounds: the threads, let go together, meet on the same
        // words; two claimers race for the same ranks in the same order
        let n: u64 = 3 * 64 + 7;
        let words = (2 * n).div_ceil(64) as usize;
        for round in 0..300 {
            let m = Marks::new(n).unwrap();
            let layer0: Vec<u64> = (0..n).filter(|r| (r + round) % 5 == 0).collect();
            for &r in &layer0 {
                assert!(m.claim(r, code(0)));
            }
            let go = std::sync::Barrier::new(3);
            let claims = || {
                go.wait();
                (0..n).filter(|&r| m.claim(r, code(1))).collect::<Vec<_>>()
            };
            let (drained, one, other) = std::thread::scope(|s| {
                let d = s.spawn(|| {
                    go.wait();
                    let mut v = Vec::new();
                    m.drain(0, words, code(0), |r| v.push(r));
                    v
                });
                let (a, b) = (s.spawn(claims), s.spawn(claims));
                (d.join().unwrap(), a.join().unwrap(), b.join().unwrap())
            });
            assert_eq!(drained, layer0, "round {round}");
            let mut claimed = [one, other].concat();
            claimed.sort_unstable();
            let layer1: Vec<u64> = (0..n).filter(|r| (r + round) % 5 != 0).collect();
            assert_eq!(claimed, layer1, "round {round}: a claim lost or made twice");
            let mut next = Vec::new();
            m.drain(0, words, code(1), |r| next.push(r));
            assert_eq!(next, layer1, "round {round}: a claim overwritten");
        }
    }

    #[test]
    fn a_start_in_the_last_word_of_a_space_is_counted_as_the_sequential_search_counts() {
        // spaces that end inside a word and inside a page; starts at the end of them
        for n in [(1 << PAGE_SHIFT) + 37, 100_003] {
            for start in [n - 1, n - 20, 0] {
                let p = Line::new(start as i64, -1, n as i64 - 1);
                let seq = enumerate(&p, &Limits::none(), |_, _| {});
                let c = count_par(&p, &Limits::none()).unwrap();
                assert_eq!(
                    (c.states, c.histogram),
                    (seq.states, seq.histogram),
                    "{n} from {start}"
                );
            }
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
            let c = count_par(&p, &Limits::none().max_states(n)).unwrap();
            assert_eq!((c.limit, c.states), (Some(LimitKind::MaxStates), n));
        }
    }
}
