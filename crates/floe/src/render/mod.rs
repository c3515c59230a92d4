//! SVG pictures: plots, board pictures and solutions drawn on boards.

pub mod board;
pub mod plot;
pub mod svg;

/// A count with thousands separators, as every table and report prints it: `1234567` →
/// `1,234,567`.
///
/// ```
/// assert_eq!(floe::render::thousands(1_234_567), "1,234,567");
/// assert_eq!(floe::render::thousands(999), "999");
/// ```
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A number of bytes in binary units with one decimal, as reports and messages print memory:
/// `512` → `512 B`, `1536` → `1.5 KiB`, `3 << 30` → `3.0 GiB`.
///
/// ```
/// assert_eq!(floe::render::human_bytes(512), "512 B");
/// assert_eq!(floe::render::human_bytes(107_374), "104.9 KiB");
/// assert_eq!(floe::render::human_bytes(3 << 30), "3.0 GiB");
/// ```
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = b as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}
