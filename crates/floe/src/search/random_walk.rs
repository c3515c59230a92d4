//! Random games that end by themselves: Goadrich and Droscha's random player (the solitaire
//! experiments) gives up at the first move onto a position it has already visited in the game
//! ([`GiveUp::Revisit`]), so it needs no horizon; [`random_walk`] plays it, or the capped game
//! of [`playout_solves`](super::playout::playout_solves) ([`GiveUp::Horizon`]), and says how
//! the game ended ([`End`]). Re-exported by [`playout`](super::playout).

use super::Puzzle;
use rand::Rng;

/// When a random game ([`random_walk`]) gives up, besides being solved or stuck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GiveUp {
    /// At the first move onto a position already visited in this game (the start
    /// included): the random player of Goadrich and Droscha's published programs. The game
    /// needs no horizon: it makes at most as many moves as there are reachable positions.
    Revisit,
    /// After this many attempts (as [`playout_solves`](super::playout::playout_solves)),
    /// positions may repeat.
    Horizon(u32),
}

/// How a random game ([`random_walk`]) ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// A goal was reached.
    Solved,
    /// The position had no legal move.
    Stuck,
    /// The move drawn led back to a position of this game ([`GiveUp::Revisit`]).
    Revisit,
    /// The horizon was used up ([`GiveUp::Horizon`]).
    Horizon,
}

impl End {
    /// `solved`, `stuck`, `revisit` or `horizon`.
    pub fn name(self) -> &'static str {
        match self {
            End::Solved => "solved",
            End::Stuck => "stuck",
            End::Revisit => "revisit",
            End::Horizon => "horizon",
        }
    }
}

/// A random game played by [`random_walk`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    /// How it ended.
    pub end: End,
    /// Legal moves made, the one onto a visited position included (failed attempts of a
    /// game without [`Puzzle::NONE_MEANS_STUCK`] are not moves, but count against a
    /// horizon).
    pub moves: u32,
}

/// One random game from `from`: an attempt drawn by [`Puzzle::random_move`] each step (for
/// puzzles that keep the default, a successor chosen uniformly at random), until the position
/// is a goal (tested on every position reached, the start too), no legal move is left, or
/// `give_up` says so. With [`GiveUp::Horizon`] it draws exactly what
/// [`playout_solves`](super::playout::playout_solves) draws and is solved exactly when that
/// is; with [`GiveUp::Revisit`] it makes the same draws, but also ends, unsolved, as soon as a
/// move leads to a position visited before in this game, so it needs no horizon. Puzzles whose random attempts can fail on a position
/// that still has moves ([`Puzzle::NONE_MEANS_STUCK`] false) are played attempt by attempt;
/// a failed attempt is no move and visits nothing.
///
/// ```
/// use floe::search::from_fn;
/// use floe::search::playout::{random_walk, End, GiveUp};
/// use rand::SeedableRng;
/// use rand_pcg::Pcg64Mcg;
/// // 0 → 1, and from 1 back to 0 or on to the goal 2
/// let p = from_fn(0u8, |&x| match x { 0 => vec![1], 1 => vec![0, 2], _ => vec![] }
///     .into_iter().map(|y| ((), y)), |&x| x == 2);
/// for seed in 0..20 {
///     let w = random_walk(&p, &0, GiveUp::Revisit, &mut Pcg64Mcg::seed_from_u64(seed));
///     // either 1 then 2, or 1 then back to the start, which ends the game
///     assert!(matches!((w.end, w.moves), (End::Solved, 2) | (End::Revisit, 2)));
/// }
/// ```
pub fn random_walk<P, G>(p: &P, from: &P::State, give_up: GiveUp, rng: &mut G) -> Walk
where
    P: Puzzle,
    G: Rng + ?Sized,
{
    let walk = |end, moves| Walk { end, moves };
    if p.is_goal(from) {
        return walk(End::Solved, 0);
    }
    let mut state = from.clone();
    let mut made = 0u32;
    match give_up {
        GiveUp::Horizon(n) => {
            for _ in 0..n {
                match p.random_move(&state, rng) {
                    Some((_, next)) => {
                        made += 1;
                        if p.is_goal(&next) {
                            return walk(End::Solved, made);
                        }
                        state = next;
                    }
                    None if P::NONE_MEANS_STUCK => return walk(End::Stuck, made),
                    None => {}
                }
            }
            walk(End::Horizon, made)
        }
        GiveUp::Revisit => {
            let mut visited: rustc_hash::FxHashSet<P::State> = rustc_hash::FxHashSet::default();
            visited.insert(state.clone());
            let mut succ = Vec::new();
            loop {
                match p.random_move(&state, rng) {
                    Some((_, next)) => {
                        made = made.saturating_add(1);
                        if p.is_goal(&next) {
                            return walk(End::Solved, made);
                        }
                        if !visited.insert(next.clone()) {
                            return walk(End::Revisit, made);
                        }
                        state = next;
                    }
                    None => {
                        if !P::NONE_MEANS_STUCK {
                            // a failed attempt: stuck only when nothing at all is legal here
                            succ.clear();
                            p.successors(&state, &mut succ);
                            if !succ.is_empty() {
                                continue;
                            }
                        }
                        return walk(End::Stuck, made);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::playout::playout_solves;
    use crate::search::playout::tests::Track;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    fn rng(seed: u64) -> Pcg64Mcg {
        Pcg64Mcg::seed_from_u64(seed)
    }

    /// A hand-made position graph: `0 → 1`, `1 → 0 | 2 | 3`, `2 → 4`, `3` stuck, `4` the
    /// goal. A random game from 0 can go back to the start, stop on 3 or reach 4 through 2.
    fn graph() -> impl Puzzle<State = u8, Move = u8> {
        crate::search::from_fn(
            0u8,
            |&x| {
                let next: &[u8] = match x {
                    0 => &[1],
                    1 => &[0, 2, 3],
                    2 => &[4],
                    _ => &[],
                };
                next.iter().map(|&y| (y, y)).collect::<Vec<_>>()
            },
            |&x| x == 4,
        )
    }

    #[test]
    fn a_random_walk_stops_when_it_revisits_a_position() {
        let p = graph();
        let mut ends = std::collections::HashMap::new();
        for seed in 0..3000 {
            let w = random_walk(&p, &0, GiveUp::Revisit, &mut rng(seed));
            // 0 → 1, then one of three: back to 0 (visited: the game ends there), 3 (stuck)
            // or 2 → 4 (solved)
            let want = match w.end {
                End::Revisit | End::Stuck => 2,
                End::Solved => 3,
                End::Horizon => panic!("no horizon"),
            };
            assert_eq!(w.moves, want, "{w:?}");
            *ends.entry(w.end).or_insert(0u32) += 1;
        }
        // each about a third
        for end in [End::Revisit, End::Stuck, End::Solved] {
            assert!((850..=1150).contains(&ends[&end]), "{ends:?}");
        }
        // with a horizon instead, going back to the start goes on: two thirds of the games
        // that go back start over, so half the games end solved
        let solved = (0..3000)
            .filter(|&seed| {
                let w = random_walk(&p, &0, GiveUp::Horizon(1000), &mut rng(seed));
                assert_ne!(w.end, End::Revisit);
                w.end == End::Solved
            })
            .count();
        assert!((1380..=1620).contains(&solved), "{solved}");
        // a horizon too short to reach the goal
        let w = random_walk(&p, &0, GiveUp::Horizon(2), &mut rng(1));
        assert!(matches!(w.end, End::Horizon | End::Stuck), "{w:?}");
        // a goal at the start needs no move
        assert_eq!(
            random_walk(&p, &4, GiveUp::Revisit, &mut rng(1)),
            Walk {
                end: End::Solved,
                moves: 0
            }
        );
    }

    #[test]
    fn a_random_walk_with_a_horizon_draws_as_playout_solves() {
        let t = Track::new(6, 0, &[5]);
        for seed in 0..300 {
            let w = random_walk(&t, &0, GiveUp::Horizon(12), &mut rng(seed));
            let fast = playout_solves(&t, &0, 12, &mut rng(seed));
            assert_eq!(w.end == End::Solved, fast.is_some(), "seed {seed}");
        }
        // where positions never repeat, both give-up rules make the same games: a path of
        // cells walked to the right only, with a dead end at 4 and the goal at 6
        let p = crate::search::from_fn(
            0u8,
            |&x| match x {
                0..=2 => vec![(1u8, x + 1), (2, x + 2)],
                3 | 5 => vec![(1, x + 1)],
                _ => vec![],
            },
            |&x| x == 6,
        );
        for seed in 0..300 {
            let a = random_walk(&p, &0, GiveUp::Revisit, &mut rng(seed));
            let b = random_walk(&p, &0, GiveUp::Horizon(1000), &mut rng(seed));
            assert_eq!(a, b);
        }
    }

    #[test]
    fn a_random_walk_skips_failed_attempts_and_ends_where_nothing_is_legal() {
        // Track's attempts fail a third of the time without the token being stuck; a failed
        // attempt is no move, so with the revisit rule a game on cells 0..3 (goal 3) ends
        // solved or by stepping back onto a visited cell, never stuck
        let t = Track::new(4, 0, &[3]);
        for seed in 0..500 {
            let w = random_walk(&t, &0, GiveUp::Revisit, &mut rng(seed));
            assert!(matches!(w.end, End::Solved | End::Revisit), "{w:?}");
            if w.end == End::Solved {
                assert_eq!(w.moves, 3);
            }
        }
        // a dead cell has no legal move at all: stuck at once
        let mut t = Track::new(4, 0, &[3]);
        t.dead.push(0);
        let w = random_walk(&t, &0, GiveUp::Revisit, &mut rng(1));
        assert_eq!((w.end, w.moves), (End::Stuck, 0));
        let w = random_walk(&t, &0, GiveUp::Horizon(7), &mut rng(1));
        assert_eq!((w.end, w.moves), (End::Horizon, 0));
    }
}
