//! The games floe knows: one folder each, its module line and its line in the registry below.
//!
//! A game's folder holds only what is specific to it: its level and format, its engine, its
//! validator, its scene, and its [`Game`](crate::game::Game) implementation. Everything else
//! reaches it through the game interface ([`crate::game`]) and the registry below: [`all`],
//! [`find`], [`spec`] (`pushpush(k=2)`), [`game_line`] (a file's `Game:` line).

pub mod file;
pub mod ice;
pub mod icepath;
pub mod icetower;
pub mod pushpush;
#[cfg(test)]
pub mod skeleton;
pub mod solitaire;

use crate::error::Error;
use crate::game::{split_spec, Info, Param, Params};
use crate::ops::level::{LevelOf, Visit};
use crate::ops::AnyGame;

/// Lists the games' faces, in order: the first is the game of files that do not say theirs;
/// after `[tests]`, the games the library's own tests add (the skeleton game).
/// (The modules are declared above, plainly, so that rustfmt reaches their files.)
macro_rules! registry {
    ($($module:ident => $($game:ident),+;)+ [tests] $($tmodule:ident => $tgame:ident;)*) => {
        /// Every game, in the order of help texts.
        #[cfg(not(test))]
        pub(crate) static REGISTRY: &[&dyn AnyGame] = &[$($(&$module::$game),+),+];
        /// Every game, in the order of help texts, and the tests' own.
        #[cfg(test)]
        pub(crate) static REGISTRY: &[&dyn AnyGame] =
            &[$($(&$module::$game,)+)+ $(&$tmodule::$tgame),*];

        /// Calls `v` with the level behind `level` (a [`LevelOf`] of some game of the
        /// registry) and its concrete game; `None` when it is of none.
        pub(crate) fn visit<V: Visit>(level: &dyn std::any::Any, v: V) -> Option<V::Out> {
            $($(
                if let Some(l) = level.downcast_ref::<LevelOf<$module::$game>>() {
                    return Some(v.visit(l));
                }
            )+)+
            $(
                #[cfg(test)]
                if let Some(l) = level.downcast_ref::<LevelOf<$tmodule::$tgame>>() {
                    return Some(v.visit(l));
                }
            )*
            None
        }
    };
}

registry! {
    ice => Ice;
    pushpush => PushPush;
    icetower => IceTower;
    solitaire => BoxOff, Pretzel, Fujisan;
    icepath => IcePath;
    [tests]
    skeleton => Skeleton;
}

/// Every game floe knows, in the registry's order.
pub fn all() -> &'static [&'static dyn AnyGame] {
    REGISTRY
}

/// The help of `--game`: the registry's names, in its order.
pub fn game_help() -> String {
    let names: Vec<&str> = all().iter().map(|g| g.info().name).collect();
    format!(
        "The game ({}: see `floe games`), or a game with its parameters such as \
         pushpush(k=2). Default: the file's `Game:` line, else ice blocks",
        names.join(", ")
    )
}

/// The parameters of every game of the registry (`k` of PushPush, `rules` of ice blocks),
/// each once, in the registry's order, with the games that take it: the flags of the
/// command line (`--k`), the query parameters and the Python keywords that set them. A
/// parameter two games share has one kind (a test holds it).
pub fn params() -> Vec<(&'static Param, Vec<&'static Info>)> {
    let mut out: Vec<(&'static Param, Vec<&'static Info>)> = Vec::new();
    for g in all() {
        let info = g.info();
        for p in info.params {
            match out.iter_mut().find(|(q, _)| q.name == p.name) {
                Some((_, games)) => games.push(info),
                None => out.push((p, vec![info])),
            }
        }
    }
    out
}

/// The help of a game parameter's flag: what it means in each game that takes it
/// (`PushPush-k: the robot pushes rows of up to k blocks … (PushPush)`).
pub fn param_help(name: &str) -> String {
    params()
        .into_iter()
        .filter(|(p, _)| p.name == name)
        .flat_map(|(_, games)| games)
        .filter_map(|info| {
            let mut about = info.param(name)?.about.to_string();
            if let Some(c) = about.get_mut(..1) {
                c.make_ascii_uppercase();
            }
            Some(format!("{about} ({})", info.title))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The game called `name` (its name or an alias, without regard to case, spaces, `-`, `_`).
pub fn find(name: &str) -> Result<&'static dyn AnyGame, Error> {
    all()
        .iter()
        .copied()
        .find(|g| g.info().is_called(name))
        .ok_or_else(|| {
            let names: Vec<&str> = all().iter().map(|g| g.info().name).collect();
            Error::invalid(format!(
                "unknown game '{}': expected one of {}",
                name.trim(),
                names.join(", ")
            ))
        })
}

/// A game and its parameters from a spec such as `pushpush(k=2)` (OpenSpiel's `LoadGame`);
/// the parameters are checked.
pub fn spec(text: &str) -> Result<(&'static dyn AnyGame, Params), Error> {
    let (name, params) = split_spec(text).map_err(Error::invalid)?;
    let g = find(name)?;
    params.check(g.info())?;
    Ok((g, params))
}

/// The game named by the first `Game:` line of a level file, with the parameters the line
/// gives (`Game: pushpush(k=2)`): `Ok(None)` when the file has no such line; an error at the
/// name's line and column when it names no known game.
pub fn game_line(text: &str, file: &str) -> Result<Option<(&'static dyn AnyGame, Params)>, Error> {
    for (i, line) in text.lines().enumerate() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        if key.trim().eq_ignore_ascii_case("game") {
            let lead = value.len() - value.trim_start().len();
            let col = key.chars().count() + 1 + value[..lead].chars().count() + 1;
            return spec(value.trim()).map(Some).map_err(|e| {
                Error::Parse(crate::ParseError {
                    file: file.to_string(),
                    line: i + 1,
                    col,
                    message: e.to_string(),
                })
            });
        }
    }
    Ok(None)
}

#[cfg(test)]
mod looks;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for g in all() {
            assert_eq!(find(g.info().name).unwrap().info().name, g.info().name);
        }
        assert_eq!(find("Push-Push").unwrap().info().name, "pushpush");
        assert_eq!(find("Ice Tower").unwrap().info().name, "icetower");
        assert!(find("sokoban").is_err());
        let (g, p) = spec("pushpush(k=2)").unwrap();
        assert_eq!((g.info().name, p.int("k")), ("pushpush", Some(2)));
        assert!(spec("ice(k=2)").is_err());
    }

    #[test]
    fn a_parameter_two_games_share_has_one_kind() {
        for (p, games) in params() {
            for info in games {
                let q = info.param(p.name).unwrap();
                assert_eq!(
                    std::mem::discriminant(&q.kind),
                    std::mem::discriminant(&p.kind),
                    "{} of {}",
                    p.name,
                    info.name
                );
            }
        }
        let names: Vec<&str> = params().iter().map(|(p, _)| p.name).collect();
        assert!(
            names.contains(&"k") && names.contains(&"rules"),
            "{names:?}"
        );
        let mut once = names.clone();
        once.sort_unstable();
        once.dedup();
        assert_eq!(once.len(), names.len(), "{names:?}");
        for reserved in ["game", "format", "param", "params", "level", "name"] {
            assert!(
                !names.contains(&reserved),
                "{reserved} names the level's own flag"
            );
        }
        assert!(param_help("k").starts_with("PushPush-k: the robot"));
        assert!(param_help("k").ends_with("(PushPush)"));
    }

    #[test]
    fn game_lines() {
        assert!(game_line("Title: x\n$--\n", "f").unwrap().is_none());
        let (g, _) = game_line("; c\nGame: pushpush\n@-.\n", "f")
            .unwrap()
            .unwrap();
        assert_eq!(g.info().name, "pushpush");
        let (g, _) = game_line("game:IceTower\n", "f").unwrap().unwrap();
        assert_eq!(g.info().name, "icetower");
        match game_line("\nGame: chess\n", "f") {
            Err(Error::Parse(p)) => assert_eq!((p.line, p.col), (2, 7)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_game_describes_itself() {
        for g in all() {
            let i = g.info();
            assert!(!i.algorithms.is_empty(), "{}", i.name);
            assert!(!i.formats.is_empty(), "{}", i.name);
            assert!(i.move_word == "push" || i.move_word == "move", "{}", i.name);
            // the rules in one or two plain sentences, the goal first
            let rules = i.rules;
            assert!(rules.starts_with("Goal: "), "{}: {rules}", i.name);
            assert!(rules.len() <= 300, "{}: {} characters", i.name, rules.len());
            let ends = rules
                .char_indices()
                .filter(|&(at, c)| {
                    let next = rules[at + c.len_utf8()..].chars().next();
                    matches!(c, '.' | '!' | '?') && next.is_none_or(char::is_whitespace)
                })
                .count();
            assert!((1..=2).contains(&ends), "{}: {ends} sentences", i.name);
            assert!(rules.ends_with('.'), "{}: {rules}", i.name);
            assert!(!rules.contains("  ") && !rules.contains('\n'), "{}", i.name);
        }
    }
}
