//! Typed requests: what each operation a front end offers takes (the game choice, limits,
//! solve, verify, render, space, generate, experiment), declared once with its defaults,
//! ranges and messages.
//!
//! A request is a plain struct. Three readers fill it:
//!
//! - the command line: with the `cli` feature each struct derives `clap::Args` (its doc
//!   comments are the flags' help, its ranges and defaults the constants of this module), and
//!   the command line flattens it into its commands;
//! - query strings (the web server): [`read`] takes `(name, value)` pairs, names with `-` or
//!   `_`, into one or more requests through [`Fields`], a table per struct written with the
//!   `fields!` macro: each parameter's name, the field it sets and the parser of its value.
//!   An unknown parameter is refused with the list of those taken; a bad value names the
//!   parameter and says what it takes;
//! - JSON and other serde formats: each struct derives `serde::Deserialize`, missing fields
//!   taking their defaults.
//!
//! Why a table rather than serde for query strings: serde's `flatten` over a map of strings
//! loses the numbers' types and cannot refuse unknown fields, and its messages name Rust
//! types; a table per struct gives each parameter its own message and the list of names an
//! unknown parameter is answered with, in a few lines per struct.

mod bench;
mod experiment;
mod explain;
mod game_args;
mod generate;
mod graph;
mod level;
pub mod operation;
pub mod ranges;
mod run_experiment;
mod solve;
mod space;
mod verify;
pub mod words;

pub use bench::BenchSolvers;
pub use experiment::{parse_ranks, parse_setups, Experiment, Ranks, SetupList};
pub use explain::Explain;
pub use game_args::{GameArgs, GameParams};
pub use generate::{Generate, GenerateBudget};
pub use graph::Graph;
pub use level::{EmptyBoard, LevelPick, LimitArgs};
pub use operation::{Context, Operation};
pub use run_experiment::{experiment, ExperimentOutcome, ExperimentRun};
pub use solve::{Random, Render, SolutionPicture, Solve};
pub use space::{space_text, Analyze, Space};
pub use verify::{Moves, Verify};

/// The operations every front end offers the same way ([`Operation`]): the command line
/// makes a command of each (`floe graph`), the web server an endpoint (`/api/graph`), the
/// Python module a call (`floe.graph`). `operations!(m)` expands `m! { Name => Type, … }`;
/// adding an operation is its module and a line here.
#[macro_export]
macro_rules! operations {
    ($callback:ident) => {
        $callback! {
            Solve => $crate::request::Solve,
            Verify => $crate::request::Verify,
            Space => $crate::request::Space,
            Analyze => $crate::request::Analyze,
            BenchSolvers => $crate::request::BenchSolvers,
            Graph => $crate::request::Graph,
            Explain => $crate::request::Explain,
        }
    };
}

use std::fmt::Display;
use std::str::FromStr;
use std::time::Duration;

/// A range of whole numbers a parameter takes, `lo` to `hi` inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The smallest value.
    pub lo: u64,
    /// The largest value.
    pub hi: u64,
}

impl Range {
    /// `lo..=hi`.
    pub const fn new(lo: u64, hi: u64) -> Range {
        Range { lo, hi }
    }
    /// The command line's parser of a `usize` in this range (clap's messages).
    #[cfg(feature = "cli")]
    pub fn usize(self) -> clap::builder::RangedU64ValueParser<usize> {
        clap::builder::RangedU64ValueParser::new().range(self.lo..=self.hi)
    }
    /// The command line's parser of a `u16` in this range (clap's messages).
    #[cfg(feature = "cli")]
    pub fn u16(self) -> clap::builder::RangedI64ValueParser<u16> {
        clap::builder::RangedI64ValueParser::new().range(self.lo as i64..=self.hi as i64)
    }
    /// The command line's parser of a `u32` in this range (clap's messages).
    #[cfg(feature = "cli")]
    pub fn u32(self) -> clap::builder::RangedI64ValueParser<u32> {
        clap::builder::RangedI64ValueParser::new().range(self.lo as i64..=self.hi as i64)
    }
    /// The command line's parser of a `u64` in this range (clap's messages).
    #[cfg(feature = "cli")]
    pub fn u64(self) -> clap::builder::RangedU64ValueParser<u64> {
        clap::builder::RangedU64ValueParser::new().range(self.lo..=self.hi)
    }
}

/// How messages name a parameter: as a command-line flag (`--max-states`), a query
/// parameter or a Python keyword (`max_states`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Naming {
    /// `--max-states`.
    #[default]
    Flags,
    /// `max_states`.
    Query,
    /// `max_states` (Python keywords: a switch is set with `=True`).
    Keywords,
}

impl Naming {
    /// Parameter `name` (with `_` or `-`) as this naming writes it.
    pub fn of(self, name: &str) -> String {
        match self {
            Naming::Flags => format!("--{}", name.replace('_', "-")),
            Naming::Query | Naming::Keywords => name.replace('-', "_"),
        }
    }
    /// Switch `name` turned on: `--force`, `force=true`, `force=True`.
    pub fn on(self, name: &str) -> String {
        match self {
            Naming::Flags => self.of(name),
            Naming::Query => format!("{}=true", self.of(name)),
            Naming::Keywords => format!("{}=True", self.of(name)),
        }
    }
}

/// A request read from named text values: the table of its parameters.
pub trait Fields {
    /// Adds the names of the parameters it takes, in order, to `out`.
    fn names(&self, out: &mut Vec<&'static str>);
    /// Sets parameter `name` (written with `_`) from `value`: `None` when it takes no such
    /// parameter, else whether the value was good (the error says what it takes).
    fn set(&mut self, name: &str, value: &str) -> Option<Result<(), String>>;
    /// Checks the parameters against each other once all are set; `given` names those the
    /// client gave.
    fn check(&self, _given: &[String]) -> Result<(), String> {
        Ok(())
    }
}

/// A table of parameters: `fields!(Type { name: parser, … } + inner, …)` implements
/// [`Fields`] with one parameter per field, named as the field, and the fields of the inner
/// requests after them; `; check f` adds the check between parameters
/// `f(&request, given)`.
macro_rules! fields {
    ($ty:ty { $($field:ident : $parse:expr),* $(,)? } $(+ $inner:ident)* $(; check $check:path)?) => {
        impl $crate::request::Fields for $ty {
            fn names(&self, out: &mut Vec<&'static str>) {
                let _ = &out; // a request without parameters of its own
                $(out.push(stringify!($field));)*
                $($crate::request::Fields::names(&self.$inner, out);)*
            }
            fn set(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
                let _ = value;
                match name {
                    $(stringify!($field) => Some($parse(value).map(|v| self.$field = v)),)*
                    _ => None $(.or_else(|| $crate::request::Fields::set(&mut self.$inner, name, value)))*,
                }
            }
            fn check(&self, _given: &[String]) -> Result<(), String> {
                $(return $check(self, _given);)?
                #[allow(unreachable_code)]
                Ok(())
            }
        }
    };
}
pub(crate) use fields;

/// Reads query pairs into `groups`, in order; `path` names the endpoint in messages
/// (`/api/solve`), `own` are parameters the caller reads itself (skipped here, listed as taken)
/// and `refused` parameters of the requests the caller does not take (refused as unknown).
/// A parameter given twice is refused (but `param`, a list): which of two values counts
/// is not for the server to guess.
pub fn read(
    pairs: &[(String, String)],
    path: &str,
    groups: &mut [&mut dyn Fields],
    own: &[&str],
    refused: &[&str],
) -> Result<(), String> {
    let mut seen: Vec<String> = Vec::new();
    for (key, _) in pairs {
        let name = key.replace('-', "_");
        if name != "param" && seen.contains(&name) {
            return Err(format!(
                "'{}' is given twice: give it once",
                crate::input::shown_word(&name)
            ));
        }
        seen.push(name);
    }
    let mut given = Vec::new();
    for (key, value) in pairs {
        let name = key.replace('-', "_");
        if own.iter().any(|o| o.replace('-', "_") == name) {
            continue;
        }
        let taken = !refused.iter().any(|r| r.replace('-', "_") == name);
        let set = if taken {
            groups.iter_mut().find_map(|g| g.set(&name, value))
        } else {
            None
        };
        match set {
            Some(Ok(())) => given.push(name),
            Some(Err(why)) => {
                return Err(format!(
                    "invalid value '{}' for '{name}': {why}",
                    crate::input::shown_word(value)
                ))
            }
            None => {
                let mut names = Vec::new();
                for g in groups.iter() {
                    g.names(&mut names);
                }
                names.retain(|n| !refused.iter().any(|r| r.replace('-', "_") == *n));
                let mut names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
                names.extend(own.iter().map(|o| o.replace('-', "_")));
                return Err(format!(
                    "unknown parameter '{}' for {path}: it takes {}",
                    crate::input::shown_word(key),
                    names.join(", ")
                ));
            }
        }
    }
    for g in groups.iter() {
        g.check(&given)?;
    }
    Ok(())
}

/// The message of required parameters not given (the command line's words).
pub(crate) fn missing(names: &[&str]) -> String {
    format!(
        "the following required arguments were not provided: {}",
        names.join(", ")
    )
}

/// The message of two parameters given together that exclude each other.
pub(crate) fn conflict(a: &str, b: &str) -> String {
    format!("the argument '{a}' cannot be used with '{b}'")
}

/// Value parsers shared by the tables: each returns what the parameter takes when the value
/// is not that.
pub mod value {
    use super::*;

    /// Any text.
    pub fn text(s: &str) -> Result<Option<String>, String> {
        Ok(Some(s.to_string()))
    }

    /// A switch: `true`, `1`, `yes`, `on` or nothing; `false`, `0`, `no` or `off`.
    pub fn switch(s: &str) -> Result<bool, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "true" | "1" | "yes" | "on" => Ok(true),
            "false" | "0" | "no" | "off" => Ok(false),
            _ => Err("a switch: true or false (or 1, 0, yes, no, on, off)".into()),
        }
    }

    /// The whole-number types of parameters, with their largest value.
    pub trait Whole: FromStr<Err = std::num::ParseIntError> + TryFrom<u64> {
        /// The largest value.
        const MAX: u64;
    }
    impl Whole for u32 {
        const MAX: u64 = u32::MAX as u64;
    }
    impl Whole for u64 {
        const MAX: u64 = u64::MAX;
    }
    impl Whole for usize {
        const MAX: u64 = usize::MAX as u64;
    }

    /// A whole number of type `T`, 0 to its largest value.
    pub fn number<T: Whole>(s: &str) -> Result<T, String> {
        within(Range::new(0, T::MAX))(s)
    }

    /// A whole number in `r`, as `T`. A value that is not one (a negative number, a word, a
    /// fraction, nothing) or is outside `r` gets the range, as the command line says it.
    pub fn within<T: Whole>(r: Range) -> impl Fn(&str) -> Result<T, String> {
        move |s| {
            let range = || format!("a whole number from {} to {}", r.lo, r.hi.min(T::MAX));
            let n: u64 = s.parse().map_err(|_| range())?;
            if n < r.lo || n > r.hi {
                return Err(range());
            }
            T::try_from(n).map_err(|_| range())
        }
    }

    /// A value of a type read from text (`FromStr`), its parser's message.
    pub fn parsed<T: FromStr>(s: &str) -> Result<T, String>
    where
        T::Err: Display,
    {
        s.parse::<T>().map_err(|e| e.to_string())
    }

    /// `Some` of what `p` reads.
    pub fn some<T>(
        p: impl Fn(&str) -> Result<T, String>,
    ) -> impl Fn(&str) -> Result<Option<T>, String> {
        move |s| p(s).map(Some)
    }

    /// A duration: seconds, or a number with ms, s, m or h.
    pub fn duration(s: &str) -> Result<Option<Duration>, String> {
        crate::search::parse_duration(s).map(Some)
    }

    /// A memory size: GiB, or a number with K, M, G or T.
    pub fn memory(s: &str) -> Result<Option<u64>, String> {
        crate::mem::parse_memory(s).map(Some)
    }
}

/// Serde readers of fields whose JSON form is text: a duration (`"30s"`, or seconds as a
/// number), a memory size (`"4G"`, or bytes as a number), a value read from text.
pub mod serde_text {
    use serde::{Deserialize, Deserializer};
    use std::fmt::Display;
    use std::str::FromStr;
    use std::time::Duration;

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum TextOrNumber {
        Text(String),
        Number(f64),
    }

    /// An optional duration.
    pub fn duration<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        match Option::<TextOrNumber>::deserialize(d)? {
            None => Ok(None),
            Some(TextOrNumber::Text(s)) => crate::search::parse_duration(&s)
                .map(Some)
                .map_err(serde::de::Error::custom),
            Some(TextOrNumber::Number(x)) => crate::search::parse_duration(&x.to_string())
                .map(Some)
                .map_err(serde::de::Error::custom),
        }
    }

    /// An optional memory size.
    pub fn memory<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        match Option::<TextOrNumber>::deserialize(d)? {
            None => Ok(None),
            Some(TextOrNumber::Text(s)) => crate::mem::parse_memory(&s)
                .map(Some)
                .map_err(serde::de::Error::custom),
            Some(TextOrNumber::Number(x)) if x >= 0.0 && x.fract() == 0.0 => Ok(Some(x as u64)),
            Some(TextOrNumber::Number(x)) => Err(serde::de::Error::custom(format!(
                "{x} is not a number of bytes"
            ))),
        }
    }

    /// A value read from its text.
    pub fn parsed<'de, D: Deserializer<'de>, T: FromStr>(d: D) -> Result<T, D::Error>
    where
        T::Err: Display,
    {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }

    /// An optional value read from its text.
    pub fn parsed_opt<'de, D: Deserializer<'de>, T: FromStr>(d: D) -> Result<Option<T>, D::Error>
    where
        T::Err: Display,
    {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(s) => s.parse().map(Some).map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests;
