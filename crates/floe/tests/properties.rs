//! Property-based tests of the ice block game and the generic search on small random levels.
//!
//! 1. The solvers agree (BFS, A*, IDA*, least difficulty) and every solution replays.
//! 2. The bitboard engine agrees with a naive model built only on `validate::replay`:
//!    successors of every reachable state, number of reachable states, depth histogram.
//! 3. `walk` never reaches a block set `free` cannot; on empty boards they coincide.
//! 4. The level formats round-trip.
//! 5. `max_states` limits stop searches exactly when the unlimited run needs more.
//!
//! Plus deterministic checks of the Dijkstra dominance pruning (`memory_slack`) against a
//! brute-force Dijkstra over (state, last moved block) without pruning, and regression tests
//! for what the properties found.
//!
//! Failing cases are printed as level text; nothing is written to disk.

use floe::bits::Bits;
use floe::game::{SolveReport, Status};
use floe::games::ice::{
    self, format, replay, with_puzzle, Cell, IcePuzzle, IceTask, Level, WalkRule, Walking,
};
use floe::grid::{Dir, Pos, Push};
use floe::search::{
    self, count_changes, ChangePenalty, LimitKind, Limits, Outcome, Puzzle, UnitCost,
};
use proptest::prelude::*;
use proptest::sample::Index;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap, HashSet, VecDeque};
use std::fmt;

mod common;
use common::{zelda, ZELDA};

const RULES: [WalkRule; 2] = [WalkRule::Free, WalkRule::Walk];

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // Keep the source tree untouched: failing cases are reported, not stored.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Random levels
// ---------------------------------------------------------------------------------------------

/// A level that prints as its text in the project's format (for readable failures).
#[derive(Clone, PartialEq)]
struct Lvl(Level);

impl fmt::Debug for Lvl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", format::write_floe(std::slice::from_ref(&self.0)))
    }
}

/// Mostly ice, some targets, a little normal floor and wall. Shrinks towards ice.
fn cell() -> impl Strategy<Value = Cell> {
    prop_oneof![
        12 => Just(Cell::Ice),
        3 => Just(Cell::Target),
        2 => Just(Cell::Floor),
        2 => Just(Cell::Wall),
    ]
}

/// Only ice and targets: an "empty board" in the spec's sense.
fn ice_cell() -> impl Strategy<Value = Cell> {
    prop_oneof![5 => Just(Cell::Ice), 1 => Just(Cell::Target)]
}

/// Where the player may start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    /// Nowhere: outside the board.
    None,
    /// Sometimes, on any cell without wall or block.
    Anywhere,
}

/// Builds a level from cells, block picks (indices into the still free block cells), extra
/// target picks and an optional player pick (index into the cells without wall or block).
fn build(
    rows: usize,
    cols: usize,
    cells: &[Cell],
    blocks: &[Index],
    targets: &[Index],
    player: Option<Index>,
) -> Level {
    let mut level = Level::new(rows, cols).unwrap();
    for (i, &c) in cells.iter().enumerate() {
        level.set_cell(Pos::new(i / cols, i % cols), c).unwrap();
    }
    let mut holders: Vec<Pos> = level
        .positions()
        .filter(|&p| level.cell(p).holds_blocks())
        .collect();
    for ix in blocks {
        if holders.is_empty() {
            break;
        }
        let p = holders.remove(ix.index(holders.len()));
        level.set_block(p, true).unwrap();
    }
    // Extra targets, no more than blocks, on ice; the first without a block if possible.
    for (k, ix) in targets.iter().take(level.block_count()).enumerate() {
        let ice = |empty: bool| -> Vec<Pos> {
            level
                .positions()
                .filter(|&p| level.cell(p) == Cell::Ice && !(empty && level.has_block(p)))
                .collect()
        };
        let ice = match ice(true) {
            v if k == 0 && !v.is_empty() => v,
            _ => ice(false),
        };
        if ice.is_empty() {
            break;
        }
        level
            .set_cell(ice[ix.index(ice.len())], Cell::Target)
            .unwrap();
    }
    if let Some(ix) = player {
        let free: Vec<Pos> = level
            .positions()
            .filter(|&p| level.cell(p).holds_blocks() && !level.has_block(p))
            .collect();
        if !free.is_empty() {
            level.set_player(Some(free[ix.index(free.len())])).unwrap();
        }
    }
    level
}

fn levels_with(
    rows: std::ops::RangeInclusive<usize>,
    cols: std::ops::RangeInclusive<usize>,
    blocks: std::ops::RangeInclusive<usize>,
    cells: fn() -> BoxedStrategy<Cell>,
    targets: std::ops::RangeInclusive<usize>,
    player_on: Player,
) -> impl Strategy<Value = Lvl> {
    (rows, cols).prop_flat_map(move |(r, c)| {
        let player = if player_on == Player::None {
            Just(None).boxed()
        } else {
            proptest::option::of(any::<Index>()).boxed()
        };
        (
            proptest::collection::vec(cells(), r * c),
            proptest::collection::vec(any::<Index>(), blocks.clone()),
            proptest::collection::vec(any::<Index>(), targets.clone()),
            player,
        )
            .prop_map(move |(cells, blocks, targets, player)| {
                Lvl(build(r, c, &cells, &blocks, &targets, player))
            })
    })
}

/// Ice, normal floor and wall; targets come separately.
fn untargeted_cell() -> impl Strategy<Value = Cell> {
    prop_oneof![
        14 => Just(Cell::Ice),
        2 => Just(Cell::Floor),
        2 => Just(Cell::Wall),
    ]
}

/// Small random levels: 1..=5 × 1..=5, 0..=4 blocks, optionally a player. One third have
/// target cells drawn like any other cell (often more targets than blocks, or none); two
/// thirds are at least 2 × 2 with 1..=4 blocks and 1 to as many targets as blocks, which
/// makes for more solvable levels with longer solutions.
fn level() -> impl Strategy<Value = Lvl> {
    prop_oneof![
        1 => levels_with(1..=5, 1..=5, 0..=4, || cell().boxed(), 0..=0, Player::Anywhere),
        2 => levels_with(2..=5, 2..=5, 1..=4, || untargeted_cell().boxed(), 1..=4, Player::Anywhere),
    ]
}

/// Boards of ice and targets only, no player, at most 3 blocks.
fn empty_board() -> impl Strategy<Value = Lvl> {
    levels_with(
        1..=5,
        1..=5,
        0..=3,
        || ice_cell().boxed(),
        0..=0,
        Player::None,
    )
}

/// Long thin boards: padded grids of more than 64 cells (several words for the player's
/// region, sometimes rows longer than a word) and more than 64 block cells (u128 and wide
/// engines).
fn long_level() -> impl Strategy<Value = Lvl> {
    let sized = |rows, cols, blocks| {
        levels_with(
            rows,
            cols,
            blocks,
            || cell().boxed(),
            0..=0,
            Player::Anywhere,
        )
    };
    prop_oneof![
        sized(1..=3, 20..=90, 0..=5),
        sized(20..=90, 1..=3, 0..=5),
        sized(8..=14, 8..=14, 0..=4),
    ]
}

// ---------------------------------------------------------------------------------------------
// Engine tasks
// ---------------------------------------------------------------------------------------------

/// A successor as the engine reports it: the push, where the block stops, the block
/// positions after it and the player's region representative (0 under `free`).
type EngineSucc = (Push, Pos, Vec<Pos>, u16);

/// Runs the engine's `generate` on given states (block positions, player).
struct Transitions<'a>(&'a [(Vec<Pos>, Option<Pos>)]);

struct TransitionsOut {
    start_blocks: Vec<Pos>,
    start_rep: u16,
    /// Per input state: its region representative and its successors.
    states: Vec<(u16, Vec<EngineSucc>)>,
}

impl IceTask for Transitions<'_> {
    type Output = TransitionsOut;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> TransitionsOut {
        let start = p.start();
        let states = self
            .0
            .iter()
            .map(|(blocks, player)| {
                let s = p.state_from(blocks, *player).expect("a valid state");
                assert_eq!(&p.block_positions(&s), blocks);
                let mut succ = Vec::new();
                p.generate(&s, |m, t| {
                    assert_eq!(p.piece_moved(&m), Some((m.from as u32, m.to as u32)));
                    succ.push((
                        p.push(&m),
                        p.pos(m.to),
                        p.block_positions(&t),
                        R::unpack(t.player),
                    ))
                });
                // The Puzzle interface gives the same list.
                let mut listed = Vec::new();
                p.successors(&s, &mut listed);
                assert_eq!(listed.len(), succ.len());
                (R::unpack(s.player), succ)
            })
            .collect();
        TransitionsOut {
            start_blocks: p.block_positions(&start),
            start_rep: R::unpack(start.player),
            states,
        }
    }
}

/// Fewest pushes by the engine's BFS (`None`: unsolvable).
struct FewestPushes;

impl IceTask for FewestPushes {
    type Output = Option<usize>;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> Option<usize> {
        match search::bfs(p, &Limits::none()).outcome {
            Outcome::Solved(m) => Some(m.len()),
            Outcome::Unsolvable => None,
            Outcome::Limit(l) => panic!("no limit was set, yet {l}"),
        }
    }
}

/// Every block set the engine reaches (via `enumerate` with a visitor).
struct BlockSets;

impl IceTask for BlockSets {
    type Output = BTreeSet<Vec<Pos>>;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> BTreeSet<Vec<Pos>> {
        let mut sets = BTreeSet::new();
        let e = search::enumerate(p, &Limits::none(), |s, _| {
            sets.insert(p.block_positions(s));
        });
        assert_eq!(e.limit, None);
        sets
    }
}

/// One limited search: outcome, cost as (first, second) component, stored states.
type Run = (Outcome<Push>, Option<(u64, u64)>, u64);

/// BFS, Dijkstra (difficulty at factor 3) and A* (unit cost) under `limits`, IDA* under
/// `ida` if given (IDA* needs a budget: see `ida_star_proves_unsolvability_in_reasonable_time`),
/// else reported as unsolvable without running.
struct Searches {
    limits: Limits,
    ida: Option<Limits>,
}

impl IceTask for Searches {
    type Output = [Run; 4];
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> [Run; 4] {
        let pushes = |o: Outcome<_>| match o {
            Outcome::Solved(m) => Outcome::Solved(m.iter().map(|m| p.push(m)).collect()),
            Outcome::Unsolvable => Outcome::Unsolvable,
            Outcome::Limit(l) => Outcome::Limit(l),
        };
        let b = search::bfs(p, &self.limits);
        let d = search::dijkstra(p, &ChangePenalty { factor: 3 }, &self.limits);
        let a = search::astar(p, &UnitCost, &self.limits);
        let i = match &self.ida {
            Some(limits) => search::ida_star(p, limits, 1 << 16),
            None => search::SearchResult {
                outcome: Outcome::Unsolvable,
                cost: None,
                stats: Default::default(),
            },
        };
        [
            (pushes(b.outcome), b.cost.map(|c| (c, c)), b.stats.states),
            (
                pushes(d.outcome),
                d.cost.map(|c| (c.0, c.1)),
                d.stats.states,
            ),
            (pushes(a.outcome), a.cost.map(|c| (c, c)), a.stats.states),
            (pushes(i.outcome), i.cost.map(|c| (c, c)), i.stats.states),
        ]
    }
}

// ---------------------------------------------------------------------------------------------
// The naive model: single pushes replayed by the validator
// ---------------------------------------------------------------------------------------------

/// The cells of the padded grid ((rows + 2) × (cols + 2), the ring is the floor outside the
/// board) the player can walk to: from his cell, or from outside when the level gives none.
fn naive_region(l: &Level) -> BTreeSet<(usize, usize)> {
    let (pr, pc) = (l.rows() + 2, l.cols() + 2);
    let free = |r: usize, c: usize| {
        if r == 0 || c == 0 || r == pr - 1 || c == pc - 1 {
            true
        } else {
            let p = Pos::new(r - 1, c - 1);
            l.cell(p) != Cell::Wall && !l.has_block(p)
        }
    };
    let start = l.player().map_or((0, 0), |p| (p.row + 1, p.col + 1));
    let mut seen = BTreeSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some((r, c)) = queue.pop_front() {
        let mut next = Vec::new();
        if r > 0 {
            next.push((r - 1, c));
        }
        if c > 0 {
            next.push((r, c - 1));
        }
        if r + 1 < pr {
            next.push((r + 1, c));
        }
        if c + 1 < pc {
            next.push((r, c + 1));
        }
        for (nr, nc) in next {
            if free(nr, nc) && seen.insert((nr, nc)) {
                queue.push_back((nr, nc));
            }
        }
    }
    seen
}

/// A naive state: block positions (row-major) and, under `walk`, the player's whole region.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct NState {
    blocks: Vec<Pos>,
    region: Option<BTreeSet<(usize, usize)>>,
}

fn nstate(l: &Level, rule: WalkRule) -> NState {
    NState {
        blocks: l.blocks().collect(),
        region: (rule == WalkRule::Walk).then(|| naive_region(l)),
    }
}

/// Every legal single push from `l`, as the validator replays it: the push, where the block
/// stops, the board after it (under `walk` the player stands where the pusher stood). Under
/// `walk` the validator's verdict is checked against the naive region: a push is legal iff it
/// is legal under `free` and the pusher's cell is in the player's region.
fn naive_successors(l: &Level, rule: WalkRule) -> Vec<(Push, Pos, Level)> {
    let region = (rule == WalkRule::Walk).then(|| naive_region(l));
    let mut out = Vec::new();
    for b in l.blocks() {
        for d in Dir::ALL {
            let push = Push::new(b, d);
            let result = replay(l, rule, &[push]);
            if let Some(region) = &region {
                // The pusher's cell in the padded grid (the ring around the board is outside).
                let (dr, dc) = d.opposite().delta();
                let padded = (
                    (b.row as isize + 1 + dr) as usize,
                    (b.col as isize + 1 + dc) as usize,
                );
                let legal = replay(l, WalkRule::Free, &[push]).is_ok() && region.contains(&padded);
                assert_eq!(
                    result.is_ok(),
                    legal,
                    "walk: the validator says {result:?} to {push} in\n{}",
                    format::write_floe(std::slice::from_ref(l))
                );
            }
            if let Ok(r) = result {
                out.push((push, r.steps[0].to, r.end));
            }
        }
    }
    out
}

/// Naive breadth-first search: a representative board per reachable state, in order of
/// distance, and the depth histogram.
fn naive_bfs(start: &Level, rule: WalkRule) -> (Vec<Level>, Vec<u64>) {
    let mut seen = HashSet::from([nstate(start, rule)]);
    let mut order = vec![start.clone()];
    let mut depth = vec![0usize];
    let mut head = 0;
    while head < order.len() {
        let d = depth[head];
        for (_, _, next) in naive_successors(&order[head], rule) {
            if seen.insert(nstate(&next, rule)) {
                order.push(next);
                depth.push(d + 1);
            }
        }
        head += 1;
    }
    let mut histogram = vec![0u64; depth.last().map_or(0, |d| d + 1)];
    for d in depth {
        histogram[d] += 1;
    }
    (order, histogram)
}

/// Compares the engine's successors of every board in `boards` with the naive model's.
fn compare_transitions(level: &Level, rule: WalkRule, boards: &[Level]) -> Result<(), String> {
    let inputs: Vec<(Vec<Pos>, Option<Pos>)> = boards
        .iter()
        .map(|b| (b.blocks().collect(), b.player()))
        .collect();
    let out = with_puzzle(level, rule, Transitions(&inputs)).map_err(|e| e.to_string())?;
    let start = nstate(level, rule);
    if out.start_blocks != start.blocks {
        return Err(format!(
            "engine start blocks {:?}, level blocks {:?}",
            out.start_blocks, start.blocks
        ));
    }
    // The engine's region representative must be a faithful name of the naive region:
    // (blocks, region) ↔ (blocks, representative) one to one.
    let mut to_rep: HashMap<NState, u16> = HashMap::new();
    let mut to_region: HashMap<(Vec<Pos>, u16), NState> = HashMap::new();
    let mut link = |n: NState, rep: u16| -> Result<(), String> {
        if let Some(&r) = to_rep.get(&n) {
            if r != rep {
                return Err(format!(
                    "one naive state {n:?} gets representatives {r} and {rep}"
                ));
            }
        }
        let key = (n.blocks.clone(), rep);
        if let Some(m) = to_region.get(&key) {
            if *m != n {
                return Err(format!(
                    "representative {rep} names two naive states {m:?} and {n:?}"
                ));
            }
        }
        to_rep.insert(n.clone(), rep);
        to_region.insert(key, n);
        Ok(())
    };
    link(start, out.start_rep)?;
    for (board, (rep, engine)) in boards.iter().zip(out.states) {
        link(nstate(board, rule), rep)?;
        let mut naive: Vec<(Push, Pos, NState)> = naive_successors(board, rule)
            .into_iter()
            .map(|(p, to, l)| (p, to, nstate(&l, rule)))
            .collect();
        naive.sort_by_key(|(p, ..)| (p.row, p.col, p.dir));
        let mut engine = engine;
        engine.sort_by_key(|(p, ..)| (p.row, p.col, p.dir));
        let n: Vec<_> = naive
            .iter()
            .map(|(p, to, s)| (*p, *to, s.blocks.clone()))
            .collect();
        let e: Vec<_> = engine
            .iter()
            .map(|(p, to, b, _)| (*p, *to, b.clone()))
            .collect();
        if n != e {
            return Err(format!(
                "successors of\n{}differ:\n naive  {n:?}\n engine {e:?}",
                format::write_floe(std::slice::from_ref(board))
            ));
        }
        for ((_, _, ns), (_, _, _, rep)) in naive.into_iter().zip(engine) {
            link(ns, rep)?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Brute-force least difficulty (no pruning)
// ---------------------------------------------------------------------------------------------

/// Dijkstra over (state, cell of the block moved last) with cost (difficulty, pushes), every
/// node expanded: the least (difficulty, pushes) of a solution, if any.
fn reference_difficulty<P: Puzzle>(p: &P, factor: u64) -> Option<(u64, u64)> {
    type Node<S> = (S, Option<u32>);
    let mut index: HashMap<Node<P::State>, usize> = HashMap::new();
    let mut nodes: Vec<Node<P::State>> = Vec::new();
    let mut dist: Vec<(u64, u64)> = Vec::new();
    let mut done: Vec<bool> = Vec::new();
    let mut heap = BinaryHeap::new();
    let start = (p.start(), None);
    index.insert(start.clone(), 0);
    nodes.push(start);
    dist.push((0, 0));
    done.push(false);
    heap.push(Reverse(((0u64, 0u64), 0usize)));
    let mut buf = Vec::new();
    while let Some(Reverse((d, n))) = heap.pop() {
        if done[n] || d != dist[n] {
            continue;
        }
        done[n] = true;
        if p.is_goal(&nodes[n].0) {
            return Some(d);
        }
        buf.clear();
        p.successors(&nodes[n].0, &mut buf);
        let last = nodes[n].1;
        for (m, t) in buf.drain(..) {
            let (from, to) = p.piece_moved(&m).expect("ice moves move one block");
            let change = matches!(last, Some(c) if c != from);
            let nd = (d.0 + 1 + if change { factor } else { 0 }, d.1 + 1);
            let key = (t, Some(to));
            let i = match index.get(&key) {
                Some(&i) => i,
                None => {
                    index.insert(key.clone(), nodes.len());
                    nodes.push(key);
                    dist.push((u64::MAX, u64::MAX));
                    done.push(false);
                    nodes.len() - 1
                }
            };
            if nd < dist[i] {
                dist[i] = nd;
                heap.push(Reverse((nd, i)));
            }
        }
    }
    None
}

/// Least difficulty three ways: the brute force, `dijkstra` and `astar` with
/// [`ChangePenalty`] (which prune dominated nodes); each solution's cost is checked against
/// its moves.
struct Difficulties {
    factor: u64,
}

struct DifficultiesOut {
    reference: Option<(u64, u64)>,
    dijkstra: Option<(u64, u64)>,
    astar: Option<(u64, u64)>,
}

impl IceTask for Difficulties {
    type Output = DifficultiesOut;
    fn run<B: Bits, R: Walking>(self, p: &IcePuzzle<B, R>) -> DifficultiesOut {
        let model = ChangePenalty {
            factor: self.factor,
        };
        let check = |r: search::SearchResult<_, search::Lex>| {
            let cost = r.cost.map(|c| (c.0, c.1));
            match &r.outcome {
                Outcome::Solved(moves) => {
                    let n = moves.len() as u64;
                    assert_eq!(
                        cost,
                        Some((n + self.factor * count_changes(p, moves).unwrap(), n))
                    );
                }
                Outcome::Unsolvable => assert_eq!(cost, None),
                Outcome::Limit(l) => panic!("no limit was set, yet {l}"),
            }
            cost
        };
        DifficultiesOut {
            reference: reference_difficulty(p, self.factor),
            dijkstra: check(search::dijkstra(p, &model, &Limits::none())),
            astar: check(search::astar(p, &model, &Limits::none())),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn solve_with(level: &Level, rule: WalkRule, algorithm: &str, factor: u64) -> SolveReport {
    ice::solve(level, rule, algorithm, factor, &Limits::none())
        .unwrap_or_else(|e| panic!("{algorithm} under {rule} failed: {e}"))
}

/// The replay of a reported solution (solved reports only).
fn replayed(level: &Level, rule: WalkRule, r: &SolveReport) -> Option<ice::Replay> {
    (r.status == Status::Solved).then(|| replay(level, rule, &r.moves_of::<Push>()).unwrap())
}

/// Replays a reported solution independently and checks it solves the level.
fn check_solution(level: &Level, rule: WalkRule, r: &SolveReport) -> Result<(), TestCaseError> {
    match r.status {
        Status::Solved => {
            let moves: Vec<Push> = r.moves_of();
            let rep = replay(level, rule, &moves)
                .map_err(|e| TestCaseError::fail(format!("{} under {rule}: {e}", r.algorithm)))?;
            prop_assert!(rep.solved, "{} under {rule}: not solved", r.algorithm);
            prop_assert_eq!(rep.pushes(), r.moves.len() as u64);
            prop_assert_eq!(r.pushes, Some(rep.pushes()));
            prop_assert_eq!(
                r.difficulty_part("block_changes"),
                Some(rep.block_changes())
            );
        }
        Status::Unsolvable => prop_assert!(r.moves.is_empty()),
        s => prop_assert!(false, "no limit was set, yet {:?} {:?}", s, r.limit),
    }
    Ok(())
}

fn without_player(level: &Level) -> Level {
    let mut l = level.clone();
    l.set_player(None).unwrap();
    l
}

// ---------------------------------------------------------------------------------------------
// 1. The algorithms agree
// ---------------------------------------------------------------------------------------------

/// BFS, A*, IDA* and least difficulty (factors 0, 1, 3, 5) agree under both rules, and every
/// solution replays and solves the level.
fn check_algorithms_agree(level: &Level) -> Result<(), TestCaseError> {
    for rule in RULES {
        let bfs = solve_with(level, rule, "bfs", 0);
        check_solution(level, rule, &bfs)?;
        let astar = solve_with(level, rule, "astar", 0);
        check_solution(level, rule, &astar)?;
        prop_assert_eq!(astar.status, bfs.status, "astar vs bfs under {}", rule);
        prop_assert_eq!(astar.pushes, bfs.pushes, "astar vs bfs under {}", rule);
        // IDA* proves unsolvability too (its closure test), without any limit.
        let ida = solve_with(level, rule, "idastar", 0);
        check_solution(level, rule, &ida)?;
        prop_assert_eq!(ida.status, bfs.status, "idastar vs bfs under {}", rule);
        prop_assert_eq!(ida.pushes, bfs.pushes, "idastar vs bfs under {}", rule);
        let d0 = solve_with(level, rule, "difficulty", 0);
        check_solution(level, rule, &d0)?;
        prop_assert_eq!(d0.status, bfs.status);
        prop_assert_eq!(d0.pushes, bfs.pushes, "factor 0 under {}", rule);
        for factor in [1, 3, 5] {
            let d = solve_with(level, rule, "difficulty", factor);
            check_solution(level, rule, &d)?;
            prop_assert_eq!(d.status, bfs.status);
            if let (Some(dr), Some(br)) = (replayed(level, rule, &d), replayed(level, rule, &bfs)) {
                prop_assert!(
                    dr.difficulty(factor) <= br.difficulty(factor),
                    "factor {} under {}: difficulty {} above the bfs solution's {}",
                    factor,
                    rule,
                    dr.difficulty(factor),
                    br.difficulty(factor)
                );
                prop_assert!(dr.pushes() >= br.pushes());
                prop_assert_eq!(d.difficulty_u64(), Some(dr.difficulty(factor)));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn algorithms_agree(l in level()) {
        check_algorithms_agree(&l.0)?;
    }

    /// The pruned least-difficulty searches find what the brute force finds.
    #[test]
    fn least_difficulty_matches_brute_force(l in level()) {
        for rule in RULES {
            for factor in [0, 1, 3, 5] {
                let r = with_puzzle(&l.0, rule, Difficulties { factor }).unwrap();
                prop_assert_eq!(r.dijkstra, r.reference, "dijkstra, factor {} under {}", factor, rule);
                prop_assert_eq!(r.astar, r.reference, "astar, factor {} under {}", factor, rule);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Engine vs naive model
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(300))]

    /// Successors of every reachable state, the number of states and the depth histogram.
    #[test]
    fn engine_matches_naive_model(l in level()) {
        let level = &l.0;
        for rule in RULES {
            let (boards, histogram) = naive_bfs(level, rule);
            compare_transitions(level, rule, &boards).map_err(TestCaseError::fail)?;
            let e = ice::space(level, rule, &Limits::none()).unwrap();
            prop_assert_eq!(e.limit, None);
            prop_assert_eq!(e.states, boards.len() as u64, "states under {}", rule);
            prop_assert_eq!(&e.histogram, &histogram, "histogram under {}", rule);
        }
    }

    /// Successors within two pushes of the start on long or larger boards.
    #[test]
    fn engine_matches_naive_model_on_long_boards(l in long_level()) {
        let level = &l.0;
        for rule in RULES {
            let mut boards = vec![level.clone()];
            let mut seen = HashSet::from([nstate(level, rule)]);
            let mut frontier = vec![level.clone()];
            for _ in 0..2 {
                let mut next = Vec::new();
                for b in &frontier {
                    for (_, _, n) in naive_successors(b, rule) {
                        if seen.insert(nstate(&n, rule)) {
                            next.push(n);
                        }
                    }
                }
                boards.extend(next.iter().cloned());
                frontier = next;
            }
            compare_transitions(level, rule, &boards).map_err(TestCaseError::fail)?;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Free vs walk
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(400))]

    /// `walk` only forbids pushes `free` allows: its block sets are a subset, its shortest
    /// solutions no shorter.
    #[test]
    fn walk_reaches_no_more_than_free(l in level()) {
        for level in [l.0.clone(), without_player(&l.0)] {
            let free = with_puzzle(&level, WalkRule::Free, BlockSets).unwrap();
            let walk = with_puzzle(&level, WalkRule::Walk, BlockSets).unwrap();
            let extra: Vec<_> = walk.difference(&free).collect();
            prop_assert!(extra.is_empty(), "walk reaches block sets free does not: {:?}", extra);
            let f = with_puzzle(&level, WalkRule::Free, FewestPushes).unwrap();
            let w = with_puzzle(&level, WalkRule::Walk, FewestPushes).unwrap();
            if w.is_some() {
                prop_assert!(f.is_some(), "solvable under walk, not under free");
                prop_assert!(w >= f, "shorter under walk than under free");
            }
        }
    }

    /// With ice and targets only, at most 3 blocks and the player outside, no cell is ever cut
    /// off (that takes 4 blocks round a cell): both rules give the same space.
    #[test]
    fn walk_equals_free_on_empty_boards(l in empty_board()) {
        let level = &l.0;
        let free = ice::space(level, WalkRule::Free, &Limits::none()).unwrap();
        let walk = ice::space(level, WalkRule::Walk, &Limits::none()).unwrap();
        prop_assert_eq!(free.states, walk.states);
        prop_assert_eq!(&free.histogram, &walk.histogram);
        prop_assert_eq!(
            with_puzzle(level, WalkRule::Free, BlockSets).unwrap(),
            with_puzzle(level, WalkRule::Walk, BlockSets).unwrap()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Formats
// ---------------------------------------------------------------------------------------------

/// Printable ASCII without white space at either end (trailing white space is not kept by
/// design: files lose it).
fn trimmed_text(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[!-~]([ -~]{{0,{max}}}[!-~])?")).unwrap()
}

/// A level with random title, rules, comments and extra header lines.
fn decorated_level() -> impl Strategy<Value = Lvl> {
    let key = proptest::string::string_regex("[A-Za-z][A-Za-z0-9_-]{0,6}")
        .unwrap()
        .prop_filter("reserved header", |k| {
            !matches!(
                k.to_ascii_lowercase().as_str(),
                "title" | "name" | "rules" | "game"
            )
        });
    (
        level(),
        proptest::option::of(trimmed_text(12)),
        proptest::option::of(prop_oneof![Just(WalkRule::Free), Just(WalkRule::Walk)]),
        proptest::collection::vec(
            prop_oneof![Just(String::new()), trimmed_text(12), " [!-~]{1,5}"],
            0..3,
        ),
        proptest::collection::vec(
            (key, prop_oneof![Just(String::new()), trimmed_text(8)]),
            0..3,
        ),
    )
        .prop_map(|(l, title, rules, comments, meta)| {
            let mut level = l.0;
            level.title = title;
            level.rules = rules;
            level.comments = comments;
            level.meta = meta;
            Lvl(level)
        })
}

/// The levels read back from `text` have the boards of those written: sizes, cells, blocks.
fn check_same_boards(levels: &[Level], back: &[Level], text: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(back.len(), levels.len(), "{}", text);
    for (a, b) in levels.iter().zip(back) {
        prop_assert_eq!((a.rows(), a.cols()), (b.rows(), b.cols()));
        for p in a.positions() {
            prop_assert_eq!(a.cell(p), b.cell(p), "cell {}", p);
            prop_assert_eq!(a.has_block(p), b.has_block(p), "block {}", p);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn floe_format_round_trips(ls in proptest::collection::vec(decorated_level(), 1..=3)) {
        let levels: Vec<Level> = ls.into_iter().map(|l| l.0).collect();
        let text = format::write_floe(&levels);
        let back = format::parse_floe(&text, "t")
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        check_same_boards(&levels, &back, &text)?;
        for (a, b) in levels.iter().zip(&back) {
            prop_assert_eq!(a.player(), b.player());
            prop_assert_eq!(&a.title, &b.title);
            prop_assert_eq!(a.rules, b.rules);
            prop_assert_eq!(&a.comments, &b.comments, "{}", text);
            prop_assert_eq!(&a.meta, &b.meta, "{}", text);
            prop_assert_eq!(a, b);
        }
        // The format is detected.
        prop_assert_eq!(format::parse(&text, "t", None).unwrap(), back);
    }

    #[test]
    fn kluiver_format_round_trips(ls in proptest::collection::vec(decorated_level(), 1..=3)) {
        let levels: Vec<Level> = ls.into_iter().map(|l| l.0).collect();
        let has_player = levels.iter().any(|l| l.player().is_some());
        let walks = levels.iter().any(|l| l.rules == Some(WalkRule::Walk));
        let written = format::write_kluiver(&levels);
        if has_player {
            prop_assert!(written.is_err(), "a player was written in Kluiver's format");
            return Ok(());
        }
        if walks {
            // read back under the free rule it would be another puzzle: refused
            let e = written.expect_err("a level of the walking rule was written in Kluiver's format");
            prop_assert!(e.to_string().contains("Rules: walk"), "{}", e);
            return Ok(());
        }
        let text = written.unwrap();
        let back = format::parse_kluiver(&text, "t")
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        check_same_boards(&levels, &back, &text)?;
        for b in &back {
            prop_assert_eq!(b.player(), None);
            // Kluiver's format has no titles, rules or comments.
            prop_assert_eq!(&b.title, &None);
            prop_assert_eq!(b.rules, None);
        }
        prop_assert_eq!(format::parse(&text, "t", None).unwrap(), back);
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Limits
// ---------------------------------------------------------------------------------------------

/// Runs the searches without limits and with `max_states(n)`.
fn limited_runs(level: &Level, rule: WalkRule, n: u64, ida: bool) -> ([Run; 4], [Run; 4]) {
    let full = Searches {
        limits: Limits::none(),
        ida: ida.then(Limits::none),
    };
    let limits = Limits::none().max_states(n);
    let cut = Searches {
        limits: limits.clone(),
        ida: ida.then_some(limits),
    };
    (
        with_puzzle(level, rule, full).unwrap(),
        with_puzzle(level, rule, cut).unwrap(),
    )
}

/// A run limited to `n`, `cut`, answers as the unlimited one, `full`, or reports the limit
/// with at most `n` states.
fn check_limited(
    name: &str,
    rule: WalkRule,
    n: u64,
    full: &Run,
    cut: &Run,
) -> Result<(), TestCaseError> {
    if cut.0 == Outcome::Limit(LimitKind::MaxStates) {
        prop_assert!(
            cut.2 <= n,
            "{} under {}: stopped by the limit {} with {} states",
            name,
            rule,
            n,
            cut.2
        );
        prop_assert_eq!(cut.1, None);
    } else {
        prop_assert_eq!(cut, full, "{} under {} with limit {}", name, rule, n);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(300))]

    /// BFS, Dijkstra, A* and enumeration limited to `n` stored states answer exactly as the
    /// unlimited ones when those store at most `n`; otherwise they report the limit, having
    /// stored at most `n`.
    #[test]
    fn max_states_limits_are_exact(l in level(), n in 1u64..=40) {
        let level = &l.0;
        for rule in RULES {
            let (full, cut) = limited_runs(level, rule, n, false);
            for ((name, f), c) in ["bfs", "dijkstra", "astar"].iter().zip(&full).zip(&cut) {
                prop_assert!(!matches!(f.0, Outcome::Limit(_)), "{} unlimited stopped", name);
                check_limited(name, rule, n, f, c)?;
                prop_assert_eq!(
                    c.0 == Outcome::Limit(LimitKind::MaxStates),
                    f.2 > n,
                    "{} under {} with limit {}: unlimited stores {}", name, rule, n, f.2
                );
            }
            let full = ice::space(level, rule, &Limits::none()).unwrap();
            let cut = ice::space(level, rule, &Limits::none().max_states(n)).unwrap();
            if full.states > n {
                prop_assert_eq!(cut.limit, Some(LimitKind::MaxStates));
                prop_assert!(cut.states <= n);
                prop_assert_eq!(cut.histogram.iter().sum::<u64>(), cut.states);
            } else {
                prop_assert_eq!(cut.limit, None);
                prop_assert_eq!(cut.states, full.states);
                prop_assert_eq!(&cut.histogram, &full.histogram);
            }
        }
    }

    /// The same for IDA*, whose `states` counts visits (a state may be visited many times),
    /// so the limit need not be exact. Found: IDA* used to count the root of every iteration
    /// without checking the limit and could stop with `n + 1` visits.
    #[test]
    fn ida_star_respects_max_states(l in level(), n in 1u64..=40) {
        for rule in RULES {
            let (full, cut) = limited_runs(&l.0, rule, n, true);
            if full[3].0 != Outcome::Limit(LimitKind::MaxStates) {
                check_limited("idastar", rule, n, &full[3], &cut[3])?;
            }
        }
    }
}

/// The minimal cases `ida_star_respects_max_states` found.
#[test]
fn ida_star_stops_within_max_states() {
    for (text, n) in [("$.\n", 1), ("-.\n.*\n", 11)] {
        let level = format::parse_floe(text, "t").unwrap().remove(0);
        let limits = Limits::none().max_states(n);
        let r = ice::solve(&level, WalkRule::Free, "idastar", 0, &limits).unwrap();
        assert_eq!(
            (r.status, r.limit_kind()),
            (Status::Limit, Some(LimitKind::MaxStates)),
            "{text:?}"
        );
        assert!(r.states <= n, "{text:?}: {} visits, limit {n}", r.states);
    }
}

// ---------------------------------------------------------------------------------------------
// Dijkstra dominance pruning on the Zelda levels
// ---------------------------------------------------------------------------------------------

fn zelda_small() -> Vec<Level> {
    let levels = format::parse_floe(ZELDA, "levels/zelda.txt").unwrap();
    let small: Vec<Level> = levels
        .into_iter()
        .filter(|l| l.block_count() <= 3)
        .collect();
    assert!(small.len() >= 10, "only {} small Zelda levels", small.len());
    small
}

fn pruning_matches_brute_force(rule: WalkRule) {
    for level in zelda_small() {
        let name = level.display_name(0);
        for factor in (0..=6).chain([100]) {
            let r = with_puzzle(&level, rule, Difficulties { factor }).unwrap();
            // Under walk the player starts outside and cannot enter the walled rooms.
            if rule == WalkRule::Free {
                assert!(r.reference.is_some(), "{name} is solvable");
            }
            assert_eq!(
                r.dijkstra, r.reference,
                "{name}, dijkstra, factor {factor}, {rule}"
            );
            assert_eq!(
                r.astar, r.reference,
                "{name}, astar, factor {factor}, {rule}"
            );
            let s = solve_with(&level, rule, "difficulty", factor);
            assert_eq!(
                s.difficulty_u64().zip(s.pushes),
                r.reference,
                "{name}, solve, factor {factor}, {rule}"
            );
        }
    }
}

#[test]
fn dijkstra_pruning_is_exact_on_zelda_free() {
    pruning_matches_brute_force(WalkRule::Free);
}

#[test]
fn dijkstra_pruning_is_exact_on_zelda_walk() {
    pruning_matches_brute_force(WalkRule::Walk);
}

/// Found by `algorithms_agree`: the validator used to keep the player on his start cell while
/// replaying, so a block sliding onto that cell (he had walked round to push, or under `free`
/// does not stand in the way) made `replay`, and so `solve`, panic.
#[test]
fn validator_lets_a_block_slide_onto_the_players_start_cell() {
    // The player on the target, a block below; push it up from below (outside the board).
    let level = format::parse_floe("+\n$\n", "t").unwrap().remove(0);
    let up = [Push::new(Pos::new(1, 0), Dir::Up)];
    for rule in RULES {
        let r = replay(&level, rule, &up).unwrap();
        assert_eq!(r.steps[0].to, Pos::new(0, 0));
        assert!(r.solved);
        assert_eq!(r.end.player(), None, "the pusher stood outside");
        let s = solve_with(&level, rule, "bfs", 0);
        assert_eq!(s.pushes, Some(1));
    }
}

/// The format has symbols for the player on ice (`@`) and on a target (`+`) only, so `Level`
/// refuses him anywhere else rather than let `write_floe` drop him silently.
#[test]
fn the_player_stands_only_where_the_format_can_write_him() {
    let mut level = format::parse_floe("###\n#=#\n###\n$-.\n", "t")
        .unwrap()
        .remove(0);
    let e = level.set_player(Some(Pos::new(1, 1))).unwrap_err();
    assert!(e.to_string().contains("normal floor"), "{e}");
    level.set_player(Some(Pos::new(3, 1))).unwrap();
    let text = format::write_floe(std::slice::from_ref(&level));
    let back = format::parse_floe(&text, "t").unwrap().remove(0);
    assert_eq!(back.player(), level.player(), "written as:\n{text}");
}

/// IDA* once proved a level unsolvable only when an iteration cut nothing off, so the bound
/// had to grow to about the longest path the depth-first search could take (hundreds of
/// iterations of millions of visits here), not to the depth of the space (16).
#[test]
fn ida_star_proves_unsolvability_in_reasonable_time() {
    // Empty 5×5 board, 3 blocks, 3 targets: BFS proves it unsolvable after 1,242 states
    // (depth 16).
    let level = format::parse_floe("$$$--\n-----\n-.-.-\n-----\n----.\n", "t")
        .unwrap()
        .remove(0);
    for rule in RULES {
        assert_eq!(
            solve_with(&level, rule, "bfs", 0).status,
            Status::Unsolvable
        );
        // 1,000 visits per state.
        let limits = Limits::none().max_states(1_242_000);
        let r = ice::solve(&level, rule, "idastar", 0, &limits).unwrap();
        assert_eq!(r.status, Status::Unsolvable, "{rule}: {} visits", r.states);
    }
}

/// A level where the factor matters: at factor 0 the fewest pushes (10), at factor 5 four more
/// pushes buy fewer block changes (the spec's 29 / 14 / 3).
#[test]
fn change_penalty_trades_pushes_for_changes() {
    let tpibc2 = zelda("TPIBC2");
    let d0 = solve_with(&tpibc2, WalkRule::Free, "difficulty", 0);
    let d5 = solve_with(&tpibc2, WalkRule::Free, "difficulty", 5);
    assert_eq!(d0.pushes, Some(10));
    assert_eq!(
        (
            d5.difficulty_u64(),
            d5.pushes,
            d5.difficulty_part("block_changes")
        ),
        (Some(29), Some(14), Some(3))
    );
}
