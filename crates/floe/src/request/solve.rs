//! Solving, verifying and drawing a level.

use super::value::{number, parsed, some, switch, text, within};
use super::{fields, serde_text, Fields, Range};
use crate::analysis::solvers::CapCount;
use serde::Deserialize;

/// BasicMC's random games per candidate move and step, by default.
pub const PLAYOUTS: u32 = crate::search::playout::KLUIVER_PLAYOUTS;
/// The seed of every random choice, by default.
pub const SEED: u64 = 1;
/// A* threads by default.
pub const THREADS: usize = 1;
/// The cell sizes of a picture, in pixels.
pub const CELL: Range = Range::new(4, 200);

/// Parameters of the randomised solvers.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Random {
    /// Move cap of the random algorithm (default: the game's, 1,000,000 for the sliding
    /// games) or of BasicMC (default 15). With `--algo astar`: look only for solutions of at
    /// most M moves, keeping only the positions that could lie on one; when there is none,
    /// the answer is the proof that the fewest moves exceed M (`"limit": "max-moves"`).
    #[cfg_attr(feature = "cli", arg(long, value_name = "M"))]
    pub max_moves: Option<u32>,
    /// BasicMC's random games per candidate move and step.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = PLAYOUTS, value_name = "N"))]
    pub playouts: u32,
    /// Seed of the random generator (the same seed gives the same run).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = SEED, value_name = "S"))]
    pub seed: u64,
    /// What a random game's cap counts: moves made (impossible draws are drawn again) or
    /// every draw, possible or not.
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value = "pushes", value_name = "pushes|attempts")
    )]
    #[serde(deserialize_with = "serde_text::parsed")]
    pub count: CapCount,
}

impl Default for Random {
    fn default() -> Random {
        Random {
            max_moves: None,
            playouts: PLAYOUTS,
            seed: SEED,
            count: CapCount::Pushes,
        }
    }
}

fields!(Random {
    max_moves: some(number),
    playouts: number,
    seed: number,
    count: parsed,
});

/// `solve`: the algorithm and its parameters.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Solve {
    /// The algorithm: the game's exact searches (bfs, astar, idastar; ice blocks also
    /// difficulty: least pushes + factor × block changes; BoxOff dfs) or Kluiver's
    /// randomised solvers random and mc (BasicMC), which may fail and prove nothing.
    /// Default: the game's fastest exact search.
    #[cfg_attr(feature = "cli", arg(long, value_name = "ALGO"))]
    pub algo: Option<String>,
    /// Parameters of random and mc.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub random: Random,
    /// Ice blocks: block-change factor of the difficulty (0 to 1,000,000,000; default 5).
    #[cfg_attr(feature = "cli", arg(long, value_name = "F"))]
    pub factor: Option<u64>,
    /// Worker threads of A* (astar), 1 to 256: each batch of positions is expanded by all
    /// of them. The answer (fewest moves, or the bound proved) does not depend on it.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = THREADS, value_name = "N"))]
    pub threads: usize,
}

impl Default for Solve {
    fn default() -> Solve {
        Solve {
            algo: None,
            random: Random::default(),
            factor: None,
            threads: THREADS,
        }
    }
}

impl Fields for Solve {
    fn names(&self, out: &mut Vec<&'static str>) {
        out.push("algo");
        self.random.names(out);
        out.extend(["factor", "threads"]);
    }
    fn set(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        Some(match name {
            "algo" => text(value).map(|v| self.algo = v),
            "factor" => some(number)(value).map(|v| self.factor = v),
            "threads" => number(value).map(|v| self.threads = v),
            _ => return self.random.set(name, value),
        })
    }
}

/// `verify`: how the difficulty of the moves is reported.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Verify {
    /// Ice blocks: block-change factor for the reported difficulty (default 5).
    #[cfg_attr(feature = "cli", arg(long, value_name = "F"))]
    pub factor: Option<u64>,
}

fields!(Verify {
    factor: some(number)
});

/// `render`: how a level is drawn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Render {
    /// Draw row and column numbers (the coordinates moves use).
    #[cfg_attr(feature = "cli", arg(long))]
    pub coords: bool,
    /// Cell size in pixels (4 to 200; default: chosen from the board's size).
    #[cfg_attr(feature = "cli", arg(long, value_name = "PX", value_parser = CELL.u32()))]
    pub cell: Option<u32>,
}

fields!(Render {
    coords: switch,
    cell: some(within(CELL)),
});
