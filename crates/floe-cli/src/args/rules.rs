//! The rules every command's flags obey, checked once for all commands after clap has parsed
//! them, with what clap knows of each value: whether the user gave it or it is a default.
//!
//! - **Ranges are not empty.** `--min-X` is at most `--max-X` (and `--trials` at most
//!   `--challenges`): `table reach --min-size 5 --max-size 3` is refused, not answered
//!   with an empty table.
//! - **A flag of another game is refused.** A command that takes a game as its first word
//!   (`experiment GAME`, `hardest GAME`) documents each flag of one game only by the game's
//!   name (`BoxOff: rows h.`); given for another game, such a flag is refused instead of
//!   being ignored.
//! - **A message names only what the user wrote**: a value the user did not give is called
//!   the default.

use clap::parser::ValueSource;
use clap::{ArgMatches, Command};

/// Pairs of flags whose first may not pass the second, besides every `--min-X`/`--max-X`.
const ORDERED: &[(&str, &str)] = &[("trials", "challenges")];

/// Checks the parsed command line `m` of `cmd` (the whole program): the first broken rule,
/// with the command it is about.
pub(crate) fn check(cmd: &Command, m: &ArgMatches) -> Result<(), Box<(Command, String)>> {
    let (mut cmd, mut m) = (cmd, m);
    let mut path = vec![cmd.get_name().to_string()];
    while let Some((name, sub)) = m.subcommand() {
        let Some(c) = cmd.find_subcommand(name) else {
            break;
        };
        path.push(name.to_string());
        cmd = c;
        m = sub;
    }
    ranges(cmd, m)
        .and_then(|()| games(cmd, m, &path.join(" ")))
        .map_err(|e| Box::new((cmd.clone(), e)))
}

/// `--flag value`, with " (the default)" when the user did not give it.
fn shown(m: &ArgMatches, id: &str) -> String {
    let v = raw(m, id).unwrap_or_default();
    let default = m.value_source(id) != Some(ValueSource::CommandLine);
    format!(
        "--{} {v}{}",
        id.replace('_', "-"),
        if default { " (the default)" } else { "" }
    )
}

fn raw(m: &ArgMatches, id: &str) -> Option<String> {
    m.try_get_raw(id)
        .ok()
        .flatten()?
        .next()
        .map(|v| v.to_string_lossy().into_owned())
}

fn ranges(cmd: &Command, m: &ArgMatches) -> Result<(), String> {
    let ids: Vec<&str> = cmd.get_arguments().map(|a| a.get_id().as_str()).collect();
    let mut pairs: Vec<(String, String)> = ids
        .iter()
        .filter_map(|id| id.strip_prefix("min_"))
        .map(|rest| (format!("min_{rest}"), format!("max_{rest}")))
        .filter(|(_, hi)| ids.contains(&hi.as_str()))
        .collect();
    pairs.extend(
        ORDERED
            .iter()
            .filter(|(lo, hi)| ids.contains(lo) && ids.contains(hi))
            .map(|(lo, hi)| (lo.to_string(), hi.to_string())),
    );
    for (lo, hi) in pairs {
        let why = if lo.starts_with("min_") {
            ": nothing lies between them"
        } else {
            ""
        };
        let num = |id: &str| raw(m, id).and_then(|v| v.trim().parse::<f64>().ok());
        if let (Some(a), Some(b)) = (num(&lo), num(&hi)) {
            if a > b {
                return Err(format!(
                    "{} is more than {}{why}",
                    shown(m, &lo),
                    shown(m, &hi)
                ));
            }
        }
    }
    Ok(())
}

/// The games a flag's help names as its own ("BoxOff: rows h." → BoxOff; "Ice blocks and
/// PushPush: …" → both), if its head names games only.
fn owners(help: &str) -> Vec<&'static dyn floe::ops::AnyGame> {
    let Some((head, _)) = help.split_once(':') else {
        return Vec::new();
    };
    let head = head.trim().to_lowercase();
    let named: Option<Vec<_>> = head
        .split(" and ")
        .map(|part| {
            let part = part.trim();
            floe::games::all().iter().copied().find(|g| {
                let t = g.info().title.to_lowercase();
                part == t || part.starts_with(&format!("{t}-")) || part == g.info().name
            })
        })
        .collect();
    named.unwrap_or_default()
}

fn games(cmd: &Command, m: &ArgMatches, path: &str) -> Result<(), String> {
    let Some(game) = cmd
        .get_arguments()
        .find(|a| a.is_positional() && a.get_id() == "game")
        .and_then(|_| raw(m, "game"))
    else {
        return Ok(());
    };
    let Ok(chosen) = floe::games::find(&game) else {
        return Ok(());
    };
    for a in cmd.get_arguments() {
        let id = a.get_id().as_str();
        if m.value_source(id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
        let gs = owners(&help);
        if !gs.is_empty() && gs.iter().all(|g| g.info().name != chosen.info().name) {
            let titles: Vec<&str> = gs.iter().map(|g| g.info().title).collect();
            return Err(format!(
                "--{} does not apply to {}: it is a flag of {} (`{path} {game}` does not \
                 take it)",
                a.get_long().unwrap_or(id),
                chosen.info().title,
                titles.join(" and ")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Cli;
    use clap::CommandFactory;

    fn verdict(line: &str) -> Result<(), String> {
        let cmd = Cli::command();
        let m = cmd
            .clone()
            .try_get_matches_from(line.split_whitespace())
            .unwrap();
        check(&cmd, &m).map_err(|b| b.1)
    }

    #[test]
    fn empty_ranges_are_refused_naming_defaults_as_such() {
        let e = verdict("floe table reach --min-size 5 --max-size 3").unwrap_err();
        assert_eq!(
            e,
            "--min-size 5 is more than --max-size 3: nothing lies between them"
        );
        let e = verdict("floe table reach --min-size 12").unwrap_err();
        assert!(e.contains("--max-size 10 (the default)"), "{e}");
        let e = verdict("floe experiment boxoff --challenges 5").unwrap_err();
        assert!(
            e.starts_with("--trials 10 (the default) is more than --challenges 5"),
            "{e}"
        );
        let e = verdict("floe generate --rows 5 --cols 5 --min-pushes 6 --max-pushes 4");
        assert!(e.is_err());
        verdict("floe table reach --min-size 3 --max-size 3").unwrap();
        verdict("floe generate --rows 5 --cols 5 --min-pushes 4").unwrap();
    }

    #[test]
    fn a_flag_of_another_game_is_refused() {
        for (line, flag) in [
            (
                "floe experiment fujisan --rows 9",
                "--rows does not apply to Fujisan: it is a flag of BoxOff",
            ),
            (
                "floe experiment boxoff --suits 3",
                "--suits does not apply to BoxOff: it is a flag of Pretzel",
            ),
            (
                "floe hardest icepath --rows 3 --cols 3 --blocks 2",
                "--blocks does not apply to ice path: it is a flag of ice blocks",
            ),
            (
                "floe hardest ice --rows 3 --cols 3 --rocks 2",
                "--rocks does not apply to ice blocks: it is a flag of ice path",
            ),
        ] {
            let e = verdict(line).unwrap_err();
            assert!(e.starts_with(flag), "{line}: {e}");
        }
        verdict("floe experiment boxoff --rows 3 --cols 4").unwrap();
        verdict("floe experiment pretzel --suits 3").unwrap();
        verdict("floe hardest ice --rows 3 --cols 3 --blocks 2").unwrap();
        // a flag of two games
        verdict("floe hardest pushpush --rows 3 --cols 3 --blocks 2").unwrap();
        let e = verdict("floe hardest icepath --rows 3 --cols 3 --blocks 2").unwrap_err();
        assert!(e.contains("it is a flag of ice blocks and PushPush"), "{e}");
    }
}
