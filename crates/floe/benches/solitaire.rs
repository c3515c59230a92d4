//! The solitaire solvers: exact searches over batches of generated challenges (throughput in
//! states stored per second), the largest configurations of the paper, and random playouts.
//!
//! Run: `cargo bench -p floe --bench solitaire`. Figures are recorded in BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use floe::analysis::solitaire::challenge;
use floe::games::solitaire::Challenge;
use floe::generate::{Setup, Size};
use floe::search::playout::GiveUp;
use floe::search::Limits;
use rand::SeedableRng;
use std::hint::black_box;
use std::time::Duration;

/// BoxOff with `rows` × `cols` tiles of `colours` colours.
fn boxoff(rows: usize, cols: usize, colours: usize) -> Size {
    Size::boxoff(rows, cols, colours)
}

/// Challenges 0..n of the run with seed 1.
fn batch(size: Size, setup: Setup, n: u64) -> Vec<Challenge> {
    (0..n)
        .map(|i| challenge(size, setup, 1, i).unwrap())
        .collect()
}

/// States stored by `algorithm` over the batch.
fn states(cs: &[Challenge], algorithm: Option<&str>) -> u64 {
    cs.iter()
        .map(|c| c.solve(algorithm, &Limits::none()).unwrap().states)
        .sum()
}

/// The name of `size` and `setup` in benchmark names: `boxoff 4x6x4 shuffled`.
fn label(size: Size, setup: Setup) -> String {
    let size = match size {
        Size::BoxOff {
            rows,
            cols,
            colours,
        } => format!("boxoff {rows}x{cols}x{colours}"),
        Size::Pretzel { suits, ranks } => format!("pretzel {suits}x{ranks}"),
        Size::Fujisan => "fujisan".to_string(),
    };
    format!("{size} {setup}")
}

fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("exact");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    let pretzel = |ranks| Size::Pretzel { suits: 4, ranks };
    // the size, setup and number of challenges, the algorithm (None: the game's default) and
    // the name of the algorithm that runs
    let cases: [(Size, Setup, u64, Option<&str>, &str); 9] = [
        (boxoff(4, 6, 4), Setup::Shuffled, 100, None, "dfs"),
        (boxoff(4, 6, 4), Setup::Shuffled, 100, Some("bfs"), "bfs"),
        (boxoff(4, 6, 4), Setup::LTiles, 100, None, "dfs"),
        (boxoff(6, 6, 6), Setup::LTiles, 20, None, "dfs"),
        (pretzel(4), Setup::Shuffled, 100, None, "bfs"),
        (pretzel(9), Setup::Shuffled, 20, None, "bfs"),
        (pretzel(9), Setup::Sequential, 20, None, "bfs"),
        (Size::Fujisan, Setup::Shuffled, 100, None, "astar"),
        (Size::Fujisan, Setup::Shuffled, 100, Some("bfs"), "bfs"),
    ];
    for (size, setup, n, algorithm, runs) in cases {
        let cs = batch(size, setup, n);
        g.throughput(Throughput::Elements(states(&cs, algorithm)));
        let name = format!("{}, {n} challenges, {runs}", label(size, setup));
        g.bench_function(name, |b| {
            b.iter(|| {
                for c in &cs {
                    black_box(black_box(c).solve(algorithm, &Limits::none()).unwrap());
                }
            })
        });
    }
    g.finish();
}

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("random playouts");
    for (size, setup) in [
        (boxoff(6, 6, 6), Setup::LTiles),
        (Size::Pretzel { suits: 4, ranks: 9 }, Setup::Banded),
        (Size::Fujisan, Setup::Dominoes),
    ] {
        let cs = batch(size, setup, 100);
        g.throughput(Throughput::Elements(100));
        g.bench_function(format!("{}, 100 playouts", label(size, setup)), |b| {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
            b.iter(|| {
                for c in &cs {
                    black_box(c.random_game(GiveUp::Revisit, &mut rng));
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, exact, playouts);
criterion_main!(benches);
