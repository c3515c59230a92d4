//! Playing a level of any game: the game logic of `floe play` and of the web page, with no
//! drawing in it.
//!
//! A [`Session`] holds one level: the current position, the moves played (undo, redo,
//! restart), the selected block and the cursor (games played by selecting a block), the move
//! shown (games played by picking a move), and answers from the solver (a hint: the next move
//! of a fewest-moves solution; whether the position can still be solved).
//! [`Session::apply`] takes an [`Action`] and says what happened as an [`Event`]. Every move
//! goes through the game's own rules ([`Game::apply`](crate::game::Game::apply)) and every
//! answer of the solver is replayed by them, so play never re-states a rule.
//!
//! The solver runs with [`Limits`]: when they stop it, the answer is
//! [`Verdict::Unknown`], never a guess. A front end that must stay responsive takes a
//! [`Job`] to another thread and hands its answer back with [`Session::store`].
//!
//! The answers of one session learn from each other where the game's search is A* (Ice
//! Tower): every answer files the lower bounds its search proved about the positions it
//! stored ([`crate::search::Learned`]), so that after the first answer, the positions along
//! its solution are answered without a search and the others by much smaller ones. The
//! answers stay exact; the table is capped (see [`Session::learned_bytes`]). What was learned
//! holds for every position of the level, whoever asked: sessions of the same level may share
//! one table ([`Learning`], [`Session::with_learning`]), so that a level answered once answers
//! every player at once.
//!
//! ```
//! use floe::ops::Request;
//! use floe::play::{parse_keys, Event};
//! let req = Request::from_text("Game: pushpush\n@$--\n##-.\n", "t").resolve().unwrap();
//! let mut s = req.level.play().unwrap();
//! for a in parse_keys("right").unwrap() {
//!     s.apply(a);
//! }
//! assert!(s.is_solved());
//! ```

mod keys;
mod session;

pub use keys::{parse_keys, Action, KEY_NAMES};
pub(crate) use session::Play;

use crate::game::{Game, Keys, Move};
use crate::grid::{Dir, Pos};
pub use crate::ops::Verdict;
use crate::scene::{Arrow, Ground, PieceKind, Scene};
use crate::search::Limits;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// The limits of one solver question in play unless the caller sets others: at most two
/// million positions and two seconds.
pub fn default_limits() -> Limits {
    Limits::none()
        .max_states(2_000_000)
        .timeout(Duration::from_secs(2))
}

impl Verdict {
    /// `yes`, `no` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Solvable { .. } => "yes",
            Verdict::Unsolvable => "no",
            Verdict::Unknown(_) => "unknown",
        }
    }
    /// In words, with the game's word for a move (`push`, `move`).
    pub fn say(&self, word: &str) -> String {
        match self {
            Verdict::Solvable { moves: 0, .. } => "solved".into(),
            Verdict::Solvable { moves, .. } => {
                format!(
                    "solvable in {moves} more {}",
                    move_word(word, *moves as usize)
                )
            }
            Verdict::Unsolvable => "no longer solvable".into(),
            Verdict::Unknown(k) => format!("unknown (the search hit its {k} limit)"),
        }
    }
}

/// A game's word for a move (`push`, `move`) as `n` of them are said: `push`, `pushes`.
fn move_word(word: &str, n: usize) -> String {
    match (word, n) {
        (w, 1) => w.to_string(),
        ("push", _) => "pushes".into(),
        (w, _) => format!("{w}s"),
    }
}

/// What an [`Action`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A move was played.
    Moved {
        /// The move.
        played: Move,
        /// Whether the level is solved after it.
        solved: bool,
    },
    /// The player walked (walking is free, not a move).
    Walked(Pos),
    /// The player cannot walk that way.
    Blocked(String),
    /// The move breaks the rules; nothing changed.
    Illegal {
        /// The move tried.
        played: Move,
        /// Why it is illegal, in the rules' words.
        reason: String,
    },
    /// An arrow with no block selected (games played by selecting a block).
    NoSelection,
    /// A block is selected.
    Selected(Pos),
    /// A legal move is shown (games played by picking a move); enter plays it.
    Shown(Move),
    /// There is no legal move to show.
    NoMoves,
    /// The cursor moved.
    Cursor(Pos),
    /// The action means nothing here.
    NotHere(&'static str),
    /// The move was taken back.
    Undone(Move),
    /// The move was played again.
    Redone(Move),
    /// No move to take back.
    NothingToUndo,
    /// No move to play again.
    NothingToRedo,
    /// Back at the start (Undo takes it back).
    Restarted,
    /// A restart taken back: the game it left, with its number of moves, is back.
    RestartUndone(usize),
    /// The solver's answer for the current position.
    Hint(Verdict),
    /// The solver could not answer.
    Failed(String),
    /// The player leaves.
    Quit,
}

/// An [`Event`] with the game's word for a move, for printing.
pub struct Said<'a> {
    event: &'a Event,
    word: &'static str,
}

impl Event {
    /// The event in words, with the game's word for a move (`push`, `move`).
    pub fn say(&self, word: &'static str) -> Said<'_> {
        Said { event: self, word }
    }
}

impl fmt::Display for Said<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.word;
        let past = if w == "push" { "pushed" } else { "played" };
        match self.event {
            Event::Moved { played, solved } => {
                write!(f, "{past} {played}")?;
                if *solved {
                    write!(f, ": solved!")?;
                }
                Ok(())
            }
            Event::Walked(p) => write!(f, "walked to ({p})"),
            Event::Blocked(what) => write!(f, "cannot walk there: {what}"),
            Event::Illegal { played, reason } => write!(f, "illegal {w} {played}: {reason}"),
            Event::NoSelection => write!(f, "select a block first (tab)"),
            Event::Selected(p) => write!(f, "selected the block at ({p})"),
            Event::Shown(m) => write!(f, "{w} {m} (enter plays it, tab shows the next)"),
            Event::NoMoves => write!(f, "no legal {w} here (undo or restart)"),
            Event::Cursor(p) => write!(f, "cursor at ({p}): enter selects the block there"),
            Event::NotHere(why) => f.write_str(why),
            Event::Undone(m) => write!(f, "took back {m}"),
            Event::Redone(m) => write!(f, "played {m} again"),
            Event::NothingToUndo => write!(f, "nothing to undo"),
            Event::NothingToRedo => write!(f, "nothing to redo"),
            Event::Restarted => write!(f, "back at the start (undo takes the restart back)"),
            Event::RestartUndone(n) => write!(
                f,
                "took the restart back: the {n} {} played before it {} back",
                move_word(w, *n),
                if *n == 1 { "is" } else { "are" }
            ),
            Event::Hint(Verdict::Solvable {
                moves,
                next: Some(m),
            }) => write!(
                f,
                "hint: {w} {m}; {moves} {} to go at the fewest",
                move_word(w, *moves as usize)
            ),
            Event::Hint(Verdict::Unsolvable) => write!(
                f,
                "no hint: this position can no longer be solved (undo or restart)"
            ),
            Event::Hint(v) => write!(f, "hint: {}", v.say(w)),
            Event::Failed(m) => write!(f, "the solver failed: {m}"),
            Event::Quit => write!(f, "bye"),
        }
    }
}

/// One cell as a front end draws it: the scene's cell and the session's marks on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellView {
    /// The ground.
    pub ground: Ground,
    /// The piece on it (a block, token, card or priest).
    pub piece: Option<PieceKind>,
    /// The player, robot or magician stands here.
    pub actor: bool,
    /// The selected block stands here.
    pub selected: bool,
    /// The cursor is here.
    pub cursor: bool,
    /// The hinted (or shown) move starts here, in this direction (for moves along a line).
    pub hint: Option<Dir>,
    /// The hinted (or shown) move involves this cell.
    pub marked: bool,
}

/// The board as a front end draws it.
#[derive(Clone, Debug)]
pub struct View {
    /// The scene of the current position.
    pub scene: Scene,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `rows × cols` cells, row-major.
    pub cells: Vec<CellView>,
    /// The arrow of the hinted move, or of the move shown (games played by picking a move).
    pub arrow: Option<Arrow>,
}

impl View {
    /// The cell at `p`.
    pub fn at(&self, p: Pos) -> &CellView {
        &self.cells[p.row * self.cols + p.col]
    }

    pub(crate) fn new(
        scene: Scene,
        selected: Option<Pos>,
        cursor: Option<Pos>,
        arrow: Option<Arrow>,
    ) -> View {
        let (rows, cols) = (scene.rows, scene.cols);
        let mut cells: Vec<CellView> = scene
            .ground
            .iter()
            .map(|&ground| CellView {
                ground,
                piece: None,
                actor: false,
                selected: false,
                cursor: false,
                hint: None,
                marked: false,
            })
            .collect();
        for p in &scene.pieces {
            let c = &mut cells[p.at.0 * cols + p.at.1];
            if p.kind.is_actor() {
                c.actor = true;
            } else {
                c.piece = Some(p.kind);
            }
        }
        fn at(
            cells: &mut [CellView],
            cols: usize,
            (r, c): (usize, usize),
        ) -> Option<&mut CellView> {
            cells.get_mut(r * cols + c)
        }
        if let Some(p) = selected {
            if let Some(c) = at(&mut cells, cols, (p.row, p.col)).filter(|c| c.piece.is_some()) {
                c.selected = true;
            }
        }
        if let Some(p) = cursor {
            if let Some(c) = at(&mut cells, cols, (p.row, p.col)) {
                c.cursor = true;
            }
        }
        match &arrow {
            Some(Arrow::Path(path)) => {
                for &cell in path {
                    if let Some(c) = at(&mut cells, cols, cell) {
                        c.marked = true;
                    }
                }
                if let (Some(&a), Some(&b)) = (path.first(), path.get(1)) {
                    let d = if b.0 < a.0 {
                        Dir::Up
                    } else if b.0 > a.0 {
                        Dir::Down
                    } else if b.1 < a.1 {
                        Dir::Left
                    } else {
                        Dir::Right
                    };
                    if let Some(c) = at(&mut cells, cols, a) {
                        c.hint = Some(d);
                    }
                }
            }
            Some(Arrow::Pair(a, b)) => {
                for cell in [*a, *b] {
                    if let Some(c) = at(&mut cells, cols, cell) {
                        c.marked = true;
                    }
                }
            }
            None => {}
        }
        View {
            scene,
            rows,
            cols,
            cells,
            arrow,
        }
    }
}

/// A solver question taken to another thread: [`Job::run`] answers it, and
/// [`Session::store`] files the answer.
#[derive(Clone)]
pub struct Job {
    key: String,
    work: Arc<dyn Fn() -> Result<Verdict, String> + Send + Sync>,
}

impl fmt::Debug for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Job({})", self.key)
    }
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
        Answer {
            verdict: (self.work)(),
            key: self.key,
        }
    }
}

/// What the verdicts of one level have proved (the bounds of [`crate::search::Learned`]),
/// to share between the sessions of that level ([`Session::with_learning`]): an answer one
/// player's question proved speeds up every other player's. Cloning shares the table; it
/// holds at most 200,000 positions (some 10–25 MiB on the largest Ice Tower maps).
///
/// Share a table only between sessions of the same level, with the same parameters: the
/// sessions' [`Session::level_key`] tells.
#[derive(Clone, Default)]
pub struct Learning(crate::ops::verdict::VerdictMemory);

impl Learning {
    /// An empty table.
    pub fn new() -> Learning {
        Learning::default()
    }
    /// Bytes held, roughly.
    pub fn bytes(&self) -> usize {
        self.0.bytes()
    }
    /// Forgets what was learned (later questions search again), unless a question is being
    /// answered with the table now; whether it did.
    pub fn try_clear(&self) -> bool {
        self.0.try_clear()
    }
}

impl fmt::Debug for Learning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Learning({} bytes)", self.bytes())
    }
}

/// What a session does, whatever its game (implemented once, by [`Play`]).
pub(crate) trait SessionObj: Send {
    fn info(&self) -> &'static crate::game::Info;
    fn name(&self) -> &str;
    fn moves(&self) -> Vec<Move>;
    fn move_count(&self) -> usize;
    fn redo_count(&self) -> usize;
    fn is_solved(&self) -> bool;
    fn selected(&self) -> Option<Pos>;
    fn cursor(&self) -> Option<Pos>;
    fn hint(&self) -> Option<Move>;
    fn learned_bytes(&self) -> usize;
    fn message(&self) -> &str;
    fn board_text(&self) -> String;
    fn view(&self) -> View;
    fn known_verdict(&self) -> Option<Result<Verdict, String>>;
    fn job(&self) -> Job;
    fn store(&mut self, a: Answer);
    fn apply(&mut self, action: Action) -> Event;
    fn with_limits(&mut self, limits: Limits);
    fn play_move(&mut self, m: &Move) -> Event;
    fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Move>, crate::Error>;
    fn legal_moves(&self) -> Vec<Move>;
    fn level_key(&self) -> Option<String>;
    fn learns(&self) -> bool;
    fn learning(&self) -> Learning;
    fn set_learning(&mut self, l: &Learning);
}

/// One level being played. See the [module documentation](self).
pub struct Session {
    inner: Box<dyn SessionObj>,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Session({} {})",
            self.inner.info().name,
            self.inner.name()
        )
    }
}

impl Session {
    /// A session of `level` of game `g`, at its start.
    pub(crate) fn new<G: Game>(g: G, level: G::Level, name: &str) -> Session {
        Session {
            inner: Box::new(Play::new(g, level, name)),
        }
    }
    /// The limits of each solver question (default: [`default_limits`]).
    pub fn with_limits(mut self, limits: Limits) -> Session {
        self.inner.with_limits(limits);
        self
    }
    /// The game's facts.
    pub fn info(&self) -> &'static crate::game::Info {
        self.inner.info()
    }
    /// The level's name.
    pub fn name(&self) -> &str {
        self.inner.name()
    }
    /// The moves from the start to the current position.
    pub fn moves(&self) -> Vec<Move> {
        self.inner.moves()
    }
    /// Number of moves played (walking is not counted).
    pub fn move_count(&self) -> usize {
        self.inner.move_count()
    }
    /// Moves that can be played again with redo.
    pub fn redo_count(&self) -> usize {
        self.inner.redo_count()
    }
    /// Whether the current position is solved.
    pub fn is_solved(&self) -> bool {
        self.inner.is_solved()
    }
    /// The selected block (games played by selecting a block).
    pub fn selected(&self) -> Option<Pos> {
        self.inner.selected()
    }
    /// The cursor, in cursor mode.
    pub fn cursor(&self) -> Option<Pos> {
        self.inner.cursor()
    }
    /// The hinted move, while the position it was given for is on the board.
    pub fn hint(&self) -> Option<Move> {
        self.inner.hint()
    }
    /// What the last action did, in words.
    pub fn message(&self) -> &str {
        self.inner.message()
    }
    /// The current position in the game's text notation.
    pub fn board_text(&self) -> String {
        self.inner.board_text()
    }
    /// How the keys play this game.
    pub fn keys(&self) -> Keys {
        self.inner.info().capabilities.keys
    }
    /// The game's word for a move (`push`, `move`).
    pub fn move_word(&self) -> &'static str {
        self.inner.info().move_word
    }
    /// The board for drawing.
    pub fn view(&self) -> View {
        self.inner.view()
    }
    /// The solver's answer for the current position if it is known already.
    pub fn known_verdict(&self) -> Option<Result<Verdict, String>> {
        self.inner.known_verdict()
    }
    /// The solver question for the current position, to run elsewhere.
    pub fn job(&self) -> Job {
        self.inner.job()
    }
    /// Bytes held by what this session's solver questions learned about the level (bounds
    /// that make later questions cheap; at most some tens of MiB), shared with the sessions
    /// it shares its [`Learning`] with.
    pub fn learned_bytes(&self) -> usize {
        self.inner.learned_bytes()
    }
    /// Every legal move from the current position, in the engine's order.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.inner.legal_moves()
    }
    /// What tells this session's level apart from every other: the game, its parameters and
    /// the level as its game writes it. Sessions with the same key may share a [`Learning`].
    /// `None` when the level cannot be written.
    pub fn level_key(&self) -> Option<String> {
        self.inner.level_key()
    }
    /// Whether this game's verdicts learn from each other (its default search is A*); a
    /// [`Learning`] of another game's sessions stays empty.
    pub fn learns(&self) -> bool {
        self.inner.learns()
    }
    /// The table of what this session's verdicts learned (shared, not copied).
    pub fn learning(&self) -> Learning {
        self.inner.learning()
    }
    /// Learns into `l`, shared with the other sessions of the same level (see
    /// [`Session::level_key`]), instead of a table of its own.
    pub fn with_learning(mut self, l: &Learning) -> Session {
        self.inner.set_learning(l);
        self
    }
    /// Files the answer of a [`Job`] (for whichever position it was asked).
    pub fn store(&mut self, a: Answer) {
        self.inner.store(a)
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
        if matches!(action, Action::Hint | Action::FollowHint) && self.known_verdict().is_none() {
            // ask now: the answer is filed and the action below finds it
            let _ = self.verdict();
        }
        self.inner.apply(action)
    }
    /// Plays a given move (one the game's [`parse_moves`](crate::ops::Level::parse_moves)
    /// read, or one a solve reported): how a front end steps through a solution. The move
    /// goes through the game's rules like every other; an illegal one changes nothing.
    pub fn play_move(&mut self, m: &Move) -> Event {
        self.inner.play_move(m)
    }
    /// A move list of this session's game (JSON or the game's text form), for
    /// [`Session::play_move`].
    pub fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Move>, crate::Error> {
        self.inner.parse_moves(text, file)
    }
}

#[cfg(test)]
mod tests;
