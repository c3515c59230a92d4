//! Tests of the ice engine's random moves (Kluiver's random attempt, section 4.1, in
//! [`engine`](super::engine)): what the generic
//! [`random_play`](crate::search::playout::random_play) and
//! [`basic_mc`](crate::search::playout::basic_mc) run on ice levels.

#[cfg(test)]
mod tests {
    use crate::bits::{Bits, Wide};
    use crate::games::ice::engine::{nth_one, IcePuzzle, Walking};
    use crate::games::ice::engine::{Free, Walk};
    use crate::games::ice::format::{parse_floe, zelda};
    use crate::games::ice::validate::replay;
    use crate::games::ice::{Level, WalkRule};
    use crate::grid::Dir;
    use crate::grid::Push;
    use crate::search::playout::{basic_mc, playout_solves, random_play, LegalOnly};
    use crate::search::{Limits, Puzzle};
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;
    use std::time::Instant;

    fn level(text: &str) -> Level {
        parse_floe(text, "t").unwrap().remove(0)
    }

    fn rng(seed: u64) -> Pcg64Mcg {
        Pcg64Mcg::seed_from_u64(seed)
    }

    #[test]
    fn nth_one_walks_the_set_bits() {
        let b: u64 = 0b1011_0100;
        assert_eq!([0, 1, 2, 3].map(|i| nth_one(b, i)), [2, 4, 5, 7]);
        let w = Wide::<4>::bit(200).or(Wide::<4>::bit(3));
        assert_eq!((nth_one(w, 0), nth_one(w, 1)), (3, 200));
    }

    #[test]
    fn directions_are_uniform_on_a_one_block_level() {
        // The block in the middle of open ice can go every way.
        let l = level("-----\n-----\n--$--\n-----\n-----\n");
        let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
        let s = p.start();
        let mut g = rng(1);
        let n = 40_000;
        let mut count = [0u32; 4];
        for _ in 0..n {
            let (m, t) = p.random_move(&s, &mut g).expect("every push is legal here");
            assert_eq!(
                p.pos(m.from),
                Push::new(l.blocks().next().unwrap(), m.dir).pos()
            );
            assert_eq!(t.blocks.count(), 1);
            count[m.dir.index()] += 1;
        }
        // each direction 10,000 ± 4.3 standard deviations (σ ≈ 87)
        for c in count {
            assert!((9_625..=10_375).contains(&c), "{count:?}");
        }
    }

    #[test]
    fn blocks_are_chosen_uniformly() {
        // Three blocks in open ice, far apart: every (block, direction) is legal.
        let l = level("$------\n-------\n---$---\n-------\n------$\n");
        let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
        let s = p.start();
        let mut g = rng(2);
        let mut by_block = std::collections::BTreeMap::new();
        let mut legal = 0;
        for _ in 0..30_000 {
            if let Some((m, _)) = p.random_move(&s, &mut g) {
                *by_block.entry(m.from).or_insert(0u32) += 1;
                legal += 1;
            }
        }
        // the corner blocks have two legal pushes each, the middle one four: 8 of 12
        assert!((19_500..=20_500).contains(&legal), "{legal}");
        let counts: Vec<u32> = by_block.values().copied().collect();
        assert_eq!(counts.len(), 3);
        // corners ≈ 5,000 each, the middle ≈ 10,000
        assert!((4_700..=5_300).contains(&counts[0]), "{counts:?}");
        assert!((9_550..=10_450).contains(&counts[1]), "{counts:?}");
        assert!((4_700..=5_300).contains(&counts[2]), "{counts:?}");
    }

    #[test]
    fn impossible_attempts_return_none() {
        // A block in the corner of a one-row board: left, up and down would leave it in place
        // (outside is normal floor); only right moves it, up to the wall.
        let l = level("$--#\n");
        let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
        let s = p.start();
        let mut g = rng(3);
        let mut none = 0;
        for _ in 0..4_000 {
            match p.random_move(&s, &mut g) {
                None => none += 1,
                Some((m, t)) => {
                    assert_eq!(m.dir, Dir::Right);
                    assert_eq!(p.pos(m.to), crate::grid::Pos::new(0, 2));
                    assert_eq!(Some((m, t)), p.push_block(&s, m.from as usize, Dir::Right));
                }
            }
        }
        assert!((2_850..=3_150).contains(&none), "{none}");
        // with no block at all, nothing is possible
        let l = level("---\n-.-\n");
        let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
        assert!(p.random_move(&p.start(), &mut g).is_none());
    }

    /// Follows 2,000 random attempts from the start, checking each against the successors.
    fn attempts_are_successors<B: Bits, R: Walking>(p: &IcePuzzle<B, R>, seed: u64) {
        let mut g = rng(seed);
        let mut s = p.start();
        let mut succ = Vec::new();
        let mut made = 0;
        for _ in 0..2_000 {
            succ.clear();
            p.successors(&s, &mut succ);
            if let Some(mt) = p.random_move(&s, &mut g) {
                assert!(succ.contains(&mt));
                s = mt.1;
                made += 1;
            }
        }
        assert!(made > 0);
    }

    #[test]
    fn random_moves_are_legal_successors() {
        attempts_are_successors(&IcePuzzle::<u64, Free>::new(&zelda("TPIBC3")).unwrap(), 4);
        let oossas = zelda("OOSSAS");
        attempts_are_successors(&IcePuzzle::<Wide<4>, Free>::new(&oossas).unwrap(), 5);
        let tpibc3 = zelda("TPIBC3");
        attempts_are_successors(&IcePuzzle::<u64, Walk>::new(&tpibc3).unwrap(), 6);
        let l = level("@-#--\n-$-$-\n--#-.\n");
        attempts_are_successors(&IcePuzzle::<u64, Walk>::new(&l).unwrap(), 7);
    }

    #[test]
    fn playouts_replay_with_the_validator() {
        let check = |l: &Level, rule: WalkRule, moves: Vec<Push>, solved: bool| {
            let r = replay(l, rule, &moves).unwrap();
            assert_eq!(r.solved, solved);
            assert_eq!(r.pushes(), moves.len() as u64);
        };
        let l = zelda("TPIBC3");
        let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
        for seed in 0..20 {
            let r = random_play(&p, 2_000, &mut rng(seed));
            let moves = r.moves.iter().map(|m| p.push(m)).collect();
            check(&l, WalkRule::Free, moves, r.solved);
        }
        // under `walk`, with a player shut in a corner part of the time
        let l = level("@-#--\n-$-$-\n--#-.\n");
        let p = IcePuzzle::<u64, Walk>::new(&l).unwrap();
        let mut solved = 0;
        for seed in 0..50 {
            let r = random_play(&p, 500, &mut rng(seed));
            solved += r.solved as u32;
            let moves = r.moves.iter().map(|m| p.push(m)).collect();
            check(&l, WalkRule::Walk, moves, r.solved);
        }
        assert!(solved > 0);
    }

    #[test]
    fn basic_mc_solves_tpibc1() {
        let l = zelda("TPIBC1");
        let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
        for seed in 0..3 {
            let r = basic_mc(&p, 2_000, 15, &mut rng(seed), &Limits::none());
            assert!(r.solved, "seed {seed}");
            let moves: Vec<Push> = r.moves.iter().map(|m| p.push(m)).collect();
            assert!(replay(&l, WalkRule::Free, &moves).unwrap().solved);
            assert!((7..=15).contains(&moves.len()));
        }
    }

    /// Random playout throughput on TPIBC3 (run with `--ignored --nocapture`).
    #[test]
    #[ignore]
    fn playout_throughput() {
        let l = zelda("TPIBC3");
        let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
        let s = p.start();
        let mut g = rng(5);
        let (playouts, horizon) = (2_000_000u32, 14u32);
        let began = Instant::now();
        let mut attempts = 0u64;
        let mut wins = 0u32;
        for _ in 0..playouts {
            match playout_solves(&p, &s, horizon, &mut g) {
                Some(a) => {
                    wins += 1;
                    attempts += a as u64;
                }
                None => attempts += horizon as u64,
            }
        }
        let t = began.elapsed().as_secs_f64();
        println!(
            "TPIBC3: {playouts} playouts of at most {horizon} attempts, {wins} solved, \
             {attempts} attempts in {t:.3} s: {:.1} M attempts/s, {:.2} M playouts/s",
            attempts as f64 / t / 1e6,
            playouts as f64 / t / 1e6
        );
        let began = Instant::now();
        let r = random_play(&p, 50_000_000, &mut g);
        let t = began.elapsed().as_secs_f64();
        println!(
            "TPIBC3: one random game, {} attempts ({} pushes, solved {}) in {t:.3} s: {:.1} M attempts/s",
            r.attempts,
            r.moves.len(),
            r.solved,
            r.attempts as f64 / t / 1e6
        );
    }

    /// Kluiver's setting (250,000 playouts, 15 moves) on TPIBC2 and TPIBC3, the playouts
    /// counting attempts (the default) or moves ([`LegalOnly`]); run with `--ignored
    /// --nocapture` (about a minute).
    #[test]
    #[ignore]
    fn kluiver_mc_counting_attempts_or_moves() {
        for title in ["TPIBC2", "TPIBC3"] {
            let l = zelda(title);
            let p = IcePuzzle::<u64, Free>::new(&l).unwrap();
            for legal in [false, true] {
                for seed in 0..3 {
                    let began = Instant::now();
                    let r = if legal {
                        basic_mc(&LegalOnly(&p), 250_000, 15, &mut rng(seed), &Limits::none())
                    } else {
                        basic_mc(&p, 250_000, 15, &mut rng(seed), &Limits::none())
                    };
                    let moves: Vec<Push> = r.moves.iter().map(|m| p.push(m)).collect();
                    let rp = replay(&l, WalkRule::Free, &moves).unwrap();
                    assert_eq!(rp.solved, r.solved);
                    println!(
                        "{title} {} seed {seed}: solved {}, {} pushes, {} changes, {} blind, \
                         scores {:?}, {:.1} s",
                        if legal { "moves" } else { "attempts" },
                        r.solved,
                        rp.pushes(),
                        rp.block_changes(),
                        r.blind_steps(),
                        r.scores,
                        began.elapsed().as_secs_f64()
                    );
                }
            }
        }
    }
}
