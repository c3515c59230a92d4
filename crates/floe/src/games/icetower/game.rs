//! Ice Tower behind the game face.

use super::engine::with_tower_at;
use super::level::{parse, Block, Tile, Tower};
use super::rules::{Board, End, PlainPuzzle, Step};
use crate::error::{Error, ParseError};
use crate::game::{
    glyph, Algo, ArrowKey, Capabilities, Cells, CorePieces, Game, Info, Learning, Param, ParamKind,
    Params, Sample, Task,
};
use crate::grid::{parse_pushes, Dir, Pos, Push, PUSH_ACTIONS};
use crate::render::plural;
use crate::scene::{behind, straight, to_rc, Arrow, Change, Ground, PieceKind, Scene};
use serde_json::{json, Value};

/// The Japanese Ice Tower game, 氷塔 (spec `icetower.md`): the magician pushes ice into fires
/// until every fire is out.
#[derive(Clone, Copy, Debug, Default)]
pub struct IceTower;

/// An Ice Tower map, and whether its arrows and dispensers are accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The map.
    pub tower: Tower,
    /// Arrows and dispensers are played with floe's semantics (`docs/icetower.md`); without
    /// it a level that has them is refused.
    pub dynamic: bool,
}

static INFO: Info = Info {
    name: "icetower",
    aliases: &["氷塔"],
    title: "Ice Tower",
    about: "Ice Tower (氷塔): the magician pushes ice into fires until every fire is out",
    rules: "Goal: put out every fire. The magician pushes a block away from himself and it slides \
            until a wall, another block or the edge stops it: ice vanishes in the first fire it \
            enters, putting it out, or in a recycler; golden ice puts out every fire it crosses \
            and slides over recyclers.",
    sample: Sample {
        text: include_str!("sample.txt"),
        fewest: 3,
    },
    params: &[Param {
        name: "dynamic",
        about: "accept arrows and dispensers, with floe's documented semantics",
        kind: ParamKind::Flag,
    }],
    formats: &["qits"],
    move_word: "push",
    algorithms: &[
        Algo::astar_proving("fewest pushes, A*"),
        Algo::bfs("fewest pushes, breadth-first search"),
        Algo::idastar(1 << 22, "fewest pushes, IDA*"),
    ],
    random_moves: 1_000_000,
    capabilities: Capabilities {
        learning: Some(&Learning {
            env: "IceTower",
            planes: &[
                "wall",
                "ice",
                "fire",
                "recycler",
                "arrow up",
                "arrow right",
                "arrow down",
                "arrow left",
                "dispenser",
                "block",
                "golden",
                "magician",
            ],
            actions: PUSH_ACTIONS,
        }),
        ..Capabilities::PLAIN
    },
    cells: Cells {
        glyphs: &[
            glyph(" ", "floor", Ground::Ice, None),
            glyph("#", "a wall", Ground::Wall, None),
            glyph("%", "ice", Ground::Ice, Some(PieceKind::Block)),
            glyph("$", "golden ice", Ground::Ice, Some(PieceKind::Golden)),
            glyph("*", "a fire", Ground::Fire, None),
            glyph("-", "a recycler", Ground::Recycler, None),
            glyph("@", "the magician", Ground::Ice, Some(PieceKind::Magician)),
            glyph("^", "an arrow up (dynamic)", Ground::Arrow(Dir::Up), None),
            glyph(
                "v",
                "an arrow down (dynamic)",
                Ground::Arrow(Dir::Down),
                None,
            ),
            glyph(
                "<",
                "an arrow left (dynamic)",
                Ground::Arrow(Dir::Left),
                None,
            ),
            glyph(
                ">",
                "an arrow right (dynamic)",
                Ground::Arrow(Dir::Right),
                None,
            ),
            glyph("+", "a dispenser (dynamic)", Ground::Dispenser, None),
        ],
        separator: "",
    },
};

/// The error for a dynamic element in a level played without `dynamic`.
fn dynamic_refused(t: &Tower) -> Option<Error> {
    let (p, tile) = t.first_dynamic()?;
    let (line, col) = t.source_position(p);
    Some(Error::Parse(ParseError {
        file: t.file.clone(),
        line,
        col,
        message: format!(
            "{} ({}) is a dynamic element: floe plays levels with arrows and dispensers only \
             with --dynamic, under the semantics of docs/icetower.md",
            tile.name(),
            tile.symbol()
        ),
    }))
}

fn ground(t: Tile) -> Ground {
    match t {
        Tile::Floor => Ground::Ice,
        Tile::Wall => Ground::Wall,
        Tile::Fire => Ground::Fire,
        Tile::Recycler => Ground::Recycler,
        Tile::Arrow(d) => Ground::Arrow(d),
        Tile::Dispenser => Ground::Dispenser,
    }
}

impl Game for IceTower {
    type Level = Level;
    type Move = Push;
    type Position = Board;
    type Step = Step;

    fn info(&self) -> &'static Info {
        &INFO
    }

    fn parse(&self, text: &str, file: &str, _: Option<&str>) -> Result<Vec<Level>, Error> {
        Ok(vec![Level {
            tower: parse(text, file, "")?,
            dynamic: false,
        }])
    }

    fn write(&self, levels: &[Level], _: Option<&str>) -> Result<String, Error> {
        let mut out = String::new();
        for (i, l) in levels.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str("Game: icetower\n");
            if !l.tower.name.is_empty() {
                out.push_str(&format!("Title: {}\n", l.tower.name));
            }
            out.push_str(&l.tower.to_text());
        }
        Ok(out)
    }

    fn title<'a>(&self, level: &'a Level) -> Option<&'a str> {
        Some(level.tower.name.as_str()).filter(|n| !n.is_empty())
    }

    fn describe(&self, l: &Level) -> String {
        let t = &l.tower;
        format!(
            "{}×{} map, {}, {}, {}",
            t.rows(),
            t.cols(),
            plural(t.count(Block::Ice), "ice block", "ice blocks"),
            plural(t.count(Block::Golden), "golden block", "golden blocks"),
            plural(t.fires().len(), "fire", "fires"),
        )
    }

    fn configure(&self, level: &mut Level, params: &Params) -> Result<(), Error> {
        if let Some(d) = params.flag("dynamic") {
            level.dynamic = d;
        }
        Ok(())
    }

    fn params(&self, level: &Level) -> Vec<(&'static str, Value)> {
        vec![("dynamic", json!(level.dynamic))]
    }

    fn start(&self, level: &Level) -> Board {
        Board::new(&level.tower)
    }

    fn check(&self, level: &Level) -> Result<(), Error> {
        match dynamic_refused(&level.tower) {
            Some(e) if !level.dynamic => Err(e),
            _ => Ok(()),
        }
    }

    fn apply(&self, _: &Level, pos: &mut Board, m: &Push) -> Result<Step, String> {
        pos.push(*m).map_err(|e| e.to_string())
    }

    fn solved(&self, _: &Level, pos: &Board) -> bool {
        pos.solved()
    }

    fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Push>, Error> {
        Ok(parse_pushes(text, file)?)
    }

    fn position_text(&self, _: &Level, pos: &Board) -> String {
        pos.to_text()
    }

    fn position_key(&self, level: &Level, pos: &Board) -> String {
        if level.tower.first_dynamic().is_some() {
            // among arrows walking is one-way: his cell matters
            format!("{}man at {}\n", pos.to_text(), pos.man())
        } else {
            let text = pos.to_text().replace('@', " ");
            format!("{text}man's region from {}\n", pos.region_key())
        }
    }

    fn core_pieces(&self, _: &Level, b: &Board) -> Option<CorePieces> {
        let cells = (0..b.rows())
            .flat_map(|r| (0..b.cols()).map(move |c| Pos::new(r, c)))
            .filter(|&p| b.tile(p) == Tile::Fire)
            .collect();
        Some(CorePieces {
            kind: "fires",
            cells,
            one: "can no longer be put out",
            many: "can no longer all be put out",
            none: "the fires cannot all be put out",
        })
    }

    fn restricted(
        &self,
        level: &Level,
        b: &Board,
        keep: &[Pos],
    ) -> Result<Vec<(Level, Board)>, Error> {
        let mut board = b.clone();
        for p in self
            .core_pieces(level, b)
            .map(|c| c.cells)
            .unwrap_or_default()
        {
            if !keep.contains(&p) {
                board.put_out(p);
            }
        }
        Ok(vec![(level.clone(), board)])
    }

    fn engine<T: Task<Push>>(
        &self,
        level: &Level,
        from: Option<&Board>,
        task: T,
    ) -> Result<T::Output, Error> {
        let dynamic = level.tower.first_dynamic().is_some();
        if dynamic && !level.dynamic {
            return Err(dynamic_refused(&level.tower).expect("the level is dynamic"));
        }
        if !dynamic {
            // compiled from the level, so that every position's states are comparable
            let start;
            let at = match from {
                Some(b) => b,
                None => {
                    start = Board::new(&level.tower);
                    &start
                }
            };
            return with_tower_at(&level.tower, at, true, task);
        }
        let here;
        let tower = match from {
            None => &level.tower,
            Some(b) => {
                here = b.to_tower(&level.tower.name).map_err(|m| {
                    Error::invalid(format!("this position cannot be solved from: {m}"))
                })?;
                &here
            }
        };
        Ok(task.run(&PlainPuzzle::new(tower)))
    }

    fn action_count(&self, level: &Level) -> usize {
        level.tower.rows() * level.tower.cols() * 4
    }
    fn action(&self, level: &Level, m: &Push) -> Option<usize> {
        m.action(level.tower.rows(), level.tower.cols())
    }
    fn scene(&self, _: &Level, b: &Board) -> Scene {
        let mut s = Scene::new(b.rows(), b.cols(), "");
        let cells = (0..b.rows()).flat_map(|r| (0..b.cols()).map(move |c| Pos::new(r, c)));
        for p in cells.clone() {
            s.set(to_rc(p), ground(b.tile(p)));
        }
        for p in cells {
            match b.block(p) {
                Some(Block::Ice) => {
                    s.add(PieceKind::Block, to_rc(p));
                }
                Some(Block::Golden) => {
                    s.add(PieceKind::Golden, to_rc(p));
                }
                None => {}
            }
        }
        s.add(PieceKind::Magician, to_rc(b.man()));
        s
    }

    fn change(&self, _: &Level, before: &Board, m: &Push, step: &Step) -> Change {
        let (rows, cols) = (before.rows(), before.cols());
        let from = m.pos();
        let end = match step.end {
            End::Rest(p) | End::Fire(p) | End::Recycler(p) => p,
        };
        // the slide on the board before the push, turning at arrows
        let mut path = vec![to_rc(from)];
        let (mut at, mut dir) = (from, m.dir);
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
        let mut ch = Change {
            actor: behind(from, m.dir, rows, cols),
            arrow: Some(Arrow::Path(path.clone())),
            ..Change::default()
        };
        if before.block(from).is_none() && before.tile(from) == Tile::Dispenser {
            ch.added.push((PieceKind::Block, to_rc(from)));
        }
        ch.slides.push(path);
        if !matches!(step.end, End::Rest(_)) {
            ch.removed.push(to_rc(from));
        }
        for &f in &step.fires_out {
            ch.ground.push((to_rc(f), Ground::Ice));
        }
        ch
    }

    fn arrow(&self, _: &Level, pos: &Board, d: Dir, _: Option<Pos>) -> ArrowKey<Push, Board> {
        let man = pos.man();
        match man.step(d, pos.rows(), pos.cols()) {
            None => ArrowKey::Blocked("the edge of the map".into()),
            Some(n) if pos.block(n).is_some() || pos.tile(n) == Tile::Dispenser => {
                ArrowKey::Move(Push::new(n, d))
            }
            Some(_) => ArrowKey::walk(pos, |b| b.walk(d)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Status;
    use crate::ops::{level_of, Request, SolveOptions};
    use crate::render::board::{animated_svg, Style};

    #[test]
    fn algorithms_agree() {
        let l = level_of("icetower", "#######\n#@% **#\n#  %  #\n#$ -  #\n#######\n");
        let lens: Vec<Option<u64>> = ["bfs", "astar", "idastar"]
            .iter()
            .map(|a| {
                l.solve(&SolveOptions::default().algorithm(a))
                    .unwrap()
                    .length
            })
            .collect();
        assert!(
            lens.iter().all(|&n| n == lens[0] && n.is_some()),
            "{lens:?}"
        );
    }

    #[test]
    fn dead_starts_are_proved_at_once() {
        let r = level_of("icetower", "#####\n#@*%#\n#####\n")
            .solve(&SolveOptions::default())
            .unwrap();
        assert_eq!(r.status, Status::Unsolvable);
        assert_eq!(r.states, 1);
        let d = r.details.exact().expect("an exact search");
        assert!(d.dead.is_some(), "{d:?}");
        assert_eq!(d.start_bound, 0);
    }

    #[test]
    fn dynamic_levels_need_the_parameter() {
        let req = Request::from_text("Game: icetower\n@% v\n   *\n", "lvl.txt")
            .resolve()
            .unwrap();
        let e = req.level.solve(&SolveOptions::default()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("lvl.txt:2:4: an arrow (v) is a dynamic element"),
            "{e}"
        );
        let dynamic = req
            .level
            .configure(&Params::new().with("dynamic", "true"))
            .unwrap();
        let r = dynamic
            .solve(&SolveOptions::default().algorithm("bfs"))
            .unwrap();
        assert_eq!(r.length, Some(1));
        assert_eq!(r.details.exact().map(|d| d.engine), Some("plain"));
    }

    #[test]
    fn a_dispenser_block_appears_and_puts_out_the_fire_when_it_gets_there() {
        let l = level_of("icetower", "#######\n#@+  *#\n#######\n")
            .configure(&Params::new().with("dynamic", "true"))
            .unwrap();
        let moves = l.parse_moves("1 2 right", "m").unwrap();
        let story = l.story(&moves).unwrap();
        let act = &story.acts[0];
        assert_eq!(act.added.len(), 1);
        assert_eq!(act.removed, vec![act.added[0].id]);
        assert_eq!(act.ground, vec![((1, 5), Ground::Ice)]);
        assert_eq!(act.slides[0].1, vec![(1, 2), (1, 3), (1, 4), (1, 5)]);
        let scenes = story.scenes();
        assert_eq!(scenes[1].blocks(), 0);
        assert_eq!(scenes[1].ground((1, 5)), Ground::Ice);
        // 1 s held, the slide starts 0.25 s into the move and takes 0.25 s for 3 cells: the
        // fire goes out at 1.5 s of a 4 s loop
        let svg = animated_svg(&story, &Style::default());
        assert!(svg.contains("keyTimes=\"0;0.375;1\""), "{svg}");
    }
}
