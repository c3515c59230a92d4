//! Reading level files: UTF-8 text with a clear error, `-` for standard input; picking a
//! level of a file by number or title.

use crate::error::{Error, ParseError};
use std::path::Path;

/// A character of a file as a message shows it: quoted when it prints (`'x'`), by its code
/// point when it does not (`U+0000` for a NUL byte, `U+000D` for a carriage return), so that
/// no message carries a control character to the terminal.
///
/// ```
/// assert_eq!(floe::input::shown('Q'), "'Q'");
/// assert_eq!(floe::input::shown('\0'), "U+0000");
/// ```
pub fn shown(c: char) -> String {
    if c.is_control() || (c.is_whitespace() && c != ' ') || c == '\u{feff}' {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}'")
    }
}

/// The largest level file or move list floe reads: 64 MiB.
pub const MAX_TEXT: u64 = 64 << 20;

/// Reads a text file (`-` reads standard input) of at most [`MAX_TEXT`] bytes and returns its
/// text, without a leading byte order mark, and the name to use in messages. Text that is
/// not UTF-8, or holds a NUL byte (a binary file, `/dev/zero`), gives a `file:line:col` error
/// at the first bad byte, as soon as it is read; a longer file is refused.
pub fn read_text(path: &Path) -> Result<(String, String), Error> {
    read_text_capped(path, MAX_TEXT)
}

/// [`read_text`] with a cap of `cap` bytes.
pub fn read_text_capped(path: &Path, cap: u64) -> Result<(String, String), Error> {
    let (mut reader, name) = crate::mem::open(path)?;
    let io = |source| Error::Io {
        path: name.clone(),
        source,
    };
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        let at = bytes.len();
        bytes.extend_from_slice(&chunk[..n]);
        if let Some(i) = chunk[..n].iter().position(|&b| b == 0) {
            let (line, col) = position(&bytes[..at + i]);
            return Err(Error::Parse(ParseError {
                file: name,
                line,
                col,
                message: "a NUL byte (U+0000): this is not a text file".into(),
            }));
        }
        if bytes.len() as u64 > cap {
            return Err(Error::invalid(format!(
                "{name}: the file is larger than {}, more than floe reads",
                crate::mem::human_bytes(cap)
            )));
        }
    }
    let text = text_of(bytes, &name)?;
    Ok((text, name))
}

/// A piece of someone else's text as a message quotes it: control characters shown as
/// `\u{…}` escapes, and more than 80 characters cut to the first 40 and the length.
///
/// ```
/// assert_eq!(floe::input::shown_word("a\tb"), "a\\u{9}b");
/// assert_eq!(floe::input::shown_word(&"x".repeat(100)), format!("{}… (100 characters)", "x".repeat(40)));
/// ```
pub fn shown_word(s: &str) -> String {
    let n = s.chars().count();
    let escape = |c: char| {
        if c.is_control() {
            c.escape_unicode().to_string()
        } else {
            c.to_string()
        }
    };
    if n > 80 {
        let head: String = s.chars().take(40).map(escape).collect();
        format!("{head}… ({n} characters)")
    } else {
        s.chars().map(escape).collect()
    }
}

/// Bytes that came from elsewhere (a web request) as text, checked like a file: no NUL
/// byte, valid UTF-8 (errors at their line and column of `name`), a byte-order mark dropped.
pub fn text_of(bytes: Vec<u8>, name: &str) -> Result<String, Error> {
    if let Some(i) = bytes.iter().position(|&b| b == 0) {
        let (line, col) = position(&bytes[..i]);
        return Err(Error::Parse(ParseError::new(
            name,
            line,
            col,
            "a NUL byte (U+0000): this is not a text file",
        )));
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(strip_bom(&s).to_string()),
        Err(e) => {
            let (line, col) = position(&e.as_bytes()[..e.utf8_error().valid_up_to()]);
            Err(Error::Parse(ParseError::new(
                name,
                line,
                col,
                "the file is not valid UTF-8 text",
            )))
        }
    }
}

/// The text with every line ending as `\n`: Windows (`\r\n`) and classic Mac (`\r` alone)
/// files read like Unix ones, with the same line numbers.
///
/// ```
/// assert_eq!(floe::input::unify_line_ends("a\rb\r\nc\n".into()), "a\nb\nc\n");
/// ```
pub fn unify_line_ends(text: String) -> String {
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    }
}

fn strip_bom(s: &str) -> &str {
    s.strip_prefix('\u{feff}').unwrap_or(s)
}

/// Line and column (1-based, columns in characters) of the byte after `before`.
fn position(before: &[u8]) -> (usize, usize) {
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    // the prefix is valid UTF-8: count characters, not bytes
    let col = std::str::from_utf8(&before[line_start..]).map_or(1, |t| t.chars().count() + 1);
    (line, col)
}

/// Picks one of the levels of a file: `sel` is a 1-based number or a title (compared without
/// regard to case). Returns the 0-based index with the level; the error lists what there is.
pub fn select_titled<'a, T>(
    items: &'a [T],
    sel: &str,
    title: impl Fn(&T) -> Option<String>,
) -> Result<(usize, &'a T), Error> {
    let name = |i: usize| title(&items[i]).unwrap_or_else(|| format!("level {}", i + 1));
    if let Ok(n) = sel.trim().parse::<usize>() {
        return match n.checked_sub(1).and_then(|i| items.get(i).map(|l| (i, l))) {
            Some(x) => Ok(x),
            None => Err(Error::invalid(format!(
                "no level {n}: the file has {} level{} (numbers start at 1)",
                items.len(),
                if items.len() == 1 { "" } else { "s" }
            ))),
        };
    }
    let want = sel.trim().to_lowercase();
    let matches: Vec<usize> = (0..items.len())
        .filter(|&i| title(&items[i]).map(|t| t.to_lowercase()).as_deref() == Some(want.as_str()))
        .collect();
    match matches[..] {
        [i] => Ok((i, &items[i])),
        [] => {
            let names: Vec<String> = (0..items.len()).map(name).collect();
            Err(Error::invalid(format!(
                "no level named '{sel}'; the file has: {}",
                names.join(", ")
            )))
        }
        _ => {
            let numbers: Vec<String> = matches.iter().map(|i| (i + 1).to_string()).collect();
            Err(Error::invalid(format!(
                "{} levels are named '{sel}' (numbers {}); pick one by number",
                matches.len(),
                numbers.join(", ")
            )))
        }
    }
}

/// A `Key: value` header line of a level file: the key (letters, digits, `-`, `_`, starting
/// with a letter) and the trimmed value; `None` for any other line.
pub(crate) fn header(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let ok = key.chars().next()?.is_ascii_alphabetic()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    ok.then(|| (key, value.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_utf8_is_located() {
        let dir = std::env::temp_dir().join(format!("floe-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("bad.txt");
        std::fs::write(&f, b"ok\nab\xffc\n").unwrap();
        match read_text(&f) {
            Err(Error::Parse(p)) => assert_eq!((p.line, p.col), (2, 3)),
            other => panic!("{other:?}"),
        }
        std::fs::write(&f, "\u{feff}x\n").unwrap();
        assert_eq!(read_text(&f).unwrap().0, "x\n");
        std::fs::write(&f, b"ab\nc\0d").unwrap();
        match read_text(&f) {
            Err(Error::Parse(p)) => {
                assert_eq!((p.line, p.col), (2, 2));
                assert!(p.message.contains("NUL"), "{}", p.message);
            }
            other => panic!("{other:?}"),
        }
        std::fs::write(&f, "x".repeat(100)).unwrap();
        assert!(read_text_capped(&f, 99)
            .unwrap_err()
            .to_string()
            .contains("larger than 99 B"));
        assert!(read_text_capped(&f, 100).is_ok());
        assert!(read_text(&dir)
            .unwrap_err()
            .to_string()
            .contains("directory"));
        if Path::new("/dev/zero").exists() {
            let e = read_text(Path::new("/dev/zero")).unwrap_err().to_string();
            assert!(e.contains(":1:1:"), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
