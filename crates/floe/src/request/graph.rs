//! The request of `floe graph` (`/api/graph`, `floe.graph`): the whole state graph of a level
//! as arrays ([`crate::ops::graph`]).

use super::operation::{Context, Operation};
use super::value::switch;
use super::{fields, LimitArgs};
use crate::error::Error;
use crate::game::Game;
use crate::ops::graph::{self, GraphReport, Parts};
use serde::Deserialize;

/// `floe graph`: every reachable position of a level and the moves between them.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct Graph {
    /// Each position's text (`--no-positions`, `positions=false`: only the distances, the
    /// masks and the edges). Text output shows none.
    #[cfg_attr(
        feature = "cli",
        arg(long = "no-positions", action = clap::ArgAction::SetFalse)
    )]
    pub positions: bool,
    /// Add each edge's move, in the form of `floe solve`'s moves.
    #[cfg_attr(feature = "cli", arg(long))]
    pub moves: bool,
    /// LimitArgs of the building of the graph (it is built whole or not at all).
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub limits: LimitArgs,
}

impl Default for Graph {
    fn default() -> Graph {
        Graph {
            positions: true,
            moves: false,
            limits: LimitArgs::default(),
        }
    }
}

fields!(
    Graph {
        positions: switch,
        moves: switch,
    } + limits
);

impl Operation for Graph {
    const NAME: &'static str = "graph";
    const ABOUT: &'static str =
        "The whole state graph of a level, as arrays: each position's distance \
         from the start, whether it is solved or can still be, the moves between positions \
         (compressed rows) and each position's text";
    type Report = GraphReport;

    fn run<G: Game>(
        &self,
        game: G,
        level: &G::Level,
        name: &str,
        cx: &Context,
    ) -> Result<GraphReport, Error> {
        let parts = Parts {
            positions: self.positions,
            moves: self.moves,
        };
        graph::graph(game, level, name, &cx.limits(&self.limits), parts)
    }

    fn text(&self, r: &GraphReport, _level: &crate::ops::Level) -> String {
        format!("{r}\n")
    }

    fn complete(r: &GraphReport) -> bool {
        r.complete
    }

    fn limits_mut(&mut self) -> Option<&mut LimitArgs> {
        Some(&mut self.limits)
    }

    fn for_text(&mut self) {
        self.positions = false;
        self.moves = false;
    }
}
