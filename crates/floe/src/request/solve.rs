//! Solving a level (`floe solve`, an [`Operation`]) and drawing one.

use super::operation::{Context, Operation};
use super::value::{number, parsed, some, switch, text, within};
use super::{fields, serde_text, Fields, LimitArgs, Range};
use crate::analysis::solvers::CapCount;
use crate::error::Error;
use crate::game::{Game, Info, SolveReport, Status};
use crate::ops::{Level, SolveOptions};
use crate::render::board::{animated_svg, arrows_svg, frames_svg, Style};
use crate::say::{count, indent, plural, seconds, thousands};
use crate::search::{stopped_by, Limits};
use serde::Deserialize;
use std::path::PathBuf;

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

/// `floe solve` (`/api/solve`, `floe.solve`): the algorithm, its parameters and limits.
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
    /// Print the board after every move.
    #[cfg_attr(feature = "cli", arg(long))]
    #[serde(skip)]
    pub boards: bool,
    /// Pictures of the solution.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(skip)]
    pub picture: SolutionPicture,
    /// Limits of the search.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub limits: LimitArgs,
}

impl Default for Solve {
    fn default() -> Solve {
        Solve {
            algo: None,
            random: Random::default(),
            factor: None,
            threads: THREADS,
            boards: false,
            picture: SolutionPicture::default(),
            limits: LimitArgs::default(),
        }
    }
}

/// The picture of a solution that `floe solve --svg` writes: the command line's own flags,
/// absent from the request's [`Fields`] (the server draws with `/api/picture`, Python with
/// `Solution.svg`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct SolutionPicture {
    /// Draw the solution as an SVG picture: the start with each move as a numbered arrow.
    #[cfg_attr(feature = "cli", arg(long, value_name = "FILE"))]
    pub svg: Option<PathBuf>,
    /// With --svg: one small board per move (before it, with its arrow) and the end, in rows.
    #[cfg_attr(
        feature = "cli",
        arg(long, requires = "svg", conflicts_with = "animate")
    )]
    pub frames: bool,
    /// With --svg: an animated SVG that plays the solution in a loop in a browser.
    #[cfg_attr(feature = "cli", arg(long, requires = "svg"))]
    pub animate: bool,
    /// With --svg: draw row and column numbers.
    #[cfg_attr(feature = "cli", arg(long, requires = "svg"))]
    pub coords: bool,
}

impl Fields for Solve {
    fn names(&self, out: &mut Vec<&'static str>) {
        out.push("algo");
        self.random.names(out);
        out.extend(["factor", "threads"]);
        self.limits.names(out);
    }
    fn set(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        Some(match name {
            "algo" => text(value).map(|v| self.algo = v),
            "factor" => some(number)(value).map(|v| self.factor = v),
            "threads" => number(value).map(|v| self.threads = v),
            _ => {
                return self
                    .random
                    .set(name, value)
                    .or_else(|| self.limits.set(name, value))
            }
        })
    }
}

impl Solve {
    /// The options of the solve within `limits`.
    pub fn options(&self, limits: Limits) -> SolveOptions {
        SolveOptions {
            algorithm: self.algo.clone(),
            factor: self.factor,
            limits,
            seed: self.random.seed,
            max_moves: self.random.max_moves,
            playouts: self.random.playouts,
            count: self.random.count,
            difficulty: true,
            threads: self.threads,
        }
    }
}

impl Operation for Solve {
    const NAME: &'static str = "solve";
    const ABOUT: &'static str = "Solve a level of any game: fewest moves (bfs, astar, \
         idastar, the game's default), least difficulty (ice blocks), or Kluiver's randomised \
         solvers (random, mc)";
    type Report = SolveReport;

    fn run<G: Game>(
        &self,
        game: G,
        level: &G::Level,
        name: &str,
        cx: &Context,
    ) -> Result<SolveReport, Error> {
        let o = self.options(cx.limits(&self.limits));
        crate::ops::solve::solve(game, level, name, None, &o)
    }

    fn complete(r: &SolveReport) -> bool {
        r.status.answered()
    }

    fn limits_mut(&mut self) -> Option<&mut LimitArgs> {
        Some(&mut self.limits)
    }

    fn text(&self, r: &SolveReport, level: &Level) -> String {
        let mut out = format!("{}: {}\n", level.name(), level.describe());
        solve_text(&mut out, r, level.game().info(), self.boards);
        out
    }

    fn write_files(&self, r: &SolveReport, cx: &Context) -> Result<Option<String>, Error> {
        let p = &self.picture;
        let Some(path) = &p.svg else {
            return Ok(None);
        };
        let Some(story) = r.story() else {
            cx.say(&format!(
                "no solution, so no picture written to {}",
                path.display()
            ));
            return Ok(None);
        };
        let story = story?;
        let style = Style {
            coords: p.coords,
            cell: 0,
        };
        let (svg, what) = if p.frames {
            (frames_svg(&story, &style), "frames")
        } else if p.animate {
            (animated_svg(&story, &style), "animation")
        } else {
            (arrows_svg(&story, &style), "arrows")
        };
        crate::mem::write_whole(path, svg)?;
        Ok(Some(format!(
            "picture ({what}, {}): {}",
            plural(story.acts.len(), "move", "moves"),
            path.display()
        )))
    }
}

/// The text of a solve's report, after the level's line.
fn solve_text(out: &mut String, r: &SolveReport, info: &Info, boards: bool) {
    use std::fmt::Write;
    let word = info.moves_word();
    let explored = format!(
        "{} explored in {}",
        count(r.states, "position", "positions"),
        seconds(r.seconds)
    );
    let how = info
        .algorithm(&r.algorithm)
        .map_or_else(|| r.algorithm.clone(), |a| a.about.to_string());
    let random = r.details.random();
    let _ = match r.status {
        Status::Solved => {
            let n = r.length.unwrap_or(0);
            let _ = write!(out, "solved ({how}): {}", count(n, info.move_word, word));
            if let Some(d) = &r.difficulty {
                let _ = write!(out, ", {d}");
            }
            out.push('\n');
            let positions = if boards { r.boards() } else { Vec::new() };
            if let Some(b) = positions.first() {
                out.push_str(&indent(b));
            }
            for (i, s) in r.steps.iter().enumerate() {
                let _ = writeln!(out, "{:>4}. {s}", i + 1);
                if let Some(b) = positions.get(i + 1) {
                    out.push_str(&indent(b));
                }
            }
            if random.is_none() {
                let _ = writeln!(out, "{explored}");
            }
            Ok(())
        }
        Status::Unsolvable => match &r.note {
            Some(n) => writeln!(out, "no solution: {n}"),
            None => writeln!(
                out,
                "no solution: every reachable position was explored ({explored})"
            ),
        },
        Status::Limit if random.is_none() => writeln!(
            out,
            "no answer: stopped {} at depth {}; at least {} are needed ({explored})",
            stopped_by(r.limit.unwrap_or("limit")),
            r.depth,
            count(u64::from(r.lower_bound.unwrap_or(0)), info.move_word, word)
        ),
        Status::Limit | Status::GaveUp => {
            writeln!(out, "{}", r.note.as_deref().unwrap_or("no solution found"))
        }
    };
    if let Some(d) = random {
        let _ = writeln!(
            out,
            "{} random draws, {} in {}",
            thousands(d.attempts),
            count(d.playouts, "game", "games"),
            seconds(r.seconds)
        );
    }
}

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
