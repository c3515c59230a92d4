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

use super::{Fields, LimitArgs, Naming};
use crate::error::Error;
use crate::game::Game;
use crate::ops::level::{LevelOf, Visit};
use crate::ops::Level;
use crate::search::{Limits, ProgressFn, Tally};
use serde::Serialize;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A listener of what a run has to say before its answer (an estimate of the memory it will
/// need): standard error on the command line.
pub type NoteFn = Arc<dyn Fn(&str) + Send + Sync>;

/// What the front end adds to a run: a stop flag (a stop button, a closed connection),
/// progress callbacks (a spinner, a Python callback), how its messages name parameters, and
/// who hears its notes. Ctrl-C stops every run anyway.
#[derive(Clone, Default)]
pub struct Context {
    /// Stop when this flag is set.
    pub stop: Option<Arc<AtomicBool>>,
    /// Called now and then with what has been explored (the positions stored).
    pub progress: Option<ProgressFn>,
    /// Told the units done of an operation that counts its work in units rather than
    /// positions ([`Operation::COUNTS`]: `bench-solvers`' runs).
    pub tally: Option<Tally>,
    /// How messages name the parameters: `--force` (the command line), `force=true` (a query),
    /// `force=True` (Python).
    pub naming: Naming,
    /// Hears what the run says before its answer; nobody when `None`.
    pub note: Option<NoteFn>,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("stop", &self.stop.is_some())
            .field("progress", &self.progress.is_some())
            .field("tally", &self.tally.is_some())
            .field("naming", &self.naming)
            .field("note", &self.note.is_some())
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
    /// Says `what` to whoever listens.
    pub fn say(&self, what: &str) {
        if let Some(n) = &self.note {
            n(what);
        }
    }
}

/// An operation on one level of any game: the request (this struct) and its answer.
pub trait Operation: Fields + Default + Clone + fmt::Debug + Send + Sync + 'static {
    /// Its name: the command `floe <name>`, the endpoint `/api/<name>`, the Python call.
    const NAME: &'static str;
    /// What it does, in one line (the command's help).
    const ABOUT: &'static str;
    /// What its progress counts: `positions` (told through [`Context::progress`]) or, for
    /// an operation that counts its work in units, their name (told through
    /// [`Context::tally`]: `runs`).
    const COUNTS: &'static str = "positions";
    /// Whether it also takes an empty ice board given by its size (`rows`, `cols`, `blocks`)
    /// instead of a level (`space`, `analyze`).
    const BOARD: bool = false;
    /// Whether the command line can share its run between worker threads, processes and
    /// machines, on disk and resumable (`--workers`, `--processes`, `--work-dir`:
    /// docs/cluster.md); `space` alone.
    const SHARED: bool = false;
    /// Whether it checks rather than searches: it answers at once (the web server runs it in
    /// the lane of what a player or designer waits for, not the searches').
    const CHECK: bool = false;
    /// Its answer: serialised as the JSON of every front end.
    type Report: Serialize + Send;
    /// Runs it on `level`, a level of `game` named `name`.
    fn run<G: Game>(
        &self,
        game: G,
        level: &G::Level,
        name: &str,
        cx: &Context,
    ) -> Result<Self::Report, Error>;
    /// The command's text of the answer on `level` (the command line prints it without
    /// `--json`).
    fn text(&self, report: &Self::Report, level: &Level) -> String;
    /// Whether the answer is complete (exit code 0) rather than stopped by a limit (1).
    fn complete(_report: &Self::Report) -> bool {
        true
    }
    /// When the answer shows the input to be wrong (an illegal move), why: the command line
    /// prints the answer, says this and exits with code 2; the web server answers 400 with
    /// the report; Python returns the report, whose own field says it.
    fn refused(&self, _report: &Self::Report) -> Option<String> {
        None
    }
    /// What of the request reads standard input, if any (`the moves` of `floe verify
    /// --moves -`): the command line then refuses a level from standard input too.
    fn stdin(&self) -> Option<&'static str> {
        None
    }
    /// Writes the files the command line asked for beside the answer (a solution's
    /// picture); the line that says so, printed with the text. Only the command line's own
    /// flags ask for files, so the server and Python never write any.
    fn write_files(&self, _report: &Self::Report, _cx: &Context) -> Result<Option<String>, Error> {
        Ok(None)
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
