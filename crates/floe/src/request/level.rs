//! The requests every operation on a level shares: the game and its parameters, which level
//! of a file, an empty ice board, the limits of a search.

use super::value::{duration, memory, number, some, switch, text};
use super::{fields, missing, serde_text, GameArgs, Naming};
use crate::ops::Request;
use serde::Deserialize;
use std::time::Duration;

/// Which level of a file, and its game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct LevelPick {
    /// Which level: a 1-based number or a title. Default: the file's only level.
    #[cfg_attr(feature = "cli", arg(long, short = 'l', value_name = "N|NAME"))]
    pub level: Option<String>,
    /// The game and its parameters.
    #[cfg_attr(feature = "cli", command(flatten))]
    #[serde(flatten)]
    pub game: GameArgs,
}

fields!(LevelPick { level: text } + game);

impl LevelPick {
    /// The level of a file's text (named `name` in messages), resolved: its game detected,
    /// the level picked, the game's parameters applied and checked.
    pub fn resolve(&self, text: &str, name: &str, naming: Naming) -> Result<Request, crate::Error> {
        self.game
            .source(text, name, naming)?
            .level(self.level.as_deref())
            .resolve()
    }
}

/// An empty ice block board (rows, columns, blocks), or which level of a file: what `space`,
/// `analyze` and `reach` take besides the file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct EmptyBoard {
    /// Rows of an empty board.
    #[cfg_attr(
        feature = "cli",
        arg(long, conflicts_with = "file", requires_all = ["cols", "blocks"])
    )]
    pub rows: Option<usize>,
    /// Columns of an empty board.
    #[cfg_attr(
        feature = "cli",
        arg(long, conflicts_with = "file", requires_all = ["rows", "blocks"])
    )]
    pub cols: Option<usize>,
    /// Blocks of an empty board, starting in the top row from the left, then clockwise
    /// along the edge.
    #[cfg_attr(
        feature = "cli",
        arg(long, conflicts_with = "file", requires_all = ["rows", "cols"])
    )]
    pub blocks: Option<usize>,
    /// Which level of the file: a 1-based number or a title.
    #[cfg_attr(
        feature = "cli",
        arg(long, short = 'l', value_name = "N|NAME", requires = "file")
    )]
    pub level: Option<String>,
}

fields!(EmptyBoard {
    rows: some(number),
    cols: some(number),
    blocks: some(number),
    level: text,
});

impl EmptyBoard {
    /// Whether any of rows, columns and blocks is given.
    pub fn given(&self) -> bool {
        self.rows.is_some() || self.cols.is_some() || self.blocks.is_some()
    }
    /// The rows, columns and blocks when all three are given; else the message of those
    /// missing.
    pub fn size(&self) -> Result<(usize, usize, usize), String> {
        match (self.rows, self.cols, self.blocks) {
            (Some(r), Some(c), Some(k)) => Ok((r, c, k)),
            _ => {
                let mut m = Vec::new();
                for (n, v) in [
                    ("rows", self.rows),
                    ("cols", self.cols),
                    ("blocks", self.blocks),
                ] {
                    if v.is_none() {
                        m.push(n);
                    }
                }
                Err(missing(&m))
            }
        }
    }
}

/// Resource limits.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default)]
pub struct LimitArgs {
    /// Stop after storing this many states (then exit code 1: no answer).
    #[cfg_attr(
        feature = "cli",
        arg(
            long,
            value_name = "N",
            value_parser = crate::request::value::number::<u64>,
            allow_negative_numbers = true
        )
    )]
    pub max_states: Option<u64>,
    /// Stop after this long: seconds, or a number with ms, s, m or h (then exit code 1).
    #[cfg_attr(
        feature = "cli",
        arg(
            long,
            value_name = "TIME",
            value_parser = crate::search::parse_duration,
            allow_hyphen_values = true
        )
    )]
    #[serde(deserialize_with = "serde_text::duration")]
    pub timeout: Option<Duration>,
    /// Stop once floe holds this much memory: GiB, or a number with K, M, G or T (64M to
    /// 64T; then exit code 1). Default: three quarters of what the machine lets floe have at
    /// the start (the least of the memory available, the cgroup's limit and ulimit -v); a
    /// larger budget is cut to that.
    #[cfg_attr(
        feature = "cli",
        arg(
            long,
            value_name = "SIZE",
            value_parser = crate::mem::parse_memory,
            allow_hyphen_values = true
        )
    )]
    #[serde(deserialize_with = "serde_text::memory")]
    pub max_memory: Option<u64>,
    /// Run even when the estimate made before an enumeration (space, reach, table) says it
    /// will not fit the memory budget; it then stops cleanly at the budget.
    #[cfg_attr(feature = "cli", arg(long))]
    pub force: bool,
}

fields!(LimitArgs {
    max_states: some(number),
    timeout: duration,
    max_memory: memory,
    force: switch,
});

impl LimitArgs {
    /// The search's limits, with the default memory budget when none is given (and no stop
    /// flag: a caller with one sets it).
    pub fn limits(&self) -> crate::search::Limits {
        crate::search::Limits {
            max_states: self.max_states,
            timeout: self.timeout,
            max_memory: self.budget(),
            ..crate::search::Limits::default()
        }
    }

    /// The memory budget: the least of the one given and what the machine lets this process
    /// have ([`crate::mem::machine_bytes`]: memory available, cgroup, `ulimit -v`), or by
    /// default three quarters of the latter.
    pub fn budget(&self) -> Option<u64> {
        match (self.max_memory, crate::mem::machine_bytes()) {
            (Some(given), Some(machine)) => Some(given.min(machine)),
            (Some(given), None) => Some(given),
            (None, _) => crate::mem::default_budget(),
        }
    }

    /// The memory budget in words, with where it comes from: `the memory budget of 1.5 GiB
    /// (three quarters of the memory available)`.
    pub fn budget_words(&self, naming: Naming) -> String {
        let Some(b) = self.budget() else {
            return "the memory budget".into();
        };
        let size = crate::mem::human_bytes;
        let why = match (self.max_memory, crate::mem::machine_limit()) {
            (Some(given), Some((machine, what))) if given > machine => format!(
                " ({} {} is more than this machine lets floe have: {}, {what})",
                naming.of("max_memory"),
                size(given),
                size(machine)
            ),
            (Some(_), _) => format!(" (given by {})", naming.of("max_memory")),
            (None, Some((_, what))) => format!(" (three quarters of {what})"),
            (None, None) => String::new(),
        };
        format!("the memory budget of {}{why}", size(b))
    }

    /// Before a run that `estimate` judges (`what` names it): refuses one that does not fit
    /// the memory budget, unless the caller insists (`force`, or a `timeout` or `max_states`
    /// that bounds the run anyway); else the estimate when the run is worth announcing (a
    /// minute or more, or over the budget). Messages name the parameters as `naming` does.
    pub fn judge(
        &self,
        what: &str,
        estimate: Option<crate::search::Estimate>,
        naming: Naming,
    ) -> Result<Option<crate::search::Estimate>, crate::Error> {
        let Some(e) = estimate else {
            return Ok(None);
        };
        let budget = self.budget();
        // a machine that leaves floe next to nothing: no budget helps, the limit must rise
        if let Some((m, why)) =
            crate::mem::machine_limit().filter(|&(m, _)| m < crate::mem::MIN_BUDGET)
        {
            if e.bytes > m && !self.force {
                return Err(crate::Error::invalid(format!(
                    "{what}: {e}; this machine lets floe have only {} ({why}): raise the \
                     limit (ulimit -v, the cgroup's memory.max) or run it elsewhere",
                    crate::mem::human_bytes(m)
                )));
            }
        }
        match budget {
            Some(b)
                if e.bytes > b
                    && !self.force
                    && self.timeout.is_none()
                    && self.max_states.is_none() =>
            {
                // More memory helps only when the machine has it to give.
                let machine = crate::mem::machine_bytes();
                let way = format!(
                    "tart anyway with {} (or a {}): the run then stops cleanly at the budget",
                    naming.on("force"),
                    naming.of("timeout"),
                );
                let way = if machine.is_some_and(|m| b >= m) {
                    format!("S{way}")
                } else {
                    format!("Give more with {}, or s{way}", naming.of("max_memory"))
                };
                Err(crate::Error::invalid(format!(
                    "{what}: {e}; that is more than {}. {way}",
                    self.budget_words(naming),
                )))
            }
            _ if e.is_large() || budget.is_some_and(|b| e.bytes > b) => Ok(Some(e)),
            _ => Ok(None),
        }
    }
}
