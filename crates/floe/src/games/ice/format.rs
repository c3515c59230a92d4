//! Text formats for ice block levels: the project's own (spec: "Level text format") and
//! Kluiver's (`width height`, then rows of `. O T H W X`).
//!
//! Parsing is all-or-nothing: a file either yields every level or a [`ParseError`] naming the
//! file, line and column and what was expected.

use super::level::{Cell, Level, WalkRule};
use crate::error::{Error, ParseError};
use crate::games::file::Reader;
use crate::grid::Pos;
use std::fmt::Write as _;
use std::path::Path;
use std::str::FromStr;

/// A level file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The project's own format (`- = # . $ * @ +`).
    Floe,
    /// Kluiver's format (first line `width height`, then `. O T H W X` rows).
    Kluiver,
}

impl Format {
    /// `floe` or `kluiver`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Floe => "floe",
            Format::Kluiver => "kluiver",
        }
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s.to_ascii_lowercase().as_str() {
            "floe" | "own" | "xsb" => Ok(Format::Floe),
            "kluiver" => Ok(Format::Kluiver),
            _ => Err(format!(
                "unknown format '{s}': expected 'floe' or 'kluiver'"
            )),
        }
    }
}

/// Guesses the format from the first non-blank line: two whole numbers mean Kluiver's.
pub fn detect(text: &str) -> Format {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if size_tokens(first).is_some() {
        Format::Kluiver
    } else {
        Format::Floe
    }
}

/// Parses `text` (from `file`, used in messages) in `format`, or the detected one.
pub fn parse(text: &str, file: &str, format: Option<Format>) -> Result<Vec<Level>, ParseError> {
    // A byte-order mark some editors write is not part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match format.unwrap_or_else(|| detect(text)) {
        Format::Floe => parse_floe(text, file),
        Format::Kluiver => parse_kluiver(text, file),
    }
}

/// Reads and parses a level file; `-` reads standard input.
pub fn load(path: &Path, format: Option<Format>) -> Result<Vec<Level>, Error> {
    let (text, name) = crate::input::read_text(path)?;
    let mut levels = parse(&text, &name, format)?;
    name_after_file(&mut levels, &name);
    Ok(levels)
}

/// Kluiver's files carry no names: when no level of a file has a title, each is named after
/// the file's stem (`OOTIC`; `stem#2` in a file of several). Standard input names nothing.
pub fn name_after_file(levels: &mut [Level], file: &str) {
    if file.starts_with('<') || levels.iter().any(|l| l.title.is_some()) {
        return;
    }
    if let Some(stem) = Path::new(file).file_stem().and_then(|s| s.to_str()) {
        let n = levels.len();
        for (i, l) in levels.iter_mut().enumerate() {
            l.title = Some(if n == 1 {
                stem.to_string()
            } else {
                format!("{stem}#{}", i + 1)
            });
        }
    }
}

/// Picks one level: `sel` is a 1-based number or a title (case-insensitive). Returns the
/// 0-based index with the level.
pub fn select<'a>(levels: &'a [Level], sel: &str) -> Result<(usize, &'a Level), Error> {
    crate::input::select_titled(levels, sel, |l| l.title.clone())
}

/// The two numbers of a Kluiver `width height` line, as written (digits only), whatever
/// their size: a line of two numbers too large to hold is still a header, and is refused as
/// too large rather than taken for a board row.
fn size_tokens(line: &str) -> Option<(&str, &str)> {
    let mut it = line.split_whitespace();
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let w = it.next().filter(|t| digits(t))?;
    let h = it.next().filter(|t| digits(t))?;
    it.next().is_none().then_some((w, h))
}

fn size_line(line: &str) -> Option<(usize, usize)> {
    let (w, h) = size_tokens(line)?;
    Some((w.parse().ok()?, h.parse().ok()?))
}

fn err(file: &str, line: usize, col: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        file: file.to_string(),
        line,
        col,
        message: message.into(),
    }
}

/// A level being read in the floe format.
struct Pending {
    title: Option<String>,
    rules: Option<WalkRule>,
    comments: Vec<String>,
    meta: Vec<(String, String)>,
    /// (line number, row text) of the board rows.
    rows: Vec<(usize, String)>,
}

/// How ice block files of the floe format are read (the grid games' shared format).
const READER: Reader = Reader {
    game: "ice",
    noun: "ice block level",
    cells: "- = # . $ * @ +",
    says: |c, first_row| match c {
        ' ' => Some("a space is not a cell (use '-' for ice floor, '=' for normal floor)".into()),
        c if c.is_ascii_digit() && first_row => Some(format!(
            "unexpected character {} (a Kluiver file starts with a 'width height' line of two \
             numbers)",
            crate::input::shown(c)
        )),
        _ => None,
    },
    own_headers: true,
};

/// Parses the project's own format (see the spec, "Level text format").
///
/// Levels are separated by blank lines; `;` starts a comment line; `Title:`, `Rules:` and
/// `Game:` lines (and any other `Key: value` line) are headers of the next level. A header
/// directly after board rows starts a new level. Rows shorter than the longest are padded with
/// normal floor; trailing white space is ignored.
pub fn parse_floe(text: &str, file: &str) -> Result<Vec<Level>, ParseError> {
    READER.levels(text, file, |b| {
        let mut rules = None;
        let mut meta = Vec::new();
        for h in b.headers {
            if h.key.eq_ignore_ascii_case("rules") {
                rules = Some(
                    h.value
                        .parse()
                        .map_err(|m: String| err(file, h.line, h.value_col, m))?,
                );
            } else {
                meta.push((h.key, h.value));
            }
        }
        finish_floe(
            Pending {
                title: b.title,
                rules,
                comments: b.comments,
                meta,
                rows: b.rows,
            },
            file,
        )
    })
}

fn finish_floe(p: Pending, file: &str) -> Result<Level, ParseError> {
    let rows = p.rows.len();
    let cols = p
        .rows
        .iter()
        .map(|(_, r)| r.chars().count())
        .max()
        .unwrap_or(0);
    let (first_line, _) = p.rows[0];
    let mut level = Level::new(rows, cols).map_err(|e| err(file, first_line, 1, e.to_string()))?;
    let mut player: Option<(Pos, usize, usize)> = None;
    for (r, (n, text)) in p.rows.iter().enumerate() {
        for (c, ch) in text.chars().enumerate() {
            let pos = Pos::new(r, c);
            let (cell, block, is_player) = match ch {
                '-' => (Cell::Ice, false, false),
                '=' => (Cell::Floor, false, false),
                '#' => (Cell::Wall, false, false),
                '.' => (Cell::Target, false, false),
                '$' => (Cell::Ice, true, false),
                '*' => (Cell::Target, true, false),
                '@' => (Cell::Ice, false, true),
                '+' => (Cell::Target, false, true),
                _ => unreachable!("characters were checked"),
            };
            level
                .set_cell(pos, cell)
                .and_then(|_| level.set_block(pos, block))
                .map_err(|e| err(file, *n, c + 1, e.to_string()))?;
            if is_player {
                if let Some((_, pl, pc)) = player {
                    return Err(err(
                        file,
                        *n,
                        c + 1,
                        format!("a second player; the first stands at line {pl}, column {pc}"),
                    ));
                }
                player = Some((pos, *n, c + 1));
            }
        }
        for c in text.chars().count()..cols {
            level
                .set_cell(Pos::new(r, c), Cell::Floor)
                .expect("an empty cell can become floor");
        }
    }
    if let Some((pos, n, c)) = player {
        level
            .set_player(Some(pos))
            .map_err(|e| err(file, n, c, e.to_string()))?;
    }
    level.title = p.title;
    level.rules = p.rules;
    level.comments = p.comments;
    level.meta = p.meta;
    Ok(level)
}

/// Parses Kluiver's format: a `width height` line, then `height` rows of exactly `width`
/// cells (`.` ice, `O` block, `T` target, `H` block on target, `W` wall, `X` normal floor).
/// Several levels may follow each other; blank lines between them are ignored.
pub fn parse_kluiver(text: &str, file: &str) -> Result<Vec<Level>, ParseError> {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let mut levels = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let n = i + 1;
        if line.trim().is_empty() {
            i += 1;
            continue;
        }
        let Some((tw, th)) = size_tokens(line) else {
            return Err(err(
                file,
                n,
                1,
                "expected a 'width height' line (two whole numbers) starting a level",
            ));
        };
        let Some((w, h)) = size_line(line).filter(|&(w, h)| w <= 1024 && h <= 1024) else {
            return Err(err(
                file,
                n,
                1,
                format!("a {tw}×{th} board is too large: width and height go up to 1,024"),
            ));
        };
        if w == 0 || h == 0 {
            return Err(err(file, n, 1, format!("a {w}×{h} board has no cells")));
        }
        let mut level = Level::new(h, w).map_err(|e| err(file, n, 1, e.to_string()))?;
        for r in 0..h {
            let ln = n + 1 + r;
            let Some(row) = lines.get(i + 1 + r) else {
                return Err(err(
                    file,
                    lines.len().max(1),
                    lines.last().map_or(1, |l| l.chars().count() + 1),
                    format!("the file ends after {r} of the {h} rows announced at line {n}"),
                ));
            };
            let count = row.chars().count();
            for (c, ch) in row.chars().enumerate() {
                if c >= w {
                    return Err(err(
                        file,
                        ln,
                        c + 1,
                        format!(
                            "row {} is longer than the width {w} given at line {n}",
                            r + 1
                        ),
                    ));
                }
                let (cell, block) = match ch {
                    '.' => (Cell::Ice, false),
                    'O' => (Cell::Ice, true),
                    'T' => (Cell::Target, false),
                    'H' => (Cell::Target, true),
                    'W' => (Cell::Wall, false),
                    'X' => (Cell::Floor, false),
                    other => {
                        return Err(err(
                            file,
                            ln,
                            c + 1,
                            format!(
                                "unexpected character {}; expected one of . O T H W X",
                                crate::input::shown(other)
                            ),
                        ))
                    }
                };
                let pos = Pos::new(r, c);
                level
                    .set_cell(pos, cell)
                    .and_then(|_| level.set_block(pos, block))
                    .map_err(|e| err(file, ln, c + 1, e.to_string()))?;
            }
            if count < w {
                return Err(err(
                    file,
                    ln,
                    count + 1,
                    format!(
                        "row {} has {count} cells, but line {n} gives the width {w}",
                        r + 1
                    ),
                ));
            }
        }
        levels.push(level);
        i += 1 + h;
    }
    if levels.is_empty() {
        return Err(err(
            file,
            1,
            1,
            "no level found: expected a 'width height' line",
        ));
    }
    Ok(levels)
}

/// Writes levels in the project's own format, separated by blank lines.
pub fn write_floe(levels: &[Level]) -> String {
    let mut out = String::new();
    for (i, l) in levels.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for c in &l.comments {
            if c.is_empty() {
                out.push_str(";\n");
            } else {
                let _ = writeln!(out, "; {c}");
            }
        }
        if let Some(t) = &l.title {
            let _ = writeln!(out, "Title: {t}");
        }
        if let Some(r) = l.rules {
            let _ = writeln!(out, "Rules: {r}");
        }
        for (k, v) in &l.meta {
            let _ = writeln!(out, "{k}: {v}");
        }
        for r in 0..l.rows() {
            for c in 0..l.cols() {
                let p = Pos::new(r, c);
                let player = l.player() == Some(p);
                out.push(match (l.cell(p), l.has_block(p), player) {
                    (Cell::Ice, false, false) => '-',
                    (Cell::Ice, true, _) => '$',
                    (Cell::Ice, false, true) => '@',
                    (Cell::Target, false, false) => '.',
                    (Cell::Target, true, _) => '*',
                    (Cell::Target, false, true) => '+',
                    (Cell::Floor, _, _) => '=',
                    (Cell::Wall, _, _) => '#',
                });
            }
            out.push('\n');
        }
    }
    out
}

/// Writes levels in Kluiver's format. His format has no player, titles or walking rule: a
/// level that places the player is refused rather than silently changed; titles and rules
/// are dropped.
pub fn write_kluiver(levels: &[Level]) -> Result<String, Error> {
    let mut out = String::new();
    for (i, l) in levels.iter().enumerate() {
        if let Some(p) = l.player() {
            return Err(Error::invalid(format!(
                "{} places the player at ({p}), which Kluiver's format cannot express",
                l.display_name(i)
            )));
        }
        // Kluiver's format has no rules line: its levels are read under the free rule, so a
        // level of the walking rule would become another puzzle (an unsolvable one solvable)
        if l.rules == Some(WalkRule::Walk) {
            return Err(Error::invalid(format!(
                "{} is played under the walking rule (Rules: walk), which Kluiver's format \
                 cannot express: written there, it would be read as another puzzle under the \
                 free rule. Keep it in the floe format",
                l.display_name(i)
            )));
        }
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "{} {}", l.cols(), l.rows());
        for r in 0..l.rows() {
            for c in 0..l.cols() {
                let p = Pos::new(r, c);
                out.push(match (l.cell(p), l.has_block(p)) {
                    (Cell::Ice, false) => '.',
                    (Cell::Ice, true) => 'O',
                    (Cell::Target, false) => 'T',
                    (Cell::Target, true) => 'H',
                    (Cell::Floor, _) => 'X',
                    (Cell::Wall, _) => 'W',
                });
            }
            out.push('\n');
        }
    }
    Ok(out)
}

/// The Zelda rooms of `levels/zelda.txt`, for tests.
#[cfg(test)]
pub(crate) const ZELDA: &str = include_str!("../../../../../levels/zelda.txt");

/// The Zelda room titled `title`, for tests.
#[cfg(test)]
pub(crate) fn zelda(title: &str) -> Level {
    parse_floe(ZELDA, "zelda.txt")
        .unwrap()
        .into_iter()
        .find(|l| l.title.as_deref() == Some(title))
        .unwrap_or_else(|| panic!("no room {title}"))
}
