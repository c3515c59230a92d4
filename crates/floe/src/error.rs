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
            self.file, self.line, self.col, self.message
        )
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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(e) => e.fmt(f),
            Error::Invalid(m) => f.write_str(m),
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
