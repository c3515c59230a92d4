//! Random play and Monte Carlo search: Kluiver's random algorithm and BasicMC (Kluiver 2020,
//! sections 4.1, 4.4 and 8.1–8.2). Generic over every [`Puzzle`] that can draw a random
//! attempt ([`Puzzle::random_move`]); nothing here knows any game. [`SolverSpec`] names the
//! two solvers with their parameters, as a solve runs and reports them.
//!
//! # The random algorithm ([`random_play`])
//!
//! Kluiver's random algorithm picks a random block and a random direction and tries the push;
//! "all moves have the same probability of happening — even moves which are not possible or do
//! not result in a different game state". So the unit of randomness is an **attempt** in the
//! game's action space ([`Puzzle::random_move`]), and an impossible attempt leaves the
//! state unchanged but still counts as one of the moves the caller allows: the cap
//! (`max_moves`) bounds *attempts*, possible or not. The algorithm stops as soon as the
//! position is a goal; the goal is tested before the first attempt too, so a solved start
//! needs no attempt at all.
//!
//! # Random games that end ([`random_walk`])
//!
//! Goadrich and Droscha's random player (the solitaire experiments) gives up at the first move
//! onto a position it has already visited in the game ([`GiveUp::Revisit`]), so it needs no
//! horizon; [`random_walk`] plays it, or the capped game of [`playout_solves`]
//! ([`GiveUp::Horizon`]), and says how the game ended ([`End`]).
//!
//! # BasicMC ([`basic_mc`])
//!
//! At each step BasicMC tries every legal move (all of [`Puzzle::successors`], not random
//! attempts) and scores it by playing `playouts` random games from the position it leads to.
//! As Kluiver settled after tuning (section 8.1):
//!
//! - **Only complete solutions score.** A move's score is the number of its playouts that reach
//!   a goal. A move that is itself a goal scores `playouts` without playing any (a playout
//!   from a goal is solved before its first attempt).
//! - **The horizon shrinks.** BasicMC has `max_moves` moves in all; with `remaining` moves
//!   left, the playouts after a candidate move may make at most `remaining - 1` attempts, so a
//!   candidate move plus its playout never exceed what BasicMC has left. This is what stops it
//!   from pushing a block back and forth between two near-solved positions.
//! - **The best move is played**; among equal best scores one is chosen uniformly at random.
//!   A goal move therefore ties with any other move whose playouts all succeed (faithful to
//!   the thesis, which only compares counts).
//! - **When no move scores** (no playout succeeded) a uniformly random *legal* move is played.
//! - It stops when the position is a goal, when no legal move exists, or when no moves are
//!   left.
//!
//! Kluiver's settings were 250,000 playouts and 15 moves ([`KLUIVER_PLAYOUTS`],
//! [`KLUIVER_MAX_MOVES`]). Playouts and horizon-0 candidates: with no attempt left a playout
//! from a non-goal cannot succeed, so none is played (and none counted); the tallies count
//! only the playouts actually played.
//!
//! # Attempts or moves?
//!
//! The thesis does not say whether the playouts' horizon counts attempts or pushes. Counting
//! attempts (the default here, as for the random algorithm) makes a playout far less likely to
//! succeed: on TPIBC3 a random game of 14 attempts from the start succeeds with probability
//! about 5·10⁻¹⁰, one of 14 legal pushes about 1.6·10⁻⁷, so with Kluiver's 250,000 playouts
//! BasicMC is nearly always blind there unless the horizon counts pushes. Wrap the puzzle in
//! [`LegalOnly`] for that reading: every attempt is then a legal move.
//!
//! # Determinism
//!
//! Every function takes the random generator from the caller, so a seeded generator gives a
//! repeatable run. BasicMC scores the candidate moves in parallel (rayon) and stays
//! deterministic whatever the number of threads: before the parallel work of a step it draws
//! one `u64` sub-seed per candidate from the caller's generator, in the order of
//! [`Puzzle::successors`], and each candidate's playouts run on their own [`Pcg64Mcg`] seeded
//! with it. The tie break (or the random fallback move) is then drawn from the caller's
//! generator: exactly one draw per step. Only a timeout, which depends on the clock, makes two
//! runs differ.

pub use super::random_walk::{random_walk, End, GiveUp, Walk};
use super::{LimitKind, Limits, Progress, Puzzle, Stats};
use crate::Error;
use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Playouts per candidate move in Kluiver's experiments (section 8.1).
pub const KLUIVER_PLAYOUTS: u32 = 250_000;
/// Moves BasicMC may make in Kluiver's experiments (section 8.1).
pub const KLUIVER_MAX_MOVES: u32 = 15;

/// How often (in attempts) [`random_play_with`] looks at the clock.
const CLOCK_EVERY_ATTEMPTS: u32 = 1 << 16;
/// How often (in playouts) a BasicMC worker looks at the clock.
const CLOCK_EVERY_PLAYOUTS: u32 = 256;
/// Least time between two progress reports.
const REPORT_EVERY: Duration = Duration::from_millis(200);

/// Redrawn attempts of [`LegalOnly`] before it falls back to listing the successors.
const REDRAWS: u32 = 64;

/// An adapter whose random attempts are always legal moves: impossible attempts of the wrapped
/// puzzle are redrawn, so one attempt is one move made and a horizon counts moves, not
/// attempts. Everything else is the wrapped puzzle's.
///
/// This is the other reading of Kluiver's cap ("the number of moves the random algorithm must
/// make"). The default reading, attempts, is the one [`random_play`] and [`basic_mc`] use on a
/// puzzle directly; wrap the puzzle to get this one:
/// `basic_mc(&LegalOnly(&puzzle), …)`.
///
/// The move is uniform over the legal moves when each legal move is exactly one action of the
/// wrapped action space, all actions equally likely (true of the ice blocks: one legal move
/// per legal (block, direction) pair): up to 64 redraws, then a uniform pick from
/// [`Puzzle::successors`] (rare; it allocates). `None` only when there is no legal move.
#[derive(Clone, Copy, Debug)]
pub struct LegalOnly<'a, P>(pub &'a P);

impl<P: Puzzle> Puzzle for LegalOnly<'_, P> {
    type State = P::State;
    type Move = P::Move;
    fn start(&self) -> P::State {
        self.0.start()
    }
    fn successors(&self, state: &P::State, out: &mut Vec<(P::Move, P::State)>) {
        self.0.successors(state, out)
    }
    fn for_each_next<F: FnMut(P::State)>(&self, state: &P::State, f: F) {
        self.0.for_each_next(state, f)
    }
    fn is_goal(&self, state: &P::State) -> bool {
        self.0.is_goal(state)
    }
    fn lower_bound(&self, state: &P::State) -> u32 {
        self.0.lower_bound(state)
    }
    fn rank_space(&self) -> Option<u64> {
        self.0.rank_space()
    }
    fn rank(&self, state: &P::State) -> Option<u64> {
        self.0.rank(state)
    }
    fn unrank(&self, rank: u64) -> Option<P::State> {
        self.0.unrank(rank)
    }
    fn piece_moved(&self, m: &P::Move) -> Option<(u32, u32)> {
        self.0.piece_moved(m)
    }
    const NONE_MEANS_STUCK: bool = true;

    #[inline]
    fn random_move<G: Rng + ?Sized>(
        &self,
        state: &P::State,
        rng: &mut G,
    ) -> Option<(P::Move, P::State)> {
        for _ in 0..REDRAWS {
            if let Some(x) = self.0.random_move(state, rng) {
                return Some(x);
            }
        }
        let mut all = Vec::new();
        self.0.successors(state, &mut all);
        if all.is_empty() {
            return None;
        }
        let i = rng.random_range(0..all.len());
        Some(all.swap_remove(i))
    }
}

/// A generous default cap on the random algorithm's attempts (the thesis gives none). A
/// million attempts take a few milliseconds.
pub const DEFAULT_RANDOM_MAX_MOVES: u32 = 1_000_000;

/// What a random game's move cap counts. Kluiver draws a block and a direction uniformly,
/// impossible pushes included; his text leaves open whether an impossible draw uses up one of
/// the "moves the random algorithm is allowed to make".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum CapCount {
    /// Only pushes made count: an impossible draw is drawn again ([`LegalOnly`]). This reading
    /// reproduces the thesis's BasicMC results (Table 3: every room but MCTOD solved with
    /// 250,000 playouts and 15 moves); the default.
    #[default]
    Pushes,
    /// Every draw counts, possible or not: the literal reading. With it a random game from
    /// TPIBC3's start solves the room within 14 draws with probability about 5·10⁻¹⁰ (against
    /// 1.6·10⁻⁷ counting pushes), and BasicMC with Kluiver's settings almost never solves it.
    Attempts,
}

impl CapCount {
    /// `pushes` or `attempts`.
    pub fn name(self) -> &'static str {
        match self {
            CapCount::Pushes => "pushes",
            CapCount::Attempts => "attempts",
        }
    }
}

impl std::str::FromStr for CapCount {
    type Err = String;
    fn from_str(s: &str) -> Result<CapCount, String> {
        match s.to_ascii_lowercase().as_str() {
            "pushes" | "moves" => Ok(CapCount::Pushes),
            "attempts" | "draws" => Ok(CapCount::Attempts),
            _ => Err(format!(
                "unknown cap count '{s}': expected pushes or attempts"
            )),
        }
    }
}

/// Which randomised solver to run, with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "name", rename_all = "lowercase")]
pub enum SolverSpec {
    /// Kluiver's random algorithm: at most `max_moves` moves (see [`CapCount`]).
    Random {
        /// Cap on the moves.
        max_moves: u32,
        /// What the cap counts.
        count: CapCount,
    },
    /// BasicMC: `playouts` random games per legal move and step, at most `max_moves` moves.
    Mc {
        /// Random games per candidate move (at least 1).
        playouts: u32,
        /// Moves BasicMC may make; the playouts' horizon is the moves left minus one.
        max_moves: u32,
        /// What the playouts' cap counts.
        count: CapCount,
    },
}

impl SolverSpec {
    /// The random algorithm with [`DEFAULT_RANDOM_MAX_MOVES`].
    pub fn random() -> SolverSpec {
        SolverSpec::Random {
            max_moves: DEFAULT_RANDOM_MAX_MOVES,
            count: CapCount::default(),
        }
    }
    /// BasicMC with Kluiver's settings: 250,000 playouts, 15 moves.
    pub fn kluiver_mc() -> SolverSpec {
        SolverSpec::Mc {
            playouts: KLUIVER_PLAYOUTS,
            max_moves: KLUIVER_MAX_MOVES,
            count: CapCount::default(),
        }
    }
    /// `random` or `mc`.
    pub fn name(&self) -> &'static str {
        match self {
            SolverSpec::Random { .. } => "random",
            SolverSpec::Mc { .. } => "mc",
        }
    }
    /// Refuses parameters that cannot work: BasicMC with no playouts.
    pub fn check(&self) -> Result<(), Error> {
        match self {
            SolverSpec::Mc { playouts: 0, .. } => Err(Error::invalid(
                "BasicMC needs at least one playout per move (--playouts)",
            )),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for SolverSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverSpec::Random { max_moves, count } => {
                write!(f, "random (max {max_moves} {})", count.name())
            }
            SolverSpec::Mc {
                playouts,
                max_moves,
                count,
            } => write!(
                f,
                "mc ({playouts} playouts, max {max_moves} moves, playouts count {})",
                count.name()
            ),
        }
    }
}

/// The result of one random game ([`random_play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playout<M> {
    /// The legal moves actually made, in order (impossible attempts leave no trace here).
    pub moves: Vec<M>,
    /// Attempts made, possible or not (at most the cap; `moves.len() <= attempts`).
    pub attempts: u32,
    /// Whether the game ended on a goal.
    pub solved: bool,
    /// Set when a limit of [`random_play_with`] stopped the game before the cap.
    pub limit: Option<LimitKind>,
    /// The game ended on a position with no legal move (known only when
    /// [`Puzzle::NONE_MEANS_STUCK`]).
    pub stuck: bool,
}

/// Kluiver's random algorithm from the start of `p`: random attempts until the position is a
/// goal or `max_moves` attempts were made (see the [module documentation](self)).
///
/// ```
/// use floe::search::{from_fn, playout::random_play};
/// use rand::SeedableRng;
/// // a token on cells 0..=3 that steps left or right; the goal is cell 3
/// let p = from_fn(
///     0i32,
///     |&x| [('L', x - 1), ('R', x + 1)].into_iter().filter(|(_, y)| (0..=3).contains(y)),
///     |&x| x == 3,
/// );
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// let r = random_play(&p, 1000, &mut rng);
/// let end = r.moves.iter().fold(0, |x, &m| if m == 'R' { x + 1 } else { x - 1 });
/// assert!(r.solved && end == 3);
/// assert_eq!(r.attempts as usize, r.moves.len()); // here every attempt is a legal move
/// // two attempts cannot cover three cells
/// assert!(!random_play(&p, 2, &mut rng).solved);
/// ```
pub fn random_play<P, G>(p: &P, max_moves: u32, rng: &mut G) -> Playout<P::Move>
where
    P: Puzzle,
    G: Rng + ?Sized,
{
    random_play_with(p, &p.start(), max_moves, rng, &Limits::none())
}

/// [`random_play`] from any position `from`, under `limits` (only the timeout applies: the
/// game stores nothing; the clock is read every 65,536 attempts).
///
/// ```
/// use floe::search::{from_fn, playout::random_play_with, LimitKind, Limits};
/// use rand::SeedableRng;
/// use std::time::Duration;
/// // a token on cells 0..=3 that steps left or right; the goal is cell 3
/// let p = from_fn(
///     0i32,
///     |&x| [('L', x - 1), ('R', x + 1)].into_iter().filter(|(_, y)| (0..=3).contains(y)),
///     |&x| x == 3,
/// );
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// // from cell 2 the goal is one step away: a game of 1000 attempts gets there
/// let r = random_play_with(&p, &2, 1000, &mut rng, &Limits::none());
/// assert!(r.solved && r.moves.last() == Some(&'R'));
/// // a zero timeout stops the game before its first attempt
/// let limits = Limits::none().timeout(Duration::ZERO);
/// let r = random_play_with(&p, &0, 1000, &mut rng, &limits);
/// assert_eq!((r.limit, r.attempts), (Some(LimitKind::Timeout), 0));
/// ```
pub fn random_play_with<P, G>(
    p: &P,
    from: &P::State,
    max_moves: u32,
    rng: &mut G,
    limits: &Limits,
) -> Playout<P::Move>
where
    P: Puzzle,
    G: Rng + ?Sized,
{
    let deadline = limits.deadline_from(Instant::now());
    let mut state = from.clone();
    let mut moves = Vec::new();
    let mut attempts = 0u32;
    let mut solved = p.is_goal(&state);
    let mut limit = None;
    let mut stuck = false;
    while !solved && attempts < max_moves {
        if attempts % CLOCK_EVERY_ATTEMPTS == 0 {
            if let Some(l) = limits.check(deadline) {
                limit = Some(l);
                break;
            }
        }
        attempts += 1;
        match p.random_move(&state, rng) {
            Some((m, next)) => {
                moves.push(m);
                solved = p.is_goal(&next);
                state = next;
            }
            None if P::NONE_MEANS_STUCK => {
                stuck = true;
                break;
            }
            None => {}
        }
    }
    Playout {
        moves,
        attempts,
        solved,
        limit,
        stuck,
    }
}

/// The fast random game used inside Monte Carlo: the same attempts as [`random_play_with`]
/// (same generator, same draws) but no move list and no allocation. Returns the number of
/// attempts after which the position was a goal (`Some(0)` when `from` is one already), or
/// `None` when `max_moves` attempts did not reach a goal (all `max_moves` were then made).
///
/// ```
/// use floe::search::{from_fn, playout::{playout_solves, random_play}};
/// use rand::SeedableRng;
/// use rand_pcg::Pcg64Mcg;
/// // a token on cells 0..=3 that steps left or right; the goal is cell 3
/// let p = from_fn(
///     0i32,
///     |&x| [('L', x - 1), ('R', x + 1)].into_iter().filter(|(_, y)| (0..=3).contains(y)),
///     |&x| x == 3,
/// );
/// let fast = playout_solves(&p, &0, 1000, &mut Pcg64Mcg::seed_from_u64(7));
/// // the same draws as random_play with the same seed
/// let slow = random_play(&p, 1000, &mut Pcg64Mcg::seed_from_u64(7));
/// assert_eq!(fast, Some(slow.attempts));
/// assert_eq!(playout_solves(&p, &0, 2, &mut Pcg64Mcg::seed_from_u64(7)), None); // too few
/// ```
#[inline]
pub fn playout_solves<P, G>(p: &P, from: &P::State, max_moves: u32, rng: &mut G) -> Option<u32>
where
    P: Puzzle,
    G: Rng + ?Sized,
{
    if p.is_goal(from) {
        return Some(0);
    }
    let mut state = from.clone();
    for attempt in 1..=max_moves {
        match p.random_move(&state, rng) {
            Some((_, next)) => {
                if p.is_goal(&next) {
                    return Some(attempt);
                }
                state = next;
            }
            None if P::NONE_MEANS_STUCK => return None,
            None => {}
        }
    }
    None
}

/// The result of [`basic_mc`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McResult<M> {
    /// The moves BasicMC made, in order (a solution when `solved`).
    pub moves: Vec<M>,
    /// Whether the last position is a goal.
    pub solved: bool,
    /// Set when a limit stopped the run (then `solved` is false).
    pub limit: Option<LimitKind>,
    /// The run ended on a position with no legal move.
    pub stuck: bool,
    /// Score of each move made: how many of its playouts reached a goal (`playouts` for a move
    /// onto a goal). 0 marks a move chosen at random because no candidate scored.
    pub scores: Vec<u32>,
    /// Random playouts played, over all steps and candidates.
    pub playouts: u64,
    /// Random attempts made by those playouts, possible or not.
    pub attempts: u64,
    /// `expanded`: steps (positions whose moves were scored); `generated`: candidate moves
    /// scored; `states`: positions on the path, start included; `depth`: moves made.
    pub stats: Stats,
}

impl<M> McResult<M> {
    /// Number of moves that were chosen at random because no candidate scored.
    pub fn blind_steps(&self) -> u32 {
        self.scores.iter().filter(|&&s| s == 0).count() as u32
    }
}

/// What the playouts of one candidate move found.
#[derive(Clone, Copy, Default)]
struct Tally {
    wins: u32,
    playouts: u64,
    attempts: u64,
}

/// Plays up to `playouts` random games of at most `horizon` attempts from `from` with a
/// generator seeded by `seed`; stops early (with a partial tally) when `stop` is raised or
/// `deadline` passes.
fn score<P: Puzzle>(
    p: &P,
    from: &P::State,
    playouts: u32,
    horizon: u32,
    seed: u64,
    (limits, deadline): (&Limits, Option<Instant>),
    stop: &AtomicBool,
) -> Tally {
    let mut t = Tally::default();
    if p.is_goal(from) {
        t.wins = playouts;
        return t;
    }
    if horizon == 0 {
        // a game of no attempts from a non-goal cannot succeed: not worth playing
        return t;
    }
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    for i in 0..playouts {
        if i % CLOCK_EVERY_PLAYOUTS == 0 {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            if limits.check(deadline).is_some() {
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
        t.playouts += 1;
        match playout_solves(p, from, horizon, &mut rng) {
            Some(a) => {
                t.wins += 1;
                t.attempts += a as u64;
            }
            None => t.attempts += horizon as u64,
        }
    }
    t
}

/// Kluiver's BasicMC from the start of `p`: at most `max_moves` moves, each chosen by
/// `playouts` random games per legal move (see the [module documentation](self) for the
/// rules and how the thesis's open points are settled).
///
/// `limits`: only the timeout applies (BasicMC stores nothing but its path); it is checked
/// between steps and every 256 playouts inside a step, and ends the run with `solved ==
/// false` and `limit == Some(Timeout)`. The progress callback is called between steps.
///
/// ```
/// use floe::search::{from_fn, playout::basic_mc, Limits};
/// use rand::SeedableRng;
/// // a token on cells 0..=5 that steps left or right; the goal is cell 5
/// let p = from_fn(
///     0i32,
///     |&x| [('L', x - 1), ('R', x + 1)].into_iter().filter(|(_, y)| (0..=5).contains(y)),
///     |&x| x == 5,
/// );
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// // at most 7 moves, each chosen by 100 random games per candidate
/// let r = basic_mc(&p, 100, 7, &mut rng, &Limits::none());
/// let end = r.moves.iter().fold(0, |x, &m| if m == 'R' { x + 1 } else { x - 1 });
/// assert!(r.solved && end == 5 && r.moves.len() <= 7);
/// ```
pub fn basic_mc<P, G>(
    p: &P,
    playouts: u32,
    max_moves: u32,
    rng: &mut G,
    limits: &Limits,
) -> McResult<P::Move>
where
    P: Puzzle + Sync,
    P::State: Send + Sync,
    P::Move: Send + Sync,
    G: Rng + ?Sized,
{
    let start = Instant::now();
    let deadline = limits.deadline_from(start);
    let mut next_report = start + REPORT_EVERY;
    let stop = AtomicBool::new(false);
    let mut state = p.start();
    let mut result = McResult {
        moves: Vec::new(),
        solved: false,
        limit: None,
        stuck: false,
        scores: Vec::new(),
        playouts: 0,
        attempts: 0,
        stats: Stats {
            states: 1,
            ..Stats::default()
        },
    };
    let mut succ: Vec<(P::Move, P::State)> = Vec::new();
    let mut seeds: Vec<u64> = Vec::new();
    let mut remaining = max_moves;
    loop {
        if p.is_goal(&state) {
            result.solved = true;
            break;
        }
        if remaining == 0 {
            break;
        }
        if let Some(l) = limits.check(deadline) {
            result.limit = Some(l);
            break;
        }
        succ.clear();
        p.successors(&state, &mut succ);
        if succ.is_empty() {
            result.stuck = true;
            break;
        }
        // Sub-seeds first, in a fixed order, so the parallel scoring is repeatable.
        seeds.clear();
        seeds.extend(succ.iter().map(|_| rng.next_u64()));
        let horizon = remaining - 1;
        let tallies: Vec<Tally> = succ
            .par_iter()
            .zip(seeds.par_iter())
            .map(|((_, s), &seed)| score(p, s, playouts, horizon, seed, (limits, deadline), &stop))
            .collect();
        result.stats.expanded += 1;
        result.stats.generated += succ.len() as u64;
        for t in &tallies {
            result.playouts += t.playouts;
            result.attempts += t.attempts;
        }
        if stop.load(Ordering::Relaxed) {
            result.limit = Some(limits.check(deadline).unwrap_or(LimitKind::Timeout));
            break;
        }
        let best = tallies.iter().map(|t| t.wins).max().unwrap_or(0);
        // With no score every legal move ties, so the fallback random move is the same draw.
        let ties = tallies.iter().filter(|t| t.wins == best).count();
        let k = rng.random_range(0..ties);
        let pick = tallies
            .iter()
            .enumerate()
            .filter(|(_, t)| t.wins == best)
            .nth(k)
            .map(|(i, _)| i)
            .expect("k < ties");
        let (m, next) = succ.swap_remove(pick);
        result.moves.push(m);
        result.scores.push(best);
        state = next;
        remaining -= 1;
        result.stats.states += 1;
        result.stats.depth += 1;
        if let Some(report) = &limits.progress {
            let now = Instant::now();
            if now >= next_report {
                next_report = now + REPORT_EVERY;
                let mut stats = result.stats;
                stats.elapsed = now - start;
                report(&Progress { stats });
            }
        }
    }
    result.stats.elapsed = start.elapsed();
    result
}

#[cfg(test)]
pub(in crate::search) mod tests {
    use super::*;

    /// A token on cells `0..len`; attempts: left, right, and "stay", which is never possible.
    /// `dead` cells have no legal move at all (every attempt fails there). Also the test
    /// puzzle of `search::random_walk`.
    pub(in crate::search) struct Track {
        len: i32,
        start: i32,
        goals: Vec<i32>,
        pub(in crate::search) dead: Vec<i32>,
    }

    impl Track {
        pub(in crate::search) fn new(len: i32, start: i32, goals: &[i32]) -> Track {
            Track {
                len,
                start,
                goals: goals.to_vec(),
                dead: Vec::new(),
            }
        }
        fn step(&self, s: i32, m: char) -> Option<i32> {
            if self.dead.contains(&s) {
                return None;
            }
            let t = match m {
                'L' => s - 1,
                'R' => s + 1,
                _ => return None,
            };
            (0..self.len).contains(&t).then_some(t)
        }
    }

    impl Puzzle for Track {
        type State = i32;
        type Move = char;
        fn start(&self) -> i32 {
            self.start
        }
        fn successors(&self, s: &i32, out: &mut Vec<(char, i32)>) {
            for m in ['L', 'R'] {
                if let Some(t) = self.step(*s, m) {
                    out.push((m, t));
                }
            }
        }
        fn is_goal(&self, s: &i32) -> bool {
            self.goals.contains(s)
        }
        fn random_move<G: Rng + ?Sized>(&self, s: &i32, rng: &mut G) -> Option<(char, i32)> {
            let m = ['L', 'R', 'S'][rng.random_range(0..3usize)];
            self.step(*s, m).map(|t| (m, t))
        }
        const NONE_MEANS_STUCK: bool = false;
    }

    fn rng(seed: u64) -> Pcg64Mcg {
        Pcg64Mcg::seed_from_u64(seed)
    }

    fn replay(t: &Track, moves: &[char]) -> i32 {
        moves
            .iter()
            .fold(t.start, |s, &m| t.step(s, m).expect("legal move"))
    }

    #[test]
    fn random_play_counts_impossible_attempts_and_stops_at_the_goal() {
        let t = Track::new(6, 0, &[5]);
        let (mut solved, mut attempts, mut made) = (0, 0, 0);
        for seed in 0..200 {
            let r = random_play(&t, 200, &mut rng(seed));
            assert!(r.moves.len() as u32 <= r.attempts && r.attempts <= 200);
            assert_eq!(r.solved, t.is_goal(&replay(&t, &r.moves)));
            assert_eq!(r.limit, None);
            if r.solved {
                solved += 1;
                // stops on the attempt that reached the goal
                assert!(r.moves.len() >= 5);
            } else {
                assert_eq!(r.attempts, 200);
            }
            attempts += r.attempts;
            made += r.moves.len() as u32;
        }
        assert!(solved > 150, "{solved}");
        // "stay" is a third of the attempts and never possible, "left" fails on cell 0
        assert!(
            made * 3 < attempts * 2,
            "{made} moves in {attempts} attempts"
        );
    }

    #[test]
    fn random_play_respects_the_cap_and_a_solved_start() {
        let t = Track::new(6, 2, &[2]);
        let r = random_play(&t, 100, &mut rng(1));
        assert!(r.solved && r.attempts == 0 && r.moves.is_empty());
        let t = Track::new(6, 0, &[5]);
        let r = random_play(&t, 0, &mut rng(1));
        assert!(!r.solved && r.attempts == 0);
        let r = random_play(&t, 4, &mut rng(1));
        assert!(!r.solved && r.attempts == 4, "the goal is 5 moves away");
        // a dead start: every attempt fails, all count
        let mut t = Track::new(6, 0, &[5]);
        t.dead.push(0);
        let r = random_play(&t, 1000, &mut rng(1));
        assert!(!r.solved && r.attempts == 1000 && r.moves.is_empty());
    }

    #[test]
    fn random_play_is_repeatable_and_depends_on_the_seed() {
        let t = Track::new(50, 25, &[0]);
        let a = random_play(&t, 300, &mut rng(7));
        let b = random_play(&t, 300, &mut rng(7));
        assert_eq!(a, b);
        let c = random_play(&t, 300, &mut rng(8));
        assert_ne!(a.moves, c.moves);
    }

    #[test]
    fn the_fast_playout_makes_the_same_draws() {
        let t = Track::new(8, 3, &[7]);
        for seed in 0..300 {
            let slow = random_play(&t, 30, &mut rng(seed));
            let fast = playout_solves(&t, &t.start(), 30, &mut rng(seed));
            assert_eq!(fast.is_some(), slow.solved, "seed {seed}");
            if let Some(a) = fast {
                assert_eq!(a, slow.attempts);
            }
        }
        assert_eq!(playout_solves(&t, &7, 0, &mut rng(0)), Some(0));
        assert_eq!(playout_solves(&t, &3, 0, &mut rng(0)), None);
    }

    #[test]
    fn random_play_stops_at_a_zero_timeout() {
        let t = Track::new(8, 3, &[7]);
        let limits = Limits::none().timeout(Duration::ZERO);
        let r = random_play_with(&t, &t.start(), 1000, &mut rng(0), &limits);
        assert_eq!(r.limit, Some(LimitKind::Timeout));
        assert!(!r.solved && r.attempts == 0);
    }

    #[test]
    fn basic_mc_walks_to_the_goal() {
        // 8 cells, goal at the far end, 7 moves needed; a random game from the start rarely
        // solves within 14 attempts, but often enough to guide BasicMC.
        let t = Track::new(8, 0, &[7]);
        for seed in 0..10 {
            let r = basic_mc(&t, 2000, 15, &mut rng(seed), &Limits::none());
            assert!(r.solved, "seed {seed}: {:?}", r.moves);
            assert!(r.moves.len() <= 15);
            assert_eq!(replay(&t, &r.moves), 7);
            assert_eq!(r.scores.len(), r.moves.len());
            assert_eq!(r.stats.depth as usize, r.moves.len());
            assert!(r.playouts > 0 && r.attempts >= r.playouts);
            assert_eq!(r.limit, None);
        }
    }

    #[test]
    fn basic_mc_prefers_the_goal_and_breaks_ties_at_random() {
        // One move left: only a move onto a goal can score, and it scores every playout.
        let t = Track::new(10, 4, &[5]);
        let r = basic_mc(&t, 10, 1, &mut rng(0), &Limits::none());
        assert!(r.solved);
        assert_eq!(r.moves, vec!['R']);
        assert_eq!(r.scores, vec![10]);
        assert_eq!(r.playouts, 0, "a goal move needs no playout");
        // Goals on both sides: both moves score 10, the tie is broken by the seed.
        let t = Track::new(10, 4, &[3, 5]);
        let picks: Vec<char> = (0..40)
            .map(|s| basic_mc(&t, 10, 1, &mut rng(s), &Limits::none()).moves[0])
            .collect();
        assert!(picks.contains(&'L') && picks.contains(&'R'), "{picks:?}");
    }

    #[test]
    fn basic_mc_moves_at_random_when_nothing_scores_and_stops_at_dead_ends() {
        // The goal is 9 moves away and BasicMC has 3: no playout can succeed.
        let t = Track::new(10, 0, &[9]);
        let r = basic_mc(&t, 50, 3, &mut rng(3), &Limits::none());
        assert!(!r.solved);
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.scores, vec![0, 0, 0]);
        assert_eq!(r.blind_steps(), 3);
        // the horizon shrinks: 50 games of 2 attempts for the one move from cell 0, 50 games
        // of 1 attempt for each of the two moves from cell 1, none with no attempt left
        assert_eq!((r.playouts, r.attempts), (150, 200));
        // a cell without moves ends the run
        let mut t = Track::new(10, 0, &[9]);
        t.dead.push(1);
        let r = basic_mc(&t, 50, 5, &mut rng(3), &Limits::none());
        assert_eq!(r.moves, vec!['R']);
        assert!(!r.solved && r.limit.is_none());
        // a solved start makes no move
        let t = Track::new(10, 4, &[4]);
        let r = basic_mc(&t, 50, 5, &mut rng(3), &Limits::none());
        assert!(r.solved && r.moves.is_empty());
    }

    #[test]
    fn basic_mc_is_repeatable_whatever_the_thread_count() {
        let t = Track::new(30, 15, &[7, 23]);
        let run = |threads: usize, seed: u64| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| basic_mc(&t, 300, 20, &mut rng(seed), &Limits::none()))
        };
        let a = run(1, 11);
        let b = run(4, 11);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.scores, b.scores);
        assert_eq!((a.playouts, a.attempts), (b.playouts, b.attempts));
        let differ = (12..20).any(|s| run(2, s).moves != a.moves);
        assert!(differ);
    }

    #[test]
    fn basic_mc_stops_at_a_timeout() {
        let t = Track::new(30, 15, &[0]);
        let limits = Limits::none().timeout(Duration::ZERO);
        let r = basic_mc(&t, 100, 20, &mut rng(0), &limits);
        assert_eq!(r.limit, Some(LimitKind::Timeout));
        assert!(!r.solved && r.moves.is_empty());
        // a timeout inside a step: a huge number of playouts cannot finish in 50 ms
        let limits = Limits::none().timeout(Duration::from_millis(50));
        let began = Instant::now();
        let r = basic_mc(&t, u32::MAX, 20, &mut rng(0), &limits);
        assert_eq!(r.limit, Some(LimitKind::Timeout));
        assert!(!r.solved);
        assert!(began.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn legal_only_counts_moves_not_attempts() {
        let t = Track::new(6, 0, &[5]);
        let legal = LegalOnly(&t);
        for seed in 0..50 {
            let r = random_play(&legal, 200, &mut rng(seed));
            assert_eq!(
                r.attempts as usize,
                r.moves.len(),
                "every attempt is a move"
            );
            assert_eq!(r.solved, t.is_goal(&replay(&t, &r.moves)));
        }
        // from cell 0 only "right" is legal: always chosen; elsewhere left and right evenly
        let mut g = rng(9);
        assert!((0..100).all(|_| legal.random_move(&0, &mut g) == Some(('R', 1))));
        let rights = (0..10_000)
            .filter(|_| legal.random_move(&3, &mut g).unwrap().0 == 'R')
            .count();
        assert!((4_700..=5_300).contains(&rights), "{rights}");
        // a dead cell: no legal move, after the redraws and the successor list
        let mut t = Track::new(6, 0, &[5]);
        t.dead.push(0);
        assert_eq!(LegalOnly(&t).random_move(&0, &mut g), None);
        // the 5 moves of the only solution fit a horizon of 5 moves: a cap of 5 attempts
        // solves far more often with redrawn attempts
        let t = Track::new(6, 0, &[5]);
        let solved = |legal: bool| {
            (0..2_000)
                .filter(|&s| {
                    let mut g = rng(s);
                    if legal {
                        playout_solves(&LegalOnly(&t), &0, 5, &mut g).is_some()
                    } else {
                        playout_solves(&t, &0, 5, &mut g).is_some()
                    }
                })
                .count()
        };
        assert!(solved(true) > 3 * solved(false));
    }
}
