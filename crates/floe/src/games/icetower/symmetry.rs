//! The symmetries of a level: the maps of the board onto itself (turns and mirrors of the
//! rectangle of its open cells) that keep every wall, fire, recycler and floor cell what it
//! is. Blocks and the magician are not asked to be symmetric: such a map carries every
//! position of the level to a position of the same level, as far from a solution (the rules
//! know no direction, and a goal, every fire out, stays a goal), so A* keeps one position of
//! each class ([`crate::search::Puzzle::canonical`]).

use super::level::{Tile, Tower};
use crate::grid::Pos;

/// A map of a level onto itself, as permutations of its open cells and of its fires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// Open cell number → the number of its image.
    pub cell: Vec<u16>,
    /// Fire number → the number of its image.
    pub fire: Vec<u8>,
    /// Its name: `mirror |`, `mirror -`, `turn 180`, `mirror \`, `mirror /`, `turn 90` or
    /// `turn 270`.
    pub name: &'static str,
}

/// `(i, j, h, w)` → the image of `(i, j)` in a rectangle of `h + 1` rows and `w + 1` columns.
type CellMap = fn(usize, usize, usize, usize) -> (usize, usize);

/// The eight maps of a square onto itself, in coordinates `(i, j)` inside a rectangle of
/// `h + 1` rows and `w + 1` columns (the last four only when `h == w`), the identity first.
const MAPS: [(&str, CellMap); 8] = [
    ("identity", |i, j, _, _| (i, j)),
    ("mirror |", |i, j, _, w| (i, w - j)),
    ("mirror -", |i, j, h, _| (h - i, j)),
    ("turn 180", |i, j, h, w| (h - i, w - j)),
    ("mirror \\", |i, j, _, _| (j, i)),
    ("mirror /", |i, j, h, w| (w - j, h - i)),
    ("turn 90", |i, j, h, _| (j, h - i)),
    ("turn 270", |i, j, _, w| (w - j, i)),
];

/// The level's symmetries other than the identity. `open` maps every cell (row-major) to
/// its open number or `u16::MAX`; `fires` lists the fires by number.
pub fn symmetries(tower: &Tower, open: &[u16], fires: &[Pos]) -> Vec<Symmetry> {
    let cols = tower.cols();
    let cells: Vec<Pos> = tower
        .positions()
        .filter(|p| open[p.row * cols + p.col] != u16::MAX)
        .collect();
    let Some(first) = cells.first() else {
        return Vec::new();
    };
    let (mut r0, mut r1, mut c0, mut c1) = (first.row, first.row, first.col, first.col);
    for p in &cells {
        r0 = r0.min(p.row);
        r1 = r1.max(p.row);
        c0 = c0.min(p.col);
        c1 = c1.max(p.col);
    }
    let (h, w) = (r1 - r0, c1 - c0);
    let kind = |t: Tile| -> u8 {
        match t {
            Tile::Floor => 0,
            Tile::Fire => 1,
            Tile::Recycler => 2,
            _ => 3,
        }
    };
    let mut found = Vec::new();
    for (k, &(name, map)) in MAPS.iter().enumerate().skip(1) {
        if k >= 4 && h != w {
            break;
        }
        let image = |p: Pos| -> Pos {
            let (i, j) = map(p.row - r0, p.col - c0, h, w);
            Pos::new(i + r0, j + c0)
        };
        let mut cell = Vec::with_capacity(cells.len());
        let fits = cells.iter().all(|&p| {
            let q = image(p);
            let n = open[q.row * cols + q.col];
            cell.push(n);
            n != u16::MAX && kind(tower.tile(p)) == kind(tower.tile(q))
        });
        // a map that moves no cell (a mirror of a single row) is the identity; on a single row
        // the turn is the mirror
        if !fits
            || cell.iter().enumerate().all(|(i, &n)| n as usize == i)
            || found.iter().any(|m: &Symmetry| m.cell == cell)
        {
            continue;
        }
        let fire = fires
            .iter()
            .map(|&f| {
                let q = image(f);
                fires
                    .iter()
                    .position(|&g| g == q)
                    .expect("fires map to fires") as u8
            })
            .collect();
        found.push(Symmetry { cell, fire, name });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::icetower::level::parse;

    /// Each cell's number among the open cells, row by row (`u16::MAX` for a wall).
    fn open_cells(t: &Tower) -> Vec<u16> {
        let mut open = vec![u16::MAX; t.rows() * t.cols()];
        let mut n = 0;
        for p in t.positions() {
            if t.tile(p) != Tile::Wall {
                open[p.row * t.cols() + p.col] = n;
                n += 1;
            }
        }
        open
    }

    fn of(text: &str) -> Vec<&'static str> {
        let t = parse(text, "t", "t").unwrap();
        let open = open_cells(&t);
        symmetries(&t, &open, &t.fires())
            .into_iter()
            .map(|s| s.name)
            .collect()
    }

    #[test]
    fn finds_the_maps_that_keep_the_board() {
        // a square with a fire in the middle: all seven, whatever the blocks and magician
        let square = "#####\n#@  #\n# * #\n#% $#\n#####\n";
        assert_eq!(
            of(square),
            [
                "mirror |",
                "mirror -",
                "turn 180",
                "mirror \\",
                "mirror /",
                "turn 90",
                "turn 270"
            ]
        );
        // a row: its mirror (the other mirror of a single row moves nothing)
        assert_eq!(of("#######\n#@ * %#\n#######\n"), ["mirror |"]);
        assert!(of("######\n#@ * #\n######\n").is_empty());
        // a rectangle: the three maps of a rectangle, or those the fires allow
        assert_eq!(
            of("#######\n#@ * %#\n#  *  #\n#######\n"),
            ["mirror |", "mirror -", "turn 180"]
        );
        assert_eq!(of("#######\n#@*  %#\n#   * #\n#######\n"), ["turn 180"]);
        // a fire off the axis breaks the mirror; a recycler must map to a recycler
        assert!(of("######\n#@*  #\n######\n").is_empty());
        assert!(of("######\n#@-* #\n######\n").is_empty());
        assert_eq!(of("#######\n#@-*- #\n#######\n"), ["mirror |"]);
        // a wall inside counts too
        assert!(of("######\n# # *#\n#@   #\n######\n").is_empty());
    }

    #[test]
    fn h49_has_its_mirror_through_the_star() {
        let t = parse(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../shared/levels/qits-icetower/h49"
            ))
            .unwrap(),
            "h49",
            "h49",
        )
        .unwrap();
        let cols = t.cols();
        let open = open_cells(&t);
        let s = symmetries(&t, &open, &t.fires());
        // the open cells are a square that every map of a square keeps; the star's centre is
        // not the square's, and only the mirror through the star keeps the fires
        let names: Vec<_> = s.iter().map(|s| s.name).collect();
        assert_eq!(names, ["mirror /"]);
        // (r, c) → (16 − c, 16 − r)
        let m = s.iter().find(|s| s.name == "mirror /").unwrap();
        let at = |r: usize, c: usize| open[r * cols + c];
        assert_eq!(m.cell[at(3, 5) as usize], at(11, 13));
        assert_eq!(m.cell[at(12, 4) as usize], at(12, 4));
    }
}
