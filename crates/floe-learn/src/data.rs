//! Datasets of labelled PushPush boards: sampled with a seed, labelled exactly, split
//! 80/10/10 by equivalence class, and their text format.
//!
//! ```text
//! # floe-learn dataset 1
//! # rows 4 cols 4 seed 7 split-seed 7 variant PushPush-1
//! split→board→pushes→difficulty→class
//! train→@$--/-$.-/----/$---→1→2.500000→0000…
//! test→@$$-/$.--/----/----→-1→-→0000…
//! ```
//!
//! (`→` stands for a tab.)
//!
//! One board per line after the header: the split (`train`, `val`, `test`), the board's rows
//! in the level format joined by `/`, the fewest pushes (`-1` when unsolvable), the thesis's
//! difficulty (equation 3; `-` when unsolvable) and the board's class key in hexadecimal
//! ([`floe::games::pushpush::labels::class_key`]).

pub use floe::games::pushpush::sample::{
    board_text, difficulty_class, from_board, labelled, split_of, to_board, Example, Split,
};
use floe::Error;
use std::fmt::Write as _;

/// A sample of boards of one size.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// Rows of every board.
    pub rows: usize,
    /// Columns of every board.
    pub cols: usize,
    /// Seed of the sample.
    pub seed: u64,
    /// Seed of the split.
    pub split_seed: u64,
    /// The boards.
    pub examples: Vec<Example>,
}

impl Dataset {
    /// A sample of `rows` × `cols` boards drawn with `seed`, split by `split_seed`.
    pub fn new(
        rows: usize,
        cols: usize,
        seed: u64,
        split_seed: u64,
        examples: Vec<Example>,
    ) -> Dataset {
        Dataset {
            rows,
            cols,
            seed,
            split_seed,
            examples,
        }
    }
    /// The examples of one split.
    pub fn part(&self, s: Split) -> Vec<Example> {
        self.examples
            .iter()
            .filter(|e| e.split == s)
            .copied()
            .collect()
    }
    /// Largest fewest-pushes count in the data.
    pub fn max_pushes(&self) -> u32 {
        self.examples
            .iter()
            .map(|e| e.pushes.max(0) as u32)
            .max()
            .unwrap_or(0)
    }
}

/// `count` distinct boards of `rows × cols` drawn uniformly (without replacement) with
/// `seed`, each labelled exactly and assigned to a split by its class
/// ([`floe::games::pushpush::sample::sample`]). `progress` hears the number labelled so far
/// now and then.
pub fn sample(
    rows: usize,
    cols: usize,
    count: u64,
    seed: u64,
    split_seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Dataset, Error> {
    let examples =
        floe::games::pushpush::sample::sample(rows, cols, count, seed, split_seed, progress)?;
    Ok(Dataset::new(rows, cols, seed, split_seed, examples))
}

const MAGIC: &str = "# floe-learn dataset 1";

/// The dataset in its text format.
pub fn write(d: &Dataset) -> String {
    let mut s = String::with_capacity(d.examples.len() * (d.rows * d.cols + 60));
    let _ = writeln!(s, "{MAGIC}");
    let _ = writeln!(
        s,
        "# rows {} cols {} seed {} split-seed {} variant PushPush-1",
        d.rows, d.cols, d.seed, d.split_seed
    );
    s.push_str("split\tboard\tpushes\tdifficulty\tclass\n");
    for e in &d.examples {
        s.push_str(e.split.name());
        s.push('\t');
        s.push_str(&board_text(d.rows, d.cols, e.blocks, e.robot, e.target));
        let _ = write!(s, "\t{}\t", e.pushes);
        match e.difficulty {
            Some(v) => {
                let _ = write!(s, "{v:.6}");
            }
            None => s.push('-'),
        }
        let _ = writeln!(s, "\t{:032x}", e.class);
    }
    s
}

/// The largest dataset file floe reads: 8 GiB (about 300 million boards).
pub const MAX_FILE: u64 = 8 << 30;

/// Reads a dataset; errors name the file and line.
pub fn parse(text: &str, file: &str) -> Result<Dataset, Error> {
    let bad = |line: usize, msg: String| Error::invalid(format!("{file}:{line}: {msg}"));
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    match lines.next() {
        Some((_, l)) if l.trim_end() == MAGIC => {}
        _ => {
            return Err(bad(
                1,
                format!("not a floe-learn dataset (expected `{MAGIC}`)"),
            ))
        }
    }
    let (ln, head) = lines
        .next()
        .ok_or_else(|| bad(2, "missing the size line".into()))?;
    let words: Vec<&str> = head.trim_start_matches('#').split_whitespace().collect();
    let field = |name: &str| -> Result<u64, Error> {
        let k = words
            .iter()
            .position(|w| *w == name)
            .ok_or_else(|| bad(ln, format!("missing `{name}`")))?;
        words
            .get(k + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| bad(ln, format!("`{name}` needs a number")))
    };
    let rows = field("rows")? as usize;
    let cols = field("cols")? as usize;
    let seed = field("seed")?;
    let split_seed = field("split-seed")?;
    if !(2..=32).contains(&rows.saturating_mul(cols)) {
        return Err(bad(
            ln,
            format!("a {rows}×{cols} board is not 2 to 32 cells"),
        ));
    }
    match lines.next() {
        Some((_, l)) if l.starts_with("split\t") => {}
        _ => return Err(bad(3, "missing the column header".into())),
    }
    let mut examples = Vec::new();
    for (ln, l) in lines {
        if l.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() != 5 {
            return Err(bad(
                ln,
                format!("expected 5 tab-separated fields, found {}", f.len()),
            ));
        }
        let split =
            Split::parse(f[0]).ok_or_else(|| bad(ln, format!("unknown split `{}`", f[0])))?;
        let (blocks, robot, target) = parse_board(f[1], rows, cols).map_err(|m| bad(ln, m))?;
        let pushes: i32 = f[2]
            .parse()
            .ok()
            .filter(|&p| p >= -1)
            .ok_or_else(|| bad(ln, format!("bad pushes `{}`", f[2])))?;
        let difficulty = match f[3] {
            "-" => None,
            v => Some(
                v.parse::<f32>()
                    .ok()
                    .filter(|d| (0.0..=5.0).contains(d))
                    .ok_or_else(|| bad(ln, format!("bad difficulty `{v}`")))?,
            ),
        };
        if (pushes >= 0) != difficulty.is_some() {
            return Err(bad(
                ln,
                "a difficulty goes with a solvable board, `-` with -1".into(),
            ));
        }
        let class =
            u128::from_str_radix(f[4], 16).map_err(|_| bad(ln, format!("bad class `{}`", f[4])))?;
        // the labels are checked against the solver: every one of the first thousand boards
        // and one in a thousand after, so that a file edited by hand or by another program
        // cannot teach a model pushes no board needs
        let i = examples.len();
        if i < 1000 || i % 1000 == 0 {
            let board =
                to_board(rows, cols, blocks, robot, target).map_err(|e| bad(ln, e.to_string()))?;
            let truth = labelled(&board, split_seed)?;
            if truth.pushes != pushes {
                let said = |p: i32| {
                    if p < 0 {
                        "unsolvable".to_string()
                    } else {
                        format!("{p} pushes")
                    }
                };
                return Err(bad(
                    ln,
                    format!(
                        "the board is labelled {}, but floe's solver says {}",
                        said(pushes),
                        said(truth.pushes)
                    ),
                ));
            }
        }
        examples.push(Example {
            blocks,
            robot,
            target,
            pushes,
            difficulty,
            class,
            split,
        });
    }
    Ok(Dataset::new(rows, cols, seed, split_seed, examples))
}

fn parse_board(s: &str, rows: usize, cols: usize) -> Result<(u32, u8, u8), String> {
    let parts: Vec<&str> = s.split('/').collect();
    if parts.len() != rows || parts.iter().any(|p| p.chars().count() != cols) {
        return Err(format!("`{s}` is not a {rows}×{cols} board"));
    }
    let (mut blocks, mut robot, mut target) = (0u32, None, None);
    for (r, p) in parts.iter().enumerate() {
        for (c, ch) in p.chars().enumerate() {
            let i = r * cols + c;
            match ch {
                '-' => {}
                '$' => blocks |= 1 << i,
                '*' => {
                    blocks |= 1 << i;
                    target = target.xor(Some(i as u8)).or(Some(u8::MAX));
                }
                '@' => robot = robot.xor(Some(i as u8)).or(Some(u8::MAX)),
                '.' => target = target.xor(Some(i as u8)).or(Some(u8::MAX)),
                _ => return Err(format!("unknown cell `{ch}` in `{s}`")),
            }
        }
    }
    match (robot, target) {
        (Some(r), Some(t)) if r != u8::MAX && t != u8::MAX => Ok((blocks, r, t)),
        _ => Err(format!("`{s}` needs exactly one robot and one target")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_whose_cell_count_wraps_are_refused() {
        let rows = (1usize << 63) + 1;
        let e = sample(rows, 2, 1, 1, 1, &|_| {}).unwrap_err().to_string();
        assert!(e.contains("2 to 32 cells"), "{e}");
    }

    #[test]
    fn equivalent_boards_never_straddle_splits() {
        let d = sample(3, 3, 6000, 5, 11, &|_| {}).unwrap();
        let mut split_of_class = std::collections::HashMap::new();
        for e in &d.examples {
            let s = *split_of_class.entry(e.class).or_insert(e.split);
            assert_eq!(s, e.split, "class {:x} in two splits", e.class);
        }
        // and the classes do spread over all three, roughly 80/10/10
        let n = d.examples.len() as f64;
        let train = d.part(Split::Train).len() as f64 / n;
        assert!((0.7..0.9).contains(&train), "{train}");
        assert!(!d.part(Split::Val).is_empty() && !d.part(Split::Test).is_empty());
        // every symmetric image and robot move of a board lands in its board's split
        for e in d.examples.iter().take(200) {
            let b = to_board(3, 3, e.blocks, e.robot, e.target).unwrap();
            for g in floe::games::pushpush::census::symmetries(3, 3) {
                let img = to_board(
                    3,
                    3,
                    (0..9)
                        .filter(|&i| e.blocks >> i & 1 == 1)
                        .fold(0, |m, i| m | 1 << g[i]),
                    g[e.robot as usize] as u8,
                    g[e.target as usize] as u8,
                )
                .unwrap();
                assert_eq!(labelled(&img, 11).unwrap().split, e.split);
            }
            assert_eq!(labelled(&b, 11).unwrap(), *e);
        }
    }

    #[test]
    fn the_text_format_round_trips() {
        let d = sample(4, 4, 300, 1, 2, &|_| {}).unwrap();
        assert_eq!(d.examples.len(), 300);
        let text = write(&d);
        let back = parse(&text, "d.tsv").unwrap();
        assert_eq!(back.examples.len(), 300);
        for (a, b) in d.examples.iter().zip(&back.examples) {
            assert_eq!(
                (a.blocks, a.robot, a.target, a.pushes, a.class, a.split),
                (b.blocks, b.robot, b.target, b.pushes, b.class, b.split)
            );
            assert!((a.difficulty.unwrap_or(-1.0) - b.difficulty.unwrap_or(-1.0)).abs() < 1e-5);
        }
        let broken = text.replacen("\t-1\t-\t", "\t-1\t2.0\t", 1);
        let e = parse(&broken, "d.tsv").unwrap_err().to_string();
        assert!(e.contains("d.tsv:"), "{e}");
        assert!(parse("hello", "x").is_err());
    }

    #[test]
    fn labels_the_solver_disagrees_with_are_refused() {
        let d = sample(4, 4, 50, 1, 2, &|_| {}).unwrap();
        let text = write(&d);
        // the first solvable board, labelled 50 pushes
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let (i, fields) = lines
            .iter()
            .enumerate()
            .skip(3)
            .map(|(i, l)| (i, l.split('\t').map(str::to_string).collect::<Vec<_>>()))
            .find(|(_, f)| f.len() == 5 && f[2] != "-1")
            .expect("a solvable board");
        let mut f = fields;
        let truth = f[2].clone();
        f[2] = "50".into();
        lines[i] = f.join("\t");
        let e = parse(&lines.join("\n"), "d.tsv").unwrap_err().to_string();
        assert!(
            e.contains(&format!("d.tsv:{}:", i + 1)) && e.contains("labelled 50 pushes"),
            "{e}"
        );
        assert!(e.contains(&format!("says {truth} push")), "{e}");
    }

    #[test]
    fn the_same_seed_gives_the_same_sample() {
        let a = sample(4, 4, 100, 9, 9, &|_| {}).unwrap();
        let b = sample(4, 4, 100, 9, 9, &|_| {}).unwrap();
        assert_eq!(a.examples, b.examples);
        assert_eq!(difficulty_class(2.5), 3);
        assert_eq!(difficulty_class(2.49), 2);
    }
}
