//! `floe play`: a level in the terminal (ratatui on crossterm), or a key script run without
//! one (`--keys`, `--script`). The game itself is [`floe::play::Session`]; this module only
//! reads keys and draws.

use super::{count, request};
use crate::args::{LimitArgs, PlayArgs};
use crate::out;
use crate::Done;
use floe::game::{Keys, Move};
use floe::grid::Pos;
use floe::play::{parse_keys, Action, CellView, Event, Session, Verdict};
use floe::render::plural;
use floe::scene::{card_label, Ground, PieceKind};
use floe::Error;
use ratatui::crossterm::event::{self, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use serde::Serialize;
use std::io::IsTerminal;
use std::sync::mpsc;
use std::time::Duration;

/// `floe play`.
pub fn run(a: PlayArgs) -> Result<Done, Error> {
    let keys = match (&a.keys, &a.script) {
        (Some(k), _) => Some(k.clone()),
        (None, Some(f)) => Some(floe::input::read_text(f)?.0),
        (None, None) => None,
    };
    // read the script before the level: a bad key is a usage error whatever the level
    let script = match &keys {
        Some(k) => Some(parse_keys(k).map_err(Error::invalid)?),
        None => None,
    };
    if script.is_none() {
        if a.json {
            return Err(Error::invalid(
                "--json goes with --keys or --script (the interactive game draws on the terminal)",
            ));
        }
        if !std::io::stdout().is_terminal() {
            return Err(Error::invalid(
                "floe play needs a terminal on standard output; to play without one, give the keys \
                 with --keys \"…\" or --script FILE",
            ));
        }
    }
    let session = load(request(&a.level)?, &a.limits, None)?;
    match script {
        Some(actions) => scripted(session, &actions, a.json),
        None => interactive(session),
    }
}

/// A session of `req`'s level, its solver's questions within `asked` (else the play
/// defaults) and stopped by `stop`.
pub(crate) fn load(
    req: floe::ops::Request,
    asked: &LimitArgs,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Result<Session, Error> {
    let mut limits = floe::play::default_limits();
    if let Some(n) = asked.max_states {
        limits.max_states = Some(n);
    }
    if let Some(t) = asked.timeout {
        limits.timeout = Some(t);
    }
    limits.stop = stop;
    Ok(req.level.play()?.with_limits(limits))
}

#[derive(Serialize)]
struct StepJson {
    key: String,
    event: String,
    length: usize,
}

/// What `floe play --keys … --json` prints (and the web page's `/api/hint`).
#[derive(Serialize)]
pub(crate) struct ScriptJson {
    level: String,
    game: &'static str,
    keys: usize,
    /// Keys played (a `q` ends the script).
    played: usize,
    steps: Vec<StepJson>,
    /// Moves played from the start to the end position.
    length: usize,
    solved: bool,
    /// `yes`, `no` or `unknown` (a limit stopped the solver), `null` if it failed.
    solvable: Option<&'static str>,
    /// Fewest moves still needed, when solvable.
    to_go: Option<u32>,
    /// The next move of such a solution.
    hint: Option<Move>,
    limit: Option<&'static str>,
    error: Option<String>,
    moves: Vec<Move>,
    selected: Option<Pos>,
    board: String,
    message: String,
}

/// Plays `actions` and asks the solver about the end position.
pub(crate) fn script(s: &mut Session, actions: &[Action]) -> ScriptJson {
    let word = s.move_word();
    let mut steps = Vec::new();
    for a in actions {
        let e = s.apply(*a);
        steps.push(StepJson {
            key: a.to_string(),
            event: e.say(word).to_string(),
            length: s.move_count(),
        });
        if e == Event::Quit {
            break;
        }
    }
    let verdict = s.verdict();
    let (solvable, to_go, hint, limit, error) = match &verdict {
        Ok(v @ Verdict::Solvable { moves, next }) => {
            (Some(v.name()), Some(*moves), next.clone(), None, None)
        }
        Ok(v @ Verdict::Unknown(k)) => (Some(v.name()), None, None, Some(k.name()), None),
        Ok(v) => (Some(v.name()), None, None, None, None),
        Err(m) => (None, None, None, None, Some(m.clone())),
    };
    ScriptJson {
        level: s.name().to_string(),
        game: s.info().name,
        keys: actions.len(),
        played: steps.len(),
        length: s.move_count(),
        solved: s.is_solved(),
        solvable,
        to_go,
        hint,
        limit,
        error,
        moves: s.moves(),
        selected: s.selected(),
        board: s.board_text(),
        message: s.message().to_string(),
        steps,
    }
}

/// Plays `actions` and prints the end state.
fn scripted(mut s: Session, actions: &[Action], json: bool) -> Result<Done, Error> {
    let word = s.move_word();
    let r = script(&mut s, actions);
    if json {
        out::json(&r);
        return Ok(Done::Answered);
    }
    outln!(
        "{} ({}): {} played",
        s.name(),
        s.info().title,
        plural(r.steps.len(), "key", "keys")
    );
    for (i, st) in r.steps.iter().enumerate() {
        outln!("{:>4}. {:<7} {}", i + 1, st.key, st.event);
    }
    outp!("{}", r.board);
    outln!(
        "{}, {}",
        count(r.length as u64, word, s.info().moves_word()),
        if r.solved { "solved" } else { "not solved" }
    );
    match (&r.solvable, &r.error) {
        (_, Some(m)) => outln!("still solvable: the solver failed: {m}"),
        (Some(_), None) => match s.verdict() {
            Ok(v) => outln!("still solvable: {} ({})", v.name(), v.say(word)),
            Err(m) => outln!("still solvable: the solver failed: {m}"),
        },
        (None, None) => {}
    }
    if !r.moves.is_empty() {
        let m: Vec<String> = r.moves.iter().map(ToString::to_string).collect();
        outln!("moves: {}", m.join(", "));
    }
    Ok(Done::Answered)
}

/// The action of a key press, if it has one.
fn action_of(k: KeyEvent) -> Option<Action> {
    use floe::grid::Dir;
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    Some(match k.code {
        KeyCode::Up => Action::Arrow(Dir::Up),
        KeyCode::Down => Action::Arrow(Dir::Down),
        KeyCode::Left => Action::Arrow(Dir::Left),
        KeyCode::Right => Action::Arrow(Dir::Right),
        KeyCode::Tab | KeyCode::Char(' ') => Action::NextBlock,
        KeyCode::BackTab => Action::PrevBlock,
        KeyCode::Enter => Action::Select,
        KeyCode::Esc => Action::Quit,
        KeyCode::Char('c') if ctrl => Action::Quit,
        KeyCode::Char('z') if ctrl => Action::Undo,
        KeyCode::Char('y') if ctrl => Action::Redo,
        KeyCode::Char(c) if !ctrl => c.to_string().parse().ok()?,
        _ => return None,
    })
}

/// Restores the terminal however the game ends (the panic hook of `ratatui::init` covers
/// panics; this covers returns and errors).
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

/// What the game waits for from the solver thread.
#[derive(Default)]
struct Waiting {
    /// A job for this position key is with the solver.
    asked: Option<String>,
    /// The player asked for a hint (`false`) or to play it (`true`) and waits for it.
    hint: Option<bool>,
}

fn interactive(mut s: Session) -> Result<Done, Error> {
    let (job_tx, job_rx) = mpsc::channel::<floe::play::Job>();
    let (ans_tx, ans_rx) = mpsc::channel();
    // One solver thread; it skips questions about positions the player has already left.
    std::thread::spawn(move || {
        while let Ok(mut job) = job_rx.recv() {
            while let Ok(newer) = job_rx.try_recv() {
                job = newer;
            }
            if ans_tx.send(job.run()).is_err() {
                break;
            }
        }
    });
    let mut terminal = ratatui::try_init().map_err(|e| {
        ratatui::restore();
        Error::invalid(format!("cannot set up the terminal: {e}"))
    })?;
    let _restore = Restore;
    let mut waiting = Waiting::default();
    loop {
        // file what the solver found; answer a waiting hint
        while let Ok(a) = ans_rx.try_recv() {
            if waiting.asked.as_deref() == Some(a.key()) {
                waiting.asked = None;
            }
            s.store(a);
        }
        if let (Some(follow), Some(_)) = (waiting.hint, s.known_verdict()) {
            s.apply(if follow {
                Action::FollowHint
            } else {
                Action::Hint
            });
            waiting.hint = None;
        }
        if s.known_verdict().is_none() {
            let job = s.job();
            if waiting.asked.as_deref() != Some(job.key()) {
                waiting.asked = Some(job.key().to_string());
                let _ = job_tx.send(job);
            }
        }
        terminal
            .draw(|f| draw(f, &s, waiting.hint.is_some()))
            .map_err(|e| Error::invalid(format!("cannot draw: {e}")))?;
        if !event::poll(Duration::from_millis(100))
            .map_err(|e| Error::invalid(format!("cannot read the keyboard: {e}")))?
        {
            continue;
        }
        let ev =
            event::read().map_err(|e| Error::invalid(format!("cannot read the keyboard: {e}")))?;
        let Some(k) = ev.as_key_press_event() else {
            continue;
        };
        if k.kind != KeyEventKind::Press {
            continue;
        }
        let Some(action) = action_of(k) else {
            continue;
        };
        match action {
            Action::Quit => break,
            Action::Hint | Action::FollowHint if s.known_verdict().is_none() => {
                waiting.hint = Some(action == Action::FollowHint);
            }
            _ => {
                waiting.hint = None;
                s.apply(action);
            }
        }
    }
    Ok(Done::Answered)
}

/// Two terminal columns per cell: the text and its style.
fn cell_span(c: &CellView) -> Span<'static> {
    let ice = Color::Rgb(232, 244, 252);
    let floor = Color::Rgb(200, 184, 150);
    let wall = Color::Rgb(55, 55, 60);
    let block = Color::Rgb(40, 110, 215);
    let golden = Color::Rgb(225, 180, 30);
    let table = Color::Rgb(239, 230, 210);
    let mut bg = match c.ground {
        Ground::Ice | Ground::Target | Ground::Arrow(_) | Ground::Blank => ice,
        Ground::Floor => floor,
        Ground::Wall => wall,
        Ground::Fire => Color::Rgb(215, 60, 30),
        Ground::Recycler => Color::Rgb(150, 90, 180),
        Ground::Dispenser => Color::Rgb(120, 160, 120),
        Ground::Table | Ground::Hole | Ground::Start => table,
        Ground::Space { summit: true, .. } => Color::Rgb(250, 215, 160),
        Ground::Space { .. } => Color::Rgb(225, 225, 215),
    };
    let mut fg = Color::Black;
    let mut text: String = match c.ground {
        Ground::Target => "()".into(),
        Ground::Fire => "^^".into(),
        Ground::Recycler => "~~".into(),
        Ground::Dispenser => "++".into(),
        Ground::Wall => "##".into(),
        Ground::Hole => "__".into(),
        Ground::Space { value, .. } => format!("{value} "),
        Ground::Arrow(d) => match d {
            floe::grid::Dir::Up => "/\\".into(),
            floe::grid::Dir::Down => "\\/".into(),
            floe::grid::Dir::Left => "<<".into(),
            floe::grid::Dir::Right => ">>".into(),
        },
        _ => "  ".into(),
    };
    if c.ground == Ground::Target {
        fg = Color::Rgb(200, 30, 30);
    }
    if c.ground == Ground::Wall {
        fg = Color::Rgb(90, 90, 96);
    }
    if let Some(p) = c.piece {
        fg = Color::White;
        match p {
            PieceKind::Golden => {
                bg = golden;
                text = "$$".into();
            }
            PieceKind::Token(colour) => {
                bg = token_colour(colour);
                text = format!("{colour} ");
            }
            PieceKind::Card { suit, rank } => {
                bg = Color::White;
                fg = if suit % 2 == 1 {
                    Color::Rgb(200, 30, 30)
                } else {
                    Color::Black
                };
                text = format!("{:<2}", card_label(suit, rank));
            }
            PieceKind::Priest => {
                fg = Color::Rgb(120, 40, 140);
                text = "P ".into();
            }
            _ => {
                bg = block;
                text = if c.ground == Ground::Target {
                    "()".into()
                } else {
                    "[]".into()
                };
            }
        }
    }
    if c.selected {
        bg = Color::Rgb(120, 200, 255);
        fg = Color::Black;
        text = if c.ground == Ground::Target {
            "{}".into()
        } else {
            "<>".into()
        };
    }
    if c.actor {
        fg = Color::Rgb(20, 20, 20);
        text = if c.ground == Ground::Target {
            "@)".into()
        } else {
            "@ ".into()
        };
    }
    if c.marked {
        fg = Color::Rgb(255, 230, 0);
        bg = Color::Rgb(60, 60, 60);
    }
    if let Some(d) = c.hint {
        fg = Color::Rgb(255, 230, 0);
        text = match d {
            floe::grid::Dir::Up => "^^".into(),
            floe::grid::Dir::Down => "vv".into(),
            floe::grid::Dir::Left => "<<".into(),
            floe::grid::Dir::Right => ">>".into(),
        };
    }
    let mut style = Style::default().fg(fg).bg(bg);
    if c.hint.is_some() || c.actor || c.selected || c.marked {
        style = style.add_modifier(Modifier::BOLD);
    }
    if c.cursor {
        style = style.add_modifier(Modifier::REVERSED);
    }
    Span::styled(text, style)
}

/// A BoxOff token's colour.
fn token_colour(c: u8) -> Color {
    const RGB: [(u8, u8, u8); 9] = [
        (0, 114, 178),
        (213, 94, 0),
        (0, 158, 115),
        (204, 121, 167),
        (230, 159, 0),
        (86, 180, 233),
        (200, 190, 40),
        (0, 0, 0),
        (153, 153, 153),
    ];
    let (r, g, b) = RGB[(c.max(1) as usize - 1) % RGB.len()];
    Color::Rgb(r, g, b)
}

fn draw(f: &mut Frame, s: &Session, thinking: bool) {
    let view = s.view();
    let board_h = view.rows as u16 + 2;
    let [title, board, status, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(board_h),
        Constraint::Length(2),
        Constraint::Min(2),
    ])
    .areas(f.area());
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(
                format!(" floe play: {} ", s.name()),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!("({})", s.info().title)),
        ])),
        title,
    );
    let lines: Vec<Line> = (0..view.rows)
        .map(|r| {
            Line::from(
                (0..view.cols)
                    .map(|c| cell_span(&view.cells[r * view.cols + c]))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let mut board_area = board;
    board_area.width = board_area.width.min(view.cols as u16 * 2 + 2);
    f.render_widget(Paragraph::new(lines).block(Block::bordered()), board_area);
    let word = s.move_word();
    let solvable = match s.known_verdict() {
        None => "thinking…".to_string(),
        Some(Ok(v @ Verdict::Solvable { .. })) => format!("yes ({})", v.say(word)),
        Some(Ok(v @ Verdict::Unsolvable)) => format!("NO ({}: undo or restart)", v.say(word)),
        Some(Ok(v)) => v.say(word),
        Some(Err(m)) => format!("the solver failed: {m}"),
    };
    let solved = if s.is_solved() {
        Span::styled(
            "SOLVED",
            Style::default()
                .fg(Color::Green)
                .add_modifier(Modifier::BOLD),
        )
    } else {
        Span::raw("not yet")
    };
    let message = if thinking {
        "asking the solver…".to_string()
    } else if s.message().is_empty() {
        "good luck: h asks for a hint".to_string()
    } else {
        s.message().to_string()
    };
    f.render_widget(
        Paragraph::new(vec![
            Line::from(vec![
                Span::raw(format!(
                    " {}: {}   solved: ",
                    s.info().moves_word(),
                    s.move_count()
                )),
                solved,
                Span::raw(format!("   still solvable: {solvable}")),
            ]),
            Line::from(format!(" {message}")),
        ]),
        status,
    );
    let moves = match s.keys() {
        Keys::SelectBlock => {
            "arrows push the selected block · tab/space next block · enter: cursor, enter again selects"
        }
        Keys::Walk if s.info().moves_are_pushes() => "arrows walk and push",
        Keys::Walk => "arrows move the player",
        Keys::PickMove => "tab/space shows the next legal move, backtab the previous · enter plays it",
    };
    f.render_widget(
        Paragraph::new(format!(
            " {moves} · u/ctrl-z undo · r/ctrl-y redo · R restart · h hint · H play the hint · q quit"
        ))
        .style(Style::default().fg(Color::Gray))
        .wrap(Wrap { trim: true }),
        help,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use floe::grid::Dir;

    fn key(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, m)
    }

    #[test]
    fn keys_map_to_the_scripts_actions() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            action_of(key(KeyCode::Left, none)),
            Some(Action::Arrow(Dir::Left))
        );
        assert_eq!(
            action_of(key(KeyCode::Char('z'), KeyModifiers::CONTROL)),
            Some(Action::Undo)
        );
        assert_eq!(
            action_of(key(KeyCode::Char('y'), KeyModifiers::CONTROL)),
            Some(Action::Redo)
        );
        assert_eq!(
            action_of(key(KeyCode::Char('R'), KeyModifiers::SHIFT)),
            Some(Action::Restart)
        );
        assert_eq!(action_of(key(KeyCode::Char('r'), none)), Some(Action::Redo));
        assert_eq!(
            action_of(key(KeyCode::Char('H'), KeyModifiers::SHIFT)),
            Some(Action::FollowHint)
        );
        assert_eq!(
            action_of(key(KeyCode::Char(' '), none)),
            Some(Action::NextBlock)
        );
        assert_eq!(
            action_of(key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
        assert_eq!(action_of(key(KeyCode::Char('x'), none)), None);
        // every script name the help text lists is a key of the terminal too, but for the
        // clicks of the web page
        let keys = floe::play::KEY_NAMES.replace(" click:ROW:COL", "");
        assert_eq!(parse_keys(&keys).unwrap().len(), 16);
    }

    #[test]
    fn the_board_draws_in_a_test_terminal() {
        use ratatui::backend::TestBackend;
        let s = floe::ops::Request::from_text("$-.\n=#-\n", "t")
            .resolve()
            .unwrap()
            .level
            .play()
            .unwrap();
        let mut t = ratatui::Terminal::new(TestBackend::new(100, 10)).unwrap();
        t.draw(|f| draw(f, &s, false)).unwrap();
        let buf = t.backend().buffer().clone();
        let row: String = (0..8).map(|x| buf[(x, 2)].symbol().to_string()).collect();
        // border, the selected block, ice, the target
        assert_eq!(row, "│<>  ()│");
        let row: String = (0..100).map(|x| buf[(x, 5)].symbol().to_string()).collect();
        assert!(row.contains("pushes: 0"), "{row}");
    }
}
