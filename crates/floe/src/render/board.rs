//! Board pictures for every game floe knows, and solutions drawn on them.
//!
//! Every game is first turned into a [`Scene`]: a grid of [`Ground`] cells and a list of
//! [`Piece`]s (blocks, the player, tokens, cards, priests), each with a stable id. One
//! function draws any scene, so all games share one style (the theses' conventions): ice
//! white with a pale blue grid, normal floor beige, walls dark, targets crossed in red, ice
//! blocks blue, golden ice gold, the player a red disc, the magician a purple one.
//!
//! A solution is a [`Story`]: the start scene and one [`Act`] per move, saying which pieces
//! slide along which cells, which vanish or appear, which cells change (a fire put out), where
//! the pusher stands and which arrow to draw. Each game builds its story by replaying its move
//! list with its own validator's rules ([`ice_story`], [`pushpush_story`], [`tower_story`],
//! [`boxoff_story`], [`pretzel_story`], [`fujisan_story`]); the story is then drawn as
//!
//! - [`arrows_svg`]: the start with each move as a numbered arrow from the pushed block's cell
//!   along its slide to where it stops;
//! - [`frames_svg`]: one small board per move (the board before the move, with its arrow),
//!   and the final board, in rows;
//! - [`animated_svg`]: the start board whose pieces move by SMIL animation (`animateTransform`
//!   per piece, `animate` of opacity for pieces that vanish or appear and for cells that
//!   change), looping, so it plays in a browser without script.
//!
//! Output is deterministic: pieces and cells are written in a fixed order and every number
//! with at most two decimals (four for animation key times).

use super::svg::{fmt_coord, polyline, Doc};
use crate::error::Error;
use crate::games::ice::{self, Cell, Level, WalkRule};
use crate::games::icetower::{self, Block, End, Tile, Tower};
use crate::games::pushpush::{self, Board as PpBoard, Variant};
use crate::games::solitaire::{boxoff, fujisan, pretzel, AnyMove, Challenge};
use crate::grid::{Dir, Pos, Push};

/// What a cell is, apart from the pieces on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// Nothing drawn.
    Blank,
    /// Ice (blocks slide over it); also PushPush floor and Ice Tower floor.
    Ice,
    /// Normal floor (blocks stop on it).
    Floor,
    /// A wall.
    Wall,
    /// A target on ice.
    Target,
    /// A burning fire (Ice Tower).
    Fire,
    /// A recycler (Ice Tower).
    Recycler,
    /// An arrow (Ice Tower, dynamic levels).
    Arrow(Dir),
    /// A dispenser (Ice Tower, dynamic levels).
    Dispenser,
    /// The table under tokens or cards (BoxOff).
    Table,
    /// A card's place (Pretzel): a hole when no card lies on it.
    Hole,
    /// A space of Fujisan's mountain with its value.
    Space {
        /// The value printed on it.
        value: u8,
        /// Whether it is a summit space.
        summit: bool,
    },
    /// A priest's starting place beside the mountain (Fujisan).
    Start,
}

/// What a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceKind {
    /// A (regular) ice block; also a PushPush block.
    Block,
    /// Golden ice (Ice Tower).
    Golden,
    /// The player, PushPush's robot.
    Player,
    /// Ice Tower's magician.
    Magician,
    /// A BoxOff token of a colour (1–9).
    Token(u8),
    /// A Pretzel card (0-based suit, rank 1 = ace).
    Card {
        /// Suit, 0-based.
        suit: u8,
        /// Rank, 1 = ace.
        rank: u8,
    },
    /// A Fujisan priest.
    Priest,
}

/// A piece on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Stable across a story.
    pub id: u32,
    /// What it is.
    pub kind: PieceKind,
    /// Row and column in the scene.
    pub at: (usize, usize),
}

/// A board to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Row-major cells.
    pub ground: Vec<Ground>,
    /// Pieces, drawn in this order.
    pub pieces: Vec<Piece>,
    /// Labels of the columns when coordinates are drawn (the game's own numbering).
    pub col_labels: Vec<String>,
    /// The picture's title (an SVG `<title>`, not drawn).
    pub title: String,
}

impl Scene {
    fn new(rows: usize, cols: usize, title: &str) -> Scene {
        Scene {
            rows,
            cols,
            ground: vec![Ground::Blank; rows * cols],
            pieces: Vec::new(),
            col_labels: (0..cols).map(|c| c.to_string()).collect(),
            title: title.to_string(),
        }
    }

    fn set(&mut self, (r, c): (usize, usize), g: Ground) {
        self.ground[r * self.cols + c] = g;
    }

    fn add(&mut self, kind: PieceKind, at: (usize, usize)) -> u32 {
        let id = self.pieces.iter().map(|p| p.id + 1).max().unwrap_or(0);
        self.pieces.push(Piece { id, kind, at });
        id
    }

    fn piece_at(&self, at: (usize, usize)) -> Option<u32> {
        self.pieces
            .iter()
            .find(|p| p.at == at && !matches!(p.kind, PieceKind::Player | PieceKind::Magician))
            .map(|p| p.id)
    }

    fn piece_mut(&mut self, id: u32) -> Option<&mut Piece> {
        self.pieces.iter_mut().find(|p| p.id == id)
    }

    /// Blocks (ice and golden) in the scene.
    pub fn blocks(&self) -> usize {
        self.pieces
            .iter()
            .filter(|p| matches!(p.kind, PieceKind::Block | PieceKind::Golden))
            .count()
    }
}

/// The arrow of one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arrow {
    /// A slide through these cells (the first is where the piece starts).
    Path(Vec<(usize, usize)>),
    /// Two cells taken away together (BoxOff).
    Pair((usize, usize), (usize, usize)),
}

/// One move of a solution.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Act {
    /// Pieces that move: id and the cells of the slide (first = where it starts).
    pub slides: Vec<(u32, Vec<(usize, usize)>)>,
    /// Pieces gone after the move (at the end of their slide).
    pub removed: Vec<u32>,
    /// Pieces that appear with the move (they start their slide from its first cell).
    pub added: Vec<Piece>,
    /// Cells that change.
    pub ground: Vec<((usize, usize), Ground)>,
    /// The pusher and the cell it pushes from.
    pub pusher: Option<(u32, (usize, usize))>,
    /// The arrow drawn for the move.
    pub arrow: Option<Arrow>,
}

/// A solution: the start and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Story {
    /// The start.
    pub start: Scene,
    /// One act per move.
    pub acts: Vec<Act>,
}

impl Story {
    /// The scene before each act (with the pusher where it stands to push) and the final
    /// scene: `acts.len() + 1` scenes.
    pub fn scenes(&self) -> Vec<Scene> {
        let mut out = Vec::with_capacity(self.acts.len() + 1);
        let mut s = self.start.clone();
        for act in &self.acts {
            if let Some((id, at)) = act.pusher {
                if let Some(p) = s.piece_mut(id) {
                    p.at = at;
                }
            }
            out.push(s.clone());
            s = after(&s, act);
        }
        out.push(s);
        out
    }
}

fn after(s: &Scene, act: &Act) -> Scene {
    let mut s = s.clone();
    s.pieces.extend(act.added.iter().copied());
    for (id, path) in &act.slides {
        if let (Some(p), Some(&end)) = (s.piece_mut(*id), path.last()) {
            p.at = end;
        }
    }
    s.pieces.retain(|p| !act.removed.contains(&p.id));
    for &(at, g) in &act.ground {
        s.set(at, g);
    }
    s
}

fn to_rc(p: Pos) -> (usize, usize) {
    (p.row, p.col)
}

fn straight(from: (usize, usize), to: (usize, usize)) -> Vec<(usize, usize)> {
    let mut out = vec![from];
    let (mut r, mut c) = (from.0 as isize, from.1 as isize);
    let dr = (to.0 as isize - r).signum();
    let dc = (to.1 as isize - c).signum();
    if dr != 0 && dc != 0 {
        out.push(to);
        return out;
    }
    while (r, c) != (to.0 as isize, to.1 as isize) {
        r += dr;
        c += dc;
        out.push((r as usize, c as usize));
    }
    out
}

fn behind(p: Pos, d: Dir, rows: usize, cols: usize) -> Option<(usize, usize)> {
    p.step(d.opposite(), rows, cols).map(to_rc)
}

// ---------------------------------------------------------------------------------------------
// Scenes of the games
// ---------------------------------------------------------------------------------------------

/// An ice block level.
pub fn ice_scene(level: &Level, title: &str) -> Scene {
    let mut s = Scene::new(level.rows(), level.cols(), title);
    for p in level.positions() {
        let g = match level.cell(p) {
            Cell::Ice => Ground::Ice,
            Cell::Target => Ground::Target,
            Cell::Floor => Ground::Floor,
            Cell::Wall => Ground::Wall,
        };
        s.set(to_rc(p), g);
    }
    for p in level.blocks() {
        s.add(PieceKind::Block, to_rc(p));
    }
    if let Some(p) = level.player() {
        s.add(PieceKind::Player, to_rc(p));
    }
    s
}

/// A PushPush board (floor is drawn as ice: blocks slide over it).
pub fn pushpush_scene(board: &PpBoard, title: &str) -> Scene {
    let mut s = Scene::new(board.rows(), board.cols(), title);
    for i in 0..board.cells() {
        let p = board.pos(i);
        s.set(
            to_rc(p),
            if board.is_wall(p) {
                Ground::Wall
            } else if p == board.target() {
                Ground::Target
            } else {
                Ground::Ice
            },
        );
    }
    for i in 0..board.cells() {
        let p = board.pos(i);
        if board.has_block(p) {
            s.add(PieceKind::Block, to_rc(p));
        }
    }
    s.add(PieceKind::Player, to_rc(board.robot()));
    s
}

fn tower_ground(t: Tile) -> Ground {
    match t {
        Tile::Floor => Ground::Ice,
        Tile::Wall => Ground::Wall,
        Tile::Fire => Ground::Fire,
        Tile::Recycler => Ground::Recycler,
        Tile::Arrow(d) => Ground::Arrow(d),
        Tile::Dispenser => Ground::Dispenser,
    }
}

/// An Ice Tower level.
pub fn tower_scene(t: &Tower) -> Scene {
    let mut s = Scene::new(t.rows(), t.cols(), &t.name);
    for p in t.positions() {
        s.set(to_rc(p), tower_ground(t.tile(p)));
    }
    for p in t.positions() {
        match t.block(p) {
            Some(Block::Ice) => {
                s.add(PieceKind::Block, to_rc(p));
            }
            Some(Block::Golden) => {
                s.add(PieceKind::Golden, to_rc(p));
            }
            None => {}
        }
    }
    s.add(PieceKind::Magician, to_rc(t.magician()));
    s
}

/// A BoxOff board.
pub fn boxoff_scene(b: &boxoff::Board, title: &str) -> Scene {
    let mut s = Scene::new(b.rows(), b.cols(), title);
    for r in 0..b.rows() {
        for c in 0..b.cols() {
            s.set((r, c), Ground::Table);
            if b.get(r, c) != 0 {
                s.add(PieceKind::Token(b.get(r, c)), (r, c));
            }
        }
    }
    s
}

/// A Pretzel deal: the aces in a column on the left (scene column 0), the deal right of it.
pub fn pretzel_scene(d: &pretzel::Deal, title: &str) -> Scene {
    let mut s = Scene::new(d.suits(), d.ranks() + 1, title);
    s.col_labels = std::iter::once("A".to_string())
        .chain((0..d.ranks()).map(|c| c.to_string()))
        .collect();
    for r in 0..d.suits() {
        s.set((r, 0), Ground::Table);
        s.add(
            PieceKind::Card {
                suit: r as u8,
                rank: 1,
            },
            (r, 0),
        );
        for c in 0..d.ranks() {
            s.set((r, c + 1), Ground::Hole);
        }
    }
    for r in 0..d.suits() {
        for c in 0..d.ranks() {
            if let Some(card) = d.card(r, c) {
                s.add(
                    PieceKind::Card {
                        suit: card.suit,
                        rank: card.rank,
                    },
                    (r, c + 1),
                );
            }
        }
    }
    s
}

/// A Fujisan mountain with the four priests on their starting places (scene columns 0 and
/// `width + 1`, the game's columns −1 and `width`).
pub fn fujisan_scene(m: &fujisan::Mountain, title: &str) -> Scene {
    let w = m.cols();
    let mut s = Scene::new(2, w + 2, title);
    s.col_labels = (-1..=w as i64).map(|c| c.to_string()).collect();
    for r in 0..2 {
        s.set((r, 0), Ground::Start);
        s.set((r, w + 1), Ground::Start);
        for c in 0..w {
            s.set(
                (r, c + 1),
                Ground::Space {
                    value: m.get(r, c),
                    summit: m.is_summit(c),
                },
            );
        }
    }
    for at in [(0, 0), (1, 0), (0, w + 1), (1, w + 1)] {
        s.add(PieceKind::Priest, at);
    }
    s
}

/// A solitaire challenge.
pub fn challenge_scene(c: &Challenge, title: &str) -> Scene {
    match c {
        Challenge::BoxOff(b) => boxoff_scene(b, title),
        Challenge::Pretzel(d) => pretzel_scene(d, title),
        Challenge::Fujisan(m) => fujisan_scene(m, title),
    }
}

// ---------------------------------------------------------------------------------------------
// Stories (solutions) of the games, built by replaying the moves
// ---------------------------------------------------------------------------------------------

fn replay_error(game: &str, e: impl std::fmt::Display) -> Error {
    Error::invalid(format!("the {game} moves do not replay: {e}"))
}

/// An ice block solution under `rule`, replayed by the validator.
pub fn ice_story(
    level: &Level,
    rule: WalkRule,
    moves: &[Push],
    title: &str,
) -> Result<Story, Error> {
    let rep = ice::replay(level, rule, moves).map_err(|e| replay_error("ice block", e))?;
    let start = ice_scene(level, title);
    let player = start
        .pieces
        .iter()
        .find(|p| p.kind == PieceKind::Player)
        .map(|p| p.id);
    let mut s = start.clone();
    let mut acts = Vec::with_capacity(rep.steps.len());
    for step in &rep.steps {
        let from = to_rc(step.push.pos());
        let id = s
            .piece_at(from)
            .ok_or_else(|| Error::Internal(format!("no block at {from:?} to push")))?;
        let path = straight(from, to_rc(step.to));
        let act = Act {
            slides: vec![(id, path.clone())],
            pusher: player.and_then(|pl| {
                behind(step.push.pos(), step.push.dir, level.rows(), level.cols()).map(|b| (pl, b))
            }),
            arrow: Some(Arrow::Path(path)),
            ..Act::default()
        };
        s = after(&s, &act);
        acts.push(act);
    }
    Ok(Story { start, acts })
}

/// A PushPush solution, replayed by the validator (rows of blocks move together).
pub fn pushpush_story(
    board: &PpBoard,
    variant: Variant,
    moves: &[Push],
    title: &str,
) -> Result<Story, Error> {
    let rep = pushpush::replay(board, moves, variant).map_err(|e| replay_error("PushPush", e))?;
    let start = pushpush_scene(board, title);
    let robot = start
        .pieces
        .iter()
        .find(|p| p.kind == PieceKind::Player)
        .map(|p| p.id);
    let mut s = start.clone();
    let mut before = board.clone();
    let mut acts = Vec::with_capacity(rep.steps.len());
    for step in &rep.steps {
        let p = step.push.pos();
        let d = step.push.dir;
        let mut row = vec![p];
        let mut next = before.step(p, d);
        while let Some(q) = next.filter(|&q| before.has_block(q)) {
            row.push(q);
            next = before.step(q, d);
        }
        let mut dist = 0;
        while let Some(q) = next.filter(|&q| before.is_free(q)) {
            dist += 1;
            next = before.step(q, d);
        }
        let mut slides = Vec::new();
        for &b in &row {
            let mut end = b;
            for _ in 0..dist {
                end = before.step(end, d).expect("checked free above");
            }
            let id = s
                .piece_at(to_rc(b))
                .ok_or_else(|| Error::Internal(format!("no block at {b} to push")))?;
            slides.push((id, straight(to_rc(b), to_rc(end))));
        }
        let act = Act {
            arrow: Some(Arrow::Path(slides[0].1.clone())),
            slides,
            pusher: robot.and_then(|r| behind(p, d, board.rows(), board.cols()).map(|b| (r, b))),
            ..Act::default()
        };
        s = after(&s, &act);
        acts.push(act);
        before = step.board.clone();
    }
    Ok(Story { start, acts })
}

/// An Ice Tower solution, replayed by the plain rules: slides follow arrows, blocks vanish
/// in fires and recyclers, dispensers make new blocks, fires go out.
pub fn tower_story(t: &Tower, moves: &[Push]) -> Result<Story, Error> {
    let rep = icetower::replay(t, moves).map_err(|e| replay_error("Ice Tower", e))?;
    let start = tower_scene(t);
    let magician = start
        .pieces
        .iter()
        .find(|p| p.kind == PieceKind::Magician)
        .map(|p| p.id);
    let (rows, cols) = (t.rows(), t.cols());
    let mut s = start.clone();
    let mut before = icetower::Board::new(t);
    let mut acts = Vec::with_capacity(rep.steps.len());
    for (step, board_after) in rep.steps.iter().zip(&rep.boards) {
        let from = step.push.pos();
        let end = match step.end {
            End::Rest(p) | End::Fire(p) | End::Recycler(p) => p,
        };
        // trace the slide on the board before the push, turning at arrows
        let mut path = vec![to_rc(from)];
        let (mut at, mut dir) = (from, step.push.dir);
        for _ in 0..rows * cols * 4 {
            if at == end && path.len() > 1 {
                break;
            }
            let Some(n) = at.step(dir, rows, cols) else {
                break;
            };
            if let Tile::Arrow(a) = before.tile(n) {
                dir = a;
            }
            at = n;
            path.push(to_rc(n));
        }
        if path.last() != Some(&to_rc(end)) {
            path = straight(to_rc(from), to_rc(end));
        }
        let mut act = Act {
            pusher: magician.and_then(|m| behind(from, step.push.dir, rows, cols).map(|b| (m, b))),
            arrow: Some(Arrow::Path(path.clone())),
            ..Act::default()
        };
        let id = match (s.piece_at(to_rc(from)), before.tile(from)) {
            (Some(id), _) => id,
            (None, Tile::Dispenser) => {
                let id = s.pieces.iter().map(|p| p.id + 1).max().unwrap_or(0);
                act.added.push(Piece {
                    id,
                    kind: PieceKind::Block,
                    at: to_rc(from),
                });
                id
            }
            (None, _) => return Err(Error::Internal(format!("no block at {from} to push"))),
        };
        act.slides.push((id, path));
        if !matches!(step.end, End::Rest(_)) {
            act.removed.push(id);
        }
        for &f in &step.fires_out {
            act.ground.push((to_rc(f), Ground::Ice));
        }
        s = after(&s, &act);
        acts.push(act);
        before = board_after.clone();
    }
    Ok(Story { start, acts })
}

/// A BoxOff solution, replayed by the validator.
pub fn boxoff_story(
    b: &boxoff::Board,
    moves: &[boxoff::Move],
    title: &str,
) -> Result<Story, Error> {
    boxoff::replay(b, moves).map_err(|e| replay_error("BoxOff", e))?;
    let start = boxoff_scene(b, title);
    let mut s = start.clone();
    let mut acts = Vec::new();
    for m in moves {
        let [[r1, c1], [r2, c2]] = m.remove;
        let mut act = Act {
            arrow: Some(Arrow::Pair((r1, c1), (r2, c2))),
            ..Act::default()
        };
        for at in [(r1, c1), (r2, c2)] {
            let id = s
                .piece_at(at)
                .ok_or_else(|| Error::Internal(format!("no token at {at:?}")))?;
            act.removed.push(id);
        }
        s = after(&s, &act);
        acts.push(act);
    }
    Ok(Story { start, acts })
}

/// A Pretzel solution, replayed by the validator.
pub fn pretzel_story(
    d: &pretzel::Deal,
    moves: &[pretzel::Move],
    title: &str,
) -> Result<Story, Error> {
    pretzel::replay(d, moves).map_err(|e| replay_error("Pretzel", e))?;
    let start = pretzel_scene(d, title);
    let mut s = start.clone();
    let mut acts = Vec::new();
    for m in moves {
        let (Some([r1, c1]), Some([r2, c2])) = (m.from, m.to) else {
            return Err(Error::invalid(format!(
                "the Pretzel move {m} does not say where the card was and went"
            )));
        };
        let (from, to) = ((r1, c1 + 1), (r2, c2 + 1));
        let id = s
            .piece_at(from)
            .ok_or_else(|| Error::Internal(format!("no card at {from:?}")))?;
        let path = vec![from, to];
        let act = Act {
            slides: vec![(id, path.clone())],
            arrow: Some(Arrow::Path(path)),
            ..Act::default()
        };
        s = after(&s, &act);
        acts.push(act);
    }
    Ok(Story { start, acts })
}

/// A Fujisan solution, replayed by the validator.
pub fn fujisan_story(
    m: &fujisan::Mountain,
    moves: &[fujisan::Move],
    title: &str,
) -> Result<Story, Error> {
    fujisan::replay(m, moves).map_err(|e| replay_error("Fujisan", e))?;
    let start = fujisan_scene(m, title);
    let mut s = start.clone();
    let mut acts = Vec::new();
    let cell = |[r, c]: [i64; 2]| (r as usize, (c + 1) as usize);
    for mv in moves {
        let (from, to) = (cell(mv.from), cell(mv.to));
        let id = s
            .piece_at(from)
            .ok_or_else(|| Error::Internal(format!("no priest at {from:?}")))?;
        let path = vec![from, to];
        let act = Act {
            slides: vec![(id, path.clone())],
            arrow: Some(Arrow::Path(path)),
            ..Act::default()
        };
        s = after(&s, &act);
        acts.push(act);
    }
    Ok(Story { start, acts })
}

/// A solitaire solution as `floe solve` reports it.
pub fn challenge_story(c: &Challenge, moves: &[AnyMove], title: &str) -> Result<Story, Error> {
    let wrong = || Error::Internal("a move of another game".into());
    match c {
        Challenge::BoxOff(b) => {
            let ms: Vec<boxoff::Move> = moves
                .iter()
                .map(|m| match m {
                    AnyMove::BoxOff(x) => Ok(*x),
                    _ => Err(wrong()),
                })
                .collect::<Result<_, _>>()?;
            boxoff_story(b, &ms, title)
        }
        Challenge::Pretzel(d) => {
            let ms: Vec<pretzel::Move> = moves
                .iter()
                .map(|m| match m {
                    AnyMove::Pretzel(x) => Ok(x.clone()),
                    _ => Err(wrong()),
                })
                .collect::<Result<_, _>>()?;
            pretzel_story(d, &ms, title)
        }
        Challenge::Fujisan(mt) => {
            let ms: Vec<fujisan::Move> = moves
                .iter()
                .map(|m| match m {
                    AnyMove::Fujisan(x) => Ok(*x),
                    _ => Err(wrong()),
                })
                .collect::<Result<_, _>>()?;
            fujisan_story(mt, &ms, title)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------------

/// Options of a picture.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// Draw row and column numbers.
    pub coords: bool,
    /// Cell size in pixels; 0 chooses one from the board's size.
    pub cell: u32,
}

const GRID: &str = "#9fb3c2";
const ICE: &str = "#ffffff";
const FLOOR: &str = "#e6d8b8";
const WALL: &str = "#2e2e2e";
const TARGET: &str = "#c0392b";
const BLOCK: &str = "#2f7fd1";
const BLOCK_EDGE: &str = "#1b4f8a";
const GOLD: &str = "#e8b923";
const GOLD_EDGE: &str = "#9a7608";
const PLAYER: &str = "#e4572e";
const MAGICIAN: &str = "#7b3fa0";
const ARROW: &str = "#d62728";
const TABLE: &str = "#efe6d2";
const TEXT: &str = "#222222";
/// Token colours 1–9 (Okabe–Ito, then greys).
const TOKENS: [&str; 9] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000",
    "#999999",
];
/// Suit colours (spades black, hearts red, diamonds orange, clubs green, then more).
const SUITS: [&str; 8] = [
    "#222222", "#c0392b", "#d35400", "#1e8449", "#7d3c98", "#1f618d", "#7e5109", "#b7950b",
];

/// The cell size for a board (pixels): large for small boards, at least 10.
pub fn auto_cell(rows: usize, cols: usize) -> f64 {
    let m = rows.max(cols).max(1) as f64;
    (560.0 / m).floor().clamp(10.0, 48.0)
}

fn frame_cell(rows: usize, cols: usize) -> f64 {
    (360.0 / cols.max(1) as f64)
        .min(168.0 / rows.max(1) as f64)
        .floor()
        .clamp(6.0, 24.0)
}

/// Geometry of one board on the page.
#[derive(Clone, Copy, Debug)]
struct Geo {
    x: f64,
    y: f64,
    s: f64,
}

impl Geo {
    fn cell(&self, (r, c): (usize, usize)) -> (f64, f64) {
        (self.x + c as f64 * self.s, self.y + r as f64 * self.s)
    }
    fn centre(&self, at: (usize, usize)) -> (f64, f64) {
        let (x, y) = self.cell(at);
        (x + self.s / 2.0, y + self.s / 2.0)
    }
}

fn margin(style: &Style, s: f64) -> f64 {
    if style.coords {
        (s * 0.8).max(16.0).round()
    } else {
        0.0
    }
}

fn coords_font(s: f64) -> f64 {
    (s * 0.38).clamp(8.0, 13.0)
}

fn draw_coords(doc: &mut Doc, sc: &Scene, g: &Geo) {
    let f = coords_font(g.s);
    for c in 0..sc.cols {
        let (x, _) = g.centre((0, c));
        let label = sc.col_labels.get(c).map_or(String::new(), |l| l.clone());
        doc.text(
            "coord",
            x,
            g.y - f * 0.6,
            f,
            &label,
            &format!(" fill=\"{TEXT}\""),
        );
    }
    for r in 0..sc.rows {
        let (_, y) = g.centre((r, 0));
        doc.text(
            "coord",
            g.x - f * 0.9,
            y + f * 0.35,
            f,
            &r.to_string(),
            &format!(" fill=\"{TEXT}\""),
        );
    }
}

fn ground_fill(gr: Ground) -> &'static str {
    match gr {
        Ground::Blank => "none",
        Ground::Ice | Ground::Target | Ground::Fire | Ground::Arrow(_) => ICE,
        Ground::Floor => FLOOR,
        Ground::Wall => WALL,
        Ground::Recycler => "#d3ecd9",
        Ground::Dispenser => "#5d6d7e",
        Ground::Table | Ground::Hole => TABLE,
        Ground::Space { summit: true, .. } => "#f4f8fb",
        Ground::Space { .. } => "#ddd3bf",
        Ground::Start => "#cfe3b4",
    }
}

/// Draws one cell's ground at `(x, y)`; `attrs` go on every element (for animation).
fn draw_ground(doc: &mut Doc, gr: Ground, x: f64, y: f64, s: f64, attrs: &str) {
    if gr == Ground::Blank {
        return;
    }
    let sw = fmt_coord((s / 40.0).max(0.5));
    doc.rect(
        "cell",
        x,
        y,
        s,
        s,
        &format!(
            " fill=\"{}\" stroke=\"{GRID}\" stroke-width=\"{sw}\"{attrs}",
            ground_fill(gr)
        ),
    );
    let c = (x + s / 2.0, y + s / 2.0);
    match gr {
        Ground::Target => target_cross(doc, x, y, s, "target", 0.08),
        Ground::Fire => {
            // a flame: a drop shape, orange with a yellow heart
            let d = flame(c.0, c.1, s * 0.36);
            doc.path("fire", &d, &format!(" fill=\"#f26b1d\"{attrs}"));
            let d = flame(c.0, c.1 + s * 0.08, s * 0.18);
            doc.path("fire-heart", &d, &format!(" fill=\"#ffd23f\"{attrs}"));
        }
        Ground::Recycler => {
            doc.circle(
                "recycler",
                c.0,
                c.1,
                s * 0.3,
                &format!(
                    " fill=\"none\" stroke=\"#2e8b57\" stroke-width=\"{}\" stroke-dasharray=\"{} {}\"{attrs}",
                    fmt_coord(s * 0.09),
                    fmt_coord(s * 0.4),
                    fmt_coord(s * 0.14)
                ),
            );
        }
        Ground::Arrow(d) => {
            let pts = triangle(c, s * 0.3, d);
            doc.path(
                "arrow-tile",
                &format!("{} Z", polyline(&pts)),
                &format!(" fill=\"#95a5a6\"{attrs}"),
            );
        }
        Ground::Dispenser => {
            let k = s * 0.25;
            let d = format!(
                "M{},{} L{},{} M{},{} L{},{}",
                fmt_coord(c.0 - k),
                fmt_coord(c.1),
                fmt_coord(c.0 + k),
                fmt_coord(c.1),
                fmt_coord(c.0),
                fmt_coord(c.1 - k),
                fmt_coord(c.0),
                fmt_coord(c.1 + k)
            );
            doc.path(
                "dispenser",
                &d,
                &format!(
                    " stroke=\"#ffffff\" stroke-width=\"{}\" fill=\"none\"{attrs}",
                    fmt_coord(s * 0.1)
                ),
            );
        }
        Ground::Hole => {
            let k = s * 0.08;
            doc.rect(
                "hole",
                x + k,
                y + k,
                s - 2.0 * k,
                s - 2.0 * k,
                &format!(
                    " rx=\"{}\" fill=\"none\" stroke=\"#b3a684\" stroke-dasharray=\"{} {}\"{attrs}",
                    fmt_coord(s * 0.08),
                    fmt_coord(s * 0.08),
                    fmt_coord(s * 0.06)
                ),
            );
        }
        Ground::Space { value, .. } => {
            doc.text(
                "value",
                c.0,
                y + s * 0.32,
                s * 0.3,
                &value.to_string(),
                &format!(" fill=\"{TEXT}\"{attrs}"),
            );
        }
        _ => {}
    }
}

fn flame(cx: f64, cy: f64, r: f64) -> String {
    // a circle below, a point above
    format!(
        "M{},{} Q{},{} {},{} A{},{} 0 1 1 {},{} Q{},{} {},{} Z",
        fmt_coord(cx),
        fmt_coord(cy - r * 1.1),
        fmt_coord(cx + r * 0.2),
        fmt_coord(cy - r * 0.5),
        fmt_coord(cx + r * 0.7),
        fmt_coord(cy + r * 0.1),
        fmt_coord(r * 0.72),
        fmt_coord(r * 0.72),
        fmt_coord(cx - r * 0.7),
        fmt_coord(cy + r * 0.1),
        fmt_coord(cx - r * 0.2),
        fmt_coord(cy - r * 0.5),
        fmt_coord(cx),
        fmt_coord(cy - r * 1.1)
    )
}

fn triangle(c: (f64, f64), r: f64, d: Dir) -> Vec<(f64, f64)> {
    let (dr, dc) = d.delta();
    let (ux, uy) = (dc as f64, dr as f64);
    let (px, py) = (-uy, ux);
    vec![
        (c.0 + ux * r, c.1 + uy * r),
        (
            c.0 - ux * r * 0.6 + px * r * 0.8,
            c.1 - uy * r * 0.6 + py * r * 0.8,
        ),
        (
            c.0 - ux * r * 0.6 - px * r * 0.8,
            c.1 - uy * r * 0.6 - py * r * 0.8,
        ),
    ]
}

/// Draws a piece with its top-left corner at the origin of the current coordinate system.
fn piece_shapes(doc: &mut Doc, kind: PieceKind, s: f64) {
    let k = (s * 0.07).max(1.0);
    let sw = fmt_coord((s / 20.0).max(0.75));
    match kind {
        PieceKind::Block | PieceKind::Golden => {
            let (fill, edge) = if kind == PieceKind::Block {
                (BLOCK, BLOCK_EDGE)
            } else {
                (GOLD, GOLD_EDGE)
            };
            doc.rect(
                "block",
                k,
                k,
                s - 2.0 * k,
                s - 2.0 * k,
                &format!(
                    " rx=\"{}\" fill=\"{fill}\" stroke=\"{edge}\" stroke-width=\"{sw}\"",
                    fmt_coord(s * 0.12)
                ),
            );
            // a highlight, as on the theses' figures of ice
            doc.path(
                "shine",
                &format!(
                    "M{},{} L{},{}",
                    fmt_coord(s * 0.25),
                    fmt_coord(s * 0.25),
                    fmt_coord(s * 0.5),
                    fmt_coord(s * 0.25)
                ),
                &format!(
                    " stroke=\"#ffffff\" stroke-opacity=\"0.6\" stroke-width=\"{}\" stroke-linecap=\"round\"",
                    fmt_coord(s * 0.07)
                ),
            );
        }
        PieceKind::Player | PieceKind::Magician => {
            let fill = if kind == PieceKind::Player {
                PLAYER
            } else {
                MAGICIAN
            };
            doc.circle(
                "player",
                s / 2.0,
                s / 2.0,
                s * 0.3,
                &format!(" fill=\"{fill}\" stroke=\"#ffffff\" stroke-width=\"{sw}\""),
            );
        }
        PieceKind::Token(c) => {
            let fill = TOKENS[(c.max(1) as usize - 1) % TOKENS.len()];
            doc.circle(
                "token",
                s / 2.0,
                s / 2.0,
                s * 0.38,
                &format!(" fill=\"{fill}\" stroke=\"#444444\" stroke-width=\"{sw}\""),
            );
            let ink = if matches!(c, 5..=7) {
                "#000000"
            } else {
                "#ffffff"
            };
            doc.text(
                "label",
                s / 2.0,
                s * 0.64,
                s * 0.4,
                &c.to_string(),
                &format!(" fill=\"{ink}\" font-weight=\"bold\""),
            );
        }
        PieceKind::Card { suit, rank } => {
            doc.rect(
                "card",
                k,
                k,
                s - 2.0 * k,
                s - 2.0 * k,
                &format!(
                    " rx=\"{}\" fill=\"{}\" stroke=\"#555555\" stroke-width=\"{sw}\"",
                    fmt_coord(s * 0.08),
                    if rank == 1 { "#f2f2f2" } else { "#ffffff" }
                ),
            );
            let card = pretzel::Card { suit, rank };
            doc.text(
                "label",
                s / 2.0,
                s * 0.62,
                s * 0.36,
                &card.to_string(),
                &format!(
                    " fill=\"{}\" font-weight=\"bold\"",
                    SUITS[suit as usize % SUITS.len()]
                ),
            );
        }
        PieceKind::Priest => {
            doc.circle(
                "priest",
                s / 2.0,
                s * 0.7,
                s * 0.2,
                &format!(" fill=\"#333333\" stroke=\"#ffffff\" stroke-width=\"{sw}\""),
            );
        }
    }
}

fn piece_class(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Block => "piece block-ice",
        PieceKind::Golden => "piece block-golden",
        PieceKind::Player => "piece player",
        PieceKind::Magician => "piece magician",
        PieceKind::Token(_) => "piece token",
        PieceKind::Card { .. } => "piece card",
        PieceKind::Priest => "piece priest",
    }
}

fn draw_pieces(doc: &mut Doc, sc: &Scene, g: &Geo) {
    for p in &sc.pieces {
        let (x, y) = g.cell(p.at);
        doc.open_group(
            piece_class(p.kind),
            &format!(
                " transform=\"translate({},{})\"",
                fmt_coord(x),
                fmt_coord(y)
            ),
        );
        piece_shapes(doc, p.kind, g.s);
        doc.close_group();
    }
}

fn draw_board(doc: &mut Doc, sc: &Scene, g: &Geo) {
    draw_grounds(doc, sc, g);
    draw_pieces(doc, sc, g);
    draw_targets_over(doc, sc, g);
}

fn draw_grounds(doc: &mut Doc, sc: &Scene, g: &Geo) {
    doc.open_group("board", "");
    for r in 0..sc.rows {
        for c in 0..sc.cols {
            let (x, y) = g.cell((r, c));
            draw_ground(doc, sc.ground[r * sc.cols + c], x, y, g.s, "");
        }
    }
    doc.close_group();
}

/// Targets stay visible under the blocks standing on them: their cross is drawn again on top.
fn draw_targets_over(doc: &mut Doc, sc: &Scene, g: &Geo) {
    for r in 0..sc.rows {
        for c in 0..sc.cols {
            if sc.ground[r * sc.cols + c] == Ground::Target {
                let (x, y) = g.cell((r, c));
                target_cross(doc, x, y, g.s, "target-over", 0.05);
            }
        }
    }
}

fn target_cross(doc: &mut Doc, x: f64, y: f64, s: f64, class: &str, width: f64) {
    let k = s * 0.25;
    let d = format!(
        "M{},{} L{},{} M{},{} L{},{}",
        fmt_coord(x + k),
        fmt_coord(y + k),
        fmt_coord(x + s - k),
        fmt_coord(y + s - k),
        fmt_coord(x + k),
        fmt_coord(y + s - k),
        fmt_coord(x + s - k),
        fmt_coord(y + k)
    );
    doc.path(
        class,
        &d,
        &format!(
            " stroke=\"{TARGET}\" stroke-width=\"{}\" stroke-linecap=\"round\" fill=\"none\"",
            fmt_coord(s * width)
        ),
    );
}

/// Which way an arrow's line is shifted so that a push and its reverse do not overlap.
fn offset_of(path: &[(usize, usize)], s: f64) -> (f64, f64) {
    if path.len() < 2 {
        return (0.0, 0.0);
    }
    let dr = path[1].0 as f64 - path[0].0 as f64;
    let dc = path[1].1 as f64 - path[0].1 as f64;
    let len = (dr * dr + dc * dc).sqrt().max(1.0);
    // to the right of the direction of travel
    (-dr / len * s * 0.12, dc / len * s * 0.12)
}

fn draw_arrow(doc: &mut Doc, arrow: &Arrow, g: &Geo) {
    let w = (g.s * 0.08).max(1.2);
    match arrow {
        Arrow::Path(path) => {
            let (ox, oy) = offset_of(path, g.s);
            let mut pts: Vec<(f64, f64)> = path
                .iter()
                .map(|&at| {
                    let (x, y) = g.centre(at);
                    (x + ox, y + oy)
                })
                .collect();
            pts.dedup();
            doc.open_group("arrow", "");
            if pts.len() >= 2 {
                // stop the line short of the tip, then draw the head
                let n = pts.len();
                let (a, b) = (pts[n - 2], pts[n - 1]);
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                let (ux, uy) = (dx / len, dy / len);
                let head = (w * 3.2).min(len * 0.9);
                let mut line = pts.clone();
                line[n - 1] = (b.0 - ux * head * 0.8, b.1 - uy * head * 0.8);
                doc.path(
                    "arrow-line",
                    &polyline(&line),
                    &format!(
                        " fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"{}\" stroke-linejoin=\"round\" stroke-linecap=\"round\"",
                        fmt_coord(w)
                    ),
                );
                let (px, py) = (-uy, ux);
                let tri = [
                    b,
                    (
                        b.0 - ux * head + px * head * 0.55,
                        b.1 - uy * head + py * head * 0.55,
                    ),
                    (
                        b.0 - ux * head - px * head * 0.55,
                        b.1 - uy * head - py * head * 0.55,
                    ),
                ];
                doc.path(
                    "arrow-head",
                    &format!("{} Z", polyline(&tri)),
                    &format!(" fill=\"{ARROW}\""),
                );
            }
            doc.close_group();
        }
        Arrow::Pair(a, b) => {
            // a red ring round each token taken away, joined by a line
            let (pa, pb) = (g.centre(*a), g.centre(*b));
            let r = g.s * 0.44;
            doc.open_group("arrow", "");
            let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
            let len = (dx * dx + dy * dy).sqrt();
            if len > 2.0 * r {
                let (ux, uy) = (dx / len, dy / len);
                doc.path(
                    "arrow-line",
                    &polyline(&[
                        (pa.0 + ux * r, pa.1 + uy * r),
                        (pb.0 - ux * r, pb.1 - uy * r),
                    ]),
                    &format!(
                        " fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"{}\" stroke-linecap=\"round\"",
                        fmt_coord(w)
                    ),
                );
            }
            for p in [pa, pb] {
                doc.circle(
                    "arrow-end",
                    p.0,
                    p.1,
                    r,
                    &format!(
                        " fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"{}\"",
                        fmt_coord(w)
                    ),
                );
            }
            doc.close_group();
        }
    }
}

fn arrow_start(arrow: &Arrow, g: &Geo) -> (f64, f64) {
    match arrow {
        Arrow::Path(path) => {
            // at the back of the start cell, so the piece's own face stays readable
            let (ox, oy) = offset_of(path, g.s);
            let (x, y) = g.centre(path[0]);
            let (ux, uy) = match path.get(1) {
                Some(&(r, c)) => (
                    (c as f64 - path[0].1 as f64).signum(),
                    (r as f64 - path[0].0 as f64).signum(),
                ),
                None => (0.0, 0.0),
            };
            (x + ox - ux * g.s * 0.28, y + oy - uy * g.s * 0.28)
        }
        Arrow::Pair(a, b) => {
            let (pa, pb) = (g.centre(*a), g.centre(*b));
            ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0)
        }
    }
}

/// Numbers at the arrows' starts; moves starting at the same point share one label ("1,5").
fn draw_numbers(doc: &mut Doc, arrows: &[(usize, &Arrow)], g: &Geo) {
    // (rounded position, position, move numbers)
    type Label = ((i64, i64), (f64, f64), Vec<usize>);
    let mut labels: Vec<Label> = Vec::new();
    for &(n, a) in arrows {
        let p = arrow_start(a, g);
        let key = ((p.0 * 100.0).round() as i64, (p.1 * 100.0).round() as i64);
        match labels.iter_mut().find(|l| l.0 == key) {
            Some(l) => l.2.push(n),
            None => labels.push((key, p, vec![n])),
        }
    }
    let f = (g.s * 0.3).clamp(7.0, 12.0);
    for (_, p, ns) in labels {
        let text = ns
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let w = (text.chars().count() as f64 * f * 0.62 + f * 0.6).max(f * 1.3);
        doc.open_group("number", "");
        doc.rect(
            "number-box",
            p.0 - w / 2.0,
            p.1 - f * 0.7,
            w,
            f * 1.4,
            &format!(
                " rx=\"{}\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"{ARROW}\" stroke-width=\"1\"",
                fmt_coord(f * 0.7)
            ),
        );
        doc.text(
            "number-text",
            p.0,
            p.1 + f * 0.36,
            f,
            &text,
            &format!(" fill=\"{TEXT}\" font-weight=\"bold\""),
        );
        doc.close_group();
    }
}

fn cell_size(sc: &Scene, style: &Style) -> f64 {
    if style.cell > 0 {
        f64::from(style.cell.clamp(4, 200))
    } else {
        auto_cell(sc.rows, sc.cols)
    }
}

/// A document sized for the board of `sc`, with coordinates if asked, and its geometry.
fn framed_doc(sc: &Scene, style: &Style) -> (Doc, Geo) {
    let s = cell_size(sc, style);
    let m = margin(style, s);
    let pad = 4.0;
    let g = Geo {
        x: pad + m,
        y: pad + m,
        s,
    };
    let mut doc = Doc::new(
        2.0 * pad + m + sc.cols as f64 * s,
        2.0 * pad + m + sc.rows as f64 * s,
        &sc.title,
    );
    if style.coords {
        draw_coords(&mut doc, sc, &g);
    }
    (doc, g)
}

/// A document holding the board of `sc` (with coordinates if asked), and its geometry.
fn board_doc(sc: &Scene, style: &Style) -> (Doc, Geo) {
    let (mut doc, g) = framed_doc(sc, style);
    draw_board(&mut doc, sc, &g);
    (doc, g)
}

/// A picture of a board.
pub fn board_svg(sc: &Scene, style: &Style) -> String {
    board_doc(sc, style).0.finish()
}

/// The start with every move as a numbered arrow.
pub fn arrows_svg(story: &Story, style: &Style) -> String {
    let (mut doc, g) = board_doc(&story.start, style);
    let arrows: Vec<(usize, &Arrow)> = story
        .acts
        .iter()
        .enumerate()
        .filter_map(|(i, a)| a.arrow.as_ref().map(|x| (i + 1, x)))
        .collect();
    doc.open_group("moves", "");
    for &(_, a) in &arrows {
        draw_arrow(&mut doc, a, &g);
    }
    draw_numbers(&mut doc, &arrows, &g);
    doc.close_group();
    doc.finish()
}

/// One small board per move (the board before it, with its arrow) and the final board.
pub fn frames_svg(story: &Story, style: &Style) -> String {
    let scenes = story.scenes();
    let sc = &story.start;
    let s = if style.cell > 0 {
        f64::from(style.cell.clamp(4, 200))
    } else {
        frame_cell(sc.rows, sc.cols)
    };
    let (bw, bh) = (sc.cols as f64 * s, sc.rows as f64 * s);
    let caption = 16.0;
    let gap = 12.0;
    let pad = 6.0;
    let per_row = ((1200.0 / (bw + gap)).floor() as usize)
        .clamp(1, 8)
        .min(scenes.len());
    let lines = scenes.len().div_ceil(per_row);
    let mut doc = Doc::new(
        2.0 * pad + per_row as f64 * (bw + gap) - gap,
        2.0 * pad + lines as f64 * (bh + caption + gap) - gap,
        &sc.title,
    );
    for (i, scene) in scenes.iter().enumerate() {
        let (col, line) = (i % per_row, i / per_row);
        let x = pad + col as f64 * (bw + gap);
        let y = pad + line as f64 * (bh + caption + gap);
        let g = Geo {
            x,
            y: y + caption,
            s,
        };
        doc.open_group("frame", "");
        let label = if i < story.acts.len() {
            format!("move {}", i + 1)
        } else {
            "end".to_string()
        };
        doc.text(
            "frame-caption",
            x + bw / 2.0,
            y + caption - 4.0,
            11.0,
            &label,
            &format!(" fill=\"{TEXT}\""),
        );
        draw_board(&mut doc, scene, &g);
        if let Some(a) = story.acts.get(i).and_then(|a| a.arrow.as_ref()) {
            draw_arrow(&mut doc, a, &g);
        }
        doc.close_group();
    }
    doc.finish()
}

/// Seconds the animation holds the start, per move, and at the end.
const HOLD_START: f64 = 1.0;
const PER_MOVE: f64 = 1.0;
const HOLD_END: f64 = 2.0;
/// When in its slot a move starts (the pusher has stepped behind the block).
const MOVE_AT: f64 = 0.25;

fn slide_time(cells: usize) -> f64 {
    (0.08 * cells as f64).clamp(0.25, 0.7)
}

/// A key time (fraction of the loop) precise to a hundredth of a second: four decimals for
/// loops up to 100 s, more for long solutions.
fn key(t: f64, total: f64) -> String {
    let digits = ((total.max(1.0) * 100.0).log10().ceil() as usize).clamp(4, 9);
    let unit = 10_i64.pow(digits as u32);
    let v = ((t / total).clamp(0.0, 1.0) * unit as f64).round() as i64;
    let s = format!("{}.{:0digits$}", v / unit, v % unit);
    let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    if s.is_empty() {
        "0".into()
    } else {
        s
    }
}

/// The solution played by SMIL animation in a loop.
pub fn animated_svg(story: &Story, style: &Style) -> String {
    let sc = &story.start;
    let n = story.acts.len();
    let total = HOLD_START + n as f64 * PER_MOVE + HOLD_END;
    let dur = format!("{}s", fmt_coord(total));
    let (mut doc, g) = framed_doc(sc, style);
    let s = g.s;
    draw_grounds(&mut doc, sc, &g);
    // cells that change: the new ground drawn on top, shown from the moment it changes
    doc.open_group("changes", "");
    for (i, act) in story.acts.iter().enumerate() {
        let t = HOLD_START + i as f64 * PER_MOVE + MOVE_AT;
        for &(at, gr) in &act.ground {
            let (x, y) = g.cell(at);
            // when the sliding block reaches the cell
            let when = act
                .slides
                .iter()
                .find_map(|(_, path)| {
                    path.iter().position(|&c| c == at).map(|j| {
                        let steps = path.len().saturating_sub(1).max(1) as f64;
                        t + slide_time(path.len().saturating_sub(1)) * j as f64 / steps
                    })
                })
                .unwrap_or(t + slide_time(1));
            doc.open_group("change", " opacity=\"0\"");
            draw_ground(&mut doc, gr, x, y, s, "");
            doc.raw(&format!(
                "<animate attributeName=\"opacity\" values=\"0;1;0\" keyTimes=\"0;{};1\" calcMode=\"discrete\" dur=\"{dur}\" repeatCount=\"indefinite\"/>\n",
                key(when, total)
            ));
            doc.close_group();
        }
    }
    doc.close_group();
    // every piece that ever exists, with its keyframes
    let mut all: Vec<Piece> = sc.pieces.clone();
    for act in &story.acts {
        all.extend(act.added.iter().copied());
    }
    for p in &all {
        // (time, cell-position in pixels) keyframes and visibility changes
        let born = story
            .acts
            .iter()
            .position(|a| a.added.iter().any(|q| q.id == p.id));
        let mut frames: Vec<(f64, (f64, f64))> = Vec::new();
        let mut pos = g.cell(p.at);
        frames.push((0.0, pos));
        let mut shown_at: Option<f64> = born.map(|_| 0.0);
        let mut gone_at: Option<f64> = None;
        for (i, act) in story.acts.iter().enumerate() {
            let t0 = HOLD_START + i as f64 * PER_MOVE;
            if let Some((id, at)) = act.pusher {
                if id == p.id {
                    let to = g.cell(at);
                    if to != pos {
                        frames.push((t0, pos));
                        frames.push((t0 + MOVE_AT * 0.6, to));
                        pos = to;
                    }
                }
            }
            if born == Some(i) {
                shown_at = Some(t0 + MOVE_AT);
            }
            if let Some((_, path)) = act.slides.iter().find(|(id, _)| *id == p.id) {
                let t = t0 + MOVE_AT;
                let d = slide_time(path.len().saturating_sub(1));
                // waypoints: the corners of the path, at times proportional to distance
                let steps = path.len().saturating_sub(1).max(1) as f64;
                frames.push((t, pos));
                for (j, &c) in path.iter().enumerate().skip(1) {
                    let corner = j + 1 == path.len() || {
                        let (a, b, e) = (path[j - 1], c, path[j + 1]);
                        (b.0 as isize - a.0 as isize, b.1 as isize - a.1 as isize)
                            != (e.0 as isize - b.0 as isize, e.1 as isize - b.1 as isize)
                    };
                    if corner {
                        frames.push((t + d * j as f64 / steps, g.cell(c)));
                    }
                }
                pos = g.cell(*path.last().expect("a slide has a cell"));
                if act.removed.contains(&p.id) {
                    gone_at = Some(t + d);
                }
            } else if act.removed.contains(&p.id) {
                gone_at = Some(t0 + MOVE_AT + slide_time(1));
            }
            if gone_at.is_some() {
                break;
            }
        }
        let (x, y) = frames[0].1;
        let start_opacity = if born.is_some() { " opacity=\"0\"" } else { "" };
        doc.open_group(
            piece_class(p.kind),
            &format!(
                " transform=\"translate({},{})\"{start_opacity}",
                fmt_coord(x),
                fmt_coord(y)
            ),
        );
        piece_shapes(&mut doc, p.kind, s);
        if frames.len() > 1 {
            frames.push((total, frames.last().expect("non-empty").1));
            let values: Vec<String> = frames
                .iter()
                .map(|(_, (x, y))| format!("{},{}", fmt_coord(*x), fmt_coord(*y)))
                .collect();
            let times: Vec<String> = frames.iter().map(|(t, _)| key(*t, total)).collect();
            doc.raw(&format!(
                "<animateTransform attributeName=\"transform\" type=\"translate\" values=\"{}\" keyTimes=\"{}\" dur=\"{dur}\" repeatCount=\"indefinite\"/>\n",
                values.join(";"),
                times.join(";")
            ));
        }
        if shown_at.is_some() || gone_at.is_some() {
            let on = shown_at.map_or(0.0, |t| t);
            let (values, times) = match gone_at {
                Some(off) if on > 0.0 => (
                    "0;1;0".to_string(),
                    format!("0;{};{}", key(on, total), key(off, total)),
                ),
                Some(off) => ("1;0".to_string(), format!("0;{}", key(off, total))),
                None => ("0;1".to_string(), format!("0;{}", key(on, total))),
            };
            doc.raw(&format!(
                "<animate attributeName=\"opacity\" values=\"{values}\" keyTimes=\"{times}\" calcMode=\"discrete\" dur=\"{dur}\" repeatCount=\"indefinite\"/>\n"
            ));
        }
        doc.close_group();
    }
    draw_targets_over(&mut doc, sc, &g);
    doc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(svg: &str, tag: &str, class: &str) -> usize {
        let doc = roxmltree::Document::parse(svg).expect("well-formed");
        doc.descendants()
            .filter(|n| n.has_tag_name(tag))
            .filter(|n| class.is_empty() || n.attribute("class") == Some(class))
            .count()
    }

    fn level(text: &str) -> Level {
        ice::parse(text, "t", None).unwrap().remove(0)
    }

    #[test]
    fn straight_paths() {
        assert_eq!(
            straight((0, 0), (0, 3)),
            vec![(0, 0), (0, 1), (0, 2), (0, 3)]
        );
        assert_eq!(straight((3, 1), (1, 1)), vec![(3, 1), (2, 1), (1, 1)]);
        assert_eq!(straight((1, 1), (1, 1)), vec![(1, 1)]);
    }

    #[test]
    fn key_times() {
        assert_eq!(key(0.0, 4.0), "0");
        assert_eq!(key(1.0, 4.0), "0.25");
        assert_eq!(key(4.0, 4.0), "1");
        assert_eq!(key(1.0, 3.0), "0.3333");
        // a long loop keeps a hundredth of a second apart
        assert_eq!(key(1.0, 1621.0), "0.000617");
        assert_ne!(key(100.25, 1621.0), key(100.5, 1621.0));
    }

    #[test]
    fn an_ice_solution_in_three_pictures() {
        let l = level("#####\n=$-.#\n#####\n");
        let moves = [Push::new(Pos::new(1, 1), Dir::Right)];
        let story = ice_story(&l, WalkRule::Free, &moves, "t").unwrap();
        assert_eq!(story.acts.len(), 1);
        assert_eq!(story.scenes().len(), 2);
        let st = Style::default();
        let a = arrows_svg(&story, &st);
        assert_eq!(count(&a, "g", "arrow"), 1);
        assert_eq!(count(&a, "g", "piece block-ice"), 1);
        let f = frames_svg(&story, &st);
        assert_eq!(count(&f, "g", "frame"), 2);
        let m = animated_svg(&story, &st);
        assert_eq!(count(&m, "animateTransform", ""), 1);
    }

    #[test]
    fn a_dispenser_block_appears_and_puts_out_the_fire_when_it_gets_there() {
        let t = icetower::parse("#######\n#@+  *#\n#######\n", "t", "t").unwrap();
        let story = tower_story(&t, &[Push::new(Pos::new(1, 2), Dir::Right)]).unwrap();
        let act = &story.acts[0];
        assert_eq!(act.added.len(), 1);
        assert_eq!(act.removed, vec![act.added[0].id]);
        assert_eq!(act.ground, vec![((1, 5), Ground::Ice)]);
        assert_eq!(act.slides[0].1, vec![(1, 2), (1, 3), (1, 4), (1, 5)]);
        let scenes = story.scenes();
        assert_eq!(scenes[1].blocks(), 0);
        assert_eq!(
            scenes[1].ground[cell_index(&scenes[1], (1, 5))],
            Ground::Ice
        );
        // 1 s held, the slide starts 0.25 s into the move and takes 0.25 s for 3 cells: the
        // fire goes out at 1.5 s of a 4 s loop
        let svg = animated_svg(&story, &Style::default());
        assert!(svg.contains("keyTimes=\"0;0.375;1\""), "{svg}");
        assert_eq!(count(&svg, "g", "change"), 1);
    }

    fn cell_index(s: &Scene, (r, c): (usize, usize)) -> usize {
        r * s.cols + c
    }
}
