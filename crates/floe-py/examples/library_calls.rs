//! The library calls behind `floe.solve` on OOSSAS, `floe.census(4, 4)` and
//! `floe.reach(10, 10, 4)`, timed in Rust alone: what the Python module's overhead is
//! measured against (`crates/floe-py/examples/overhead.py`, BENCHMARKS.md). Each call does
//! what the module does for it, JSON text included; prints the median of several runs in
//! milliseconds. Run from the repository's root:
//!
//! ```sh
//! cargo run --release -p floe-py --example library_calls
//! ```

use floe::analysis::ice::reach::{reach, ReachReport};
use floe::games::ice::{self, Ice};
use floe::games::pushpush::census::{
    census, hardest_solutions, CensusOptions, CensusOutcome, Report,
};
use floe::ops::{Level, Request, SolveOptions};
use floe::search::Limits;
use std::time::Instant;

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[runs / 2]
}

fn limits() -> Limits {
    Limits {
        max_memory: floe::mem::default_budget(),
        ..Limits::default()
    }
}

fn main() -> Result<(), floe::Error> {
    let solve = median_ms(101, || {
        let r = Request::from_path("levels/zelda.txt")
            .level(Some("OOSSAS"))
            .resolve()
            .expect("OOSSAS");
        let o = SolveOptions {
            seed: 1,
            limits: limits(),
            ..SolveOptions::default()
        };
        let report = r.level.solve(&o).expect("solved");
        assert_eq!(report.pushes, Some(9));
        let _ = serde_json::to_string(&report).expect("JSON");
    });
    let census_ms = median_ms(11, || {
        let mut o = CensusOptions::new(4, 4);
        o.limits = limits();
        let CensusOutcome::Done(c) = census(&o).expect("census") else {
            panic!("no limits")
        };
        let solutions = hardest_solutions(&c).expect("solutions");
        let _ = serde_json::to_string(&Report::new(&c, &solutions)).expect("JSON");
    });
    let reach_ms = median_ms(11, || {
        let board = ice::Level::empty_board(10, 10, 4).expect("board");
        let level = Level::new(Ice, board.clone(), "");
        let r = reach(&board, ice::WalkRule::Free, &limits()).expect("reach");
        let report = ReachReport::new(&r, None, level.params(), 4, 0.0);
        assert_eq!(report.max, Some(23));
        let _ = serde_json::to_string(&report).expect("JSON");
    });
    println!("solve OOSSAS\t{solve:.3}");
    println!("census 4x4\t{census_ms:.3}");
    println!("reach 10x10x4\t{reach_ms:.3}");
    Ok(())
}
