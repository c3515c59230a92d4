//! The session logic, written once over [`Game`].

use super::{default_limits, Action, Answer, Event, Job, Learning, SessionObj, Verdict, View};
use crate::game::{ArrowKey, Game, Info, Keys, Move};
use crate::grid::Pos;
use crate::ops::verdict::{legal_moves, verdict_with, verdicts_learn, VerdictMemory};
use crate::scene::Arrow;
use crate::search::Limits;
use std::collections::HashMap;
use std::sync::Arc;

/// The most restarts Undo can take back, one after the other.
const RESTARTS_KEPT: usize = 16;

/// A game left by a restart: its moves and the positions after them.
struct Left<G: Game> {
    moves: Vec<G::Move>,
    states: Vec<G::Position>,
}

/// A level of game `G` being played.
pub(crate) struct Play<G: Game> {
    g: G,
    level: Arc<G::Level>,
    name: String,
    /// `states[0]` is the start; `states[i + 1]` follows `moves[i]`.
    states: Vec<G::Position>,
    moves: Vec<G::Move>,
    /// Moves taken back, the last one taken back on top.
    redo: Vec<G::Move>,
    /// The games a restart left, the last one on top (Undo at the start takes the restart
    /// back, as in Simon Tatham's puzzles); at most [`RESTARTS_KEPT`].
    restarts: Vec<Left<G>>,
    /// Redo repeats the restart Undo took back.
    redo_restart: bool,
    selected: Option<Pos>,
    cursor: Option<Pos>,
    hint: Option<G::Move>,
    /// The legal move shown (games played by picking a move): its index among them.
    shown: Option<usize>,
    answers: HashMap<String, Result<Verdict, String>>,
    /// What the verdicts so far proved about the level's positions.
    memory: VerdictMemory,
    limits: Limits,
    message: String,
}

impl<G: Game> Play<G> {
    pub(crate) fn new(g: G, level: G::Level, name: &str) -> Play<G> {
        let start = g.start(&level);
        let mut s = Play {
            g,
            level: Arc::new(level),
            name: name.to_string(),
            states: vec![start],
            moves: Vec::new(),
            redo: Vec::new(),
            restarts: Vec::new(),
            redo_restart: false,
            selected: None,
            cursor: None,
            hint: None,
            shown: None,
            answers: HashMap::new(),
            memory: VerdictMemory::default(),
            limits: default_limits(),
            message: String::new(),
        };
        s.selected = s.first_block();
        s
    }

    fn keys(&self) -> Keys {
        self.g.info().capabilities.keys
    }

    fn current(&self) -> &G::Position {
        self.states.last().expect("there is always a start")
    }

    fn first_block(&self) -> Option<Pos> {
        if self.keys() == Keys::SelectBlock {
            self.g
                .selectable(&self.level, self.current())
                .first()
                .copied()
        } else {
            None
        }
    }

    fn key(&self) -> String {
        self.g.position_key(&self.level, self.current())
    }

    fn legal(&self) -> Vec<G::Move> {
        legal_moves(self.g, &self.level, self.current()).unwrap_or_default()
    }

    /// The arrow of a move from the current position.
    fn arrow_of(&self, m: &G::Move) -> Option<Arrow> {
        let before = self.current();
        let mut after = before.clone();
        let step = self.g.apply(&self.level, &mut after, m).ok()?;
        self.g.change(&self.level, before, m, &step).arrow
    }

    fn typed(&self, m: &Move) -> Option<G::Move> {
        m.typed::<G::Move>().cloned()
    }

    /// Plays one move from the current position (the redo stack is the caller's business).
    fn play(&mut self, m: G::Move) -> Event {
        let mut pos = self.current().clone();
        match self.g.apply(&self.level, &mut pos, &m) {
            Ok(step) => {
                self.states.push(pos);
                self.moves.push(m.clone());
                self.hint = None;
                self.shown = None;
                if self.keys() == Keys::SelectBlock {
                    self.selected = self.g.rests(&step);
                }
                Event::Moved {
                    played: Move::new(m),
                    solved: self.is_solved(),
                }
            }
            Err(reason) => Event::Illegal {
                played: Move::new(m),
                reason,
            },
        }
    }

    /// A new move: what was taken back cannot be played again.
    fn forget_redo(&mut self) {
        self.redo.clear();
        self.redo_restart = false;
    }

    /// Back to the start; the game left is kept for Undo.
    fn restart(&mut self) -> Event {
        if !self.moves.is_empty() {
            if self.restarts.len() == RESTARTS_KEPT {
                self.restarts.remove(0);
            }
            self.restarts.push(Left {
                moves: std::mem::take(&mut self.moves),
                states: self.states.split_off(1),
            });
        }
        self.redo.clear();
        self.redo_restart = false;
        self.cursor = None;
        self.hint = None;
        self.shown = None;
        self.selected = self.first_block();
        Event::Restarted
    }

    fn arrow(&mut self, d: crate::grid::Dir) -> Event {
        if let Some(c) = self.cursor {
            let scene = self.g.scene(&self.level, self.current());
            let to = c.step(d, scene.rows, scene.cols).unwrap_or(c);
            self.cursor = Some(to);
            return Event::Cursor(to);
        }
        if self.keys() == Keys::SelectBlock && self.selected.is_none() {
            return Event::NoSelection;
        }
        match self.g.arrow(&self.level, self.current(), d, self.selected) {
            ArrowKey::Move(m) => {
                let e = self.play(m);
                if matches!(e, Event::Moved { .. }) {
                    self.forget_redo();
                }
                e
            }
            ArrowKey::Walk(pos, to) => {
                // walking changes no block: a hint and its answers stay
                *self.states.last_mut().expect("there is always a start") = pos;
                Event::Walked(to)
            }
            ArrowKey::Blocked(why) => Event::Blocked(why),
            ArrowKey::Nothing => Event::NotHere("the arrows do nothing here: tab shows a move"),
        }
    }

    fn act(&mut self, action: Action) -> Event {
        match action {
            Action::Arrow(d) => self.arrow(d),
            Action::NextBlock | Action::PrevBlock => match self.keys() {
                Keys::SelectBlock => {
                    self.cursor = None;
                    let blocks = self.g.selectable(&self.level, self.current());
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
                Keys::PickMove => {
                    let legal = self.legal();
                    if legal.is_empty() {
                        self.shown = None;
                        return Event::NoMoves;
                    }
                    let n = legal.len();
                    let i = match (self.shown, action == Action::NextBlock) {
                        (None, true) => 0,
                        (None, false) => n - 1,
                        (Some(i), true) => (i + 1) % n,
                        (Some(i), false) => (i + n - 1) % n,
                    };
                    self.shown = Some(i);
                    Event::Shown(Move::new(legal[i].clone()))
                }
                Keys::Walk => Event::NotHere("nothing to select here: the arrows move the player"),
            },
            Action::Select => match self.keys() {
                Keys::SelectBlock => match self.cursor {
                    None => {
                        let c = self.selected.unwrap_or(Pos::new(0, 0));
                        self.cursor = Some(c);
                        Event::Cursor(c)
                    }
                    Some(c) => {
                        if self.g.selectable(&self.level, self.current()).contains(&c) {
                            self.cursor = None;
                            self.selected = Some(c);
                            Event::Selected(c)
                        } else {
                            Event::NotHere("no block under the cursor")
                        }
                    }
                },
                Keys::PickMove => {
                    let legal = self.legal();
                    // the move shown, else the hint's (drawn as an arrow alike)
                    let shown = self.shown.and_then(|i| legal.get(i).cloned());
                    match shown.or_else(|| self.hint.clone()) {
                        Some(m) => {
                            let e = self.play(m);
                            if matches!(e, Event::Moved { .. }) {
                                self.forget_redo();
                            }
                            e
                        }
                        None => Event::NotHere("no move shown: tab shows the legal moves"),
                    }
                }
                Keys::Walk => Event::NotHere("nothing to select here: the arrows move the player"),
            },
            Action::Undo => match self.moves.pop() {
                None => match self.restarts.pop() {
                    None => Event::NothingToUndo,
                    Some(left) => {
                        let n = left.moves.len();
                        self.moves = left.moves;
                        self.states.truncate(1);
                        self.states.extend(left.states);
                        self.redo.clear();
                        self.redo_restart = true;
                        self.hint = None;
                        self.shown = None;
                        self.cursor = None;
                        self.selected = self.first_block();
                        Event::RestartUndone(n)
                    }
                },
                Some(m) => {
                    self.states.pop();
                    self.hint = None;
                    self.shown = None;
                    if self.keys() == Keys::SelectBlock {
                        self.selected = self.g.moved_block(&m);
                    }
                    self.redo.push(m.clone());
                    Event::Undone(Move::new(m))
                }
            },
            Action::Redo => match self.redo.pop() {
                None if self.redo_restart => self.restart(),
                None => Event::NothingToRedo,
                Some(m) => match self.play(m.clone()) {
                    Event::Moved { .. } => Event::Redone(Move::new(m)),
                    other => {
                        self.redo.push(m);
                        other
                    }
                },
            },
            Action::Restart => self.restart(),
            Action::Hint => match self.known_verdict() {
                Some(Ok(v)) => {
                    self.hint = match &v {
                        Verdict::Solvable { next: Some(m), .. } => self.typed(m),
                        _ => None,
                    };
                    Event::Hint(v)
                }
                Some(Err(m)) => Event::Failed(m),
                None => Event::Failed("the solver has not answered yet".into()),
            },
            Action::FollowHint => match self.known_verdict() {
                Some(Ok(Verdict::Solvable { next: Some(m), .. })) => match self.typed(&m) {
                    Some(m) => {
                        let e = self.play(m);
                        if matches!(e, Event::Moved { .. }) {
                            self.forget_redo();
                        }
                        e
                    }
                    None => Event::Failed("the hint is a move of another game".into()),
                },
                Some(Ok(v)) => Event::Hint(v),
                Some(Err(m)) => Event::Failed(m),
                None => Event::Failed("the solver has not answered yet".into()),
            },
            Action::Click(at) => self.click(at),
            Action::Quit => Event::Quit,
        }
    }

    /// A click on `at`: selects the block there, or shows the next legal move that involves
    /// the cell (after the one shown).
    fn click(&mut self, at: Pos) -> Event {
        match self.keys() {
            Keys::SelectBlock => {
                self.cursor = None;
                if self.g.selectable(&self.level, self.current()).contains(&at) {
                    self.selected = Some(at);
                    Event::Selected(at)
                } else {
                    Event::NotHere("no block there to select")
                }
            }
            Keys::PickMove => {
                let legal = self.legal();
                let cell = (at.row, at.col);
                let involves = |m: &G::Move| match self.arrow_of(m) {
                    Some(Arrow::Path(p)) => p.contains(&cell),
                    Some(Arrow::Pair(a, b)) => a == cell || b == cell,
                    None => false,
                };
                let n = legal.len();
                let from = self.shown.map_or(0, |i| i + 1);
                match (0..n)
                    .map(|k| (from + k) % n)
                    .find(|&i| involves(&legal[i]))
                {
                    Some(i) => {
                        self.shown = Some(i);
                        Event::Shown(Move::new(legal[i].clone()))
                    }
                    None => Event::NotHere("no legal move involves that cell"),
                }
            }
            Keys::Walk => Event::NotHere("the arrows move the player: click beside him"),
        }
    }

    /// Plays `m` (a move of this game, as read by [`crate::ops::Level::parse_moves`]).
    fn play_given(&mut self, m: &Move) -> Event {
        let Some(m) = self.typed(m) else {
            return Event::Failed("a move of another game".into());
        };
        let e = self.play(m);
        if matches!(e, Event::Moved { .. }) {
            self.forget_redo();
        }
        e
    }
}

impl<G: Game> SessionObj for Play<G> {
    fn info(&self) -> &'static Info {
        self.g.info()
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn moves(&self) -> Vec<Move> {
        self.moves.iter().cloned().map(Move::new).collect()
    }
    fn move_count(&self) -> usize {
        self.moves.len()
    }
    fn redo_count(&self) -> usize {
        self.redo.len() + usize::from(self.redo_restart)
    }
    fn is_solved(&self) -> bool {
        self.g.solved(&self.level, self.current())
    }
    fn selected(&self) -> Option<Pos> {
        self.selected
    }
    fn cursor(&self) -> Option<Pos> {
        self.cursor
    }
    fn hint(&self) -> Option<Move> {
        self.hint.clone().map(Move::new)
    }
    fn message(&self) -> &str {
        &self.message
    }
    fn board_text(&self) -> String {
        self.g.position_text(&self.level, self.current())
    }
    fn view(&self) -> View {
        let mut scene = self.g.scene(&self.level, self.current());
        scene.title = self.name.clone();
        let shown = self.shown.and_then(|i| self.legal().get(i).cloned());
        let arrow = self
            .hint
            .as_ref()
            .or(shown.as_ref())
            .and_then(|m| self.arrow_of(m));
        View::new(scene, self.selected, self.cursor, arrow)
    }
    fn known_verdict(&self) -> Option<Result<Verdict, String>> {
        self.answers.get(&self.key()).cloned()
    }
    fn job(&self) -> Job {
        let (g, level, pos, limits, memory) = (
            self.g,
            Arc::clone(&self.level),
            self.current().clone(),
            self.limits.clone(),
            self.memory.clone(),
        );
        Job {
            key: self.key(),
            work: Arc::new(move || {
                verdict_with(g, &level, &pos, &limits, &memory).map_err(|e| e.to_string())
            }),
        }
    }
    fn learned_bytes(&self) -> usize {
        self.memory.bytes()
    }
    fn store(&mut self, a: Answer) {
        self.answers.insert(a.key, a.verdict);
    }
    fn apply(&mut self, action: Action) -> Event {
        let e = self.act(action);
        self.message = e.say(self.g.info().move_word).to_string();
        e
    }
    fn with_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }
    fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Move>, crate::Error> {
        Ok(self
            .g
            .parse_moves(text, file)?
            .into_iter()
            .map(Move::new)
            .collect())
    }
    fn play_move(&mut self, m: &Move) -> Event {
        let e = self.play_given(m);
        self.message = e.say(self.g.info().move_word).to_string();
        e
    }
    fn legal_moves(&self) -> Vec<Move> {
        self.legal().into_iter().map(Move::new).collect()
    }
    fn level_key(&self) -> Option<String> {
        let text = self
            .g
            .write(std::slice::from_ref(&*self.level), None)
            .ok()?;
        // the title names the level, it does not change it: a map opened as "c99" and the
        // same map warmed from its path share one table
        let text: String = text
            .lines()
            .filter(|l| !l.starts_with("Title:"))
            .flat_map(|l| [l, "\n"])
            .collect();
        Some(format!(
            "{}\n{:?}\n{text}",
            self.g.info().name,
            self.g.params(&self.level)
        ))
    }
    fn learns(&self) -> bool {
        verdicts_learn(self.g)
    }
    fn learning(&self) -> Learning {
        Learning(self.memory.clone())
    }
    fn set_learning(&mut self, l: &Learning) {
        self.memory = l.0.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::icetower::IceTower;
    use crate::ops::verdict::verdict as ops_verdict;
    use crate::ops::Request;
    use rand::{RngExt, SeedableRng};
    use std::time::Instant;

    /// A qits map of the shared reference levels as a session of Ice Tower.
    fn qits(name: &str) -> Play<IceTower> {
        let path = std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/levels/qits-icetower"
        ))
        .join(name);
        let text = format!("Game: icetower\n{}", std::fs::read_to_string(path).unwrap());
        let resolved = Request::from_text(&text, name).resolve().unwrap();
        let level = resolved.level.typed::<IceTower>().unwrap().clone();
        Play::new(IceTower, level, name)
    }

    /// The verdicts of a game in play, learning from each other, are the verdicts of
    /// searches that know nothing: along seeded games mixing optimal pushes and random ones
    /// (a random push that spoils the map is taken back), each answer has the fresh answer's
    /// number of pushes, and its first push leads to a position one push nearer.
    #[test]
    fn verdicts_in_play_learn_and_stay_exact() {
        let limits = Limits::none().max_states(5_000_000);
        // random pushes on qits001 cost seconds of fresh searches each: hints only there
        for (name, seed, random) in [("qits001", 1, 0.0), ("c99", 2, 0.5), ("w21", 3, 0.5)] {
            let mut s = qits(name);
            s.limits = limits.clone();
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            let mut log = Vec::new();
            let mut how = "start";
            for step in 0..10 {
                let began = Instant::now();
                let a = s.job().run();
                log.push(format!(
                    "{how} {:.1} ms",
                    began.elapsed().as_secs_f64() * 1e3
                ));
                let learned = a.verdict.clone().unwrap();
                s.store(a);
                let fresh = ops_verdict(s.g, &s.level, s.current(), &limits).unwrap();
                let Verdict::Solvable { moves: m, next } = learned else {
                    panic!("{name} step {step}: {learned:?} on a solvable position ({fresh:?})");
                };
                assert!(
                    matches!(fresh, Verdict::Solvable { moves, .. } if moves == m),
                    "{name} step {step}: {m} pushes against {fresh:?}"
                );
                if m == 0 {
                    break;
                }
                let hinted = s.typed(&next.unwrap()).unwrap();
                let legal = s.legal();
                let pick = legal[rng.random_range(0..legal.len())];
                how = "random";
                if pick != hinted && rng.random_bool(random) {
                    s.play(pick);
                    let spoiled = ops_verdict(s.g, &s.level, s.current(), &limits).unwrap();
                    if matches!(spoiled, Verdict::Solvable { .. }) {
                        continue;
                    }
                    s.states.pop();
                    s.moves.pop();
                }
                how = "hint";
                s.play(hinted);
            }
            eprintln!("{name}: {}", log.join(", "));
        }
    }
}
