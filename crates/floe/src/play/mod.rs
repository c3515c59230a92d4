//! Playing a level: the game logic of `floe play`, with no drawing in it.
//!
//! A [`Session`] holds one level of ice blocks, PushPush or Ice Tower: the current position,
//! the pushes played (undo, redo, restart), the selected block and the cursor (ice blocks),
//! and answers from the solver (a hint: the next push of a fewest-pushes solution; whether
//! the position can still be solved). [`Session::apply`] takes an [`Action`] and says what
//! happened as an [`Event`]. Every push goes through the game's own rule code and every
//! answer of the solver is replayed by it, so the player never re-states a rule.
//!
//! The solver runs with [`Limits`]: when they stop it, the answer is
//! [`Verdict::Unknown`], never a guess. A front end that must stay responsive takes a
//! [`Job`] to another thread and hands its answer back with [`Session::store`].

mod keys;
mod rules;

pub use keys::{parse_keys, Action, KEY_NAMES};

use crate::games::ice::{Level, WalkRule};
use crate::games::icetower::{self as tower, Tower};
use crate::games::pushpush::{self as pp, Variant};
use crate::games::Game;
use crate::grid::{Dir, Pos, Push};
use crate::search::{LimitKind, Limits};
use crate::Error;
use rules::{Position, Rules, Stepped};
use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

/// The limits of one solver question in play unless the caller sets others: at most two
/// million positions and two seconds.
pub fn default_limits() -> Limits {
    Limits::none()
        .max_states(2_000_000)
        .timeout(Duration::from_secs(2))
}

/// What the solver says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It can be solved in `pushes` more pushes at the fewest; `next` is the first of them
    /// (`None` when it is solved already).
    Solvable {
        /// Fewest pushes still needed.
        pushes: u32,
        /// The first push of such a solution.
        next: Option<Push>,
    },
    /// Every position reachable from here was searched: none is solved.
    Unsolvable,
    /// A limit stopped the search before it could tell.
    Unknown(LimitKind),
}

impl Verdict {
    /// `yes`, `no` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Solvable { .. } => "yes",
            Verdict::Unsolvable => "no",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Solvable { pushes: 0, .. } => write!(f, "solved"),
            Verdict::Solvable { pushes, .. } => write!(
                f,
                "solvable in {pushes} more push{}",
                if *pushes == 1 { "" } else { "es" }
            ),
            Verdict::Unsolvable => write!(f, "no longer solvable"),
            Verdict::Unknown(k) => write!(f, "unknown (the search hit its {k} limit)"),
        }
    }
}

/// What an [`Action`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A push was played.
    Pushed {
        /// The push.
        push: Push,
        /// Whether the level is solved after it.
        solved: bool,
    },
    /// The robot or magician walked (walking is free, not a push).
    Walked(Pos),
    /// The robot or magician cannot walk that way.
    Blocked(String),
    /// The push breaks the rules; nothing changed.
    Illegal {
        /// The push tried.
        push: Push,
        /// Why it is illegal, in the rule code's words.
        reason: String,
    },
    /// Ice blocks: an arrow with no block selected.
    NoSelection,
    /// A block is selected.
    Selected(Pos),
    /// The cursor moved (ice blocks, cursor mode).
    Cursor(Pos),
    /// The action means nothing here.
    NotHere(&'static str),
    /// The push was taken back.
    Undone(Push),
    /// The push was played again.
    Redone(Push),
    /// No push to take back.
    NothingToUndo,
    /// No push to play again.
    NothingToRedo,
    /// Back at the start.
    Restarted,
    /// The solver's answer for the current position.
    Hint(Verdict),
    /// The solver could not answer (an error, e.g. a position it cannot start from).
    Failed(String),
    /// The player leaves.
    Quit,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Pushed { push, solved } => {
                write!(f, "pushed ({}, {}) {}", push.row, push.col, push.dir)?;
                if *solved {
                    write!(f, ": solved!")?;
                }
                Ok(())
            }
            Event::Walked(p) => write!(f, "walked to ({p})"),
            Event::Blocked(what) => write!(f, "cannot walk there: {what}"),
            Event::Illegal { push, reason } => write!(
                f,
                "illegal push ({}, {}) {}: {reason}",
                push.row, push.col, push.dir
            ),
            Event::NoSelection => write!(f, "select a block first (tab)"),
            Event::Selected(p) => write!(f, "selected the block at ({p})"),
            Event::Cursor(p) => write!(f, "cursor at ({p}): enter selects the block there"),
            Event::NotHere(why) => f.write_str(why),
            Event::Undone(p) => write!(f, "took back ({}, {}) {}", p.row, p.col, p.dir),
            Event::Redone(p) => write!(f, "played ({}, {}) {} again", p.row, p.col, p.dir),
            Event::NothingToUndo => write!(f, "nothing to undo"),
            Event::NothingToRedo => write!(f, "nothing to redo"),
            Event::Restarted => write!(f, "back at the start"),
            Event::Hint(Verdict::Solvable {
                pushes,
                next: Some(p),
            }) => write!(
                f,
                "hint: push ({}, {}) {}; {pushes} push{} to go at the fewest",
                p.row,
                p.col,
                p.dir,
                if *pushes == 1 { "" } else { "es" }
            ),
            Event::Hint(Verdict::Unsolvable) => {
                write!(
                    f,
                    "no hint: this position can no longer be solved (undo or restart)"
                )
            }
            Event::Hint(v) => write!(f, "hint: {v}"),
            Event::Failed(m) => write!(f, "the solver failed: {m}"),
            Event::Quit => write!(f, "bye"),
        }
    }
}

/// The ground of a cell, for drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// Ice floor (blocks slide over it): also PushPush's and Ice Tower's floor.
    Ice,
    /// A target cell (ice blocks: wants a block; PushPush: where the robot wants to go).
    Target,
    /// Normal floor (ice blocks): a sliding block stops before it.
    Floor,
    /// A wall.
    Wall,
    /// Ice Tower: a burning fire.
    Fire,
    /// Ice Tower: a recycler.
    Recycler,
    /// Ice Tower: an arrow.
    Arrow(Dir),
    /// Ice Tower: a dispenser.
    Dispenser,
}

/// A block on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// An ice block (PushPush: a block).
    Block,
    /// Ice Tower: a golden ice block.
    Golden,
}

/// One cell as a front end draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellView {
    /// The ground.
    pub ground: Ground,
    /// The block on it.
    pub piece: Option<Piece>,
    /// The player (ice blocks under `walk`), robot or magician stands here.
    pub actor: bool,
    /// The selected block stands here.
    pub selected: bool,
    /// The cursor is here.
    pub cursor: bool,
    /// The hinted push moves the block here in this direction.
    pub hint: Option<Dir>,
}

/// The board as a front end draws it, row by row.
#[derive(Clone, Debug)]
pub struct View {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `rows × cols` cells, row-major.
    pub cells: Vec<CellView>,
}

impl View {
    /// The cell at `p`.
    pub fn at(&self, p: Pos) -> &CellView {
        &self.cells[p.row * self.cols + p.col]
    }
}

/// A solver question taken to another thread: [`Job::run`] answers it, and
/// [`Session::store`] files the answer.
#[derive(Clone, Debug)]
pub struct Job {
    rules: Rules,
    position: Position,
    limits: Limits,
    key: String,
}

/// A filed answer of a [`Job`].
#[derive(Clone, Debug)]
pub struct Answer {
    key: String,
    verdict: Result<Verdict, String>,
}

impl Answer {
    /// The position it answers for (compare with [`Job::key`]).
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl Job {
    /// The position it asks about, as the session tells positions apart.
    pub fn key(&self) -> &str {
        &self.key
    }
    /// Asks the solver (blocking, within the session's limits).
    pub fn run(self) -> Answer {
        let verdict = self
            .rules
            .analyse(&self.position, &self.limits)
            .map_err(|e| e.to_string());
        Answer {
            key: self.key,
            verdict,
        }
    }
}

/// One level being played. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    name: String,
    rules: Rules,
    /// `states[0]` is the start; `states[i + 1]` follows `pushes[i]`.
    states: Vec<Position>,
    pushes: Vec<Push>,
    /// Pushes taken back, the last one taken back on top.
    redo: Vec<Push>,
    selected: Option<Pos>,
    cursor: Option<Pos>,
    hint: Option<Push>,
    answers: HashMap<String, Result<Verdict, String>>,
    limits: Limits,
    message: String,
}

impl Session {
    fn new(game: Game, name: &str, rules: Rules, start: Position) -> Session {
        let mut s = Session {
            game,
            name: name.to_string(),
            rules,
            states: vec![start],
            pushes: Vec::new(),
            redo: Vec::new(),
            selected: None,
            cursor: None,
            hint: None,
            answers: HashMap::new(),
            limits: default_limits(),
            message: String::new(),
        };
        s.selected = s.first_block();
        s
    }

    /// An ice block level under `rule`.
    pub fn ice(level: &Level, rule: WalkRule, name: &str) -> Session {
        let mut board = level.clone();
        let player = board.player();
        board
            .set_player(None)
            .expect("removing the player always succeeds");
        let start = Position::Ice {
            moves: Vec::new(),
            board,
            player,
        };
        let rules = Rules::Ice {
            level: level.clone(),
            rule,
        };
        Session::new(Game::Ice, name, rules, start)
    }

    /// A PushPush board under `variant`.
    pub fn pushpush(board: &pp::Board, variant: Variant, name: &str) -> Session {
        Session::new(
            Game::PushPush,
            name,
            Rules::Push { variant },
            Position::Push(board.clone()),
        )
    }

    /// An Ice Tower level (arrows and dispensers under floe's semantics, as `floe solve
    /// --dynamic` has them).
    pub fn icetower(t: &Tower) -> Session {
        let rules = Rules::Tower {
            name: t.name.clone(),
            dynamic: t.first_dynamic().is_some(),
        };
        Session::new(
            Game::IceTower,
            &t.name,
            rules,
            Position::Tower(tower::Board::new(t)),
        )
    }

    /// The limits of each solver question (default: [`default_limits`]).
    pub fn with_limits(mut self, limits: Limits) -> Session {
        self.limits = limits;
        self
    }

    /// The game.
    pub fn game(&self) -> Game {
        self.game
    }
    /// The level's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The pushes from the start to the current position.
    pub fn moves(&self) -> &[Push] {
        &self.pushes
    }
    /// Number of pushes played (walking is not counted).
    pub fn push_count(&self) -> usize {
        self.pushes.len()
    }
    /// Pushes that can be played again with redo.
    pub fn redo_count(&self) -> usize {
        self.redo.len()
    }
    /// Whether the current position is solved.
    pub fn is_solved(&self) -> bool {
        self.rules.solved(self.current())
    }
    /// The selected block (ice blocks).
    pub fn selected(&self) -> Option<Pos> {
        self.selected
    }
    /// The cursor, in cursor mode (ice blocks).
    pub fn cursor(&self) -> Option<Pos> {
        self.cursor
    }
    /// The hinted push, while the position it was given for is on the board.
    pub fn hint(&self) -> Option<Push> {
        self.hint
    }
    /// What the last action did, in words.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// The current position in the game's text notation.
    pub fn board_text(&self) -> String {
        self.rules.text(self.current())
    }
    /// Whether the arrows select blocks and push them (ice blocks) rather than walk.
    pub fn selects_blocks(&self) -> bool {
        self.game == Game::Ice
    }

    fn current(&self) -> &Position {
        self.states.last().expect("there is always a start")
    }

    /// The board for drawing.
    pub fn view(&self) -> View {
        let pos = self.current();
        let (rows, cols) = self.rules.size(pos);
        let hint_to = self.hint.map(|h| (h.pos(), h.dir));
        let mut cells = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                let p = Pos::new(r, c);
                let (ground, piece, actor) = self.rules.cell(pos, p);
                cells.push(CellView {
                    ground,
                    piece,
                    actor,
                    selected: self.selected == Some(p) && piece.is_some(),
                    cursor: self.cursor == Some(p),
                    hint: hint_to.filter(|(q, _)| *q == p).map(|(_, d)| d),
                });
            }
        }
        View { rows, cols, cells }
    }

    /// The solver's answer for the current position if it is known already.
    pub fn known_verdict(&self) -> Option<Result<Verdict, String>> {
        self.answers.get(&self.rules.key(self.current())).cloned()
    }

    /// The solver question for the current position, to run elsewhere.
    pub fn job(&self) -> Job {
        Job {
            rules: self.rules.clone(),
            position: self.current().clone(),
            limits: self.limits.clone(),
            key: self.rules.key(self.current()),
        }
    }

    /// Files the answer of a [`Job`] (for whichever position it was asked).
    pub fn store(&mut self, a: Answer) {
        self.answers.insert(a.key, a.verdict);
    }

    /// The solver's answer for the current position: from the answers filed so far, or
    /// asked now (blocking).
    pub fn verdict(&mut self) -> Result<Verdict, String> {
        if let Some(v) = self.known_verdict() {
            return v;
        }
        let a = self.job().run();
        let v = a.verdict.clone();
        self.store(a);
        v
    }

    /// Does what the player asked and says what happened (also kept as [`Session::message`]).
    pub fn apply(&mut self, action: Action) -> Event {
        let e = self.act(action);
        self.message = e.to_string();
        e
    }

    fn act(&mut self, action: Action) -> Event {
        match action {
            Action::Arrow(d) => self.arrow(d),
            Action::NextBlock | Action::PrevBlock => {
                if !self.selects_blocks() {
                    return Event::NotHere("nothing to select here: the arrows walk and push");
                }
                self.cursor = None;
                let blocks = self.rules.blocks(self.current());
                if blocks.is_empty() {
                    return Event::NotHere("there is no block to select");
                }
                let at = self
                    .selected
                    .and_then(|s| blocks.iter().position(|&b| b == s));
                let n = blocks.len();
                let i = match (at, action == Action::NextBlock) {
                    (None, _) => 0,
                    (Some(i), true) => (i + 1) % n,
                    (Some(i), false) => (i + n - 1) % n,
                };
                self.selected = Some(blocks[i]);
                Event::Selected(blocks[i])
            }
            Action::Select => {
                if !self.selects_blocks() {
                    return Event::NotHere("nothing to select here: the arrows walk and push");
                }
                match self.cursor {
                    None => {
                        let c = self.selected.unwrap_or(Pos::new(0, 0));
                        self.cursor = Some(c);
                        Event::Cursor(c)
                    }
                    Some(c) => {
                        if self.rules.blocks(self.current()).contains(&c) {
                            self.cursor = None;
                            self.selected = Some(c);
                            Event::Selected(c)
                        } else {
                            Event::NotHere("no block under the cursor")
                        }
                    }
                }
            }
            Action::Undo => match self.pushes.pop() {
                None => Event::NothingToUndo,
                Some(p) => {
                    self.states.pop();
                    self.redo.push(p);
                    self.hint = None;
                    if self.selects_blocks() {
                        self.selected = Some(p.pos());
                    }
                    Event::Undone(p)
                }
            },
            Action::Redo => match self.redo.pop() {
                None => Event::NothingToRedo,
                Some(p) => match self.play(p) {
                    Event::Pushed { .. } => Event::Redone(p),
                    other => {
                        self.redo.push(p);
                        other
                    }
                },
            },
            Action::Restart => {
                self.states.truncate(1);
                self.pushes.clear();
                self.redo.clear();
                self.cursor = None;
                self.hint = None;
                self.selected = self.first_block();
                Event::Restarted
            }
            Action::Hint => match self.verdict() {
                Ok(v) => {
                    self.hint = match v {
                        Verdict::Solvable { next, .. } => next,
                        _ => None,
                    };
                    Event::Hint(v)
                }
                Err(m) => Event::Failed(m),
            },
            Action::FollowHint => match self.verdict() {
                Ok(Verdict::Solvable { next: Some(p), .. }) => {
                    let e = self.play(p);
                    if matches!(e, Event::Pushed { .. }) {
                        self.redo.clear();
                    }
                    e
                }
                Ok(v) => Event::Hint(v),
                Err(m) => Event::Failed(m),
            },
            Action::Quit => Event::Quit,
        }
    }

    fn first_block(&self) -> Option<Pos> {
        if self.selects_blocks() {
            self.rules.blocks(self.current()).first().copied()
        } else {
            None
        }
    }

    fn arrow(&mut self, d: Dir) -> Event {
        if let Some(c) = self.cursor {
            let (rows, cols) = self.rules.size(self.current());
            let to = c.step(d, rows, cols).unwrap_or(c);
            self.cursor = Some(to);
            return Event::Cursor(to);
        }
        let mut pos = self.current().clone();
        let push = match self.rules.step(&mut pos, d) {
            None => match self.selected {
                None => return Event::NoSelection,
                Some(b) => Push::new(b, d),
            },
            Some(Stepped::Walked(p)) => {
                // walking changes no block and not the region he can reach: a hint stays
                *self.states.last_mut().expect("there is always a start") = pos;
                return Event::Walked(p);
            }
            Some(Stepped::Blocked(what)) => return Event::Blocked(what),
            Some(Stepped::Push(p)) => p,
        };
        let e = self.play(push);
        if matches!(e, Event::Pushed { .. }) {
            self.redo.clear();
        }
        e
    }

    /// Plays one push from the current position (the redo stack is the caller's business).
    fn play(&mut self, push: Push) -> Event {
        match self.rules.push(self.current(), push) {
            Ok((pos, to)) => {
                self.states.push(pos);
                self.pushes.push(push);
                self.hint = None;
                if self.selects_blocks() {
                    self.selected = to;
                }
                Event::Pushed {
                    push,
                    solved: self.is_solved(),
                }
            }
            Err(reason) => Event::Illegal { push, reason },
        }
    }
}

/// Whether floe can play `game` (ice blocks, PushPush, Ice Tower); an error says which it can.
pub fn playable(game: Game) -> Result<(), Error> {
    match game {
        Game::Ice | Game::PushPush | Game::IceTower => Ok(()),
        other => Err(Error::invalid(format!(
            "{other} is not playable here: floe plays ice blocks, PushPush and Ice Tower"
        ))),
    }
}

#[cfg(test)]
mod tests;
