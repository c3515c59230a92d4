//! BoxOff, Pretzel and Fujisan behind the game face.

use super::boxoff::{self, Board};
use super::fujisan::{self, Mountain, Priests};
use super::pretzel::{self, Deal};
use super::{Document, Kind};
use crate::error::Error;
use crate::game::{
    glyph, Algo, Capabilities, Cells, Game, Glyph, Info, Keys, Learning, Sample, Task,
};
use crate::scene::{Arrow, Change, Ground, PieceKind, Scene};
use crate::search::StartAt;

/// A challenge of one of the three puzzles with the title its file gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sheet<T> {
    /// The `Title:` header.
    pub title: Option<String>,
    /// The board, deal or mountain.
    pub puzzle: T,
}

impl<T> Sheet<T> {
    /// An untitled challenge.
    pub fn new(puzzle: T) -> Sheet<T> {
        Sheet {
            title: None,
            puzzle,
        }
    }
}

/// The challenge text of `kind`: `Game:` and `Title:` headers, then the rows.
fn sheet_text<T>(kind: Kind, levels: &[Sheet<T>], rows: impl Fn(&T) -> String) -> String {
    let mut out = String::new();
    for (i, l) in levels.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("Game: {kind}\n"));
        if let Some(t) = &l.title {
            out.push_str(&format!("Title: {t}\n"));
        }
        out.push_str(&rows(&l.puzzle));
    }
    out
}

/// What the three puzzles can do: no difficulty measure; played by picking a legal move;
/// a learning environment whose action names the cells a move takes from and to.
const fn caps(learning: &'static Learning) -> Capabilities {
    Capabilities {
        keys: Keys::PickMove,
        learning: Some(learning),
        ..Capabilities::PLAIN
    }
}

/// The number of a move from cell `a` to cell `b` of `n` cells (`a × n + b`), when both are
/// among them.
fn pair_action(a: usize, b: usize, n: usize) -> Option<usize> {
    (a < n && b < n).then(|| a * n + b)
}

/// Moves of a random game (`floe solve --algo random`) before it gives up: Fujisan positions
/// can repeat. (The experiments' random player gives up on a repeated position instead.)
const RANDOM_MOVES: u32 = 1000;

/// What each of the three puzzles says of itself in words: its name, title, line about it,
/// rules.
struct Words {
    name: &'static str,
    title: &'static str,
    about: &'static str,
    rules: &'static str,
}

/// What the three puzzles say about themselves, but for their words, sample and
/// algorithms: no parameters, one file format, moves that are not pushes, played by picking
/// a legal move.
const fn sheet_info(
    words: Words,
    sample: Sample,
    algorithms: &'static [Algo],
    glyphs: &'static [Glyph],
    learning: &'static Learning,
) -> Info {
    let Words {
        name,
        title,
        about,
        rules,
    } = words;
    Info {
        name,
        aliases: &[],
        title,
        about,
        rules,
        sample,
        params: &[],
        formats: &["floe"],
        move_word: "move",
        algorithms,
        random_moves: RANDOM_MOVES,
        capabilities: caps(learning),
        cells: Cells {
            glyphs,
            separator: " ",
        },
    }
}

/// A BoxOff token of colour `colour` on the table.
const fn token(text: &'static str, about: &'static str, colour: u8) -> Glyph {
    glyph(text, about, Ground::Table, Some(PieceKind::Token(colour)))
}

/// A Pretzel card of the grid (suit 0-based, rank 2 or more): in its place, a hole when the
/// card leaves it.
const fn card(text: &'static str, about: &'static str, suit: u8, rank: u8) -> Glyph {
    glyph(
        text,
        about,
        Ground::Hole,
        Some(PieceKind::Card { suit, rank }),
    )
}

/// A Pretzel ace: never dealt into the grid (a file refuses it there), it is drawn in the
/// aces' column left of the deal, on the table.
const fn ace(text: &'static str, about: &'static str, suit: u8) -> Glyph {
    glyph(
        text,
        about,
        Ground::Table,
        Some(PieceKind::Card { suit, rank: 1 }),
    )
}

/// A Fujisan space of `value`. The symbol does not say whether the space is on the summit
/// (the middle two columns, which depend on the mountain's width): the look is the one off
/// the summit, `summit: false`; the scene draws a summit column's space with `summit: true`.
const fn space(text: &'static str, about: &'static str, value: u8) -> Glyph {
    glyph(
        text,
        about,
        Ground::Space {
            value,
            summit: false,
        },
        None,
    )
}

/// BoxOff (spec `solitaire.md`): remove pairs of same-coloured tokens whose rectangle is
/// otherwise empty until the board is empty.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoxOff;

static BOXOFF: Info = sheet_info(
    Words {
        name: "boxoff",
        title: "BoxOff",
        about: "BoxOff: remove same-coloured pairs whose rectangle is empty until none is left",
        rules: "Goal: empty the board. Remove two tokens of the same colour when every other place of the \
               smallest rectangle holding both is empty (so two neighbouring tokens always can go).",
    },
    Sample {
        text: include_str!("boxoff-sample.txt"),
        fewest: 4,
    },
    &[
        Algo::dfs("fewest moves, depth-first search (every solution has the same length)"),
        Algo::bfs("fewest moves, breadth-first search"),
        Algo::astar("fewest moves, A*"),
        Algo::idastar(1 << 22, "fewest moves, IDA*"),
    ],
    &[
        glyph(".", "an empty place", Ground::Table, None),
        token("1", "a token of colour 1", 1),
        token("2", "a token of colour 2", 2),
        token("3", "a token of colour 3", 3),
        token("4", "a token of colour 4", 4),
        token("5", "a token of colour 5", 5),
        token("6", "a token of colour 6", 6),
        token("7", "a token of colour 7", 7),
        token("8", "a token of colour 8", 8),
        token("9", "a token of colour 9", 9),
    ],
    &Learning {
        env: "BoxOff",
        planes: &[
            "table", "token 1", "token 2", "token 3", "token 4", "token 5", "token 6", "token 7",
            "token 8", "token 9",
        ],
        actions: "first × cells + second: the pair's two cells (row × cols + col), the first \
                  the lower-numbered",
    },
);

/// Pretzel solitaire (spec `solitaire.md`): move cards into holes after their predecessor
/// until every suit is in order from its ace.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pretzel;

static PRETZEL: Info = sheet_info(
    Words {
        name: "pretzel",
        title: "Pretzel",
        about: "Pretzel solitaire: move cards into holes until every suit runs from its ace",
        rules: "Goal: every row holds its suit in order from its ace. Move a card into the hole right of the \
               card of its suit one rank lower (a 2 into the hole right of its ace).",
    },
    Sample {
        text: include_str!("pretzel-sample.txt"),
        fewest: 2,
    },
    &[
        Algo::bfs("fewest moves, breadth-first search"),
        Algo::astar("fewest moves, A*"),
        Algo::idastar(1 << 22, "fewest moves, IDA*"),
    ],
    &[
        glyph("--", "a hole", Ground::Hole, None),
        ace("AS", "the ace of spades", 0),
        card("2S", "the 2 of spades", 0, 2),
        card("3S", "the 3 of spades", 0, 3),
        card("4S", "the 4 of spades", 0, 4),
        card("5S", "the 5 of spades", 0, 5),
        card("6S", "the 6 of spades", 0, 6),
        card("7S", "the 7 of spades", 0, 7),
        card("8S", "the 8 of spades", 0, 8),
        card("9S", "the 9 of spades", 0, 9),
        card("TS", "the 10 of spades", 0, 10),
        card("JS", "the jack of spades", 0, 11),
        card("QS", "the queen of spades", 0, 12),
        card("KS", "the king of spades", 0, 13),
        ace("AH", "the ace of hearts", 1),
        card("2H", "the 2 of hearts", 1, 2),
        card("3H", "the 3 of hearts", 1, 3),
        card("4H", "the 4 of hearts", 1, 4),
        card("5H", "the 5 of hearts", 1, 5),
        card("6H", "the 6 of hearts", 1, 6),
        card("7H", "the 7 of hearts", 1, 7),
        card("8H", "the 8 of hearts", 1, 8),
        card("9H", "the 9 of hearts", 1, 9),
        card("TH", "the 10 of hearts", 1, 10),
        card("JH", "the jack of hearts", 1, 11),
        card("QH", "the queen of hearts", 1, 12),
        card("KH", "the king of hearts", 1, 13),
        ace("AD", "the ace of diamonds", 2),
        card("2D", "the 2 of diamonds", 2, 2),
        card("3D", "the 3 of diamonds", 2, 3),
        card("4D", "the 4 of diamonds", 2, 4),
        card("5D", "the 5 of diamonds", 2, 5),
        card("6D", "the 6 of diamonds", 2, 6),
        card("7D", "the 7 of diamonds", 2, 7),
        card("8D", "the 8 of diamonds", 2, 8),
        card("9D", "the 9 of diamonds", 2, 9),
        card("TD", "the 10 of diamonds", 2, 10),
        card("JD", "the jack of diamonds", 2, 11),
        card("QD", "the queen of diamonds", 2, 12),
        card("KD", "the king of diamonds", 2, 13),
        ace("AC", "the ace of clubs", 3),
        card("2C", "the 2 of clubs", 3, 2),
        card("3C", "the 3 of clubs", 3, 3),
        card("4C", "the 4 of clubs", 3, 4),
        card("5C", "the 5 of clubs", 3, 5),
        card("6C", "the 6 of clubs", 3, 6),
        card("7C", "the 7 of clubs", 3, 7),
        card("8C", "the 8 of clubs", 3, 8),
        card("9C", "the 9 of clubs", 3, 9),
        card("TC", "the 10 of clubs", 3, 10),
        card("JC", "the jack of clubs", 3, 11),
        card("QC", "the queen of clubs", 3, 12),
        card("KC", "the king of clubs", 3, 13),
    ],
    &Learning {
        env: "Pretzel",
        planes: &[
            "table", "hole", "suit S", "suit H", "suit D", "suit C", "suit R", "suit B", "suit G",
            "suit Y", "rank A", "rank 2", "rank 3", "rank 4", "rank 5", "rank 6", "rank 7",
            "rank 8", "rank 9", "rank T", "rank J", "rank Q", "rank K",
        ],
        actions: "from × cells + to: the card's place and the hole it goes to, each row × \
                  ranks + column of the deal (the aces' column not counted, as moves name \
                  places)",
    },
);

/// Fujisan (spec `solitaire.md`): move the four priests over the mountain's values onto the
/// summit.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fujisan;

static FUJISAN: Info = sheet_info(
    Words {
        name: "fujisan",
        title: "Fujisan",
        about: "Fujisan: move four priests along the mountain's values onto its summit",
        rules: "Goal: a priest on each of the four summit spaces (the middle two columns). A priest moves \
               along its row onto a space whose value is the number of free spaces it travels (the \
               landing one counted, other priests jumped), or up or down its column on the mountain; on \
               the summit only up or down.",
    },
    Sample {
        text: include_str!("fujisan-sample.txt"),
        fewest: 9,
    },
    &[
        Algo::astar("fewest moves, A* (bound: empty summit spaces)"),
        Algo::bfs("fewest moves, breadth-first search"),
        Algo::idastar(1 << 22, "fewest moves, IDA*"),
    ],
    &[
        space("0", "a space of value 0 (blank)", 0),
        space("1", "a space of value 1 (ace)", 1),
        space("2", "a space of value 2", 2),
        space("3", "a space of value 3", 3),
        space("4", "a space of value 4", 4),
        space("5", "a space of value 5", 5),
    ],
    &Learning {
        env: "Fujisan",
        planes: &[
            "start", "space", "summit", "value 0", "value 1", "value 2", "value 3", "value 4",
            "value 5", "value 6", "value 7", "value 8", "value 9", "priest",
        ],
        actions: "from × cells + to: the priest's cell and the cell it goes to, each row × \
                  (width + 2) + column + 1 of the picture (the starting places are its first \
                  and last columns)",
    },
);

/// What the three puzzles share behind the face: a [`Sheet`] read from and written to a
/// challenge file of one [`Kind`], and move lists read by the puzzle's `parse_moves`.
macro_rules! sheet_game {
    ($info:ident, $kind:expr, $puzzle:ty, $rules:ident) => {
        fn info(&self) -> &'static Info {
            &$info
        }
        fn parse(
            &self,
            text: &str,
            file: &str,
            _: Option<&str>,
        ) -> Result<Vec<Self::Level>, Error> {
            let doc = Document::parse(text, file, $kind)?;
            Ok(vec![Sheet {
                title: doc.title.clone(),
                puzzle: <$puzzle>::from_rows(&doc)?,
            }])
        }
        fn write(&self, levels: &[Self::Level], _: Option<&str>) -> Result<String, Error> {
            Ok(sheet_text($kind, levels, <$puzzle>::write))
        }
        fn title<'a>(&self, level: &'a Self::Level) -> Option<&'a str> {
            level.title.as_deref()
        }
        fn describe(&self, level: &Self::Level) -> String {
            level.puzzle.describe()
        }
        fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Self::Move>, Error> {
            $rules::parse_moves(text, file)
        }
    };
}

/// The start, notation and engine of a puzzle whose position is the puzzle itself (BoxOff's
/// board, Pretzel's deal), compiled by `$engine::new`.
macro_rules! position_is_puzzle {
    ($engine:path) => {
        fn start(&self, level: &Self::Level) -> Self::Position {
            level.puzzle.clone()
        }
        fn position_text(&self, _: &Self::Level, pos: &Self::Position) -> String {
            pos.write()
        }
        fn engine<T: Task<Self::Move>>(
            &self,
            level: &Self::Level,
            from: Option<&Self::Position>,
            task: T,
        ) -> Result<T::Output, Error> {
            use $engine as Engine;
            Ok(task.run(&Engine::new(from.unwrap_or(&level.puzzle))))
        }
    };
}

impl Game for BoxOff {
    type Level = Sheet<Board>;
    type Move = boxoff::Move;
    type Position = Board;
    type Step = boxoff::Move;

    sheet_game!(BOXOFF, Kind::BoxOff, Board, boxoff);
    position_is_puzzle!(boxoff::BoxOff);
    fn apply(
        &self,
        _: &Self::Level,
        pos: &mut Board,
        m: &boxoff::Move,
    ) -> Result<boxoff::Move, String> {
        boxoff::apply(pos, m)?;
        Ok(*m)
    }
    fn solved(&self, _: &Self::Level, pos: &Board) -> bool {
        pos.tokens() == 0
    }
    fn action_count(&self, level: &Self::Level) -> usize {
        let n = level.puzzle.rows() * level.puzzle.cols();
        n * n
    }
    fn action(&self, level: &Self::Level, m: &boxoff::Move) -> Option<usize> {
        let (rows, cols) = (level.puzzle.rows(), level.puzzle.cols());
        let [[r1, c1], [r2, c2]] = m.remove;
        if r1 >= rows || r2 >= rows || c1 >= cols || c2 >= cols {
            return None;
        }
        let (a, b) = (r1 * cols + c1, r2 * cols + c2);
        pair_action(a.min(b), a.max(b), rows * cols)
    }
    fn scene(&self, _: &Self::Level, b: &Board) -> Scene {
        let mut s = Scene::new(b.rows(), b.cols(), "");
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
    fn change(&self, _: &Self::Level, _: &Board, m: &boxoff::Move, _: &boxoff::Move) -> Change {
        let [[r1, c1], [r2, c2]] = m.remove;
        Change {
            removed: vec![(r1, c1), (r2, c2)],
            arrow: Some(Arrow::Pair((r1, c1), (r2, c2))),
            ..Change::default()
        }
    }
}

impl Game for Pretzel {
    type Level = Sheet<Deal>;
    type Move = pretzel::Move;
    type Position = Deal;
    type Step = pretzel::Move;

    sheet_game!(PRETZEL, Kind::Pretzel, Deal, pretzel);
    position_is_puzzle!(pretzel::Pretzel);
    fn apply(
        &self,
        _: &Self::Level,
        pos: &mut Deal,
        m: &pretzel::Move,
    ) -> Result<pretzel::Move, String> {
        pretzel::apply(pos, m)
    }
    fn solved(&self, _: &Self::Level, pos: &Deal) -> bool {
        pretzel::is_solved(pos)
    }
    fn action_count(&self, level: &Self::Level) -> usize {
        let n = level.puzzle.suits() * level.puzzle.ranks();
        n * n
    }
    fn action(&self, level: &Self::Level, m: &pretzel::Move) -> Option<usize> {
        let (rows, cols) = (level.puzzle.suits(), level.puzzle.ranks());
        let (Some([r1, c1]), Some([r2, c2])) = (m.from, m.to) else {
            return None;
        };
        if r1 >= rows || r2 >= rows || c1 >= cols || c2 >= cols {
            return None;
        }
        pair_action(r1 * cols + c1, r2 * cols + c2, rows * cols)
    }
    /// The aces in a column on the left (scene column 0), the deal right of it.
    fn scene(&self, _: &Self::Level, d: &Deal) -> Scene {
        let mut s = Scene::new(d.suits(), d.ranks() + 1, "");
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
    fn change(&self, _: &Self::Level, _: &Deal, _: &pretzel::Move, step: &pretzel::Move) -> Change {
        // the step is the move as played: where the card was and went
        let (Some([r1, c1]), Some([r2, c2])) = (step.from, step.to) else {
            return Change::default();
        };
        let path = vec![(r1, c1 + 1), (r2, c2 + 1)];
        Change {
            slides: vec![path.clone()],
            arrow: Some(Arrow::Path(path)),
            ..Change::default()
        }
    }
}

impl Game for Fujisan {
    type Level = Sheet<Mountain>;
    type Move = fujisan::Move;
    type Position = Priests;
    type Step = fujisan::Move;

    sheet_game!(FUJISAN, Kind::Fujisan, Mountain, fujisan);
    fn start(&self, level: &Self::Level) -> Priests {
        fujisan::start_priests(&level.puzzle)
    }
    fn apply(
        &self,
        level: &Self::Level,
        pos: &mut Priests,
        m: &fujisan::Move,
    ) -> Result<fujisan::Move, String> {
        fujisan::apply(&level.puzzle, pos, m)?;
        Ok(*m)
    }
    fn solved(&self, level: &Self::Level, pos: &Priests) -> bool {
        fujisan::summit_reached(&level.puzzle, pos)
    }
    fn action_count(&self, level: &Self::Level) -> usize {
        let n = 2 * (level.puzzle.cols() + 2);
        n * n
    }
    fn action(&self, level: &Self::Level, m: &fujisan::Move) -> Option<usize> {
        let w = level.puzzle.cols() as i64;
        let cell = |[r, c]: [i64; 2]| {
            ((0..2).contains(&r) && (-1..=w).contains(&c)).then(|| (r * (w + 2) + c + 1) as usize)
        };
        pair_action(cell(m.from)?, cell(m.to)?, (2 * (w + 2)) as usize)
    }
    /// The mountain's two rows with the priests as `P`, their starting places left and right.
    fn position_text(&self, level: &Self::Level, priests: &Priests) -> String {
        let mt = &level.puzzle;
        let w = mt.cols() as i64;
        let mut s = String::new();
        for row in 0..2i64 {
            let mut line = String::new();
            for col in -1..=w {
                let priest = priests.contains(&[row, col]);
                let cell = if col < 0 || col >= w {
                    if priest {
                        "P".to_string()
                    } else {
                        " ".to_string()
                    }
                } else if priest {
                    "P".to_string()
                } else {
                    mt.get(row as usize, col as usize).to_string()
                };
                line.push_str(&cell);
                line.push(' ');
            }
            s.push_str(line.trim_end());
            s.push('\n');
        }
        s
    }
    fn engine<T: Task<fujisan::Move>>(
        &self,
        level: &Self::Level,
        from: Option<&Priests>,
        task: T,
    ) -> Result<T::Output, Error> {
        let p = fujisan::Fujisan::new(&level.puzzle);
        Ok(match from {
            None => task.run(&p),
            Some(priests) => task.run(&StartAt {
                start: p.state_of(priests),
                puzzle: &p,
            }),
        })
    }
    /// The mountain with the priests; their starting places are scene columns 0 and
    /// `width + 1` (the game's columns −1 and `width`).
    fn scene(&self, level: &Self::Level, priests: &Priests) -> Scene {
        let m = &level.puzzle;
        let w = m.cols();
        let mut s = Scene::new(2, w + 2, "");
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
        for &[r, c] in priests {
            s.add(PieceKind::Priest, (r as usize, (c + 1) as usize));
        }
        s
    }
    fn change(&self, _: &Self::Level, _: &Priests, m: &fujisan::Move, _: &fujisan::Move) -> Change {
        let cell = |[r, c]: [i64; 2]| (r as usize, (c + 1) as usize);
        let path = vec![cell(m.from), cell(m.to)];
        Change {
            slides: vec![path.clone()],
            arrow: Some(Arrow::Path(path)),
            ..Change::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Status;
    use crate::ops::{Request, SolveOptions};

    #[test]
    fn every_puzzle_solves_and_replays_through_the_face() {
        for (text, algo, len) in [
            ("Game: boxoff\n1 2\n2 1\n", "dfs", None),
            ("Game: boxoff\n1 1\n2 2\n", "dfs", Some(2)),
            ("Game: boxoff\n1 1\n2 2\n", "bfs", Some(2)),
            ("Game: pretzel\n2S 3S --\n2H -- 3H\n", "bfs", Some(1)),
            (
                "Game: fujisan\n3 1 4 0 2 5 1 2 3 4 0 1\n2 0 5 3 1 4 2 3 1 0 5 4\n",
                "astar",
                None,
            ),
        ] {
            let req = Request::from_text(text, "t").resolve().unwrap();
            let r = req
                .level
                .solve(&SolveOptions::default().algorithm(algo))
                .unwrap();
            if len.is_some() || !text.contains("fujisan") {
                assert_eq!(r.length, len, "{text}");
            }
            assert!(
                matches!(r.status, Status::Unsolvable | Status::Solved),
                "{text}"
            );
            if let Some(story) = r.story() {
                assert_eq!(story.unwrap().acts.len() as u64, r.length.unwrap());
            }
        }
    }
}
