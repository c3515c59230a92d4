//! The ice path rules on plain coordinates, and the game face.

use super::engine::Engine;
use super::level::{self, Cell, Level};
use super::level::{IcePath, Move, Slide};
use crate::error::Error;
use crate::game::hardest::{Counts, HardestOptions, HardestReport};
use crate::game::{
    glyph, parse_move_words, Algo, ArrowKey, Capabilities, Cells, CorePieces, Game, Info, Learning,
    Sample, Task,
};
use crate::grid::{Dir, Pos};
use crate::render::plural;
use crate::scene::{straight, to_rc, Arrow, Change, Ground, PieceKind, Scene};

static INFO: Info = Info {
    name: "icepath",
    aliases: &["inertia", "icecave"],
    title: "ice path",
    about: "the ice path puzzle: the player slides over ice until something stops him, \
            to the exit",
    rules: "Goal: reach the exit. The player slides up, down, left or right over ice until a rock \
            or the edge stops him; he stops on normal floor or the exit as soon as he enters it.",
    sample: Sample {
        text: include_str!("sample.txt"),
        fewest: 3,
    },
    params: &[],
    formats: &["floe"],
    move_word: "move",
    algorithms: &[
        Algo::bfs("fewest moves, breadth-first search"),
        Algo::astar("fewest moves, A*"),
        Algo::idastar(1 << 16, "fewest moves, IDA*"),
    ],
    random_moves: 100_000,
    capabilities: Capabilities {
        perfect_hash: true,
        learning: Some(&Learning {
            env: "IcePath",
            planes: &["wall", "floor", "ice", "target", "player"],
            actions: "the direction of the slide: 0 up, 1 right, 2 down, 3 left",
        }),
        ..Capabilities::PLAIN
    },
    cells: Cells {
        glyphs: &[
            glyph("-", "ice", Ground::Ice, None),
            glyph("=", "normal floor", Ground::Floor, None),
            glyph("#", "a rock", Ground::Wall, None),
            glyph(".", "the exit", Ground::Target, None),
            glyph(
                "@",
                "the player on ice",
                Ground::Ice,
                Some(PieceKind::Player),
            ),
            glyph(
                "&",
                "the player on normal floor",
                Ground::Floor,
                Some(PieceKind::Player),
            ),
        ],
        separator: "",
    },
};

/// Plays a move on the plain rules: the player sets off from `from` and goes one cell at a
/// time until the next cell is a rock or off the board, or he has entered normal floor or
/// the exit. Returns where he stops, or why he cannot move.
pub fn slide(level: &Level, from: Pos, dir: Dir) -> Result<Pos, String> {
    let mut at = from;
    while let Some(next) = level.step(at, dir) {
        match level.cell(next) {
            Cell::Rock => break,
            Cell::Floor | Cell::Exit => {
                at = next;
                break;
            }
            Cell::Ice => at = next,
        }
    }
    if at != from {
        return Ok(at);
    }
    Err(match level.step(from, dir) {
        None => format!("the player cannot move {dir}: the edge of the cave"),
        Some(_) => format!("the player cannot move {dir}: a rock"),
    })
}

impl Game for IcePath {
    type Level = Level;
    type Move = Move;
    type Position = Pos;
    type Step = Slide;

    fn info(&self) -> &'static Info {
        &INFO
    }

    fn parse(&self, text: &str, file: &str, _: Option<&str>) -> Result<Vec<Level>, Error> {
        Ok(level::parse(text, file)?)
    }

    fn write(&self, levels: &[Level], _: Option<&str>) -> Result<String, Error> {
        Ok(level::write(levels))
    }

    fn title<'a>(&self, level: &'a Level) -> Option<&'a str> {
        level.title.as_deref()
    }

    fn describe(&self, l: &Level) -> String {
        format!(
            "{}×{} cave, {}, {}, {}",
            l.rows(),
            l.cols(),
            plural(l.count(Cell::Ice), "ice cell", "ice cells"),
            plural(l.count(Cell::Floor), "floor cell", "floor cells"),
            plural(l.count(Cell::Rock), "rock", "rocks"),
        )
    }

    fn start(&self, level: &Level) -> Pos {
        level.start()
    }

    fn apply(&self, level: &Level, pos: &mut Pos, m: &Move) -> Result<Slide, String> {
        if *pos == level.exit() {
            return Err("the player has left the cave".into());
        }
        let to = slide(level, *pos, m.dir)?;
        let step = Slide {
            dir: m.dir,
            from: *pos,
            to,
        };
        *pos = to;
        Ok(step)
    }

    fn solved(&self, level: &Level, pos: &Pos) -> bool {
        *pos == level.exit()
    }

    fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Move>, Error> {
        parse_move_words(text, file, |w| Ok(Move { dir: w.parse()? }))
    }

    fn position_text(&self, level: &Level, pos: &Pos) -> String {
        level.rows_text(*pos)
    }

    fn core_pieces(&self, level: &Level, _: &Pos) -> Option<CorePieces> {
        Some(CorePieces {
            kind: "rocks",
            cells: level.rocks(),
            one: "alone already bars the way to the exit",
            many: "already bar the way to the exit between them",
            none: "the exit cannot be reached from here even with every rock taken away",
        })
    }

    fn restricted(
        &self,
        level: &Level,
        pos: &Pos,
        keep: &[Pos],
    ) -> Result<Vec<(Level, Pos)>, Error> {
        Ok(vec![(level.keeping_rocks(keep), *pos)])
    }

    fn engine<T: Task<Move>>(
        &self,
        level: &Level,
        from: Option<&Pos>,
        task: T,
    ) -> Result<T::Output, Error> {
        if let Some(&p) = from {
            if p.row >= level.rows()
                || p.col >= level.cols()
                || !matches!(level.cell(p), Cell::Ice | Cell::Floor | Cell::Exit)
            {
                return Err(Error::invalid(format!(
                    "the player cannot stand at ({p}) of this cave"
                )));
            }
        }
        Ok(task.run(&Engine::new(level, from.copied())))
    }

    fn action_count(&self, _: &Level) -> usize {
        4
    }
    fn action(&self, _: &Level, m: &Move) -> Option<usize> {
        Some(m.dir as usize)
    }
    fn scene(&self, level: &Level, pos: &Pos) -> Scene {
        let mut s = Scene::new(level.rows(), level.cols(), "");
        for r in 0..level.rows() {
            for c in 0..level.cols() {
                let ground = match level.cell(Pos::new(r, c)) {
                    Cell::Ice => Ground::Ice,
                    Cell::Floor => Ground::Floor,
                    Cell::Rock => Ground::Wall,
                    Cell::Exit => Ground::Target,
                };
                s.set((r, c), ground);
            }
        }
        s.add(PieceKind::Player, to_rc(*pos));
        s
    }

    fn change(&self, _: &Level, _: &Pos, _: &Move, step: &Slide) -> Change {
        let path = straight(to_rc(step.from), to_rc(step.to));
        Change {
            arrow: Some(Arrow::Path(path.clone())),
            slides: vec![path],
            ..Change::default()
        }
    }

    fn arrow(&self, level: &Level, pos: &Pos, dir: Dir, _: Option<Pos>) -> ArrowKey<Move, Pos> {
        if *pos == level.exit() {
            return ArrowKey::Blocked("the player has left the cave".into());
        }
        match slide(level, *pos, dir) {
            Ok(_) => ArrowKey::Move(Move { dir }),
            Err(why) => ArrowKey::Blocked(why),
        }
    }

    fn hardest(&self, o: &HardestOptions, counts: &Counts) -> Result<HardestReport, Error> {
        super::hardest::hardest(o, &super::hardest::IcePathHardest::from_counts(counts)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Status;
    use crate::ops::{Request, SolveOptions};
    use crate::search::{bfs, Limits, Outcome, Puzzle};

    const CAVE: &str = "Game: icepath\nTitle: a cave\n@---#\n-#---\n---=.\n";

    fn level(text: &str) -> crate::ops::Level {
        Request::from_text(text, "cave.txt")
            .resolve()
            .unwrap()
            .level
    }

    fn one(text: &str) -> Level {
        level::parse(text, "t").unwrap().remove(0)
    }

    #[test]
    fn the_rules_by_hand() {
        let l = one("@--=--#.\n");
        // over ice onto the floor cell, where he stops
        assert_eq!(slide(&l, Pos::new(0, 0), Dir::Right), Ok(Pos::new(0, 3)));
        // from floor one step onto ice, and on to the rock
        assert_eq!(slide(&l, Pos::new(0, 3), Dir::Right), Ok(Pos::new(0, 5)));
        // the edge and the rock stop him before he moves: illegal
        let e = slide(&l, Pos::new(0, 0), Dir::Left).unwrap_err();
        assert!(e.contains("the edge"), "{e}");
        let e = slide(&l, Pos::new(0, 5), Dir::Right).unwrap_err();
        assert!(e.contains("a rock"), "{e}");
        // floor to floor: one step
        let l = one("&==.\n");
        assert_eq!(slide(&l, Pos::new(0, 0), Dir::Right), Ok(Pos::new(0, 1)));
        // the exit stops a slide
        let l = one("@-.--\n");
        assert_eq!(slide(&l, Pos::new(0, 0), Dir::Right), Ok(Pos::new(0, 2)));
    }

    #[test]
    fn solves_with_fewest_moves_and_every_search_agrees() {
        let l = level(CAVE);
        let r = l.solve(&SolveOptions::default()).unwrap();
        assert_eq!((r.game, r.status), ("icepath", Status::Solved));
        // two solutions of 3 moves (down, right, right and right, down, right): breadth-first
        // search tries right before down
        assert_eq!(r.length, Some(3));
        assert_eq!(r.pushes, None);
        let text: Vec<String> = r.moves.iter().map(|m| m.text().to_string()).collect();
        assert_eq!(text, ["right", "down", "right"]);
        assert_eq!(r.steps[1].to_string(), "(0, 3) down  → (2, 3)");
        for a in ["astar", "idastar"] {
            let o = SolveOptions::default().algorithm(a);
            assert_eq!(l.solve(&o).unwrap().length, Some(3), "{a}");
        }
        let r = level("Game: icepath\n@-#.\n")
            .solve(&SolveOptions::default())
            .unwrap();
        assert_eq!(r.status, Status::Unsolvable);
    }

    #[test]
    fn the_engine_agrees_with_the_rules_everywhere() {
        // every cell and direction of a cave with every kind of cell
        let l = one("@-=-#\n-#--=\n=-.-#\n--#-=\n");
        let e = Engine::new(&l, None);
        for r in 0..l.rows() {
            for c in 0..l.cols() {
                let p = Pos::new(r, c);
                if l.cell(p) == Cell::Rock || p == l.exit() {
                    continue;
                }
                let s = (r * l.cols() + c) as u16;
                let mut out = Vec::new();
                e.successors(&s, &mut out);
                let fast: Vec<(Dir, Pos)> = out.iter().map(|&(d, t)| (d, e.pos(t))).collect();
                let plain: Vec<(Dir, Pos)> = Dir::ALL
                    .into_iter()
                    .filter_map(|d| slide(&l, p, d).ok().map(|t| (d, t)))
                    .collect();
                assert_eq!(fast, plain, "{p}");
            }
        }
        assert!(matches!(
            bfs(&e, &Limits::none()).outcome,
            Outcome::Solved(_)
        ));
    }

    #[test]
    fn moves_in_every_form_and_illegal_ones_located() {
        let l = level(CAVE);
        let g = IcePath;
        let want = vec![
            Move { dir: Dir::Down },
            Move { dir: Dir::Right },
            Move { dir: Dir::Right },
        ];
        assert_eq!(g.parse_moves("d r\nright", "m").unwrap(), want);
        assert_eq!(
            g.parse_moves(r#"[{"dir":"down"},{"dir":"right"},{"dir":"right"}]"#, "m")
                .unwrap(),
            want
        );
        let json = l.solve(&SolveOptions::default()).unwrap();
        let doc = serde_json::to_string(&json).unwrap();
        let found = g.parse_moves(&doc, "m").unwrap();
        assert_eq!(found.len(), 3);
        assert!(
            l.verify(&l.parse_moves(&doc, "m").unwrap(), None)
                .unwrap()
                .solved
        );
        let v = l
            .verify(&l.parse_moves("d r r", "m").unwrap(), None)
            .unwrap();
        assert!(v.valid && v.solved);
        assert_eq!(v.length, Some(3));
        let v = l
            .verify(&l.parse_moves("d\nleft", "m").unwrap(), None)
            .unwrap();
        let e = v.error.unwrap();
        assert_eq!(e.index, 2);
        assert!(
            e.reason.contains("cannot move left: the edge"),
            "{}",
            e.reason
        );
    }

    #[test]
    fn space_and_pictures() {
        let l = level(CAVE);
        let sp = l.space(&Limits::none()).unwrap();
        assert!(sp.states >= 4, "{sp:?}");
        let story = l
            .story(&l.solve(&SolveOptions::default()).unwrap().moves)
            .unwrap();
        assert_eq!(story.acts.len(), 3);
        assert_eq!(story.acts[1].slides[0].1.len(), 3);
        assert_eq!(story.scenes().last().unwrap().pieces[0].at, (2, 4));
    }
}
