//! Why a position is lost (`floe explain`): the move that lost it, and a **dead core** — the
//! smallest set of pieces (blocks, targets, fires, rocks: [`Game::core_pieces`]) that cannot
//! be solved on its own, the other pieces taken away ([`Game::restricted`]).
//!
//! Every answer comes from the exact solver ([`verdict`]), within the caller's limits:
//! - the move that lost it is found by halving the moves played (once a position is lost,
//!   every later one is): a few solves;
//! - the core is sought in three steps: every set of none or one piece alone (quick: few
//!   pieces, small searches); then the whole set, shrunk one piece at a time while what is
//!   left stays dead (a set no piece of which can be spared); then every set smaller than
//!   that, size by size, so that the first dead one found is the smallest. When a limit or
//!   the cap on sets stops the search, the answer is the smallest dead set found so far,
//!   marked as not proved smallest ("at most this small").

use super::solve::params_of;
use super::verdict::{verdict, Verdict};
use crate::error::Error;
use crate::game::{replay, CorePieces, Game, Move, ParamValues};
use crate::grid::Pos;
use crate::search::{LimitKind, Limits};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Where a position stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Standing {
    /// It is solved.
    Solved,
    /// It can still be solved.
    Solvable,
    /// It can no longer be solved.
    Lost,
    /// A limit stopped the solver before it could tell.
    Unknown,
}

/// The move that lost a level: the last position from which it could be solved is before it.
#[derive(Clone, Debug, Serialize)]
pub struct LostAt {
    /// Its number among the moves played, from 1.
    pub index: u64,
    /// The move.
    pub played: Move,
    /// How many moves to take back to save the level (1: Undo saves it).
    pub undo: u64,
}

/// A dead core: pieces that cannot be solved on their own.
#[derive(Clone, Debug, Serialize)]
pub struct DeadCore {
    /// The kind of its pieces: `blocks`, `targets`, `fires`, `rocks`.
    pub kind: &'static str,
    /// Their cells.
    pub cells: Vec<Pos>,
    /// Whether it is proved smallest: every smaller set of pieces was solved alone. False when
    /// a limit or the cap on sets stopped the search first (then no more than this many
    /// pieces are needed).
    pub smallest: bool,
    /// How many pieces the position has of that kind.
    pub pieces: usize,
    /// Sets of pieces tried alone.
    pub tried: u64,
    /// Of them, those a limit stopped before they could be told.
    pub unknown: u64,
    /// What stopped the search for a smaller core, when something did (`subsets`: the cap).
    pub stopped: Option<String>,
    /// How the explanation speaks of it: [`CorePieces::one`], `many` and `none`.
    #[serde(skip)]
    pub words: [&'static str; 3],
}

/// The explanation of a position (`floe explain --json`).
#[derive(Clone, Debug, Serialize)]
pub struct Explained {
    /// The game's name.
    pub game: &'static str,
    /// The level's name.
    pub level: String,
    /// The parameters in force.
    pub params: ParamValues,
    /// Moves played from the start.
    pub played: u64,
    /// Where the position stands.
    pub standing: Standing,
    /// Fewest moves still needed, when it can be solved.
    pub to_go: Option<u32>,
    /// The first limit that left part of the explanation untold: the standing, the move that
    /// lost it (then `lost_at` is `None` though the level was not lost from its start), or
    /// sets of pieces tried alone (then the core is not proved smallest).
    pub limit: Option<&'static str>,
    /// The move that lost the level (none when it was lost from its start, or a limit hid it:
    /// see `limit`).
    pub lost_at: Option<LostAt>,
    /// Whether the level could not be solved even from its start.
    pub lost_from_start: bool,
    /// The dead core, when the position is lost and the game has pieces to explain it by.
    pub core: Option<DeadCore>,
    /// The explanation in one or two sentences.
    pub sentence: String,
    /// The position, in the game's notation.
    pub position: String,
    /// Seconds taken.
    pub seconds: f64,
}

/// What the explanation may spend: the caller's limits for every solve (its timeout for the
/// whole explanation), and at most `subsets` sets of pieces tried alone.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Limits of each solve; the timeout bounds the whole explanation.
    pub limits: Limits,
    /// Sets of pieces tried alone, at most.
    pub subsets: u64,
}

/// A solve bounded by what is left of the explanation's time.
struct Clock {
    limits: Limits,
    deadline: Option<Instant>,
}

impl Clock {
    fn new(limits: &Limits) -> Clock {
        Clock {
            deadline: limits.timeout.map(|t| Instant::now() + t),
            limits: limits.clone(),
        }
    }
    /// The verdict of `pos` on `level`, within the time left.
    fn verdict<G: Game>(
        &self,
        g: G,
        level: &G::Level,
        pos: &G::Position,
    ) -> Result<Verdict, Error> {
        let mut limits = self.limits.clone();
        if let Some(d) = self.deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(Verdict::Unknown(LimitKind::Timeout));
            }
            limits.timeout = Some(left.max(Duration::from_millis(1)));
        }
        verdict(g, level, pos, &limits)
    }
}

/// Explains the position after `moves` on `level`: where it stands, and when it is lost, the
/// move that lost it and a dead core.
pub(crate) fn explain<G: Game>(
    g: G,
    level: &G::Level,
    name: &str,
    moves: &[G::Move],
    budget: &Budget,
) -> Result<Explained, Error> {
    let t0 = Instant::now();
    g.check(level)?;
    let r = replay(g, level, moves).map_err(|(i, why)| {
        Error::invalid(format!("move {} ({}) is illegal: {why}", i + 1, moves[i]))
    })?;
    let pos = r.positions.last().expect("the start");
    let clock = Clock::new(&budget.limits);
    let mut e = Explained {
        game: g.info().name,
        level: name.to_string(),
        params: params_of(g, level),
        played: moves.len() as u64,
        standing: Standing::Unknown,
        to_go: None,
        limit: None,
        lost_at: None,
        lost_from_start: false,
        core: None,
        sentence: String::new(),
        position: g.position_text(level, pos),
        seconds: 0.0,
    };
    match clock.verdict(g, level, pos)? {
        Verdict::Solvable { moves: 0, .. } => e.standing = Standing::Solved,
        Verdict::Solvable { moves, .. } => {
            e.standing = Standing::Solvable;
            e.to_go = Some(moves);
        }
        Verdict::Unknown(l) => e.limit = Some(l.name()),
        Verdict::Unsolvable => {
            e.standing = Standing::Lost;
            match first_lost(g, level, &r.positions, &clock)? {
                Ok(0) => e.lost_from_start = true,
                Ok(i) => {
                    e.lost_at = Some(LostAt {
                        index: i as u64,
                        played: Move::new(moves[i - 1].clone()),
                        undo: (moves.len() + 1 - i) as u64,
                    })
                }
                Err(l) => e.limit = Some(l.name()),
            }
            let (core, limit) = dead_core(g, level, pos, &clock, budget.subsets)?;
            e.core = core;
            e.limit = e.limit.or(limit.map(LimitKind::name));
        }
    }
    e.sentence = sentence(g, &e);
    e.seconds = t0.elapsed().as_secs_f64();
    Ok(e)
}

/// The index of the first lost position of `positions` (the last one is lost), or the
/// limit that left one of the positions halving looked at unknown.
fn first_lost<G: Game>(
    g: G,
    level: &G::Level,
    positions: &[G::Position],
    clock: &Clock,
) -> Result<Result<usize, LimitKind>, Error> {
    // positions[hi] is lost; positions[lo] can be solved, once the start is known to be
    let mut hi = positions.len() - 1;
    if hi == 0 {
        return Ok(Ok(0));
    }
    match clock.verdict(g, level, &positions[0])? {
        Verdict::Unsolvable => return Ok(Ok(0)),
        Verdict::Unknown(l) => return Ok(Err(l)),
        Verdict::Solvable { .. } => {}
    }
    let mut lo = 0;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match clock.verdict(g, level, &positions[mid])? {
            Verdict::Unsolvable => hi = mid,
            Verdict::Solvable { .. } => lo = mid,
            Verdict::Unknown(l) => return Ok(Err(l)),
        }
    }
    Ok(Ok(hi))
}

/// What trying a set of pieces alone told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Alone {
    Dead,
    Alive,
    Unknown(LimitKind),
}

/// The search for a dead core of `pos`, a lost position.
struct CoreSearch<'a, G: Game> {
    g: G,
    level: &'a G::Level,
    pos: &'a G::Position,
    clock: &'a Clock,
    cells: Vec<Pos>,
    cap: u64,
    tried: u64,
    unknown: u64,
    stopped: Option<String>,
    /// The first limit that left a set untold.
    limit: Option<LimitKind>,
}

impl<G: Game> CoreSearch<'_, G> {
    /// Whether the pieces `set` (indices into `cells`) are dead alone.
    fn alone(&mut self, set: &[usize]) -> Result<Alone, Error> {
        if self.tried >= self.cap {
            self.stopped = Some("subsets".into());
            return Ok(Alone::Unknown(LimitKind::MaxStates));
        }
        self.tried += 1;
        let keep: Vec<Pos> = set.iter().map(|&i| self.cells[i]).collect();
        let mut told = Alone::Dead;
        for (level, pos) in self.g.restricted(self.level, self.pos, &keep)? {
            match self.clock.verdict(self.g, &level, &pos)? {
                Verdict::Solvable { .. } => return Ok(Alone::Alive),
                Verdict::Unsolvable => {}
                Verdict::Unknown(l) => told = Alone::Unknown(l),
            }
        }
        if let Alone::Unknown(l) = told {
            self.unknown += 1;
            self.limit = self.limit.or(Some(l));
            if matches!(
                l,
                LimitKind::Timeout | LimitKind::Interrupted | LimitKind::MaxMemory
            ) {
                self.stopped = Some(l.name().into());
            }
        }
        Ok(told)
    }

    /// Every set of `k` pieces in order, until one is dead (`Some`) or the search stops;
    /// and whether every set of that size was told alive (none left unknown or untried).
    fn of_size(&mut self, k: usize) -> Result<(Option<Vec<usize>>, bool), Error> {
        let n = self.cells.len();
        let mut set: Vec<usize> = (0..k).collect();
        let mut clean = true;
        loop {
            if self.stopped.is_some() {
                return Ok((None, false));
            }
            match self.alone(&set)? {
                Alone::Dead => return Ok((Some(set), clean)),
                Alone::Alive => {}
                Alone::Unknown(_) => clean = false,
            }
            if !crate::game::next_choice(&mut set, n) {
                return Ok((None, clean && self.stopped.is_none()));
            }
        }
    }

    /// The whole set shrunk one piece at a time while what is left stays dead.
    fn shrink(&mut self) -> Result<Vec<usize>, Error> {
        let mut core: Vec<usize> = (0..self.cells.len()).collect();
        let mut i = 0;
        while i < core.len() && self.stopped.is_none() {
            let mut trial = core.clone();
            trial.remove(i);
            if self.alone(&trial)? == Alone::Dead {
                core = trial;
            } else {
                i += 1;
            }
        }
        Ok(core)
    }
}

/// The smallest dead set of the pieces of `pos` (a lost position), or `None` for a game
/// without pieces to explain by; and the first limit that left a set untold.
fn dead_core<G: Game>(
    g: G,
    level: &G::Level,
    pos: &G::Position,
    clock: &Clock,
    cap: u64,
) -> Result<(Option<DeadCore>, Option<LimitKind>), Error> {
    let Some(pieces) = g.core_pieces(level, pos) else {
        return Ok((None, None));
    };
    let mut s = CoreSearch {
        g,
        level,
        pos,
        clock,
        cells: pieces.cells.clone(),
        cap,
        tried: 0,
        unknown: 0,
        stopped: None,
        limit: None,
    };
    let n = s.cells.len();
    // `clean`: every set smaller than the next size tried was told alive
    let mut clean = true;
    // sizes 0 and 1 first: quick, and the commonest answer
    for k in 0..=n.min(1) {
        let (found, all_alive) = s.of_size(k)?;
        if let Some(set) = found {
            return Ok((Some(finish(&pieces, set, clean, &s)), s.limit));
        }
        clean &= all_alive;
    }
    // the whole set is the position itself, lost: shrunk, it stays dead
    let core = s.shrink()?;
    for k in 2..core.len() {
        let (found, all_alive) = s.of_size(k)?;
        if let Some(set) = found {
            return Ok((Some(finish(&pieces, set, clean, &s)), s.limit));
        }
        clean &= all_alive;
    }
    Ok((Some(finish(&pieces, core, clean, &s)), s.limit))
}

fn finish<G: Game>(p: &CorePieces, set: Vec<usize>, smallest: bool, s: &CoreSearch<G>) -> DeadCore {
    DeadCore {
        kind: p.kind,
        cells: set.iter().map(|&i| s.cells[i]).collect(),
        smallest,
        pieces: s.cells.len(),
        tried: s.tried,
        unknown: s.unknown,
        stopped: s.stopped.clone(),
        words: [p.one, p.many, p.none],
    }
}

/// A small count in words ("two"), a larger one in digits.
fn words(n: usize) -> String {
    const W: [&str; 11] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    W.get(n).map_or_else(|| n.to_string(), |w| w.to_string())
}

/// The explanation in words.
fn sentence<G: Game>(g: G, e: &Explained) -> String {
    let info = g.info();
    match e.standing {
        Standing::Solved => return "It is solved.".into(),
        Standing::Solvable => {
            let n = e.to_go.unwrap_or(0) as u64;
            return format!(
                "It is not lost: it can still be solved in {}.",
                crate::say::count(n, info.move_word, info.moves_word())
            );
        }
        Standing::Unknown => {
            return format!(
                "The solver could not tell within the limits ({}).",
                e.limit.unwrap_or("max-states")
            )
        }
        Standing::Lost => {}
    }
    let mut out = String::new();
    // "can no longer" of a position that never could
    let tense = |what: &str| {
        if e.lost_from_start {
            what.replacen("can no longer", "cannot", 1)
        } else {
            what.to_string()
        }
    };
    match &e.core {
        None => out.push_str(&tense("It can no longer be solved.")),
        Some(c) if c.cells.is_empty() => {
            out.push_str(&capital(&tense(c.words[2])));
            out.push('.');
        }
        Some(c) => {
            let one = c.kind.strip_suffix('s').unwrap_or(c.kind);
            let n = c.cells.len();
            let who = if n == 1 {
                format!("This {one}")
            } else {
                format!("These {} {}", words(n), c.kind)
            };
            let what = tense(if n == 1 { c.words[0] } else { c.words[1] });
            let hedge = match (&c.stopped, c.unknown) {
                _ if c.smallest => String::new(),
                (Some(s), _) if s == "subsets" => {
                    " (perhaps fewer: the cap on sets tried stopped the search for fewer)".into()
                }
                (Some(s), _) if s == "interrupted" => {
                    " (perhaps fewer: the search for fewer was interrupted)".into()
                }
                (Some(s), _) => {
                    format!(" (perhaps fewer: the {s} limit stopped the search for fewer)")
                }
                (None, n) => format!(
                    " (perhaps fewer: {} of fewer pieces left unknown by the limits)",
                    crate::say::count(n, "set", "sets")
                ),
            };
            out.push_str(&format!("{who}{hedge} {what}."));
        }
    }
    if e.lost_from_start {
        out.push_str(" The level cannot be solved from its start.");
    } else if let Some(l) = &e.lost_at {
        let word = info.move_word;
        let mut w = capital(word);
        w.push_str(&format!(" {}, {}, lost it", l.index, l.played));
        if l.undo == 1 {
            w.push_str(": Undo saves it.");
        } else {
            w.push_str(&format!(
                ": take back {} to save it.",
                crate::say::count(l.undo, word, info.moves_word())
            ));
        }
        out.push(' ');
        out.push_str(&w);
    } else if let Some(l) = e.limit {
        out.push_str(&format!(
            " The {} that lost it was not found within the limits ({l}).",
            info.move_word
        ));
    }
    out
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ice::Ice;
    use crate::games::icepath::IcePath;
    use crate::games::icetower::IceTower;
    use crate::games::pushpush::PushPush;
    use crate::ops::verdict::legal_moves;
    use std::collections::{HashSet, VecDeque};

    fn budget() -> Budget {
        Budget {
            limits: Limits::default(),
            subsets: SUBSETS_FOR_TESTS,
        }
    }
    const SUBSETS_FOR_TESTS: u64 = 100_000;

    fn level<G: Game>(g: G, text: &str) -> G::Level {
        g.parse(text, "test", None)
            .expect("the level reads")
            .remove(0)
    }

    /// The brute-force model: a breadth-first search over the moves the engine lists, each
    /// played by the game's rules, until a solved position.
    fn model_solvable<G: Game>(g: G, level: &G::Level, start: &G::Position) -> bool {
        let mut seen = HashSet::from([g.position_key(level, start)]);
        let mut queue = VecDeque::from([start.clone()]);
        while let Some(pos) = queue.pop_front() {
            if g.solved(level, &pos) {
                return true;
            }
            for m in legal_moves(g, level, &pos).expect("moves") {
                let mut next = pos.clone();
                g.apply(level, &mut next, &m)
                    .expect("a listed move is legal");
                if seen.insert(g.position_key(level, &next)) {
                    queue.push_back(next);
                }
            }
            assert!(seen.len() < 500_000, "a small room");
        }
        false
    }

    /// Whether `keep` alone is dead by the model: no restriction of it can be solved.
    fn dead_alone<G: Game>(g: G, level: &G::Level, pos: &G::Position, keep: &[Pos]) -> bool {
        g.restricted(level, pos, keep)
            .expect("restricted")
            .iter()
            .all(|(l, p)| !model_solvable(g, l, p))
    }

    /// The core of the position after `moves` holds what a dead core must: dead alone, the
    /// whole set restricted is the position itself, and every proper subset is alive.
    fn check_core<G: Game>(g: G, level: &G::Level, moves: &[G::Move]) -> Explained {
        let e = explain(g, level, "test", moves, &budget()).expect("explains");
        assert_eq!(e.standing, Standing::Lost, "{}", e.sentence);
        let pos = replay(g, level, moves).unwrap().positions.pop().unwrap();
        let all = g.core_pieces(level, &pos).unwrap().cells;
        assert!(
            dead_alone(g, level, &pos, &all),
            "the whole set is the lost position"
        );
        let core = e.core.clone().expect("a core");
        assert!(core.smallest, "{}", e.sentence);
        assert!(dead_alone(g, level, &pos, &core.cells), "{}", e.sentence);
        // every proper subset (all of them: cores are small) can be solved alone
        let n = core.cells.len();
        for mask in 0..(1u32 << n) - 1 {
            let sub: Vec<Pos> = (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| core.cells[i])
                .collect();
            assert!(
                !dead_alone(g, level, &pos, &sub),
                "{sub:?} of {:?}",
                core.cells
            );
        }
        // and no set of fewer pieces is dead at all
        for k in 0..n {
            for set in crate::game::choices(&all, k) {
                assert!(!dead_alone(g, level, &pos, &set), "{set:?} is smaller");
            }
        }
        e
    }

    fn cells(v: &[(usize, usize)]) -> Vec<Pos> {
        v.iter().map(|&(r, c)| Pos::new(r, c)).collect()
    }

    #[test]
    fn one_block_cannot_fill_two_targets_and_the_core_is_both() {
        let l = level(Ice, "$--.\n.---\n");
        let e = check_core(Ice, &l, &[]);
        let c = e.core.unwrap();
        assert_eq!((c.kind, c.cells), ("targets", cells(&[(0, 3), (1, 0)])));
        assert!(e.lost_from_start && e.lost_at.is_none());
        assert!(
            e.sentence
                == "These two targets cannot all get blocks. The level cannot be solved from its start.",
            "{}",
            e.sentence
        );
    }

    #[test]
    fn a_frozen_block_is_the_core_when_every_block_needs_a_target() {
        let l = level(Ice, "#$#-\n#=#-\n$--.\n---.\n");
        let e = check_core(Ice, &l, &[]);
        let c = e.core.unwrap();
        assert_eq!((c.kind, c.cells), ("blocks", cells(&[(0, 1)])));
        assert!(
            e.sentence.starts_with("This block cannot reach a target."),
            "{}",
            e.sentence
        );
    }

    #[test]
    fn a_block_the_robot_can_no_longer_move_is_the_pushpush_core() {
        let l = level(PushPush, "Game: pushpush\n@$-.\n##--\n");
        let e = check_core(PushPush, &l, &[]);
        assert_eq!(e.core.unwrap().cells, cells(&[(0, 1)]));
    }

    #[test]
    fn one_ice_block_for_two_fires_makes_both_fires_the_core() {
        let l = level(IceTower, "#########\n#*  %  *#\n#   @   #\n#########\n");
        let e = check_core(IceTower, &l, &[]);
        let c = e.core.unwrap();
        assert_eq!((c.kind, c.cells), ("fires", cells(&[(1, 1), (1, 7)])));
        assert!(
            e.sentence
                .starts_with("These two fires cannot all be put out."),
            "{}",
            e.sentence
        );
    }

    #[test]
    fn two_rocks_of_a_wall_of_three_bar_the_ice_path() {
        let l = level(IcePath, "@#.\n-#-\n-#-\n");
        let e = check_core(IcePath, &l, &[]);
        let c = e.core.unwrap();
        assert_eq!((c.kind, c.cells), ("rocks", cells(&[(0, 1), (2, 1)])));
    }

    #[test]
    fn the_push_that_lost_it_is_found_and_how_much_to_take_back() {
        // solved at the start (the robot walks round); pushing the top block onto the target
        // loses it, and the push after that changes nothing
        let l = level(PushPush, "Game: pushpush\n@$--.\n-----\n-$---\n");
        let moves = PushPush.parse_moves("0 1 right\n2 1 right\n", "m").unwrap();
        let e = check_core(PushPush, &l, &moves);
        let at = e.lost_at.clone().expect("the push that lost it");
        assert_eq!(
            (at.index, at.undo, at.played.to_string()),
            (1, 2, "(0, 1) right".into())
        );
        assert_eq!(e.core.unwrap().cells, cells(&[(0, 4)]));
        assert!(
            e.sentence
                .ends_with("Push 1, (0, 1) right, lost it: take back 2 pushes to save it."),
            "{}",
            e.sentence
        );
        let e = explain(PushPush, &l, "t", &moves[..1], &budget()).unwrap();
        assert!(
            e.sentence.ends_with("lost it: Undo saves it."),
            "{}",
            e.sentence
        );
        let e = explain(PushPush, &l, "t", &[], &budget()).unwrap();
        assert_eq!(e.standing, Standing::Solved);
    }

    #[test]
    fn a_limit_that_hides_the_push_that_lost_it_is_said() {
        let l = level(PushPush, "Game: pushpush\n@$--.\n-----\n-$---\n");
        let moves = PushPush.parse_moves("0 1 right\n2 1 right\n", "m").unwrap();
        let positions = replay(PushPush, &l, &moves).unwrap().positions;
        // one position stored at most: the start (solved) answers, a lost position does not
        let tight = Clock::new(&Limits {
            max_states: Some(1),
            ..Limits::default()
        });
        let found = first_lost(PushPush, &l, &positions, &tight).unwrap();
        assert_eq!(found, Err(LimitKind::MaxStates));
        let mut e = explain(PushPush, &l, "t", &moves, &budget()).unwrap();
        (e.lost_at, e.limit) = (None, Some(LimitKind::MaxStates.name()));
        let said = sentence(PushPush, &e);
        assert!(
            said.ends_with("The push that lost it was not found within the limits (max-states)."),
            "{said}"
        );
    }

    #[test]
    fn a_solved_position_and_an_illegal_move_are_told_apart() {
        let l = level(Ice, "*--\n");
        let e = explain(Ice, &l, "t", &[], &budget()).unwrap();
        assert_eq!(
            (e.standing, e.sentence.as_str()),
            (Standing::Solved, "It is solved.")
        );
        let l = level(Ice, "$--.\n");
        let bad = Ice.parse_moves("0 0 up", "m").unwrap();
        let err = explain(Ice, &l, "t", &bad, &budget())
            .unwrap_err()
            .to_string();
        assert!(err.contains("move 1") && err.contains("illegal"), "{err}");
    }

    #[test]
    fn a_cap_on_sets_gives_a_dead_set_not_proved_smallest() {
        let l = level(IceTower, "#########\n#*  %  *#\n#   @   #\n#########\n");
        let b = Budget {
            limits: Limits::default(),
            subsets: 2,
        };
        let e = explain(IceTower, &l, "t", &[], &b).unwrap();
        let c = e.core.unwrap();
        assert!(!c.smallest && c.stopped.as_deref() == Some("subsets"));
        assert_eq!(c.cells.len(), 2, "the whole set, known dead");
        assert!(e.sentence.contains("perhaps fewer"), "{}", e.sentence);
    }

    /// A tiny deterministic generator of random numbers (xorshift).
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
        /// A room of `rows × cols` of `floor`, with `pieces` each put on a free cell.
        fn room(&mut self, rows: usize, cols: usize, floor: char, pieces: &[char]) -> String {
            let mut cells = vec![floor; rows * cols];
            for &p in pieces {
                let free: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == floor).collect();
                cells[free[self.below(free.len())]] = p;
            }
            cells
                .chunks(cols)
                .map(|r| r.iter().collect::<String>() + "\n")
                .collect()
        }
    }

    /// Random rooms of `game` played at random until lost: each lost position's core holds
    /// what a dead core must ([`check_core`]); at least `want` of them are checked.
    fn random_rooms<G: Game>(g: G, want: usize, room: impl Fn(&mut Rng) -> String) {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0;
        for _ in 0..400 {
            let Ok(mut levels) = g.parse(&room(&mut rng), "room", None) else {
                continue;
            };
            let l = levels.remove(0);
            let mut pos = g.start(&l);
            let mut moves = Vec::new();
            for _ in 0..10 {
                if !model_solvable(g, &l, &pos) {
                    check_core(g, &l, &moves);
                    checked += 1;
                    break;
                }
                let legal = legal_moves(g, &l, &pos).unwrap();
                if legal.is_empty() || g.solved(&l, &pos) {
                    break;
                }
                let m = legal[rng.below(legal.len())].clone();
                g.apply(&l, &mut pos, &m).unwrap();
                moves.push(m);
            }
            if checked >= want {
                return;
            }
        }
        panic!(
            "only {checked} lost positions among the rooms of {}",
            g.info().name
        );
    }

    #[test]
    fn every_core_of_random_small_rooms_is_dead_alone_and_nothing_smaller_is() {
        random_rooms(Ice, 12, |r| {
            r.room(3, 4, '-', &['$', '$', '.', '.', '#', '#', '='])
        });
        random_rooms(Ice, 12, |r| {
            r.room(3, 4, '-', &['$', '$', '$', '.', '.', '=', '=', '#'])
        });
        random_rooms(PushPush, 12, |r| {
            format!(
                "Game: pushpush\n{}",
                r.room(3, 4, '-', &['@', '.', '$', '$', '$', '#'])
            )
        });
        random_rooms(IceTower, 8, |r| {
            let inner = r.room(3, 5, ' ', &['@', '%', '%', '*', '*', '*', '#']);
            let mut t = String::from("#######\n");
            for line in inner.lines() {
                t.push_str(&format!("#{line}#\n"));
            }
            t + "#######\n"
        });
        random_rooms(IcePath, 12, |r| {
            r.room(4, 4, '-', &['@', '.', '#', '#', '#', '='])
        });
    }
}
