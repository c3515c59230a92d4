//! The reference figures of `spec/ice-blocks.md`, asserted on the bundled levels.

use floe::game::{SolveReport, Status};
use floe::games::ice::{self, Level, WalkRule};
use floe::search::Limits;

mod common;
use common::zelda;

/// (puzzle, fewest pushes, reachable states (None: not in the spec), least difficulty at
/// factor 5 as (difficulty, pushes, changes))
type Figure = (&'static str, u64, Option<u64>, (u64, u64, u64));
const FIGURES: &[Figure] = &[
    ("OOTIC", 7, Some(22), (7, 7, 0)),
    ("OOTGCIR", 3, Some(15), (3, 3, 0)),
    ("OOSSAS", 9, Some(5_477), (24, 9, 3)),
    ("TPSPR1", 5, Some(173), (10, 5, 1)),
    ("TPSPR2", 8, Some(1_801), (18, 8, 2)),
    ("TPSPR3", 12, Some(1_801), (27, 12, 3)),
    ("TPIBC1", 7, Some(334), (18, 8, 2)),
    ("TPIBC2", 10, Some(411), (29, 14, 3)),
    ("TPIBC3", 11, Some(1_242), (28, 13, 3)),
    ("STST1", 5, Some(14), (5, 5, 0)),
    ("STST2", 7, Some(21), (7, 7, 0)),
    ("STST3", 6, Some(16), (6, 6, 0)),
    ("STST4", 6, Some(20), (6, 6, 0)),
    ("MCTOD", 5, None, (5, 5, 0)),
];

fn solve(level: &Level, algorithm: &str) -> SolveReport {
    let r = ice::solve(level, WalkRule::Free, algorithm, 5, &Limits::none()).unwrap();
    assert_eq!(r.status, Status::Solved);
    r
}

#[test]
fn zelda_fewest_pushes_by_every_algorithm() {
    for &(name, pushes, _, _) in FIGURES {
        let level = zelda(name);
        for algo in ["bfs", "astar", "idastar"] {
            let r = solve(&level, algo);
            assert_eq!(r.pushes, Some(pushes), "{name} by {algo}");
        }
    }
}

#[test]
fn zelda_least_difficulty_at_factor_5() {
    for &(name, _, _, (difficulty, pushes, changes)) in FIGURES {
        let r = solve(&zelda(name), "difficulty");
        assert_eq!(
            (
                r.difficulty_u64(),
                r.pushes,
                r.difficulty_part("block_changes")
            ),
            (Some(difficulty), Some(pushes), Some(changes)),
            "{name}"
        );
    }
}

#[test]
fn zelda_state_counts() {
    for &(name, _, states, _) in FIGURES {
        if let Some(states) = states {
            let e = ice::space(&zelda(name), WalkRule::Free, &Limits::none()).unwrap();
            assert_eq!(e.states, states, "{name}");
            assert_eq!(e.limit, None);
            assert_eq!(e.histogram.iter().sum::<u64>(), states);
        }
    }
}

fn empty_states(rows: usize, cols: usize, k: usize) -> u64 {
    let level = Level::empty_board(rows, cols, k).unwrap();
    ice::space(&level, WalkRule::Free, &Limits::none())
        .unwrap()
        .states
}

#[test]
fn two_blocks_follow_kluivers_formula() {
    // A(2, m, n) = 12(m + n) − 50: the thesis claims it for m + n > 4; it holds when both
    // sides are at least 3.
    for (m, n) in [
        (3, 3),
        (3, 4),
        (4, 4),
        (3, 7),
        (5, 5),
        (6, 9),
        (8, 8),
        (10, 12),
    ] {
        assert_eq!(empty_states(m, n, 2), 12 * (m + n) as u64 - 50, "{m}x{n}");
        assert_eq!(empty_states(n, m, 2), 12 * (m + n) as u64 - 50, "{n}x{m}");
    }
    // Boards two rows high have 4 more: 12(2 + n) − 46 (e.g. 14 on 2×3, not 10).
    for n in 3..=9 {
        assert_eq!(empty_states(2, n, 2), 12 * (2 + n) as u64 - 46, "2x{n}");
    }
    assert_eq!(empty_states(2, 2, 2), 6);
}

#[test]
fn three_block_counts() {
    for (m, n, want) in [
        (4, 4, 428),
        (4, 5, 744),
        (5, 5, 1_242),
        (6, 6, 2_676),
        (7, 7, 4_874),
    ] {
        assert_eq!(empty_states(m, n, 3), want, "{m}x{n}");
    }
}

#[test]
fn larger_empty_boards_from_the_issue() {
    assert_eq!(empty_states(7, 7, 4), 95_685);
    assert_eq!(empty_states(6, 6, 5), 284_684);
}

/// The 10×10 room of docs/ice-blocks.md with up to 4 blocks (the 2- and 3-block counts are
/// those of Kluiver's closed forms).
#[test]
fn the_ten_by_ten_room() {
    for (k, states) in [(1, 4), (2, 190), (3, 17_492), (4, 795_772)] {
        assert_eq!(empty_states(10, 10, k), states, "10×10 with {k}");
    }
}

/// The cells of docs/ice-blocks.md beyond Kluiver's table, in one process: seconds to tens
/// of minutes on two cores and up to 1.6 GiB, so not in the default suite (`cargo test
/// --release -p floe --test reference -- --ignored cells_beyond_the_table`).
#[test]
#[ignore]
fn cells_beyond_the_table_in_one_process() {
    for (rows, cols, k, states, depth) in [
        (10, 10, 5, 23_775_988, 47),
        (10, 10, 6, 521_954_444, 53),
        (9, 9, 7, 2_278_811_910, 55),
        (8, 8, 8, 3_710_340_088, 58),
    ] {
        let level = Level::empty_board(rows, cols, k).unwrap();
        let e = ice::space(&level, WalkRule::Free, &Limits::none()).unwrap();
        assert_eq!(e.limit, None);
        assert_eq!(
            (e.states, e.histogram.len() as u64 - 1),
            (states, depth),
            "{rows}×{cols} with {k}"
        );
    }
}

/// 9×9 with 8 blocks (docs/ice-blocks.md): 32,164,253,550 possible placements, two bits a
/// rank (7.9 GB resident at most; 11.8 GB with the three bit arrays before) and some 5,400
/// CPU seconds, so only on a machine with 12 GB free (`cargo test --release -p floe --test reference -- --ignored
/// nine_by_nine_with_eight_blocks`).
#[test]
#[ignore]
fn nine_by_nine_with_eight_blocks_in_one_process() {
    let level = Level::empty_board(9, 9, 8).unwrap();
    let e = ice::space(&level, WalkRule::Free, &Limits::none()).unwrap();
    assert_eq!(e.limit, None);
    assert_eq!(e.states, 24_310_801_893);
    assert_eq!(e.histogram.len() - 1, 69);
    let widest = (0..e.histogram.len())
        .max_by_key(|&d| e.histogram[d])
        .unwrap();
    assert_eq!((widest, e.histogram[widest]), (29, 2_144_987_121));
}

#[test]
fn walk_rule_equals_free_on_empty_boards_with_the_player_outside() {
    for (m, n, k) in [(4, 4, 3), (5, 5, 3), (4, 6, 4)] {
        let level = Level::empty_board(m, n, k).unwrap();
        let free = ice::space(&level, WalkRule::Free, &Limits::none()).unwrap();
        let walk = ice::space(&level, WalkRule::Walk, &Limits::none()).unwrap();
        assert_eq!(free.states, walk.states, "{m}x{n} with {k}");
        assert_eq!(free.histogram, walk.histogram);
    }
}

/// The time the estimate gives `floe space` on 2 threads, as CPU seconds, is at least the CPU
/// time measured (user and system, `/usr/bin/time -f "%U %S"`, on one day; BENCHMARKS.md,
/// "The estimates' rates measured again") and at most half as long again as the run would
/// take at its pace if every possible position were reachable (the estimate counts them
/// all).
#[test]
fn the_estimate_bounds_the_measured_times() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for (rows, cols, k, reachable, cpu) in [
        (10, 10, 5, 23_775_988u64, 2.53),
        (8, 8, 7, 469_048_908, 43.25),
        (10, 10, 6, 521_954_444, 61.27),
        (9, 9, 7, 2_278_811_910, 254.47),
        (8, 8, 8, 3_710_340_088, 372.16),
        (9, 9, 8, 24_310_801_893, 2_971.97),
    ] {
        let level = floe::ops::Level::new(ice::Ice, Level::empty_board(rows, cols, k).unwrap(), "");
        let e = pool.install(|| level.estimate()).unwrap();
        assert_eq!(e.cores, 2);
        let estimated = e.seconds * e.cores as f64;
        let cpu_over_possible = cpu * e.positions as f64 / reachable as f64;
        assert!(
            estimated >= cpu && estimated <= 1.5 * cpu_over_possible,
            "{rows}×{cols} with {k}: estimated {estimated:.1} CPU s, measured {cpu} \
             ({cpu_over_possible:.1} at that pace over every possible position)"
        );
    }
}

/// The estimate made before `floe space` (on 2 threads, as measured) is at least the peak
/// memory measured of the whole process (`/usr/bin/time -f "%M KB"`, BENCHMARKS.md,
/// "Estimates against measured peaks", "Two bits a rank") and at most twice it, or 20 MiB
/// where the run is hardly more than the process (9 to 10 MiB measured, 16 MiB estimated).
#[test]
fn the_estimate_bounds_the_measured_peaks() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for (rows, cols, k, peak_kb) in [
        (6, 6, 5, 9_540u64),
        (7, 7, 6, 12_696),
        (8, 8, 6, 27_800),
        (8, 8, 7, 164_420),
        (10, 10, 5, 27_572),
        (10, 10, 6, 301_472),
        (9, 9, 7, 859_484),
        (8, 8, 8, 1_091_448),
        (9, 9, 8, 7_868_900),
    ] {
        let level = floe::ops::Level::new(ice::Ice, Level::empty_board(rows, cols, k).unwrap(), "");
        let e = pool.install(|| level.estimate()).unwrap();
        let peak = peak_kb << 10;
        assert!(
            e.bytes >= peak && e.bytes <= (2 * peak).max(20 << 20),
            "{rows}×{cols} with {k}: estimated {} KB, measured {peak_kb} KB",
            e.bytes >> 10
        );
    }
}
