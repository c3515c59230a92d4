//! Errors. Every failure the library reports is a value of [`Error`]; nothing panics on bad
//! input.

use std::fmt;

/// A syntax error in a text file: where it is and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file's name as given by the caller (`<stdin>`, `<text>` when there is none).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    /// An error at a 1-based line and column of `file`.
    pub fn new(file: &str, line: usize, col: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            file: file.to_string(),
            line,
            col,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file,
            self.line,
            self.col,
            shortened(&self.message)
        )
    }
}

/// The longest word a message shows whole; a longer one (a 10 MB token quoted from a file)
/// is shown by its start and its length.
const LONGEST_WORD: usize = 80;

/// `text` with every word (run of characters without white space) longer than
/// [`LONGEST_WORD`] characters cut to its first 40, an ellipsis and its length, so that a
/// message stays readable whatever the file held.
fn shortened(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= LONGEST_WORD {
        return text.into();
    }
    let mut out = String::new();
    let mut changed = false;
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let n = word.chars().count();
        // a path is shown whole, however long (up to the system's longest): it says which
        // file
        let path = word.contains('/') && n <= 4096;
        if n > LONGEST_WORD && !path {
            changed = true;
            out.extend(word.chars().take(40));
            out.push('…');
            // a closing quote or colon stays, so that the sentence still reads
            let last = word.chars().last().filter(|c| c.is_ascii_punctuation());
            out.extend(last);
            out.push_str(&format!(" ({n} characters)"));
        } else {
            out.push_str(word);
        }
    }
    if changed {
        out.into()
    } else {
        text.into()
    }
}

impl std::error::Error for ParseError {}

/// Everything that can go wrong.
#[derive(Debug)]
pub enum Error {
    /// A file did not parse.
    Parse(ParseError),
    /// Input that is well-formed but not acceptable (a board too large, a level that does
    /// not exist, an option out of range).
    Invalid(String),
    /// A file could not be read or written.
    Io {
        /// The path.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// A result failed its own check: a bug in floe, reported instead of a wrong answer.
    Internal(String),
}

impl Error {
    /// An [`Error::Invalid`].
    pub fn invalid(msg: impl Into<String>) -> Error {
        Error::Invalid(msg.into())
    }
    /// The error of a run on the level named `name`: an [`Error::Invalid`] starts with the
    /// name, once (a message that names the level already keeps its words).
    ///
    /// ```
    /// use floe::Error;
    /// let e = Error::invalid("no such algorithm").in_level("OOSSAS");
    /// assert_eq!(e.to_string(), "OOSSAS: no such algorithm");
    /// assert_eq!(e.in_level("OOSSAS").to_string(), "OOSSAS: no such algorithm");
    /// ```
    pub fn in_level(self, name: &str) -> Error {
        match self {
            Error::Invalid(m) if m.starts_with(&format!("{name}: ")) => Error::Invalid(m),
            Error::Invalid(m) => Error::Invalid(format!("{name}: {m}")),
            other => other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(e) => e.fmt(f),
            Error::Invalid(m) => f.write_str(&shortened(m)),
            Error::Io { path, source } => write!(f, "{path}: {source}"),
            Error::Internal(m) => write!(f, "internal error (please report): {m}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Parse(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Error {
        Error::Parse(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_words_are_cut_in_messages() {
        let e = ParseError::new("f", 2, 1, format!("'{}' is not a card", "Q".repeat(10_000)));
        let shown = e.to_string();
        assert!(shown.len() < 120, "{shown}");
        assert!(
            shown.ends_with("…' (10002 characters) is not a card"),
            "{shown}"
        );
        // a path is never cut: it says which file (before: cut at 40 characters)
        let path = format!(
            "/srv/results/{}/worker-1/layer-00012.bin",
            "run-".repeat(30)
        );
        let e = Error::invalid(format!("{path}: the file is cut short"));
        assert_eq!(e.to_string(), format!("{path}: the file is cut short"));
        let short = Error::invalid("a board needs at least one row and one column");
        assert_eq!(
            short.to_string(),
            "a board needs at least one row and one column"
        );
    }
}
