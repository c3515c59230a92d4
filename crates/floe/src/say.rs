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
