//! Tests of the solitaire experiments.

use super::exact::{all_orders, layout_from_decks};
use super::*;
use crate::games::solitaire::pretzel::Deal;

fn config(size: Size, setup: Setup, challenges: u64) -> Config {
    Config::new(size, setup, challenges)
}

#[test]
fn runs_are_deterministic_and_thread_independent() {
    let c = config(Size::Pretzel { suits: 4, ranks: 4 }, Setup::Shuffled, 60);
    let a = run_records(&c, &|_| {}).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let b = pool.install(|| run_records(&c, &|_| {}).unwrap());
    assert_eq!(a, b);
    // more challenges extend fewer
    let mut c2 = c.clone();
    c2.challenges = 30;
    assert_eq!(run_records(&c2, &|_| {}).unwrap(), a[..30].to_vec());
}

#[test]
fn summaries_add_up() {
    let c = config(Size::boxoff(4, 6, 4), Setup::LTiles, 50);
    let s = run(&c, &|_| {}).unwrap();
    assert_eq!(s.trials.len(), 10);
    assert!(s.trials.iter().all(|t| t.challenges == 5));
    let mean: f64 = s.trials.iter().map(|t| t.solvable).sum::<f64>() / 10.0;
    assert!((mean - s.solvable).abs() < 1e-12);
    assert_eq!(
        s.length.histogram.values().sum::<u64>(),
        s.lengths.len() as u64
    );
    // every BoxOff (4, 6, 4) solution has 12 moves
    assert!(s.lengths.iter().all(|&l| l == 12));
    assert!(s.random_solvable <= s.solvable);
    match &s.metrics {
        Metrics::BoxOff { pair_equality } => {
            // L-tiles have at least 8 equal adjacent pairs of 38
            assert!(pair_equality.all.mean >= 8.0 / 38.0);
        }
        m => panic!("{m:?}"),
    }
}

#[test]
fn the_random_player_gives_up_on_a_revisit() {
    let horizon = |mut c: Config| {
        c.random_player = GiveUp::Horizon(1000);
        c
    };
    // Fujisan positions repeat: the authors' player gives up on them, and solves a
    // challenge only where the capped player, drawing the same moves, solves it too
    let c = config(Size::Fujisan, Setup::Dominoes, 300);
    let a = run_records(&c, &|_| {}).unwrap();
    let b = run_records(&horizon(c.clone()), &|_| {}).unwrap();
    for (x, y) in a.iter().zip(&b) {
        assert_ne!(x.random_end, End::Horizon);
        assert_ne!(y.random_end, End::Revisit);
        if x.random {
            assert!(y.random && y.random_moves == x.random_moves, "{x:?} {y:?}");
        }
        assert_eq!((x.status, x.length), (y.status, y.length));
    }
    let revisits = a.iter().filter(|r| r.random_end == End::Revisit).count();
    assert!(revisits > 250, "{revisits}");
    let s = summarise(&c, &a, 0.0);
    assert_eq!((s.random_player, s.random_horizon), ("revisit", None));
    let e = &s.random_endings;
    assert_eq!(e.solved + e.stuck + e.revisit + e.horizon, 300);
    assert_eq!(e.solved as f64 / 300.0, s.random_solvable);
    let t = summarise(&horizon(c), &b, 0.0);
    assert_eq!((t.random_player, t.random_horizon), ("horizon", Some(1000)));
    assert!(t.random_solvable > 10.0 * s.random_solvable.max(0.001));
    // BoxOff positions never repeat and these Pretzel games never met one again: the
    // rule changes no game
    for (size, setup) in [
        (Size::boxoff(4, 6, 4), Setup::LTiles),
        (Size::Pretzel { suits: 4, ranks: 5 }, Setup::Shuffled),
    ] {
        let c = config(size, setup, 200);
        let a = run_records(&c, &|_| {}).unwrap();
        let b = run_records(&horizon(c), &|_| {}).unwrap();
        assert_eq!(a, b);
    }
}

#[test]
fn the_first_solution_found_depth_first() {
    // BoxOff: every solution has h·w/2 moves, so the first one a depth-first search finds
    // (the exact solver) has as few moves as breadth-first search finds
    let size = Size::boxoff(4, 6, 4);
    let c = config(size, Setup::LTiles, 40);
    for (i, r) in run_records(&c, &|_| {}).unwrap().iter().enumerate() {
        assert_eq!(r.dfs_length, r.length);
        let Challenge::BoxOff(b) = challenge(size, Setup::LTiles, 1, i as u64).unwrap() else {
            panic!("a BoxOff board")
        };
        let bfs = crate::search::bfs(
            &crate::games::solitaire::boxoff::BoxOff::new(&b),
            &Limits::none(),
        );
        assert_eq!(bfs.outcome.solution().map(|m| m.len() as u32), r.length);
    }
    // Fujisan: never fewer moves than the fewest, usually many more
    let c = config(Size::Fujisan, Setup::Shuffled, 100);
    let records = run_records(&c, &|_| {}).unwrap();
    let mut longer = 0;
    for r in &records {
        assert_eq!(r.dfs_length.is_some(), r.length.is_some());
        if let (Some(d), Some(l)) = (r.dfs_length, r.length) {
            assert!(d >= l);
            longer += usize::from(d > l);
        }
    }
    assert!(longer > 50, "{longer}");
    let s = summarise(&c, &records, 0.0);
    assert!(s.dfs_first_length.mean > s.length.mean);
    assert_eq!(
        s.dfs_first_length.histogram.values().sum::<u64>(),
        s.length.histogram.values().sum::<u64>()
    );
}

#[test]
fn sequential_four_three_blockade_rates() {
    // The paper: a ducking crab in spades in 1 of 6 deals, equally for diamonds (so at
    // least 1 in 3 unsolvable: exactly 1 − (5/6)² with both); duelling deuces (2♣ and 2♥)
    // in 1 of 9. Enumerate all 6⁴ deals.
    let orders = all_orders(3);
    let (mut crab, mut deuces) = (0u32, 0u32);
    for code in 0..1296usize {
        let mut c = code;
        let decks: Vec<Vec<_>> = (0..4)
            .map(|s| {
                let o = &orders[c % 6];
                c /= 6;
                o.iter()
                    .map(|&r| crate::games::solitaire::pretzel::Card { suit: s, rank: r })
                    .collect()
            })
            .collect();
        let d =
            Deal::from_layout(4, 3, &layout_from_decks(&decks, 4, 3, Setup::Sequential)).unwrap();
        let b = d.blockades();
        crab += u32::from(!b.ducking_crabs.is_empty());
        deuces += u32::from(!b.duelling_deuces.is_empty());
        if !b.ducking_crabs.is_empty() {
            assert!(b.ducking_crabs.iter().all(|&s| s == 0 || s == 2));
        }
        if let Some(cy) = b.duelling_deuces.first() {
            assert_eq!(cy, &vec![1, 3]);
        }
    }
    assert_eq!(crab as f64 / 1296.0, 1.0 - 25.0 / 36.0);
    assert_eq!(deuces as f64 / 1296.0, 1.0 / 9.0);
}

#[test]
fn exact_fraction_with_symmetry_matches_brute_force() {
    let e = exact_pretzel(3, 3, Setup::Shuffled).unwrap();
    let (ok, total) = brute_force_shuffled(3, 3);
    assert_eq!((e.solvable, e.deals), (ok, total));
    assert!(e.solved_classes < total / 4);
    let e = exact_pretzel(4, 2, Setup::Shuffled).unwrap();
    let (ok, total) = brute_force_shuffled(4, 2);
    assert_eq!((e.solvable, e.deals), (ok, total));
    assert_eq!(total, 1680);
    // Sequential and Banded deal the same suit pattern when k = n
    let a = exact_pretzel(3, 3, Setup::Sequential).unwrap();
    let b = exact_pretzel(3, 3, Setup::Banded).unwrap();
    assert_eq!(a.deals, 216);
    assert_eq!(a.solvable, b.solvable);
}

#[test]
fn monte_carlo_agrees_with_the_exact_fraction() {
    let e = exact_pretzel(4, 2, Setup::Shuffled).unwrap();
    let c = config(Size::Pretzel { suits: 4, ranks: 2 }, Setup::Shuffled, 4000);
    let s = run(&c, &|_| {}).unwrap();
    // within 4 standard errors
    let se = (e.fraction * (1.0 - e.fraction) / 4000.0).sqrt();
    assert!(
        (s.solvable - e.fraction).abs() < 4.0 * se,
        "{} vs {}",
        s.solvable,
        e.fraction
    );
}

#[test]
fn comparisons_have_every_pair() {
    let runs: Vec<Summary> = [Setup::Shuffled, Setup::Sequential, Setup::Banded]
        .iter()
        .map(|&s| {
            run(
                &config(Size::Pretzel { suits: 4, ranks: 4 }, s, 100),
                &|_| {},
            )
            .unwrap()
        })
        .collect();
    let c = compare(&runs);
    assert_eq!(c.t_tests.len(), 9);
    assert!(c.kruskal_wallis.is_some());
    assert!(c.kruskal_wallis_counter_intuitive.is_none());
}

#[test]
fn the_experiment_report_takes_the_shape_of_what_ran() {
    let size = Size::Pretzel { suits: 4, ranks: 4 };
    let summary = |s| run(&config(size, s, 20), &|_| {}).unwrap();
    let size_run = |setups: Vec<Summary>| SizeRun {
        game: "pretzel",
        size: size.to_string(),
        seed: 1,
        challenges: 20,
        comparison: compare(&setups),
        setups,
    };
    let one = [size_run(vec![summary(Setup::Shuffled)])];
    assert!(matches!(
        ExperimentReport::runs(&one, false, 1),
        ExperimentReport::Setup(_)
    ));
    // compared, one setup still reports its size's run
    assert!(matches!(
        ExperimentReport::runs(&one, true, 1),
        ExperimentReport::Size(_)
    ));
    let two = [one[0].clone(), one[0].clone()];
    let sweep = serde_json::to_value(ExperimentReport::runs(&two, false, 7)).unwrap();
    assert_eq!(sweep["game"], "pretzel");
    assert_eq!(sweep["seed"], 7);
    assert_eq!(sweep["sweep"].as_array().map(Vec::len), Some(2));
    let e = exact_pretzel(3, 3, Setup::Shuffled).unwrap();
    let exacts = [e.clone(), e];
    assert!(matches!(
        ExperimentReport::exact(&exacts[..1]),
        ExperimentReport::Exact(_)
    ));
    assert!(matches!(
        ExperimentReport::exact(&exacts),
        ExperimentReport::Exacts(_)
    ));
    // a challenge as text: titled, and the challenge the experiment solves
    let g = GeneratedChallenge::new(size, Setup::Banded, 3, 2).unwrap();
    assert_eq!(
        g.title,
        format!("{size}, {}, seed 3, challenge 2", Setup::Banded.label())
    );
    let text = g.text.as_deref().unwrap();
    assert!(text.contains(&format!("\nTitle: {}\n", g.title)), "{text}");
    let plain = challenge(size, Setup::Banded, 3, 2).unwrap().write();
    assert_eq!(
        text.replacen(&format!("Title: {}\n", g.title), "", 1),
        plain
    );
    assert_eq!(
        serde_json::to_string(&g).unwrap(),
        serde_json::to_value(&g).unwrap().to_string(),
        "the keys in alphabetical order"
    );
}

/// Every shuffled deal solved one by one: (solvable, all), for checking the enumeration.
fn brute_force_shuffled(k: usize, n: usize) -> (u64, u64) {
    use super::exact::next_permutation;
    use crate::games::solitaire::pretzel::{Deal, Pretzel};
    use crate::search;
    let mut items: Vec<u8> = vec![0; k];
    for s in 0..k {
        for r in 2..=n {
            items.push((s * n + r) as u8);
        }
    }
    let (mut total, mut ok) = (0, 0);
    loop {
        let d = Deal::new(k, n, items.clone()).unwrap();
        total += 1;
        ok += u64::from(
            search::bfs(&Pretzel::new(&d), &Limits::none())
                .outcome
                .solution()
                .is_some(),
        );
        if !next_permutation(&mut items) {
            break;
        }
    }
    (ok, total)
}
