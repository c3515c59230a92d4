//! `generate`: ice block levels made by Kluiver's retrograde generator.

use super::value::{duration, number, some, switch, within};
use super::{fields, missing, serde_text, Naming, Range};
use crate::error::Error;
use crate::game::MAX_FACTOR;
use crate::generate::retrograde::{self, GenParams};
use serde::Deserialize;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Rows and columns of a generated board.
pub const SIDE: Range = Range::new(1, 1024);
/// Targets and blocks of a generated board.
pub const BLOCKS: Range = Range::new(1, 1024);
/// Levels one run generates.
pub const COUNT: Range = Range::new(1, 1_000_000);
/// Levels wanted by default.
pub const DEFAULT_COUNT: usize = 1;
/// The fewest pushes a level keeps, by default.
pub const MIN_PUSHES: u64 = 3;
/// The block-change factor of the difficulty, by default.
pub const FACTOR: u64 = 5;
/// Positions one candidate's verification may store, by default.
pub const CANDIDATE_STATES: u64 = 2_000_000;

/// `generate`: the levels wanted.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Generate {
    /// Board rows (1 to 1,024; at most 1,024 cells).
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "R", required_unless_present = "report", value_parser = SIDE.usize())
    )]
    pub rows: Option<usize>,
    /// Board columns (1 to 1,024).
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "C", required_unless_present = "report", value_parser = SIDE.usize())
    )]
    pub cols: Option<usize>,
    /// Targets, 1 to 1,024 (each starts the generation with a block on it; default 1).
    #[cfg_attr(feature = "cli", arg(long, value_name = "T", value_parser = BLOCKS.usize()))]
    pub targets: Option<usize>,
    /// Most blocks on the board, 1 to 1,024: the targets' blocks plus stopper blocks
    /// (default: targets + 2).
    #[cfg_attr(feature = "cli", arg(long, value_name = "B", value_parser = BLOCKS.usize()))]
    pub max_blocks: Option<usize>,
    /// Keep levels whose fewest pushes are at least P.
    #[cfg_attr(feature = "cli", arg(long, value_name = "P", default_value_t = MIN_PUSHES))]
    pub min_pushes: u64,
    /// Keep levels whose fewest pushes are at most Q; the intended solutions have P to Q
    /// pushes (default: P to 2P, no upper bound on the fewest).
    #[cfg_attr(feature = "cli", arg(long, value_name = "Q"))]
    pub max_pushes: Option<u64>,
    /// Keep levels whose least difficulty (at --factor) is at least D.
    #[cfg_attr(feature = "cli", arg(long, value_name = "D"))]
    pub min_difficulty: Option<u64>,
    /// Block-change factor of the difficulty.
    #[cfg_attr(feature = "cli", arg(long, value_name = "F", default_value_t = FACTOR))]
    pub factor: u64,
    /// Keep only levels whose optimal solution is unique up to move order.
    #[cfg_attr(feature = "cli", arg(long))]
    pub unique: bool,
    /// Stoppers may also be walls.
    #[cfg_attr(feature = "cli", arg(long))]
    pub walls: bool,
    /// Levels wanted (1 to 1,000,000).
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "N", default_value_t = DEFAULT_COUNT, value_parser = COUNT.usize())
    )]
    pub count: usize,
    /// Seed: the same seed gives the same file.
    #[cfg_attr(feature = "cli", arg(long, value_name = "S", default_value_t = super::solve::SEED))]
    pub seed: u64,
}

impl Default for Generate {
    fn default() -> Generate {
        Generate {
            rows: None,
            cols: None,
            targets: None,
            max_blocks: None,
            min_pushes: MIN_PUSHES,
            max_pushes: None,
            min_difficulty: None,
            factor: FACTOR,
            unique: false,
            walls: false,
            count: DEFAULT_COUNT,
            seed: super::solve::SEED,
        }
    }
}

fields!(Generate {
    rows: some(within(SIDE)),
    cols: some(within(SIDE)),
    targets: some(within(BLOCKS)),
    max_blocks: some(within(BLOCKS)),
    min_pushes: number,
    max_pushes: some(number),
    min_difficulty: some(number),
    factor: number,
    unique: switch,
    walls: switch,
    count: within(COUNT),
    seed: number,
}; check needs_size);

impl Generate {
    /// The generator's request for these levels within `budget` (`stop`: a flag that stops
    /// it, as the web server's Stop does); messages name the parameters as `naming` does.
    pub fn request(
        &self,
        budget: &GenerateBudget,
        stop: Option<Arc<AtomicBool>>,
        naming: Naming,
    ) -> Result<retrograde::Request, Error> {
        let (Some(rows), Some(cols)) = (self.rows, self.cols) else {
            return Err(Error::invalid(format!(
                "give {} and {}",
                naming.of("rows"),
                naming.of("cols")
            )));
        };
        let targets = self.targets.unwrap_or(1);
        if let Some(q) = self.max_pushes {
            if q < self.min_pushes {
                return Err(Error::invalid(format!(
                    "{} {q} is below {} {}",
                    naming.of("max_pushes"),
                    naming.of("min_pushes"),
                    self.min_pushes
                )));
            }
        }
        if self.factor > MAX_FACTOR {
            return Err(Error::invalid(format!(
                "{} {}: at most {MAX_FACTOR}",
                naming.of("factor"),
                self.factor
            )));
        }
        // verifying a level of P pushes stores at least the P + 1 positions of its solution
        if budget.candidate_states <= self.min_pushes {
            return Err(Error::invalid(format!(
                "{} {} is too few for levels of {} or more pushes: verifying one stores at \
                 least the positions along its solution ({}); the default is {}",
                naming.of("candidate_states"),
                budget.candidate_states,
                self.min_pushes,
                self.min_pushes.saturating_add(1),
                crate::render::thousands(CANDIDATE_STATES)
            )));
        }
        // a push needs the player, the block and a cell beyond it in one line
        if self.min_pushes > 0 && rows < 3 && cols < 3 {
            return Err(Error::invalid(format!(
                "a {rows}×{cols} board has no level of {} or more pushes: a push needs three \
                 cells in a line (the player, the block and the cell it slides into); give \
                 {} or {} of 3 or more",
                self.min_pushes,
                naming.of("rows"),
                naming.of("cols")
            )));
        }
        if targets.saturating_add(1) > rows.saturating_mul(cols) {
            return Err(Error::invalid(format!(
                "{targets} targets, their blocks and the player do not fit a {rows}×{cols} \
                 board of {} cells",
                rows.saturating_mul(cols)
            )));
        }
        Ok(retrograde::Request {
            params: GenParams {
                rows,
                cols,
                targets,
                // the default, the targets and two more, is never more than the cells
                max_blocks: self
                    .max_blocks
                    .unwrap_or((targets + 2).min(rows.saturating_mul(cols))),
                pushes: 0,
                walls: self.walls,
            },
            min_pushes: self.min_pushes,
            max_pushes: self.max_pushes,
            min_difficulty: self.min_difficulty,
            factor: self.factor,
            unique: self.unique,
            count: self.count,
            seed: self.seed,
            deadline: budget.timeout.and_then(|t| Instant::now().checked_add(t)),
            max_states: budget.candidate_states,
            stop,
            progress: None,
        })
    }
}

/// Rows and columns are required.
fn needs_size(g: &Generate, _: &[String]) -> Result<(), String> {
    let m: Vec<&str> = [("rows", g.rows), ("cols", g.cols)]
        .into_iter()
        .filter(|(_, v)| v.is_none())
        .map(|(n, _)| n)
        .collect();
    if m.is_empty() {
        Ok(())
    } else {
        Err(missing(&m))
    }
}

/// `generate`: how long it may take, and what one candidate's verification may store.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct GenerateBudget {
    /// Give up after this long (exit code 1 with fewer levels than asked): seconds, or a
    /// number with ms, s, m or h.
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "TIME", value_parser = crate::search::parse_duration)
    )]
    #[serde(deserialize_with = "serde_text::duration")]
    pub timeout: Option<Duration>,
    /// Positions one candidate's verification may store; a candidate that needs more is
    /// dropped (not the run).
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "N", default_value_t = CANDIDATE_STATES, value_parser = positions)
    )]
    pub candidate_states: u64,
}

impl Default for GenerateBudget {
    fn default() -> GenerateBudget {
        GenerateBudget {
            timeout: None,
            candidate_states: CANDIDATE_STATES,
        }
    }
}

fields!(GenerateBudget {
    timeout: duration,
    candidate_states: positions,
});

/// A number of positions a search may store: 1 or more (0 would drop every candidate).
pub fn positions(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("give 1 or more positions (0 would drop every candidate)".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{s}' is not a number of positions")),
    }
}
