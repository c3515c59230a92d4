//! The one cell model: what render draws, play shows and the web page animates.
//!
//! A game turns a position into a [`Scene`]: a grid of [`Ground`] cells and a list of
//! [`Piece`]s (blocks, the player, tokens, cards, priests), each with a stable id. A move is a
//! [`Change`] in cells (which piece slides along which cells, what vanishes or appears, which
//! cells change, where the player stands to act); [`Story::build`] turns a start scene and the
//! changes of a solution into a [`Story`] of [`Act`]s with piece ids, which
//! [`render`](crate::render) draws as arrows, frames or an animation. Nothing here knows any
//! game.

use crate::error::Error;
use crate::grid::{Dir, Pos};

/// What a cell is, apart from the pieces on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// Suit letters of playing cards: spades, hearts, diamonds, clubs, then four more suits.
pub const SUIT_LETTERS: [char; 8] = ['S', 'H', 'D', 'C', 'R', 'B', 'G', 'Y'];

/// A card's name: its rank (`A`, `2`–`9`, `T`, `J`, `Q`, `K`) and its suit letter.
pub fn card_label(suit: u8, rank: u8) -> String {
    let r = match rank {
        1 => "A".to_string(),
        10 => "T".to_string(),
        11 => "J".to_string(),
        12 => "Q".to_string(),
        13 => "K".to_string(),
        x => x.to_string(),
    };
    format!("{r}{}", SUIT_LETTERS[suit as usize % SUIT_LETTERS.len()])
}

/// The names of the observation planes a cell lights in a learning environment (the
/// planes a game lists in its [`Learning`](crate::game::Learning)): one for its ground
/// (none for a blank cell; a Fujisan space lights `space`, `value v` and, on the summit,
/// `summit`) and those of its piece (a card lights its suit and its rank, `suit H` and
/// `rank 7`).
pub fn plane_names(ground: Ground, piece: Option<PieceKind>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(3);
    match ground {
        Ground::Blank => {}
        Ground::Ice => out.push("ice".into()),
        Ground::Floor => out.push("floor".into()),
        Ground::Wall => out.push("wall".into()),
        Ground::Target => out.push("target".into()),
        Ground::Fire => out.push("fire".into()),
        Ground::Recycler => out.push("recycler".into()),
        Ground::Arrow(d) => out.push(format!("arrow {}", d.name())),
        Ground::Dispenser => out.push("dispenser".into()),
        Ground::Table => out.push("table".into()),
        Ground::Hole => out.push("hole".into()),
        Ground::Space { value, summit } => {
            out.push("space".into());
            out.push(format!("value {value}"));
            if summit {
                out.push("summit".into());
            }
        }
        Ground::Start => out.push("start".into()),
    }
    match piece {
        None => {}
        Some(PieceKind::Block) => out.push("block".into()),
        Some(PieceKind::Golden) => out.push("golden".into()),
        Some(PieceKind::Player) => out.push("player".into()),
        Some(PieceKind::Magician) => out.push("magician".into()),
        Some(PieceKind::Priest) => out.push("priest".into()),
        Some(PieceKind::Token(c)) => out.push(format!("token {c}")),
        Some(PieceKind::Card { suit, rank }) => {
            let label = card_label(suit, rank);
            let (r, s) = label.split_at(label.len() - 1);
            out.push(format!("suit {s}"));
            out.push(format!("rank {r}"));
        }
    }
    out
}

/// Most planes one cell lights ([`plane_names`]): a Fujisan space (space, value, summit)
/// with a priest on it.
pub const MOST_LIT: usize = 4;

/// No plane: an empty slot of a cell's lit planes.
pub const NO_PLANE: u8 = u8::MAX;

/// The planes a cell lights by their numbers in a game's list, [`NO_PLANE`] after the last.
pub type Lit = [u8; MOST_LIT];

/// What a cell holds: its ground and its piece.
type Cell = (Ground, Option<PieceKind>);

/// A game's observation planes ([`Learning::planes`](crate::game::Learning)) by name, and
/// what a cell lights among them, learnt once per kind of cell.
pub struct Planes {
    names: &'static [&'static str],
    known: std::sync::RwLock<Vec<(Cell, Lit)>>,
}

impl Planes {
    /// The planes of a game's list.
    pub fn new(names: &'static [&'static str]) -> Planes {
        Planes {
            names,
            known: Default::default(),
        }
    }
    /// The planes' names.
    pub fn names(&self) -> &'static [&'static str] {
        self.names
    }
    /// The planes a cell of `ground` holding `piece` lights; a plane the list lacks is a bug
    /// of the game's list.
    pub fn lit(&self, ground: Ground, piece: Option<PieceKind>) -> Result<Lit, Error> {
        let key = (ground, piece);
        if let Some((_, l)) = self
            .known
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(k, _)| *k == key)
        {
            return Ok(*l);
        }
        let mut lit = [NO_PLANE; MOST_LIT];
        let names = plane_names(ground, piece);
        if names.len() > MOST_LIT {
            return Err(Error::Internal(format!(
                "a cell lights {} planes ({}), more than {MOST_LIT}",
                names.len(),
                names.join(", ")
            )));
        }
        for (slot, name) in lit.iter_mut().zip(&names) {
            let p = self.names.iter().position(|p| p == name).ok_or_else(|| {
                Error::Internal(format!(
                    "the game's planes ({}) have no plane `{name}`",
                    self.names.join(", ")
                ))
            })?;
            *slot = p as u8;
        }
        self.known
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push((key, lit));
        Ok(lit)
    }
    /// Writes the planes of `scene` into `out` (`planes × rows × cols` bytes, 0 or 1).
    pub fn observe(&self, scene: &Scene, out: &mut [u8]) -> Result<(), Error> {
        let cells = scene.rows * scene.cols;
        if out.len() != self.names.len() * cells {
            return Err(Error::Internal(format!(
                "{} bytes for {} planes of {}×{}",
                out.len(),
                self.names.len(),
                scene.rows,
                scene.cols
            )));
        }
        out.fill(0);
        let mut piece: Vec<Option<PieceKind>> = vec![None; cells];
        for p in &scene.pieces {
            piece[p.at.0 * scene.cols + p.at.1] = Some(p.kind);
        }
        for (at, &pc) in piece.iter().enumerate() {
            for &p in self
                .lit(scene.ground[at], pc)?
                .iter()
                .take_while(|&&p| p != NO_PLANE)
            {
                out[p as usize * cells + at] = 1;
            }
        }
        Ok(())
    }
}

impl PieceKind {
    /// The player, robot or magician: the piece that acts rather than is moved.
    pub fn is_actor(self) -> bool {
        matches!(self, PieceKind::Player | PieceKind::Magician)
    }
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
    /// An empty scene: every cell [`Ground::Blank`], no piece, columns numbered from 0.
    pub fn new(rows: usize, cols: usize, title: &str) -> Scene {
        Scene {
            rows,
            cols,
            ground: vec![Ground::Blank; rows * cols],
            pieces: Vec::new(),
            col_labels: (0..cols).map(|c| c.to_string()).collect(),
            title: title.to_string(),
        }
    }

    /// Sets the ground of a cell.
    pub fn set(&mut self, (r, c): (usize, usize), g: Ground) {
        self.ground[r * self.cols + c] = g;
    }

    /// The ground of a cell.
    pub fn ground(&self, (r, c): (usize, usize)) -> Ground {
        self.ground[r * self.cols + c]
    }

    /// Adds a piece with the next free id and returns the id.
    pub fn add(&mut self, kind: PieceKind, at: (usize, usize)) -> u32 {
        let id = self.pieces.iter().map(|p| p.id + 1).max().unwrap_or(0);
        self.pieces.push(Piece { id, kind, at });
        id
    }

    /// The piece on a cell: a block, token, card or priest before the player or magician
    /// (who may share a cell with nothing else, but is found when he is alone there).
    pub fn piece_at(&self, at: (usize, usize)) -> Option<u32> {
        let here = |p: &&Piece| p.at == at;
        self.pieces
            .iter()
            .filter(here)
            .find(|p| !p.kind.is_actor())
            .or_else(|| self.pieces.iter().find(here))
            .map(|p| p.id)
    }

    /// The player, robot or magician, if the scene has one.
    pub fn actor(&self) -> Option<u32> {
        self.pieces.iter().find(|p| p.kind.is_actor()).map(|p| p.id)
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

/// A position as (row, column).
pub fn to_rc(p: Pos) -> (usize, usize) {
    (p.row, p.col)
}

/// The cells of a straight slide from `from` to `to`, both included (a diagonal or a jump is
/// just its two ends).
pub fn straight(from: (usize, usize), to: (usize, usize)) -> Vec<(usize, usize)> {
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

/// The cell a pusher stands on to push the piece at `p` in direction `d`.
pub fn behind(p: Pos, d: Dir, rows: usize, cols: usize) -> Option<(usize, usize)> {
    p.step(d.opposite(), rows, cols).map(to_rc)
}

/// What one move does to a scene, in cells (no piece ids): what a game says of a move, and
/// what [`Story::build`] turns into an [`Act`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// Pieces that move: each path starts at the cell of the piece (after `added`).
    pub slides: Vec<Vec<(usize, usize)>>,
    /// Cells whose piece (before the move, or added by it) is gone after it, at the end of
    /// its slide if it slides.
    pub removed: Vec<(usize, usize)>,
    /// Pieces that appear with the move, on these cells.
    pub added: Vec<(PieceKind, (usize, usize))>,
    /// Cells whose ground changes.
    pub ground: Vec<((usize, usize), Ground)>,
    /// Where the player (robot, magician) stands to make the move.
    pub actor: Option<(usize, usize)>,
    /// The arrow drawn for the move.
    pub arrow: Option<Arrow>,
}

impl Story {
    /// The story of `changes` played from `start`: piece ids are found by cell on the scene
    /// before each move. An error names a change that moves a piece the scene does not hold
    /// (a bug of the game's picture code, never of the rules).
    pub fn build(start: Scene, changes: impl IntoIterator<Item = Change>) -> Result<Story, Error> {
        let mut s = start.clone();
        let mut acts = Vec::new();
        for (i, ch) in changes.into_iter().enumerate() {
            let act = s
                .act(&ch)
                .map_err(|m| Error::Internal(format!("the picture of move {}: {m}", i + 1)))?;
            s = after(&s, &act);
            acts.push(act);
        }
        Ok(Story { start, acts })
    }
}

impl Scene {
    /// The act of `ch` on this scene: pieces named by id.
    pub fn act(&self, ch: &Change) -> Result<Act, String> {
        let mut scene = self.clone();
        let mut act = Act {
            ground: ch.ground.clone(),
            arrow: ch.arrow.clone(),
            ..Act::default()
        };
        for &(kind, at) in &ch.added {
            let id = scene.add(kind, at);
            act.added.push(Piece { id, kind, at });
        }
        for path in &ch.slides {
            let Some(&from) = path.first() else { continue };
            let id = scene
                .piece_at(from)
                .ok_or_else(|| format!("no piece at {from:?} to move"))?;
            act.slides.push((id, path.clone()));
        }
        for &at in &ch.removed {
            let id = scene
                .piece_at(at)
                .ok_or_else(|| format!("no piece at {at:?} to take away"))?;
            act.removed.push(id);
        }
        if let (Some(at), Some(id)) = (ch.actor, scene.actor()) {
            act.pusher = Some((id, at));
        }
        Ok(act)
    }

    /// The scene after `act`.
    pub fn after(&self, act: &Act) -> Scene {
        after(self, act)
    }
}
