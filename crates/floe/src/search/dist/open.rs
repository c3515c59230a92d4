//! Opening a shared enumeration, the steps of [`enumerate_dist`](super::enumerate_dist)
//! before its first layer: the puzzle checked and the worker's fixed figures
//! ([`Worker::new`]); round 1, every worker locks its folder and reads its checkpoint
//! ([`Worker::take_up`]); round 2, the visited bits and the layer to expand, rebuilt from
//! the layer files when resumed ([`Worker::set_up`]).

use super::files::{
    io_err, layer_path, partial_path, prepare_fresh, remove_leftovers, Checkpoint, Files, Layer,
    LayerReader, LayerWriter, CHUNK, LAYER,
};
use super::route::Owners;
use super::seen::Seen;
use super::{
    agree, checkpoint, files, files_digest, twice, worker_dir, DistOptions, Exchange, Partial,
    BATCH, EPOCH, FORMAT,
};
use crate::bits::BitArray;
use crate::mem::Lock;
use crate::search::{LimitKind, Puzzle};
use crate::Error;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

/// What a worker knows of its run from the start: the puzzle, the options and the figures
/// drawn from them, the same from the first round to the last.
pub(super) struct Worker<'a, P: Puzzle> {
    pub(super) p: &'a P,
    pub(super) o: &'a DistOptions,
    pub(super) begin: Instant,
    pub(super) deadline: Option<Instant>,
    pub(super) peers: u64,
    /// Ranks of a layer file read ahead and sorted.
    pub(super) window: usize,
    pub(super) index: usize,
    /// `index`, as a worker's number in the ranks.
    pub(super) me: u64,
    /// The ranks of the puzzle, and of this worker's part.
    pub(super) space: u64,
    pub(super) local_space: u64,
    start: P::State,
    start_rank: u64,
    pub(super) owners: Owners,
    /// Whether the workers are a power of two, dividing by `shift`.
    pub(super) pow2: bool,
    pub(super) shift: u32,
    pub(super) files: Files,
    /// Positions expanded between two rounds.
    pub(super) epoch: usize,
    /// This worker's folder in the work directory.
    pub(super) dir: Option<PathBuf>,
    /// The checkpoint every one of this worker's is made from.
    pub(super) base: Checkpoint,
}

/// What a worker's run holds and has found so far, from its second round to its report.
pub(super) struct Run<A> {
    /// The scratch of the expansion, with this worker's figures.
    pub(super) walk: Walk,
    /// In memory, the bits of the layer before the one expanded, to hold the next.
    pub(super) spare: Option<BitArray>,
    /// The last layer found, to be expanded.
    pub(super) layer: Layer,
    pub(super) histogram: Vec<u64>,
    /// This worker's positions in each layer.
    pub(super) counts: Vec<u64>,
    /// The work folder's lock (released before the visited bits).
    pub(super) lock: Option<Lock>,
    pub(super) part: A,
    pub(super) seen: Seen,
    pub(super) resumed_at: Option<u32>,
    pub(super) done: bool,
    pub(super) disk_bytes: u64,
    pub(super) owned: u64,
    /// Every worker's, up to the last layer all agreed on.
    pub(super) expanded_all: u64,
    pub(super) generated_all: u64,
    pub(super) limit: Option<LimitKind>,
    pub(super) peak_bytes: usize,
}

/// A worker's scratch while it expands, with what it expanded and generated.
pub(super) struct Walk {
    /// The successors of a chunk, one batch per owner.
    pub(super) batches: Vec<Vec<u64>>,
    /// The successors of a chunk as listed, before they are routed.
    pub(super) listed: Vec<u64>,
    pub(super) expanded: u64,
    pub(super) generated: u64,
}

/// What round 1 found: this worker's checkpoint, and what every worker's agree on.
pub(super) struct TakenUp {
    lock: Option<Lock>,
    mine: Option<Checkpoint>,
    /// The last layer every worker finished (`u64::MAX`: none has a checkpoint).
    common: u64,
    /// The histogram up to `common`.
    agreed: Vec<u64>,
    /// Whether every worker recorded the run's end at `common`.
    done_everywhere: bool,
}

impl<'a, P: Puzzle> Worker<'a, P> {
    /// Checks that `p` can be shared (a perfect hash and its inverse) and draws the worker's
    /// figures from `ex` and `o`.
    pub(super) fn new(
        p: &'a P,
        ex: &dyn Exchange,
        o: &'a DistOptions,
        begin: Instant,
    ) -> Result<Worker<'a, P>, Error> {
        let deadline = o.limits.deadline_from(begin);
        let peers = ex.peers().max(1) as u64;
        let window = o.window.unwrap_or(files::WINDOW).max(CHUNK);
        let index = ex.index();
        let me = index as u64;
        let space = p.rank_space().ok_or_else(|| match p.state_bound() {
            Some(b) if b >= u64::MAX as f64 => Error::invalid(format!(
                "up to {} possible positions, more than the 2^64 ranks by which an enumeration \
                 shared by several workers or kept on disk numbers them",
                crate::search::count_words(b)
            )),
            _ => Error::invalid(
                "no perfect hash numbers its positions, which an enumeration shared by several \
                 workers or kept on disk needs",
            ),
        })?;
        let start = p.start();
        let start_rank = p
            .rank(&start)
            .expect("a puzzle with a rank space ranks every state");
        if p.unrank(start_rank).as_ref() != Some(&start) {
            return Err(Error::invalid(
                "this game cannot rebuild a position from its perfect hash, which an enumeration \
                 shared by several workers or kept on disk needs",
            ));
        }
        let owners = Owners::new(space, peers);
        let local_space = owners.local_space(space);
        let width: u8 = if local_space < 1 << 40 { 5 } else { 8 };
        let files = Files {
            run: files_digest(o, peers, space, owners.block()),
            worker: index as u32,
            width,
        };
        Ok(Worker {
            p,
            o,
            begin,
            deadline,
            peers,
            window,
            index,
            me,
            space,
            local_space,
            start,
            start_rank,
            owners,
            pow2: peers.is_power_of_two(),
            shift: peers.trailing_zeros(),
            files,
            epoch: o.epoch.unwrap_or(EPOCH).max(1),
            dir: o.work_dir.as_ref().map(|w| worker_dir(w, index)),
            base: Checkpoint {
                format: FORMAT,
                identity: o.identity.clone(),
                peers: peers as usize,
                index,
                rank_space: space,
                layer: 0,
                histogram: Vec::new(),
                counts: Vec::new(),
                done: false,
            },
        })
    }

    /// Round 1: every worker locks its folder and reads its checkpoint (or starts afresh);
    /// the checkpoints must belong together.
    pub(super) fn take_up(&self, ex: &mut dyn Exchange) -> Result<TakenUp, Error> {
        let mut lock = None;
        let mine = self.read_checkpoint(&mut lock);
        let (mine, status) = match mine {
            Ok(c) => (c, Ok(())),
            Err(e) => (None, Err(e)),
        };
        let mut said = vec![
            mine.as_ref().map_or(u64::MAX, |c| u64::from(c.layer)),
            u64::from(mine.as_ref().is_some_and(|c| c.done)),
        ];
        said.extend(mine.iter().flat_map(|c| c.histogram.iter().copied()));
        let all = agree(ex, status, said, &mut |_| {})?;
        let (common, agreed) = self.agreed(&all)?;
        let done_everywhere = common != u64::MAX && all.iter().all(|f| f[0] == common && f[1] == 1);
        Ok(TakenUp {
            lock,
            mine,
            common,
            agreed,
            done_everywhere,
        })
    }

    /// This worker's folder locked (into `lock`) and its checkpoint read when resumed, or
    /// the folder prepared for a new run.
    fn read_checkpoint(&self, lock: &mut Option<Lock>) -> Result<Option<Checkpoint>, Error> {
        let (o, base, files) = (self.o, &self.base, &self.files);
        match &self.dir {
            // nothing to take up is said before anything is created (the lock would make the
            // folder, and the next try would find an empty run there)
            Some(d) if o.resume && !d.is_dir() => Err(Error::invalid(format!(
                "nothing to resume: {} does not exist (was the run started with this --work-dir \
                 and as many workers?)",
                d.display()
            ))),
            Some(d) => Lock::acquire(d, &o.identity.describe()).and_then(|l| {
                let read_only = l.read_only.then(|| l.read_only_refusal("the run"));
                *lock = Some(l);
                match read_only {
                    // a folder that may only be read answers a finished run, nothing else
                    Some(_) if !o.resume => Err(Error::invalid(format!(
                        "{} may only be read here: a run cannot start there; give a --work-dir \
                         this user may write (--resume answers a finished run from a folder that \
                         may only be read)",
                        d.display()
                    ))),
                    Some(refusal) => match Checkpoint::read(d, base, files)? {
                        c if c.done => Ok(Some(c)),
                        _ => Err(refusal),
                    },
                    None if o.resume => Checkpoint::read(d, base, files).map(Some),
                    None => prepare_fresh(d).map(|()| None),
                }
            }),
            None => Ok(None),
        }
    }

    /// The last layer every worker finished and the histogram up to it, from every worker's
    /// figures of round 1; an error when the checkpoints do not belong together.
    fn agreed(&self, all: &[Vec<u64>]) -> Result<(u64, Vec<u64>), Error> {
        let o = self.o;
        let common = all.iter().map(|f| f[0]).min().unwrap_or(u64::MAX);
        let highest = all.iter().map(|f| f[0]).max().unwrap_or(u64::MAX);
        // `MAX` is "no checkpoint": every worker has one, or none has
        if highest != common && (highest == u64::MAX || highest > common + 1) {
            return Err(Error::invalid(format!(
                "the workers' checkpoints do not belong together (some have none, or they are \
                 more than one layer apart: layers {common} to {highest}){}: nothing can be resumed",
                o.work_dir
                    .as_ref()
                    .map_or(String::new(), |w| format!(" in {}", w.display()))
            )));
        }
        // the checkpoints agree on every layer they share, and the run is over only when every
        // worker recorded its end at the same layer
        if common == u64::MAX {
            return Ok((common, Vec::new()));
        }
        let prefix = |f: &Vec<u64>| f[2..2 + common as usize + 1].to_vec();
        let first = prefix(&all[0]);
        if let Some(w) = (1..all.len()).find(|&w| prefix(&all[w]) != first) {
            let k = (0..first.len())
                .find(|&k| prefix(&all[w])[k] != first[k])
                .unwrap_or(0);
            return Err(Error::invalid(format!(
                "the workers' checkpoints disagree on layer {k}: {} positions at worker 0, \
                 {} at worker {w}; a checkpoint was damaged or replaced, and nothing is \
                 resumed{}",
                first[k],
                prefix(&all[w])[k],
                o.work_dir
                    .as_ref()
                    .map_or(String::new(), |w| format!(" ({})", w.display()))
            )));
        }
        Ok((common, first))
    }

    /// Round 2: the visited bits, rebuilt from the layer files when resumed, each file
    /// checked; the layer files of every worker must hold what the checkpoints' histogram
    /// says. `part` is this worker's fresh partial result.
    pub(super) fn set_up<A: Partial<P::State>>(
        &self,
        ex: &mut dyn Exchange,
        taken: TakenUp,
        part: A,
        fresh: &impl Fn() -> A,
    ) -> Result<Run<A>, Error> {
        let mut run = Run {
            walk: Walk {
                batches: (0..self.peers).map(|_| Vec::with_capacity(BATCH)).collect(),
                listed: Vec::with_capacity(BATCH),
                expanded: 0,
                generated: 0,
            },
            spare: None,
            layer: Layer::Bits(BitArray::new(0)),
            histogram: Vec::new(),
            counts: Vec::new(),
            lock: taken.lock,
            part,
            seen: Seen::Memory(BitArray::new(0)),
            resumed_at: None,
            done: false,
            disk_bytes: 0,
            owned: 0,
            expanded_all: 0,
            generated_all: 0,
            limit: None,
            peak_bytes: 0,
        };
        let setup = self
            .first_bits(&mut run)
            .and_then(|()| match (&self.dir, &taken.mine) {
                (Some(d), Some(c)) => {
                    run.histogram = taken.agreed.clone();
                    run.done = taken.done_everywhere;
                    self.resume(&mut run, d, c, taken.common as u32, fresh)
                }
                _ => self.first_layer(&mut run),
            });
        let sent = if setup.is_ok() && run.resumed_at.is_some() {
            run.counts.clone()
        } else {
            Vec::new()
        };
        let all = agree(ex, setup, sent, &mut |_| {})?;
        // the layer files of every worker hold what the checkpoints' histogram says
        if run.resumed_at.is_some() {
            for (k, &h) in run.histogram.iter().enumerate() {
                let found: u64 = all.iter().map(|f| f.get(k).copied().unwrap_or(0)).sum();
                if found != h {
                    return Err(Error::invalid(format!(
                        "layer {k}: the workers' layer files hold {found} positions, their \
                         checkpoints {h}; a layer file was replaced or lost, and nothing is resumed{}",
                        self.o
                            .work_dir
                            .as_ref()
                            .map_or(String::new(), |w| format!(" ({})", w.display()))
                    )));
                }
            }
        }
        Ok(run)
    }

    /// The visited bits, in memory or on disk, none set yet.
    fn first_bits<A>(&self, run: &mut Run<A>) -> Result<(), Error> {
        run.seen = Seen::new(
            self.local_space,
            self.o.bits_budget,
            self.dir.as_deref(),
            self.files,
        )?;
        if run.seen.on_disk() {
            run.disk_bytes += self.local_space.div_ceil(64) * 8;
        }
        Ok(())
    }

    /// The run taken up at layer `at`, the last every worker finished (`c` is this worker's
    /// checkpoint, in folder `d`): every layer file read back into the visited bits and
    /// checked, the partial result read, and what a worker one layer ahead wrote removed.
    fn resume<A: Partial<P::State>>(
        &self,
        run: &mut Run<A>,
        d: &std::path::Path,
        c: &Checkpoint,
        at: u32,
        fresh: &impl Fn() -> A,
    ) -> Result<(), Error> {
        let (files, local_space) = (self.files, self.local_space);
        let seen = &mut run.seen;
        let mut chunk = Vec::with_capacity(CHUNK);
        for k in 0..=at {
            let path = layer_path(d, k);
            let mut r = LayerReader::open(&path, files.seal(LAYER, k), local_space)?;
            if r.count() != c.counts[k as usize] {
                return Err(Error::invalid(format!(
                    "{}: {} positions, but the checkpoint recorded {} for this worker's \
                     layer {k}; the file is not used",
                    path.display(),
                    r.count(),
                    c.counts[k as usize]
                )));
            }
            run.disk_bytes += fs::metadata(&path).map_or(0, |m| m.len());
            while r.chunk(CHUNK, &mut chunk)? {
                let mut repeated = false;
                for &l in &chunk {
                    if seen.offer(l)? == Some(false) {
                        repeated = true;
                        break;
                    }
                }
                if repeated {
                    // a flipped byte often shows first as a position seen before: the
                    // rest of the file read to its checksum says whether it is damaged
                    while r.chunk(CHUNK, &mut chunk)? {}
                    return Err(twice(&path));
                }
            }
            run.counts.push(r.count());
            run.owned += r.count();
        }
        let mut new = 0u64;
        seen.settle(&mut |_| new += 1)?;
        if seen.on_disk() && new != run.owned {
            return Err(twice(d));
        }
        let bytes = files.read_partial(d, at)?;
        run.part = A::from_bytes(fresh(), &bytes)
            .map_err(|e| Error::invalid(format!("{}: {e}", partial_path(d, at).display())))?;
        // what a worker one layer ahead wrote after the common layer is found again
        for k in at + 1..=c.layer {
            let _ = fs::remove_file(layer_path(d, k));
            let _ = fs::remove_file(partial_path(d, k));
        }
        if c.layer != at {
            checkpoint(&self.base, at, &run.histogram, &run.counts, false).write(d, &files)?;
        }
        remove_leftovers(d, false);
        run.layer = Layer::File(layer_path(d, at), files.seal(LAYER, at));
        run.resumed_at = Some(at);
        Ok(())
    }

    /// A new run's first layer, the start (its owner's), written with the first checkpoint
    /// when the run has a folder.
    fn first_layer<A: Partial<P::State>>(&self, run: &mut Run<A>) -> Result<(), Error> {
        run.histogram = vec![1];
        let mut first = Vec::new();
        let (owner, l) = self.owners.split(self.start_rank);
        if owner as u64 == self.me {
            run.seen.offer(l)?;
            run.seen.settle(&mut |_| {})?;
            run.part.visit(&self.start, 0);
            first.push(l);
            run.owned = 1;
        }
        run.counts = vec![run.owned];
        let files = self.files;
        run.layer = match &self.dir {
            Some(d) => {
                let mut w = LayerWriter::create(layer_path(d, 0), files.seal(LAYER, 0))?;
                for &l in &first {
                    w.push(l).map_err(|e| io_err("cannot write", &w.path, e))?;
                }
                run.disk_bytes += w.finish()?;
                files.write_partial(d, 0, &run.part.to_bytes())?;
                checkpoint(&self.base, 0, &run.histogram, &run.counts, false).write(d, &files)?;
                Layer::File(layer_path(d, 0), files.seal(LAYER, 0))
            }
            None => {
                let mut b = BitArray::new(self.local_space);
                first.iter().for_each(|&l| {
                    b.insert(l);
                });
                Layer::Bits(b)
            }
        };
        Ok(())
    }
}
