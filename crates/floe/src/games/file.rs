//! The level file the grid games share (ice blocks, PushPush, the ice path; spec: "Level
//! text format"), read once for all of them: levels separated by blank lines, `;` comments,
//! `Key: value` headers before a board (`Title:` or `Name:`, `Game:`, the game's own such as
//! `Rules:`), then the board's rows, one character a cell.
//!
//! [`Reader::read`] checks what every such game checks alike (the `Game:` line names this
//! game, a title is not empty, each row holds only the game's cells, headers are followed by
//! a board, a file holds a level) and hands each level's lines to the game as a [`Block`];
//! the game makes its level of them (its pieces, its own headers). Reading is all or
//! nothing: the first error with its line and column. The solitaire puzzles (one board of
//! tokens) and Ice Tower (qits's map window with notes after it) have formats of their own.

use crate::error::ParseError;

/// How a game's files are read: its name, its cells and what it says of a character that is
/// not one.
#[derive(Clone, Copy)]
pub struct Reader<'a> {
    /// The registry's name of the game, which a `Game:` line must name (`icepath`).
    pub game: &'a str,
    /// A level of it in messages (`ice path level`, `PushPush board`).
    pub noun: &'a str,
    /// The symbols of its cells, separated by spaces (`- = # . $ * @ +`).
    pub cells: &'a str,
    /// What the game says of a character that is not a cell, beyond "unexpected
    /// character" (a space: which symbol an empty cell is); the second argument is whether
    /// the row is the file's first.
    pub says: fn(char, bool) -> Option<String>,
    /// Whether headers other than `Title:`, `Name:` and `Game:` are kept for the game
    /// ([`Block::headers`]); else each is refused as unknown.
    pub own_headers: bool,
}

/// A header line other than `Title:`, `Name:` and `Game:`, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Its key, as written (`Rules`).
    pub key: String,
    /// Its value, trimmed.
    pub value: String,
    /// Its line, 1-based.
    pub line: usize,
    /// The column of its value, 1-based, in characters.
    pub value_col: usize,
}

/// One level's lines of a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    /// Its `Title:` (or `Name:`) header.
    pub title: Option<String>,
    /// Its comment lines, without `;` and one space after it.
    pub comments: Vec<String>,
    /// Its other headers, in order (when the reader keeps them).
    pub headers: Vec<Header>,
    /// Its board's rows: line number and text (trailing white space taken off).
    pub rows: Vec<(usize, String)>,
}

impl Reader<'_> {
    /// Every level's lines of `text` (named `file` in messages).
    pub fn read(&self, text: &str, file: &str) -> Result<Vec<Block>, ParseError> {
        self.levels(text, file, Ok)
    }

    /// Every level of `text` (named `file` in messages), each made by `make` of its lines as
    /// soon as they are read, so that the first error in the file is the one returned.
    pub fn levels<T>(
        &self,
        text: &str,
        file: &str,
        mut make: impl FnMut(Block) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        let err = |line: usize, col: usize, message: String| ParseError {
            file: file.to_string(),
            line,
            col,
            message,
        };
        let mut blocks = Vec::new();
        let mut cur = Block::default();
        let mut header_line: Option<usize> = None;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim_end();
            let first = line.trim_start();
            if first.is_empty() {
                if !cur.rows.is_empty() {
                    blocks.push(make(std::mem::take(&mut cur))?);
                    header_line = None;
                }
                continue;
            }
            if let Some(c) = first.strip_prefix(';') {
                cur.comments
                    .push(c.strip_prefix(' ').unwrap_or(c).to_string());
                continue;
            }
            if let Some((key, value)) = crate::input::header(first) {
                if !cur.rows.is_empty() {
                    blocks.push(make(std::mem::take(&mut cur))?);
                    header_line = None;
                }
                header_line.get_or_insert(n);
                let lead = line.len() - first.len();
                let key_col = line[..lead].chars().count() + 1;
                let value_col = line[..line.len() - value.len()].chars().count() + 1;
                match key.to_ascii_lowercase().as_str() {
                    "title" | "name" => {
                        if value.is_empty() {
                            return Err(err(n, value_col, "empty title".into()));
                        }
                        cur.title = Some(value.to_string());
                    }
                    // the game's name, or its spec with parameters (`pushpush(k=2)`), which
                    // the request applies
                    "game" => match crate::games::spec(value) {
                        Ok((g, _)) if g.info().name == self.game => {}
                        Ok((g, _)) => {
                            return Err(err(
                                n,
                                value_col,
                                format!(
                                    "this is a {} level, not {} {}",
                                    g.info().name,
                                    article(self.noun),
                                    self.noun
                                ),
                            ))
                        }
                        Err(m) => return Err(err(n, value_col, m.to_string())),
                    },
                    other if !self.own_headers => {
                        return Err(err(
                            n,
                            key_col,
                            format!("unknown header '{other}' (expected Game or Title)"),
                        ))
                    }
                    _ => cur.headers.push(Header {
                        key: key.to_string(),
                        value: value.to_string(),
                        line: n,
                        value_col,
                    }),
                }
                continue;
            }
            let first_row = blocks.is_empty() && cur.rows.is_empty();
            for (col, ch) in line.chars().enumerate() {
                if ch == ' ' || !self.cells.contains(ch) {
                    let what = (self.says)(ch, first_row).unwrap_or_else(|| match ch {
                        '\t' => "a tab is not a cell".to_string(),
                        c => format!("unexpected character {}", crate::input::shown(c)),
                    });
                    return Err(err(
                        n,
                        col + 1,
                        format!("{what}; expected one of {}", self.cells),
                    ));
                }
            }
            cur.rows.push((n, line.to_string()));
        }
        if !cur.rows.is_empty() {
            blocks.push(make(cur)?);
        } else if let Some(h) = header_line {
            return Err(err(h, 1, "header lines without a board after them".into()));
        }
        if blocks.is_empty() {
            return Err(err(1, 1, format!("no {} in the file", self.noun)));
        }
        Ok(blocks)
    }
}

/// `a` or `an` before `noun`.
fn article(noun: &str) -> &'static str {
    match noun.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const READER: Reader = Reader {
        game: "icepath",
        noun: "ice path level",
        cells: "- = # @ & .",
        says: |c, _| (c == ' ').then(|| "a space is not a cell".to_string()),
        own_headers: true,
    };

    #[test]
    fn levels_their_headers_and_comments() {
        let text = "; a pack\nTitle: one\nGame: icepath\nColour: red\n@-.\n\n\n  Name: two\n&\n.\n";
        let b = READER.read(text, "f").unwrap();
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].title.as_deref(), Some("one"));
        assert_eq!(b[0].comments, ["a pack"]);
        assert_eq!(
            b[0].headers,
            [Header {
                key: "Colour".into(),
                value: "red".into(),
                line: 4,
                value_col: 9
            }]
        );
        assert_eq!(b[0].rows, [(5, "@-.".to_string())]);
        assert_eq!(b[1].title.as_deref(), Some("two"));
        assert_eq!(b[1].rows, [(9, "&".to_string()), (10, ".".to_string())]);
        // a header right after a board starts the next level
        let b = READER.read("@.\nTitle: b\n@.\n", "f").unwrap();
        assert_eq!((b.len(), b[1].title.as_deref()), (2, Some("b")));
    }

    #[test]
    fn errors_are_located() {
        let strict = Reader {
            own_headers: false,
            ..READER
        };
        for (reader, text, line, col, what) in [
            (
                READER,
                "@-x.\n",
                1,
                3,
                "unexpected character 'x'; expected one of - = # @ & .",
            ),
            (READER, "@ .\n", 1, 2, "a space is not a cell"),
            (READER, "@\t.\n", 1, 2, "a tab is not a cell"),
            (
                READER,
                "Game: pushpush\n@-.\n",
                1,
                7,
                "this is a pushpush level, not an ice path level",
            ),
            (READER, "Game:  chess\n@-.\n", 1, 8, "unknown game 'chess'"),
            (READER, "Title:\n@-.\n", 1, 7, "empty title"),
            (
                READER,
                "@.\n\nTitle: x\n",
                3,
                1,
                "header lines without a board",
            ),
            (
                READER,
                "Title: a\n@.\nTitle: b\n",
                3,
                1,
                "header lines without a board",
            ),
            (READER, "; nothing\n", 1, 1, "no ice path level in the file"),
            (
                strict,
                "  Colour: red\n@-.\n",
                1,
                3,
                "unknown header 'colour'",
            ),
        ] {
            let e = reader.read(text, "f").unwrap_err();
            assert_eq!((e.line, e.col), (line, col), "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
    }
}
