//! What the player can do, and the key names scripts use for it.

use crate::grid::Dir;
use std::fmt;
use std::str::FromStr;

/// One thing the player does. The terminal front end maps key presses to these; scripts name
/// them with [`Action::from_str`] (see [`parse_keys`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// An arrow: push the selected block (ice blocks), walk or push (PushPush, Ice Tower),
    /// or move the cursor (ice blocks, cursor mode).
    Arrow(Dir),
    /// Select the next block, row by row (ice blocks).
    NextBlock,
    /// Select the previous block (ice blocks).
    PrevBlock,
    /// Ice blocks: enter cursor mode, or select the block under the cursor and leave it.
    Select,
    /// Take back the last push.
    Undo,
    /// Play the last push taken back again.
    Redo,
    /// Back to the start of the level.
    Restart,
    /// Ask the solver for the next push of a fewest-pushes solution.
    Hint,
    /// Play the hinted push.
    FollowHint,
    /// A click or a tap on a cell: selects the block there (ice blocks), or shows the next
    /// legal move that involves the cell (games played by picking a move). Script name
    /// `click:ROW:COL` (0-based).
    Click(crate::grid::Pos),
    /// Leave the game.
    Quit,
}

/// The key names [`Action::from_str`] accepts, for help texts and error messages.
pub const KEY_NAMES: &str =
    "up down left right tab backtab space enter u ctrl-z r ctrl-y R h H q click:ROW:COL";

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Action, String> {
        // single letters are case-sensitive (r redo, R restart; h hint, H follow the hint)
        let a = match s {
            "u" => Action::Undo,
            "r" => Action::Redo,
            "R" => Action::Restart,
            "h" => Action::Hint,
            "H" => Action::FollowHint,
            "q" => Action::Quit,
            _ if s.to_ascii_lowercase().starts_with("click:") => return click(&s[6..]),
            _ => match s.to_ascii_lowercase().as_str() {
                "up" | "↑" => Action::Arrow(Dir::Up),
                "down" | "↓" => Action::Arrow(Dir::Down),
                "left" | "←" => Action::Arrow(Dir::Left),
                "right" | "→" => Action::Arrow(Dir::Right),
                "tab" | "space" | "next" => Action::NextBlock,
                "backtab" | "shift-tab" | "prev" => Action::PrevBlock,
                "enter" | "return" | "select" => Action::Select,
                "undo" | "ctrl-z" | "c-z" => Action::Undo,
                "redo" | "ctrl-y" | "c-y" => Action::Redo,
                "restart" => Action::Restart,
                "hint" => Action::Hint,
                "follow" | "follow-hint" => Action::FollowHint,
                "quit" | "esc" | "escape" => Action::Quit,
                _ => {
                    return Err(format!(
                        "unknown key '{}': expected one of {KEY_NAMES}",
                        crate::input::shown_word(s)
                    ))
                }
            },
        };
        Ok(a)
    }
}

/// `ROW:COL` of a `click:ROW:COL` key.
fn click(at: &str) -> Result<Action, String> {
    let bad = || {
        format!(
            "unknown key 'click:{}': a click is click:ROW:COL, 0-based",
            crate::input::shown_word(at)
        )
    };
    let (r, c) = at.split_once(':').ok_or_else(bad)?;
    let row = r.trim().parse().map_err(|_| bad())?;
    let col = c.trim().parse().map_err(|_| bad())?;
    Ok(Action::Click(crate::grid::Pos::new(row, col)))
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Action::Click(p) = self {
            return write!(f, "click:{}:{}", p.row, p.col);
        }
        f.write_str(match self {
            Action::Arrow(Dir::Up) => "up",
            Action::Arrow(Dir::Down) => "down",
            Action::Arrow(Dir::Left) => "left",
            Action::Arrow(Dir::Right) => "right",
            Action::NextBlock => "tab",
            Action::PrevBlock => "backtab",
            Action::Select => "enter",
            Action::Undo => "u",
            Action::Redo => "r",
            Action::Restart => "R",
            Action::Hint => "h",
            Action::FollowHint => "H",
            Action::Quit => "q",
            Action::Click(_) => unreachable!("written above"),
        })
    }
}

/// Reads a key script: names separated by white space or commas, e.g.
/// `"tab right right u h"`. The error names the first unknown key and its 1-based place.
pub fn parse_keys(script: &str) -> Result<Vec<Action>, String> {
    script
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .enumerate()
        .map(|(i, w)| w.parse().map_err(|e| format!("key {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_case_matters_for_letters() {
        let all = parse_keys(&KEY_NAMES.replace("ROW:COL", "3:14")).unwrap();
        assert_eq!(all.len(), 17);
        assert_eq!(all[16], Action::Click(crate::grid::Pos::new(3, 14)));
        for a in &all {
            assert_eq!(a.to_string().parse::<Action>().unwrap(), *a);
        }
        assert_eq!("r".parse::<Action>(), Ok(Action::Redo));
        assert_eq!("R".parse::<Action>(), Ok(Action::Restart));
        assert_eq!("UP".parse::<Action>(), Ok(Action::Arrow(Dir::Up)));
        assert_eq!(
            parse_keys("tab, right\nu").unwrap(),
            vec![Action::NextBlock, Action::Arrow(Dir::Right), Action::Undo]
        );
        for bad in ["click:3", "click:a:1", "click:1:-2", "click:"] {
            let e = parse_keys(bad).unwrap_err();
            assert!(e.contains("a click is click:ROW:COL"), "{bad}: {e}");
        }
        let e = parse_keys("up jump").unwrap_err();
        assert!(e.starts_with("key 2: unknown key 'jump'"), "{e}");
    }
}
