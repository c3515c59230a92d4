//! The hardest PushPush boards of a size: the census ([`census`]) classifies every board of
//! the size at once and keeps the classes of the boards that need the most pushes; their
//! representatives are the answer, each solved again by [`report`](super::report).
//!
//! Without a count the answer is the hardest boards over every number of blocks (the whole
//! census). With [`PushPushHardest::blocks`] it is the hardest boards with exactly that many
//! blocks: a push keeps the number of blocks, so that is the census's layer of that many
//! blocks alone ([`census_layer`]), the same figures as the census's
//! [`hardest_by_blocks`](crate::games::pushpush::census::Census::hardest_by_blocks).

use super::{report, Candidate, Found};
use crate::error::Error;
use crate::game::hardest::{By, Counts, HardestOptions, HardestReport, Method};
use crate::game::Game;
use crate::games::pushpush::census::{
    boards_with, census, census_layer, layers, CensusOptions, CensusOutcome, LayerOutcome,
};
use crate::games::pushpush::level::{Level, PushPush};
use crate::games::pushpush::Variant;
use crate::search::LimitKind;
use serde_json::{json, Map};
use std::time::Instant;

/// What a PushPush search varies beside the size and the variant (`k`, a parameter): the
/// number of blocks, or none. Without it the census classifies every board of the size,
/// whatever its number of blocks, and the answer is the hardest of all; with it, the hardest
/// boards with exactly that many blocks. Other counts are refused by
/// [`PushPushHardest::from_counts`].
///
/// ```
/// use floe::game::hardest::{Counts, HardestOptions};
/// use floe::generate::hardest::pushpush::{hardest, PushPushHardest};
/// let r = hardest(&HardestOptions::new(3, 3), &PushPushHardest::default()).unwrap();
/// assert_eq!((r.levels[0].length, r.counts["boards"].as_u64()), (3, Some(18_432)));
/// // the hardest 3×4 boards with two blocks
/// let two = PushPushHardest::from_counts(&Counts::new().with("blocks", 2)).unwrap();
/// assert_eq!(two, PushPushHardest { blocks: Some(2) });
/// let r = hardest(&HardestOptions::new(3, 4), &two).unwrap();
/// assert_eq!(r.counts["blocks"].as_u64(), Some(2));
/// assert!(PushPushHardest::from_counts(&Counts::new().with("rocks", 2)).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PushPushHardest {
    /// Only boards with exactly this many blocks (from 1 to the cells − 1; none: every
    /// number of blocks).
    pub blocks: Option<usize>,
}

impl PushPushHardest {
    /// The names of its counts.
    pub const COUNTS: [&'static str; 1] = ["blocks"];

    /// The options named in `counts` (`blocks`, or none); a count of another game is
    /// refused by its flag.
    pub fn from_counts(counts: &Counts) -> Result<PushPushHardest, Error> {
        let [blocks] = counts.read("PushPush (it counts --blocks)", Self::COUNTS)?;
        Ok(PushPushHardest { blocks })
    }
}

/// `floe hardest pushpush`: the census's hardest classes (exact, by fewest pushes), each
/// representative verified; the report's counts are the census's `boards` and
/// `hardest_boards`. With `blocks`, only the census's layer of that many blocks: the counts
/// are `blocks`, the `boards` with that many blocks and the `hardest_boards` among them.
pub fn hardest(o: &HardestOptions, census_of: &PushPushHardest) -> Result<HardestReport, Error> {
    let t0 = Instant::now();
    o.check(PushPush.info())?;
    if o.method == Method::Anneal {
        return Err(Error::invalid(
            "PushPush's hardest boards come from its exact census; --anneal does not apply",
        ));
    }
    if o.by == By::Difficulty {
        return Err(Error::invalid(
            "PushPush's hardest boards are ranked by fewest pushes; --by difficulty does not apply",
        ));
    }
    let variant = Variant::new(o.params.int("k").map_or(1, |k| k.max(0) as usize));
    let mut co = CensusOptions::new(o.rows, o.cols);
    co.variant = variant;
    co.hardest = o.top;
    co.limits = o.limits.clone();
    if let Some(m) = o.limits.max_memory {
        co.max_bytes = m;
    }
    let stopped = |kind: LimitKind| {
        report(
            PushPush,
            o,
            Found {
                levels: Vec::new(),
                searched: 0,
                best_count: None,
                limit: Some(kind),
                exhaustive: false,
            },
            Map::new(),
            t0,
        )
    };
    let (boards, hardest, title) = match census_of.blocks {
        None => {
            let c = match census(&co)? {
                CensusOutcome::Done(c) => *c,
                CensusOutcome::Limit { kind, .. } => return stopped(kind),
            };
            let title = format!("hardest {}x{} {}", o.rows, o.cols, variant.name());
            (c.boards, c.hardest, title)
        }
        Some(k) => {
            let n = layers(&co)?.end;
            check_blocks(o, k, n)?;
            let layer = match census_layer(&co, k)? {
                LayerOutcome::Done(l) => *l,
                LayerOutcome::Limit { kind, .. } => return stopped(kind),
            };
            let solvable: u64 = layer.by_pushes.iter().sum();
            if solvable == 0 {
                return Err(Error::invalid(format!(
                    "--blocks {k}: no {}×{} board with {k} blocks is solvable",
                    o.rows, o.cols
                )));
            }
            let h = layer.hardest_boards(&co)?;
            if h.pushes == 0 {
                return Err(Error::invalid(format!(
                    "--blocks {k}: every solvable {}×{} board with {k} blocks is solved \
                     without a push",
                    o.rows, o.cols
                )));
            }
            let title = format!(
                "hardest {}x{} {}, {k} blocks",
                o.rows,
                o.cols,
                variant.name()
            );
            (boards_with(n as u64, k as u64), h, title)
        }
    };
    let pushes = u64::from(hardest.pushes);
    let levels = hardest
        .boards
        .iter()
        .map(|h| {
            let mut board = h.board.clone();
            board.title = Some(format!("{title}: {pushes} pushes"));
            let mut extra = Map::new();
            extra.insert("boards_in_class".into(), json!(h.boards_in_class));
            Candidate {
                level: Level { board, variant },
                length: pushes,
                difficulty: None,
                extra,
            }
        })
        .collect();
    let mut counts = Map::new();
    if let Some(k) = census_of.blocks {
        counts.insert("blocks".into(), json!(k));
    }
    counts.insert("boards".into(), json!(boards));
    counts.insert("hardest_boards".into(), json!(hardest.count));
    report(
        PushPush,
        o,
        Found {
            levels,
            searched: boards,
            best_count: Some(hardest.classes),
            limit: None,
            exhaustive: true,
        },
        counts,
        t0,
    )
}

/// Refuses a number of blocks that no board of `n` cells has beside its robot, and none.
fn check_blocks(o: &HardestOptions, k: usize, n: usize) -> Result<(), Error> {
    if k == 0 {
        return Err(Error::invalid(
            "--blocks 0: a board without blocks needs no push; give 1 block or more",
        ));
    }
    if k >= n {
        return Err(Error::invalid(format!(
            "--blocks {k}: a {}×{} board has {n} cells, room for at most {} blocks beside the \
             robot",
            o.rows,
            o.cols,
            n - 1
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pushpush::Board;
    use crate::grid::Pos;
    use crate::ops::{solve_typed, SolveOptions};
    use rayon::prelude::*;

    #[test]
    fn blocks_is_the_one_count() {
        assert_eq!(
            PushPushHardest::from_counts(&Counts::new()).unwrap(),
            PushPushHardest::default()
        );
        assert_eq!(
            PushPushHardest::from_counts(&Counts::new().with("blocks", 3)).unwrap(),
            PushPushHardest { blocks: Some(3) }
        );
        for name in ["rocks", "targets", "walls", "floor"] {
            let e = PushPushHardest::from_counts(&Counts::new().with(name, 1)).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("--{name} does not apply to PushPush (it counts --blocks)")
            );
        }
    }

    #[test]
    fn a_typed_call_is_checked_and_answers_as_the_erased_one() {
        let mut o = HardestOptions::new(3, 4);
        o.top = 2;
        let typed = hardest(&o, &PushPushHardest::default()).unwrap();
        let erased = crate::ops::hardest("pushpush", &o, &Counts::new()).unwrap();
        assert_eq!(typed.counts["boards"].as_u64(), Some(270_336));
        assert_eq!(typed.counts, erased.counts);
        assert_eq!(typed.level_lengths(), erased.level_lengths());
        assert_eq!(typed.levels[0].length, 5);
        let two = PushPushHardest { blocks: Some(2) };
        let typed = hardest(&o, &two).unwrap();
        let erased = crate::ops::hardest("pushpush", &o, &Counts::new().with("blocks", 2)).unwrap();
        assert_eq!(typed.counts, erased.counts);
        assert_eq!(typed.level_lengths(), erased.level_lengths());
        o.method = Method::Anneal;
        let e = hardest(&o, &PushPushHardest::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("--anneal does not apply"), "{e}");
        o.params.set("rules", "walk", "--rules");
        let e = hardest(&o, &PushPushHardest::default())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--rules does not apply to PushPush"), "{e}");
    }

    /// Per number of blocks, the most pushes any solvable board needs and how many boards
    /// need them, by solving every board of the size alone (robot, target, blocks) with the
    /// game's solver.
    fn brute_force(rows: usize, cols: usize) -> Vec<(u64, u64)> {
        let n = rows * cols;
        let pos = |i: usize| Pos::new(i / cols, i % cols);
        (0..n)
            .into_par_iter()
            .map(|robot| {
                let mut best = vec![(0u64, 0u64); n];
                for target in (0..n).filter(|&t| t != robot) {
                    for set in (0u32..1 << n).filter(|b| b >> robot & 1 == 0) {
                        let mut board = Board::new(rows, cols, pos(robot), pos(target)).unwrap();
                        for c in (0..n).filter(|c| set >> c & 1 == 1) {
                            board.set_block(pos(c), true).unwrap();
                        }
                        let level = Level {
                            board,
                            variant: Variant::default(),
                        };
                        let o = SolveOptions::default();
                        let Some(d) = solve_typed(PushPush, &level, &o).unwrap().length else {
                            continue;
                        };
                        let slot = &mut best[set.count_ones() as usize];
                        if d > slot.0 {
                            *slot = (d, 0);
                        }
                        if d == slot.0 {
                            slot.1 += 1;
                        }
                    }
                }
                best
            })
            .reduce(
                || vec![(0, 0); n],
                |a, b| {
                    a.iter()
                        .zip(&b)
                        .map(|(&x, &y)| match x.0.cmp(&y.0) {
                            std::cmp::Ordering::Less => y,
                            std::cmp::Ordering::Greater => x,
                            std::cmp::Ordering::Equal => (x.0, x.1 + y.1),
                        })
                        .collect()
                },
            )
    }

    /// The census's hardest boards per number of blocks, and `--blocks K`, against every
    /// board solved alone.
    fn check_by_blocks(rows: usize, cols: usize) {
        let n = rows * cols;
        let want = brute_force(rows, cols);
        let mut co = CensusOptions::new(rows, cols);
        co.hardest = 1000;
        let c = match census(&co).unwrap() {
            CensusOutcome::Done(c) => *c,
            other => panic!("{other:?}"),
        };
        assert_eq!(c.hardest_by_blocks.len(), n);
        let mut o = HardestOptions::new(rows, cols);
        o.top = 1000;
        for (k, (h, &(pushes, count))) in c.hardest_by_blocks.iter().zip(&want).enumerate() {
            let what = format!("{rows}×{cols}, {k} blocks");
            // a layer whose boards need no push lists none (as the census's hardest)
            let count = if pushes == 0 { 0 } else { count };
            assert_eq!((u64::from(h.pushes), h.count), (pushes, count), "{what}");
            // every class listed: their boards are all the hardest boards
            let in_classes: u64 = h.boards.iter().map(|b| b.boards_in_class).sum();
            assert_eq!(in_classes, count, "{what}");
            assert_eq!(h.boards.len() as u64, h.classes, "{what}");
            for b in &h.boards {
                assert_eq!(b.board.block_count(), k, "{what}");
            }
            if k == 0 || pushes == 0 {
                continue;
            }
            // --blocks K: the same boards, each solved again
            let r = hardest(&o, &PushPushHardest { blocks: Some(k) }).unwrap();
            assert_eq!(r.best_count, Some(h.classes), "{what}");
            assert_eq!(r.counts["blocks"].as_u64(), Some(k as u64), "{what}");
            assert_eq!(r.counts["hardest_boards"].as_u64(), Some(count), "{what}");
            assert_eq!(
                r.counts["boards"].as_u64(),
                Some(c.by_blocks[k].solvable + c.by_blocks[k].unsolvable),
                "{what}"
            );
            assert_eq!(r.levels.len(), h.boards.len(), "{what}");
            for (l, b) in r.levels.iter().zip(&h.boards) {
                assert_eq!(l.length, pushes, "{what}");
                assert!(
                    l.level.contains(&b.board.rows_text()),
                    "{what}: {}",
                    l.level
                );
            }
        }
        // the census's hardest are those of the layers that need the most pushes
        let most = c.hardest_by_blocks.iter().map(|h| h.pushes).max().unwrap();
        assert_eq!(c.hardest.pushes, most);
        let count: u64 = c
            .hardest_by_blocks
            .iter()
            .filter(|h| h.pushes == most)
            .map(|h| h.count)
            .sum();
        assert_eq!(c.hardest.count, count);
    }

    #[test]
    fn the_hardest_boards_of_each_number_of_blocks_are_those_of_every_board_solved_3x3() {
        check_by_blocks(3, 3);
    }

    #[test]
    fn the_hardest_boards_of_each_number_of_blocks_are_those_of_every_board_solved_3x4() {
        check_by_blocks(3, 4);
    }

    #[test]
    fn blocks_out_of_range_or_never_solvable_are_refused_by_the_flag() {
        let o = HardestOptions::new(3, 4);
        for (k, what) in [
            (0, "--blocks 0: a board without blocks needs no push"),
            (
                12,
                "--blocks 12: a 3×4 board has 12 cells, room for at most 11",
            ),
            (99, "--blocks 99: a 3×4 board has 12 cells"),
            (11, "--blocks 11: no 3×4 board with 11 blocks is solvable"),
        ] {
            let e = hardest(&o, &PushPushHardest { blocks: Some(k) })
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(what), "{k}: {e}");
        }
        // the size is checked before the count
        let e = hardest(
            &HardestOptions::new(6, 6),
            &PushPushHardest { blocks: Some(3) },
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("at most 32"), "{e}");
    }
}
