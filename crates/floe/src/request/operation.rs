//! An operation written once for every game and every front end.
//!
//! An [`Operation`] is its own request: a plain struct with its defaults, whose [`Fields`]
//! table reads it from named text values (query parameters, Python keywords) and which, with
//! the `cli` feature, derives `clap::Args`. [`Operation::run`] is written once over
//! [`Game`]; [`Level::run`] runs it on a level of any game of the registry. The list of
//! operations, [`crate::operations!`], is what the front ends expand: the command line makes
//! a command of each (`floe <name>`), the web server an endpoint (`/api/<name>`), the Python
//! module a call (`floe.<name>(level, …)`). Adding one is its module under `ops/` and a line
//! in that list (ARCHITECTURE.md, "Recipes").

use super::{Fields, LimitArgs};
use crate::error::Error;
use crate::game::Game;
use crate::ops::level::{LevelOf, Visit};
use crate::ops::Level;
use crate::search::{Limits, ProgressFn};
use serde::Serialize;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What the front end adds to a run: a stop flag (a stop button, a closed connection) and a
/// progress callback (a spinner, a Python callback). Ctrl-C stops every run anyway.
#[derive(Clone, Default)]
pub struct Context {
    /// Stop when this flag is set.
    pub stop: Option<Arc<AtomicBool>>,
    /// Called now and then with what has been explored.
    pub progress: Option<ProgressFn>,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("stop", &self.stop.is_some())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Context {
    /// The search limits of `request` with this context's stop flag and progress callback.
    pub fn limits(&self, request: &LimitArgs) -> Limits {
        Limits {
            stop: self.stop.clone(),
            progress: self.progress.clone(),
            ..request.limits()
        }
    }
}

/// An operation on one level of any game: the request (this struct) and its answer.
pub trait Operation: Fields + Default + Clone + fmt::Debug + Send + Sync + 'static {
    /// Its name: the command `floe <name>`, the endpoint `/api/<name>`, the Python call.
    const NAME: &'static str;
    /// What it does, in one line (the command's help).
    const ABOUT: &'static str;
    /// Its answer: serialised as the JSON of every front end, written as text by the command
    /// line.
    type Report: Serialize + fmt::Display + Send;
    /// Runs it on `level`, a level of `game` named `name`.
    fn run<G: Game>(
        &self,
        game: G,
        level: &G::Level,
        name: &str,
        cx: &Context,
    ) -> Result<Self::Report, Error>;
    /// Whether the answer is complete (exit code 0) rather than stopped by a limit (1).
    fn complete(_report: &Self::Report) -> bool {
        true
    }
    /// Its limits, when it takes some: the server caps them.
    fn limits_mut(&mut self) -> Option<&mut LimitArgs> {
        None
    }
    /// Leaves out what the command's text does not show (the command line calls it before a
    /// run whose report is printed as text).
    fn for_text(&mut self) {}
    /// The names of the parameters it takes, in order.
    fn parameters() -> Vec<&'static str> {
        let mut names = Vec::new();
        Self::default().names(&mut names);
        names
    }
    /// The request read from named text values (query parameters, Python keywords: `_` or
    /// `-` in names); `what` names the caller in messages (`/api/graph`, `floe.graph()`),
    /// `own` the parameters the caller reads itself (listed as taken, never given here).
    fn from_pairs(pairs: &[(String, String)], what: &str, own: &[&str]) -> Result<Self, String> {
        let mut op = Self::default();
        super::read(pairs, what, &mut [&mut op], own, &[])?;
        Ok(op)
    }
}

impl Level {
    /// Runs `op` on this level, whatever its game.
    ///
    /// ```
    /// use floe::ops::Request;
    /// use floe::request::{Context, Graph};
    /// let req = Request::from_text("$---\n---.\n", "tiny").resolve().unwrap();
    /// let g = req.level.run(&Graph::default(), &Context::default()).unwrap();
    /// assert!(g.complete && g.nearest_solved == Some(2) && !g.solved[0]);
    /// ```
    pub fn run<O: Operation>(&self, op: &O, cx: &Context) -> Result<O::Report, Error> {
        struct Run<'a, O> {
            op: &'a O,
            name: &'a str,
            cx: &'a Context,
        }
        impl<O: Operation> Visit for Run<'_, O> {
            type Out = Result<O::Report, Error>;
            fn visit<G: Game>(self, l: &LevelOf<G>) -> Self::Out {
                self.op.run(l.game, &l.level, self.name, self.cx)
            }
        }
        let run = Run {
            op,
            name: self.name(),
            cx,
        };
        crate::games::visit(self.obj.as_level_of(), run).unwrap_or_else(|| {
            Err(Error::Internal(format!(
                "{} is not a game of the registry",
                self.game().info().name
            )))
        })
    }
}
