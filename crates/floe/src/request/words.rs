//! A message in the words of the front end that shows it. The library's operations are shared
//! with the command line, and some of their messages name its flags (`--max-pushes 2 is below
//! --min-pushes 3`, `pick one with --level N`, `stopped by --max-states`); the web server and
//! Python name the same things as query parameters and keyword arguments. Every flag is
//! written as its name with `_` for `-`: `--max-blocks` → `max_blocks`, and the placeholder
//! of a usage line goes (`'--rows <R>'` → `'rows'`). Python joins a value to its keyword as
//! a call writes it (`--level N` → `level=N`, `--targets 0` → `targets=0`); the server keeps
//! the space (`level N`).
//!
//! ```
//! use floe::request::words::{for_python, for_query};
//! let m = "--max-pushes 2 is below --min-pushes 3; '--rows <R>' is required";
//! assert_eq!(for_query(m), "max_pushes 2 is below min_pushes 3; 'rows' is required");
//! assert_eq!(for_python(m), "max_pushes=2 is below min_pushes=3; 'rows' is required");
//! assert_eq!(for_python("stopped by --max-states"), "stopped by max_states");
//! // a dash inside a word or a number is not a flag
//! assert_eq!(for_python("x--y and -3 and a—b"), "x--y and -3 and a—b");
//! ```

/// The message as the web API says it: flags as query parameters (`level N`).
pub fn for_query(msg: &str) -> String {
    rewrite(msg, false)
}

/// The message as Python says it: flags as keyword arguments, a value joined with `=`
/// (`level=N`).
pub fn for_python(msg: &str) -> String {
    rewrite(msg, true)
}

fn rewrite(msg: &str, join: bool) -> String {
    let b = msg.as_bytes();
    let mut out = String::with_capacity(msg.len());
    let mut i = 0;
    while i < b.len() {
        // a quoted text is the user's own (a value, a title): as it was given
        if let Some(end) = quoted(msg, i) {
            out.push_str(&msg[i..end]);
            i = end;
            continue;
        }
        let flag_start = b[i] == b'-'
            && b.get(i + 1) == Some(&b'-')
            && b.get(i + 2).is_some_and(u8::is_ascii_lowercase)
            && (i == 0 || matches!(b[i - 1], b' ' | b'\n' | b'(' | b'`' | b',' | b'\'' | b'"'))
            && !path_after(b, i + 2);
        if !flag_start {
            let c = msg[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let mut j = i + 2;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
            j += 1;
        }
        out.push_str(&msg[i + 2..j].replace('-', "_"));
        let rest = &msg[j..];
        // the value's name after the flag in a usage line (`--rows <R>`, `--level <LEVEL>...`)
        if let Some(after) = rest.strip_prefix(" <") {
            if let Some(end) = after.find('>') {
                if after[..end]
                    .bytes()
                    .all(|c| c.is_ascii_uppercase() || c == b'_' || c == b'-')
                {
                    j += 2 + end + 1;
                    while msg[j..].starts_with("...") {
                        j += 3;
                    }
                }
            }
        } else if join {
            if let Some(value) = rest.strip_prefix(' ').and_then(value_word) {
                out.push('=');
                out.push_str(value);
                j += 1 + value.len();
            }
        }
        i = j;
    }
    out
}

/// The end of a quoted text that starts at `i` (`'…'` or `"…"`, opened after no letter or
/// digit, so that an apostrophe is not one: `robot's`), if it ends on the same line.
fn quoted(msg: &str, i: usize) -> Option<usize> {
    let b = msg.as_bytes();
    let q = b[i];
    if !matches!(q, b'\'' | b'"') || (i > 0 && b[i - 1].is_ascii_alphanumeric()) {
        return None;
    }
    let close = msg[i + 1..].find([q as char, '\n'])?;
    let end = i + 1 + close;
    (b[end] == q && !usage(&msg[i + 1..end])).then_some(end + 1)
}

/// Whether a quoted text is a flag with its value's name, as a usage line writes it
/// (`--rows <R>`, `--level <LEVEL>...`), which is named as the others are; a quoted `--walk`
/// alone is a value given.
fn usage(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("--") else {
        return false;
    };
    let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
    let name_ok = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-');
    let value = value.trim_end_matches("...");
    let value_ok = value
        .strip_prefix('<')
        .and_then(|v| v.strip_suffix('>'))
        .is_some_and(|v| {
            !v.is_empty()
                && v.bytes()
                    .all(|c| c.is_ascii_uppercase() || c == b'_' || c == b'-')
        });
    name_ok && value_ok
}

/// Whether the name that starts at `j` goes on as a path (`--dir/file.txt`), not a flag.
fn path_after(b: &[u8], mut j: usize) -> bool {
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
        j += 1;
    }
    matches!(b.get(j), Some(b'/' | b'\\'))
        || (b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(u8::is_ascii_alphanumeric))
}

/// The value written after a flag at the start of `s`, if it is one: a number (`3`, `-2`,
/// `1.5`, `30s`, `2,3`) or a placeholder in capitals (`N`, `NAME`).
fn value_word(s: &str) -> Option<&str> {
    let end = s
        .find(|c: char| c.is_whitespace() || matches!(c, ';' | ')' | '(' | '\'' | '"'))
        .unwrap_or(s.len());
    // a colon or a full stop that ends the word is the sentence's, not the value's
    let word = s[..end].trim_end_matches([':', '.', ',']);
    let digits = word.strip_prefix('-').unwrap_or(word);
    let number = digits.starts_with(|c: char| c.is_ascii_digit());
    let placeholder = !word.is_empty() && word.bytes().all(|c| c.is_ascii_uppercase() || c == b'_');
    (number || placeholder).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_messages_that_name_flags_read_as_python_calls() {
        for (cli, py) in [
            (
                "zelda.txt holds 9 levels; pick one with --level N or --level NAME (A, B)",
                "zelda.txt holds 9 levels; pick one with level=N or level=NAME (A, B)",
            ),
            ("--targets 0: at least one", "targets=0: at least one"),
            (
                "--blocks does not apply to the ice path",
                "blocks does not apply to the ice path",
            ),
            (
                "too large for --exact; use --anneal",
                "too large for exact; use anneal",
            ),
            ("stopped by --max-states.", "stopped by max_states."),
            ("--time -1s is negative", "time=-1s is negative"),
            ("--heights 2,3 and --seed 7)", "heights=2,3 and seed=7)"),
            ("--level OOSSAS", "level=OOSSAS"),
            ("--level Zelda", "level Zelda"),
            // the user's own texts, paths and titles stay as they were given
            (
                "rules: '--walk' is not one of free, walk",
                "rules: '--walk' is not one of free, walk",
            ),
            (
                "no level named 'OOSSAS --k 2'",
                "no level named 'OOSSAS --k 2'",
            ),
            (
                "unknown game \"--zzz\"; the robot's --k 2",
                "unknown game \"--zzz\"; the robot's k=2",
            ),
            (
                "/tmp/--dir/two.txt holds 2 levels",
                "/tmp/--dir/two.txt holds 2 levels",
            ),
            (
                "--dir/two.txt and --out.txt: --out DIR",
                "--dir/two.txt and --out.txt: out=DIR",
            ),
            ("a-b--c and x--y", "a-b--c and x--y"),
        ] {
            assert_eq!(for_python(cli), py);
        }
    }

    #[test]
    fn the_server_keeps_the_space_and_drops_usage_placeholders() {
        assert_eq!(
            for_query("'--rows <R>' and --level <LEVEL>... with --level N"),
            "'rows' and level with level N"
        );
        assert_eq!(for_query("no flag here — none"), "no flag here — none");
        assert_eq!(for_query("--"), "--");
        assert_eq!(for_query("end --x"), "end x");
    }
}
