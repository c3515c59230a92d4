//! Ice blocks behind the game face.

use super::engine::{with_puzzle, Face, FaceFrom};
use super::format::{self, Format};
use super::level::{Cell, Ice, Level, WalkRule};
use super::validate::{self, Position, Step};
use crate::error::Error;
use crate::game::hardest::{Counts, HardestOptions, HardestReport};
use crate::game::{
    choices, glyph, kluiver, Algo, AlgoMethod, ArrowKey, Capabilities, Cells, CorePieces,
    Difficulty, Game, Info, Keys, Learning, Param, ParamKind, Params, Sample, Task,
};
use crate::grid::{parse_pushes, Dir, Pos, Push, PUSH_ACTIONS};
use crate::render::plural;
use crate::scene::{behind, straight, to_rc, Arrow, Change, Ground, PieceKind, Scene};
use serde_json::{json, Value};

static INFO: Info = Info {
    name: "ice",
    aliases: &["iceblocks", "iceblock", "zelda"],
    title: "ice blocks",
    about: "Zelda-style ice blocks: push blocks that slide until stopped onto every target",
    rules: "Goal: a block on every target. Select a block and push it up, down, left or right \
            from a cell behind it that the player can reach: it slides over ice and targets until \
            a wall, another block, normal floor or the board's edge stops it.",
    sample: Sample {
        text: include_str!("sample.txt"),
        fewest: 2,
    },
    params: &[Param {
        name: "rules",
        about: "walking rule: free (the player reaches every side of every block) or walk \
                (he walks around blocks and walls); default: the level's Rules: line, else free",
        kind: ParamKind::Choice(&["free", "walk"]),
    }],
    formats: &["floe", "kluiver"],
    move_word: "push",
    algorithms: &[
        Algo::bfs("fewest pushes, breadth-first search"),
        Algo {
            name: "difficulty",
            aliases: &["least-difficulty", "dijkstra", "p-bfs", "pbfs"],
            method: AlgoMethod::LeastChanges,
            about: "least difficulty, Dijkstra",
        },
        Algo::astar("fewest pushes, A*"),
        Algo::idastar(1 << 22, "fewest pushes, IDA*"),
    ],
    random_moves: 1_000_000,
    capabilities: Capabilities {
        perfect_hash: true,
        difficulty: Some("kluiver"),
        block_changes: true,
        keys: Keys::SelectBlock,
        learning: Some(&Learning {
            env: "Ice",
            planes: &["wall", "floor", "ice", "target", "block", "player"],
            actions: PUSH_ACTIONS,
        }),
    },
    cells: Cells {
        glyphs: &[
            glyph("-", "ice", Ground::Ice, None),
            glyph("=", "normal floor (blocks stop on it)", Ground::Floor, None),
            glyph("#", "a wall", Ground::Wall, None),
            glyph(".", "a target", Ground::Target, None),
            glyph("$", "a block", Ground::Ice, Some(PieceKind::Block)),
            glyph(
                "*",
                "a block on a target",
                Ground::Target,
                Some(PieceKind::Block),
            ),
            glyph(
                "@",
                "the player (walk rule)",
                Ground::Ice,
                Some(PieceKind::Player),
            ),
            glyph(
                "+",
                "the player on a target (walk rule)",
                Ground::Target,
                Some(PieceKind::Player),
            ),
        ],
        separator: "",
    },
};

fn rule_of(level: &Level) -> WalkRule {
    level.rules.unwrap_or_default()
}

impl Game for Ice {
    type Level = Level;
    type Move = Push;
    type Position = Position;
    type Step = Step;

    fn info(&self) -> &'static Info {
        &INFO
    }

    fn parse(&self, text: &str, file: &str, format: Option<&str>) -> Result<Vec<Level>, Error> {
        let format = format
            .map(|f| f.parse::<Format>().map_err(Error::invalid))
            .transpose()?;
        let mut levels = format::parse(text, file, format)?;
        format::name_after_file(&mut levels, file);
        Ok(levels)
    }

    fn write(&self, levels: &[Level], format: Option<&str>) -> Result<String, Error> {
        match format
            .map(str::parse::<Format>)
            .transpose()
            .map_err(Error::invalid)?
        {
            None | Some(Format::Floe) => Ok(format::write_floe(levels)),
            Some(Format::Kluiver) => format::write_kluiver(levels),
        }
    }

    fn title<'a>(&self, level: &'a Level) -> Option<&'a str> {
        level.title.as_deref()
    }

    fn describe(&self, l: &Level) -> String {
        format!(
            "{}×{} board, {}, {}, rules {}",
            l.rows(),
            l.cols(),
            plural(l.block_count(), "block", "blocks"),
            plural(l.target_count(), "target", "targets"),
            rule_of(l)
        )
    }

    fn configure(&self, level: &mut Level, params: &Params) -> Result<(), Error> {
        if let Some(r) = params.get("rules") {
            level.rules = Some(r.parse().map_err(Error::invalid)?);
        }
        Ok(())
    }

    fn params(&self, level: &Level) -> Vec<(&'static str, Value)> {
        vec![("rules", json!(rule_of(level).name()))]
    }

    fn start(&self, level: &Level) -> Position {
        Position::start(level)
    }

    fn apply(&self, level: &Level, pos: &mut Position, m: &Push) -> Result<Step, String> {
        validate::step(pos, rule_of(level), *m).map_err(|e| e.to_string())
    }

    fn solved(&self, _: &Level, pos: &Position) -> bool {
        pos.board.is_solved()
    }

    fn parse_moves(&self, text: &str, file: &str) -> Result<Vec<Push>, Error> {
        Ok(parse_pushes(text, file)?)
    }

    fn difficulty(
        &self,
        _: &Level,
        moves: &[Push],
        steps: &[Step],
        factor: u64,
    ) -> Result<Option<Difficulty>, Error> {
        let changes = steps.iter().filter(|s| s.block_change).count() as u64;
        Ok(Some(kluiver(moves.len() as u64, changes, factor)))
    }

    fn position_text(&self, level: &Level, pos: &Position) -> String {
        let mut s = String::new();
        let walk = rule_of(level) == WalkRule::Walk;
        let b = &pos.board;
        for r in 0..b.rows() {
            for c in 0..b.cols() {
                let p = Pos::new(r, c);
                let man = walk && pos.player == Some(p);
                s.push(match (b.cell(p), b.has_block(p), man) {
                    (Cell::Target, true, _) => '*',
                    (Cell::Target, false, true) => '+',
                    (Cell::Target, false, false) => '.',
                    (_, true, _) => '$',
                    (Cell::Floor, ..) => '=',
                    (Cell::Wall, ..) => '#',
                    (_, false, true) => '@',
                    _ => '-',
                });
            }
            s.push('\n');
        }
        s
    }

    fn position_key(&self, level: &Level, pos: &Position) -> String {
        // under `walk` the player's cell matters; under `free` nothing but the blocks
        let text = self.position_text(level, pos);
        if rule_of(level) != WalkRule::Walk {
            return text;
        }
        match pos.player {
            Some(p) => format!("{text}player at {p}\n"),
            None => format!("{text}no player\n"),
        }
    }

    fn core_pieces(&self, _: &Level, pos: &Position) -> Option<CorePieces> {
        let b = &pos.board;
        Some(if b.block_count() == b.target_count() {
            // every block must end on a target: a dead core is blocks
            CorePieces {
                kind: "blocks",
                cells: b.blocks().collect(),
                one: "can no longer reach a target",
                many: "can no longer all reach targets of their own",
                none: "no block can be spared: the targets cannot all be filled",
            }
        } else {
            CorePieces {
                kind: "targets",
                cells: b.targets().collect(),
                one: "can no longer get a block",
                many: "can no longer all get blocks",
                none: "the targets cannot all be filled",
            }
        })
    }

    fn restricted(
        &self,
        level: &Level,
        pos: &Position,
        keep: &[Pos],
    ) -> Result<Vec<(Level, Position)>, Error> {
        let b = &pos.board;
        let targets: Vec<Pos> = b.targets().collect();
        // `blocks` on the board, and only the targets `wanted`
        let only = |blocks: &[Pos], wanted: &[Pos]| -> Result<(Level, Position), Error> {
            let mut l = level.clone();
            let mut board = b.with_blocks(blocks)?;
            for &t in targets.iter().filter(|t| !wanted.contains(t)) {
                l.set_cell(t, Cell::Ice)?;
                board.set_cell(t, Cell::Ice)?;
            }
            let player = pos.player;
            Ok((
                l,
                Position {
                    board,
                    player,
                    last: None,
                },
            ))
        };
        if b.block_count() == b.target_count() {
            // each kept block on a target of its own: one level per choice of targets
            choices(&targets, keep.len())
                .iter()
                .map(|wanted| only(keep, wanted))
                .collect()
        } else {
            let blocks: Vec<Pos> = b.blocks().collect();
            Ok(vec![only(&blocks, keep)?])
        }
    }

    fn engine<T: Task<Push>>(
        &self,
        level: &Level,
        from: Option<&Position>,
        task: T,
    ) -> Result<T::Output, Error> {
        let rule = rule_of(level);
        match from {
            None => with_puzzle(level, rule, Face(task)),
            Some(pos) => {
                let blocks: Vec<Pos> = pos.board.blocks().collect();
                with_puzzle(
                    level,
                    rule,
                    FaceFrom {
                        task,
                        blocks: &blocks,
                        player: pos.player,
                    },
                )?
            }
        }
    }

    fn scene(&self, level: &Level, pos: &Position) -> Scene {
        let b = &pos.board;
        let mut s = Scene::new(b.rows(), b.cols(), "");
        for p in b.positions() {
            let g = match b.cell(p) {
                Cell::Ice => Ground::Ice,
                Cell::Target => Ground::Target,
                Cell::Floor => Ground::Floor,
                Cell::Wall => Ground::Wall,
            };
            s.set(to_rc(p), g);
        }
        for p in b.blocks() {
            s.add(PieceKind::Block, to_rc(p));
        }
        // the player is drawn where the level puts him (and where he pushed from, in play)
        if let Some(p) = pos
            .player
            .filter(|&p| b.cell(p).holds_blocks() && !b.has_block(p))
        {
            if level.player().is_some() || rule_of(level) == WalkRule::Walk {
                s.add(PieceKind::Player, to_rc(p));
            }
        }
        s
    }

    fn change(&self, level: &Level, _: &Position, m: &Push, step: &Step) -> Change {
        let path = straight(to_rc(m.pos()), to_rc(step.to));
        Change {
            slides: vec![path.clone()],
            actor: behind(m.pos(), m.dir, level.rows(), level.cols()),
            arrow: Some(Arrow::Path(path)),
            ..Change::default()
        }
    }

    fn arrow(
        &self,
        _: &Level,
        _: &Position,
        dir: Dir,
        selected: Option<Pos>,
    ) -> ArrowKey<Push, Position> {
        match selected {
            Some(b) => ArrowKey::Move(Push::new(b, dir)),
            None => ArrowKey::Nothing,
        }
    }

    fn selectable(&self, _: &Level, pos: &Position) -> Vec<Pos> {
        pos.board.blocks().collect()
    }

    fn rests(&self, step: &Step) -> Option<Pos> {
        Some(step.to)
    }

    fn action_count(&self, level: &Level) -> usize {
        level.rows() * level.cols() * 4
    }
    fn action(&self, level: &Level, m: &Push) -> Option<usize> {
        m.action(level.rows(), level.cols())
    }
    fn moved_block(&self, m: &Push) -> Option<Pos> {
        Some(m.pos())
    }

    fn hardest(&self, o: &HardestOptions, counts: &Counts) -> Result<HardestReport, Error> {
        let room = crate::generate::hardest::ice::IceHardest::from_counts(counts)?;
        crate::generate::hardest::ice::hardest(o, &room)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{Request, SolveOptions};
    use crate::render::board::{animated_svg, arrows_svg, frames_svg, Style};

    fn count(svg: &str, tag: &str, class: &str) -> usize {
        let doc = roxmltree::Document::parse(svg).expect("well-formed");
        doc.descendants()
            .filter(|n| n.has_tag_name(tag))
            .filter(|n| class.is_empty() || n.attribute("class") == Some(class))
            .count()
    }

    #[test]
    fn an_ice_solution_in_three_pictures() {
        let req = Request::from_text("#####\n=$-.#\n#####\n", "t")
            .resolve()
            .unwrap();
        let moves = req.level.parse_moves("1 1 right", "m").unwrap();
        let story = req.level.story(&moves).unwrap();
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
        // the same story from the solver's report
        let r = req.level.solve(&SolveOptions::default()).unwrap();
        assert_eq!(r.story().unwrap().unwrap(), story);
    }

    #[test]
    fn the_rules_parameter_and_the_position_key() {
        let req = Request::from_text("Rules: walk\n$-.\n", "t")
            .resolve()
            .unwrap();
        assert_eq!(req.level.params().0, vec![("rules", json!("walk"))]);
        let free = req
            .level
            .configure(&Params::new().with("rules", "free"))
            .unwrap();
        assert_eq!(free.params().0, vec![("rules", json!("free"))]);
        assert!(req
            .level
            .configure(&Params::new().with("rules", "fly"))
            .is_err());
    }
}
