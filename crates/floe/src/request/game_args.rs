//! The game and its parameters, as every front end takes them: `--game`, `--format`, each
//! game parameter of the registry by its own name (`--k 2`, `k=2`, `k=2` in Python) and any
//! by `--param NAME=VALUE`.

use super::value::{switch, text};
use super::{Fields, Naming};
use crate::game::{ParamKind, Params};
use crate::ops::{Request, Source};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use std::fmt;

/// The game and its parameters.
///
/// The game's own parameters (`--rules` of ice blocks, `--k` of PushPush, `--dynamic` of Ice
/// Tower) are not fields written here: they come from the registry ([`crate::games::params`]),
/// each game's [`Info::params`](crate::game::Info::params), so that a new game's parameter
/// is a flag, a query parameter and a Python keyword without a line outside its folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameArgs {
    /// The game, or a game with its parameters such as pushpush(k=2) (the help lists the
    /// registry's games: `games::game_help`).
    pub game: Option<String>,
    /// Read the file in this format instead of detecting it (ice blocks: floe or kluiver).
    pub format: Option<String>,
    /// The games' parameters given by their own names (`--k 2`, `k=2`), in the order given:
    /// name and value (a flag given on is `true`).
    pub named: Vec<(String, String)>,
    /// Any parameter of the game, NAME=VALUE (repeatable).
    pub params: Vec<String>,
}

/// The game parameter of the registry called `name` (written with `_` or `-`).
fn registry_param(name: &str) -> Option<&'static crate::game::Param> {
    crate::games::params()
        .into_iter()
        .map(|(p, _)| p)
        .find(|p| p.name == name.replace('-', "_"))
}

impl Fields for GameArgs {
    fn names(&self, out: &mut Vec<&'static str>) {
        out.extend(["game", "format"]);
        out.extend(crate::games::params().iter().map(|(p, _)| p.name));
        out.push("param");
    }
    fn set(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        Some(match name {
            "game" => text(value).map(|v| self.game = v),
            "format" => text(value).map(|v| self.format = v),
            "param" | "params" => {
                self.params.push(value.to_string());
                Ok(())
            }
            _ => {
                let p = registry_param(name)?;
                match p.kind {
                    ParamKind::Flag => switch(value).map(|on| self.set_named(p.name, on, "true")),
                    _ => text(value).map(|v| self.set_named(p.name, true, &v.unwrap_or_default())),
                }
            }
        })
    }
}

impl GameArgs {
    /// The value given for the game parameter `name` by its own name (`--k 2`).
    pub fn named(&self, name: &str) -> Option<&str> {
        self.named
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The same with the game parameter `name` set to `value` (for chaining).
    pub fn with(mut self, name: &str, value: &str) -> GameArgs {
        self.set_named(name, true, value);
        self
    }

    /// Sets game parameter `name` to `value` when `on`, else takes it away (a flag given
    /// off is not given).
    fn set_named(&mut self, name: &str, on: bool, value: &str) {
        self.named.retain(|(n, _)| n != name);
        if on {
            self.named.push((name.to_string(), value.to_string()));
        }
    }

    /// The parameters given, named after their flags for messages (`--k`).
    pub fn params(&self) -> Result<Params, crate::Error> {
        self.params_named(Naming::Flags)
    }

    /// The parameters given, named for messages as `naming` writes them (`--k` or `k`).
    pub fn params_named(&self, naming: Naming) -> Result<Params, crate::Error> {
        let mut p = Params::new();
        for (name, value) in &self.named {
            p.set(name, value.clone(), naming.of(name));
        }
        for kv in &self.params {
            let (name, value) = kv.split_once('=').unwrap_or((kv.as_str(), "true"));
            p.set(
                name.trim(),
                value.trim(),
                format!("{} {}", naming.of("param"), name.trim()),
            );
        }
        Ok(p)
    }

    /// A level file's text, named `name` in messages, with the game, its format and its
    /// parameters applied.
    pub fn source(&self, text: &str, name: &str, naming: Naming) -> Result<Source, crate::Error> {
        Ok(Request::from_text(text, name.to_string())
            .game(self.game.as_deref())
            .format(self.format.as_deref())
            .with_params(self.params_named(naming)?))
    }
}

/// Read from a map (JSON): `game`, `format`, `param`/`params` (a text or a list of texts)
/// and each game parameter of the registry by its name (a text, a number or a switch);
/// other keys are left to the requests beside it.
impl<'de> Deserialize<'de> for GameArgs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GameArgs, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Value {
            Text(String),
            Switch(bool),
            Whole(i64),
            List(Vec<String>),
            Other(serde::de::IgnoredAny),
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = GameArgs;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("the game and its parameters")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<GameArgs, A::Error> {
                use serde::de::Error;
                let mut g = GameArgs::default();
                while let Some(key) = m.next_key::<String>()? {
                    let text = match m.next_value::<Value>()? {
                        Value::Text(t) => t,
                        Value::Switch(b) => b.to_string(),
                        Value::Whole(n) => n.to_string(),
                        Value::List(l) if matches!(key.as_str(), "param" | "params") => {
                            g.params.extend(l);
                            continue;
                        }
                        Value::List(_) | Value::Other(_) => {
                            if g.names_key(&key) {
                                return Err(A::Error::custom(format!(
                                    "{key}: a text, a number or a switch"
                                )));
                            }
                            continue;
                        }
                    };
                    match g.set(&key.replace('-', "_"), &text) {
                        Some(r) => r.map_err(|e| A::Error::custom(format!("{key}: {e}")))?,
                        None => continue,
                    }
                }
                Ok(g)
            }
        }
        d.deserialize_map(V)
    }
}

impl GameArgs {
    /// Whether `key` is one of its parameters.
    fn names_key(&self, key: &str) -> bool {
        let mut names = Vec::new();
        self.names(&mut names);
        names.contains(&key.replace('-', "_").as_str()) || key == "params"
    }
}

/// A game's parameters alone, for a command that names its game otherwise (`floe hardest
/// ice --rules walk`): each game parameter of the registry by its name, and `--param`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameParams {
    /// The parameters given by their own names, in order: name and value.
    pub named: Vec<(String, String)>,
    /// Any parameter, NAME=VALUE.
    pub params: Vec<String>,
}

impl GameParams {
    /// The parameters given, named after their flags for messages (`--k`).
    pub fn params(&self) -> Result<Params, crate::Error> {
        GameArgs {
            named: self.named.clone(),
            params: self.params.clone(),
            ..GameArgs::default()
        }
        .params()
    }
}

/// The flags on the command line: `--game`, `--format`, one per game parameter of the
/// registry (its help from the games that take it, a switch for a flag parameter) and
/// `--param`.
#[cfg(feature = "cli")]
mod cli {
    use super::{GameArgs, GameParams};
    use crate::game::ParamKind;
    use clap::{Arg, ArgAction, ArgMatches, Command};

    /// The flags of the games' parameters (the registry's) and `--param`.
    fn param_args(mut cmd: Command) -> Command {
        for (p, _) in crate::games::params() {
            let arg = Arg::new(p.name)
                .long(p.name)
                .help(crate::games::param_help(p.name));
            cmd = cmd.arg(match p.kind {
                ParamKind::Flag => arg.action(ArgAction::SetTrue),
                ParamKind::Int { .. } => arg
                    .action(ArgAction::Set)
                    .value_name(p.name.to_ascii_uppercase()),
                ParamKind::Choice(c) => arg.action(ArgAction::Set).value_name(c.join("|")),
            });
        }
        cmd.arg(
            Arg::new("params")
                .long("param")
                .value_name("NAME=VALUE")
                .action(ArgAction::Append)
                .help("Any parameter of the game, NAME=VALUE (repeatable)"),
        )
    }

    /// The games' parameters given in `m`: into `named` by name, `--param`s into `list`.
    fn read_params(m: &ArgMatches, named: &mut Vec<(String, String)>, list: &mut Vec<String>) {
        let mut set = |name: &str, value: String| {
            named.retain(|(n, _)| n != name);
            named.push((name.to_string(), value));
        };
        for (p, _) in crate::games::params() {
            match p.kind {
                ParamKind::Flag => {
                    if m.try_get_one::<bool>(p.name).ok().flatten() == Some(&true) {
                        set(p.name, "true".into());
                    }
                }
                _ => {
                    if let Ok(Some(v)) = m.try_get_one::<String>(p.name) {
                        set(p.name, v.clone());
                    }
                }
            }
        }
        if let Ok(Some(v)) = m.try_get_many::<String>("params") {
            list.extend(v.cloned());
        }
    }

    impl clap::FromArgMatches for GameArgs {
        fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
            let mut g = GameArgs::default();
            g.update_from_arg_matches(m)?;
            Ok(g)
        }
        fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
            let one = |id: &str| m.try_get_one::<String>(id).ok().flatten().cloned();
            if let Some(g) = one("game") {
                self.game = Some(g);
            }
            if let Some(f) = one("format") {
                self.format = Some(f);
            }
            read_params(m, &mut self.named, &mut self.params);
            Ok(())
        }
    }

    impl clap::Args for GameArgs {
        fn augment_args(cmd: Command) -> Command {
            param_args(
                cmd.arg(
                    Arg::new("game")
                        .long("game")
                        .value_name("GAME")
                        .action(ArgAction::Set)
                        .help(crate::games::game_help()),
                )
                .arg(
                    Arg::new("format")
                        .long("format")
                        .value_name("FORMAT")
                        .action(ArgAction::Set)
                        .help(
                            "Read the file in this format instead of detecting it (ice \
                             blocks: floe or kluiver)",
                        ),
                ),
            )
        }
        fn augment_args_for_update(cmd: Command) -> Command {
            Self::augment_args(cmd)
        }
    }

    impl clap::FromArgMatches for GameParams {
        fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
            let mut g = GameParams::default();
            g.update_from_arg_matches(m)?;
            Ok(g)
        }
        fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
            read_params(m, &mut self.named, &mut self.params);
            Ok(())
        }
    }

    impl clap::Args for GameParams {
        fn augment_args(cmd: Command) -> Command {
            param_args(cmd)
        }
        fn augment_args_for_update(cmd: Command) -> Command {
            param_args(cmd)
        }
    }
}
