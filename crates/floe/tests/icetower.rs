//! Ice Tower: the spec's reference figures, floe's figures for the other qits levels,
//! hand-made cases for each element, and property-based cross-checks of the fast solver
//! (pruning, bound, engine) against a plain breadth-first search on the simple rules.
//!
//! Levels are read from `../shared/levels/qits-icetower/`. h49 is in `icetower_h49.rs`
//! (ignored: minutes of search).

use floe::bits::Wide;
use floe::game::{Engine, SolveReport, Status, Task};
use floe::games::icetower::game::Level as TowerLevel;
use floe::games::icetower::TowerPuzzle;
use floe::games::icetower::{
    parse, replay, with_tower, Block, Board, IceTower, PlainPuzzle, Replay, Tile, Tower,
};
use floe::grid::{Pos, Push};
use floe::ops::{solve_typed, SolveOptions};
use floe::search::graph::build_graph_with;
use floe::search::Puzzle;
use floe::search::{self, Limits, Outcome};
use proptest::prelude::*;
use std::collections::VecDeque;

mod common;
use common::qits;

fn run(t: &Tower, algorithm: &str) -> SolveReport {
    let level = TowerLevel {
        tower: t.clone(),
        dynamic: false,
    };
    solve_typed(
        IceTower,
        &level,
        &SolveOptions::default().algorithm(algorithm),
    )
    .unwrap()
}

fn text(s: &str) -> Tower {
    parse(s, "t", "t").unwrap()
}

/// The fewest pushes by A* and their replay on the rules.
fn astar_replayed(t: &Tower) -> (Option<usize>, Replay) {
    let r = run(t, "astar");
    (pushes(&r), replay(t, &r.moves_of::<Push>()).unwrap())
}

/// Fewest pushes (the report's solution is replayed by the game face already).
fn pushes(r: &SolveReport) -> Option<usize> {
    match r.status {
        Status::Solved => {
            assert_eq!(r.length, Some(r.moves.len() as u64));
            Some(r.moves.len())
        }
        Status::Unsolvable => None,
        s => panic!("stopped: {s:?} {:?}", r.limit),
    }
}

// ---------------------------------------------------------------------------------------------
// The spec's table and the other qits levels
// ---------------------------------------------------------------------------------------------

#[test]
fn spec_reference_figures() {
    assert_eq!(pushes(&run(&qits("w21"), "astar")), Some(21));
    assert_eq!(pushes(&run(&qits("c99-2"), "astar")), Some(7));
    assert_eq!(pushes(&run(&qits("qits002"), "astar")), Some(8));
    assert_eq!(pushes(&run(&qits("qits003"), "astar")), None);
}

#[test]
fn w21_by_breadth_first_search_too() {
    // BFS proves 21 with no help from the bound (dead positions are still pruned)
    assert_eq!(pushes(&run(&qits("w21"), "bfs")), Some(21));
}

#[test]
fn the_other_qits_levels() {
    // floe's figures (proved optimal by A*; c99-2 and qits002 also agree with BFS below)
    assert_eq!(pushes(&run(&qits("c99"), "astar")), Some(12));
    assert_eq!(pushes(&run(&qits("c99-1"), "astar")), Some(7));
    assert_eq!(pushes(&run(&qits("qits001"), "astar")), Some(10));
}

/// A* solved with `o`.
fn astar_with(t: &Tower, o: SolveOptions) -> SolveReport {
    let level = TowerLevel {
        tower: t.clone(),
        dynamic: false,
    };
    solve_typed(IceTower, &level, &o.algorithm("astar")).unwrap()
}

/// A*'s figures on the qits maps, pinned: the positions stored and expanded follow from every
/// judgement of the bound and of dead positions, so a change to how they are computed (the
/// tables cached per set of fires, the judgements cached per position, positions packed)
/// that changed a single one would show here. With two threads: the same fewest pushes, and the same proof (the
/// same positions stored) when A* is capped.
#[test]
fn astar_figures_are_pinned() {
    for (name, pushes, states, expanded) in [
        ("qits001", 10, 226_164, 54_980),
        ("c99", 12, 263_974, 79_124),
        // w21 is mirrored left to right: A* keeps one position of each pair (163,996 and
        // 144,298 without)
        ("w21", 21, 82_035, 72_176),
        ("c99-2", 7, 3_967, 1_667),
    ] {
        let t = qits(name);
        let r = astar_with(&t, SolveOptions::default());
        assert_eq!(
            (r.length, r.states, r.expanded),
            (Some(pushes), states, expanded),
            "{name}"
        );
        let two = astar_with(
            &t,
            SolveOptions {
                threads: 2,
                ..SolveOptions::default()
            },
        );
        assert_eq!(two.length, Some(pushes), "{name} on two threads");
        assert_eq!(
            two.lower_bound,
            Some(pushes as u32),
            "{name} on two threads"
        );
        replay(&t, &two.moves_of::<Push>()).unwrap();
    }
    // h49 has no solution of 11 pushes: rule 5 (golden ice's stoppers) proves it at the start,
    // which is all A* stores (without rule 5: 21,339 positions with f ≤ 11 up to its mirror),
    // on one thread or two
    let h49 = qits("h49");
    for threads in [1, 2] {
        let r = astar_with(
            &h49,
            SolveOptions {
                max_moves: Some(11),
                threads,
                ..SolveOptions::default()
            },
        );
        assert_eq!(r.limit, Some("max-moves"), "{threads}");
        assert_eq!((r.lower_bound, r.states), (Some(12), 1), "{threads}");
    }
}

#[test]
fn algorithms_agree_on_small_levels() {
    for name in ["c99-2", "qits002", "c99-1", "qits003"] {
        let t = qits(name);
        let a = pushes(&run(&t, "astar"));
        assert_eq!(pushes(&run(&t, "bfs")), a, "{name}");
        assert_eq!(pushes(&run(&t, "idastar")), a, "{name}");
        let plain = search::bfs(&PlainPuzzle::new(&t), &Limits::none());
        assert_eq!(plain.cost.map(|c| c as usize), a, "{name} plain rules");
    }
}

#[test]
fn qits003_file_reads_only_its_map() {
    // the note after the map ("should have no solution!") is not part of it
    let t = qits("qits003");
    assert_eq!((t.rows(), t.cols()), (14, 20));
    assert_eq!(t.magician(), Pos::new(8, 10));
}

// ---------------------------------------------------------------------------------------------
// Hand-made cases
// ---------------------------------------------------------------------------------------------

#[test]
fn golden_ice_through_several_fires() {
    // one push puts out all three fires
    let (n, rep) = astar_replayed(&text("#########\n#@$ * **#\n#########\n"));
    assert_eq!(n, Some(1));
    assert_eq!(rep.steps[0].fires_out.len(), 3);
    // two lines of fires: two pushes of the golden block (right, then down)
    let t = text("#######\n#  @  #\n#  $  #\n#  *  #\n#  *  #\n#   **#\n#######\n");
    assert_eq!(pushes(&run(&t, "astar")), Some(2));
}

#[test]
fn golden_ice_resting_on_a_recycler() {
    // the golden block rests on the recycler by the wall, then goes up into the fire
    let (n, rep) = astar_replayed(&text("###*#\n#@$-#\n#   #\n#####\n"));
    assert_eq!(n, Some(2));
    assert_eq!(rep.boards[0].block(Pos::new(1, 3)), Some(Block::Golden));
    assert_eq!(rep.boards[0].tile(Pos::new(1, 3)), Tile::Recycler);
    // a regular block in its place falls into the recycler: no solution
    let t = text("###*#\n#@%-#\n#   #\n#####\n");
    assert_eq!(pushes(&run(&t, "astar")), None);
    assert_eq!(pushes(&run(&t, "bfs")), None);
}

#[test]
fn magician_walled_in_by_fire() {
    let t = text("#######\n#@*%  #\n#######\n");
    let r = run(&t, "astar");
    assert_eq!(pushes(&r), None);
    // once another block puts out the fire, he gets through
    let t = text("########\n#@%*% *#\n########\n");
    assert_eq!(pushes(&run(&t, "astar")), Some(2));
}

#[test]
fn unsolvable_positions() {
    // more fires than blocks
    let r = run(&text("######\n#@%**#\n######\n"), "astar");
    assert_eq!(pushes(&r), None);
    let dead = r.details.exact().and_then(|d| d.dead.as_ref());
    assert!(dead.is_some(), "proved at the start");
    // a fire in a pocket no block can enter
    let r = run(&text("#####\n#*###\n# % #\n##@ #\n#####\n"), "astar");
    assert_eq!(pushes(&r), None);
    // the plain rules agree
    for s in [
        "######\n#@%**#\n######\n",
        "#####\n#*###\n# % #\n##@ #\n#####\n",
    ] {
        let plain = search::bfs(&PlainPuzzle::new(&text(s)), &Limits::none());
        assert_eq!(plain.outcome, Outcome::Unsolvable, "{s}");
    }
}

#[test]
fn pruning_shrinks_the_search() {
    // the same search without pruning needs more positions (and is still optimal)
    struct Count;
    impl Task<Push> for Count {
        type Output = (Option<u64>, u64);
        fn run<E: Engine<Public = Push>>(self, p: &E) -> (Option<u64>, u64) {
            let r = search::bfs(p, &Limits::none().max_states(3_000_000));
            (r.cost, r.stats.states)
        }
    }
    let t = qits("c99");
    let (pruned, n_pruned) = with_tower(&t, true, Count).unwrap();
    let (plain, n_plain) = with_tower(&t, false, Count).unwrap();
    assert_eq!(pruned, Some(12));
    assert_eq!(plain, Some(12));
    assert!(n_pruned * 3 < n_plain * 2, "{n_pruned} vs {n_plain}");
}

// ---------------------------------------------------------------------------------------------
// Property-based cross-checks on small random levels
// ---------------------------------------------------------------------------------------------

#[derive(Clone)]
struct Level(Tower);

impl std::fmt::Debug for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\n{}", self.0.to_text())
    }
}

/// What a cell starts as: tile plus block.
#[derive(Clone, Copy, Debug)]
enum Start {
    Floor,
    Wall,
    Fire,
    Recycler,
    Ice,
    Golden,
}

fn start_cell(golden: u32) -> impl Strategy<Value = Start> {
    prop_oneof![
        10 => Just(Start::Floor),
        3 => Just(Start::Wall),
        3 => Just(Start::Fire),
        1 => Just(Start::Recycler),
        4 => Just(Start::Ice),
        golden => Just(Start::Golden),
    ]
}

/// Random levels up to 4 × 6 with the magician on some floor cell.
fn levels() -> impl Strategy<Value = Level> {
    levels_up_to(4, 6, 1)
}

/// Random levels up to `rows` × `cols`, golden ice `golden` times as likely as above.
fn levels_up_to(rows: usize, cols: usize, golden: u32) -> impl Strategy<Value = Level> {
    (2usize..=rows, 2usize..=cols)
        .prop_flat_map(move |(r, c)| {
            (
                Just((r, c)),
                proptest::collection::vec(start_cell(golden), r * c),
                any::<proptest::sample::Index>(),
            )
        })
        .prop_filter_map("needs a floor cell", |((r, c), cells, ix)| {
            let tiles: Vec<Tile> = cells
                .iter()
                .map(|s| match s {
                    Start::Wall => Tile::Wall,
                    Start::Fire => Tile::Fire,
                    Start::Recycler => Tile::Recycler,
                    _ => Tile::Floor,
                })
                .collect();
            let blocks: Vec<Option<Block>> = cells
                .iter()
                .map(|s| match s {
                    Start::Ice => Some(Block::Ice),
                    Start::Golden => Some(Block::Golden),
                    _ => None,
                })
                .collect();
            let free: Vec<usize> = (0..r * c)
                .filter(|&k| matches!(cells[k], Start::Floor))
                .collect();
            if free.is_empty() {
                return None;
            }
            let k = free[ix.index(free.len())];
            Tower::from_parts("p", r, c, tiles, blocks, Pos::new(k / c, k % c))
                .ok()
                .map(Level)
        })
}

/// Random levels whose walls, fires and recyclers are mirrored left to right (blocks and the
/// magician as they fell): levels with a symmetry, whose positions A* folds.
fn symmetric_levels() -> impl Strategy<Value = Level> {
    levels_up_to(4, 6, 2).prop_filter_map("blocks on walls after the mirror", |Level(t)| {
        let (r, c) = (t.rows(), t.cols());
        let mut tiles = Vec::with_capacity(r * c);
        let mut blocks = Vec::with_capacity(r * c);
        for p in t.positions() {
            let q = if p.col >= c.div_ceil(2) {
                Pos::new(p.row, c - 1 - p.col)
            } else {
                p
            };
            tiles.push(t.tile(q));
            blocks.push(t.block(p));
        }
        Tower::from_parts("m", r, c, tiles, blocks, t.magician())
            .ok()
            .map(Level)
    })
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// Pruning and the bound never change the answer: pruned A*, pruned BFS and IDA* give
    /// the fewest pushes of a plain BFS over the simple rules, or all find none.
    #[test]
    fn fast_solvers_match_plain_bfs(l in levels()) {
        let t = &l.0;
        let plain = search::bfs(&PlainPuzzle::new(t), &Limits::none().max_states(200_000));
        prop_assume!(!matches!(plain.outcome, Outcome::Limit(_)));
        let want = plain.cost.map(|c| c as usize);
        for a in ["astar", "bfs", "idastar"] {
            let r = run(t, a);
            prop_assert_eq!(pushes(&r), want, "{}", a);
            if let Some(n) = want {
                let bound = r.details.exact().expect("an exact search").start_bound as usize;
                prop_assert!(bound <= n, "bound {} > {}", bound, n);
            }
        }
    }

    /// On levels with a symmetry A* keeps one position of each class, on one thread or two:
    /// the fewest pushes of a plain BFS, a solution the rules replay, or none for both.
    #[test]
    fn folded_astar_matches_plain_bfs(l in symmetric_levels()) {
        let t = &l.0;
        let plain = search::bfs(&PlainPuzzle::new(t), &Limits::none().max_states(200_000));
        prop_assume!(!matches!(plain.outcome, Outcome::Limit(_)));
        let want = plain.cost.map(|c| c as usize);
        for threads in [1, 2] {
            let r = astar_with(t, SolveOptions { threads, ..SolveOptions::default() });
            prop_assert_eq!(pushes(&r), want, "{} threads", threads);
            if want.is_some() {
                replay(t, &r.moves_of::<Push>()).unwrap();
            }
        }
    }

    /// Without pruning the engine reaches exactly the positions of the plain rules.
    #[test]
    fn engine_reaches_what_the_rules_reach(l in levels()) {
        let t = &l.0;
        let limits = Limits::none().max_states(100_000);
        let plain = search::enumerate(&PlainPuzzle::new(t), &limits, |_, _| {});
        prop_assume!(plain.limit.is_none());
        struct Space(Limits);
        impl Task<Push> for Space {
            type Output = (u64, Vec<u64>);
            fn run<E: Engine<Public = Push>>(self, p: &E) -> (u64, Vec<u64>) {
                let e = search::enumerate(p, &self.0, |_, _| {});
                (e.states, e.histogram)
            }
        }
        let (n, hist) = with_tower(t, false, Space(limits)).unwrap();
        prop_assert_eq!(n, plain.states);
        prop_assert_eq!(hist, plain.histogram);
    }

    /// Every solution replays, push by push, on the plain rules.
    #[test]
    fn solutions_replay(l in levels()) {
        let r = run(&l.0, "astar");
        if r.status == Status::Solved {
            let rep = replay(&l.0, &r.moves_of::<Push>()).unwrap();
            prop_assert!(rep.solved);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The bound and the dead positions against exact distances
// ---------------------------------------------------------------------------------------------

/// Checks the judge on every position reachable from the start under the plain moves (no
/// pruning), at most `max_states` of them: a position judged dead cannot be solved, the
/// bound never exceeds the fewest pushes still needed (found backwards from the solved
/// positions), and rule 5 (golden ice's stoppers, [`Puzzle::exceeds`]) never proves that a
/// position needs more than that. `None` when the space is larger; else (positions,
/// positions whose bound is exact, the start's bound, positions where rule 5 proves more
/// than the bound).
fn judge_everywhere(t: &Tower, max_states: u64) -> Option<(usize, usize, u32, usize)> {
    let free = TowerPuzzle::<Wide<5>>::new(t, false);
    let judged = TowerPuzzle::<Wide<5>>::new(t, true);
    let g = build_graph_with(&free, &Limits::none().max_states(max_states), |_| ()).ok()?;
    let n = g.len();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (a, b, _) in g.edges() {
        preds[b as usize].push(a);
    }
    let mut dist = vec![u32::MAX; n];
    let mut queue = VecDeque::new();
    for i in g.goal_states() {
        dist[i as usize] = 0;
        queue.push_back(i as usize);
    }
    while let Some(i) = queue.pop_front() {
        for &a in &preds[i] {
            if dist[a as usize] == u32::MAX {
                dist[a as usize] = dist[i] + 1;
                queue.push_back(a as usize);
            }
        }
    }
    let mut exact = 0;
    let mut start = 0;
    let mut raised = 0;
    for (i, &d) in dist.iter().enumerate() {
        let s = g.state(i as u32);
        match judged.analysis().judge(s.ice, s.gold, s.fires) {
            Ok(lb) => {
                assert!(
                    d == u32::MAX || lb <= d,
                    "bound {lb} > {d} pushes at position {i} of\n{}",
                    t.to_text()
                );
                if d != u32::MAX {
                    let an = judged.analysis();
                    for need in d..d + 2 {
                        assert!(
                            !an.needs_more(s.ice, s.gold, s.fires, need),
                            "rule 5: more than {need} pushes, yet {d} solve position {i} of\n{}",
                            t.to_text()
                        );
                    }
                    raised += usize::from(lb < d && an.needs_more(s.ice, s.gold, s.fires, lb));
                }
                exact += usize::from(lb == d);
                if i == 0 {
                    start = lb;
                }
            }
            Err(e) => assert_eq!(d, u32::MAX, "{e}, yet {d} pushes solve it\n{}", t.to_text()),
        }
    }
    Some((n, exact, start, raised))
}

/// Every position of the small qits levels, and the first positions (breadth first) of the
/// others: the bound is admissible and dead means dead.
#[test]
fn bound_admissible_on_qits_levels() {
    for (name, cap) in [
        ("c99-1", 2_000_000),
        ("c99-2", 2_000_000),
        ("qits002", 2_000_000),
        ("qits003", 2_000_000),
    ] {
        let (n, exact, start, raised) = judge_everywhere(&qits(name), cap)
            .unwrap_or_else(|| panic!("{name}: more than {cap} positions"));
        eprintln!(
            "{name}: {n} positions, bound exact at {exact}, start bound {start}, rule 5 \
             above the bound at {raised}"
        );
    }
}

/// The larger qits levels, sampled: the positions of a solution (A*'s, h49's best known) and
/// positions a few seeded random pushes away from them; each one whose whole space (without
/// pruning) is small enough is solved exactly by breadth-first search: a dead one must be
/// unsolvable, and the bound must not exceed the fewest pushes.
#[test]
fn bound_admissible_on_sampled_positions() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| -> usize {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for name in ["c99", "qits001", "w21", "h49"] {
        let t = qits(name);
        let line: Vec<Push> = if name == "h49" {
            common::h49_best()
        } else {
            run(&t, "astar").moves_of::<Push>()
        };
        let plain = PlainPuzzle::new(&t);
        let boards = replay(&t, &line).unwrap().boards;
        let (mut checked, mut solvable, mut exact) = (0, 0, 0);
        for (i, on_line) in boards.iter().enumerate() {
            for off in 0..4 {
                let mut b: Board = on_line.clone();
                for _ in 0..off {
                    let mut out = Vec::new();
                    plain.successors(&b, &mut out);
                    if out.is_empty() {
                        break;
                    }
                    b = out.swap_remove(next(out.len())).1;
                }
                let judged = TowerPuzzle::<Wide<5>>::new_at(&t, &b, true);
                let free = TowerPuzzle::<Wide<5>>::new_at(&t, &b, false);
                let r = search::bfs(&free, &Limits::none().max_states(100_000));
                if matches!(r.outcome, Outcome::Limit(_)) {
                    continue;
                }
                checked += 1;
                if off == 0 {
                    // on the solution: solvable within what is left of it
                    let left = (line.len() - i - 1) as u64;
                    assert!(r.cost.is_some_and(|c| c <= left), "{name} after {}", i + 1);
                }
                match (judged.start_dead(), r.cost) {
                    (Some(d), Some(c)) => {
                        panic!("{name}: dead ({d}) yet {c} pushes\n{}", b.to_text())
                    }
                    (None, Some(c)) => {
                        let lb = judged.lower_bound(&judged.start()) as u64;
                        assert!(lb <= c, "{name}: bound {lb} > {c} pushes\n{}", b.to_text());
                        assert!(
                            !judged.exceeds(&judged.start(), c as u32),
                            "{name}: rule 5 proves more than {c} pushes\n{}",
                            b.to_text()
                        );
                        solvable += 1;
                        exact += usize::from(lb == c);
                    }
                    _ => {}
                }
            }
        }
        eprintln!(
            "{name}: {checked} positions solved exactly, {solvable} solvable, bound exact at \
             {exact}"
        );
        assert!(
            solvable > 0,
            "{name}: no solvable sampled position small enough"
        );
    }
}

proptest! {
    #![proptest_config(config(400))]

    /// On random levels, every reachable position: dead positions cannot be solved and the
    /// bound never exceeds the fewest pushes left.
    #[test]
    fn bound_admissible_everywhere(l in levels()) {
        judge_everywhere(&l.0, 200_000);
    }

    /// The same on larger levels with more golden ice (where the turns of rule 4 count).
    #[test]
    fn bound_admissible_with_golden_ice(l in levels_up_to(5, 7, 4)) {
        judge_everywhere(&l.0, 200_000);
    }
}

/// The straightforward exhaustive search the pruning replaces: BFS on the same engine with
/// no dead positions and no bound. `cargo test --release -p floe --test icetower --
/// --ignored --nocapture w21_without_pruning` (figures in BENCHMARKS.md).
#[test]
#[ignore = "seconds to minutes and a large amount of memory"]
fn w21_without_pruning() {
    struct Plain;
    impl Task<Push> for Plain {
        type Output = (Option<u64>, u64, f64);
        fn run<E: Engine<Public = Push>>(self, p: &E) -> Self::Output {
            let r = search::bfs(p, &Limits::none());
            (r.cost, r.stats.states, r.stats.elapsed.as_secs_f64())
        }
    }
    let (cost, states, secs) = with_tower(&qits("w21"), false, Plain).unwrap();
    eprintln!("w21 without pruning: {cost:?} pushes, {states} positions, {secs:.2} s");
    assert_eq!(cost, Some(21));
}
