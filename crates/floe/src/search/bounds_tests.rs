//! Tests of [`super`]: the proving A*, with and without a cap, on one thread or several.

use super::*;
use crate::search::bfs;

/// Walk on the integers: +1, -1, ×2, bounded; the bound log2-ish is admissible.
struct Line(i64, i64);
impl Puzzle for Line {
    type State = i64;
    type Move = char;
    fn start(&self) -> i64 {
        self.0
    }
    fn successors(&self, s: &i64, out: &mut Vec<(char, i64)>) {
        for (m, t) in [('+', s + 1), ('-', s - 1), ('*', s * 2)] {
            if (0..=200).contains(&t) && t != *s {
                out.push((m, t));
            }
        }
    }
    fn is_goal(&self, s: &i64) -> bool {
        *s == self.1
    }
    fn lower_bound(&self, s: &i64) -> u32 {
        u32::from(*s != self.1)
    }
}

#[test]
fn proving_astar_is_exact_and_proves_bounds() {
    for goal in [0, 1, 7, 33, 64, 199] {
        let p = Line(3, goal);
        let want = bfs(&p, &Limits::none()).cost.unwrap() as u32;
        let r = astar_proving(&p, &Limits::none());
        assert_eq!(r.outcome.solution().unwrap().len() as u32, want);
        assert_eq!(r.proved, want);
        // stopped early, the bound proved never exceeds the optimum
        let r = astar_proving(&p, &Limits::none().max_states(5));
        if let Outcome::Limit(_) = r.outcome {
            assert!(r.proved <= want, "{} > {want}", r.proved);
        }
    }
    let r = astar_proving(&Line(3, 500), &Limits::none());
    assert_eq!(r.outcome, Outcome::Unsolvable);
    assert_eq!(r.stats.states, 201);
}

#[test]
fn proving_up_to_a_cost_stores_less_and_proves_past_it() {
    for goal in [0, 1, 7, 33, 64, 199] {
        let p = Line(3, goal);
        let want = bfs(&p, &Limits::none()).cost.unwrap() as u32;
        let whole = astar_proving(&p, &Limits::none());
        for cap in 0..=want + 1 {
            let r = astar_proving_upto(&p, &Limits::none(), cap);
            assert!(r.stats.states <= whole.stats.states);
            if cap < want {
                assert_eq!(
                    r.outcome,
                    Outcome::Limit(LimitKind::MaxMoves),
                    "{goal} {cap}"
                );
                assert!(
                    r.proved > cap && r.proved <= want,
                    "{goal} {cap}: {}",
                    r.proved
                );
            } else {
                assert_eq!(r.outcome.solution().unwrap().len() as u32, want);
                assert_eq!(r.proved, want);
            }
        }
    }
    // unreachable: with room for every position it is a proof of none, else a bound
    let r = astar_proving_upto(&Line(3, 500), &Limits::none(), 1_000);
    assert_eq!(r.outcome, Outcome::Unsolvable);
    let r = astar_proving_upto(&Line(3, 500), &Limits::none(), 5);
    assert_eq!(r.outcome, Outcome::Limit(LimitKind::MaxMoves));
    assert_eq!(r.proved, 6);
    assert!(r.stats.states < 201);
}

/// In batches, on one thread or several: the same fewest moves, the same bound proved
/// within a cap, and the same positions stored by a proof.
#[test]
fn batches_on_threads_give_the_same_answers() {
    for goal in [0, 1, 7, 33, 64, 199] {
        let p = Line(3, goal);
        let one = astar_proving(&p, &Limits::none());
        for threads in [1, 2, 3] {
            let r = astar_proving_par(&p, &Limits::none(), None, threads);
            assert_eq!(
                r.outcome.solution().map(<[char]>::len),
                one.outcome.solution().map(<[char]>::len),
                "{goal} on {threads}"
            );
            assert_eq!(r.proved, one.proved, "{goal} on {threads}");
            for cap in [0, one.proved.saturating_sub(1), one.proved] {
                let a = astar_proving_upto(&p, &Limits::none(), cap);
                let b = astar_proving_par(&p, &Limits::none(), Some(cap), threads);
                assert_eq!(a.proved, b.proved, "{goal} cap {cap} on {threads}");
                if a.outcome == Outcome::Limit(LimitKind::MaxMoves) {
                    assert_eq!(b.outcome, a.outcome);
                    assert_eq!(a.stats.states, b.stats.states, "{goal} cap {cap}");
                }
            }
        }
    }
    let r = astar_proving_par(&Line(3, 500), &Limits::none(), None, 2);
    assert_eq!(r.outcome, Outcome::Unsolvable);
    assert_eq!(r.stats.states, 201);
    // a budget stops it with a bound that is still a bound
    let r = astar_proving_par(&Line(3, 199), &Limits::none().max_states(5), None, 2);
    assert!(matches!(r.outcome, Outcome::Limit(_)));
    assert!(r.proved <= astar_proving(&Line(3, 199), &Limits::none()).proved);
}

#[test]
fn proving_astar_with_the_room_of_its_budget() {
    // past ROOM_AT nodes the arrays get the room of the budget at once; results unchanged
    let p = crate::search::from_fn(
        0u32,
        |&x| {
            [('+', x + 1), ('7', x + 7)]
                .into_iter()
                .filter(|&(_, y)| y <= 5_000)
        },
        |&x| x == 4_999,
    );
    let want = bfs(&p, &Limits::none()).cost.unwrap() as u32;
    let Some(held) = crate::mem::resident_bytes() else {
        return;
    };
    let r = astar_proving(&p, &Limits::none().max_memory(held + (256 << 20)));
    assert!(
        r.stats.states > crate::search::limits::ROOM_AT,
        "{}",
        r.stats.states
    );
    assert_eq!(r.outcome.solution().unwrap().len() as u32, want);
    assert_eq!(r.proved, want);
    // a budget already spent: stops at once, with a bound that is still a bound
    let r = astar_proving(&p, &Limits::none().max_memory(held / 2));
    assert_eq!(r.outcome, Outcome::Limit(LimitKind::MaxMemory));
    assert!(r.proved <= want);
}

#[test]
fn beam_finds_solutions_and_wide_beams_are_bfs() {
    let p = Line(3, 99);
    let (o, _) = beam(&p, 1_000_000, &Limits::none(), |s: &i64| (99 - s).abs());
    let want = bfs(&p, &Limits::none()).cost.unwrap() as usize;
    assert_eq!(o.solution().unwrap().len(), want);
    let (o, _) = beam(&p, 1, &Limits::none(), |s: &i64| (99 - s).abs());
    assert!(o.solution().unwrap().len() >= want);
}

/// A capped A* does not expand the positions [`Puzzle::exceeds`] clears, and proves what
/// the cap proves all the same: a counter that must reach 12 by steps of 1 or 2, whose test
/// is exact (or, for the plain search, tells nothing).
#[test]
fn positions_cleared_by_exceeds_are_not_expanded() {
    struct Count(bool);
    impl Puzzle for Count {
        type State = u32;
        type Move = u32;
        fn start(&self) -> u32 {
            0
        }
        fn successors(&self, s: &u32, out: &mut Vec<(u32, u32)>) {
            out.extend(
                [1, 2]
                    .map(|m| (m, s + m))
                    .into_iter()
                    .filter(|&(_, t)| t <= 12),
            );
        }
        fn is_goal(&self, s: &u32) -> bool {
            *s == 12
        }
        fn exceeds(&self, s: &u32, need: u32) -> bool {
            self.0 && (12 - s).div_ceil(2) > need
        }
    }
    for threads in [1, 2] {
        for cap in [3, 5, 6, 8] {
            let plain = astar_proving_par(&Count(false), &Limits::none(), Some(cap), threads);
            let screened = astar_proving_par(&Count(true), &Limits::none(), Some(cap), threads);
            assert_eq!(
                screened.outcome.solution().map(|m| m.len()),
                plain.outcome.solution().map(|m| m.len())
            );
            assert_eq!(screened.proved, plain.proved, "cap {cap}");
            // a cap above the fewest steps leaves the test nothing to clear before the goal
            let fewer = screened.stats.generated < plain.stats.generated;
            assert!(fewer || cap > 6, "cap {cap}");
            assert!(
                screened.stats.generated <= plain.stats.generated,
                "cap {cap}"
            );
            if cap < 6 {
                // six steps at least: the start is cleared, nothing else is stored
                assert_eq!(screened.outcome, Outcome::Limit(LimitKind::MaxMoves));
                assert_eq!((screened.proved, screened.stats.states), (cap + 1, 1));
            } else {
                assert_eq!(screened.proved, 6);
            }
        }
    }
    // without a cap, the test is not asked
    let r = astar_proving_par(&Count(true), &Limits::none(), None, 1);
    assert_eq!(r.proved, 6);
}
