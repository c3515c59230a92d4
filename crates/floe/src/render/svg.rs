//! The small SVG writer shared by the plots and the board pictures: number formatting (at
//! most two decimals, so output is byte-identical across runs and machines), XML escaping,
//! and a string builder for the few elements the pictures use.

use crate::Error;
use std::fmt::Write as _;
use std::path::Path;

/// The fonts every picture asks for.
pub const FONT_FAMILY: &str = "DejaVu Sans, Helvetica, Arial, sans-serif";
/// Pixel coordinates are clamped to this magnitude before clipping (keeps arithmetic finite).
pub const PIXEL_LIMIT: f64 = 1e9;

/// A pixel coordinate: at most two decimals, trailing zeros trimmed, never `-0`, never NaN.
pub fn fmt_coord(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    fmt_hundredths((v.clamp(-PIXEL_LIMIT, PIXEL_LIMIT) * 100.0).round() as i64)
}

/// A number given in hundredths, written with at most two decimals.
pub fn fmt_hundredths(h: i64) -> String {
    let sign = if h < 0 { "-" } else { "" };
    let a = h.unsigned_abs();
    let (int, frac) = (a / 100, a % 100);
    if frac == 0 {
        format!("{sign}{int}")
    } else if frac % 10 == 0 {
        format!("{sign}{int}.{}", frac / 10)
    } else {
        format!("{sign}{int}.{frac:02}")
    }
}

/// Escapes text for XML content and attributes; characters not allowed in XML 1.0 become
/// U+FFFD.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Writes an SVG string to a file, whole or not at all ([`crate::mem::write_whole`]).
pub fn write_file(path: &Path, svg: &str) -> Result<(), Error> {
    crate::mem::write_whole(path, svg)
}

/// An SVG document being written. Attribute strings passed in are inserted verbatim (callers
/// build them from numbers and constants; text content is escaped here).
#[derive(Debug)]
pub struct Doc {
    s: String,
}

impl Doc {
    /// Opens a document of `w × h` pixels with a white background.
    pub fn new(w: f64, h: f64, title: &str) -> Doc {
        let (w, h) = (fmt_coord(w), fmt_coord(h));
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}\">\n"
        );
        if !title.is_empty() {
            let _ = writeln!(s, "<title>{}</title>", escape(title));
        }
        let _ = writeln!(
            s,
            "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>"
        );
        Doc { s }
    }

    /// A rectangle.
    pub fn rect(&mut self, class: &str, x: f64, y: f64, w: f64, h: f64, attrs: &str) {
        let _ = writeln!(
            self.s,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{attrs}/>",
            fmt_coord(x),
            fmt_coord(y),
            fmt_coord(w.max(0.0)),
            fmt_coord(h.max(0.0))
        );
    }

    /// A circle.
    pub fn circle(&mut self, class: &str, cx: f64, cy: f64, r: f64, attrs: &str) {
        let _ = writeln!(
            self.s,
            "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\"{attrs}/>",
            fmt_coord(cx),
            fmt_coord(cy),
            fmt_coord(r.max(0.0))
        );
    }

    /// A path.
    pub fn path(&mut self, class: &str, d: &str, attrs: &str) {
        let _ = writeln!(self.s, "<path class=\"{class}\" d=\"{d}\"{attrs}/>");
    }

    /// Text centred on `x` with its baseline at `y`.
    pub fn text(&mut self, class: &str, x: f64, y: f64, size: f64, content: &str, attrs: &str) {
        let _ = writeln!(
            self.s,
            "<text class=\"{class}\" x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\"{attrs}>{}</text>",
            fmt_coord(x),
            fmt_coord(y),
            fmt_coord(size),
            escape(content)
        );
    }

    /// Opens a group; `attrs` verbatim.
    pub fn open_group(&mut self, class: &str, attrs: &str) {
        let _ = writeln!(self.s, "<g class=\"{class}\"{attrs}>");
    }

    /// Closes a group.
    pub fn close_group(&mut self) {
        self.s.push_str("</g>\n");
    }

    /// Inserts raw markup (already well-formed).
    pub fn raw(&mut self, markup: &str) {
        self.s.push_str(markup);
    }

    /// Closes the document.
    pub fn finish(mut self) -> String {
        self.s.push_str("</svg>\n");
        self.s
    }
}

/// A path through points: `M x,y L x,y …`.
pub fn polyline(points: &[(f64, f64)]) -> String {
    let mut d = String::new();
    for (i, &(x, y)) in points.iter().enumerate() {
        let _ = write!(
            d,
            "{}{},{}",
            if i == 0 { "M" } else { " L" },
            fmt_coord(x),
            fmt_coord(y)
        );
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_escapes() {
        assert_eq!(fmt_coord(1.0), "1");
        assert_eq!(fmt_coord(-0.001), "0");
        assert_eq!(fmt_coord(2.5), "2.5");
        assert_eq!(fmt_coord(2.345), "2.35");
        assert_eq!(fmt_coord(f64::NAN), "0");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(polyline(&[(0.0, 1.0), (2.5, 3.0)]), "M0,1 L2.5,3");
    }

    #[test]
    fn a_document_is_well_formed() {
        let mut d = Doc::new(10.0, 10.0, "a & b");
        d.rect("cell", 0.0, 0.0, 5.0, 5.0, " fill=\"#000\"");
        d.open_group("g", "");
        d.circle("c", 2.0, 2.0, 1.0, "");
        d.text("t", 5.0, 5.0, 4.0, "<1>", "");
        d.close_group();
        let svg = d.finish();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert_eq!(
            doc.descendants().filter(|n| n.has_tag_name("rect")).count(),
            2
        );
    }
}
