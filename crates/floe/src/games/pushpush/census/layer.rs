//! One layer of the census (the boards with one number of blocks) as data that can be kept
//! in a file, and the exact merge of the layers into the census.

use super::geometry::{cycle_count, Geo, Perm};
use super::hardest::{class_board, HardClass};
use super::{
    cells, BlockRow, Census, CensusOptions, Classes, DifficultyCensus, Hardest, DIFFICULTY_BINS,
    HARDEST_CAP,
};
use crate::error::Error;
use crate::search::LimitKind;
use serde::{Deserialize, Serialize};

/// Everything the census needs of the boards with one number of blocks, to merge exactly:
/// counts, the unreduced Burnside sum, the hardest classes and the difficulty's partial
/// histograms and sums (`f64` sums kept bit for bit).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CensusLayer {
    /// Number of blocks.
    pub blocks: usize,
    /// Positions (block set, region) solved.
    pub positions: u64,
    /// Bytes of the layer's tables.
    pub table_bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Solvable boards by fewest pushes (index = pushes; the last entry is not zero).
    pub by_pushes: Vec<u64>,
    /// Unsolvable boards.
    pub unsolvable: u64,
    /// Classes after merging robot cells within one walkable region.
    pub robot_region: u64,
    /// Burnside's sum for the classes under robot region and symmetry: the (position,
    /// target) classes fixed by each symmetry, summed over the symmetries (not yet divided
    /// by their number).
    pub both_fixed: u64,
    /// The layer's hardest boards.
    pub hardest: LayerHardest,
    /// The difficulty's partial histograms, when asked for.
    pub difficulty: Option<LayerDifficulty>,
}

/// The boards of a layer that need the most pushes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerHardest {
    /// Their fewest pushes (0 when no board of the layer needs a push).
    pub pushes: u32,
    /// How many boards.
    pub count: u64,
    /// Positions that solve a target at that last step (the census lists no classes when
    /// there are more than 2^20 over the layers it merges).
    pub candidates: u64,
    /// How many classes (robot region and symmetry merged).
    pub classes: u64,
    /// The first classes in canonical order, as many as the census lists.
    pub first: Vec<HardClass>,
}

/// A layer's difficulty histograms and sums.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerDifficulty {
    /// `by_pushes[d][bin]`: boards with fewest pushes `d` and difficulty in the bin.
    pub by_pushes: Vec<Vec<u64>>,
    /// The layer's boards per bin (any pushes).
    pub bins: Vec<u64>,
    /// Sum of difficulties per fewest pushes.
    #[serde(with = "f64_bits_vec")]
    pub sum_by_pushes: Vec<f64>,
    /// Sum of the layer's difficulties.
    #[serde(with = "f64_bits")]
    pub sum: f64,
    /// Boards whose optimal-solution count did not fit 32 bits.
    pub saturated: u64,
}

impl CensusLayer {
    /// The layer's hardest boards as the census lists them: the boards with this number of
    /// blocks that need the most pushes, their count, their classes (0 when the candidates
    /// overflowed the list, as for the census's hardest) and the representatives of the first
    /// `o.hardest` classes in canonical order. The default (0 pushes, no board) when no board
    /// of the layer needs a push.
    pub fn hardest_boards(&self, o: &CensusOptions) -> Result<Hardest, Error> {
        let h = &self.hardest;
        if h.pushes == 0 {
            return Ok(Hardest::default());
        }
        let geo = Geo::new(o.rows, o.cols);
        Ok(Hardest {
            pushes: h.pushes,
            count: h.count,
            classes: if h.candidates >= HARDEST_CAP as u64 {
                0
            } else {
                h.classes
            },
            boards: h
                .first
                .iter()
                .take(o.hardest)
                .map(|c| class_board(&geo, c))
                .collect::<Result<_, _>>()?,
        })
    }
}

/// How a layer ended.
#[derive(Clone, Debug)]
pub enum LayerOutcome {
    /// Every board of the layer classified.
    Done(Box<CensusLayer>),
    /// A limit stopped it between two push steps.
    Limit {
        /// Which limit.
        kind: LimitKind,
        /// Push steps completed.
        steps: u32,
        /// Positions in the layer's tables.
        positions: u64,
        /// Wall-clock seconds.
        seconds: f64,
    },
}

/// `f64` as the bits of its `u64`: exact through any JSON reader.
mod f64_bits {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(v.to_bits())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        u64::deserialize(d).map(f64::from_bits)
    }
}

mod f64_bits_vec {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
        v.iter()
            .map(|x| x.to_bits())
            .collect::<Vec<u64>>()
            .serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        Vec::<u64>::deserialize(d).map(|v| v.into_iter().map(f64::from_bits).collect())
    }
}

fn add(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// The census from its layers, one per number of blocks (0 to cells − 1), in any order: the
/// counts and Burnside's sums added, the hardest classes merged in canonical order (and kept
/// per layer, [`Census::hardest_by_blocks`]), the difficulty's histograms and sums added in
/// order of blocks. `seconds` is the layers' sum, `table_bytes` the largest layer's.
pub fn combine(o: &CensusOptions, mut layers: Vec<CensusLayer>) -> Result<Census, Error> {
    let n = cells(o)?;
    layers.sort_by_key(|l| l.blocks);
    let present: Vec<usize> = layers.iter().map(|l| l.blocks).collect();
    if present != (0..n).collect::<Vec<_>>() {
        let missing: Vec<String> = (0..n)
            .filter(|k| !present.contains(k))
            .map(|k| k.to_string())
            .collect();
        return Err(Error::invalid(format!(
            "a {}×{} census needs one layer for each number of blocks from 0 to {}; {}",
            o.rows,
            o.cols,
            n - 1,
            if missing.is_empty() {
                "some are there twice or out of range".to_string()
            } else {
                format!("missing: {}", missing.join(", "))
            }
        )));
    }
    // every layer holds every board with its number of blocks, each classified once
    if let Some(l) = layers.iter().find(|l| {
        l.by_pushes.iter().sum::<u64>() + l.unsolvable
            != super::boards_with(n as u64, l.blocks as u64)
    }) {
        return Err(Error::Internal(format!(
            "the layer of {} blocks classifies {} boards, not the {} boards with {} blocks",
            l.blocks,
            l.by_pushes.iter().sum::<u64>() + l.unsolvable,
            super::boards_with(n as u64, l.blocks as u64),
            l.blocks
        )));
    }
    if layers
        .iter()
        .any(|l| l.difficulty.is_some() != o.difficulty)
    {
        return Err(Error::invalid(
            "the layers were computed with and without the difficulty",
        ));
    }
    let geo = Geo::new(o.rows, o.cols);
    let perms: Vec<Perm> = geo.symmetries().iter().map(|m| Perm::new(m)).collect();
    let depth = layers.iter().map(|l| l.by_pushes.len()).max().unwrap_or(1) - 1;
    let mut by_pushes = vec![0u64; depth + 1];
    let mut by_blocks = Vec::with_capacity(n);
    let mut unsolvable = 0;
    let (mut robot_region, mut both_fixed) = (0u64, 0u64);
    for l in &layers {
        add(&mut by_pushes, &l.by_pushes);
        let mut row = l.by_pushes.clone();
        row.resize(depth + 1, 0);
        by_blocks.push(BlockRow {
            blocks: l.blocks,
            solvable: row.iter().sum(),
            unsolvable: l.unsolvable,
            by_pushes: row,
        });
        unsolvable += l.unsolvable;
        robot_region += l.robot_region;
        both_fixed += l.both_fixed;
    }
    let boards = by_pushes.iter().sum::<u64>() + unsolvable;

    // classes: boards fixed by a symmetry have robot and target on distinct fixed cells and
    // blocks a union of the other cycles of the permutation
    let group = perms.len() as u64;
    if both_fixed % group != 0 {
        return Err(Error::Internal(
            "Burnside's count of classes is not a whole number".into(),
        ));
    }
    let symmetry_fixed: u64 = perms
        .iter()
        .map(|p| {
            let f = u64::from(p.fixed.count_ones());
            if f < 2 {
                0
            } else {
                f * (f - 1) * (1u64 << (cycle_count(p, n) - 1))
            }
        })
        .sum();
    let classes = Classes {
        robot_region,
        symmetry: symmetry_fixed / group,
        both: both_fixed / group,
    };

    // the hardest boards: those of the layers that need the most pushes
    let hardest = if depth == 0 {
        Hardest::default()
    } else {
        let top: Vec<&CensusLayer> = layers
            .iter()
            .filter(|l| l.hardest.pushes as usize == depth)
            .collect();
        let candidates: u64 = top.iter().map(|l| l.hardest.candidates).sum();
        let overflow = candidates >= HARDEST_CAP as u64;
        let mut first: Vec<HardClass> = top
            .iter()
            .flat_map(|l| l.hardest.first.iter().copied())
            .collect();
        first.sort();
        first.truncate(o.hardest);
        Hardest {
            pushes: depth as u32,
            count: top.iter().map(|l| l.hardest.count).sum(),
            classes: if overflow {
                0
            } else {
                top.iter().map(|l| l.hardest.classes).sum()
            },
            boards: first
                .iter()
                .map(|c| class_board(&geo, c))
                .collect::<Result<_, _>>()?,
        }
    };

    let hardest_by_blocks = layers
        .iter()
        .map(|l| l.hardest_boards(o))
        .collect::<Result<Vec<_>, _>>()?;

    let difficulty = o.difficulty.then(|| {
        let mut d = DifficultyCensus {
            by_pushes: vec![vec![0; DIFFICULTY_BINS]; depth + 1],
            by_blocks: vec![vec![0; DIFFICULTY_BINS]; n + 1],
            sum_by_pushes: vec![0.0; depth + 1],
            sum_by_blocks: vec![0.0; n + 1],
            saturated: 0,
        };
        for l in &layers {
            let ld = l.difficulty.as_ref().expect("checked above");
            for (a, b) in d.by_pushes.iter_mut().zip(&ld.by_pushes) {
                add(a, b);
            }
            for (a, b) in d.sum_by_pushes.iter_mut().zip(&ld.sum_by_pushes) {
                *a += b;
            }
            add(&mut d.by_blocks[l.blocks], &ld.bins);
            d.sum_by_blocks[l.blocks] += ld.sum;
            d.saturated += ld.saturated;
        }
        d
    });
    Ok(Census {
        rows: o.rows,
        cols: o.cols,
        variant: o.variant,
        boards,
        unsolvable,
        by_pushes,
        by_blocks,
        hardest,
        hardest_by_blocks,
        classes,
        difficulty,
        positions: layers.iter().map(|l| l.positions).sum(),
        table_bytes: layers.iter().map(|l| l.table_bytes).max().unwrap_or(0),
        seconds: layers.iter().map(|l| l.seconds).sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{census, census_layer, CensusOutcome, LayerOutcome, WorkDir};
    use super::*;
    use crate::bits::Binomials;
    use crate::games::pushpush::Variant;

    fn options(rows: usize, cols: usize, k: usize, difficulty: bool) -> CensusOptions {
        let mut o = CensusOptions::new(rows, cols);
        o.variant = Variant::new(k);
        o.difficulty = difficulty;
        o.hardest = 1000;
        o
    }

    fn layers_of(o: &CensusOptions) -> Vec<CensusLayer> {
        (0..o.rows * o.cols)
            .map(|k| match census_layer(o, k).unwrap() {
                LayerOutcome::Done(l) => *l,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    fn done(o: &CensusOptions) -> Census {
        match census(o).unwrap() {
            CensusOutcome::Done(c) => *c,
            other => panic!("{other:?}"),
        }
    }

    /// The figures of two censuses, without the timing.
    fn same(a: &Census, b: &Census) {
        assert_eq!(a.boards, b.boards);
        assert_eq!(a.unsolvable, b.unsolvable);
        assert_eq!(a.by_pushes, b.by_pushes);
        assert_eq!(a.by_blocks, b.by_blocks);
        assert_eq!(a.classes, b.classes);
        assert_eq!(a.positions, b.positions);
        assert_eq!(
            (a.hardest.pushes, a.hardest.count, a.hardest.classes),
            (b.hardest.pushes, b.hardest.count, b.hardest.classes)
        );
        let boards = |c: &Census| -> Vec<(String, u64)> {
            c.hardest
                .boards
                .iter()
                .map(|h| (h.board.rows_text(), h.boards_in_class))
                .collect()
        };
        assert_eq!(boards(a), boards(b));
        let by_blocks = |c: &Census| -> Vec<(u32, u64, u64, Vec<String>)> {
            c.hardest_by_blocks
                .iter()
                .map(|h| {
                    let boards = h.boards.iter().map(|b| b.board.rows_text()).collect();
                    (h.pushes, h.count, h.classes, boards)
                })
                .collect()
        };
        assert_eq!(by_blocks(a), by_blocks(b));
        match (&a.difficulty, &b.difficulty) {
            (None, None) => {}
            (Some(x), Some(y)) => {
                assert_eq!(x.by_pushes, y.by_pushes);
                assert_eq!(x.by_blocks, y.by_blocks);
                assert_eq!(x.saturated, y.saturated);
                let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&x.sum_by_pushes), bits(&y.sum_by_pushes));
                assert_eq!(bits(&x.sum_by_blocks), bits(&y.sum_by_blocks));
            }
            _ => panic!("difficulty in one census only"),
        }
    }

    #[test]
    fn each_layer_holds_its_boards_and_the_layers_add_up_to_the_census() {
        for (rows, cols, k, diff) in [(3, 3, 1, true), (2, 4, 2, false), (3, 4, 0, true)] {
            let o = options(rows, cols, k, diff);
            let n = rows * cols;
            let b = Binomials::new(32, 32);
            let group = if rows == cols { 8 } else { 4 };
            let layers = layers_of(&o);
            for l in &layers {
                // robot on a free cell, target on any other cell
                let boards = b.get(n, l.blocks) * (n - l.blocks) as u64 * (n as u64 - 1);
                assert_eq!(l.by_pushes.iter().sum::<u64>() + l.unsolvable, boards);
                // the symmetries keep the number of blocks: Burnside's sum is whole per layer
                assert_eq!(l.both_fixed % group, 0, "layer {}", l.blocks);
                if let Some(d) = &l.difficulty {
                    let solved: u64 = l.by_pushes.iter().skip(1).sum();
                    assert_eq!(d.bins.iter().sum::<u64>(), solved);
                }
            }
            let c = combine(&o, layers.clone()).unwrap();
            assert_eq!(c.boards, (n as u64 * (n as u64 - 1)) << (n - 1));
            assert_eq!(
                c.by_pushes,
                (0..c.by_pushes.len())
                    .map(|d| layers
                        .iter()
                        .map(|l| l.by_pushes.get(d).copied().unwrap_or(0))
                        .sum::<u64>())
                    .collect::<Vec<_>>()
            );
            same(&c, &done(&o));
        }
    }

    #[test]
    fn layers_merge_the_same_in_any_order() {
        let o = options(3, 3, 1, true);
        let layers = layers_of(&o);
        let forward = combine(&o, layers.clone()).unwrap();
        let mut backward = layers.clone();
        backward.reverse();
        same(&forward, &combine(&o, backward).unwrap());
        let mut shuffled = layers.clone();
        shuffled.rotate_left(4);
        shuffled.swap(0, 3);
        same(&forward, &combine(&o, shuffled).unwrap());
        // a layer missing, or twice
        let mut short = layers.clone();
        short.remove(2);
        let e = combine(&o, short).unwrap_err().to_string();
        assert!(e.contains("missing: 2"), "{e}");
        let mut twice = layers;
        twice[1] = twice[2].clone();
        assert!(combine(&o, twice).is_err());
    }

    #[test]
    fn layer_files_round_trip_and_other_options_are_refused() {
        let dir = std::env::temp_dir().join(format!("floe-census-layers-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let o = options(2, 3, 1, true);
        let wd = WorkDir::open(&dir, false, &o).unwrap();
        let layers = layers_of(&o);
        for l in &layers {
            wd.save(&o, l).unwrap();
        }
        let back = wd.load(&o).unwrap().unwrap();
        assert_eq!(back, layers);
        same(
            &combine(&o, back).unwrap(),
            &combine(&o, layers.clone()).unwrap(),
        );
        // a second census is kept out while the directory is open
        let e = WorkDir::open(&dir, true, &o).unwrap_err().to_string();
        assert!(e.contains("in use by another run"), "{e}");
        drop(wd);
        // a non-empty directory needs resume
        let e = WorkDir::open(&dir, false, &o).unwrap_err().to_string();
        assert!(e.contains("--resume"), "{e}");
        for other in [
            options(2, 3, 2, true),
            options(2, 3, 1, false),
            options(3, 2, 1, true),
            {
                let mut h = options(2, 3, 1, true);
                h.hardest = 3;
                h
            },
        ] {
            let e = WorkDir::open(&dir, true, &other)
                .unwrap()
                .load(&other)
                .unwrap_err()
                .to_string();
            assert!(e.contains("belongs to a census of"), "{e}");
        }
        let wd = WorkDir::open(&dir, true, &o).unwrap();
        // a layer whose boards do not add up is neither written nor read
        let mut bad = layers[3].clone();
        bad.unsolvable += 1;
        let e = wd.save(&o, &bad).unwrap_err().to_string();
        assert!(e.contains("counts") && e.contains("boards"), "{e}");
        // a damaged file, one cut short, one in another's place
        let path = wd.layer_path(2);
        let good = std::fs::read(&path).unwrap();
        for (what, bytes) in [
            ("flipped", {
                let mut b = good.clone();
                b[100] ^= 1;
                b
            }),
            ("cut short", good[..good.len() / 2].to_vec()),
            ("another layer", std::fs::read(wd.layer_path(3)).unwrap()),
        ] {
            std::fs::write(&path, bytes).unwrap();
            let e = wd.load(&o).unwrap_err().to_string();
            assert!(e.contains("layer-02.bin"), "{what}: {e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
