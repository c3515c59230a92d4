//! The challenge setups of Goadrich and Droscha's study (spec `solitaire.md`): the shuffles and the entangled components of BoxOff, Pretzel and Fujisan.
//!
//! Every setup draws from a caller's random generator, so a seeded generator gives the same
//! challenge on every machine (the shuffles are written out here, not taken from `rand`).
//!
//! | game | setup | what it does |
//! |---|---|---|
//! | BoxOff | `shuffled` | h·w/c tokens of each colour, shuffled onto the grid |
//! | BoxOff | `ltiles` | 2 × 3 sub-grids of two L tiles; tile (S, D): two S squares (corner + one arm), one D; D = S + 1 and S − 2 (mod c); tiles and flips shuffled |
//! | Pretzel | `shuffled` | the whole deck, dealt left to right, top to bottom |
//! | Pretzel | `sequential` | each suit shuffled apart; cards dealt from suit 1, 2, …, k, 1, 2, … left to right, top to bottom |
//! | Pretzel | `banded` | each suit shuffled apart; all of suit 1, then suit 2, … dealt top to bottom, then left to right |
//! | Fujisan | `shuffled` | the 24 coins (values 0–5, four suits) onto the 24 spaces |
//! | Fujisan | `piecepack` | each suit's coins shuffled apart; from the right-most column leftwards, each column takes its two coins (top, bottom) from one suit, the suits in turn (sun, moon, crown, arms), three rounds of four columns: no column holds two equal values (the authors' published C# programs; the guarantee the paper states) |
//! | Fujisan | `piecepack-spec` | two coins per column from the right, the column's two coins from the next two suits in turn (sun, moon / crown, arms): no column holds two coins of one suit (the spec's wording) |
//! | Fujisan | `engraved` | the 20 tiles a:b (a ≤ b ≤ 5, no 0:0) as 2 × 2 tiles with a and b diagonal, laid in layers of 6, 5, 4, 3, 2 |
//! | Fujisan | `dominoes` | 12 of the 15 dominoes a:b (a < b ≤ 5) in a row, random orientation |

use crate::error::Error;
use crate::games::solitaire::boxoff::Board;
use crate::games::solitaire::fujisan::Mountain;
use crate::games::solitaire::pretzel::{Card, Deal};
use crate::games::solitaire::Kind;
use crate::games::solitaire::{shuffle, Challenge};
use rand::{Rng, RngExt};
use std::fmt;

/// A challenge setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Setup {
    /// Every game: the components shuffled independently.
    Shuffled,
    /// BoxOff: L-shaped tiles of three squares.
    LTiles,
    /// Pretzel: suits dealt in turn.
    Sequential,
    /// Pretzel: suits dealt in vertical bands.
    Banded,
    /// Fujisan: both coins of a column from one suit, the suits in turn from the right (no
    /// column holds two equal values): the authors' procedure.
    Piecepack,
    /// Fujisan: the coins of a column from two suits (no column holds two coins of a suit):
    /// the spec's wording.
    PiecepackSpec,
    /// Fujisan: engraved 2 × 2 tiles in five layers.
    Engraved,
    /// Fujisan: dominoes without sixes and doubles.
    Dominoes,
}

impl Setup {
    /// Every setup.
    pub const ALL: [Setup; 8] = [
        Setup::Shuffled,
        Setup::LTiles,
        Setup::Sequential,
        Setup::Banded,
        Setup::Piecepack,
        Setup::PiecepackSpec,
        Setup::Engraved,
        Setup::Dominoes,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Setup::Shuffled => "shuffled",
            Setup::LTiles => "ltiles",
            Setup::Sequential => "sequential",
            Setup::Banded => "banded",
            Setup::Piecepack => "piecepack",
            Setup::PiecepackSpec => "piecepack-spec",
            Setup::Engraved => "engraved",
            Setup::Dominoes => "dominoes",
        }
    }

    /// The paper's name.
    pub fn label(self) -> &'static str {
        match self {
            Setup::Shuffled => "Shuffled",
            Setup::LTiles => "L-Tiles",
            Setup::Sequential => "Sequential Suits",
            Setup::Banded => "Banded Suits",
            Setup::Piecepack => "Piecepack",
            Setup::PiecepackSpec => "Piecepack (spec)",
            Setup::Engraved => "Engraved Tiles",
            Setup::Dominoes => "Dominoes",
        }
    }

    /// The setups of a game, in the paper's order (Fujisan: the spec's reading of Piecepack
    /// last).
    pub fn of(game: Kind) -> &'static [Setup] {
        match game {
            Kind::BoxOff => &[Setup::Shuffled, Setup::LTiles],
            Kind::Pretzel => &[Setup::Shuffled, Setup::Sequential, Setup::Banded],
            Kind::Fujisan => &[
                Setup::Shuffled,
                Setup::Piecepack,
                Setup::Engraved,
                Setup::Dominoes,
                Setup::PiecepackSpec,
            ],
        }
    }
}

display_by_name!(Setup);

impl std::str::FromStr for Setup {
    type Err = String;
    fn from_str(s: &str) -> Result<Setup, String> {
        let key: String = s
            .chars()
            .filter(|c| !matches!(c, ' ' | '_'))
            .flat_map(char::to_lowercase)
            .collect();
        Ok(match key.as_str() {
            "shuffled" | "shuffle" => Setup::Shuffled,
            "ltiles" | "l-tiles" | "ltile" => Setup::LTiles,
            "sequential" | "sequentialsuits" => Setup::Sequential,
            "banded" | "bandedsuits" => Setup::Banded,
            // `piecepack-paired` was the authors' procedure's name before it became `piecepack`
            "piecepack" | "piecepack-paired" | "piecepackpaired" | "paired" => Setup::Piecepack,
            "piecepack-spec" | "piecepackspec" => Setup::PiecepackSpec,
            "engraved" | "engravedtiles" => Setup::Engraved,
            "dominoes" | "domino" => Setup::Dominoes,
            _ => {
                let names: Vec<&str> = Setup::ALL.iter().map(|x| x.name()).collect();
                return Err(format!(
                    "unknown setup '{s}': expected one of {}",
                    names.join(", ")
                ));
            }
        })
    }
}

/// The size of a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    /// BoxOff (h, w, c).
    BoxOff {
        /// Rows h.
        rows: usize,
        /// Columns w.
        cols: usize,
        /// Colours c.
        colours: usize,
    },
    /// Pretzel (k, n).
    Pretzel {
        /// Suits k (rows).
        suits: usize,
        /// Ranks n (columns; the aces go to the column on the left).
        ranks: usize,
    },
    /// Fujisan: the 2 × 12 mountain.
    Fujisan,
}

impl Size {
    /// BoxOff on `rows` × `cols` with `colours` colours.
    pub const fn boxoff(rows: usize, cols: usize, colours: usize) -> Size {
        Size::BoxOff {
            rows,
            cols,
            colours,
        }
    }
    /// The game.
    pub fn game(self) -> Kind {
        match self {
            Size::BoxOff { .. } => Kind::BoxOff,
            Size::Pretzel { .. } => Kind::Pretzel,
            Size::Fujisan => Kind::Fujisan,
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Size::BoxOff {
                rows,
                cols,
                colours,
            } => write!(f, "BoxOff ({rows}, {cols}, {colours})"),
            Size::Pretzel { suits, ranks } => write!(f, "Pretzel ({suits}, {ranks})"),
            Size::Fujisan => write!(f, "Fujisan"),
        }
    }
}

/// Checks that `setup` applies to `size`, with a message saying why not.
pub fn check(size: Size, setup: Setup) -> Result<(), Error> {
    if !Setup::of(size.game()).contains(&setup) {
        let names: Vec<&str> = Setup::of(size.game()).iter().map(|s| s.name()).collect();
        return Err(Error::invalid(format!(
            "{} has no setup '{setup}': expected one of {}",
            size.game(),
            names.join(", ")
        )));
    }
    match size {
        Size::BoxOff {
            rows,
            cols,
            colours,
        } => {
            let cells = rows.saturating_mul(cols);
            if rows == 0 || cols == 0 || cells > 64 {
                return Err(Error::invalid(format!(
                    "BoxOff boards have 1 to 64 cells, not {rows}×{cols}"
                )));
            }
            if !(1..=9).contains(&colours) || cells % colours != 0 {
                return Err(Error::invalid(format!(
                    "{colours} colours (1 to 9) must divide the {cells} cells evenly"
                )));
            }
            if setup == Setup::LTiles
                && (rows % 2 != 0 || cols % 3 != 0 || cells != 6 * colours || colours < 3)
            {
                return Err(Error::invalid(format!(
                    "L-Tiles need an even number of rows, a multiple of 3 columns and 6 cells per colour \
                     (two tiles with S = each colour), with at least 3 colours: ({rows}, {cols}, {colours}) does not fit \
                     (the paper's sizes: (4, 6, 4) and (6, 6, 6))"
                )));
            }
        }
        Size::Pretzel { suits, ranks } => {
            use crate::games::solitaire::pretzel::{MAX_CELLS, MAX_RANKS, MAX_SUITS};
            if !(1..=MAX_SUITS).contains(&suits)
                || !(2..=MAX_RANKS).contains(&ranks)
                || suits * ranks > MAX_CELLS
            {
                return Err(Error::invalid(format!(
                    "Pretzel takes 1 to {MAX_SUITS} suits, 2 to {MAX_RANKS} ranks and at most {MAX_CELLS} cards, not ({suits}, {ranks})"
                )));
            }
        }
        Size::Fujisan => {}
    }
    Ok(())
}

/// Generates one challenge of `size` with `setup`, drawing from `rng`.
pub fn generate<G: Rng + ?Sized>(
    size: Size,
    setup: Setup,
    rng: &mut G,
) -> Result<Challenge, Error> {
    check(size, setup)?;
    Ok(match size {
        Size::BoxOff {
            rows,
            cols,
            colours,
        } => Challenge::BoxOff(match setup {
            Setup::LTiles => l_tiles(rows, cols, colours, rng),
            _ => boxoff_shuffled(rows, cols, colours, rng),
        }),
        Size::Pretzel { suits, ranks } => {
            let layout = match setup {
                Setup::Sequential => pretzel_sequential(suits, ranks, rng),
                Setup::Banded => pretzel_banded(suits, ranks, rng),
                _ => pretzel_shuffled(suits, ranks, rng),
            };
            Challenge::Pretzel(Deal::from_layout(suits, ranks, &layout)?)
        }
        Size::Fujisan => {
            let values = match setup {
                Setup::Piecepack => piecepack(rng),
                Setup::PiecepackSpec => piecepack_spec(rng),
                Setup::Engraved => engraved(rng),
                Setup::Dominoes => dominoes(rng),
                _ => fujisan_shuffled(rng),
            };
            Challenge::Fujisan(Mountain::new(12, values)?)
        }
    })
}

// ----------------------------------------------------------------------------------------
// BoxOff

/// Shuffled: h·w/c tokens of each colour in random order, row-major.
pub fn boxoff_shuffled<G: Rng + ?Sized>(
    rows: usize,
    cols: usize,
    colours: usize,
    rng: &mut G,
) -> Board {
    let n = rows * cols;
    let mut cells: Vec<u8> = (0..n).map(|i| (i * colours / n) as u8 + 1).collect();
    shuffle(&mut cells, rng);
    Board::new(rows, cols, cells).expect("checked sizes")
}

/// The L-tiles of (h, w, c) as (S, D) colour pairs (1-based): every colour is S on two tiles,
/// with D = S + 1 and S − 2 (mod c): the paper's cycles of Figure 5 for (4, 6, 4) and (6, 6, 6).
pub fn l_tile_set(colours: usize) -> Vec<(u8, u8)> {
    let c = colours;
    (0..c)
        .flat_map(|s| [(s, (s + 1) % c), (s, (s + c - 2) % c)])
        .map(|(s, d)| (s as u8 + 1, d as u8 + 1))
        .collect()
}

/// The tile slots of an h × w grid: per 2 × 3 sub-grid (row-major) the top-left L (corner,
/// right arm, down arm) and the bottom-right L (corner, up arm, left arm), as row-major cells.
pub fn l_tile_slots(rows: usize, cols: usize) -> Vec<[usize; 3]> {
    let mut slots = Vec::new();
    for br in 0..rows / 2 {
        for bc in 0..cols / 3 {
            let (r, c) = (2 * br, 3 * bc);
            let at = |dr: usize, dc: usize| (r + dr) * cols + c + dc;
            slots.push([at(0, 0), at(0, 1), at(1, 0)]);
            slots.push([at(1, 2), at(0, 2), at(1, 1)]);
        }
    }
    slots
}

/// L-Tiles: the tiles shuffled over the slots; a coin flip per tile puts D on one arm or the
/// other (the corner is always S).
pub fn l_tiles<G: Rng + ?Sized>(rows: usize, cols: usize, colours: usize, rng: &mut G) -> Board {
    let mut tiles = l_tile_set(colours);
    shuffle(&mut tiles, rng);
    let mut cells = vec![0u8; rows * cols];
    for (slot, &(s, d)) in l_tile_slots(rows, cols).iter().zip(&tiles) {
        let flip = rng.random_bool(0.5);
        cells[slot[0]] = s;
        cells[slot[1]] = if flip { d } else { s };
        cells[slot[2]] = if flip { s } else { d };
    }
    Board::new(rows, cols, cells).expect("checked sizes")
}

// ----------------------------------------------------------------------------------------
// Pretzel

fn suit_deck<G: Rng + ?Sized>(suit: usize, ranks: usize, rng: &mut G) -> Vec<Card> {
    let mut d: Vec<Card> = (1..=ranks as u8)
        .map(|rank| Card {
            suit: suit as u8,
            rank,
        })
        .collect();
    shuffle(&mut d, rng);
    d
}

/// Shuffled: the whole deck shuffled, dealt row-major (the layout includes the aces).
pub fn pretzel_shuffled<G: Rng + ?Sized>(suits: usize, ranks: usize, rng: &mut G) -> Vec<Card> {
    let mut deck: Vec<Card> = (0..suits as u8)
        .flat_map(|suit| (1..=ranks as u8).map(move |rank| Card { suit, rank }))
        .collect();
    shuffle(&mut deck, rng);
    deck
}

/// Sequential Suits: each suit shuffled apart; position p (row-major) gets the next card of
/// suit p mod k.
pub fn pretzel_sequential<G: Rng + ?Sized>(suits: usize, ranks: usize, rng: &mut G) -> Vec<Card> {
    let decks: Vec<Vec<Card>> = (0..suits).map(|s| suit_deck(s, ranks, rng)).collect();
    (0..suits * ranks)
        .map(|p| decks[p % suits][p / suits])
        .collect()
}

/// Banded Suits: each suit shuffled apart; dealt suit after suit down the columns
/// (column-major), giving vertical bands.
pub fn pretzel_banded<G: Rng + ?Sized>(suits: usize, ranks: usize, rng: &mut G) -> Vec<Card> {
    let decks: Vec<Vec<Card>> = (0..suits).map(|s| suit_deck(s, ranks, rng)).collect();
    let mut layout = vec![decks[0][0]; suits * ranks];
    for q in 0..suits * ranks {
        // the q-th card dealt goes to row q mod k, column q div k
        let (row, col) = (q % suits, q / suits);
        layout[row * ranks + col] = decks[q / ranks][q % ranks];
    }
    layout
}

// ----------------------------------------------------------------------------------------
// Fujisan (2 × 12; values row-major, top row first)

/// Shuffled: the 24 coins (four of each value 0–5) in random order.
pub fn fujisan_shuffled<G: Rng + ?Sized>(rng: &mut G) -> Vec<u8> {
    let mut v: Vec<u8> = (0..24).map(|i| (i % 6) as u8).collect();
    shuffle(&mut v, rng);
    v
}

/// Each suit's six coins (values 0–5), shuffled apart: sun, moon, crown, arms.
fn piecepack_suits<G: Rng + ?Sized>(rng: &mut G) -> [[u8; 6]; 4] {
    let mut suits = [[0, 1, 2, 3, 4, 5]; 4];
    for s in &mut suits {
        shuffle(s, rng);
    }
    suits
}

/// Piecepack as the authors' published C# programs set it up: the coins shuffled within each
/// suit; then, from the right-most column leftwards, each column takes its two coins (top,
/// then bottom) from one suit, the suits taken in turn (sun, moon, crown, arms), three rounds
/// of four columns. A suit holds each value once, so no column holds a repeated value (the
/// guarantee the paper states).
pub fn piecepack<G: Rng + ?Sized>(rng: &mut G) -> Vec<u8> {
    deal_piecepack(&piecepack_suits(rng))
}

/// The authors' Piecepack layout of four suits of coins, each in its shuffled order (sun,
/// moon, crown, arms), row-major (top row, then bottom row): column 11 holds the sun's first
/// two coins (top, bottom), column 10 the moon's, 9 the crown's, 8 the arms', column 7 the
/// sun's next two, and so on to column 0.
pub fn deal_piecepack<T: Copy>(suits: &[[T; 6]; 4]) -> Vec<T> {
    let mut v = vec![suits[0][0]; 24];
    for j in 0..12 {
        let (col, suit, round) = (11 - j, j % 4, j / 4);
        v[col] = suits[suit][2 * round];
        v[12 + col] = suits[suit][2 * round + 1];
    }
    v
}

/// Piecepack as the spec words it: the coins shuffled within each suit; from the right-most
/// column leftwards, the column's two coins come from the next two suits in turn (sun on top
/// and moon below, then crown and arms, …), so no column holds two coins of one suit, but a
/// column may hold two equal values.
pub fn piecepack_spec<G: Rng + ?Sized>(rng: &mut G) -> Vec<u8> {
    deal_piecepack_spec(&piecepack_suits(rng))
}

/// The spec's Piecepack layout of four shuffled suits, row-major: column 11 holds the sun's
/// first coin on top and the moon's below, column 10 the crown's and the arms', column 9 the
/// sun's and moon's second coins, and so on to column 0.
pub fn deal_piecepack_spec<T: Copy>(suits: &[[T; 6]; 4]) -> Vec<T> {
    let mut v = vec![suits[0][0]; 24];
    for j in 0..12 {
        let (col, pair, k) = (11 - j, j % 2, j / 2);
        v[col] = suits[2 * pair][k];
        v[12 + col] = suits[2 * pair + 1][k];
    }
    v
}

/// The 20 engraved tiles a:b, 0 ≤ a ≤ b ≤ 5 without 0:0.
pub fn engraved_tile_set() -> Vec<(u8, u8)> {
    (0..6u8)
        .flat_map(|a| (a..6).map(move |b| (a, b)))
        .filter(|&t| t != (0, 0))
        .collect()
}

/// Engraved Tiles: the 20 tiles shuffled and laid in layers of 6, 5, 4, 3 and 2 (layer L
/// covers columns L..12−L), each in a random orientation; a tile a:b shows column (a, b) and
/// column (b, a) (values repeated diagonally). The visible column c is the top tile's.
pub fn engraved<G: Rng + ?Sized>(rng: &mut G) -> Vec<u8> {
    let mut tiles = engraved_tile_set();
    shuffle(&mut tiles, rng);
    // layers[L][t] = (left column top, left column bottom)
    let mut next = tiles.into_iter();
    let mut layers: Vec<Vec<(u8, u8)>> = Vec::new();
    for count in [6usize, 5, 4, 3, 2] {
        let layer = (0..count)
            .map(|_| {
                let (a, b) = next.next().expect("20 tiles");
                if rng.random_bool(0.5) {
                    (a, b)
                } else {
                    (b, a)
                }
            })
            .collect();
        layers.push(layer);
    }
    let mut v = vec![0u8; 24];
    for c in 0..12 {
        let layer = c.min(11 - c).min(4);
        let (t, half) = ((c - layer) / 2, (c - layer) % 2);
        let (x, y) = layers[layer][t];
        let (top, bottom) = if half == 0 { (x, y) } else { (y, x) };
        v[c] = top;
        v[12 + c] = bottom;
    }
    v
}

/// The 15 dominoes a:b, 0 ≤ a < b ≤ 5.
pub fn domino_set() -> Vec<(u8, u8)> {
    (0..6u8)
        .flat_map(|a| (a + 1..6).map(move |b| (a, b)))
        .collect()
}

/// Dominoes: 12 of the 15 shuffled dominoes in a row, one per column, random orientation.
pub fn dominoes<G: Rng + ?Sized>(rng: &mut G) -> Vec<u8> {
    let mut d = domino_set();
    shuffle(&mut d, rng);
    let mut v = vec![0u8; 24];
    for (c, &(a, b)) in d.iter().take(12).enumerate() {
        let (top, bottom) = if rng.random_bool(0.5) { (a, b) } else { (b, a) };
        v[c] = top;
        v[12 + c] = bottom;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    fn rng(seed: u64) -> Pcg64Mcg {
        Pcg64Mcg::seed_from_u64(seed)
    }

    #[test]
    fn sizes_whose_cell_count_wraps_are_refused() {
        // 2^63 + 1 rows of 2 columns: the product wraps to 2 cells in plain arithmetic
        let rows = (1usize << 63) + 1;
        let size = Size::boxoff(rows, 2, 2);
        let e = check(size, Setup::Shuffled).unwrap_err().to_string();
        assert!(e.contains("BoxOff boards have 1 to 64 cells"), "{e}");
    }

    #[test]
    fn same_seed_same_challenge() {
        for (size, setup) in [
            (Size::boxoff(4, 6, 4), Setup::LTiles),
            (Size::Pretzel { suits: 4, ranks: 5 }, Setup::Banded),
            (Size::Fujisan, Setup::Engraved),
        ] {
            let a = generate(size, setup, &mut rng(9)).unwrap();
            let b = generate(size, setup, &mut rng(9)).unwrap();
            let c = generate(size, setup, &mut rng(10)).unwrap();
            assert_eq!(a, b);
            assert_ne!(a, c);
        }
    }

    #[test]
    fn setups_check_sizes() {
        let b = |rows, cols, colours| Size::boxoff(rows, cols, colours);
        assert!(check(b(4, 6, 4), Setup::LTiles).is_ok());
        assert!(check(b(6, 6, 6), Setup::LTiles).is_ok());
        assert!(check(b(6, 8, 3), Setup::LTiles).is_err());
        assert!(check(b(6, 8, 3), Setup::Shuffled).is_ok());
        assert!(check(b(4, 6, 5), Setup::Shuffled).is_err());
        assert!(check(b(4, 6, 4), Setup::Banded).is_err());
        assert!(check(Size::Fujisan, Setup::LTiles).is_err());
        assert!(check(
            Size::Pretzel {
                suits: 4,
                ranks: 11
            },
            Setup::Shuffled
        )
        .is_err());
        assert_eq!("L-Tiles".parse::<Setup>(), Ok(Setup::LTiles));
        assert!("random".parse::<Setup>().is_err());
    }

    #[test]
    fn l_tile_sets_match_the_spec() {
        let s = |v: &[(u8, u8)]| v.to_vec();
        assert_eq!(
            l_tile_set(4),
            s(&[
                (1, 2),
                (1, 3),
                (2, 3),
                (2, 4),
                (3, 4),
                (3, 1),
                (4, 1),
                (4, 2)
            ])
        );
        assert_eq!(
            l_tile_set(6),
            s(&[
                (1, 2),
                (1, 5),
                (2, 3),
                (2, 6),
                (3, 4),
                (3, 1),
                (4, 5),
                (4, 2),
                (5, 6),
                (5, 3),
                (6, 1),
                (6, 4)
            ])
        );
    }

    #[test]
    fn l_tiles_keep_two_same_colour_squares_per_tile() {
        for (rows, cols, colours) in [(4, 6, 4), (6, 6, 6)] {
            let slots = l_tile_slots(rows, cols);
            let mut slot_cells: Vec<usize> = slots.iter().flatten().copied().collect();
            slot_cells.sort_unstable();
            assert_eq!(slot_cells, (0..rows * cols).collect::<Vec<_>>());
            let mut r = rng(1);
            let mut flips = [0usize; 2];
            for _ in 0..500 {
                let b = l_tiles(rows, cols, colours, &mut r);
                let cells = b.cells();
                for c in 1..=colours as u8 {
                    assert_eq!(
                        cells.iter().filter(|&&x| x == c).count(),
                        rows * cols / colours
                    );
                }
                let mut tiles = Vec::new();
                for s in &slots {
                    let [corner, a1, a2] = s.map(|i| cells[i]);
                    // exactly two squares of one colour, the corner among them
                    assert!((corner == a1) != (corner == a2), "{:?}", [corner, a1, a2]);
                    flips[usize::from(corner == a1)] += 1;
                    tiles.push((corner, if corner == a1 { a2 } else { a1 }));
                }
                tiles.sort_unstable();
                let mut set = l_tile_set(colours);
                set.sort_unstable();
                assert_eq!(tiles, set);
            }
            // the flips are fair coins
            let n = (flips[0] + flips[1]) as f64;
            assert!((flips[0] as f64 / n - 0.5).abs() < 0.03, "{flips:?}");
        }
    }

    #[test]
    fn boxoff_shuffled_is_uniform_over_cells() {
        let mut r = rng(2);
        let mut ones = vec![0usize; 24];
        for _ in 0..4000 {
            let b = boxoff_shuffled(4, 6, 4, &mut r);
            for (i, &c) in b.cells().iter().enumerate() {
                ones[i] += usize::from(c == 1);
            }
        }
        // each cell holds colour 1 with probability 1/4
        for &x in &ones {
            assert!((x as f64 / 4000.0 - 0.25).abs() < 0.035, "{ones:?}");
        }
    }

    #[test]
    fn pretzel_patterns() {
        let mut r = rng(3);
        for _ in 0..50 {
            // Sequential (4, 3): row-major position p holds suit p mod 4
            let l = pretzel_sequential(4, 3, &mut r);
            for (p, c) in l.iter().enumerate() {
                assert_eq!(c.suit as usize, p % 4);
            }
            // Banded (4, 8): column-major bands, suit s fills columns 2s and 2s + 1
            let l = pretzel_banded(4, 8, &mut r);
            for (p, c) in l.iter().enumerate() {
                assert_eq!(c.suit as usize, (p % 8) / 2);
            }
            // Banded with k = n equals Sequential's suit pattern
            let a = pretzel_banded(4, 4, &mut r);
            let b = pretzel_sequential(4, 4, &mut r);
            let suits = |l: &[Card]| l.iter().map(|c| c.suit).collect::<Vec<_>>();
            assert_eq!(suits(&a), suits(&b));
            // every deal is a full deck
            let d = pretzel_shuffled(4, 9, &mut r);
            let mut ids: Vec<u32> = d
                .iter()
                .map(|c| u32::from(c.suit) * 9 + u32::from(c.rank))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), 36);
        }
    }

    /// Coins named by suit (0 sun, 1 moon, 2 crown, 3 arms) and place in the suit's
    /// shuffled order.
    fn named_coins() -> [[(usize, usize); 6]; 4] {
        std::array::from_fn(|s| std::array::from_fn(|k| (s, k)))
    }

    #[test]
    fn piecepack_fills_columns_from_the_right_one_suit_per_column_in_turn() {
        // the authors' procedure: column 11 takes the sun's first two coins (top, bottom),
        // 10 the moon's, 9 the crown's, 8 the arms'; then the next two of each suit for
        // columns 7 … 4, and the last two for 3 … 0
        let v = deal_piecepack(&named_coins());
        for j in 0..12 {
            let col = 11 - j;
            let (suit, round) = (j % 4, j / 4);
            assert_eq!(v[col], (suit, 2 * round), "top of column {col}");
            assert_eq!(v[12 + col], (suit, 2 * round + 1), "bottom of column {col}");
        }
        // every coin placed once
        let mut all = v.clone();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 24);
    }

    #[test]
    fn piecepack_never_repeats_a_value_in_a_column() {
        let mut r = rng(5);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            let v = piecepack(&mut r);
            for c in 0..12 {
                assert_ne!(v[c], v[12 + c], "column {c} of {v:?}");
            }
            // one suit's six coins in columns 11, 7 and 3 (and so for the others): values
            // 0–5 once each
            for first in [11, 10, 9, 8] {
                let mut vals: Vec<u8> = [first, first - 4, first - 8]
                    .iter()
                    .flat_map(|&c| [v[c], v[12 + c]])
                    .collect();
                vals.sort_unstable();
                assert_eq!(vals, vec![0, 1, 2, 3, 4, 5]);
            }
            seen.insert(v);
        }
        // the shuffles vary the challenge (6!⁴ of them)
        assert!(seen.len() > 1990);
    }

    #[test]
    fn the_spec_piecepack_draws_two_suits_per_column() {
        // the spec's wording: column 11 holds a sun coin on top and a moon coin below, column
        // 10 crown and arms, column 9 the next sun and moon coins, …
        let v = deal_piecepack_spec(&named_coins());
        for j in 0..12 {
            let col = 11 - j;
            let (pair, k) = (j % 2, j / 2);
            assert_eq!((v[col], v[12 + col]), ((2 * pair, k), (2 * pair + 1, k)));
        }
        // so a column never holds two coins of one suit, but equal values happen (probability
        // 1/6 per column)
        let mut r = rng(4);
        let mut doubles = 0;
        for _ in 0..1000 {
            let v = piecepack_spec(&mut r);
            doubles += (0..12).filter(|&c| v[c] == v[12 + c]).count();
        }
        let share = doubles as f64 / 12_000.0;
        assert!((share - 1.0 / 6.0).abs() < 0.02, "{share}");
    }

    #[test]
    fn piecepack_names() {
        assert_eq!("piecepack".parse::<Setup>(), Ok(Setup::Piecepack));
        // the authors' procedure's former name
        assert_eq!("piecepack-paired".parse::<Setup>(), Ok(Setup::Piecepack));
        assert_eq!("piecepack-spec".parse::<Setup>(), Ok(Setup::PiecepackSpec));
        assert_eq!(Setup::PiecepackSpec.name(), "piecepack-spec");
        assert_eq!(
            Setup::of(Kind::Fujisan),
            [
                Setup::Shuffled,
                Setup::Piecepack,
                Setup::Engraved,
                Setup::Dominoes,
                Setup::PiecepackSpec
            ]
        );
    }

    #[test]
    fn engraved_tiles() {
        assert_eq!(engraved_tile_set().len(), 20);
        let mut r = rng(6);
        for _ in 0..500 {
            let v = engraved(&mut r);
            let col = |c: usize| (v[c], v[12 + c]);
            for c in 0..12 {
                assert_ne!(col(c), (0, 0));
            }
            // the two top tiles show their two halves: columns 4|5 and 6|7 mirror each other
            assert_eq!(col(4), (col(5).1, col(5).0));
            assert_eq!(col(6), (col(7).1, col(7).0));
            // ten distinct tiles are visible: 8 single columns and the two top tiles
            let mut tiles: Vec<(u8, u8)> = [0, 1, 2, 3, 4, 6, 8, 9, 10, 11]
                .iter()
                .map(|&c| (col(c).0.min(col(c).1), col(c).0.max(col(c).1)))
                .collect();
            tiles.sort_unstable();
            tiles.dedup();
            assert_eq!(tiles.len(), 10);
        }
    }

    #[test]
    fn dominoes() {
        assert_eq!(domino_set().len(), 15);
        let mut r = rng(7);
        let mut flipped = 0;
        for _ in 0..500 {
            let v = super::dominoes(&mut r);
            let mut seen = std::collections::HashSet::new();
            for c in 0..12 {
                let (a, b) = (v[c], v[12 + c]);
                assert!(a != b && a < 6 && b < 6);
                assert!(seen.insert((a.min(b), a.max(b))));
                flipped += usize::from(a > b);
            }
        }
        assert!((flipped as f64 / 6000.0 - 0.5).abs() < 0.03);
    }
}
