//! Move lists as files give them: JSON (a list of moves, or a `floe solve --json` document
//! with a `moves` list) or a game's text form.

use crate::error::{Error, ParseError};
use serde::de::DeserializeOwned;

/// Reads a JSON move list: `Some` when the text is JSON (it starts with `[` or `{`), a list
/// of moves or an object whose `moves` field is one (a `floe solve --json` document).
fn json_moves<M: DeserializeOwned>(text: &str, file: &str) -> Option<Result<Vec<M>, Error>> {
    let t = text.trim_start();
    if !(t.starts_with('[') || t.starts_with('{')) {
        return None;
    }
    let at = |e: &serde_json::Error| (e.line().max(1), e.column().max(1));
    let bad = |(line, col): (usize, usize), e: serde_json::Error| {
        Error::Parse(ParseError::new(
            file,
            line,
            col,
            format!("bad move list: {e}"),
        ))
    };
    let v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Some(Err(bad(at(&e), e))),
    };
    let list = match v {
        serde_json::Value::Object(mut o) => match o.remove("moves") {
            Some(m) => m,
            None => {
                return Some(Err(Error::Parse(ParseError::new(
                    file,
                    1,
                    1,
                    "a JSON object with a \"moves\" list was expected",
                ))))
            }
        },
        other => other,
    };
    Some(serde_json::from_value(list).map_err(|e| bad((1, 1), e)))
}

/// Parses a move list: JSON (see the [module](self) notes) or text with one move per line,
/// read by `line` (blank lines and `;`/`#` comments are skipped). Errors carry the line and
/// column.
///
/// ```
/// use floe::game::parse_move_list;
/// let by_line = |l: &str| l.parse::<u8>().map_err(|e| e.to_string());
/// assert_eq!(parse_move_list("[1, 2]", "m", by_line).unwrap(), vec![1, 2]);
/// assert_eq!(parse_move_list(r#"{"moves": [3]}"#, "m", by_line).unwrap(), vec![3]);
/// assert_eq!(parse_move_list("; mine\n4\n\n5\n", "m", by_line).unwrap(), vec![4, 5]);
/// let e = parse_move_list("4\n  x\n", "m", by_line).unwrap_err();
/// assert!(e.to_string().starts_with("m:2:3: "), "{e}");
/// ```
pub fn parse_move_list<M: DeserializeOwned>(
    text: &str,
    file: &str,
    line: impl Fn(&str) -> Result<M, String>,
) -> Result<Vec<M>, Error> {
    if let Some(json) = json_moves(text, file) {
        return json;
    }
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let s = l.trim();
        if s.is_empty() || s.starts_with(';') || s.starts_with('#') {
            continue;
        }
        let col = l.chars().count() - l.trim_start().chars().count() + 1;
        out.push(line(s).map_err(|m| Error::Parse(ParseError::new(file, i + 1, col, m)))?);
    }
    Ok(out)
}

/// Parses a move list of words: JSON (see the [module](self) notes) or text with moves
/// separated by white space or commas, as many per line as wanted, read by `word` (lines
/// starting with `;` or `#` are comments). Errors carry the line and column of the word.
///
/// ```
/// use floe::game::parse_move_words;
/// let dir = |w: &str| w.parse::<floe::grid::Dir>();
/// let moves = parse_move_words("u, r\n; then\nleft down", "m", dir).unwrap();
/// assert_eq!(moves.len(), 4);
/// let e = parse_move_words("u r\nd sideways", "m", dir).unwrap_err();
/// assert!(e.to_string().starts_with("m:2:3: unknown direction"), "{e}");
/// ```
pub fn parse_move_words<M: DeserializeOwned>(
    text: &str,
    file: &str,
    word: impl Fn(&str) -> Result<M, String>,
) -> Result<Vec<M>, Error> {
    if let Some(json) = json_moves(text, file) {
        return json;
    }
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim_start();
        if t.starts_with(';') || t.starts_with('#') {
            continue;
        }
        let mut col = 0;
        for piece in l.split_inclusive(|c: char| c.is_whitespace() || c == ',') {
            let w = piece.trim_end_matches(|c: char| c.is_whitespace() || c == ',');
            if !w.is_empty() {
                out.push(
                    word(w).map_err(|m| Error::Parse(ParseError::new(file, i + 1, col + 1, m)))?,
                );
            }
            col += piece.chars().count();
        }
    }
    Ok(out)
}
