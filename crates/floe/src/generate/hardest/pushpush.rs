//! The hardest PushPush boards of a size: the census ([`census`]) classifies every board of
//! the size at once and keeps the classes of the boards that need the most pushes; their
//! representatives are the answer, each solved again by [`report`](super::report).
//!
//! The census counts every number of blocks at once, so [`PushPushHardest`] has no count: a
//! program calls [`hardest`] with it, and the erased face refuses every named count.

use super::{report, Candidate, Found};
use crate::error::Error;
use crate::game::hardest::{By, Counts, HardestOptions, HardestReport, Method};
use crate::game::Game;
use crate::games::pushpush::census::{census, CensusOptions, CensusOutcome};
use crate::games::pushpush::level::{Level, PushPush};
use crate::games::pushpush::Variant;
use serde_json::{json, Map};
use std::time::Instant;

/// What a PushPush search varies beside the size and the variant (`k`, a parameter): nothing.
/// Its census classifies every board of the size, whatever its number of blocks, so it takes
/// no count (`--blocks` and the others are refused by [`PushPushHardest::from_counts`]).
///
/// ```
/// use floe::game::hardest::{Counts, HardestOptions};
/// use floe::generate::hardest::pushpush::{hardest, PushPushHardest};
/// let r = hardest(&HardestOptions::new(3, 3), &PushPushHardest).unwrap();
/// assert_eq!((r.levels[0].length, r.counts["boards"].as_u64()), (3, Some(18_432)));
/// assert!(PushPushHardest::from_counts(&Counts::new().with("blocks", 2)).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PushPushHardest;

impl PushPushHardest {
    /// The names of its counts: none.
    pub const COUNTS: [&'static str; 0] = [];

    /// The options, when `counts` names none: every count is refused by its flag.
    pub fn from_counts(counts: &Counts) -> Result<PushPushHardest, Error> {
        let [] = counts.read(
            "PushPush (its census counts every number of blocks at once)",
            Self::COUNTS,
        )?;
        Ok(PushPushHardest)
    }
}

/// `floe hardest pushpush`: the census's hardest classes (exact, by fewest pushes), each
/// representative verified; the report's counts are the census's `boards` and
/// `hardest_boards`.
pub fn hardest(o: &HardestOptions, _census: &PushPushHardest) -> Result<HardestReport, Error> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_census_takes_no_count() {
        assert_eq!(
            PushPushHardest::from_counts(&Counts::new()).unwrap(),
            PushPushHardest
        );
        for name in ["rocks", "blocks", "targets", "walls", "floor"] {
            let e = PushPushHardest::from_counts(&Counts::new().with(name, 1)).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "--{name} does not apply to PushPush (its census counts every number of \
                     blocks at once)"
                )
            );
        }
    }

    #[test]
    fn a_typed_call_is_checked_and_answers_as_the_erased_one() {
        let mut o = HardestOptions::new(3, 4);
        o.top = 2;
        let typed = hardest(&o, &PushPushHardest).unwrap();
        let erased = crate::ops::hardest("pushpush", &o, &Counts::new()).unwrap();
        assert_eq!(typed.counts["boards"].as_u64(), Some(270_336));
        assert_eq!(typed.counts, erased.counts);
        assert_eq!(typed.level_lengths(), erased.level_lengths());
        assert_eq!(typed.levels[0].length, 5);
        o.method = Method::Anneal;
        let e = hardest(&o, &PushPushHardest).unwrap_err().to_string();
        assert!(e.contains("--anneal does not apply"), "{e}");
        o.params.set("rules", "walk", "--rules");
        let e = hardest(&o, &PushPushHardest).unwrap_err().to_string();
        assert!(e.starts_with("--rules does not apply to PushPush"), "{e}");
    }
}
