//! Tests of the retrograde generator.

use super::*;
use crate::games::ice::format::{parse_floe, write_floe};

fn params(rows: usize, cols: usize, t: usize, b: usize, p: usize) -> GenParams {
    GenParams {
        rows,
        cols,
        targets: t,
        max_blocks: b,
        pushes: p,
        walls: false,
    }
}

#[test]
fn backward_push_is_the_inverse_of_a_forward_push() {
    // random positions; every backward move the generator can make (stopper included),
    // followed by the forward push through the independent validator, gives back the
    // position before the backward move, with every other block in place
    let p = params(5, 6, 2, 5, 0);
    let mut tried = 0;
    for i in 0..200 {
        let mut rng = candidate_rng(7, i);
        let mut pp = p.clone();
        pp.pushes = rng.random_range(0..6);
        let g = retrograde(&pp, &mut rng).unwrap();
        let n = g.level.rows() * g.level.cols();
        for x in g.level.blocks().collect::<Vec<_>>() {
            for d in Dir::ALL {
                let mut b = Board {
                    rows: g.level.rows(),
                    cols: g.level.cols(),
                    level: g.level.clone(),
                    banned: vec![None; n],
                    path: vec![false; n],
                    pusher: vec![false; n],
                    blocks: g.level.block_count(),
                };
                let Some(y) = try_back(&mut b, &p, x, d, &mut rng).unwrap() else {
                    continue;
                };
                tried += 1;
                let before: Vec<Pos> = b.level.blocks().collect();
                let r = replay(&b.level, WalkRule::Free, &[Push::new(y, d.opposite())]).unwrap();
                assert_eq!(r.steps[0].to, x, "push from ({y}) towards {}", d.opposite());
                let mut after: Vec<Pos> = before.iter().filter(|&&q| q != y).copied().collect();
                after.push(x);
                after.sort();
                let mut want: Vec<Pos> = g.level.blocks().collect();
                // a new stopper block stays where it was put
                want.extend(
                    before
                        .iter()
                        .filter(|q| !g.level.has_block(**q) && **q != y),
                );
                want.sort();
                assert_eq!(after, want);
            }
        }
    }
    assert!(tried > 500, "only {tried} backward moves tried");
}

#[test]
fn stoppers_respect_budget_and_bookkeeping() {
    for i in 0..200 {
        let p = params(6, 6, 2, 3, 8);
        let g = retrograde(&p, &mut candidate_rng(11, i)).unwrap();
        assert!(g.level.block_count() <= 3);
        assert_eq!(g.level.target_count(), 2);
        let cols = g.level.cols();
        for q in g.level.positions() {
            let c = g.level.cell(q);
            assert_ne!(c, Cell::Wall, "no walls unless asked");
            if c == Cell::Floor {
                assert!(!g.path[q.row * cols + q.col], "floor on a path at ({q})");
            }
        }
        // every push of the intended solution stops where it should: the replay agrees
        let r = replay(&g.level, WalkRule::Free, &g.intended).unwrap();
        assert!(r.solved);
    }
    // walls appear when allowed
    let mut seen = false;
    for i in 0..200 {
        let mut p = params(6, 6, 1, 1, 8);
        p.walls = true;
        let g = retrograde(&p, &mut candidate_rng(3, i)).unwrap();
        seen |= g.level.positions().any(|q| g.level.cell(q) == Cell::Wall);
        assert!(
            replay(&g.level, WalkRule::Free, &g.intended)
                .unwrap()
                .solved
        );
    }
    assert!(seen);
}

#[test]
fn a_stopper_block_moves_across_first() {
    // 1×n board: a stopper block placed on the row can never move along it, so on a
    // single row no second push is possible after the first
    let g = retrograde(&params(1, 6, 1, 3, 5), &mut candidate_rng(1, 0)).unwrap();
    assert!(g.intended.len() <= 1);
}

#[test]
fn repair_keeps_levels_solvable_and_never_lengthens_past_intended() {
    let limits = Limits::none().max_states(1_000_000);
    for i in 0..60 {
        let mut rng = candidate_rng(5, i);
        let mut g = retrograde(&params(6, 6, 2, 4, 8), &mut rng).unwrap();
        let (before, after) = repair(&mut g, &limits, &mut rng).unwrap();
        let (b, a) = (before.unwrap(), after.unwrap());
        assert!(b <= a, "before {b} after {a}");
        assert!(
            a <= g.intended.len() as u64,
            "before {b} after {a} intended {}",
            g.intended.len()
        );
        assert!(
            replay(&g.level, WalkRule::Free, &g.intended)
                .unwrap()
                .solved
        );
    }
}

#[test]
fn counting_optimal_solutions() {
    // two independent one-push blocks: 2 sequences, unique up to order
    let l = parse_floe("$.\n==\n$.\n", "t").unwrap().remove(0);
    let o = optimal_solutions(&l, WalkRule::Free, &Limits::none())
        .unwrap()
        .unwrap();
    assert_eq!((o.pushes, o.sequences, o.up_to_order), (2, 2, 1));
    // one target, two blocks that can reach it in one push each: not unique
    let l = parse_floe("$.$\n", "t").unwrap().remove(0);
    let o = optimal_solutions(&l, WalkRule::Free, &Limits::none())
        .unwrap()
        .unwrap();
    assert_eq!((o.pushes, o.sequences, o.up_to_order), (1, 2, 2));
}

#[test]
fn same_seed_same_levels() {
    let req = Request {
        params: params(5, 5, 1, 3, 0),
        min_pushes: 3,
        max_pushes: Some(5),
        min_difficulty: None,
        factor: 5,
        unique: false,
        count: 3,
        seed: 42,
        deadline: None,
        stop: None,
        progress: None,
        max_states: 1_000_000,
    };
    let a = generate(&req).unwrap();
    let b = generate(&req).unwrap();
    let text =
        |x: &Batch| write_floe(&x.levels.iter().map(|e| e.level.clone()).collect::<Vec<_>>());
    assert_eq!(a.levels.len(), 3);
    assert_eq!(text(&a), text(&b));
    for e in &a.levels {
        assert!((3..=5).contains(&e.verified.pushes));
        assert!(e.verified.pushes <= e.intended);
    }
    // one thread gives the same file
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let c = pool.install(|| generate(&req)).unwrap();
    assert_eq!(text(&a), text(&c));
}

#[test]
fn the_report_keeps_the_contracts_keys_in_alphabetical_order() {
    let req = Request {
        params: params(4, 4, 1, 3, 0),
        min_pushes: 2,
        max_pushes: Some(4),
        min_difficulty: None,
        factor: 5,
        unique: false,
        count: 2,
        seed: 1,
        deadline: None,
        stop: None,
        progress: None,
        max_states: 1_000_000,
    };
    let batch = generate(&req).unwrap();
    assert_eq!(batch.levels.len(), 2);
    let r = batch.report(2);
    assert!(r.complete && r.count == 2 && r.candidates >= 2);
    assert!(!batch.report(3).complete);
    let json = serde_json::to_string(&r).unwrap();
    // a JSON value orders its keys alphabetically at every depth: the same text, so the
    // report's keys are in that order (the key lists below check which keys there are)
    assert_eq!(json, serde_json::to_value(r).unwrap().to_string());
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&doc), ["candidates", "complete", "count", "levels"]);
    let level = &doc["levels"][0];
    assert_eq!(keys(level), ["candidate", "intended", "level", "verified"]);
    assert_eq!(
        keys(&level["verified"]),
        [
            "difficulty",
            "factor",
            "optimal",
            "pushes",
            "states",
            "unique"
        ]
    );
    let one = std::slice::from_ref(&batch.levels[0].level);
    assert_eq!(level["level"].as_str(), Some(write_floe(one).as_str()));
}

#[test]
fn the_generator_tells_the_levels_made_to_the_end() {
    use crate::request::{Generate, GenerateBudget, Naming};
    use crate::search::Tally;
    use std::sync::{Arc, Mutex};
    let g = Generate {
        rows: Some(5),
        cols: Some(5),
        count: 3,
        ..Generate::default()
    };
    let mut req = g
        .request(&GenerateBudget::default(), None, Naming::Flags)
        .unwrap();
    let quiet = generate(&req).unwrap();
    let heard = Arc::new(Mutex::new(Vec::new()));
    let h = Arc::clone(&heard);
    req.progress = Some(Tally::new(move |d, t| h.lock().unwrap().push((d, t))));
    let watched = generate(&req).unwrap();
    let h = heard.lock().unwrap().clone();
    assert_eq!(h.last(), Some(&(3, Some(3))));
    assert!(h[..h.len() - 1].iter().all(|&(d, t)| t == Some(3) && d < 3));
    assert_eq!(watched.candidates, quiet.candidates);
    assert_eq!(watched.levels.len(), 3);
}
