//! One module per game: rules, text formats and fast engines.
//!
//! [`Game`] names the games floe knows; [`game_of`] reads the `Game:` line a level file may
//! carry, so that commands can pick the rules without a flag.

pub mod ice;
pub mod icetower;
pub mod pushpush;
pub mod solitaire;

use std::fmt;
use std::str::FromStr;

/// The games floe knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// Zelda-style ice block puzzles (spec `ice-blocks.md`).
    Ice,
    /// PushPush-1, -k and -* (spec `pushpush.md`).
    PushPush,
    /// The Japanese Ice Tower game, 氷塔 (spec `icetower.md`).
    IceTower,
    /// BoxOff (spec `solitaire.md`).
    BoxOff,
    /// Pretzel solitaire (spec `solitaire.md`).
    Pretzel,
    /// Fujisan (spec `solitaire.md`).
    Fujisan,
}

impl Game {
    /// Every game, in the order of the help text.
    pub const ALL: [Game; 6] = [
        Game::Ice,
        Game::PushPush,
        Game::IceTower,
        Game::BoxOff,
        Game::Pretzel,
        Game::Fujisan,
    ];

    /// The name used on the command line and in `Game:` lines.
    pub fn name(self) -> &'static str {
        match self {
            Game::Ice => "ice",
            Game::PushPush => "pushpush",
            Game::IceTower => "icetower",
            Game::BoxOff => "boxoff",
            Game::Pretzel => "pretzel",
            Game::Fujisan => "fujisan",
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Game {
    type Err = String;
    fn from_str(s: &str) -> Result<Game, String> {
        let key: String = s
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect();
        Ok(match key.as_str() {
            "ice" | "iceblocks" | "iceblock" | "zelda" => Game::Ice,
            "pushpush" | "pushpush1" => Game::PushPush,
            "icetower" | "氷塔" => Game::IceTower,
            "boxoff" => Game::BoxOff,
            "pretzel" => Game::Pretzel,
            "fujisan" => Game::Fujisan,
            _ => {
                let names: Vec<&str> = Game::ALL.iter().map(|g| g.name()).collect();
                return Err(format!(
                    "unknown game '{s}': expected one of {}",
                    names.join(", ")
                ));
            }
        })
    }
}

/// The game named by the first `Game:` line of a level file, if any: `Ok(None)` when the file
/// has no such line, an error (1-based line and column of the name, and a message) when it
/// names no known game.
/// Only lines before the first board row of each level can be headers, but a `Game:` line is
/// never a board row in any of floe's formats, so the whole text is scanned.
pub fn game_of(text: &str) -> Result<Option<Game>, (usize, usize, String)> {
    for (i, line) in text.lines().enumerate() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        if key.trim().eq_ignore_ascii_case("game") {
            let name = value.trim();
            let lead = value.len() - value.trim_start().len();
            let col = key.chars().count() + 1 + value[..lead].chars().count() + 1;
            return name.parse().map(Some).map_err(|m| (i + 1, col, m));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for g in Game::ALL {
            assert_eq!(g.name().parse::<Game>(), Ok(g));
        }
        assert_eq!("Push-Push".parse::<Game>(), Ok(Game::PushPush));
        assert_eq!("Ice Tower".parse::<Game>(), Ok(Game::IceTower));
        assert!("sokoban".parse::<Game>().is_err());
    }

    #[test]
    fn game_lines() {
        assert_eq!(game_of("Title: x\n$--\n"), Ok(None));
        assert_eq!(
            game_of("; c\nGame: pushpush\n@-.\n"),
            Ok(Some(Game::PushPush))
        );
        assert_eq!(game_of("game:IceTower\n"), Ok(Some(Game::IceTower)));
        let (line, col, _) = game_of("\nGame: chess\n").unwrap_err();
        assert_eq!((line, col), (2, 7));
    }
}
