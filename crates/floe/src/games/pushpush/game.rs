//! PushPush behind the game face.

use super::board::{self, Board};
use super::engine::{with_puzzle, Variant};
use super::level::{Level, PushPush};
use super::solve::difficulty;
use super::validate::{apply, is_solved, walkable};
use crate::error::Error;
use crate::game::hardest::{Counts, HardestOptions, HardestReport};
use crate::game::{
    glyph, Algo, ArrowKey, Capabilities, Cells, CorePieces, Difficulty, Game, Info, Learning,
    Param, ParamKind, Params, Sample, Task,
};
use crate::grid::{parse_pushes, Dir, Pos, Push, PUSH_ACTIONS};
use crate::render::plural;
use crate::scene::{behind, straight, to_rc, Arrow, Change, Ground, PieceKind, Scene};
use serde_json::{json, Value};

static INFO: Info = Info {
    name: "pushpush",
    aliases: &["pushpush1"],
    title: "PushPush",
    about: "PushPush: a robot pushes sliding blocks until it can walk onto the target",
    rules: "Goal: the robot walks onto the target. It walks freely and pushes the block in front \
            of it (in PushPush-k a row of up to k blocks) when the cell beyond is free: the row \
            slides until a block, a wall or the edge stops it.",
    sample: Sample {
        text: include_str!("sample.txt"),
        fewest: 1,
    },
    params: &[Param {
        name: "k",
        about: "PushPush-k: the robot pushes rows of up to k blocks (0: any row, PushPush-*)",
        kind: ParamKind::Int { min: 0, max: 1024 },
    }],
    formats: &["floe"],
    move_word: "push",
    algorithms: &[
        Algo::bfs("fewest pushes, breadth-first search"),
        Algo::astar("fewest pushes, A*"),
        Algo::idastar(1 << 20, "fewest pushes, IDA*"),
    ],
    random_moves: 1_000_000,
    capabilities: Capabilities {
        difficulty: Some("push-tree"),
        learning: Some(&Learning {
            env: "PushPush",
            planes: &["wall", "ice", "target", "block", "player"],
            actions: PUSH_ACTIONS,
        }),
        ..Capabilities::PLAIN
    },
    cells: Cells {
        glyphs: &[
            glyph("-", "floor", Ground::Ice, None),
            glyph("#", "a wall", Ground::Wall, None),
            glyph(".", "the target", Ground::Target, None),
            glyph("$", "a block", Ground::Ice, Some(PieceKind::Block)),
            glyph(
                "*",
                "a block on the target",
                Ground::Target,
                Some(PieceKind::Block),
            ),
            glyph("@", "the robot", Ground::Ice, Some(PieceKind::Player)),
        ],
        separator: "",
    },
};

/// A count as a JSON number (a float beyond `u64`).
fn big(n: u128) -> Value {
    u64::try_from(n).map_or_else(|_| json!(n as f64), |x| json!(x))
}

/// The face's difficulty of a PushPush board.
pub fn face_difficulty(d: &super::Difficulty) -> Difficulty {
    Difficulty::new("push-tree", d.value)
        .with("pushes", d.pushes)
        .with("possible_moves", big(d.possible_moves))
        .with("solutions", big(d.solutions))
}

impl Game for PushPush {
    type Level = Level;
    type Move = Push;
    type Position = Board;
    type Step = Push;

    fn info(&self) -> &'static Info {
        &INFO
    }

    fn parse(&self, text: &str, file: &str, _: Option<&str>) -> Result<Vec<Level>, Error> {
        Ok(board::parse(text, file)?
            .into_iter()
            .map(|board| Level {
                board,
                variant: Variant::default(),
            })
            .collect())
    }

    fn write(&self, levels: &[Level], _: Option<&str>) -> Result<String, Error> {
        let boards: Vec<Board> = levels.iter().map(|l| l.board.clone()).collect();
        Ok(board::write(&boards))
    }

    fn title<'a>(&self, level: &'a Level) -> Option<&'a str> {
        level.board.title.as_deref()
    }

    fn describe(&self, l: &Level) -> String {
        format!(
            "{}×{} PushPush board, {}, {}",
            l.board.rows(),
            l.board.cols(),
            plural(l.board.block_count(), "block", "blocks"),
            l.variant.name()
        )
    }

    fn configure(&self, level: &mut Level, params: &Params) -> Result<(), Error> {
        if let Some(k) = params.int("k") {
            level.variant = Variant::new(k as usize);
        }
        Ok(())
    }

    fn params(&self, level: &Level) -> Vec<(&'static str, Value)> {
        vec![("k", json!(level.variant.k))]
    }

    fn start(&self, level: &Level) -> Board {
        level.board.clone()
    }

    fn apply(&self, level: &Level, pos: &mut Board, m: &Push) -> Result<Push, String> {
        apply(pos, *m, level.variant).map_err(|e| e.to_string())?;
        Ok(*m)
    }

    fn solved(&self, _: &Level, pos: &Board) -> bool {
        is_solved(pos)
    }

    fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Push>, Error> {
        Ok(parse_pushes(text, file)?)
    }

    fn difficulty(
        &self,
        level: &Level,
        moves: &[Push],
        _: &[Push],
        _: u64,
    ) -> Result<Option<Difficulty>, Error> {
        let d = difficulty(&level.board, level.variant, moves.len() as u32)?;
        Ok(Some(face_difficulty(&d)))
    }

    fn position_text(&self, _: &Level, pos: &Board) -> String {
        pos.rows_text()
    }

    fn position_key(&self, _: &Level, pos: &Board) -> String {
        // blocks and the robot's region: walking within it changes nothing
        let blocks = pos.rows_text().replace('@', "-").replace('+', ".");
        match walkable(pos).iter().position(|&w| w) {
            Some(k) => format!(
                "{blocks}robot's region from {}\n",
                Pos::new(k / pos.cols(), k % pos.cols())
            ),
            None => blocks,
        }
    }

    fn core_pieces(&self, _: &Level, b: &Board) -> Option<CorePieces> {
        Some(CorePieces {
            kind: "blocks",
            cells: (0..b.cells())
                .map(|i| b.pos(i))
                .filter(|&p| b.has_block(p))
                .collect(),
            one: "can no longer be moved out of the robot's way",
            many: "can no longer be moved out of the robot's way",
            none: "the walls alone keep the robot from the target",
        })
    }

    fn restricted(
        &self,
        level: &Level,
        b: &Board,
        keep: &[Pos],
    ) -> Result<Vec<(Level, Board)>, Error> {
        let mut board = b.clone();
        for i in 0..b.cells() {
            let p = b.pos(i);
            if b.has_block(p) && !keep.contains(&p) {
                board.set_block(p, false)?;
            }
        }
        let level = Level {
            board: board.clone(),
            ..level.clone()
        };
        Ok(vec![(level, board)])
    }

    fn engine<T: Task<Push>>(
        &self,
        level: &Level,
        from: Option<&Board>,
        task: T,
    ) -> Result<T::Output, Error> {
        with_puzzle(from.unwrap_or(&level.board), level.variant, task)
    }

    fn dataset(
        &self,
        o: &crate::game::dataset::DatasetOptions,
    ) -> Result<crate::game::dataset::Dataset, Error> {
        super::sample::dataset(o)
    }
    fn action_count(&self, level: &Level) -> usize {
        level.board.rows() * level.board.cols() * 4
    }
    fn action(&self, level: &Level, m: &Push) -> Option<usize> {
        m.action(level.board.rows(), level.board.cols())
    }
    fn scene(&self, _: &Level, b: &Board) -> Scene {
        let mut s = Scene::new(b.rows(), b.cols(), "");
        for i in 0..b.cells() {
            let p = b.pos(i);
            s.set(
                to_rc(p),
                if b.is_wall(p) {
                    Ground::Wall
                } else if p == b.target() {
                    Ground::Target
                } else {
                    Ground::Ice
                },
            );
        }
        for i in 0..b.cells() {
            let p = b.pos(i);
            if b.has_block(p) {
                s.add(PieceKind::Block, to_rc(p));
            }
        }
        s.add(PieceKind::Player, to_rc(b.robot()));
        s
    }

    fn change(&self, _: &Level, before: &Board, m: &Push, _: &Push) -> Change {
        // the row of blocks from the pushed one, and how far it slides as one
        let (p, d) = (m.pos(), m.dir);
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
        let slides: Vec<Vec<(usize, usize)>> = row
            .iter()
            .map(|&b| {
                let mut end = b;
                for _ in 0..dist {
                    end = before.step(end, d).unwrap_or(end);
                }
                straight(to_rc(b), to_rc(end))
            })
            .collect();
        Change {
            arrow: slides.first().cloned().map(Arrow::Path),
            slides,
            actor: behind(p, d, before.rows(), before.cols()),
            ..Change::default()
        }
    }

    fn arrow(&self, _: &Level, pos: &Board, d: Dir, _: Option<Pos>) -> ArrowKey<Push, Board> {
        match pos.step(pos.robot(), d) {
            None => ArrowKey::Blocked("the edge of the board".into()),
            Some(n) if pos.is_wall(n) => ArrowKey::Blocked("a wall".into()),
            Some(n) if pos.has_block(n) => ArrowKey::Move(Push::new(n, d)),
            Some(n) => ArrowKey::walk(pos, |b| b.set_robot(n).map(|()| n)),
        }
    }

    fn hardest(&self, o: &HardestOptions, counts: &Counts) -> Result<HardestReport, Error> {
        let census = crate::generate::hardest::pushpush::PushPushHardest::from_counts(counts)?;
        crate::generate::hardest::pushpush::hardest(o, &census)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Status;
    use crate::ops::{level_of, Request, SolveOptions};

    #[test]
    fn solves_and_replays() {
        let r = level_of("pushpush", "@$--\n##-.\n")
            .solve(&SolveOptions::default())
            .unwrap();
        assert_eq!(r.length, Some(1));
        assert_eq!(r.pushes, Some(1));
        let r = level_of("pushpush", "@$#.\n")
            .solve(&SolveOptions::default())
            .unwrap();
        assert_eq!(r.status, Status::Unsolvable);
    }

    #[test]
    fn all_searches_agree() {
        let l = level_of("pushpush", "@-$-\n-$$-\n$--$\n-$.$\n");
        let want = l.solve(&SolveOptions::default()).unwrap().length;
        for a in ["astar", "idastar"] {
            let o = SolveOptions::default().algorithm(a);
            assert_eq!(l.solve(&o).unwrap().length, want, "{a}");
        }
        let b = board::parse("@-$-\n-$$-\n$--$\n-$.$\n", "t")
            .unwrap()
            .remove(0);
        struct Id;
        impl Task<Push> for Id {
            type Output = Option<u32>;
            fn run<E: crate::game::Engine<Public = Push>>(self, e: &E) -> Option<u32> {
                crate::search::iterative_deepening(e, 12)
            }
        }
        let id = with_puzzle(&b, Variant::default(), Id).unwrap();
        assert_eq!(id.map(u64::from), want);
    }

    #[test]
    fn difficulty_by_hand() {
        // 0 pushes: difficulty 0
        let d = difficulty(
            &board::parse("@-.\n", "t").unwrap()[0],
            Variant::default(),
            0,
        )
        .unwrap();
        assert_eq!((d.possible_moves, d.solutions, d.value), (0, 0, 0.0));
        // one push possible and it solves: difficulty 0
        let d = difficulty(
            &board::parse("@$--\n##-.\n", "t").unwrap()[0],
            Variant::default(),
            1,
        )
        .unwrap();
        assert_eq!((d.possible_moves, d.solutions, d.value), (1, 1, 0.0));
        // a corridor: either push ends with a block at an edge, the right one on the target,
        // which blocks do not stop and the robot cannot then enter
        let r = level_of("pushpush", "-$@$-.\n")
            .solve(&SolveOptions::default())
            .unwrap();
        assert_eq!(r.status, Status::Unsolvable);
        // a board with one right and one wrong first move: 2 edges, 1 solution → 2.5
        let r = level_of("pushpush", "#.#\n-$-\n$@-\n")
            .solve(&SolveOptions::default())
            .unwrap();
        let d = r.difficulty.unwrap();
        assert_eq!(r.length, Some(1));
        assert_eq!(d.measure, "push-tree");
        assert_eq!(
            (d.part_u64("possible_moves"), d.part_u64("solutions")),
            (Some(2), Some(1))
        );
        assert_eq!(d.value_f64(), 2.5);
    }

    #[test]
    fn the_k_parameter() {
        let req = Request::from_text("Game: pushpush(k=2)\n@$$--.\n", "t")
            .resolve()
            .unwrap();
        assert_eq!(req.level.params().0, vec![("k", json!(2))]);
        assert_eq!(
            req.level.solve(&SolveOptions::default()).unwrap().status,
            Status::Unsolvable
        );
        let k1 = req.level.configure(&Params::new().with("k", "1")).unwrap();
        assert_eq!(k1.params().0, vec![("k", json!(1))]);
    }
}
