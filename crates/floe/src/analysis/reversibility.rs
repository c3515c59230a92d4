//! Reversibility and dead ends (Kluiver, section 5).
//!
//! Kluiver calls a move *reversible* when the position before it can be reached again by
//! some sequence of moves, *directly reversible* when one move does it, and a puzzle
//! *entirely reversible* when every position can be reached from every other. Positions that
//! are reachable from each other form the strongly connected components of the state graph;
//! so:
//!
//! - a move `u → v` is irreversible exactly when `u` and `v` lie in different components;
//! - a puzzle is entirely reversible exactly when its state graph is one component;
//! - a position is *solvable* when some goal is reachable from it; the others are the
//!   positions "stuck in a subset of states that cannot lead to a solution".
//!
//! [`analyze`] builds the whole state graph of any [`Puzzle`] ([`build_graph_with`], without
//! the moves), takes its components and counts; every game reaches it through
//! [`Level::analyze`](crate::ops::Level::analyze).
//!
//! # Limits
//!
//! The analysis needs the complete graph; figures of part of it would be wrong, not merely
//! smaller. So a limit is not an error but a second kind of answer: [`analyze`] returns
//! `Err(GraphLimit)` saying which limit stopped it and how many states it had stored (an
//! [`AnalyzeReport`](crate::ops::AnalyzeReport) says `complete: false`). A command line
//! reports it and exits with code 1. The limits bound the building
//! of the graph; the analysis after it takes time linear in the number of moves (about as long
//! again as the building).

use crate::search::graph::{build_graph_with, GraphLimit, StateGraph};
use crate::search::{Limits, Puzzle};
use serde::Serialize;

/// The reversibility and solvability figures of a puzzle's whole state space.
///
/// `states`, `sccs`, `largest_scc`, `dead_ends`, `solvable_states`, `unsolvable_states`,
/// `irreversible_moves` and `entirely_reversible` are a contract: these JSON names stay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reversibility {
    /// Positions reachable from the start (the start included).
    pub states: u64,
    /// Moves between them: edges of the state graph, one per legal move of every position.
    pub moves: u64,
    /// Strongly connected components of the state graph (sets of mutually reachable
    /// positions).
    pub sccs: u64,
    /// Positions in the largest component.
    pub largest_scc: u64,
    /// Positions in the start's component: those the player can always return to the start
    /// from.
    pub start_scc_size: u64,
    /// Components no move leaves: once there, the puzzle stays there. Every dead end is one.
    pub sink_sccs: u64,
    /// Positions with no legal move at all (Kluiver's Figure 17).
    pub dead_ends: u64,
    /// Positions that solve the puzzle.
    pub goal_states: u64,
    /// Positions from which a goal is reachable (goals included).
    pub solvable_states: u64,
    /// Positions from which no goal is reachable.
    pub unsolvable_states: u64,
    /// Whether the start is solvable.
    pub solvable_from_start: bool,
    /// Moves `u → v` after which `u` can never be reached again (`u`, `v` in different
    /// components).
    pub irreversible_moves: u64,
    /// Moves `u → v` undone by a single move: some move leads from `v` straight back to `u`.
    pub directly_reversible_moves: u64,
    /// Every position can be reached from every other: the graph is one component.
    pub entirely_reversible: bool,
    /// The largest number of moves needed to reach a position from the start.
    pub depth: u32,
    /// Fewest moves from the start to a goal (`None`: unsolvable).
    pub solution_moves: Option<u32>,
    /// Fewest moves from the start to a position from which the puzzle cannot be solved any
    /// more (`None`: no such position is reachable; 0 if the start is one).
    pub moves_to_unsolvable: Option<u32>,
}

/// Analyses the whole state space of `p`: builds its state graph within `limits`, finds the
/// components and counts (see the module documentation). `Err` when a limit stopped the
/// building of the graph.
pub fn analyze<P: Puzzle>(p: &P, limits: &Limits) -> Result<Reversibility, GraphLimit> {
    let g = build_graph_with(p, limits, |_| ())?;
    Ok(measure(&g))
}

/// The figures of a complete state graph.
pub fn measure<S, M>(g: &StateGraph<S, M>) -> Reversibility {
    let n = g.len() as u32;
    let comps = g.components();
    let solvable = comps.coreachable(g, |i| g.is_goal(i));
    let exits = comps.has_exit(g);

    let mut dead_ends = 0u64;
    let mut irreversible = 0u64;
    let mut direct = 0u64;
    for u in 0..n {
        let row = g.targets_of(u);
        if row.is_empty() {
            dead_ends += 1;
        }
        for &v in row {
            if comps.of(u) != comps.of(v) {
                irreversible += 1;
            } else if g.targets_of(v).contains(&u) {
                // a move back from v to u means u and v are in one component
                direct += 1;
            }
        }
    }
    let solvable_states = solvable.iter().filter(|&&b| b).count() as u64;
    // states are numbered in breadth-first order: the first one found is a nearest one
    let first_goal = g.goal_states().next();
    let first_unsolvable = solvable.iter().position(|&b| !b);
    Reversibility {
        states: n as u64,
        moves: g.edge_count(),
        sccs: comps.count() as u64,
        largest_scc: comps.largest() as u64,
        start_scc_size: comps.sizes[comps.of(0) as usize] as u64,
        sink_sccs: exits.iter().filter(|&&e| !e).count() as u64,
        dead_ends,
        goal_states: g.goal_count(),
        solvable_states,
        unsolvable_states: n as u64 - solvable_states,
        solvable_from_start: solvable[0],
        irreversible_moves: irreversible,
        directly_reversible_moves: direct,
        entirely_reversible: comps.count() == 1,
        depth: g.max_depth(),
        solution_moves: first_goal.map(|i| g.depth(i)),
        moves_to_unsolvable: first_unsolvable.map(|i| g.depth(i as u32)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Bits;
    use crate::games::ice::format::{parse_floe, zelda, ZELDA};
    use crate::games::ice::{space, Free, Walk};
    use crate::games::ice::{with_puzzle, IcePuzzle, IceTask, Level, WalkRule, Walking};
    use crate::grid::Pos;
    use crate::search::graph::build_graph;
    use crate::search::LimitKind;
    use crate::Error;

    struct AnalyzeTask<'a>(&'a Limits);

    impl IceTask for AnalyzeTask<'_> {
        type Output = Result<Reversibility, GraphLimit>;
        fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Self::Output {
            analyze(p, self.0)
        }
    }

    /// [`analyze`] on an ice block level under `rule`, on every bit-set width of its engine.
    fn analyze_level(
        level: &Level,
        rule: WalkRule,
        limits: &Limits,
    ) -> Result<Result<Reversibility, GraphLimit>, Error> {
        with_puzzle(level, rule, AnalyzeTask(limits))
    }

    fn level(text: &str) -> Level {
        parse_floe(text, "<test>").unwrap().remove(0)
    }

    fn run(text: &str) -> Reversibility {
        analyze_level(&level(text), WalkRule::Free, &Limits::none())
            .unwrap()
            .unwrap()
    }

    fn at(cells: &[(usize, usize)]) -> Vec<Pos> {
        cells.iter().map(|&(r, c)| Pos::new(r, c)).collect()
    }

    /// One block, starting in a corner of an empty 3×3 board: it slides from corner to
    /// corner, each push undone by the opposite push.
    #[test]
    fn a_block_among_the_corners_is_entirely_reversible() {
        let text = "$--\n---\n--.\n";
        let r = run(text);
        assert_eq!(
            r,
            Reversibility {
                states: 4,
                moves: 8,
                sccs: 1,
                largest_scc: 4,
                start_scc_size: 4,
                sink_sccs: 1,
                dead_ends: 0,
                goal_states: 1,
                solvable_states: 4,
                unsolvable_states: 0,
                solvable_from_start: true,
                irreversible_moves: 0,
                directly_reversible_moves: 8,
                entirely_reversible: true,
                depth: 2,
                solution_moves: Some(2),
                moves_to_unsolvable: None,
            }
        );
        // the player walking around the board changes nothing here
        let w = analyze_level(&level(text), WalkRule::Walk, &Limits::none())
            .unwrap()
            .unwrap();
        assert_eq!(w, r);
    }

    /// One block in the middle of an empty 3×3 board. Once pushed it never stops in the
    /// middle again (Kluiver's Figure 13): {middle}, {top, bottom middles},
    /// {left, right middles} and {four corners}; the corners never lead back to a middle.
    #[test]
    fn a_block_pushed_from_the_middle_cannot_return() {
        let r = run("-.-\n-$-\n---\n");
        assert_eq!(r.states, 9);
        assert_eq!(r.sccs, 4);
        assert_eq!(r.largest_scc, 4);
        assert_eq!(r.start_scc_size, 1);
        assert_eq!(r.sink_sccs, 1);
        // middle: 4 moves; each edge middle: 3; each corner: 2
        assert_eq!(r.moves, 4 + 4 * 3 + 4 * 2);
        // the middle's 4 and each edge middle's 2 into a corner
        assert_eq!(r.irreversible_moves, 4 + 4 * 2);
        assert_eq!(r.directly_reversible_moves, 4 + 8);
        assert!(!r.entirely_reversible);
        // the target is the top middle: reachable from the middle and the bottom middle only
        assert_eq!(r.goal_states, 1);
        assert_eq!((r.solvable_states, r.unsolvable_states), (3, 6));
        assert_eq!(r.solution_moves, Some(1));
        assert_eq!(r.moves_to_unsolvable, Some(1));
        assert_eq!(r.dead_ends, 0);
    }

    /// Kluiver's Figure 15: the block slides against a wall and the player cannot stand on
    /// the wall to push it back.
    #[test]
    fn a_block_against_a_wall_cannot_come_back() {
        let r = run("*-#\n");
        assert_eq!(r.states, 2);
        assert_eq!(r.moves, 1);
        assert_eq!(r.sccs, 2);
        assert_eq!(r.irreversible_moves, 1);
        assert_eq!(r.directly_reversible_moves, 0);
        // and there it cannot move at all
        assert_eq!(r.dead_ends, 1);
        assert_eq!((r.solvable_states, r.unsolvable_states), (1, 1));
        assert_eq!(r.solution_moves, Some(0));
        assert_eq!(r.moves_to_unsolvable, Some(1));
        assert!(!r.entirely_reversible);
    }

    /// Kluiver's Figure 17: four blocks pushed into a 2×2 square in a corner can never move
    /// again. Board (wall at the top right):
    ///
    /// ```text
    /// $$#      S = start           S → D (push (1,2) left), B ((0,1) down), C ((1,0) right)
    /// $-*      B = $-# / $$$       B → S ((1,1) up), E ((0,0) right)
    ///          C = $$# / -$$       C → E ((0,0) down)
    ///          E = -$# / $$$       E → C ((1,0) up)
    ///          D = $$# / $$-       no move
    /// ```
    #[test]
    fn four_blocks_in_a_corner_are_a_dead_end() {
        let text = "$$#\n$-*\n";
        let r = run(text);
        assert_eq!(
            r,
            Reversibility {
                states: 5,
                moves: 7,
                sccs: 3,
                largest_scc: 2,
                start_scc_size: 2,
                sink_sccs: 2,
                dead_ends: 1,
                // the target (1,2) holds a block in S, B, C and E
                goal_states: 4,
                solvable_states: 4,
                unsolvable_states: 1,
                solvable_from_start: true,
                irreversible_moves: 3,
                directly_reversible_moves: 4,
                entirely_reversible: false,
                depth: 2,
                solution_moves: Some(0),
                moves_to_unsolvable: Some(1),
            }
        );
        // the dead end is the square in the corner, and it is its own component
        let p = IcePuzzle::<u64, Free>::new(&level(text)).unwrap();
        let g = build_graph(&p, &Limits::none()).unwrap();
        let square = p
            .state_from(&at(&[(0, 0), (0, 1), (1, 0), (1, 1)]), None)
            .unwrap();
        let d = g.index_of(&square).unwrap();
        assert_eq!(g.out_degree(d), 0);
        assert_eq!(g.depth(d), 1);
        let c = g.components();
        assert_eq!(c.sizes[c.of(d) as usize], 1);
        // the start and B = blocks (0,0), (1,0), (1,1), (1,2) are mutually reachable
        let b = p
            .state_from(&at(&[(0, 0), (1, 0), (1, 1), (1, 2)]), None)
            .unwrap();
        assert!(c.same(0, g.index_of(&b).unwrap()));
    }

    /// A target in the middle of a 3×3 board with a wall to its right: the block reaches it
    /// by sliding right from the left middle. Pushed anywhere else it slides past the target
    /// ever after: 6 of the 8 positions cannot be solved.
    #[test]
    fn a_block_pushed_past_the_target_is_lost() {
        let r = run("---\n$.#\n---\n");
        assert_eq!(
            r,
            Reversibility {
                states: 8,
                moves: 17,
                sccs: 4,
                largest_scc: 4,
                start_scc_size: 1,
                sink_sccs: 1,
                dead_ends: 0,
                goal_states: 1,
                solvable_states: 2,
                unsolvable_states: 6,
                solvable_from_start: true,
                irreversible_moves: 9,
                directly_reversible_moves: 8,
                entirely_reversible: false,
                depth: 2,
                solution_moves: Some(1),
                moves_to_unsolvable: Some(1),
            }
        );
    }

    #[test]
    fn a_limit_is_reported_not_an_error() {
        let l = Level::empty_board(6, 6, 4).unwrap();
        let stopped = analyze_level(&l, WalkRule::Free, &Limits::none().max_states(50))
            .unwrap()
            .unwrap_err();
        assert_eq!(stopped.kind, LimitKind::MaxStates);
        assert_eq!(stopped.states, 50);
        // a board the engine refuses is an error
        let big = Level::empty_board(40, 40, 2).unwrap();
        assert!(analyze_level(&big, WalkRule::Free, &Limits::none()).is_err());
    }

    #[test]
    fn json_field_names() {
        let v = serde_json::to_value(run("$--\n---\n--.\n")).unwrap();
        for key in [
            "states",
            "sccs",
            "largest_scc",
            "dead_ends",
            "solvable_states",
            "unsolvable_states",
            "irreversible_moves",
            "entirely_reversible",
            "moves",
            "directly_reversible_moves",
            "start_scc_size",
            "solvable_from_start",
            "goal_states",
        ] {
            assert!(v.get(key).is_some(), "missing {key}");
        }
        assert_eq!(v["entirely_reversible"], true);
        assert_eq!(v["moves_to_unsolvable"], serde_json::Value::Null);
    }

    /// Spec figures (ice-blocks.md): reachable states and fewest pushes of the Zelda rooms
    /// with at most three blocks (MCTOD, with six, is in the ignored test below).
    const ROOMS: [(&str, u64, u32); 13] = [
        ("OOTIC", 22, 7),
        ("OOTGCIR", 15, 3),
        ("OOSSAS", 5477, 9),
        ("TPSPR1", 173, 5),
        ("TPSPR2", 1801, 8),
        ("TPSPR3", 1801, 12),
        ("TPIBC1", 334, 7),
        ("TPIBC2", 411, 10),
        ("TPIBC3", 1242, 11),
        ("STST1", 14, 5),
        ("STST2", 21, 7),
        ("STST3", 16, 6),
        ("STST4", 20, 6),
    ];

    /// Checks every figure against the graph it came from and independent computations.
    struct Consistency<'a>(&'a Reversibility);

    impl IceTask for Consistency<'_> {
        type Output = ();
        fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) {
            let r = self.0;
            let g = build_graph(p, &Limits::none()).unwrap();
            assert_eq!(g.len() as u64, r.states);
            let c = g.components();
            assert_eq!(c.sizes.iter().map(|&s| s as u64).sum::<u64>(), r.states);
            assert_eq!(c.count() as u64, r.sccs);
            // reverse topological numbering, the start's component last
            assert_eq!(c.of(0) as usize, c.count() - 1);
            for (u, v, _) in g.edges() {
                assert!(c.of(u) >= c.of(v));
            }
            // the two ways of finding the solvable states agree
            let backward = g.can_reach_goal();
            assert_eq!(backward, c.coreachable(&g, |i| g.is_goal(i)));
            assert_eq!(
                backward.iter().filter(|&&b| b).count() as u64,
                r.solvable_states
            );
            // each push is undone by the opposite push exactly when it slid one cell with
            // the cell behind it free for the pusher: check directly reversible moves
            // against the moves themselves
            let mut direct = 0;
            for u in 0..g.len() as u32 {
                for (v, m) in g.successors(u) {
                    let back = p.push_block(g.state(v), m.to as usize, m.dir.opposite());
                    if back.is_some_and(|(_, s)| s == *g.state(u)) {
                        direct += 1;
                    }
                }
            }
            assert_eq!(direct, r.directly_reversible_moves);
        }
    }

    /// A puzzle started from another position.
    struct StartAt<'a, P: Puzzle>(&'a P, P::State);

    impl<P: Puzzle> Puzzle for StartAt<'_, P> {
        type State = P::State;
        type Move = P::Move;
        fn start(&self) -> P::State {
            self.1.clone()
        }
        fn successors(&self, s: &P::State, out: &mut Vec<(P::Move, P::State)>) {
            self.0.successors(s, out)
        }
        fn is_goal(&self, s: &P::State) -> bool {
            self.0.is_goal(s)
        }
    }

    /// Solves the puzzle by BFS from every position at most `depth` pushes from the start
    /// and compares with the solvable flags of the analysis; also checks
    /// `moves_to_unsolvable`.
    struct SolveNear<'a>(&'a Reversibility, u32);

    impl IceTask for SolveNear<'_> {
        type Output = ();
        fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) {
            let g = build_graph_with(p, &Limits::none(), |_| ()).unwrap();
            let solvable = g.components().coreachable(&g, |i| g.is_goal(i));
            let mut nearest_unsolvable = None;
            for d in 0..=self.1.min(g.max_depth()) {
                for i in g.layer(d) {
                    let from = StartAt(p, *g.state(i));
                    let o = crate::search::bfs(&from, &Limits::none()).outcome;
                    assert_eq!(
                        solvable[i as usize],
                        matches!(o, crate::search::Outcome::Solved(_))
                    );
                    if !solvable[i as usize] && nearest_unsolvable.is_none() {
                        nearest_unsolvable = Some(d);
                    }
                }
            }
            if let Some(d) = self.0.moves_to_unsolvable.filter(|&d| d <= self.1) {
                assert_eq!(nearest_unsolvable, Some(d));
            } else {
                assert_eq!(nearest_unsolvable, None);
            }
        }
    }

    #[test]
    fn solvable_flags_agree_with_the_solver() {
        for title in ["OOTGCIR", "OOSSAS", "STST1", "STST3", "TPSPR1"] {
            let l = zelda(title);
            let r = analyze_level(&l, WalkRule::Free, &Limits::none())
                .unwrap()
                .unwrap();
            with_puzzle(&l, WalkRule::Free, SolveNear(&r, 3)).unwrap();
        }
    }

    #[test]
    fn zelda_rooms_are_consistent() {
        for (title, states, pushes) in ROOMS {
            let l = zelda(title);
            let r = analyze_level(&l, WalkRule::Free, &Limits::none())
                .unwrap()
                .unwrap();
            let e = space(&l, WalkRule::Free, &Limits::none()).unwrap();
            assert_eq!(r.states, states, "{title}");
            assert_eq!(r.states, e.states, "{title}");
            assert_eq!(r.depth, e.depth(), "{title}");
            assert_eq!(r.solvable_states + r.unsolvable_states, r.states, "{title}");
            assert!(r.solvable_from_start, "{title}");
            assert_eq!(r.solution_moves, Some(pushes), "{title}");
            assert!(r.largest_scc <= r.states && r.start_scc_size <= r.largest_scc);
            assert!(r.irreversible_moves + r.directly_reversible_moves <= r.moves);
            assert_eq!(r.entirely_reversible, r.sccs == 1, "{title}");
            assert!(
                r.dead_ends <= r.sink_sccs && r.sink_sccs <= r.sccs,
                "{title}"
            );
            with_puzzle(&l, WalkRule::Free, Consistency(&r)).unwrap();
        }
    }

    #[test]
    fn walk_rule_on_a_zelda_room() {
        // TPIBC1 has no walls or normal floor inside: the player outside reaches every
        // pushing cell, so both rules give the same graph.
        let l = zelda("TPIBC1");
        let free = analyze_level(&l, WalkRule::Free, &Limits::none()).unwrap();
        let walk = analyze_level(&l, WalkRule::Walk, &Limits::none()).unwrap();
        assert_eq!(free, walk);
        let p = IcePuzzle::<u64, Walk>::new(&l).unwrap();
        with_puzzle(
            &l,
            WalkRule::Walk,
            Consistency(&analyze(&p, &Limits::none()).unwrap()),
        )
        .unwrap();
    }

    /// Builds the graph and measures it, timing both phases.
    struct Timed;

    impl IceTask for Timed {
        type Output = (Reversibility, f64, f64, usize);
        fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Self::Output {
            let t = std::time::Instant::now();
            let g = build_graph_with(p, &Limits::none(), |_| ()).unwrap();
            let build = t.elapsed().as_secs_f64();
            let t = std::time::Instant::now();
            let r = measure(&g);
            (r, build, t.elapsed().as_secs_f64(), g.heap_bytes())
        }
    }

    /// The figures of all fourteen rooms, MCTOD (4.25 million positions) included, with
    /// times. Slow: run with
    /// `cargo test --release -p floe --lib zelda_table -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn zelda_table() {
        let levels = parse_floe(ZELDA, "zelda.txt").unwrap();
        println!(
            "| room | states | moves | sccs | largest_scc | start_scc_size | sink_sccs | dead_ends \
             | goal_states | solvable | unsolvable | irreversible | directly_reversible | depth \
             | solution | to_unsolvable | graph s | analysis s | graph MB |"
        );
        for l in &levels {
            let (r, build, analysis, bytes) = with_puzzle(l, WalkRule::Free, Timed).unwrap();
            let opt = |x: Option<u32>| x.map_or("-".to_string(), |d| d.to_string());
            println!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} \
                 | {:.3} | {:.3} | {:.1} |",
                l.title.as_deref().unwrap_or("?"),
                r.states,
                r.moves,
                r.sccs,
                r.largest_scc,
                r.start_scc_size,
                r.sink_sccs,
                r.dead_ends,
                r.goal_states,
                r.solvable_states,
                r.unsolvable_states,
                r.irreversible_moves,
                r.directly_reversible_moves,
                r.depth,
                opt(r.solution_moves),
                opt(r.moves_to_unsolvable),
                build,
                analysis,
                bytes as f64 / 1e6,
            );
            assert_eq!(r.solvable_states + r.unsolvable_states, r.states);
            assert!(r.solvable_from_start);
            if l.title.as_deref() == Some("MCTOD") {
                assert_eq!(r.states, 4_253_287);
                assert_eq!(r.solution_moves, Some(5));
                assert_eq!(r.depth, 68);
            }
        }
    }

    /// MCTOD's figures checked as the small rooms' are, plus the solver from every position
    /// at most two pushes from the start. Slow and memory-hungry (the graph with its moves
    /// and reversed edges): `cargo test --release -p floe --lib mctod -- --ignored`.
    #[test]
    #[ignore]
    fn mctod_is_consistent() {
        let l = zelda("MCTOD");
        let t = std::time::Instant::now();
        let r = analyze_level(&l, WalkRule::Free, &Limits::none())
            .unwrap()
            .unwrap();
        println!("analysis {:.3} s", t.elapsed().as_secs_f64());
        with_puzzle(&l, WalkRule::Free, Consistency(&r)).unwrap();
        with_puzzle(&l, WalkRule::Free, SolveNear(&r, 2)).unwrap();
    }
}
