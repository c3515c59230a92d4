//! The paper's reference figures for the solitaire games (Goadrich and Droscha; spec
//! `solitaire.md`), checked through the library: quoted values as assertions with sampling
//! tolerances, exact values by enumeration. The heavy checks are `#[ignore]`d: run them with
//! `cargo test --release -p floe --test solitaire -- --ignored`.

use floe::analysis::solitaire::{exact_pretzel, run, Config, Metrics};
use floe::generate::{Setup, Size};

fn config(size: Size, setup: Setup, challenges: u64) -> Config {
    Config {
        seed: 3,
        ..Config::new(size, setup, challenges)
    }
}

/// Section V: shuffled (4, 6, 4) boards have 22% pair equality on average, 20% when
/// unsolvable and 26% when solvable; L-Tiles 32% and 34%.
#[test]
fn boxoff_pair_equality() {
    let size = Size::boxoff(4, 6, 4);
    let s = run(&config(size, Setup::Shuffled, 3000), &|_| {}).unwrap();
    let Metrics::BoxOff { pair_equality: p } = &s.metrics else {
        panic!()
    };
    assert!((p.all.mean - 5.0 / 23.0).abs() < 0.005, "{}", p.all.mean);
    assert!(
        (p.unsolvable.mean - 0.20).abs() < 0.01,
        "{}",
        p.unsolvable.mean
    );
    assert!((p.solvable.mean - 0.26).abs() < 0.01, "{}", p.solvable.mean);
    let s = run(&config(size, Setup::LTiles, 3000), &|_| {}).unwrap();
    let Metrics::BoxOff { pair_equality: p } = &s.metrics else {
        panic!()
    };
    assert!(
        (p.unsolvable.mean - 0.32).abs() < 0.015,
        "{}",
        p.unsolvable.mean
    );
    assert!((p.solvable.mean - 0.34).abs() < 0.01, "{}", p.solvable.mean);
}

/// Section IV-B2: the shortest possible Fujisan solution has eight moves.
#[test]
fn fujisan_shortest_solutions_have_eight_moves() {
    for setup in [Setup::Shuffled, Setup::Engraved, Setup::Dominoes] {
        let s = run(&config(Size::Fujisan, setup, 600), &|_| {}).unwrap();
        assert_eq!(s.length.min, Some(8), "{setup}");
    }
}

/// Section V: at 3 ranks, Sequential Suits deal a ducking crab in 1 of 6 deals for spades and
/// for diamonds and duelling deuces in 1 of 9; exactly, every deal solved.
#[test]
fn pretzel_four_three_exact() {
    let e = exact_pretzel(4, 3, Setup::Sequential).unwrap();
    assert_eq!((e.deals, e.blockaded, e.solvable), (1296, 496, 524));
    let e = exact_pretzel(4, 3, Setup::Banded).unwrap();
    assert_eq!((e.deals, e.blockaded, e.solvable), (1296, 0, 992));
    let e = exact_pretzel(4, 2, Setup::Shuffled).unwrap();
    assert_eq!((e.deals, e.solvable, e.blockaded), (1680, 1457, 223));
}

/// The exact (4, 3) Shuffled fraction (every deal, by the suit symmetry): 11,800,913 of
/// 19,958,400 (docs/solitaire.md). About 9 s on 2 cores.
#[test]
#[ignore]
fn pretzel_four_three_shuffled_exact() {
    let e = exact_pretzel(4, 3, Setup::Shuffled).unwrap();
    assert_eq!(
        (e.deals, e.solved_classes, e.solvable),
        (19_958_400, 834_612, 11_800_913)
    );
    assert_eq!(e.blockaded, 3_249_096);
}

/// (4, 4) Sequential and Banded Suits deal the same suit pattern: the same exact fraction,
/// 273,552 of 331,776. About 25 s.
#[test]
#[ignore]
fn pretzel_four_four_exact() {
    let a = exact_pretzel(4, 4, Setup::Sequential).unwrap();
    let b = exact_pretzel(4, 4, Setup::Banded).unwrap();
    assert_eq!((a.deals, a.solvable), (331_776, 273_552));
    assert_eq!(a.solvable, b.solvable);
}
