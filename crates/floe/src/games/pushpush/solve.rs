//! Solving one board: fewest pushes, replay-checked, with the thesis's difficulty (equation 3).

use super::board::Board;
use super::engine::{with_puzzle, PushPuzzle, PushState, PushTask, Variant};
use super::validate::{replay, Replay};
use crate::bits::Bits;
use crate::error::Error;
use crate::grid::Push;
use crate::search::{self, Limits, Outcome, Puzzle, Stats, UnitCost};
use rustc_hash::FxHashMap;
use serde::Serialize;

/// Which exact search finds the fewest pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Search {
    /// Breadth-first search.
    #[default]
    Bfs,
    /// A* with the bound "one push while the target is out of reach".
    AStar,
    /// IDA* with the same bound.
    IdaStar,
}

/// What to solve and how.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// PushPush-1, -k or -*.
    pub variant: Variant,
    /// The search.
    pub search: Search,
    /// Resource limits.
    pub limits: Limits,
    /// Also compute the difficulty (equation 3).
    pub difficulty: bool,
}

/// The thesis's difficulty of a board solvable in `pushes` pushes: in the tree of all push
/// sequences of at most that length from the start, `possible_moves` edges and `solutions`
/// paths that end solved; `value` = (1 − solutions / possible_moves) × 5, 0 when no push is
/// needed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Difficulty {
    /// Fewest pushes.
    pub pushes: u32,
    /// Edges of the push tree cut at depth `pushes`.
    pub possible_moves: u128,
    /// Push sequences of length `pushes` that solve the board.
    pub solutions: u128,
    /// (1 − solutions / possible_moves) × 5.
    pub value: f64,
}

impl Difficulty {
    /// The measure from its counts.
    pub fn new(pushes: u32, possible_moves: u128, solutions: u128) -> Difficulty {
        let value = if possible_moves == 0 {
            0.0
        } else {
            (1.0 - solutions as f64 / possible_moves as f64) * 5.0
        };
        Difficulty {
            pushes,
            possible_moves,
            solutions,
            value,
        }
    }
}

/// The answer for one board.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// Solved (with the pushes), unsolvable (every reachable position explored), or a limit.
    pub outcome: Outcome<Push>,
    /// The replay of the solution.
    pub replay: Option<Replay>,
    /// What the search explored.
    pub stats: Stats,
    /// The difficulty, when asked for and solved.
    pub difficulty: Option<Difficulty>,
}

impl SolveReport {
    /// Fewest pushes, when solved.
    pub fn pushes(&self) -> Option<u64> {
        self.outcome.solution().map(|m| m.len() as u64)
    }
}

struct SolveTask<'a>(&'a SolveOptions);

impl PushTask for SolveTask<'_> {
    type Output = (Outcome<Push>, Stats, Option<Difficulty>);
    fn run<B: Bits>(self, p: &PushPuzzle<B>) -> Self::Output {
        let o = self.0;
        let r = match o.search {
            Search::Bfs => search::bfs(p, &o.limits),
            Search::AStar => search::astar(p, &UnitCost, &o.limits),
            Search::IdaStar => search::ida_star(p, &o.limits, 1 << 20),
        };
        let outcome = match r.outcome {
            Outcome::Solved(m) => Outcome::Solved(m.into_iter().map(|m| p.push(m)).collect()),
            Outcome::Unsolvable => Outcome::Unsolvable,
            Outcome::Limit(l) => Outcome::Limit(l),
        };
        let diff = match (&outcome, o.difficulty) {
            (Outcome::Solved(m), true) => Some(difficulty_of(p, m.len() as u32)),
            _ => None,
        };
        (outcome, r.stats, diff)
    }
}

/// Counts the push tree of `p` down to depth `d` (solutions at depth `d`).
pub fn difficulty_of<B: Bits>(p: &PushPuzzle<B>, d: u32) -> Difficulty {
    let mut layer: FxHashMap<PushState<B>, u128> = FxHashMap::default();
    layer.insert(p.start(), 1);
    let mut edges: u128 = 0;
    for _ in 0..d {
        let mut next: FxHashMap<PushState<B>, u128> = FxHashMap::default();
        for (s, &n) in &layer {
            p.generate(s, |_, t| {
                edges = edges.saturating_add(n);
                let e = next.entry(t).or_insert(0);
                *e = e.saturating_add(n);
            });
        }
        layer = next;
    }
    let solutions = if d == 0 {
        0
    } else {
        layer
            .iter()
            .filter(|(s, _)| p.is_goal(s))
            .map(|(_, &n)| n)
            .fold(0u128, u128::saturating_add)
    };
    Difficulty::new(d, edges, solutions)
}

/// Solves a board: the fewest pushes, checked by an independent replay.
pub fn solve(board: &Board, o: &SolveOptions) -> Result<SolveReport, Error> {
    let (outcome, stats, difficulty) = with_puzzle(board, o.variant, SolveTask(o))?;
    let replay = match &outcome {
        Outcome::Solved(m) => {
            let r = replay(board, m, o.variant)
                .map_err(|e| Error::Internal(format!("the solution does not replay: {e}")))?;
            if !r.solved {
                return Err(Error::Internal(
                    "the solution replays but does not reach the target".into(),
                ));
            }
            Some(r)
        }
        _ => None,
    };
    Ok(SolveReport {
        outcome,
        replay,
        stats,
        difficulty,
    })
}

/// The difficulty of a board solvable in `pushes` pushes.
pub fn difficulty(board: &Board, variant: Variant, pushes: u32) -> Result<Difficulty, Error> {
    struct T(u32);
    impl PushTask for T {
        type Output = Difficulty;
        fn run<B: Bits>(self, p: &PushPuzzle<B>) -> Difficulty {
            difficulty_of(p, self.0)
        }
    }
    with_puzzle(board, variant, T(pushes))
}

/// The thesis's solver: depth-first search with iterative deepening, one board at a time,
/// with no memory of positions, up to `max_depth` pushes. Slow on purpose: it is the
/// reference the census is checked against.
pub fn iterative_deepening(board: &Board, variant: Variant, max_depth: u32) -> Option<u32> {
    struct T(u32);
    impl PushTask for T {
        type Output = Option<u32>;
        fn run<B: Bits>(self, p: &PushPuzzle<B>) -> Option<u32> {
            fn dfs<B: Bits>(p: &PushPuzzle<B>, s: &PushState<B>, left: u32) -> bool {
                if p.is_goal(s) {
                    return true;
                }
                if left == 0 {
                    return false;
                }
                let mut next = Vec::new();
                p.generate(s, |_, t| next.push(t));
                next.iter().any(|t| dfs(p, t, left - 1))
            }
            (0..=self.0).find(|&d| dfs(p, &p.start(), d))
        }
    }
    with_puzzle(board, variant, T(max_depth)).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pushpush::board::parse;

    fn board(text: &str) -> Board {
        parse(text, "t").unwrap().remove(0)
    }

    #[test]
    fn solves_and_replays() {
        let b = board("@$--\n##-.\n");
        let r = solve(&b, &SolveOptions::default()).unwrap();
        assert_eq!(r.pushes(), Some(1));
        assert!(r.replay.unwrap().solved);
        let b = board("@$#.\n");
        let r = solve(&b, &SolveOptions::default()).unwrap();
        assert_eq!(r.outcome, Outcome::Unsolvable);
    }

    #[test]
    fn all_searches_agree() {
        let b = board("@-$-\n-$$-\n$--$\n-$.$\n");
        let want = solve(&b, &SolveOptions::default()).unwrap().pushes();
        for search in [Search::AStar, Search::IdaStar] {
            let o = SolveOptions {
                search,
                ..SolveOptions::default()
            };
            assert_eq!(solve(&b, &o).unwrap().pushes(), want);
        }
        assert_eq!(
            iterative_deepening(&b, Variant::default(), 12),
            want.map(|d| d as u32)
        );
    }

    #[test]
    fn difficulty_by_hand() {
        // 0 pushes: difficulty 0
        let d = difficulty(&board("@-.\n"), Variant::default(), 0).unwrap();
        assert_eq!((d.possible_moves, d.solutions, d.value), (0, 0, 0.0));
        // one push possible and it solves: difficulty 0
        let d = difficulty(&board("@$--\n##-.\n"), Variant::default(), 1).unwrap();
        assert_eq!((d.possible_moves, d.solutions, d.value), (1, 1, 0.0));
        // a corridor: either push ends with a block at an edge, the right one on the target,
        // which blocks do not stop and the robot cannot then enter
        let b = board("-$@$-.\n");
        let r = solve(&b, &SolveOptions::default()).unwrap();
        assert_eq!(r.outcome, Outcome::Unsolvable);
        // a board with one right and one wrong first move: 2 edges, 1 solution → 2.5
        let b = board("#.#\n-$-\n$@-\n");
        let r = solve(
            &b,
            &SolveOptions {
                difficulty: true,
                ..SolveOptions::default()
            },
        )
        .unwrap();
        let d = r.difficulty.unwrap();
        assert_eq!(r.pushes(), Some(1));
        assert_eq!((d.possible_moves, d.solutions), (2, 1));
        assert_eq!(d.value, 2.5);
    }
}
