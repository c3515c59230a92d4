//! Ice Tower hot paths: optimal solving of the qits levels with A* and BFS (pruning on), and
//! the plain exhaustive search it replaces.
//!
//! Run: `cargo bench -p floe --bench icetower`. Figures are recorded in BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion};
use floe::game::{Engine, Task};
use floe::games::icetower::game::Level;
use floe::games::icetower::{with_tower, IceTower};
use floe::grid::Push;
use floe::ops::{solve_typed, SolveOptions};
use floe::search::{self, Limits};
use std::hint::black_box;
use std::time::Duration;

#[path = "../tests/common/mod.rs"]
mod common;
use common::qits;

fn solving(c: &mut Criterion) {
    let mut g = c.benchmark_group("icetower solve");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for (name, algorithm, pushes) in [
        ("w21", "astar", 21),
        ("w21", "bfs", 21),
        ("c99", "astar", 12),
        ("qits001", "astar", 10),
        ("c99-2", "astar", 7),
    ] {
        let l = Level {
            tower: qits(name),
            dynamic: false,
        };
        let o = SolveOptions::default().algorithm(algorithm);
        g.bench_function(format!("{name} {algorithm}"), |b| {
            b.iter(|| {
                let r = solve_typed(IceTower, black_box(&l), &o).unwrap();
                assert_eq!(r.pushes, Some(pushes));
            })
        });
    }
    g.finish();
}

/// Breadth-first search without pruning, for comparison (c99: 2.9 million positions).
fn exhaustive(c: &mut Criterion) {
    struct Plain;
    impl Task<Push> for Plain {
        type Output = Option<u64>;
        fn run<E: Engine<Public = Push>>(self, p: &E) -> Option<u64> {
            search::bfs(p, &Limits::none()).cost
        }
    }
    let mut g = c.benchmark_group("icetower exhaustive");
    g.sample_size(10).measurement_time(Duration::from_secs(30));
    let t = qits("c99");
    g.bench_function("c99 bfs without pruning", |b| {
        b.iter(|| assert_eq!(with_tower(black_box(&t), false, Plain).unwrap(), Some(12)))
    });
    g.finish();
}

criterion_group!(benches, solving, exhaustive);
criterion_main!(benches);
