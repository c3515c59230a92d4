//! Black-and-white pictures: PBM (P1 plain, P4 raw) and ASCII art (`#` black, `.` white).

use crate::error::{Error, ParseError};
use crate::grid::Pos;
use std::fmt;
use std::path::Path;

/// A black-and-white picture; black pixels are the cells that get an ice block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Picture {
    rows: usize,
    cols: usize,
    black: Vec<bool>,
}

impl Picture {
    /// A white `rows × cols` picture.
    pub fn new(rows: usize, cols: usize) -> Result<Picture, Error> {
        if rows == 0 || cols == 0 {
            return Err(Error::invalid(format!(
                "a picture needs at least one row and one column, not {rows}×{cols}"
            )));
        }
        Ok(Picture {
            rows,
            cols,
            black: vec![false; rows * cols],
        })
    }
    /// The picture whose black pixels are the set bits of `mask` (bit `r * cols + c`).
    pub fn from_mask(rows: usize, cols: usize, mask: u64) -> Picture {
        debug_assert!(rows * cols <= 64);
        Picture {
            rows,
            cols,
            black: (0..rows * cols).map(|i| mask >> i & 1 == 1).collect(),
        }
    }
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Whether the pixel at `p` is black (outside: white).
    pub fn get(&self, p: Pos) -> bool {
        p.row < self.rows && p.col < self.cols && self.black[p.row * self.cols + p.col]
    }
    /// Paints the pixel at `p`.
    pub fn set(&mut self, p: Pos, black: bool) {
        assert!(
            p.row < self.rows && p.col < self.cols,
            "pixel outside the picture"
        );
        self.black[p.row * self.cols + p.col] = black;
    }
    /// The black pixels, row by row.
    pub fn pixels(&self) -> Vec<Pos> {
        (0..self.rows * self.cols)
            .filter(|&i| self.black[i])
            .map(|i| Pos::new(i / self.cols, i % self.cols))
            .collect()
    }
    /// Number of black pixels.
    pub fn count(&self) -> usize {
        self.black.iter().filter(|&&b| b).count()
    }

    /// The largest picture file floe reads: 64 MiB.
    pub const MAX_FILE: u64 = 64 << 20;

    /// Reads a picture file: PBM (`P1` or `P4`) or ASCII art, told apart by the first bytes.
    pub fn load(path: &Path) -> Result<Picture, Error> {
        let (bytes, name) = crate::mem::read_capped(path, Self::MAX_FILE)?;
        Ok(Picture::parse(&bytes, &name)?)
    }

    /// Parses PBM (`P1`, `P4`) or ASCII art.
    pub fn parse(bytes: &[u8], file: &str) -> Result<Picture, ParseError> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        if bytes.starts_with(b"P1") || bytes.starts_with(b"P4") {
            parse_pbm(bytes, file)
        } else {
            parse_ascii(bytes, file)
        }
    }

    /// The picture as ASCII art, one line per row.
    pub fn to_ascii(&self) -> String {
        let mut s = String::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                s.push(if self.get(Pos::new(r, c)) { '#' } else { '.' });
            }
            s.push('\n');
        }
        s
    }
}

impl fmt::Display for Picture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_ascii())
    }
}

/// Largest picture side accepted (the drawing board adds 4 and the search packs rows in u64).
pub const MAX_SIDE: usize = 56;

fn check_size(
    rows: usize,
    cols: usize,
    err: impl Fn(String) -> ParseError,
) -> Result<(), ParseError> {
    if rows == 0 || cols == 0 {
        return Err(err("the picture is empty".into()));
    }
    if rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(err(format!(
            "a {rows}×{cols} picture is too large (at most {MAX_SIDE} pixels a side)"
        )));
    }
    Ok(())
}

/// Line and column (1-based) of byte offset `at`.
fn locate(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = &bytes[..at.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, at - start + 1)
}

fn parse_pbm(bytes: &[u8], file: &str) -> Result<Picture, ParseError> {
    let err = |at: usize, message: String| {
        let (line, col) = locate(bytes, at);
        ParseError {
            file: file.to_string(),
            line,
            col,
            message,
        }
    };
    let raw = bytes[1] == b'4';
    let mut at = 2;
    // header: width and height, separated by white space and `#` comments
    let mut fields = [0usize; 2];
    for (k, field) in fields.iter_mut().enumerate() {
        loop {
            match bytes.get(at) {
                Some(b) if b.is_ascii_whitespace() => at += 1,
                Some(b'#') => {
                    while bytes.get(at).is_some_and(|&b| b != b'\n') {
                        at += 1;
                    }
                }
                _ => break,
            }
        }
        let start = at;
        while bytes.get(at).is_some_and(|b| b.is_ascii_digit()) {
            at += 1;
        }
        let what = if k == 0 { "width" } else { "height" };
        let digits = std::str::from_utf8(&bytes[start..at]).unwrap_or("");
        *field = digits
            .parse()
            .map_err(|_| err(start, format!("expected the picture's {what} (a number)")))?;
    }
    let (cols, rows) = (fields[0], fields[1]);
    check_size(rows, cols, |m| err(at, m))?;
    let mut pic = Picture::new(rows, cols).map_err(|e| err(at, e.to_string()))?;
    if raw {
        // exactly one white-space byte, then packed rows, most significant bit first
        if !bytes.get(at).is_some_and(|b| b.is_ascii_whitespace()) {
            return Err(err(at, "expected white space after the height".into()));
        }
        at += 1;
        let stride = cols.div_ceil(8);
        let need = stride * rows;
        if bytes.len() < at + need {
            return Err(err(
                bytes.len(),
                format!(
                    "the raster is cut short: {} bytes of {need}",
                    bytes.len() - at
                ),
            ));
        }
        for r in 0..rows {
            for c in 0..cols {
                let byte = bytes[at + r * stride + c / 8];
                pic.set(Pos::new(r, c), byte >> (7 - c % 8) & 1 == 1);
            }
        }
    } else {
        let mut k = 0;
        while k < rows * cols {
            match bytes.get(at) {
                None => {
                    return Err(err(
                        at,
                        format!("the raster is cut short: {k} pixels of {}", rows * cols),
                    ))
                }
                Some(b) if b.is_ascii_whitespace() => {}
                Some(b'#') => {
                    while bytes.get(at).is_some_and(|&b| b != b'\n') {
                        at += 1;
                    }
                    continue;
                }
                Some(b @ (b'0' | b'1')) => {
                    pic.set(Pos::new(k / cols, k % cols), *b == b'1');
                    k += 1;
                }
                Some(_) => return Err(err(at, "expected a pixel: '0' or '1'".into())),
            }
            at += 1;
        }
    }
    Ok(pic)
}

fn parse_ascii(bytes: &[u8], file: &str) -> Result<Picture, ParseError> {
    let err = |line: usize, col: usize, message: String| ParseError {
        file: file.to_string(),
        line,
        col,
        message,
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, col) = locate(bytes, e.valid_up_to());
        err(line, col, "the file is neither PBM nor UTF-8 text".into())
    })?;
    let mut rows: Vec<Vec<bool>> = Vec::new();
    let mut cols = 0;
    let mut last_line = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.starts_with(';') || (line.is_empty() && rows.is_empty()) {
            continue;
        }
        if line.is_empty() {
            // blank lines end the picture; only blank lines and comments may follow
            last_line = i + 1;
            continue;
        }
        if last_line != 0 {
            return Err(err(
                i + 1,
                1,
                "a picture ends at its first blank line".into(),
            ));
        }
        let mut row = Vec::new();
        for (j, ch) in line.chars().enumerate() {
            match ch {
                '#' => row.push(true),
                '.' => row.push(false),
                other => {
                    return Err(err(
                        i + 1,
                        j + 1,
                        format!(
                            "expected '#' (black) or '.' (white), found {}",
                            crate::input::shown(other)
                        ),
                    ))
                }
            }
        }
        cols = cols.max(row.len());
        rows.push(row);
    }
    let n = rows.len();
    check_size(n, cols, |m| err(text.lines().count().max(1), 1, m))?;
    let mut pic = Picture::new(n, cols).map_err(|e| err(1, 1, e.to_string()))?;
    for (r, row) in rows.iter().enumerate() {
        for (c, &b) in row.iter().enumerate() {
            pic.set(Pos::new(r, c), b);
        }
    }
    Ok(pic)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_art() {
        let p = Picture::parse(b"; a comment\n#.#\n.#\n", "t").unwrap();
        assert_eq!((p.rows(), p.cols()), (2, 3));
        assert_eq!(p.to_ascii(), "#.#\n.#.\n");
        let e = Picture::parse(b"#.\n#x\n", "t").unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
    }

    #[test]
    fn pbm_plain_and_raw_agree() {
        let plain =
            Picture::parse(b"P1\n# c\n10 2\n1 0 0 0 0 0 0 0 0 1\n0100000000\n", "t").unwrap();
        let mut raw = b"P4\n10 2\n".to_vec();
        raw.extend_from_slice(&[0b1000_0000, 0b0100_0000, 0b0100_0000, 0]);
        let raw = Picture::parse(&raw, "t").unwrap();
        assert_eq!(plain, raw);
        assert_eq!(
            plain.pixels(),
            vec![Pos::new(0, 0), Pos::new(0, 9), Pos::new(1, 1)]
        );
    }

    #[test]
    fn pbm_errors_name_the_place() {
        let e = Picture::parse(b"P1\n2 2\n1 0\n1 2\n", "f.pbm").unwrap_err();
        assert_eq!((e.line, e.col), (4, 3));
        let e = Picture::parse(b"P1\nx 2\n", "f.pbm").unwrap_err();
        assert!(e.message.contains("width"), "{e}");
        let e = Picture::parse(b"P4\n16 2\n\x00", "f.pbm").unwrap_err();
        assert!(e.message.contains("cut short"), "{e}");
        assert!(Picture::parse(b"", "f").is_err());
    }
}
