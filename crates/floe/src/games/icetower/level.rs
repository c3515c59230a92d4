//! An Ice Tower level as data, and the community's map notation.
//!
//! The notation (spec `icetower.md`): one character per cell, `#` wall, space or `_` floor,
//! `%` ice, `$` golden ice, `*` fire, `-` recycler, `@` the magician, `^ v < >` arrows and `+`
//! dispensers. A map is at most 20 columns by 14 rows; a short line is padded with floor.
//!
//! Reading a file:
//! - lines before the map that are headers (`Game: icetower`, `Title: …`), comments (`;`) or
//!   blank are skipped; the map starts at the first other line, which is row 0;
//! - only the first 14 lines from there can be map rows; anything after them is ignored
//!   (level files often end with a note);
//! - inside those 14 lines the map ends at a header or comment line, or at a blank line
//!   followed by a line that is not a map row (a note); blank lines at the end are dropped;
//! - any other character in a map row is an error with its line and column.

use crate::error::ParseError;
use crate::grid::{Dir, Pos};
use std::fmt;

/// Largest map width, border included.
pub const MAX_COLS: usize = 20;
/// Largest map height, border included.
pub const MAX_ROWS: usize = 14;

/// What a cell of the map is, apart from the blocks and the magician on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// Empty floor (also an extinguished fire).
    Floor,
    /// Wall: blocks stop before it, the magician cannot enter it.
    Wall,
    /// A burning fire: a block entering it puts it out.
    Fire,
    /// A recycler: destroys regular ice that enters it; golden ice passes or rests on it.
    Recycler,
    /// An arrow (dynamic levels).
    Arrow(Dir),
    /// A dispenser (dynamic levels).
    Dispenser,
}

impl Tile {
    /// Whether this is an arrow or a dispenser, which only dynamic levels may hold.
    pub fn is_dynamic(self) -> bool {
        matches!(self, Tile::Arrow(_) | Tile::Dispenser)
    }
    /// The map character.
    pub fn symbol(self) -> char {
        match self {
            Tile::Floor => ' ',
            Tile::Wall => '#',
            Tile::Fire => '*',
            Tile::Recycler => '-',
            Tile::Arrow(Dir::Up) => '^',
            Tile::Arrow(Dir::Down) => 'v',
            Tile::Arrow(Dir::Left) => '<',
            Tile::Arrow(Dir::Right) => '>',
            Tile::Dispenser => '+',
        }
    }
    /// A short English name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Tile::Floor => "floor",
            Tile::Wall => "a wall",
            Tile::Fire => "a fire",
            Tile::Recycler => "a recycler",
            Tile::Arrow(_) => "an arrow",
            Tile::Dispenser => "a dispenser",
        }
    }
}

/// The two kinds of block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Block {
    /// Regular ice `%`: vanishes in a fire or a recycler.
    Ice,
    /// Golden ice `$`: permanent; puts out every fire it crosses.
    Golden,
}

impl Block {
    /// The map character.
    pub fn symbol(self) -> char {
        match self {
            Block::Ice => '%',
            Block::Golden => '$',
        }
    }
}

/// An Ice Tower level: the map, the blocks on it and the magician.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tower {
    /// The level's name (the file's name, or a `Title:` header).
    pub name: String,
    /// The file it was read from, for messages (`<level>` when built in code).
    pub file: String,
    rows: usize,
    cols: usize,
    tiles: Vec<Tile>,
    blocks: Vec<Option<Block>>,
    magician: Pos,
    /// 1-based line of row 0 in the source text, for messages.
    first_line: usize,
}

impl Tower {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Whether `p` is on the map.
    pub fn contains(&self, p: Pos) -> bool {
        p.row < self.rows && p.col < self.cols
    }
    /// The tile at `p` (on the map).
    pub fn tile(&self, p: Pos) -> Tile {
        self.tiles[p.row * self.cols + p.col]
    }
    /// The block at `p`, if any.
    pub fn block(&self, p: Pos) -> Option<Block> {
        self.blocks[p.row * self.cols + p.col]
    }
    /// Where the magician starts.
    pub fn magician(&self) -> Pos {
        self.magician
    }
    /// Every cell, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| Pos::new(r, c)))
    }
    /// The fires, row by row.
    pub fn fires(&self) -> Vec<Pos> {
        self.positions()
            .filter(|&p| self.tile(p) == Tile::Fire)
            .collect()
    }
    /// Number of blocks of `kind`.
    pub fn count(&self, kind: Block) -> usize {
        self.blocks.iter().filter(|b| **b == Some(kind)).count()
    }
    /// The first arrow or dispenser, row by row, if any.
    pub fn first_dynamic(&self) -> Option<(Pos, Tile)> {
        self.positions()
            .map(|p| (p, self.tile(p)))
            .find(|(_, t)| t.is_dynamic())
    }
    /// The line and column (1-based) in the source text of the cell `p`.
    pub fn source_position(&self, p: Pos) -> (usize, usize) {
        (self.first_line + p.row, p.col + 1)
    }

    /// A level from its parts: `rows × cols` tiles row by row, blocks and the magician.
    /// Fails (with a message) when a block or the magician stands on something other than
    /// floor, or the size is out of range.
    pub fn from_parts(
        name: &str,
        rows: usize,
        cols: usize,
        tiles: Vec<Tile>,
        blocks: Vec<Option<Block>>,
        magician: Pos,
    ) -> Result<Tower, String> {
        if rows == 0 || cols == 0 || rows > MAX_ROWS || cols > MAX_COLS {
            return Err(format!(
                "a map is 1 to {MAX_ROWS} rows by 1 to {MAX_COLS} columns, not {rows} × {cols}"
            ));
        }
        if tiles.len() != rows * cols || blocks.len() != rows * cols {
            return Err("tiles and blocks must cover the map".into());
        }
        if magician.row >= rows || magician.col >= cols {
            return Err("the magician is off the map".into());
        }
        let i = magician.row * cols + magician.col;
        if tiles[i] != Tile::Floor || blocks[i].is_some() {
            return Err("the magician must start on empty floor".into());
        }
        if let Some(k) = (0..rows * cols).find(|&k| blocks[k].is_some() && tiles[k] != Tile::Floor)
        {
            return Err(format!(
                "a block stands on {} at row {}, col {}",
                tiles[k].name(),
                k / cols,
                k % cols
            ));
        }
        Ok(Tower {
            name: name.to_string(),
            file: "<level>".to_string(),
            rows,
            cols,
            tiles,
            blocks,
            magician,
            first_line: 1,
        })
    }

    /// The map in the community notation (floor as spaces, no trailing spaces). Floor that
    /// the reader would not see as such is written `_`: a row of floor only (a blank line
    /// would be skipped or dropped at the map's top or bottom), and the last column when
    /// it is floor only (the map would lose it).
    pub fn to_text(&self) -> String {
        let text = map_text(self.rows, self.cols, self.magician, |p| {
            self.block(p).map_or(self.tile(p).symbol(), |b| b.symbol())
        });
        let mut lines: Vec<String> = text
            .lines()
            .map(|l| if l.is_empty() { "_" } else { l }.to_string())
            .collect();
        if lines.iter().all(|l| l.chars().count() < self.cols) {
            let first = &mut lines[0];
            let pad = self.cols - 1 - first.chars().count();
            first.extend(std::iter::repeat_n(' ', pad));
            first.push('_');
        }
        lines.iter().map(|l| format!("{l}\n")).collect()
    }
}

impl fmt::Display for Tower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// Whether `line` is a header (`Key: value`) or a comment (`;`), never a map row.
fn is_header(line: &str) -> bool {
    let t = line.trim_start();
    if t.starts_with(';') {
        return true;
    }
    match t.split_once(':') {
        Some((key, _)) => {
            !key.is_empty()
                && key.starts_with(|c: char| c.is_alphabetic())
                && key
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        }
        None => false,
    }
}

fn is_map_char(c: char) -> bool {
    matches!(
        c,
        ' ' | '_' | '#' | '%' | '$' | '*' | '-' | '@' | '^' | 'v' | '<' | '>' | '+'
    )
}

fn is_map_row(line: &str) -> bool {
    line.chars().all(is_map_char)
}

/// Parses one level in the community notation. `file` names the source in errors; the
/// level's name is a `Title:` header if there is one, else `name`.
pub fn parse(text: &str, file: &str, name: &str) -> Result<Tower, ParseError> {
    let err = |line: usize, col: usize, message: String| ParseError {
        file: file.to_string(),
        line,
        col,
        message,
    };
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut title = None;
    let mut start = None;
    for (i, l) in lines.iter().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        if is_header(l) {
            if let Some((k, v)) = l.split_once(':') {
                if k.trim().eq_ignore_ascii_case("title") && !v.trim().is_empty() {
                    title = Some(v.trim().to_string());
                }
            }
            continue;
        }
        start = Some(i);
        break;
    }
    let Some(start) = start else {
        return Err(err(
            1,
            1,
            "no map: expected rows of # (wall), % (ice), * (fire), @ (magician), …".into(),
        ));
    };
    let window = &lines[start..lines.len().min(start + MAX_ROWS)];
    let mut rows: Vec<&str> = Vec::new();
    for (k, l) in window.iter().enumerate() {
        if is_header(l) {
            break;
        }
        if !is_map_row(l) {
            // a note after a blank line ends the map; otherwise it is a broken row
            let after_blank = k > 0 && rows.last().is_some_and(|r| r.trim().is_empty());
            if after_blank {
                break;
            }
            let (col, ch) = l
                .chars()
                .enumerate()
                .find(|&(_, c)| !is_map_char(c))
                .expect("a line that is not a map row has a foreign character");
            return Err(err(
                start + k + 1,
                col + 1,
                format!(
                    "unexpected {ch:?} in the map: cells are # (wall), space or _ (floor), \
                     % (ice), $ (golden ice), * (fire), - (recycler), @ (magician), \
                     ^ v < > (arrows), + (dispenser); a note after the map needs a blank \
                     line before it"
                ),
            ));
        }
        rows.push(l);
    }
    while rows.last().is_some_and(|r| r.trim().is_empty()) {
        rows.pop();
    }
    let nrows = rows.len();
    let mut ncols = 0;
    for (k, r) in rows.iter().enumerate() {
        let n = r.chars().count();
        if n > MAX_COLS {
            return Err(err(
                start + k + 1,
                MAX_COLS + 1,
                format!("the map is wider than {MAX_COLS} columns ({n} here)"),
            ));
        }
        ncols = ncols.max(n);
    }
    let mut tiles = vec![Tile::Floor; nrows * ncols];
    let mut blocks = vec![None; nrows * ncols];
    let mut magician: Option<Pos> = None;
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let i = r * ncols + c;
            match ch {
                ' ' | '_' => {}
                '#' => tiles[i] = Tile::Wall,
                '%' => blocks[i] = Some(Block::Ice),
                '$' => blocks[i] = Some(Block::Golden),
                '*' => tiles[i] = Tile::Fire,
                '-' => tiles[i] = Tile::Recycler,
                '^' => tiles[i] = Tile::Arrow(Dir::Up),
                'v' => tiles[i] = Tile::Arrow(Dir::Down),
                '<' => tiles[i] = Tile::Arrow(Dir::Left),
                '>' => tiles[i] = Tile::Arrow(Dir::Right),
                '+' => tiles[i] = Tile::Dispenser,
                '@' => {
                    if let Some(m) = magician {
                        return Err(err(
                            start + r + 1,
                            c + 1,
                            format!(
                                "a second magician; the first is at line {}, column {}",
                                start + m.row + 1,
                                m.col + 1
                            ),
                        ));
                    }
                    magician = Some(Pos::new(r, c));
                }
                _ => unreachable!("map rows hold map characters only"),
            }
        }
    }
    let Some(magician) = magician else {
        return Err(err(
            start + 1,
            1,
            "the map has no magician (@): he must start somewhere".into(),
        ));
    };
    Ok(Tower {
        name: title.unwrap_or_else(|| name.to_string()),
        file: file.to_string(),
        rows: nrows,
        cols: ncols,
        tiles,
        blocks,
        magician,
        first_line: start + 1,
    })
}

/// A map in the community notation: `@` for the magician, `symbol(p)` elsewhere, trailing
/// spaces trimmed.
pub(crate) fn map_text(
    rows: usize,
    cols: usize,
    magician: Pos,
    symbol: impl Fn(Pos) -> char,
) -> String {
    let mut s = String::new();
    for r in 0..rows {
        let mut line: String = (0..cols)
            .map(|c| {
                let p = Pos::new(r, c);
                if p == magician {
                    '@'
                } else {
                    symbol(p)
                }
            })
            .collect();
        line.truncate(line.trim_end_matches(' ').len());
        s.push_str(&line);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_notation() {
        let t = parse("#####\n#@%*#\n#_$-\n#####\n", "f", "x").unwrap();
        assert_eq!((t.rows(), t.cols()), (4, 5));
        assert_eq!(t.magician(), Pos::new(1, 1));
        assert_eq!(t.block(Pos::new(1, 2)), Some(Block::Ice));
        assert_eq!(t.tile(Pos::new(1, 3)), Tile::Fire);
        assert_eq!(t.tile(Pos::new(2, 1)), Tile::Floor);
        assert_eq!(t.block(Pos::new(2, 2)), Some(Block::Golden));
        assert_eq!(t.tile(Pos::new(2, 3)), Tile::Recycler);
        // the short line is padded with floor
        assert_eq!(t.tile(Pos::new(2, 4)), Tile::Floor);
        assert_eq!(t.fires(), vec![Pos::new(1, 3)]);
        assert_eq!(t.to_text(), "#####\n#@%*#\n# $-\n#####\n");
        assert_eq!(t.name, "x");
        assert!(t.first_dynamic().is_none());
    }

    #[test]
    fn floor_at_the_edges_is_written_to_be_read_again() {
        // a row of floor at the top and the bottom, a column of floor at the right
        let t = parse("__\n@%\n _\n", "f", "x").unwrap();
        assert_eq!((t.rows(), t.cols()), (3, 2));
        let text = t.to_text();
        assert_eq!(text, "_\n@%\n_\n");
        let again = parse(&text, "f", "x").unwrap();
        assert_eq!((again.rows(), again.cols()), (3, 2));
        assert_eq!(again.magician(), Pos::new(1, 0));
        let t = parse("___\n@%\n", "f", "x").unwrap();
        let text = t.to_text();
        assert_eq!(text, "_ _\n@%\n");
        let again = parse(&text, "f", "x").unwrap();
        assert_eq!((again.rows(), again.cols()), (2, 3));
        assert_eq!(again.to_text(), text);
    }

    #[test]
    fn headers_notes_and_the_fourteen_line_window() {
        let t = parse(
            "Game: icetower\nTitle: tiny\n\n###\n#@#\n###\n\nshould have no solution!\n",
            "f",
            "x",
        )
        .unwrap();
        assert_eq!(t.name, "tiny");
        assert_eq!(t.rows(), 3);
        assert_eq!(t.source_position(Pos::new(1, 1)), (5, 2));
        // junk after the 14th map line is never read
        let mut text = String::from("@\n");
        for _ in 0..13 {
            text.push_str("#\n");
        }
        text.push_str("this line is not read\n");
        assert_eq!(parse(&text, "f", "x").unwrap().rows(), 14);
        // a header line right after the map ends it
        assert_eq!(parse("#@#\nGame: icetower\n", "f", "x").unwrap().rows(), 1);
    }

    #[test]
    fn errors_have_positions() {
        let e = parse("###\n#@x\n", "f.txt", "x").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        assert!(
            e.to_string().starts_with("f.txt:2:3: unexpected 'x'"),
            "{e}"
        );
        let e = parse("#@#\n#@#\n", "f", "x").unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
        assert!(e.message.contains("second magician"));
        let e = parse("###\n# #\n", "f", "x").unwrap_err();
        assert!(e.message.contains("no magician"));
        let e = parse(&format!("@{}\n", "#".repeat(20)), "f", "x").unwrap_err();
        assert_eq!((e.line, e.col), (1, 21));
        let e = parse("\n\n", "f", "x").unwrap_err();
        assert!(e.message.contains("no map"));
        // a note straight after the map (no blank line) is taken for a broken row
        let e = parse("#@#\nnote\n", "f", "x").unwrap_err();
        assert_eq!((e.line, e.col), (2, 1));
    }

    #[test]
    fn dynamic_elements_parse() {
        let t = parse("@>v\n+<^\n", "f", "x").unwrap();
        assert_eq!(t.tile(Pos::new(0, 1)), Tile::Arrow(Dir::Right));
        assert_eq!(
            t.first_dynamic(),
            Some((Pos::new(0, 1), Tile::Arrow(Dir::Right)))
        );
        assert_eq!(t.tile(Pos::new(1, 0)), Tile::Dispenser);
        assert_eq!(t.to_text(), "@>v\n+<^\n");
    }

    #[test]
    fn from_parts_checks() {
        let tiles = vec![Tile::Floor, Tile::Fire];
        assert!(
            Tower::from_parts("t", 1, 2, tiles.clone(), vec![None, None], Pos::new(0, 0)).is_ok()
        );
        assert!(
            Tower::from_parts("t", 1, 2, tiles.clone(), vec![None, None], Pos::new(0, 1)).is_err()
        );
        assert!(Tower::from_parts(
            "t",
            1,
            2,
            tiles,
            vec![None, Some(Block::Ice)],
            Pos::new(0, 0)
        )
        .is_err());
    }
}
