//! Two searches the generic module does not offer, both over any [`Puzzle`] with small
//! integer bounds:
//!
//! - [`astar_proving`]: A* with one bucket per value of `f = g + h`. Besides the optimal
//!   solution it reports, when a limit stops it, the bound it has *proved*: the smallest `f`
//!   still open. (At any time some node of an optimal path is open with its optimal `g`, so
//!   the smallest open `f` never exceeds the optimum, even with an inconsistent bound, as
//!   nodes found again more cheaply are reopened.) Nodes cost a state, a parent index, a
//!   move and one byte of `g`.
//! - [`beam`]: breadth-first layers cut to the `width` most promising positions (fewest
//!   fires, then lowest bound): no proof, but solutions of levels far beyond exhaustive
//!   search. Its length is an upper bound on the optimum.

use crate::search::{LimitKind, Limits, Outcome, Puzzle, Stats};
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;
use std::time::Instant;

/// The answer of [`astar_proving`].
#[derive(Clone, Debug)]
pub struct Proving<M> {
    /// Solved (fewest moves), unsolvable, or stopped by a limit.
    pub outcome: Outcome<M>,
    /// A lower bound on the fewest moves, proved by what was searched (on a solution: its
    /// length).
    pub proved: u32,
    /// What was explored.
    pub stats: Stats,
}

const CLOCK_EVERY: u64 = 4096;

fn over_time(start: Instant, limits: &Limits, stats: &mut Stats) -> Option<LimitKind> {
    let now = start.elapsed();
    if let Some(report) = &limits.progress {
        let mut s = *stats;
        s.elapsed = now;
        report(&crate::search::Progress { stats: s });
    }
    match limits.timeout {
        Some(t) if now >= t => Some(LimitKind::Timeout),
        _ => None,
    }
}

/// A* over f-buckets that proves a lower bound when it cannot finish; see the module notes.
/// `max_states` limits the stored positions; `Stats::depth` is the deepest `g` expanded.
pub fn astar_proving<P: Puzzle>(p: &P, limits: &Limits) -> Proving<P::Move>
where
    P::Move: Copy,
{
    let start_time = Instant::now();
    let hasher = FxBuildHasher;
    let mut stats = Stats::default();
    let mut index: HashTable<u32> = HashTable::new();
    let mut states: Vec<P::State> = Vec::new();
    let mut g: Vec<u8> = Vec::new();
    let mut parent: Vec<u32> = Vec::new();
    let mut moves: Vec<Option<P::Move>> = Vec::new();
    // buckets[f][g]: nodes with that f, popped deepest g first (ties go to the deeper node)
    let mut buckets: Vec<Vec<Vec<u32>>> = Vec::new();
    let s0 = p.start();
    let h0 = p.lower_bound(&s0);
    index.insert_unique(hasher.hash_one(&s0), 0, |_| 0);
    states.push(s0);
    g.push(0);
    parent.push(0);
    moves.push(None);
    stats.states = 1;
    let push_bucket = |buckets: &mut Vec<Vec<Vec<u32>>>, f: usize, n: u32, g: u8| {
        if buckets.len() <= f {
            buckets.resize_with(f + 1, Vec::new);
        }
        let b = &mut buckets[f];
        if b.len() <= g as usize {
            b.resize_with(g as usize + 1, Vec::new);
        }
        b[g as usize].push(n);
    };
    push_bucket(&mut buckets, h0 as usize, 0, 0);
    let mut f = h0 as usize;
    let mut buf = Vec::new();
    let finish = |outcome, proved, mut stats: Stats| {
        stats.elapsed = start_time.elapsed();
        Proving {
            outcome,
            proved,
            stats,
        }
    };
    loop {
        while f < buckets.len() && buckets[f].iter().all(Vec::is_empty) {
            f += 1;
        }
        if f >= buckets.len() {
            return finish(Outcome::Unsolvable, f as u32, stats);
        }
        let b = &mut buckets[f];
        while b.last().is_some_and(Vec::is_empty) {
            b.pop();
        }
        let pushed_g = (b.len() - 1) as u8;
        let n = b[pushed_g as usize].pop().expect("non-empty bucket") as usize;
        if g[n] != pushed_g {
            continue; // stale: found again more cheaply since
        }
        let gn = g[n] as usize;
        if p.is_goal(&states[n]) {
            let mut path = Vec::new();
            let mut at = n;
            while let Some(m) = moves[at] {
                path.push(m);
                at = parent[at] as usize;
            }
            path.reverse();
            stats.depth = stats.depth.max(gn as u32);
            return finish(Outcome::Solved(path), gn as u32, stats);
        }
        stats.expanded += 1;
        stats.depth = stats.depth.max(gn as u32);
        if stats.expanded % CLOCK_EVERY == 0 {
            if let Some(l) = over_time(start_time, limits, &mut stats) {
                return finish(Outcome::Limit(l), f as u32, stats);
            }
        }
        buf.clear();
        p.successors(&states[n], &mut buf);
        stats.generated += buf.len() as u64;
        let gt = gn + 1;
        if gt > u8::MAX as usize {
            continue;
        }
        for (m, t) in buf.drain(..) {
            let h = hasher.hash_one(&t);
            if let Some(&i) = index.find(h, |&i| states[i as usize] == t) {
                let i = i as usize;
                if (g[i] as usize) > gt {
                    g[i] = gt as u8;
                    parent[i] = n as u32;
                    moves[i] = Some(m);
                    let ft = gt + p.lower_bound(&states[i]) as usize;
                    push_bucket(&mut buckets, ft.max(f), i as u32, gt as u8);
                }
                continue;
            }
            if matches!(limits.max_states, Some(max) if stats.states >= max) {
                return finish(Outcome::Limit(LimitKind::MaxStates), f as u32, stats);
            }
            let ft = gt + p.lower_bound(&t) as usize;
            let id = states.len() as u32;
            index.insert_unique(h, id, |&i| hasher.hash_one(&states[i as usize]));
            states.push(t);
            g.push(gt as u8);
            parent.push(n as u32);
            moves.push(Some(m));
            stats.states += 1;
            // a bound below f (inconsistent) is still searched now: it cannot be later
            push_bucket(&mut buckets, ft.max(f), id, gt as u8);
        }
    }
}

/// Beam search: layers of at most `width` positions, ordered by `key` (smaller first). Returns
/// a solution if one is found, with the statistics.
pub fn beam<P: Puzzle, K: Ord>(
    p: &P,
    width: usize,
    limits: &Limits,
    key: impl Fn(&P::State) -> K,
) -> (Outcome<P::Move>, Stats)
where
    P::Move: Copy,
{
    let start_time = Instant::now();
    let hasher = FxBuildHasher;
    let mut stats = Stats::default();
    let mut seen: HashTable<u32> = HashTable::new();
    let mut states: Vec<P::State> = vec![p.start()];
    let mut parent: Vec<u32> = vec![0];
    let mut moves: Vec<Option<P::Move>> = vec![None];
    seen.insert_unique(hasher.hash_one(&states[0]), 0, |_| 0);
    stats.states = 1;
    let path_to = |mut at: usize, parent: &[u32], moves: &[Option<P::Move>]| {
        let mut path = Vec::new();
        while let Some(m) = moves[at] {
            path.push(m);
            at = parent[at] as usize;
        }
        path.reverse();
        path
    };
    if p.is_goal(&states[0]) {
        return (Outcome::Solved(Vec::new()), stats);
    }
    let mut layer: Vec<u32> = vec![0];
    let mut buf = Vec::new();
    while !layer.is_empty() {
        stats.depth += 1;
        let mut next: Vec<u32> = Vec::new();
        for &n in &layer {
            stats.expanded += 1;
            if stats.expanded % CLOCK_EVERY == 0 {
                if let Some(l) = over_time(start_time, limits, &mut stats) {
                    stats.elapsed = start_time.elapsed();
                    return (Outcome::Limit(l), stats);
                }
            }
            buf.clear();
            p.successors(&states[n as usize], &mut buf);
            stats.generated += buf.len() as u64;
            for (m, t) in buf.drain(..) {
                let h = hasher.hash_one(&t);
                if seen.find(h, |&i| states[i as usize] == t).is_some() {
                    continue;
                }
                if matches!(limits.max_states, Some(max) if stats.states >= max) {
                    stats.elapsed = start_time.elapsed();
                    return (Outcome::Limit(LimitKind::MaxStates), stats);
                }
                let id = states.len() as u32;
                seen.insert_unique(h, id, |&i| hasher.hash_one(&states[i as usize]));
                let goal = p.is_goal(&t);
                states.push(t);
                parent.push(n);
                moves.push(Some(m));
                stats.states += 1;
                if goal {
                    stats.elapsed = start_time.elapsed();
                    return (
                        Outcome::Solved(path_to(id as usize, &parent, &moves)),
                        stats,
                    );
                }
                next.push(id);
            }
        }
        if next.len() > width {
            next.sort_by_cached_key(|&i| key(&states[i as usize]));
            next.truncate(width);
        }
        layer = next;
    }
    stats.elapsed = start_time.elapsed();
    (Outcome::Unsolvable, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bfs;

    /// Walk on the integers: +1, -1, ×2, bounded; the bound log2-ish is admissible.
    struct Line(i64, i64);
    impl Puzzle for Line {
        type State = i64;
        type Move = char;
        fn start(&self) -> i64 {
            self.0
        }
        fn successors(&self, s: &i64, out: &mut Vec<(char, i64)>) {
            for (m, t) in [('+', s + 1), ('-', s - 1), ('*', s * 2)] {
                if (0..=200).contains(&t) && t != *s {
                    out.push((m, t));
                }
            }
        }
        fn is_goal(&self, s: &i64) -> bool {
            *s == self.1
        }
        fn lower_bound(&self, s: &i64) -> u32 {
            u32::from(*s != self.1)
        }
    }

    #[test]
    fn proving_astar_is_exact_and_proves_bounds() {
        for goal in [0, 1, 7, 33, 64, 199] {
            let p = Line(3, goal);
            let want = bfs(&p, &Limits::none()).cost.unwrap() as u32;
            let r = astar_proving(&p, &Limits::none());
            assert_eq!(r.outcome.solution().unwrap().len() as u32, want);
            assert_eq!(r.proved, want);
            // stopped early, the bound proved never exceeds the optimum
            let r = astar_proving(&p, &Limits::none().max_states(5));
            if let Outcome::Limit(_) = r.outcome {
                assert!(r.proved <= want, "{} > {want}", r.proved);
            }
        }
        let r = astar_proving(&Line(3, 500), &Limits::none());
        assert_eq!(r.outcome, Outcome::Unsolvable);
        assert_eq!(r.stats.states, 201);
    }

    #[test]
    fn beam_finds_solutions_and_wide_beams_are_bfs() {
        let p = Line(3, 99);
        let (o, _) = beam(&p, 1_000_000, &Limits::none(), |s: &i64| (99 - s).abs());
        let want = bfs(&p, &Limits::none()).cost.unwrap() as usize;
        assert_eq!(o.solution().unwrap().len(), want);
        let (o, _) = beam(&p, 1, &Limits::none(), |s: &i64| (99 - s).abs());
        assert!(o.solution().unwrap().len() >= want);
    }
}
