//! Learning environments of every game that has a fixed action encoding
//! ([`Learning`](crate::game::Learning)): a level's [`Table`] (its state graph with numbered
//! actions, exact distances to a solved position and observation planes, built once and
//! shared) and [`Envs`], any number of environments over one level or a pack of levels of one
//! shape, stepped together in one call (the work of Python's `floe.env` and Gymnasium's
//! `floe/Ice-v0`, …).
//!
//! An environment's episode starts at its level's start (or at a random position from which
//! the level can still be solved, [`Start::Random`]); an action is a number below
//! [`Table::actions`]; the moves it may take are its mask. A move that solves the level earns
//! 1, every other move `step_reward`, an action that is no move here leaves the position as it
//! is and earns `illegal_reward`. The episode ends (`terminated`) when the level is solved or no
//! move is left (or, with `end_when_lost`, when it can no longer be solved) and is cut short
//! (`truncated`) after `max_steps` actions. Ended environments start again as Gymnasium's
//! autoreset modes say ([`Autoreset`]).

mod table;

pub use table::{Stopped, Table};

pub(crate) use table::build;

use crate::error::Error;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use rayon::prelude::*;
use std::sync::Arc;

/// Where an episode starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Start {
    /// The level's start.
    #[default]
    Level,
    /// A position drawn uniformly among those from which the level can still be solved and
    /// that are not solved, at most `max_distance` moves from a solved one when it is given.
    Random {
        /// The farthest a start may be from a solved position.
        max_distance: Option<u32>,
    },
}

/// What an environment does after its episode ended (Gymnasium's autoreset modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Autoreset {
    /// The next step starts a new episode, whatever its action (reward 0, not ended).
    #[default]
    NextStep,
    /// The step that ends an episode starts the next one: its observation is the new
    /// episode's, the ended one's goes to `final`.
    SameStep,
    /// No reset but asked for ([`Envs::reset`]); stepping an ended environment is refused.
    Disabled,
}

/// How the environments play.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Actions per episode before it is cut short; 0: no cap.
    pub max_steps: u32,
    /// The reward of a move that does not solve the level.
    pub step_reward: f64,
    /// The reward of an action that is no move in the position.
    pub illegal_reward: f64,
    /// Where episodes start.
    pub start: Start,
    /// An episode also ends when the level can no longer be solved.
    pub end_when_lost: bool,
    /// What happens after an episode ends.
    pub autoreset: Autoreset,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_steps: 0,
            step_reward: 0.0,
            illegal_reward: 0.0,
            start: Start::Level,
            end_when_lost: false,
            autoreset: Autoreset::NextStep,
        }
    }
}

/// One environment.
#[derive(Clone, Debug)]
struct One {
    /// Its level in the pack.
    table: u32,
    /// Its position.
    state: u32,
    /// Actions of the episode so far.
    steps: u32,
    /// Its episode ended (and it was not started again yet).
    ended: bool,
    /// Draws levels and random starts.
    rng: Pcg64,
    /// Draws random actions ([`Envs::random_actions`]), apart from `rng` so that asking
    /// for them changes no episode.
    sampler: Pcg64,
}

/// Where one step's results go, one row per environment: the observation (`planes × rows ×
/// cols` bytes), reward, ended (`terminated`, `truncated`: 0 or 1), the action mask, the
/// fewest moves to a solved position (−1: none), whether the action was a move, the
/// episode's level in the pack and its actions so far. With [`Autoreset::SameStep`], `last`
/// receives the ended episode's observation, distance and mask where one ended.
pub struct Out<'a> {
    /// `n × planes × rows × cols`.
    pub obs: &'a mut [u8],
    /// `n`.
    pub reward: &'a mut [f64],
    /// `n`, 0 or 1.
    pub terminated: &'a mut [u8],
    /// `n`, 0 or 1.
    pub truncated: &'a mut [u8],
    /// `n × actions`, 0 or 1.
    pub mask: &'a mut [u8],
    /// `n`.
    pub distance: &'a mut [i32],
    /// `n`, 0 or 1: the action was a move.
    pub legal: &'a mut [u8],
    /// `n`: the level of each environment's episode in the pack.
    pub level: &'a mut [i32],
    /// `n`: actions of the episode so far.
    pub steps: &'a mut [i32],
    /// The ended episodes' last observations and distances ([`Autoreset::SameStep`]).
    pub last: Option<Last<'a>>,
}

/// The ended episodes' last observation, distance, mask, level and actions (`ended`: 0 or 1
/// per environment).
pub struct Last<'a> {
    /// `n × planes × rows × cols`.
    pub obs: &'a mut [u8],
    /// `n`.
    pub distance: &'a mut [i32],
    /// `n`, 1 where an episode ended in this step.
    pub ended: &'a mut [u8],
    /// `n × actions`.
    pub mask: &'a mut [u8],
    /// `n`: the ended episode's level in the pack.
    pub level: &'a mut [i32],
    /// `n`: the ended episode's actions.
    pub steps: &'a mut [i32],
}

/// Environments over a level or a pack of levels of one shape, stepped together.
#[derive(Debug)]
pub struct Envs {
    tables: Vec<Arc<Table>>,
    envs: Vec<One>,
    options: Options,
}

/// Environments stepped by one thread before the work is shared between threads.
const ALONE: usize = 256;

impl Envs {
    /// `n` environments over `tables` (one level, or a pack drawn from at each reset), seeded
    /// `seed`, `seed + 1`, …: refused when the levels' shapes differ or random starts have
    /// no position to draw from.
    pub fn new(
        tables: Vec<Arc<Table>>,
        n: usize,
        options: Options,
        seed: u64,
    ) -> Result<Envs, Error> {
        let Some(first) = tables.first() else {
            return Err(Error::invalid("no level to play"));
        };
        if tables.len() > u32::MAX as usize {
            return Err(Error::invalid("more levels than a pack holds"));
        }
        let shape = first.shape();
        for t in &tables[1..] {
            if t.game != first.game {
                return Err(Error::invalid(format!(
                    "the levels of a pack are of one game: {} is {}, {} is {}",
                    first.level, first.game, t.level, t.game
                )));
            }
            if t.shape() != shape {
                return Err(Error::invalid(format!(
                    "the levels of a pack have one size: {} is {}×{}, {} is {}×{}",
                    first.level, first.rows, first.cols, t.level, t.rows, t.cols
                )));
            }
        }
        if options.start == Start::Level {
            for t in &tables {
                playable_at(t, 0, "its start")?;
            }
        }
        if let Start::Random { max_distance } = options.start {
            for t in &tables {
                let k = max_distance.map_or(t.playable().len(), |d| t.playable_within(d));
                if k == 0 {
                    return Err(Error::invalid(format!(
                        "{}: no position to start from at random: none can be solved{}",
                        t.level,
                        max_distance.map_or(String::new(), |d| format!(" within {d} moves"))
                    )));
                }
            }
        }
        if n == 0 {
            return Err(Error::invalid("at least one environment"));
        }
        let envs = (0..n)
            .map(|i| One {
                table: 0,
                state: 0,
                steps: 0,
                ended: true,
                rng: Pcg64::seed_from_u64(seed.wrapping_add(i as u64)),
                sampler: sampler(seed.wrapping_add(i as u64)),
            })
            .collect();
        Ok(Envs {
            tables,
            envs,
            options,
        })
    }
    /// How many environments.
    pub fn len(&self) -> usize {
        self.envs.len()
    }
    /// Whether there are none (never: at least one is made).
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }
    /// The levels' tables.
    pub fn tables(&self) -> &[Arc<Table>] {
        &self.tables
    }
    /// How they play.
    pub fn options(&self) -> &Options {
        &self.options
    }
    /// Environment `i`'s level in the pack and position.
    pub fn at(&self, i: usize) -> (usize, u32) {
        let e = &self.envs[i];
        (e.table as usize, e.state)
    }
    /// Seeds environment `i`'s random draws (levels, random starts, random actions).
    pub fn seed(&mut self, i: usize, seed: u64) {
        self.envs[i].rng = Pcg64::seed_from_u64(seed);
        self.envs[i].sampler = sampler(seed);
    }
    /// A random action per environment into `out`: one of its moves, uniformly (0 where it
    /// has none: its episode ended or it is stuck), drawn with its own generator.
    pub fn random_actions(&mut self, out: &mut [i64]) -> Result<(), Error> {
        if out.len() != self.envs.len() {
            return Err(Error::invalid(format!(
                "{} actions for {} environments",
                out.len(),
                self.envs.len()
            )));
        }
        let tables = &self.tables;
        self.envs
            .par_iter_mut()
            .zip(out.par_iter_mut())
            .with_min_len(ALONE)
            .for_each(|(e, a)| {
                let moves = tables[e.table as usize].moves(e.state);
                *a = if e.ended || moves.is_empty() {
                    0
                } else {
                    i64::from(moves[e.sampler.random_range(0..moves.len())].0)
                };
            });
        Ok(())
    }
    /// Starts new episodes in the environments `which` says (every one when `None`), at
    /// `at` when given (a level of the pack and one of its positions: one for every
    /// environment, or one each) and writes their observations into `out` (the others'
    /// rows are written too, as they are).
    pub fn reset(
        &mut self,
        which: Option<&[bool]>,
        at: Option<&[(u32, u32)]>,
        out: &mut Out<'_>,
    ) -> Result<(), Error> {
        let n = self.envs.len();
        if let Some(w) = which {
            if w.len() != n {
                return Err(Error::invalid(format!(
                    "a reset mask of {} for {n} environments",
                    w.len()
                )));
            }
        }
        if let Some(at) = at {
            if at.len() != 1 && at.len() != n {
                return Err(Error::invalid(format!(
                    "{} starts for {n} environments: one for all, or one each",
                    at.len()
                )));
            }
            for &(l, s) in at {
                let Some(t) = self.tables.get(l as usize) else {
                    return Err(Error::invalid(format!(
                        "level {l}: one of the pack's {} (0 to {})",
                        self.tables.len(),
                        self.tables.len() - 1
                    )));
                };
                if s as usize >= t.states() {
                    return Err(Error::invalid(format!(
                        "state {s}: a position of the level's {} (0 to {})",
                        t.states(),
                        t.states() - 1
                    )));
                }
                playable_at(t, s, &format!("position {s}"))?;
            }
        }
        let (tables, options) = (&self.tables, &self.options);
        for (i, e) in self.envs.iter_mut().enumerate() {
            if which.is_none_or(|w| w[i]) {
                begin(tables, options, e);
                if let Some(at) = at {
                    (e.table, e.state) = at[if at.len() == 1 { 0 } else { i }];
                }
            }
        }
        let rows = self.rows(out);
        self.envs
            .par_iter_mut()
            .zip(rows)
            .with_min_len(ALONE)
            .for_each(|(e, mut row)| {
                let t = &tables[e.table as usize];
                write(t, e, &mut row);
                row.reward[0] = 0.0;
                row.terminated[0] = 0;
                row.truncated[0] = 0;
                row.legal[0] = 1;
                if let Some(l) = &mut row.last {
                    l.ended[0] = 0;
                }
            });
        Ok(())
    }
    /// Plays `actions[i]` in environment `i`, every one, and writes the results into `out`.
    /// An action out of range, or one for an ended environment under
    /// [`Autoreset::Disabled`], is refused before any environment moves.
    pub fn step(&mut self, actions: &[i64], out: &mut Out<'_>) -> Result<(), Error> {
        if actions.len() != self.envs.len() {
            return Err(Error::invalid(format!(
                "{} actions for {} environments",
                actions.len(),
                self.envs.len()
            )));
        }
        let count = self.tables[0].actions as i64;
        for (i, &a) in actions.iter().enumerate() {
            if !(0..count).contains(&a) {
                return Err(Error::invalid(format!(
                    "action {a} of environment {i}: 0 to {}",
                    count - 1
                )));
            }
            if self.options.autoreset == Autoreset::Disabled && self.envs[i].ended {
                return Err(Error::invalid(format!(
                    "environment {i}'s episode is over: reset it (reset_mask) before stepping it"
                )));
            }
        }
        if out.last.is_none() && self.options.autoreset == Autoreset::SameStep {
            return Err(Error::Internal(
                "same-step autoreset needs rows for the last observations".into(),
            ));
        }
        let rows = self.rows(out);
        let (tables, options) = (&self.tables, &self.options);
        self.envs
            .par_iter_mut()
            .zip(rows)
            .zip(actions)
            .with_min_len(ALONE)
            .for_each(|((e, mut row), &a)| step_one(tables, options, e, a as u32, &mut row));
        Ok(())
    }
    /// `out` cut into one row per environment.
    fn rows<'o>(&self, out: &'o mut Out<'_>) -> Vec<Row<'o>> {
        let t = &self.tables[0];
        let (o, m) = (t.obs_len(), t.actions);
        let mut last = out.last.as_mut().map(|l| {
            (
                l.obs.chunks_mut(o),
                l.distance.chunks_mut(1),
                l.ended.chunks_mut(1),
                l.mask.chunks_mut(m),
                l.level.chunks_mut(1),
                l.steps.chunks_mut(1),
            )
        });
        let mut rows = Vec::with_capacity(self.envs.len());
        let mut parts = out
            .obs
            .chunks_mut(o)
            .zip(out.reward.chunks_mut(1))
            .zip(out.terminated.chunks_mut(1))
            .zip(out.truncated.chunks_mut(1))
            .zip(out.mask.chunks_mut(m))
            .zip(out.distance.chunks_mut(1))
            .zip(out.legal.chunks_mut(1))
            .zip(out.level.chunks_mut(1))
            .zip(out.steps.chunks_mut(1));
        for _ in 0..self.envs.len() {
            let Some((
                (((((((obs, reward), terminated), truncated), mask), distance), legal), level),
                steps,
            )) = parts.next()
            else {
                break;
            };
            let last = last.as_mut().and_then(|(a, b, c, d, e, f)| {
                Some(LastRow {
                    obs: a.next()?,
                    distance: b.next()?,
                    ended: c.next()?,
                    mask: d.next()?,
                    level: e.next()?,
                    steps: f.next()?,
                })
            });
            rows.push(Row {
                obs,
                reward,
                terminated,
                truncated,
                mask,
                distance,
                legal,
                level,
                steps,
                last,
            });
        }
        assert_eq!(
            rows.len(),
            self.envs.len(),
            "the output rows are one per environment"
        );
        rows
    }
}

/// One environment's part of [`Out`].
struct Row<'a> {
    obs: &'a mut [u8],
    reward: &'a mut [f64],
    terminated: &'a mut [u8],
    truncated: &'a mut [u8],
    mask: &'a mut [u8],
    distance: &'a mut [i32],
    legal: &'a mut [u8],
    level: &'a mut [i32],
    steps: &'a mut [i32],
    last: Option<LastRow<'a>>,
}

struct LastRow<'a> {
    obs: &'a mut [u8],
    distance: &'a mut [i32],
    ended: &'a mut [u8],
    mask: &'a mut [u8],
    level: &'a mut [i32],
    steps: &'a mut [i32],
}

/// Refuses to start an episode at position `s` of `t` (`at` names it) when it is solved or
/// no move can be played there: there would be no episode to play.
fn playable_at(t: &Table, s: u32, at: &str) -> Result<(), Error> {
    let why = if t.to_goal(s) == 0 {
        "the level is solved"
    } else if t.moves(s).is_empty() {
        "no move can be played"
    } else {
        return Ok(());
    };
    Err(Error::invalid(format!(
        "{}: {why} at {at}: an episode needs a position to play from",
        t.level
    )))
}

/// The generator of random actions for an environment seeded `seed`.
fn sampler(seed: u64) -> Pcg64 {
    Pcg64::seed_from_u64(seed ^ 0x5EED_AC71_0A5D_0001)
}

/// Starts a new episode in `e`: a level of the pack, its start or a random one.
fn begin(tables: &[Arc<Table>], options: &Options, e: &mut One) {
    e.table = if tables.len() == 1 {
        0
    } else {
        e.rng.random_range(0..tables.len() as u32)
    };
    let t = &tables[e.table as usize];
    e.state = match options.start {
        Start::Level => 0,
        Start::Random { max_distance } => {
            let k = max_distance.map_or(t.playable().len(), |d| t.playable_within(d));
            // Envs::new made sure there is one
            t.playable()[e.rng.random_range(0..k)]
        }
    };
    e.steps = 0;
    e.ended = false;
}

/// Writes `e`'s observation, mask, distance, level and steps into `row`.
fn write(t: &Table, e: &One, row: &mut Row<'_>) {
    t.observe(e.state, row.obs);
    t.mask(e.state, row.mask);
    row.distance[0] = t.to_goal(e.state);
    row.level[0] = e.table as i32;
    row.steps[0] = e.steps as i32;
}

/// One environment's step.
fn step_one(tables: &[Arc<Table>], options: &Options, e: &mut One, a: u32, row: &mut Row<'_>) {
    if let Some(l) = &mut row.last {
        l.ended[0] = 0;
    }
    if e.ended {
        // next-step autoreset (Envs::step refused the others)
        begin(tables, options, e);
        let t = &tables[e.table as usize];
        write(t, e, row);
        row.reward[0] = 0.0;
        row.terminated[0] = 0;
        row.truncated[0] = 0;
        row.legal[0] = 1;
        return;
    }
    let t = &tables[e.table as usize];
    let next = t.next(e.state, a);
    if let Some(s) = next {
        e.state = s;
    }
    e.steps = e.steps.saturating_add(1);
    let d = t.to_goal(e.state);
    let solved = d == 0;
    row.legal[0] = u8::from(next.is_some());
    row.reward[0] = if next.is_none() {
        options.illegal_reward
    } else if solved {
        1.0
    } else {
        options.step_reward
    };
    let stuck = t.moves(e.state).is_empty();
    let terminated = solved || stuck || (options.end_when_lost && d < 0);
    let truncated = !terminated && options.max_steps > 0 && e.steps >= options.max_steps;
    row.terminated[0] = u8::from(terminated);
    row.truncated[0] = u8::from(truncated);
    e.ended = terminated || truncated;
    if e.ended && options.autoreset == Autoreset::SameStep {
        if let Some(l) = &mut row.last {
            t.observe(e.state, l.obs);
            t.mask(e.state, l.mask);
            l.distance[0] = d;
            l.ended[0] = 1;
            l.level[0] = e.table as i32;
            l.steps[0] = e.steps as i32;
        }
        begin(tables, options, e);
    }
    let t = &tables[e.table as usize];
    write(t, e, row);
}

#[cfg(test)]
mod tests;
