//! Grid vocabulary shared by the sliding games: directions, positions and pushes.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One of the four push directions. Rows grow downwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards the last column.
    Right,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
}

impl Dir {
    /// All four, clockwise from up.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// Index 0..4 in [`Dir::ALL`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    /// The opposite direction.
    #[inline]
    pub fn opposite(self) -> Dir {
        Dir::ALL[(self.index() + 2) % 4]
    }
    /// (row, column) step.
    #[inline]
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Right => (0, 1),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
        }
    }
    /// Lower-case English name, as in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Right => "right",
            Dir::Down => "down",
            Dir::Left => "left",
        }
    }
    /// Whether moving this way increases the row-major cell index.
    #[inline]
    pub fn is_forward(self) -> bool {
        matches!(self, Dir::Right | Dir::Down)
    }
}

display_by_name!(Dir);

impl FromStr for Dir {
    type Err = String;
    /// Accepts `up|down|left|right`, `u|d|l|r`, `n|e|s|w` and `north|east|south|west`,
    /// in any case.
    fn from_str(s: &str) -> Result<Dir, String> {
        match s.to_ascii_lowercase().as_str() {
            "up" | "u" | "north" | "n" => Ok(Dir::Up),
            "right" | "r" | "east" | "e" => Ok(Dir::Right),
            "down" | "d" | "south" | "s" => Ok(Dir::Down),
            "left" | "l" | "west" | "w" => Ok(Dir::Left),
            _ => Err(format!(
                "unknown direction '{s}': expected up, down, left or right"
            )),
        }
    }
}

/// A cell, 0-based, row 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// Row from the top.
    pub row: usize,
    /// Column from the left.
    pub col: usize,
}

impl Pos {
    /// A position.
    pub fn new(row: usize, col: usize) -> Pos {
        Pos { row, col }
    }
    /// The neighbour in direction `d` inside a `rows × cols` grid, if any.
    pub fn step(self, d: Dir, rows: usize, cols: usize) -> Option<Pos> {
        let (dr, dc) = d.delta();
        let r = self.row.checked_add_signed(dr)?;
        let c = self.col.checked_add_signed(dc)?;
        (r < rows && c < cols).then_some(Pos::new(r, c))
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, col {}", self.row, self.col)
    }
}

/// A push: the block standing at (`row`, `col`) before the push, pushed towards `dir`.
/// Serialises as `{"row": r, "col": c, "dir": "up"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Push {
    /// Row of the block before the push.
    pub row: usize,
    /// Column of the block before the push.
    pub col: usize,
    /// Direction of the push.
    pub dir: Dir,
}

impl Push {
    /// A push of the block at `pos`.
    pub fn new(pos: Pos, dir: Dir) -> Push {
        Push {
            row: pos.row,
            col: pos.col,
            dir,
        }
    }
    /// The block's position before the push.
    pub fn pos(&self) -> Pos {
        Pos::new(self.row, self.col)
    }
    /// The push's number among those of a board `cols` wide (learning environments' actions,
    /// [`PUSH_ACTIONS`]): `(row × cols + col) × 4 + d`, `d` its direction clockwise from up.
    /// `None` for a block beyond the board's `rows × cols`.
    pub fn action(&self, rows: usize, cols: usize) -> Option<usize> {
        (self.row < rows && self.col < cols)
            .then(|| (self.row * cols + self.col) * 4 + self.dir as usize)
    }
}

/// The action encoding of the games whose moves are pushes of a block ([`Push::action`]), in
/// words; a `rows × cols` board has `rows × cols × 4` actions.
pub const PUSH_ACTIONS: &str = "(row × cols + col) × 4 + direction: the pushed block's cell \
     before the push and the push's direction (0 up, 1 right, 2 down, 3 left)";

impl fmt::Display for Push {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}) {}", self.row, self.col, self.dir)
    }
}

/// A push of a list that breaks a sliding game's rules: which one (0-based), the push, and why
/// (`R`: the game's reasons, such as `ice::Illegal`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalPush<R> {
    /// 0-based index of the push in the list.
    pub index: usize,
    /// The push.
    pub push: Push,
    /// Why.
    pub reason: R,
}

impl<R: fmt::Display> fmt::Display for IllegalPush<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "push {} (row {}, col {}, {}) is illegal: {}",
            self.index + 1,
            self.push.row,
            self.push.col,
            self.push.dir,
            self.reason
        )
    }
}

impl<R: fmt::Display + fmt::Debug> std::error::Error for IllegalPush<R> {}

/// Reads a list of pushes from text: a JSON array of `{"row", "col", "dir"}` objects, a JSON
/// object with such an array under `"moves"` (the output of `floe solve --json`), or plain
/// text with a `row col dir` triple per push (separators: white space, commas, parentheses;
/// lines starting with `;` or `#` are comments).
pub fn parse_pushes(text: &str, file: &str) -> Result<Vec<Push>, crate::ParseError> {
    let err = |line: usize, col: usize, message: String| crate::ParseError {
        file: file.to_string(),
        line,
        col,
        message,
    };
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') || trimmed.starts_with('{') {
        #[derive(Deserialize)]
        struct Wrapped {
            moves: Vec<Push>,
        }
        let parsed = if trimmed.starts_with('[') {
            serde_json::from_str::<Vec<Push>>(text)
        } else {
            serde_json::from_str::<Wrapped>(text).map(|w| w.moves)
        };
        return parsed.map_err(|e| {
            let msg = e.to_string();
            // serde_json appends " at line L column C"; the position goes in front instead
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            err(e.line().max(1), e.column().max(1), msg)
        });
    }
    let mut pushes = Vec::new();
    // tokens with their positions
    let mut pending: Vec<(&str, usize, usize)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with(';') || t.starts_with('#') {
            continue;
        }
        let mut start = None;
        let bytes: Vec<(usize, char)> = line.char_indices().collect();
        for (k, &(b, ch)) in bytes.iter().enumerate() {
            let sep = ch.is_whitespace() || matches!(ch, ',' | '(' | ')' | ';');
            if !sep && start.is_none() {
                start = Some((b, k));
            }
            let end_here = sep || k + 1 == bytes.len();
            if let (true, Some((sb, sk))) = (end_here, start) {
                let eb = if sep { b } else { b + ch.len_utf8() };
                pending.push((&line[sb..eb], i + 1, sk + 1));
                start = None;
            }
        }
    }
    for chunk in pending.chunks(3) {
        let [(r, rl, rc), (c, cl, cc), (d, dl, dc)] = chunk else {
            let (_, l, c) = chunk[chunk.len() - 1];
            return Err(err(
                l,
                c,
                "a push needs three items: row col direction".into(),
            ));
        };
        let row = r
            .parse()
            .map_err(|_| err(*rl, *rc, format!("expected a row number, found '{r}'")))?;
        let col = c
            .parse()
            .map_err(|_| err(*cl, *cc, format!("expected a column number, found '{c}'")))?;
        let dir = d.parse().map_err(|m| err(*dl, *dc, m))?;
        pushes.push(Push { row, col, dir });
    }
    Ok(pushes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_pushes_in_every_form() {
        let want = vec![
            Push::new(Pos::new(2, 4), Dir::Up),
            Push::new(Pos::new(0, 1), Dir::Left),
        ];
        let list = r#"[{"row":2,"col":4,"dir":"up"},{"row":0,"col":1,"dir":"left"}]"#;
        assert_eq!(parse_pushes(list, "m").unwrap(), want);
        let doc = r#"{"solved": true, "moves": [{"row":2,"col":4,"dir":"up"},
            {"row":0,"col":1,"dir":"left"}], "pushes": 2}"#;
        assert_eq!(parse_pushes(doc, "m").unwrap(), want);
        assert_eq!(
            parse_pushes("; mine\n2 4 up\n(0,1) left\n", "m").unwrap(),
            want
        );
        assert_eq!(parse_pushes("2,4,u 0,1,w", "m").unwrap(), want);
        assert!(parse_pushes("", "m").unwrap().is_empty());
    }

    #[test]
    fn push_list_errors_have_positions() {
        let e = parse_pushes("2 4 up\n1 x down\n", "m.txt").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        assert!(e
            .to_string()
            .starts_with("m.txt:2:3: expected a column number"));
        let e = parse_pushes("2 4 up\n1 2\n", "m").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_pushes("1 1 sideways", "m").unwrap_err();
        assert_eq!((e.line, e.col), (1, 5));
        let e = parse_pushes(r#"[{"row":1,"col":2,"dir":"upp"}]"#, "m").unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse_pushes(r#"{"pushes": 3}"#, "m").unwrap_err();
        assert!(e.message.contains("moves"), "{e}");
    }

    #[test]
    fn directions() {
        for d in Dir::ALL {
            assert_eq!(d.opposite().opposite(), d);
            assert_ne!(d.opposite(), d);
            assert_eq!(d.name().parse::<Dir>().unwrap(), d);
        }
        assert_eq!("N".parse::<Dir>().unwrap(), Dir::Up);
        assert!("sideways".parse::<Dir>().is_err());
        assert_eq!(Pos::new(0, 0).step(Dir::Up, 3, 3), None);
        assert_eq!(Pos::new(2, 1).step(Dir::Right, 3, 3), Some(Pos::new(2, 2)));
        assert_eq!(Pos::new(2, 2).step(Dir::Down, 3, 3), None);
    }

    #[test]
    fn push_json_shape() {
        let p = Push::new(Pos::new(2, 4), Dir::Up);
        let j = serde_json::to_string(&p).unwrap();
        assert_eq!(j, r#"{"row":2,"col":4,"dir":"up"}"#);
        assert_eq!(serde_json::from_str::<Push>(&j).unwrap(), p);
    }
}
