//! Numbers and words as people read them, for every layer's messages and reports.

/// A count with thousands separators, as every table and report prints it: `1234567` →
/// `1,234,567`.
///
/// ```
/// assert_eq!(floe::say::thousands(1_234_567), "1,234,567");
/// assert_eq!(floe::say::thousands(999), "999");
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

/// `n` and the word for one or for many, as the level descriptions say it: `1 block`,
/// `3 blocks` (no separators).
///
/// ```
/// assert_eq!(floe::say::plural(1, "push", "pushes"), "1 push");
/// assert_eq!(floe::say::plural(3, "block", "blocks"), "3 blocks");
/// ```
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `n` with thousands separators and the word for one or for many: `1 push`,
/// `12,345 positions`.
///
/// ```
/// assert_eq!(floe::say::count(12_345, "position", "positions"), "12,345 positions");
/// assert_eq!(floe::say::count(1, "push", "pushes"), "1 push");
/// ```
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A duration as people read it: µs, ms or s.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(floe::say::human_time(Duration::from_micros(250)), "250 µs");
/// assert_eq!(floe::say::human_time(Duration::from_millis(12)), "12.0 ms");
/// assert_eq!(floe::say::human_time(Duration::from_secs(3)), "3.00 s");
/// ```
pub fn human_time(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.0} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// [`human_time`] of a number of seconds.
pub fn seconds(s: f64) -> String {
    human_time(std::time::Duration::from_secs_f64(s.max(0.0)))
}

/// Lines indented by four spaces (a board under a report's line).
///
/// ```
/// assert_eq!(floe::say::indent("ab\ncd\n"), "    ab\n    cd\n");
/// ```
pub fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}
