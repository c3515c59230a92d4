//! PushPush: the census against the spec's 4×4 figures and against boards solved one at a
//! time (the thesis's iterative deepening and floe's breadth-first search).

use floe::game::{Engine, Task};
use floe::games::pushpush::census::{
    census, census_layer, layer_positions, Census, CensusOptions, CensusOutcome, LayerOutcome,
};
use floe::games::pushpush::engine::with_puzzle;
use floe::games::pushpush::level::Level;
use floe::games::pushpush::{difficulty, Board, PushPush, Variant};
use floe::grid::{Pos, Push};
use floe::ops::{solve_typed, SolveOptions};

/// Fewest pushes of one board, through the game face (replay-checked).
fn fewest(board: &Board, variant: Variant) -> Option<u64> {
    let level = Level {
        board: board.clone(),
        variant,
    };
    solve_typed(PushPush, &level, &SolveOptions::default())
        .unwrap()
        .length
}

/// The thesis's solver: iterative deepening without memory.
fn iterative_deepening(board: &Board, variant: Variant, bound: u32) -> Option<u32> {
    struct Id(u32);
    impl Task<Push> for Id {
        type Output = Option<u32>;
        fn run<E: Engine<Public = Push>>(self, e: &E) -> Option<u32> {
            floe::search::iterative_deepening(e, self.0)
        }
    }
    with_puzzle(board, variant, Id(bound)).unwrap()
}
use std::collections::{BTreeMap, BTreeSet};

fn run(rows: usize, cols: usize, k: usize, diff: bool) -> Census {
    let mut o = CensusOptions::new(rows, cols);
    o.variant = Variant::new(k);
    o.difficulty = diff;
    o.hardest = 1000;
    match census(&o).unwrap() {
        CensusOutcome::Done(c) => *c,
        other => panic!("{other:?}"),
    }
}

/// Every board of a size: (robot, target, blocks).
fn boards(rows: usize, cols: usize) -> impl Iterator<Item = Board> {
    let n = rows * cols;
    let pos = move |i: usize| Pos::new(i / cols, i % cols);
    (0..n).flat_map(move |r| {
        (0..n).filter(move |&t| t != r).flat_map(move |t| {
            (0u32..1 << n)
                .filter(move |b| b >> r & 1 == 0)
                .map(move |b| {
                    let mut board = Board::new(rows, cols, pos(r), pos(t)).unwrap();
                    for c in 0..n {
                        if b >> c & 1 == 1 {
                            board.set_block(pos(c), true).unwrap();
                        }
                    }
                    board
                })
        })
    })
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[test]
fn spec_figures_4x4() {
    let c = run(4, 4, 1, false);
    assert_eq!(c.boards, 7_864_320);
    assert_eq!(c.unsolvable, 3_668_048);
    assert_eq!(c.by_pushes[0], 2_424_312);
    assert_eq!(c.by_pushes[1], 1_356_840);
    assert_eq!(
        (c.by_blocks[0].solvable, c.by_blocks[0].unsolvable),
        (240, 0)
    );
    assert_eq!(
        (c.by_blocks[15].solvable, c.by_blocks[15].unsolvable),
        (0, 240)
    );
    // the thesis's Table 1: boards per number of blocks, n(n−1)·C(n−1, k)
    assert_eq!(c.by_blocks.len(), 16, "0 to 15 blocks");
    for row in &c.by_blocks {
        assert_eq!(
            row.solvable + row.unsolvable,
            16 * 15 * binomial(15, row.blocks as u64),
            "{} blocks",
            row.blocks
        );
    }
    // the hardest boards replay and need exactly that many pushes
    assert!(c.hardest.count > 0 && !c.hardest.boards.is_empty());
    for h in &c.hardest.boards {
        assert_eq!(
            fewest(&h.board, Variant::default()),
            Some(u64::from(c.hardest.pushes))
        );
    }
    let in_classes: u64 = c.hardest.boards.iter().map(|h| h.boards_in_class).sum();
    assert_eq!(
        in_classes, c.hardest.count,
        "the classes listed are all of them"
    );
}

/// The census histogram (per number of blocks and pushes) equals the one of boards solved
/// one at a time.
fn check_against_single_boards(rows: usize, cols: usize, k: usize, iddfs: bool) {
    let c = run(rows, cols, k, true);
    let variant = Variant::new(k);
    let mut hist: BTreeMap<(usize, Option<u64>), u64> = BTreeMap::new();
    let mut diff_sum: BTreeMap<u64, f64> = BTreeMap::new();
    let mut diff_bins: BTreeMap<(u64, usize), u64> = BTreeMap::new();
    for b in boards(rows, cols) {
        let d = fewest(&b, variant);
        if iddfs {
            // the thesis's bound, 3 × blocks, with room to spare
            let bound = 3 * b.block_count() as u32 + 3;
            assert_eq!(
                iterative_deepening(&b, variant, bound),
                d.map(|d| d as u32),
                "{}",
                b.rows_text()
            );
        }
        *hist.entry((b.block_count(), d)).or_default() += 1;
        if let Some(d) = d.filter(|&d| d > 0) {
            let x = difficulty(&b, variant, d as u32).unwrap();
            *diff_sum.entry(d).or_default() += x.value;
            let bin = ((x.value / 0.1).floor() as usize).min(49);
            *diff_bins.entry((d, bin)).or_default() += 1;
        }
    }
    for row in &c.by_blocks {
        assert_eq!(
            row.unsolvable,
            hist.get(&(row.blocks, None)).copied().unwrap_or(0),
            "{rows}×{cols} k={k}: unsolvable with {} blocks",
            row.blocks
        );
        for (d, &count) in row.by_pushes.iter().enumerate() {
            assert_eq!(
                count,
                hist.get(&(row.blocks, Some(d as u64)))
                    .copied()
                    .unwrap_or(0),
                "{rows}×{cols} k={k}: {} blocks, {d} pushes",
                row.blocks
            );
        }
    }
    let dc = c.difficulty.as_ref().unwrap();
    for (d, bins) in dc.by_pushes.iter().enumerate().skip(1) {
        for (bin, &count) in bins.iter().enumerate() {
            assert_eq!(
                count,
                diff_bins.get(&(d as u64, bin)).copied().unwrap_or(0),
                "{rows}×{cols} k={k}: difficulty bin {bin} at {d} pushes"
            );
        }
        let want = diff_sum.get(&(d as u64)).copied().unwrap_or(0.0);
        assert!((dc.sum_by_pushes[d] - want).abs() < 1e-6 * want.max(1.0));
    }
    assert_eq!(dc.saturated, 0);
}

#[test]
fn census_3x3_equals_iterative_deepening_board_by_board() {
    check_against_single_boards(3, 3, 1, true);
}

#[test]
fn census_of_rectangles_and_pushpush_k_equals_single_boards() {
    check_against_single_boards(2, 4, 1, false);
    check_against_single_boards(3, 3, 2, false);
    check_against_single_boards(3, 3, 0, false);
    check_against_single_boards(1, 5, 0, false);
}

/// Classes counted by listing: robot cells merged within their region, symmetric images
/// merged, and both.
fn check_classes(rows: usize, cols: usize) {
    let c = run(rows, cols, 1, false);
    let n = rows * cols;
    let index = |p: Pos| p.row * cols + p.col;
    let sym: Vec<Box<dyn Fn(usize) -> usize>> = {
        let (r, cc) = (rows, cols);
        let mut v: Vec<Box<dyn Fn(usize) -> usize>> = vec![
            Box::new(|i| i),
            Box::new(move |i| n - 1 - i),
            Box::new(move |i| (r - 1 - i / cc) * cc + i % cc),
            Box::new(move |i| (i / cc) * cc + cc - 1 - i % cc),
        ];
        if rows == cols {
            v.push(Box::new(move |i| (i % cc) * cc + i / cc));
            v.push(Box::new(move |i| (cc - 1 - i % cc) * cc + (r - 1 - i / cc)));
            v.push(Box::new(move |i| (i % cc) * cc + (r - 1 - i / cc)));
            v.push(Box::new(move |i| (cc - 1 - i % cc) * cc + i / cc));
        }
        v
    };
    let mut robot_region = BTreeSet::new();
    let mut symmetry = BTreeSet::new();
    let mut both = BTreeSet::new();
    for b in boards(rows, cols) {
        let blocks: Vec<usize> = (0..n).filter(|&i| b.has_block(b.pos(i))).collect();
        let walk = floe::games::pushpush::validate::walkable(&b);
        let region: Vec<usize> = (0..n).filter(|&i| walk[i]).collect();
        let (r, t) = (index(b.robot()), index(b.target()));
        let image = |g: &dyn Fn(usize) -> usize, cells: &[usize]| {
            let mut v: Vec<usize> = cells.iter().map(|&i| g(i)).collect();
            v.sort();
            v
        };
        robot_region.insert((blocks.clone(), region.clone(), t));
        symmetry.insert(
            sym.iter()
                .map(|g| (image(g, &blocks), g(r), g(t)))
                .min()
                .unwrap(),
        );
        both.insert(
            sym.iter()
                .map(|g| (image(g, &blocks), image(g, &region), g(t)))
                .min()
                .unwrap(),
        );
    }
    assert_eq!(c.classes.robot_region, robot_region.len() as u64);
    assert_eq!(c.classes.symmetry, symmetry.len() as u64);
    assert_eq!(c.classes.both, both.len() as u64);
}

#[test]
fn classes_by_listing() {
    check_classes(3, 3);
    check_classes(2, 3);
}

#[test]
fn board_counts_3x3() {
    let c = run(3, 3, 1, false);
    assert_eq!(c.boards, 18_432);
    let want = [72, 576, 2016, 4032, 5040, 4032, 2016, 576, 72];
    for (row, w) in c.by_blocks.iter().zip(want) {
        assert_eq!(row.solvable + row.unsolvable, w);
    }
}

#[test]
fn difficulty_in_batches_of_targets_equals_one_pass() {
    let one = run(3, 3, 1, true);
    let mut o = CensusOptions::new(3, 3);
    o.difficulty = true;
    // room for the largest layer's fixed tables and two targets' counts per position: five
    // passes there (the layers are run one at a time, the budget bounds the largest)
    let b = floe::bits::Binomials::new(9, 9);
    let positions = layer_positions(&o).unwrap().unwrap();
    o.max_bytes = (0..9)
        .map(|k| (b.get(9, k) + 1) * 4 + positions[k] * (12 + 24) + positions[k] * 4 * 2)
        .max()
        .unwrap();
    let CensusOutcome::Done(batched) = census(&o).unwrap() else {
        panic!("limit")
    };
    assert_eq!(batched.table_bytes, o.max_bytes);
    let (a, b) = (
        one.difficulty.as_ref().unwrap(),
        batched.difficulty.as_ref().unwrap(),
    );
    assert_eq!(a.by_pushes, b.by_pushes);
    assert_eq!(a.by_blocks, b.by_blocks);
    assert_eq!(batched.by_pushes, one.by_pushes);
    assert_eq!(batched.hardest.count, one.hardest.count);
}

#[test]
fn census_sizes_whose_cell_count_wraps_are_refused() {
    // 2^63 + 1 rows of 2 columns: the product wraps to 2 cells in plain arithmetic, which
    // would run a census of the wrong size for ever
    let rows = (1usize << 63) + 1;
    let Err(e) = census(&CensusOptions::new(rows, 2)) else {
        panic!("a census of {rows}×2 was accepted");
    };
    let e = e.to_string();
    assert!(e.contains("too many cells"), "{e}");
}

/// One layer of the 5×6 census (docs/pushpush.md), the boards with 7 blocks, as the whole
/// run found it: a slice of the new figure that the default suite can afford (3 s).
#[test]
fn census_5x6_layer_of_7_blocks() {
    let o = CensusOptions::new(5, 6);
    let LayerOutcome::Done(l) = census_layer(&o, 7).unwrap() else {
        panic!("a limit stopped the layer");
    };
    assert_eq!(l.positions, 2_928_912);
    assert_eq!(
        l.by_pushes,
        [
            960_417_304,
            261_151_298,
            19_345_218,
            817_114,
            38_302,
            2_476,
            4
        ]
    );
    assert_eq!(l.unsolvable, 116_106_884);
    assert_eq!((l.robot_region, l.both_fixed), (87_307_540, 87_328_160));
    assert_eq!((l.hardest.pushes, l.hardest.count), (6, 4));
    // every board with 7 blocks: the robot on one of 30 cells, the target on one of the
    // other 29 (under a block or not), the blocks on 7 of those 29
    let boards: u64 = l.by_pushes.iter().sum::<u64>() + l.unsolvable;
    assert_eq!(boards, 30 * 29 * binomial(29, 7));
}

/// The count of every layer's positions (the memory check before a census, the check of a
/// resumed work directory) keeps the census's time limit: on 5×6 it is a minute of work, and
/// a run out of time stops at once instead of counting first.
#[test]
fn the_layers_count_stops_at_the_census_time_limit() {
    let mut o = CensusOptions::new(5, 6);
    o.began = Some(std::time::Instant::now());
    o.limits = floe::search::Limits::none().timeout(std::time::Duration::ZERO);
    let t = std::time::Instant::now();
    assert_eq!(
        layer_positions(&o).unwrap(),
        Err(floe::search::LimitKind::Timeout)
    );
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        t.elapsed()
    );
    let mut small = CensusOptions::new(3, 3);
    small.limits = floe::search::Limits::none().timeout(std::time::Duration::from_secs(600));
    assert_eq!(layer_positions(&small).unwrap().unwrap().len(), 9);
}

/// The published 5×6 census checked without re-running it (docs/cluster.md, "What was
/// verified"): its positions per layer counted again from the block sets alone (one pass
/// over the 2^30 block sets, a minute on two cores), each layer between C(30, k) and
/// C(30, k) · (30 − k) positions; its boards per layer n · (n − 1) · C(n − 1, k), adding up
/// to 30 · 29 · 2^29; and its table of boards by fewest pushes adding up to the same.
#[test]
#[ignore = "one pass over the 2^30 block sets of 5×6: about a minute on two cores"]
fn census_5x6_published_figures_add_up() {
    let published: [u64; 30] = [
        1,
        30,
        439,
        4_194,
        29_539,
        164_280,
        753_655,
        2_928_912,
        9_763_435,
        27_993_812,
        68_956_169,
        145_786_440,
        264_706_354,
        413_530_170,
        557_043_915,
        648_187_056,
        652_195_021,
        567_393_076,
        426_206_283,
        275_634_466,
        152_760_142,
        72_062_242,
        28_662_152,
        9_486_880,
        2_565_875,
        552_526,
        91_118,
        10_808,
        821,
        30,
    ];
    let counted = layer_positions(&CensusOptions::new(5, 6)).unwrap().unwrap();
    assert_eq!(counted, published);
    assert_eq!(published.iter().sum::<u64>(), 4_327_469_841);
    for (k, &p) in published.iter().enumerate() {
        let sets = binomial(30, k as u64);
        assert!(sets <= p && p <= sets * (30 - k as u64), "layer {k}");
    }
    let boards: u64 = (0..30)
        .map(|k| floe::games::pushpush::census::boards_with(30, k))
        .sum();
    assert_eq!(boards, 30 * 29 * (1 << 29));
    assert_eq!(boards, 467_077_693_440);
    let by_pushes: [u64; 16] = [
        115_038_676_836,
        95_785_099_502,
        34_608_422_272,
        10_849_372_792,
        3_250_946_202,
        899_254_686,
        267_150_804,
        80_607_908,
        22_550_168,
        5_808_768,
        1_521_986,
        372_744,
        79_178,
        11_834,
        934,
        16,
    ];
    assert_eq!(by_pushes.iter().sum::<u64>() + 206_267_816_810, boards);
}

/// The whole 5×6 census (docs/pushpush.md): hours on two cores and 8 GiB, so not in the
/// default suite (`cargo test --release --test pushpush -- --ignored census_5x6_whole`).
#[test]
#[ignore]
fn census_5x6_whole() {
    let mut o = CensusOptions::new(5, 6);
    o.max_bytes = 12 << 30;
    let CensusOutcome::Done(c) = census(&o).unwrap() else {
        panic!("a limit stopped the census");
    };
    assert_eq!(c.boards, 467_077_693_440);
    assert_eq!(c.unsolvable, 206_267_816_810);
    assert_eq!(c.positions, 4_327_469_841);
    assert_eq!(
        (c.hardest.pushes, c.hardest.count, c.hardest.classes),
        (15, 16, 4)
    );
    assert_eq!(c.by_pushes.last(), Some(&16));
}
