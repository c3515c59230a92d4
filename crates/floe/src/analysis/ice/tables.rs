//! The tables of the two theses, computed exactly on empty boards: search-space sizes
//! (Kluiver's Table 1, with his closed forms A(2, m, n) and A(3, m, n)) and reach tables
//! (van den Akker's Tables 1–8, 10–13).

use super::patterns::{hardest_use, HardestUse};
use super::reach::{reach, Reach};
use crate::games::ice::{space, Level, WalkRule};
use crate::search::{Enumeration, LimitKind, Limits};
use crate::Error;
use serde::Serialize;
use std::time::Instant;

/// Kluiver's closed form for two blocks: A(2, m, n) = 12(m + n) − 50.
pub fn kluiver_a2(m: usize, n: usize) -> i64 {
    12 * (m + n) as i64 - 50
}

/// Kluiver's closed form for three blocks: A(3, m, n) = 492 − 100x + 12xy − 18y − 8x²
/// with x = m + n and y = m·n.
pub fn kluiver_a3(m: usize, n: usize) -> i64 {
    let x = (m + n) as i64;
    let y = (m * n) as i64;
    492 - 100 * x + 12 * x * y - 18 * y - 8 * x * x
}

/// What computes one cell of a table: given the empty board and its `(rows, cols, blocks)`.
pub type CellFn<'a, T> = dyn FnMut(&Level, (usize, usize, usize)) -> Result<T, Error> + 'a;

/// One cell of the search-space table.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SpaceCell {
    /// Rows of the board.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Blocks, placed along the edge clockwise from the top-left corner.
    pub blocks: usize,
    /// Reachable positions (`None` when the blocks do not fit along the edge).
    pub states: Option<u64>,
    /// Largest distance from the start.
    pub depth: Option<u32>,
    /// Kluiver's closed form for this cell, for 2 and 3 blocks.
    pub formula: Option<i64>,
    /// Whether the closed form gives the enumerated count.
    pub formula_holds: Option<bool>,
    /// Set when a limit cut the enumeration short (`states` is then a lower bound).
    pub limit: Option<&'static str>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Counts the positions reachable on an empty `rows × cols` board with `k` blocks.
pub fn space_cell(rows: usize, cols: usize, k: usize, limits: &Limits) -> Result<SpaceCell, Error> {
    space_cell_by(rows, cols, k, &mut |level| {
        space(level, WalkRule::Free, limits)
    })
}

/// Counts the positions of what `space_cell` would enumerate, a board, (game
/// [`crate::games::ice::Level`] with rule `free`) enumerated by `count`: on this machine,
/// or by workers of a cluster ([`crate::games::ice::space_on`]).
pub fn space_cell_by(
    rows: usize,
    cols: usize,
    k: usize,
    count: &mut dyn FnMut(&Level) -> Result<Enumeration, Error>,
) -> Result<SpaceCell, Error> {
    let t = Instant::now();
    let formula = match k {
        2 => Some(kluiver_a2(rows, cols)),
        3 => Some(kluiver_a3(rows, cols)),
        _ => None,
    };
    let Ok(level) = Level::empty_board(rows, cols, k) else {
        return Ok(SpaceCell {
            rows,
            cols,
            blocks: k,
            states: None,
            depth: None,
            formula,
            formula_holds: None,
            limit: None,
            seconds: 0.0,
        });
    };
    let e = count(&level)?;
    let complete = e.limit.is_none();
    Ok(SpaceCell {
        rows,
        cols,
        blocks: k,
        states: Some(e.states),
        depth: complete.then(|| e.depth()),
        formula,
        formula_holds: formula.filter(|_| complete).map(|f| f == e.states as i64),
        limit: e.limit.map(LimitKind::name),
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// The sizes of the table: every `m × n` with `2 ≤ m ≤ n`, `m ≤ max_rows`, `n ≤ max_cols`
/// (an `n × m` board has the same count), in order of `m`, then `n`.
pub fn table_sizes(max_rows: usize, max_cols: usize) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for m in 2..=max_rows {
        for n in m..=max_cols {
            v.push((m, n));
        }
    }
    v
}

/// The whole search-space table: blocks `1..=max_blocks` × [`table_sizes`]. `each` is
/// called with every cell as it is finished (for progress output).
pub fn space_table(
    max_rows: usize,
    max_cols: usize,
    max_blocks: usize,
    limits: &Limits,
    each: impl FnMut(&SpaceCell),
) -> Result<Vec<SpaceCell>, Error> {
    space_table_by(
        max_rows,
        max_cols,
        max_blocks,
        &mut |level, _| space(level, WalkRule::Free, limits),
        each,
    )
}

/// [`space_table`] with each board enumerated by `count` (given the board and its
/// `(rows, cols, blocks)`).
pub fn space_table_by(
    max_rows: usize,
    max_cols: usize,
    max_blocks: usize,
    count: &mut CellFn<'_, Enumeration>,
    mut each: impl FnMut(&SpaceCell),
) -> Result<Vec<SpaceCell>, Error> {
    let mut cells = Vec::new();
    for k in 1..=max_blocks {
        for (m, n) in table_sizes(max_rows, max_cols) {
            let c = space_cell_by(m, n, k, &mut |level| count(level, (m, n, k)))?;
            each(&c);
            cells.push(c);
        }
    }
    Ok(cells)
}

/// The table as Markdown: one row per number of blocks, one column per size; `—` where the
/// blocks do not fit, `≥ n` where a limit stopped the count. Below it, where Kluiver's closed
/// forms hold and where they do not.
pub fn space_table_markdown(cells: &[SpaceCell]) -> String {
    let mut sizes: Vec<(usize, usize)> = Vec::new();
    let mut blocks: Vec<usize> = Vec::new();
    for c in cells {
        if !sizes.contains(&(c.rows, c.cols)) {
            sizes.push((c.rows, c.cols));
        }
        if !blocks.contains(&c.blocks) {
            blocks.push(c.blocks);
        }
    }
    let mut out = String::from("| blocks |");
    for (m, n) in &sizes {
        out.push_str(&format!(" {m}×{n} |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(sizes.len()));
    out.push('\n');
    for k in &blocks {
        out.push_str(&format!("| {k} |"));
        for (m, n) in &sizes {
            let c = cells
                .iter()
                .find(|c| c.blocks == *k && (c.rows, c.cols) == (*m, *n));
            let text = match c {
                Some(SpaceCell {
                    states: Some(s),
                    limit: None,
                    ..
                }) => crate::render::thousands(*s),
                Some(SpaceCell {
                    states: Some(s), ..
                }) => format!("≥ {}", crate::render::thousands(*s)),
                _ => "—".to_string(),
            };
            out.push_str(&format!(" {text} |"));
        }
        out.push('\n');
    }
    for (k, name) in [(2, "A(2, m, n) = 12(m + n) − 50"), (3, "A(3, m, n)")] {
        let checked: Vec<&SpaceCell> = cells
            .iter()
            .filter(|c| c.blocks == k && c.formula_holds.is_some())
            .collect();
        if checked.is_empty() {
            continue;
        }
        let fails: Vec<String> = checked
            .iter()
            .filter(|c| c.formula_holds == Some(false))
            .map(|c| {
                format!(
                    "{}×{} ({} vs {})",
                    c.rows,
                    c.cols,
                    c.formula.unwrap_or_default(),
                    c.states.unwrap_or_default()
                )
            })
            .collect();
        out.push_str(&format!(
            "\n{name}: holds on {} of {} sizes",
            checked.len() - fails.len(),
            checked.len()
        ));
        if fails.is_empty() {
            out.push('\n');
        } else {
            out.push_str(&format!("; fails on {}\n", fails.join(", ")));
        }
    }
    out
}

/// How one of Kluiver's closed forms fares on a space table's cells.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FormulaSummary {
    /// The closed form.
    pub formula: &'static str,
    /// Cells on which it claims to hold.
    pub checked: usize,
    /// Cells on which it holds.
    pub holds: usize,
    /// The sizes (`6x7`) on which it fails.
    pub fails: Vec<String>,
}

/// A space table as the JSON contract of `floe table space --json`: the cells and how
/// Kluiver's closed forms A(2, m, n) and A(3, m, n) fare on them.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SpaceTableReport {
    /// The cells, in the order computed.
    pub cells: Vec<SpaceCell>,
    /// The closed forms checked.
    pub formulas: Vec<FormulaSummary>,
    /// Whether no cell was stopped by a limit.
    pub complete: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Peak resident memory of the process, when the front end measures it.
    pub peak_rss_bytes: Option<u64>,
}

impl SpaceTableReport {
    /// The report of `cells`, computed in `seconds`.
    pub fn new(cells: Vec<SpaceCell>, seconds: f64) -> SpaceTableReport {
        let formulas = [
            (2, "A(2,m,n) = 12(m+n) - 50"),
            (3, "A(3,m,n) = 492 - 100x + 12xy - 18y - 8x^2"),
        ]
        .iter()
        .map(|&(k, formula)| {
            let checked: Vec<&SpaceCell> = cells
                .iter()
                .filter(|c| c.blocks == k && c.formula_holds.is_some())
                .collect();
            FormulaSummary {
                formula,
                checked: checked.len(),
                holds: checked
                    .iter()
                    .filter(|c| c.formula_holds == Some(true))
                    .count(),
                fails: checked
                    .iter()
                    .filter(|c| c.formula_holds == Some(false))
                    .map(|c| format!("{}x{}", c.rows, c.cols))
                    .collect(),
            }
        })
        .collect();
        SpaceTableReport {
            complete: cells.iter().all(|c| c.limit.is_none()),
            cells,
            formulas,
            seconds,
            peak_rss_bytes: None,
        }
    }
}

/// Reach tables as the JSON contract of `floe table reach --json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReachTableReport {
    /// One table per board and block count.
    pub tables: Vec<ReachCell>,
    /// Whether no table was stopped by a limit.
    pub complete: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl ReachTableReport {
    /// The report of `tables`, computed in `seconds`.
    pub fn new(tables: Vec<ReachCell>, seconds: f64) -> ReachTableReport {
        ReachTableReport {
            complete: tables.iter().all(|c| c.limit.is_none()),
            tables,
            seconds,
        }
    }
}

/// One reach table of an empty board, with its summary (van den Akker's Tables 1–8 give the
/// grids, 10 the hardest cell, 11 the mean).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReachCell {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Blocks, starting in the top row from the left.
    pub blocks: usize,
    /// Fewest pushes per cell (`None` for cells no block can rest on, or when the blocks do
    /// not fit in the top row: then the whole table is empty).
    pub moves: Vec<Vec<Option<u32>>>,
    /// The hardest cell's count.
    pub max: Option<u32>,
    /// Mean over the reachable cells.
    pub mean: Option<f64>,
    /// Reachable positions enumerated.
    pub states: u64,
    /// Set when a limit cut the enumeration short.
    pub limit: Option<&'static str>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl ReachCell {
    fn from_reach(r: &Reach, blocks: usize, seconds: f64) -> ReachCell {
        ReachCell {
            rows: r.rows,
            cols: r.cols,
            blocks,
            moves: r.moves.clone(),
            max: r.max(),
            mean: r.mean(),
            states: r.states,
            limit: r.limit.map(LimitKind::name),
            seconds,
        }
    }
}

/// The reach table of an empty board, or `None` when the `k` blocks do not fit in the top
/// row (van den Akker leaves these cases out).
pub fn reach_cell(
    rows: usize,
    cols: usize,
    k: usize,
    limits: &Limits,
) -> Result<Option<ReachCell>, Error> {
    reach_cell_by(rows, cols, k, &mut |level| {
        reach(level, WalkRule::Free, limits)
    })
}

/// [`reach_cell`] with the board's table made by `make` (on this machine, or by workers of
/// a cluster: [`crate::analysis::ice::reach::reach_on`]).
pub fn reach_cell_by(
    rows: usize,
    cols: usize,
    k: usize,
    make: &mut dyn FnMut(&Level) -> Result<Reach, Error>,
) -> Result<Option<ReachCell>, Error> {
    if k > cols {
        return Ok(None);
    }
    let t = Instant::now();
    let r = make(&Level::empty_board(rows, cols, k)?)?;
    Ok(Some(ReachCell::from_reach(
        &r,
        k,
        t.elapsed().as_secs_f64(),
    )))
}

/// Reach tables for every board and block count given, in that order.
pub fn reach_table(
    boards: &[(usize, usize)],
    blocks: &[usize],
    limits: &Limits,
    each: impl FnMut(&ReachCell),
) -> Result<Vec<ReachCell>, Error> {
    reach_table_by(
        boards,
        blocks,
        &mut |level, _| reach(level, WalkRule::Free, limits),
        each,
    )
}

/// [`reach_table`] with each board's table made by `make` (given the board and its
/// `(rows, cols, blocks)`).
pub fn reach_table_by(
    boards: &[(usize, usize)],
    blocks: &[usize],
    make: &mut CellFn<'_, Reach>,
    mut each: impl FnMut(&ReachCell),
) -> Result<Vec<ReachCell>, Error> {
    let mut out = Vec::new();
    for &(m, n) in boards {
        for &k in blocks {
            if let Some(c) = reach_cell_by(m, n, k, &mut |level| make(level, (m, n, k)))? {
                each(&c);
                out.push(c);
            }
        }
    }
    Ok(out)
}

/// A closed form `moves(n)` checked against computed values.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FormulaCheck {
    /// The formula, as text.
    pub formula: String,
    /// The first `n` from which it holds for every computed value.
    pub holds_from: Option<usize>,
    /// `(n, computed, formula)` for every computed `n`.
    pub values: Vec<(usize, u32, i64)>,
}

/// Checks `formula` against `values` (`(n, computed)`): from which `n` on it holds.
pub fn check_formula(
    text: &str,
    values: &[(usize, u32)],
    formula: impl Fn(usize) -> i64,
) -> FormulaCheck {
    let rows: Vec<(usize, u32, i64)> = values.iter().map(|&(n, v)| (n, v, formula(n))).collect();
    let mut holds_from = None;
    for (i, &(n, _, _)) in rows.iter().enumerate() {
        if rows[i..].iter().all(|&(_, v, f)| v as i64 == f) {
            holds_from = Some(n);
            break;
        }
    }
    FormulaCheck {
        formula: text.to_string(),
        holds_from,
        values: rows,
    }
}

/// An eventually periodic-linear sequence: from `from` on, `v(n) = (slope·n + offset[n mod
/// period]) / period` (the division is exact). Hardest-cell counts of 2×n and 3×n boards
/// take this form with period 2 and slope 3 (three pushes per two columns).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct QuasiLinear {
    /// Period (1 or 2).
    pub period: usize,
    /// Growth over one period.
    pub slope: i64,
    /// Offsets by residue of `n` modulo the period.
    pub offset: Vec<i64>,
    /// First `n` from which the form holds for every value given.
    pub from: usize,
    /// The form as text, e.g. `⌊3n/2⌋ − 5`.
    pub text: String,
}

/// Fits a [`QuasiLinear`] form to `(n, v(n))` for consecutive `n`: the smallest period (1,
/// then 2) and the earliest start from which `v(n) − v(n − period)` is constant, with at least
/// two full periods of evidence. `None` when the values never settle.
pub fn fit_quasi_linear(values: &[(usize, u32)]) -> Option<QuasiLinear> {
    for period in 1..=2usize {
        if values.len() < 2 * period + 1 {
            continue;
        }
        let v: Vec<i64> = values.iter().map(|&(_, x)| x as i64).collect();
        let diffs: Vec<i64> = (period..v.len()).map(|i| v[i] - v[i - period]).collect();
        let slope = *diffs.last()?;
        // the earliest index from which every difference equals the slope
        let mut start = diffs.len();
        while start > 0 && diffs[start - 1] == slope {
            start -= 1;
        }
        // values from index `start` on satisfy the recurrence
        if diffs.len() - start < 2 * period {
            continue;
        }
        let from = values[start].0;
        let mut offset = vec![0i64; period];
        for (&(n, x), _) in values[start..start + period].iter().zip(0..) {
            offset[n % period] = period as i64 * x as i64 - slope * n as i64;
        }
        let text = quasi_linear_text(period, slope, &offset);
        return Some(QuasiLinear {
            period,
            slope,
            offset,
            from,
            text,
        });
    }
    None
}

fn signed(c: i64) -> String {
    match c {
        0 => String::new(),
        c if c > 0 => format!(" + {c}"),
        c => format!(" − {}", -c),
    }
}

fn quasi_linear_text(period: usize, slope: i64, offset: &[i64]) -> String {
    let sn = if slope == 1 {
        "n".to_string()
    } else {
        format!("{slope}n")
    };
    if period == 1 {
        return format!("{sn}{}", signed(offset[0]));
    }
    let (ce, co) = (offset[0], offset[1]);
    // (s·n + c)/2 with c even: write the constant outside the floor/ceiling
    if slope % 2 != 0 && ce % 2 == 0 {
        if co == ce - 1 {
            return format!("⌊{sn}/2⌋{}", signed(ce / 2));
        }
        if co == ce + 1 {
            return format!("⌈{sn}/2⌉{}", signed(ce / 2));
        }
    }
    if ce % 2 == 0 {
        let s_floor = if slope == 1 {
            String::new()
        } else {
            slope.to_string()
        };
        if co == ce - slope {
            return format!("{s_floor}⌊n/2⌋{}", signed(ce / 2));
        }
        if co == ce + slope {
            return format!("{s_floor}⌈n/2⌉{}", signed(ce / 2));
        }
    }
    format!(
        "({sn}{})/2 for even n, ({sn}{})/2 for odd n",
        signed(ce),
        signed(co)
    )
}

/// The hardest cell of `height`×n boards with `blocks` blocks for every width computed, and
/// the closed form it settles into (van den Akker's Tables 12 and 13).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StripSeries {
    /// Rows of the boards.
    pub height: usize,
    /// Blocks, starting in the top row from the left.
    pub blocks: usize,
    /// (width, hardest cell)
    pub hardest: Vec<(usize, u32)>,
    /// The closed form fitted to the values, if one settles.
    pub closed_form: Option<QuasiLinear>,
}

/// The thesis's description of the 2×n and 3×n hardest cells with 3 blocks: from some width
/// on, each extra column adds 2 pushes at even n and 1 at odd n.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PatternCheck {
    /// Rows of the boards.
    pub height: usize,
    /// Blocks.
    pub blocks: usize,
    /// First n such that v(m) − v(m−1) is 2 for even m and 1 for odd m for every m ≥ n
    /// computed.
    pub holds_from: Option<usize>,
}

/// The strip tables as the JSON contract of `floe table strip --json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StripTableReport {
    /// One series per height and block count.
    pub series: Vec<StripSeries>,
    /// The thesis's pattern checked on the 3-block series.
    pub thesis_pattern: Vec<PatternCheck>,
    /// Width of the block-count comparison (van den Akker's Table 13 uses 15).
    pub compare_width: usize,
    /// Whether no table was stopped by a limit.
    pub complete: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The hardest cells of `h`×n boards for every height, block count and width from
/// max(k, 3) to `max_width` (van den Akker's Tables 12 and 13), closed forms fitted and his
/// pattern checked; `each` hears of every table computed.
pub fn strip_table(
    heights: &[usize],
    max_width: usize,
    blocks: &[usize],
    compare_width: usize,
    limits: &Limits,
    mut each: impl FnMut(&ReachCell),
) -> Result<StripTableReport, Error> {
    let t = Instant::now();
    let mut series = Vec::new();
    let mut complete = true;
    for &h in heights {
        for &k in blocks {
            let mut hardest = Vec::new();
            for n in k.max(3)..=max_width {
                if let Some(c) = reach_cell(h, n, k, limits)? {
                    each(&c);
                    complete &= c.limit.is_none();
                    if let Some(m) = c.max {
                        hardest.push((n, m));
                    }
                }
            }
            let closed_form = fit_quasi_linear(&hardest);
            series.push(StripSeries {
                height: h,
                blocks: k,
                hardest,
                closed_form,
            });
        }
    }
    let thesis_pattern = series
        .iter()
        .filter(|s| s.blocks == 3)
        .map(|s| PatternCheck {
            height: s.height,
            blocks: s.blocks,
            holds_from: increments_hold_from(&s.hardest),
        })
        .collect();
    Ok(StripTableReport {
        series,
        thesis_pattern,
        compare_width,
        complete,
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// First n from which every step v(n) − v(n−1) is 2 at even n and 1 at odd n.
fn increments_hold_from(values: &[(usize, u32)]) -> Option<usize> {
    let ok = |i: usize| {
        let (n, v) = values[i];
        let (_, u) = values[i - 1];
        v as i64 - u as i64 == if n % 2 == 0 { 2 } else { 1 }
    };
    let mut start = values.len();
    while start > 1 && ok(start - 1) {
        start -= 1;
    }
    (values.len() - start >= 2).then(|| values[start].0)
}

/// One board of van den Akker's Table 9 (`floe table patterns --json` is a list of them).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PatternRow {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Blocks.
    pub blocks: usize,
    /// Whether trains and zigzags are part of the fastest ways to the hardest cells.
    #[serde(flatten)]
    pub result: HardestUse,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Whether trains (and zigzags) are part of fastest ways to the hardest cells of empty
/// square boards from `min_size` to `max_size` with each block count that fits (van den
/// Akker's Table 9); `each` hears of every board computed.
pub fn patterns_table(
    min_size: usize,
    max_size: usize,
    blocks: &[usize],
    limits: &Limits,
    mut each: impl FnMut(&PatternRow),
) -> Result<Vec<PatternRow>, Error> {
    let mut rows = Vec::new();
    for size in min_size..=max_size {
        for &k in blocks {
            if k > size {
                continue;
            }
            let c = Instant::now();
            let level = Level::empty_board(size, size, k)?;
            let result = hardest_use(&level, limits)?;
            let row = PatternRow {
                rows: size,
                cols: size,
                blocks: k,
                result,
                seconds: c.elapsed().as_secs_f64(),
            };
            each(&row);
            rows.push(row);
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn van_den_akkers_pattern_is_found_where_it_settles() {
        // the steps to n = 7, 8, 9, 10 are +1, +2, +1, +2; the step to 6 is +1, not +2
        let v = [(4, 3), (5, 3), (6, 4), (7, 5), (8, 7), (9, 8), (10, 10)];
        assert_eq!(increments_hold_from(&v), Some(7));
        assert_eq!(increments_hold_from(&[(4, 3), (5, 9)]), None);
        let strips = strip_table(&[2], 8, &[3], 8, &Limits::none(), |_| {}).unwrap();
        assert!(strips.complete && strips.series[0].hardest.len() == 6);
        // 2×n with 3 blocks: 1 2 4 4 5 7 for n = 3..8, the pattern from n = 7
        assert_eq!(strips.thesis_pattern[0].holds_from, Some(7));
        let rows = patterns_table(3, 4, &[3, 4], &Limits::none(), |_| {}).unwrap();
        let shapes: Vec<(usize, usize)> = rows.iter().map(|r| (r.rows, r.blocks)).collect();
        assert_eq!(shapes, vec![(3, 3), (4, 3), (4, 4)]);
    }

    #[test]
    fn closed_forms_match_the_thesis_examples() {
        assert_eq!(kluiver_a2(3, 3), 22);
        assert_eq!(kluiver_a2(4, 4), 46);
        assert_eq!(kluiver_a2(5, 5), 70);
        // Table 1's three-block row from 4×4 on; on 3×n boards the formula gives more than
        // the thesis's own counts (74, 180, 334), which the enumeration confirms
        assert_eq!(kluiver_a3(3, 3), 90);
        assert_eq!(kluiver_a3(3, 5), 350);
        for (m, n, want) in [
            (4, 4, 428),
            (4, 5, 744),
            (4, 6, 1140),
            (5, 5, 1242),
            (5, 6, 1844),
            (6, 6, 2676),
            (7, 7, 4874),
        ] {
            assert_eq!(kluiver_a3(m, n), want, "{m}x{n}");
        }
    }

    #[test]
    fn space_cells_check_the_formulas() {
        let c = space_cell(4, 4, 3, &Limits::none()).unwrap();
        assert_eq!(c.states, Some(428));
        assert_eq!(c.formula_holds, Some(true));
        let c = space_cell(2, 3, 2, &Limits::none()).unwrap();
        assert_eq!(c.states, Some(14));
        assert_eq!(c.formula_holds, Some(false));
        let c = space_cell(3, 3, 9, &Limits::none()).unwrap();
        assert_eq!(c.states, None);
        let c = space_cell(6, 6, 5, &Limits::none().max_states(1000)).unwrap();
        assert_eq!(c.limit, Some("max-states"));
        assert_eq!(c.formula_holds, None);
    }

    #[test]
    fn markdown_table_reports_formulas() {
        let cells = space_table(3, 4, 3, &Limits::none(), |_| {}).unwrap();
        // sizes 2×2, 2×3, 2×4, 3×3, 3×4; blocks 1..=3
        assert_eq!(cells.len(), 15);
        let md = space_table_markdown(&cells);
        assert!(
            md.starts_with("| blocks | 2×2 | 2×3 | 2×4 | 3×3 | 3×4 |"),
            "{md}"
        );
        assert!(md.contains("| 3 |"));
        assert!(md.contains("A(2, m, n) = 12(m + n) − 50: holds on 2 of 5 sizes; fails on 2×2"));
        assert!(md.contains("A(3, m, n)"));
    }

    #[test]
    fn reach_cells_skip_blocks_that_do_not_fit() {
        assert_eq!(reach_cell(3, 3, 4, &Limits::none()).unwrap(), None);
        let c = reach_cell(3, 3, 3, &Limits::none()).unwrap().unwrap();
        // van den Akker's Table 1
        let want = [[0, 0, 0], [3, 3, 3], [1, 1, 1]];
        for (r, row) in want.iter().enumerate() {
            for (col, &v) in row.iter().enumerate() {
                assert_eq!(c.moves[r][col], Some(v));
            }
        }
        assert_eq!(c.max, Some(3));
    }

    #[test]
    fn quasi_linear_fits() {
        // 2×n with 3 blocks, as computed: ⌊3n/2⌋ − 5 from n = 6
        let v: Vec<(usize, u32)> = [1, 2, 4, 4, 5, 7, 8, 10, 11, 13, 14]
            .iter()
            .enumerate()
            .map(|(i, &x)| (i + 3, x))
            .collect();
        let f = fit_quasi_linear(&v).unwrap();
        assert_eq!((f.period, f.slope, f.from), (2, 3, 6));
        assert_eq!(f.text, "⌊3n/2⌋ − 5");
        // a linear sequence: period 1
        let v: Vec<(usize, u32)> = (2..10).map(|n| (n, 12 * n as u32 + 2)).collect();
        let f = fit_quasi_linear(&v).unwrap();
        assert_eq!((f.period, f.slope, f.from), (1, 12, 2));
        assert_eq!(f.text, "12n + 2");
        // ceiling form
        let v: Vec<(usize, u32)> = (3..12).map(|n| (n, (3 * n as u32).div_ceil(2))).collect();
        assert_eq!(fit_quasi_linear(&v).unwrap().text, "⌈3n/2⌉");
        // steps of 3 every other column: 3⌊n/2⌋ − 11
        let v: Vec<(usize, u32)> = (14..21).map(|n| (n, 3 * (n as u32 / 2) - 11)).collect();
        assert_eq!(fit_quasi_linear(&v).unwrap().text, "3⌊n/2⌋ − 11");
        // too short to tell
        assert_eq!(fit_quasi_linear(&[(3, 1), (4, 5)]), None);
    }

    #[test]
    fn formula_checks_find_where_a_formula_starts_to_hold() {
        let values = [(3, 4), (4, 5), (5, 7), (6, 9), (7, 10)];
        let c = check_formula("n + 3", &values, |n| n as i64 + 3);
        assert_eq!(c.holds_from, Some(6));
        let c = check_formula("n", &values, |n| n as i64);
        assert_eq!(c.holds_from, None);
        let c = check_formula("⌊3n/2⌋", &[(4, 1), (5, 7), (6, 9)], |n| {
            3 * n as i64 / 2
        });
        assert_eq!(c.holds_from, Some(5));
        assert_eq!(c.values[0], (4, 1, 6));
    }
}
