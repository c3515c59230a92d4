//! The request of `floe explain` (`/api/explain`, `floe.explain`): why the position after some
//! moves is lost — the move that lost it and a dead core ([`crate::ops::explain`]).

use super::operation::{Context, Operation};
use super::value::within;
use super::verify::{moves_text, Moves};
use super::{fields, LimitArgs, Range};
use crate::error::Error;
use crate::game::Game;
use crate::ops::explain::{self, Budget, Explained};
use crate::ops::Level;
use crate::say::{count, indent};
use serde::Deserialize;

/// Sets of pieces an explanation tries alone by default.
pub const SUBSETS: u64 = 10_000;
/// What `subsets` takes (listed in [`super::ranges::RANGES`]).
pub const SUBSETS_RANGE: Range = Range::new(1, 1_000_000_000);

/// `floe explain`: the moves played, and how far the search for a dead core may go.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Explain {
    /// The moves played from the start (a JSON list, a `floe solve --json` document, or one
    /// move per line; `-` reads standard input). Default: none, the start itself.
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "FILE", value_parser = Moves::file_or_none,
            default_value = "", hide_default_value = true)
    )]
    #[serde(deserialize_with = "moves_text")]
    pub moves: Moves,
    /// Sets of pieces tried alone at most (1 to 1,000,000,000; default 10,000): beyond it the
    /// answer is the smallest dead set found, not proved smallest.
    #[cfg_attr(
        feature = "cli",
        arg(long, value_name = "N", default_value_t = SUBSETS,
            value_parser = subsets, allow_negative_numbers = true)
    )]
    pub subsets: u64,
    /// Limits of every solve; the timeout bounds the whole explanation.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub limits: LimitArgs,
}

impl Default for Explain {
    fn default() -> Explain {
        Explain {
            moves: Moves::None,
            subsets: SUBSETS,
            limits: LimitArgs::default(),
        }
    }
}

/// `--subsets`, with the range in its message (as the server and Python say it).
#[cfg(feature = "cli")]
fn subsets(s: &str) -> Result<u64, String> {
    within(SUBSETS_RANGE)(s)
}

fields!(
    Explain {
        moves: Moves::text,
        subsets: within(SUBSETS_RANGE),
    } + limits
);

impl Operation for Explain {
    const NAME: &'static str = "explain";
    const ABOUT: &'static str = "Why a position is lost: the move that lost it, and a dead \
         core (the fewest blocks, targets, fires or rocks that cannot be solved on their own)";
    type Report = Explained;

    fn run<G: Game>(
        &self,
        game: G,
        level: &G::Level,
        name: &str,
        cx: &Context,
    ) -> Result<Explained, Error> {
        // none: the start itself
        let moves = match &self.moves {
            Moves::None => Vec::new(),
            given => given.parse(game, &cx.naming.of("moves"))?,
        };
        let budget = Budget {
            limits: cx.limits(&self.limits),
            subsets: self.subsets,
        };
        explain::explain(game, level, name, &moves, &budget)
    }

    fn complete(r: &Explained) -> bool {
        r.limit.is_none() && r.core.as_ref().is_none_or(|c| c.smallest)
    }

    fn stdin(&self) -> Option<&'static str> {
        self.moves.stdin()
    }

    fn limits_mut(&mut self) -> Option<&mut LimitArgs> {
        Some(&mut self.limits)
    }

    fn text(&self, r: &Explained, level: &Level) -> String {
        let info = level.game().info();
        let played = count(r.played, info.move_word, info.moves_word());
        let mut out = format!("{}: after {played}: {}\n", level.name(), r.sentence);
        if let Some(c) = &r.core {
            let cells: Vec<String> = c
                .cells
                .iter()
                .map(|p| format!("({}, {})", p.row, p.col))
                .collect();
            let one = c.kind.strip_suffix('s').unwrap_or(c.kind);
            let which = if cells.is_empty() {
                format!(
                    "none of the {} is needed to lose it",
                    count(c.pieces as u64, one, c.kind)
                )
            } else {
                format!(
                    "{} of the {}, {}",
                    cells.len(),
                    count(c.pieces as u64, one, c.kind),
                    cells.join(" ")
                )
            };
            let proof = match (c.smallest, cells.is_empty()) {
                (true, true) => "",
                (true, false) => ", the smallest (every smaller set can be solved alone)",
                (false, _) => ", not proved the smallest",
            };
            out.push_str(&format!(
                "dead core: {which}{proof}; {} tried alone{}\n",
                count(c.tried, "set", "sets"),
                match (&c.stopped, c.unknown) {
                    (Some(s), _) => format!(", stopped by {s}"),
                    (None, 0) => String::new(),
                    (None, n) => format!(", {n} left unknown by the limits"),
                }
            ));
        }
        out.push_str(&indent(&r.position));
        out
    }
}
