//! Hot paths: state-space enumeration, BFS and least-difficulty solving, reach tables.
//!
//! Run: `cargo bench -p floe --bench search`. Figures are recorded in BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use floe::analysis::ice::reach::reach_empty;
use floe::games::ice::{self, Level, WalkRule};
use floe::search::Limits;
use std::hint::black_box;
use std::time::Duration;

#[path = "../tests/common/mod.rs"]
mod common;
use common::zelda;

fn enumeration(c: &mut Criterion) {
    let mut g = c.benchmark_group("enumerate");
    for (rows, cols, k, states) in [(7, 7, 4, 95_685u64), (6, 6, 5, 284_684)] {
        let level = Level::empty_board(rows, cols, k).unwrap();
        g.throughput(Throughput::Elements(states));
        g.bench_function(format!("empty {rows}x{cols} {k} blocks"), |b| {
            b.iter(|| {
                let e = ice::space(black_box(&level), WalkRule::Free, &Limits::none()).unwrap();
                assert_eq!(e.states, states);
            })
        });
    }
    let level = Level::empty_board(5, 5, 3).unwrap();
    g.throughput(Throughput::Elements(1_242));
    g.bench_function("empty 5x5 3 blocks, walk rule", |b| {
        b.iter(|| ice::space(black_box(&level), WalkRule::Walk, &Limits::none()).unwrap())
    });
    g.finish();
}

fn solving(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    for (name, algorithm) in [
        ("OOSSAS", "bfs"),
        ("OOSSAS", "difficulty"),
        ("TPIBC3", "bfs"),
        ("TPIBC3", "difficulty"),
        ("MCTOD", "bfs"),
        ("MCTOD", "astar"),
        ("MCTOD", "difficulty"),
    ] {
        let level = zelda(name);
        let limits = Limits::none();
        g.bench_function(format!("{name} {algorithm}"), |b| {
            b.iter_batched(
                || limits.clone(),
                |l| ice::solve(black_box(&level), WalkRule::Free, algorithm, 5, &l).unwrap(),
                BatchSize::SmallInput,
            )
        });
    }
    g.finish();
}

/// The successors of 4,096 neighbouring positions of 8×8 with 7 blocks (the enumeration's
/// inner loop without its probes): with their states, and as ranks alone.
fn successors(c: &mut Criterion) {
    use floe::games::ice::{Free, IcePuzzle};
    use floe::search::Puzzle;
    let level = Level::empty_board(8, 8, 7).unwrap();
    let p = IcePuzzle::<u64, Free>::new(&level).unwrap();
    let ranks: Vec<u64> = (300_000_000..300_000_000 + 4_096).collect();
    let mut g = c.benchmark_group("successors");
    g.throughput(Throughput::Elements(ranks.len() as u64));
    g.bench_function("8x8 7 blocks, with states", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            p.for_each_next_of_ranks(black_box(&ranks), |r, s| {
                sum = sum.wrapping_add(r ^ s.blocks)
            });
            sum
        })
    });
    let mut out = Vec::new();
    g.bench_function("8x8 7 blocks, ranks", |b| {
        b.iter(|| {
            out.clear();
            p.next_ranks_of_ranks(black_box(&ranks), &mut out);
            out.iter().fold(0u64, |s, &r| s.wrapping_add(r))
        })
    });
    g.finish();
}

fn reach(c: &mut Criterion) {
    let mut g = c.benchmark_group("reach");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("empty 10x10 4 blocks", |b| {
        b.iter(|| reach_empty(10, 10, 4, &Limits::none()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, enumeration, successors, solving, reach);
criterion_main!(benches);
