//! The solver's answers in play, for a level of any game: the [`Verdict`] of a position
//! (fewest moves still needed and the first of them), verdicts that learn from each other
//! ([`VerdictMemory`]), and the legal moves of a position.

use super::solve::{check_from, solve, SolveOptions};
use crate::error::Error;
use crate::game::{AlgoMethod, Engine, Game, Move, Status, Task};
use crate::search::{self, LimitKind, Limits, Method, Outcome};
use std::any::Any;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// What the solver says about a position in play.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// It can be solved in `moves` more moves at the fewest; `next` is the first of them
    /// (`None` when it is solved already).
    Solvable {
        /// Fewest moves still needed.
        moves: u32,
        /// The first move of such a solution.
        next: Option<Move>,
    },
    /// Every position reachable from here was searched: none is solved.
    Unsolvable,
    /// A limit stopped the search before it could tell.
    Unknown(LimitKind),
}

/// The exact answer for a position: fewest moves from it with the game's default algorithm,
/// within `limits`, replayed from the position.
pub(crate) fn verdict<G: Game>(
    g: G,
    level: &G::Level,
    pos: &G::Position,
    limits: &Limits,
) -> Result<Verdict, Error> {
    if g.solved(level, pos) {
        return Ok(Verdict::Solvable {
            moves: 0,
            next: None,
        });
    }
    let o = SolveOptions::default().limits(limits.clone());
    let r = solve(g, level, "", Some(pos), &o)?;
    Ok(match r.status {
        Status::Solved => Verdict::Solvable {
            moves: r.moves.len() as u32,
            next: r.moves.first().cloned(),
        },
        Status::Unsolvable => Verdict::Unsolvable,
        Status::Limit | Status::GaveUp => {
            Verdict::Unknown(r.limit_kind().unwrap_or(LimitKind::MaxStates))
        }
    })
}

/// What the verdicts of one play session have proved about its level's positions, shared by
/// the session and the solver questions it hands out ([`search::Learned`], of whichever
/// engine state the level compiled to). Cloning shares it.
#[derive(Clone, Default)]
pub(crate) struct VerdictMemory {
    table: Arc<Mutex<Option<Box<dyn Any + Send>>>>,
    /// Its size in bytes, readable while a search holds the table.
    bytes: Arc<AtomicUsize>,
}

/// Positions a [`VerdictMemory`] holds at most: about 50–90 bytes each on Ice Tower maps up
/// to 20 × 14, so at most some 16 MiB per session.
pub(crate) const VERDICT_MEMORY_POSITIONS: usize = 200_000;

impl VerdictMemory {
    /// Bytes held, roughly.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }
    /// Forgets what was learned, unless a search holds the table now; whether it did.
    pub(crate) fn try_clear(&self) -> bool {
        match self.table.try_lock() {
            Ok(mut t) => {
                *t = None;
                self.bytes.store(0, Ordering::Relaxed);
                true
            }
            Err(_) => false,
        }
    }
}

/// Whether the verdicts of game `g` learn from each other ([`verdict_with`]: its default
/// search is A*).
pub(crate) fn verdicts_learn<G: Game>(g: G) -> bool {
    g.info().default_algorithm().method == AlgoMethod::Search(Method::AStarProving)
}

/// [`verdict`], for the positions of a game in play: when the game's default search is A*,
/// it runs [`search::astar_learning`] over what earlier verdicts of the level proved (kept in
/// `memory`), so that after the first answer most later ones cost a small search. The answer
/// is the same fewest-moves verdict, replayed by the rules like every solution.
pub(crate) fn verdict_with<G: Game>(
    g: G,
    level: &G::Level,
    pos: &G::Position,
    limits: &Limits,
    memory: &VerdictMemory,
) -> Result<Verdict, Error> {
    if !verdicts_learn(g) || g.solved(level, pos) {
        return verdict(g, level, pos, limits);
    }
    g.check(level)?;
    struct Learning<'a> {
        limits: &'a Limits,
        memory: &'a VerdictMemory,
    }
    impl<M> Task<M> for Learning<'_> {
        type Output = Outcome<M>;
        fn run<E: Engine<Public = M>>(self, e: &E) -> Outcome<M> {
            if e.dead_start().is_some() {
                return Outcome::Unsolvable;
            }
            let mut table = self
                .memory
                .table
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if !table
                .as_ref()
                .is_some_and(|t| t.is::<search::Learned<E::State>>())
            {
                *table = Some(Box::new(search::Learned::<E::State>::new(
                    VERDICT_MEMORY_POSITIONS,
                )));
            }
            let learned = table
                .as_mut()
                .and_then(|t| t.downcast_mut::<search::Learned<E::State>>())
                .expect("the table of this engine's states");
            let r = search::astar_learning(e, self.limits, learned);
            self.memory.bytes.store(learned.bytes(), Ordering::Relaxed);
            match r.outcome {
                Outcome::Solved(m) => Outcome::Solved(m.iter().map(|m| e.public(m)).collect()),
                Outcome::Unsolvable => Outcome::Unsolvable,
                Outcome::Limit(l) => Outcome::Limit(l),
            }
        }
    }
    let found = g.engine(level, Some(pos), Learning { limits, memory })?;
    Ok(match found {
        Outcome::Solved(moves) => {
            check_from(g, level, pos, &moves, g.info().default_algorithm().name)?;
            Verdict::Solvable {
                moves: moves.len() as u32,
                next: moves.into_iter().next().map(Move::new),
            }
        }
        Outcome::Unsolvable => Verdict::Unsolvable,
        Outcome::Limit(l) => Verdict::Unknown(l),
    })
}

/// Every legal move at `pos`, in the engine's order.
pub(crate) fn legal_moves<G: Game>(
    g: G,
    level: &G::Level,
    pos: &G::Position,
) -> Result<Vec<G::Move>, Error> {
    struct Legal;
    impl<M> Task<M> for Legal {
        type Output = Vec<M>;
        fn run<E: Engine<Public = M>>(self, e: &E) -> Vec<M> {
            let mut out = Vec::new();
            e.successors(&e.start(), &mut out);
            out.iter().map(|(m, _)| e.public(m)).collect()
        }
    }
    g.engine(level, Some(pos), Legal)
}
