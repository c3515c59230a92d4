//! The published figures of the two ice block theses that floe reproduces: Kluiver's
//! Table 1 (search spaces of empty boards, with his closed forms), van den Akker's Tables 1–4
//! (reach tables) and the patterns of his Tables 12–13 (strips), Kluiver's Table 3 optima,
//! and the reversibility figures of the Zelda rooms.

use floe::analysis::ice::patterns::{annotate, hardest_use, Pattern};
use floe::analysis::ice::profile::profile;
use floe::analysis::ice::tables::{
    fit_quasi_linear, kluiver_a2, kluiver_a3, reach_cell, space_cell, space_table,
};
use floe::games::ice::{Level, WalkRule};
use floe::grid::{Dir, Pos, Push};
use floe::search::Limits;

mod common;
use common::zelda;

#[test]
fn kluivers_table_1() {
    // sizes m×n with the two- and three-block rows as printed in the thesis
    let table = [
        ((3, 3), 22, 74),
        ((3, 4), 34, 180),
        ((3, 5), 46, 334),
        ((4, 4), 46, 428),
        ((4, 5), 58, 744),
        ((4, 6), 70, 1_140),
        ((5, 5), 70, 1_242),
        ((5, 6), 82, 1_844),
        ((6, 6), 94, 2_676),
        ((7, 7), 118, 4_874),
    ];
    for ((m, n), two, three) in table {
        assert_eq!(
            space_cell(m, n, 2, &Limits::none()).unwrap().states,
            Some(two),
            "{m}x{n}"
        );
        let c = space_cell(m, n, 3, &Limits::none()).unwrap();
        assert_eq!(c.states, Some(three), "{m}x{n}");
        // A(2) holds on all of them; A(3) from 4×4 on (on 3×n it overcounts)
        assert_eq!(kluiver_a2(m, n), two as i64);
        assert_eq!(c.formula_holds, Some(m >= 4), "A(3) on {m}x{n}");
    }
    assert_eq!(kluiver_a3(3, 4), 192);
}

#[test]
fn the_space_table_and_where_the_formulas_hold() {
    let cells = space_table(6, 6, 3, &Limits::none(), |_| {}).unwrap();
    // A(k) holds from k + 1 rows on
    for (k, rows) in [(2, 3), (3, 4)] {
        for c in cells.iter().filter(|c| c.blocks == k) {
            let (r, cols) = (c.rows, c.cols);
            assert_eq!(c.formula_holds, Some(r >= rows), "A({k}) on {r}x{cols}");
        }
    }
    // larger block counts (the thesis withheld them; regression values of this engine,
    // cross-checked by the property tests against a naive model on small boards)
    let c = space_cell(4, 4, 4, &Limits::none()).unwrap();
    assert_eq!(c.states, Some(1_656));
    let c = space_cell(5, 5, 4, &Limits::none()).unwrap();
    assert_eq!(c.states, Some(9_541));
}

/// A table of numbers: its rows split by `/`, their numbers by spaces.
fn grid(rows: &str) -> Vec<Vec<Option<u32>>> {
    rows.split('/')
        .map(|r| {
            r.split_whitespace()
                .map(|x| Some(x.parse().unwrap()))
                .collect()
        })
        .collect()
}

#[test]
fn van_den_akkers_reach_tables_1_to_4() {
    // the side m of the m×m board, the number of blocks k and the fewest pushes to each cell
    let tables = [
        (3, 3, "0 0 0/3 3 3/1 1 1"),
        (4, 3, "0 0 0 2/3 3 5 4/3 3 5 4/1 1 1 2"),
        (4, 4, "0 0 0 0/3 3 3 3/3 3 3 3/1 1 1 1"),
        (5, 4, "0 0 0 0 2/3 3 3 5 4/5 7 7 8 6/3 3 3 5 4/1 1 1 1 2"),
        (5, 5, "0 0 0 0 0/3 3 4 3 3/5 6 6 6 5/3 3 4 3 3/1 1 1 1 1"),
        (
            6,
            3,
            "0 0 0 4 3 2/3 3 5 8 6 4/6 8 9 13 10 7/5 7 10 12 10 6/3 3 5 8 6 4/1 1 1 4 4 2",
        ),
        (
            6,
            4,
            "0 0 0 0 4 2/3 3 3 5 7 4/6 7 7 9 9 7/5 7 7 9 9 6/3 3 3 5 7 4/1 1 1 1 4 2",
        ),
        (
            6,
            5,
            "0 0 0 0 0 2/3 3 4 3 5 4/6 7 7 7 8 7/5 6 6 6 8 6/3 3 4 3 5 4/1 1 1 1 1 2",
        ),
    ];
    for (m, k, want) in tables {
        let c = reach_cell(m, m, k, &Limits::none()).unwrap().unwrap();
        assert_eq!(c.moves, grid(want), "{m}x{m} with {k} blocks");
    }
}

#[test]
fn strips_follow_van_den_akkers_pattern() {
    // hardest cell of 2×n and 3×n boards with 3 blocks: +2 at even n, +1 at odd n
    let hardest = |h: usize, n: usize| {
        reach_cell(h, n, 3, &Limits::none())
            .unwrap()
            .unwrap()
            .max
            .unwrap()
    };
    let two: Vec<(usize, u32)> = (3..=14).map(|n| (n, hardest(2, n))).collect();
    let f = fit_quasi_linear(&two).unwrap();
    assert_eq!((f.text.as_str(), f.from), ("⌊3n/2⌋ − 5", 6));
    let three: Vec<(usize, u32)> = (3..=12).map(|n| (n, hardest(3, n))).collect();
    let f = fit_quasi_linear(&three).unwrap();
    assert_eq!((f.text.as_str(), f.from), ("⌊3n/2⌋ − 1", 3));
}

#[test]
fn trains_in_solutions_and_in_fastest_ways() {
    // three blocks in the top row of an empty 4×5 board: the back block loops round
    let level = Level::empty_board(4, 5, 3).unwrap();
    let moves = [
        Push::new(Pos::new(0, 0), Dir::Down),
        Push::new(Pos::new(3, 0), Dir::Right),
        Push::new(Pos::new(3, 4), Dir::Up),
        Push::new(Pos::new(0, 4), Dir::Left),
    ];
    let a = annotate(&level, WalkRule::Free, &moves).unwrap();
    assert_eq!(a.trains, 1);
    assert!(a.moves.iter().all(|m| m.pattern == Some(Pattern::Train)));
    assert!(a.moves.iter().all(|m| m.shift == Some(Dir::Right)));
    // the same pushes with one left out are no pattern
    let a = annotate(&level, WalkRule::Free, &moves[..3]).unwrap();
    assert_eq!((a.trains, a.zigzags), (0, 0));
    // the hardest cell of a 6×6 board with 3 blocks (13 pushes) needs a train
    let h = hardest_use(&Level::empty_board(6, 6, 3).unwrap(), &Limits::none()).unwrap();
    assert_eq!(h.pushes, 13);
    assert_eq!(h.cells, vec![Pos::new(2, 3)]);
    assert!(h.train);
    // on 4×4 no fastest way to the hardest cells has room for one
    let h = hardest_use(&Level::empty_board(4, 4, 3).unwrap(), &Limits::none()).unwrap();
    assert_eq!(h.pushes, 5);
    assert!(!h.train);
}

/// The reversibility figures of an ice block room under the free rule, through the game face.
fn analyze(level: &Level) -> floe::analysis::reversibility::Reversibility {
    let mut l = level.clone();
    l.rules = Some(WalkRule::Free);
    let r = floe::ops::Level::new(floe::games::ice::Ice, l, "room")
        .analyze(&Limits::none())
        .unwrap();
    assert!(r.complete);
    r.figures.unwrap()
}

#[test]
fn reversibility_of_the_zelda_rooms() {
    let r = analyze(&zelda("OOSSAS"));
    assert_eq!(r.states, 5_477);
    assert!(!r.entirely_reversible);
    assert_eq!(r.dead_ends, 247);
    assert_eq!(r.solvable_states + r.unsolvable_states, r.states);
    let r = analyze(&zelda("TPIBC3"));
    assert!(r.entirely_reversible);
    assert_eq!((r.sccs, r.largest_scc, r.irreversible_moves), (1, 1_242, 0));
}

#[test]
fn difficulty_profiles_reach_every_position() {
    let p = profile(
        &zelda("TPSPR1"),
        WalkRule::Free,
        &[0, 5, 100],
        &Limits::none(),
    )
    .unwrap()
    .unwrap();
    assert_eq!(p.states, 173);
    for f in &p.factors {
        assert_eq!(f.histogram.iter().sum::<u64>(), 173, "factor {}", f.factor);
        assert_eq!(f.cumulative().last().map(|c| c.1), Some(173));
    }
    // at factor 0 the least difficulty is the distance: the depth of the space
    assert_eq!(p.factors[0].max, 11);
    assert!(p.factors[2].max > p.factors[1].max);
}
