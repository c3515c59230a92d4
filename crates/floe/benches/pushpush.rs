//! PushPush hot paths: the census (every board of a size) and solving one board.

use criterion::{criterion_group, criterion_main, Criterion};
use floe::games::pushpush::board::parse;
use floe::games::pushpush::census::{census, CensusOptions, CensusOutcome};
use floe::games::pushpush::level::Level;
use floe::games::pushpush::{difficulty, PushPush, Variant};
use floe::ops::{solve_typed, SolveOptions};
use std::hint::black_box;

fn census_4x4(c: &mut Criterion) {
    let mut g = c.benchmark_group("pushpush census");
    g.sample_size(10);
    for (rows, cols) in [(3, 3), (4, 4)] {
        g.bench_function(format!("{rows}x{cols}"), |b| {
            b.iter(|| match census(&CensusOptions::new(rows, cols)).unwrap() {
                CensusOutcome::Done(c) => black_box(c.unsolvable),
                CensusOutcome::Limit { .. } => unreachable!(),
            })
        });
    }
    g.bench_function("4x4 with difficulty", |b| {
        let mut o = CensusOptions::new(4, 4);
        o.difficulty = true;
        b.iter(|| match census(&o).unwrap() {
            CensusOutcome::Done(c) => black_box(c.unsolvable),
            CensusOutcome::Limit { .. } => unreachable!(),
        })
    });
    g.finish();
}

fn one_board(c: &mut Criterion) {
    let hardest_5x5 = parse("$-$--\n-$-$$\n$.$$@\n-$-$$\n$-$--\n", "bench")
        .unwrap()
        .remove(0);
    let level = Level {
        board: hardest_5x5.clone(),
        variant: Variant::default(),
    };
    let no_difficulty = SolveOptions {
        difficulty: false,
        ..SolveOptions::default()
    };
    let mut g = c.benchmark_group("pushpush board");
    g.bench_function("solve hardest 5x5 (13 pushes)", |b| {
        b.iter(|| {
            black_box(
                solve_typed(PushPush, &level, &no_difficulty)
                    .unwrap()
                    .pushes,
            )
        })
    });
    g.bench_function("difficulty hardest 5x5", |b| {
        b.iter(|| {
            black_box(
                difficulty(&hardest_5x5, Variant::default(), 13)
                    .unwrap()
                    .value,
            )
        })
    });
    g.finish();
}

criterion_group!(benches, census_4x4, one_board);
criterion_main!(benches);
