//! The hardest PushPush boards of a size: the census ([`census`]) classifies every board of
//! the size at once and keeps the classes of the boards that need the most pushes; their
//! representatives are the answer, each solved again by [`report`](super::report).

use super::{report, Candidate, Found};
use crate::error::Error;
use crate::game::hardest::{By, HardestOptions, HardestReport, Method};
use crate::games::pushpush::census::{census, CensusOptions, CensusOutcome};
use crate::games::pushpush::level::{Level, PushPush};
use crate::games::pushpush::Variant;
use serde_json::{json, Map};
use std::time::Instant;

/// `floe hardest pushpush`: the census's hardest classes.
pub fn hardest(o: &HardestOptions) -> Result<HardestReport, Error> {
    let t0 = Instant::now();
    o.refuse(
        "PushPush (its census counts every number of blocks at once)",
        &[
            ("rocks", o.rocks.is_some()),
            ("blocks", o.blocks.is_some()),
            ("targets", o.targets.is_some()),
            ("walls", o.walls.is_some()),
            ("floor", o.floor.is_some()),
        ],
    )?;
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
    let c = match census(&co)? {
        CensusOutcome::Done(c) => *c,
        CensusOutcome::Limit { kind, .. } => {
            return report(
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
        }
    };
    let pushes = u64::from(c.hardest.pushes);
    let levels = c
        .hardest
        .boards
        .iter()
        .map(|h| {
            let mut board = h.board.clone();
            board.title = Some(format!(
                "hardest {}x{} {}: {pushes} pushes",
                o.rows,
                o.cols,
                variant.name()
            ));
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
    counts.insert("boards".into(), json!(c.boards));
    counts.insert("hardest_boards".into(), json!(c.hardest.count));
    report(
        PushPush,
        o,
        Found {
            levels,
            searched: c.boards,
            best_count: Some(c.hardest.classes),
            limit: None,
            exhaustive: true,
        },
        counts,
        t0,
    )
}
