//! Computing the census: the tables of one layer built and iterated to their fixpoint
//! ([`census_layer`]), every layer in turn ([`census`]), and the refusal of a census too
//! large for its memory before any table is built ([`check_layers`]).

use super::difficulty::DiffState;
use super::geometry::{Geo, Perm};
use super::hardest::layer_classes;
use super::layer::{combine, CensusLayer, LayerDifficulty, LayerHardest, LayerOutcome};
use super::subsets::Subsets;
use super::{
    add, cells, layer_positions, CensusOptions, CensusOutcome, Chunk, StepOut, Tables, CHUNK_BITS,
    DIFFICULTY_BINS, HARDEST_CAP,
};
use crate::error::Error;
use crate::search::{LimitKind, Limits, Progress, Stats};
use rayon::prelude::*;
use std::time::Instant;

/// Bytes of a layer's tables with `positions` positions over `sets` block sets, without the
/// optimal-solution counts of the difficulty: the position index, the region and two reach
/// masks; with the difficulty also two walk counts and the cumulative count.
fn fixed_bytes(sets: u64, positions: u64, difficulty: bool) -> u64 {
    (sets + 1) * 4 + positions * (4 * 3 + if difficulty { 8 * 3 } else { 0 })
}

/// Splits `v` into the slices of positions of each work unit.
fn split_by_chunks<'a, T>(v: &'a mut [T], offset: &[u32], chunks: &[Chunk]) -> Vec<&'a mut [T]> {
    let mut out = Vec::with_capacity(chunks.len());
    let mut rest = v;
    for c in chunks {
        let len = (offset[c.hi] - offset[c.lo]) as usize;
        let (head, tail) = rest.split_at_mut(len);
        out.push(head);
        rest = tail;
    }
    out
}

/// Refuses a census whose largest layer cannot fit `o.max_bytes`, before any table is built:
/// bounds on the regions of a block set (at least one, at most its free cells) settle most
/// sizes at once, the others are counted ([`layer_positions`]). Also the `max_states` limit on the census's
/// positions: `Some((MaxStates, positions))` when the census would stop at it at once, and
/// `Some((kind, 0))` when its time limit or an interruption stopped the count.
pub fn check_layers(o: &CensusOptions) -> Result<Option<(LimitKind, u64)>, Error> {
    let n = cells(o)?;
    let binomials = crate::bits::Binomials::new(32, 32);
    let need = |k: usize, positions: u64| {
        fixed_bytes(binomials.get(n, k), positions, o.difficulty)
            + if o.difficulty { 4 * positions } else { 0 }
    };
    // every block set of a layer has a region at least: a refusal without counting
    if let Some((k, bytes)) = (0..n)
        .map(|k| (k, need(k, binomials.get(n, k))))
        .find(|&(_, b)| b > o.max_bytes)
    {
        return Err(Error::invalid(format!(
            "the {k}-block layer of a {}×{} census ({} block sets) would need at least {}{}, more than {}",
            o.rows,
            o.cols,
            crate::render::thousands(binomials.get(n, k)),
            crate::render::human_bytes(bytes),
            if o.difficulty { " with the difficulty" } else { "" },
            crate::mem::budget_words(o.max_bytes)
        )));
    }
    let bounded = (0..n).all(|k| {
        let sets = binomials.get(n, k);
        need(k, sets.saturating_mul((n - k) as u64)) <= o.max_bytes
    });
    if bounded && o.limits.max_states.is_none() {
        return Ok(None);
    }
    let positions = match layer_positions(o)? {
        Ok(p) => p,
        Err(kind) => return Ok(Some((kind, 0))),
    };
    let (k, bytes) = (0..n)
        .map(|k| (k, need(k, positions[k])))
        .max_by_key(|&(_, b)| b)
        .expect("a board has two cells");
    if bytes > o.max_bytes {
        return Err(Error::invalid(format!(
            "the largest layer of a {}×{} census ({k} blocks: {} positions over {} block sets) would need {}{}, more than {}",
            o.rows,
            o.cols,
            crate::render::thousands(positions[k]),
            crate::render::thousands(binomials.get(n, k)),
            crate::render::human_bytes(bytes),
            if o.difficulty { " with the difficulty" } else { "" },
            crate::mem::budget_words(o.max_bytes)
        )));
    }
    let total: u64 = positions.iter().sum();
    Ok(o.limits
        .max_states
        .filter(|&m| total > m)
        .map(|_| (LimitKind::MaxStates, total)))
}

/// Runs the census: every layer in turn ([`census_layer`]), then [`combine`]. Only one
/// layer's tables are held at a time; `o.max_bytes` bounds the largest.
pub fn census(o: &CensusOptions) -> Result<CensusOutcome, Error> {
    let t0 = Instant::now();
    let mut o = o.clone();
    o.began.get_or_insert(t0);
    let o = &o;
    let n = cells(o)?;
    if let Some((kind, positions)) = check_layers(o)? {
        return Ok(CensusOutcome::Limit {
            kind,
            steps: 0,
            positions,
            seconds: t0.elapsed().as_secs_f64(),
        });
    }
    let mut layers = Vec::with_capacity(n);
    let mut positions = 0;
    for k in 0..n {
        match census_layer(o, k)? {
            LayerOutcome::Done(l) => {
                positions += l.positions;
                layers.push(*l);
            }
            LayerOutcome::Limit {
                kind,
                steps,
                positions: p,
                ..
            } => {
                return Ok(CensusOutcome::Limit {
                    kind,
                    steps,
                    positions: positions + p,
                    seconds: t0.elapsed().as_secs_f64(),
                })
            }
        }
    }
    let mut c = combine(o, layers)?;
    c.seconds = t0.elapsed().as_secs_f64();
    Ok(CensusOutcome::Done(Box::new(c)))
}

/// Computes one layer of the census: every board with exactly `blocks` blocks (0 to
/// cells − 1). Its tables are indexed by the colex rank of the block set among the
/// `blocks`-subsets of the cells: C(cells, blocks) block sets, each layer at most 2^32
/// positions.
pub fn census_layer(o: &CensusOptions, blocks: usize) -> Result<LayerOutcome, Error> {
    let t0 = Instant::now();
    let late = Late::new(&o.limits, o.limits.deadline_from(o.began.unwrap_or(t0)));
    let stopped = |kind: LimitKind, steps: u32, positions: u64| {
        Ok(LayerOutcome::Limit {
            kind,
            steps,
            positions,
            seconds: t0.elapsed().as_secs_f64(),
        })
    };
    let (n, geo, subsets, chunks) = layer_units(o, blocks)?;

    // 1. count the regions of every block set
    let mut offset = count_regions(&geo, subsets.count as usize, &chunks, &late);
    if let Some(kind) = late.kind() {
        return stopped(kind, 0, 0);
    }
    let positions = index_positions(&mut offset, o, blocks)?;
    let (table_bytes, batch_size, batches) =
        table_plan(o, blocks, n, subsets.count as usize, positions)?;
    if o.limits.max_states.is_some_and(|m| positions as u64 > m) {
        return stopped(LimitKind::MaxStates, 0, positions as u64);
    }

    // 2. the regions, and the equivalence classes
    let perms: Vec<Perm> = geo.symmetries().iter().map(|m| Perm::new(m)).collect();
    let (region, both_fixed) = regions(&geo, &perms, &offset, &chunks, &late, positions);
    if let Some(kind) = late.kind() {
        return stopped(kind, 0, positions as u64);
    }
    let tables = Tables {
        geo,
        variant: o.variant,
        sets: subsets,
        offset,
        region,
    };
    let robot_region: u64 = tables
        .region
        .par_iter()
        .map(|r| {
            if r.count_ones() >= 2 {
                n as u64
            } else {
                n as u64 - 1
            }
        })
        .sum();

    // 3. iterate
    let fix = match iterate(o, &tables, &chunks, &late, &batches, batch_size, t0) {
        Ok(fix) => fix,
        Err((kind, steps)) => return stopped(kind, steps, positions as u64),
    };

    // 4. unsolvable boards
    let full = tables.geo.full;
    let unsolvable: u64 = tables
        .region
        .par_iter()
        .zip(&fix.reach)
        .map(|(r, m)| u64::from(r.count_ones()) * u64::from((full & !m).count_ones()))
        .sum();

    // 5. the hardest boards' classes
    let depth = fix.depth;
    let (classes, first) = if depth == 0 {
        (0, Vec::new())
    } else {
        layer_classes(&tables, &perms, &fix.hardest, o.hardest)
    };
    let count = fix.by_pushes[depth as usize];
    Ok(LayerOutcome::Done(Box::new(CensusLayer {
        blocks,
        positions: positions as u64,
        table_bytes,
        seconds: t0.elapsed().as_secs_f64(),
        by_pushes: fix.by_pushes,
        unsolvable,
        robot_region,
        both_fixed,
        hardest: LayerHardest {
            pushes: depth,
            count,
            candidates: fix.candidates,
            classes,
            first,
        },
        difficulty: fix.difficulty,
    })))
}

/// The cells of the board, its geometry, the `blocks`-subsets of its cells and the work
/// units (runs of 2^[`CHUNK_BITS`] block sets, each with its first set). Refuses a layer the
/// board does not have, or whose position index alone would pass `o.max_bytes`.
fn layer_units(
    o: &CensusOptions,
    blocks: usize,
) -> Result<(usize, Geo, Subsets, Vec<Chunk>), Error> {
    let (rows, cols) = (o.rows, o.cols);
    let n = cells(o)?;
    if blocks >= n {
        return Err(Error::invalid(format!(
            "a {rows}×{cols} census has layers of 0 to {} blocks, not {blocks}",
            n - 1
        )));
    }
    let geo = Geo::new(rows, cols);
    let subsets = Subsets::new(n, blocks);
    let sets = subsets.count as usize;
    let offset_bytes = (sets as u64 + 1) * 4;
    if offset_bytes > o.max_bytes {
        return Err(too_big(
            offset_bytes,
            o.max_bytes,
            &format!("the position index of the {blocks}-block layer alone"),
        ));
    }
    let per = 1usize << CHUNK_BITS;
    let chunks: Vec<Chunk> = (0..sets.div_ceil(per))
        .map(|c| Chunk {
            lo: c * per,
            hi: ((c + 1) * per).min(sets),
            first: subsets.unrank((c * per) as u64),
        })
        .collect();
    Ok((n, geo, subsets, chunks))
}

/// Step 1: how many regions each of the `sets` block sets has (one entry more, 0), in
/// parallel over the work units; the rest is skipped once `late` finds a limit reached.
fn count_regions(geo: &Geo, sets: usize, chunks: &[Chunk], late: &Late) -> Vec<u32> {
    let per = 1usize << CHUNK_BITS;
    let mut offset = vec![0u32; sets + 1];
    offset[..sets]
        .par_chunks_mut(per)
        .zip(chunks)
        .for_each(|(out, chunk)| {
            chunk.for_each(|rank, b| {
                if late.now(rank) {
                    return;
                }
                let mut count = 0;
                geo.regions(b, |_| count += 1);
                out[rank - chunk.lo] = count;
            });
        });
    offset
}

/// The counts of [`count_regions`] made the position index: where each block set's
/// positions begin, and the layer's positions at the end (their number, returned). A layer
/// has at most 2^32 positions.
fn index_positions(offset: &mut [u32], o: &CensusOptions, blocks: usize) -> Result<usize, Error> {
    let (rows, cols) = (o.rows, o.cols);
    let mut total: u64 = 0;
    for at in offset.iter_mut() {
        let c = *at as u64;
        *at = total as u32;
        total += c;
        if total > u32::MAX as u64 {
            return Err(Error::invalid(format!(
                "the {blocks}-block layer of a {rows}×{cols} census has more than 2^32 positions"
            )));
        }
    }
    Ok(total as usize)
}

/// The bytes of the layer's tables, how many targets a pass counts the optimal solutions of
/// (with the difficulty: as many as the memory left holds, at most the `n` cells; else 0),
/// and the targets of each pass as masks (one pass, mask 0, without the difficulty).
/// Refuses tables that cannot fit `o.max_bytes`.
fn table_plan(
    o: &CensusOptions,
    blocks: usize,
    n: usize,
    sets: usize,
    positions: usize,
) -> Result<(u64, usize, Vec<u32>), Error> {
    let fixed = fixed_bytes(sets as u64, positions as u64, o.difficulty);
    if fixed > o.max_bytes {
        return Err(too_big(
            fixed,
            o.max_bytes,
            &format!("the tables of the {blocks}-block layer"),
        ));
    }
    let batch_size = if o.difficulty {
        let room = (o.max_bytes - fixed) / (4 * positions.max(1) as u64);
        if room == 0 {
            return Err(too_big(
                fixed + 4 * positions as u64,
                o.max_bytes,
                &format!("the tables of the {blocks}-block layer with the difficulty"),
            ));
        }
        room.min(n as u64) as usize
    } else {
        0
    };
    let table_bytes = fixed + 4 * positions as u64 * batch_size as u64;
    // the targets are split into batches when their counts do not all fit: one pass each
    let batches: Vec<u32> = if o.difficulty {
        (0..n)
            .step_by(batch_size)
            .map(|lo| (lo..(lo + batch_size).min(n)).fold(0u32, |m, t| m | 1 << t))
            .collect()
    } else {
        vec![0]
    };
    Ok((table_bytes, batch_size, batches))
}

/// Step 2: the robot's region of every position, in the order of the index `offset`, and
/// for the equivalence classes the cells fixed by each symmetry (`perms`) that maps a
/// position to itself, summed; the rest is skipped once `late` finds a limit reached.
fn regions(
    geo: &Geo,
    perms: &[Perm],
    offset: &[u32],
    chunks: &[Chunk],
    late: &Late,
    positions: usize,
) -> (Vec<u32>, u64) {
    let mut region = vec![0u32; positions];
    let both_fixed: u64 = split_by_chunks(&mut region, offset, chunks)
        .into_par_iter()
        .zip(chunks)
        .map(|(out, chunk)| {
            let mut k = 0;
            let mut fixed = 0u64;
            chunk.for_each(|rank, b| {
                if late.now(rank) {
                    return;
                }
                let images: Vec<u32> = perms.iter().map(|p| p.apply(b)).collect();
                geo.regions(b, |r| {
                    out[k] = r;
                    k += 1;
                    for (p, &img) in perms.iter().zip(&images) {
                        if img == b && p.apply(r) == r {
                            fixed += u64::from((p.fixed & !r).count_ones());
                            if r.count_ones() >= 2 {
                                fixed += u64::from((p.fixed & r).count_ones());
                            }
                        }
                    }
                });
            });
            fixed
        })
        .sum();
    (region, both_fixed)
}

/// What the iteration of a layer found.
struct Fixpoint {
    /// Each position's targets reached, at the fixpoint of the last pass.
    reach: Vec<u32>,
    /// The solved (position, target) pairs by fewest pushes, from 0.
    by_pushes: Vec<u64>,
    difficulty: Option<LayerDifficulty>,
    /// The positions that gained targets at the last step (up to [`HARDEST_CAP`]), with them.
    hardest: Vec<(u32, u32)>,
    /// How many positions gained targets at the last step.
    candidates: u64,
    /// The most pushes a solved pair needs.
    depth: u32,
}

/// Step 3: the reach tables iterated to their fixpoint, one pass per batch of targets
/// (`batches`, of `batch_size` targets each with the difficulty), each step in parallel
/// ([`one_step`]); the counts are those of the first pass. A limit reached stops it with the
/// steps of the pass it stopped.
fn iterate(
    o: &CensusOptions,
    tables: &Tables,
    chunks: &[Chunk],
    late: &Late,
    batches: &[u32],
    batch_size: usize,
    t0: Instant,
) -> Result<Fixpoint, (LimitKind, u32)> {
    let positions = tables.region.len();
    let mut reach = tables.region.clone();
    let mut next = vec![0u32; positions];
    // step 0: targets inside the robot's region
    let zero: u64 = tables
        .region
        .par_iter()
        .map(|&r| {
            let s = u64::from(r.count_ones());
            s * (s - 1)
        })
        .sum();
    let mut by_pushes = vec![zero];

    let mut diff = o.difficulty.then(|| DiffState::new(positions, batch_size));
    let mut dc = o.difficulty.then(|| LayerDifficulty {
        by_pushes: vec![vec![0; DIFFICULTY_BINS]],
        bins: vec![0; DIFFICULTY_BINS],
        sum_by_pushes: vec![0.0],
        sum: 0.0,
        saturated: 0,
    });
    let mut next_walks = if o.difficulty {
        vec![0.0f64; positions]
    } else {
        Vec::new()
    };
    let mut hardest_candidates: Vec<(u32, u32)> = Vec::new();
    let mut candidates = 0u64;
    let mut depth = 0u32;
    let passes = batches.len() as u64;
    for (pass, &batch) in batches.iter().enumerate() {
        let first = pass == 0;
        let mut steps = 0u32;
        if !first {
            reach.copy_from_slice(&tables.region);
        }
        if let Some(ds) = diff.as_mut() {
            ds.start(batch);
        }
        loop {
            let d = steps + 1;
            if let Some(kind) = late.check() {
                return Err((kind, steps));
            }
            let out = one_step(
                tables,
                chunks,
                late,
                &reach,
                &mut next,
                &mut next_walks,
                diff.as_ref(),
            );
            if let Some(kind) = late.kind() {
                return Err((kind, steps));
            }
            if !out.changed {
                break;
            }
            steps = d;
            if first {
                depth = d;
                by_pushes.push(out.solved);
                candidates = out.candidates;
                hardest_candidates = out.hardest;
            }
            if let Some(dc) = dc.as_mut() {
                if dc.by_pushes.len() <= d as usize {
                    dc.by_pushes.push(vec![0; DIFFICULTY_BINS]);
                    dc.sum_by_pushes.push(0.0);
                }
                add(&mut dc.by_pushes[d as usize], &out.diff_bins);
                dc.sum_by_pushes[d as usize] += out.diff_sum;
                add(&mut dc.bins, &out.diff_bins);
                dc.sum += out.diff_sum;
                dc.saturated += out.saturated;
            }
            if let Some(ds) = diff.as_mut() {
                for (c, w) in ds.cumulative.iter_mut().zip(&next_walks) {
                    *c += w;
                }
                std::mem::swap(&mut ds.walks, &mut next_walks);
            }
            std::mem::swap(&mut reach, &mut next);
            if let Some(f) = &o.limits.progress {
                f(&Progress {
                    stats: Stats {
                        states: positions as u64,
                        expanded: positions as u64 * u64::from(steps),
                        generated: passes,
                        depth: steps,
                        elapsed: t0.elapsed(),
                    },
                });
            }
        }
    }
    Ok(Fixpoint {
        reach,
        by_pushes,
        difficulty: dc,
        hardest: hardest_candidates,
        candidates,
        depth,
    })
}

/// One step of the iteration, in parallel over the work units: each position's targets
/// reached in `next` (those of `reach` and of its successors'), with the difficulty (`diff`)
/// its walks in `next_walks`; what changed, counted. The rest is skipped once `late` finds a
/// limit reached.
fn one_step(
    tables: &Tables,
    chunks: &[Chunk],
    late: &Late,
    reach: &[u32],
    next: &mut [u32],
    next_walks: &mut [f64],
    diff: Option<&DiffState>,
) -> StepOut {
    let difficulty = diff.is_some();
    let slices = split_by_chunks(next, &tables.offset, chunks);
    let walk_slices: Vec<Option<&mut [f64]>> = if difficulty {
        split_by_chunks(next_walks, &tables.offset, chunks)
            .into_iter()
            .map(Some)
            .collect()
    } else {
        chunks.iter().map(|_| None).collect()
    };
    slices
        .into_par_iter()
        .zip(walk_slices)
        .zip(chunks)
        .map(|((out, mut walks_out), chunk)| {
            let t = tables;
            let mut so = StepOut::new(diff.is_some());
            let mut succ: Vec<u32> = Vec::with_capacity(64);
            // the successors are kept for the difficulty only
            let track = diff.is_some();
            let mut i = t.offset[chunk.lo] as usize;
            let mut k = 0;
            chunk.for_each(|rank, b| {
                if late.now(rank) {
                    return;
                }
                let end = t.offset[rank + 1] as usize;
                while i < end {
                    let r = t.region[i];
                    let old = reach[i];
                    let mut m = old;
                    succ.clear();
                    t.successors(b, r, |j| {
                        m |= reach[j];
                        if track {
                            succ.push(j as u32);
                        }
                    });
                    out[k] = m;
                    let new = m & !old;
                    if let (Some(ds), Some(w)) = (diff, walks_out.as_deref_mut()) {
                        w[k] = succ.iter().map(|&j| ds.walks[j as usize]).sum();
                        if new != 0 {
                            ds.visit(t, reach, &succ, r, i, new, w[k], &mut so);
                        }
                    }
                    if new != 0 {
                        so.changed = true;
                        let s = u64::from(r.count_ones());
                        so.solved += s * u64::from(new.count_ones());
                        so.candidates += 1;
                        if so.hardest.len() < HARDEST_CAP {
                            so.hardest.push((i as u32, new));
                        }
                    }
                    i += 1;
                    k += 1;
                }
            });
            so
        })
        .reduce(|| StepOut::new(difficulty), StepOut::merge)
}

/// The limits as the parallel passes of a layer see them: once a pass finds them reached
/// (looking every 1,024 block sets), every pass skips the rest of its work.
struct Late<'a> {
    limits: &'a Limits,
    deadline: Option<Instant>,
    hit: std::sync::Mutex<Option<LimitKind>>,
    flag: std::sync::atomic::AtomicBool,
}

impl<'a> Late<'a> {
    fn new(limits: &'a Limits, deadline: Option<Instant>) -> Late<'a> {
        Late {
            limits,
            deadline,
            hit: std::sync::Mutex::new(None),
            flag: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Whether the work must stop, looking at the limits when `rank` is a multiple of
    /// 1,024.
    #[inline]
    fn now(&self, rank: usize) -> bool {
        if self.flag.load(std::sync::atomic::Ordering::Relaxed) {
            return true;
        }
        rank % 1024 == 0 && self.check().is_some()
    }

    /// The limit reached, looking now.
    fn check(&self) -> Option<LimitKind> {
        if let Some(k) = self.kind() {
            return Some(k);
        }
        let k = self.limits.check(self.deadline)?;
        *self.hit.lock().unwrap_or_else(|e| e.into_inner()) = Some(k);
        self.flag.store(true, std::sync::atomic::Ordering::Relaxed);
        Some(k)
    }

    /// The limit a pass found reached.
    fn kind(&self) -> Option<LimitKind> {
        *self.hit.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn too_big(need: u64, max: u64, what: &str) -> Error {
    Error::invalid(format!(
        "{what} would need {}, more than {}",
        crate::render::human_bytes(need),
        crate::mem::budget_words(max)
    ))
}
