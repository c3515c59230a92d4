//! One layer of a shared enumeration ([`Worker::layer`]), in three rounds: this worker's part
//! of the layer before expanded in epochs, each successor sent to its owner and kept there
//! when new ([`Worker::expand`], [`Worker::epochs`]); how many each found, agreed
//! ([`Worker::tally`]); the layer and the checkpoint written everywhere ([`Worker::commit`]).
//! Then worker 0 reports its progress ([`Worker::progress`]).

use super::files::{
    layer_path, partial_path, way_on, Layer, LayerCursor, LayerWriter, Sink, CHUNK, LAYER,
};
use super::open::{Run, Walk, Worker};
use super::route::{route, route_two};
use super::{agree, checkpoint, fresh_bits, limit_code, limit_of, Exchange, Partial, BATCH};
use crate::bits::BitArray;
use crate::search::{LimitKind, Progress, Puzzle, Stats};
use crate::Error;
use std::cell::RefCell;
use std::fs;

/// What round 1 of a layer left: this worker's verdict, how many positions it found, the
/// limit that stopped it, and every worker's figures of the epoch's last round.
struct Expanded {
    mine: Result<(), Error>,
    new_here: u64,
    stopped: Option<LimitKind>,
    all: Vec<Vec<u64>>,
}

impl<P: Puzzle> Worker<'_, P> {
    /// Finds the layer after the last found (`run.histogram.len()`), in three rounds; false
    /// when a limit stopped the run.
    pub(super) fn layer<A: Partial<P::State>>(
        &self,
        ex: &mut dyn Exchange,
        run: &mut Run<A>,
    ) -> Result<bool, Error> {
        // the layer being found
        let d = run.histogram.len() as u32;
        // round 1: expand this layer; every rank reaches its owner
        let (mut next, failed) = match self.sink(d, &mut run.spare) {
            Ok(s) => (s, None),
            Err(e) => (Sink::Nowhere, Some(e)),
        };
        let round = self.expand(ex, run, d, &mut next, failed);
        // round 2: how many each found (all ranks are in), and whether all went well
        let new_here = round.new_here;
        let Some(total) = self.tally(ex, run, d, round, &next)? else {
            // an unfinished layer file removes itself
            drop(next);
            return Ok(false);
        };
        // round 3: the checkpoint is written everywhere
        self.commit(ex, run, d, total, new_here, next)?;
        Ok(self.progress(run, d))
    }

    /// Where layer `d` goes: its file (and bits, when layers are kept in memory too), or bits.
    fn sink(&self, d: u32, spare: &mut Option<BitArray>) -> Result<Sink, Error> {
        Ok(match &self.dir {
            Some(dd) => match LayerWriter::create(layer_path(dd, d), self.files.seal(LAYER, d)) {
                Ok(w) if self.o.layers_in_memory => {
                    Sink::Both(w, fresh_bits(spare, self.local_space))
                }
                Ok(w) => Sink::File(w),
                Err(e) => return Err(way_on(e, d)),
            },
            None => Sink::Bits(fresh_bits(spare, self.local_space)),
        })
    }

    /// Round 1 of layer `d`: this worker's part of the layer before expanded, every rank sent
    /// to its owner, and each position found for the first time counted, written to `next`
    /// and visited; bits on disk judge the layer's ranks once all are in. `failed`: the
    /// layer's file could not be made.
    fn expand<A: Partial<P::State>>(
        &self,
        ex: &mut dyn Exchange,
        run: &mut Run<A>,
        d: u32,
        next: &mut Sink,
        failed: Option<Error>,
    ) -> Expanded {
        let (p, owners, me, dir) = (self.p, self.owners, self.me, &self.dir);
        let failed: RefCell<Option<Error>> = RefCell::new(failed);
        let mut new_here = 0u64;
        let part = &mut run.part;
        let (walked, all, stopped) = {
            // a position found for the first time: counted, written, visited
            let mut keep = |l: u64| {
                new_here += 1;
                if let Err(e) = next.push(l) {
                    failed.borrow_mut().get_or_insert_with(|| {
                        let path = dir.as_ref().map_or_else(
                            || format!("layer {d}"),
                            |dd| layer_path(dd, d).display().to_string(),
                        );
                        way_on(Error::Io { path, source: e }, d)
                    });
                }
                if A::STATES {
                    match p.unrank(owners.global(me, l)) {
                        Some(s) => part.visit(&s, d),
                        None => {
                            failed.borrow_mut().get_or_insert(Error::Internal(format!(
                                "no position has rank {}",
                                owners.global(me, l)
                            )));
                        }
                    }
                }
            };
            let seen = &mut run.seen;
            let mut fresh = Vec::new();
            let mut got = |ranks: &[u64]| match seen.offer_all(ranks, &mut fresh) {
                Ok(()) => fresh.iter().for_each(|&l| keep(l)),
                Err(e) => {
                    failed.borrow_mut().get_or_insert(e);
                }
            };
            let (walked, all, stopped) =
                self.epochs(ex, &run.layer, d, &mut run.walk, &failed, &mut got);
            // bits on disk judge the layer's ranks now that all are in
            if all.iter().all(|f| f[0] == 0 && f[3] == 0) {
                if let Err(e) = seen.settle(&mut keep) {
                    failed.borrow_mut().get_or_insert(e);
                }
            } else {
                seen.drop_pending();
            }
            (walked, all, stopped)
        };
        let mine = match (walked, failed.into_inner()) {
            (Err(e), _) | (Ok(()), Some(e)) => Err(e),
            _ => Ok(()),
        };
        Expanded {
            mine,
            new_here,
            stopped,
            all,
        }
    }

    /// The expansion of `layer` (the layer before `d`) in epochs of at most `epoch` positions
    /// per worker, each ended by a round: what is on the way between workers stays within one
    /// epoch's successors, whatever the layer's size (the memory of an out-of-core run stays
    /// small). The ranks that reach this worker go to `got`. Returns whether the layer was
    /// read well, every worker's figures of the last round, and the limit that stopped this
    /// worker.
    fn epochs<G: FnMut(&[u64])>(
        &self,
        ex: &mut dyn Exchange,
        layer: &Layer,
        d: u32,
        walk: &mut Walk,
        failed: &RefCell<Option<Error>>,
        got: &mut G,
    ) -> (Result<(), Error>, Vec<Vec<u64>>, Option<LimitKind>) {
        let (p, o, owners, me, index) = (self.p, self.o, self.owners, self.me, self.index);
        let (space, peers, pow2, shift) = (self.space, self.peers, self.pow2, self.shift);
        let (epoch, deadline) = (self.epoch, self.deadline);
        let Walk {
            batches,
            listed,
            expanded,
            generated,
        } = walk;
        let mut stopped: Option<LimitKind> = None;
        let mut walked: Result<(), Error> = Ok(());
        let mut reader = match LayerCursor::open_with(layer, self.local_space, self.window) {
            Ok(r) => Some(r),
            Err(e) => {
                walked = Err(e);
                None
            }
        };
        let mut buf: Vec<u64> = Vec::with_capacity(CHUNK);
        let mut ranks: Vec<u64> = Vec::with_capacity(CHUNK);
        let mut exhausted = false;
        let all = loop {
            let mut this_epoch = 0;
            while let Some(r) = reader.as_mut().filter(|_| !exhausted) {
                if this_epoch >= epoch || stopped.is_some() || walked.is_err() {
                    break;
                }
                if let Some(l) = o.limits.check(deadline) {
                    stopped = Some(l);
                    break;
                }
                match r.chunk(&mut buf) {
                    Ok(true) => {}
                    Ok(false) => {
                        exhausted = true;
                        break;
                    }
                    Err(e) => {
                        walked = Err(e);
                        break;
                    }
                }
                // the chunk's positions in increasing rank: each is rebuilt from the one
                // before and its successors' ranks from its own (the single process's way)
                ranks.clear();
                ranks.extend(buf.iter().map(|&l| owners.global(me, l)));
                ranks.sort_unstable();
                // a number read from a file: its rank checked without wrapping around
                let no_rank = |&l: &u64| owners.global_checked(me, l).is_none_or(|r| r >= space);
                if let Some(&bad) = buf.iter().find(|l| no_rank(l)) {
                    walked = Err(Error::invalid(format!(
                        "no position has number {bad} of worker {index} (its layer {}): \
                         its layer file is damaged",
                        d - 1
                    )));
                    break;
                }
                if peers == 1 {
                    // every successor is this worker's own
                    p.next_ranks_of_ranks(&ranks, &mut batches[0]);
                    *generated += batches[0].len() as u64;
                } else {
                    // Two passes, as in the single process: the successors listed in a
                    // tight loop, then each handed to its owner's batch by the owner's
                    // index (no branch on the owner, which the processor could not
                    // predict; routing inside the listing was slower still).
                    listed.clear();
                    p.next_ranks_of_ranks(&ranks, listed);
                    *generated += listed.len() as u64;
                    if peers == 2 {
                        route_two(listed, batches, owners);
                    } else if pow2 {
                        // a power of two of workers (the usual case) divides by a shift
                        route(listed, batches, move |r| owners.split_pow2(r, shift));
                    } else {
                        route(listed, batches, move |r| owners.split(r));
                    }
                }
                *expanded += buf.len() as u64;
                this_epoch += buf.len();
                // this worker's own first, while the others' are on their way
                let mine = &mut batches[me as usize];
                got(mine);
                mine.clear();
                ex.send(batches, got);
            }
            ex.send(batches, got);
            let more = reader.is_some() && !exhausted && stopped.is_none() && walked.is_ok();
            let figures = vec![
                stopped.map_or(0, |l| 1 + limit_code(l)),
                u64::from(d),
                u64::from(more),
                u64::from(walked.is_err() || failed.borrow().is_some()),
            ];
            let all = ex.end_round(figures, got);
            // the layer is over when no worker has more, or when one stopped or failed
            if all.iter().all(|f| f[2] == 0) {
                break all;
            }
            if all.iter().any(|f| f[0] != 0 || f[3] != 0) {
                break all;
            }
        };
        // the window of the layer read is not needed while the bits are settled
        drop(reader);
        (walked, all, stopped)
    }

    /// Round 2 of layer `d`: how many each worker found (all ranks are in), and whether all
    /// went well; the figures, the memory and the histogram brought up to date. The layer's
    /// total, or `None` when a limit stopped some worker: every worker stops with the layer
    /// before.
    fn tally<A>(
        &self,
        ex: &mut dyn Exchange,
        run: &mut Run<A>,
        d: u32,
        round: Expanded,
        next: &Sink,
    ) -> Result<Option<u64>, Error> {
        let Expanded {
            mine,
            new_here,
            stopped,
            all,
        } = round;
        let walk = &run.walk;
        let figures = agree(
            ex,
            mine,
            vec![new_here, walk.expanded, walk.generated],
            &mut |_| {},
        )?;
        run.expanded_all = figures.iter().map(|f| f[1]).sum();
        run.generated_all = figures.iter().map(|f| f[2]).sum();
        if all.iter().any(|f| f[1] != u64::from(d)) {
            return Err(Error::Internal(
                "the workers are not at the same layer".into(),
            ));
        }
        if let Some(f) = all.iter().find(|f| f[0] != 0) {
            // a limit stopped some worker: every worker stops with the layer before
            run.limit = Some(stopped.unwrap_or(limit_of(f[0] - 1)));
            return Ok(None);
        }
        let total: u64 = figures.iter().map(|f| f[0]).sum();
        run.owned += new_here;
        // a layer in memory is a bit a rank, the next as much; a file's window is sorted
        // beside a scratch list as long
        let layer_bytes = match next {
            Sink::Bits(b) => b.heap_bytes(),
            Sink::File(_) => 1 << 20,
            Sink::Both(_, b) => (1 << 20) + b.heap_bytes(),
            Sink::Nowhere => 0,
        } + match &run.layer {
            Layer::File(..) => (1 << 20) + 2 * self.window * 8,
            Layer::Bits(b) => b.heap_bytes(),
        };
        // the successors of a chunk, listed and routed: one list and a batch per worker
        let chunk_bytes = (walk.listed.capacity()
            + walk.batches.iter().map(Vec::capacity).sum::<usize>())
        .max(BATCH)
            * 8;
        run.peak_bytes = run
            .peak_bytes
            .max(run.seen.heap_bytes() + layer_bytes + chunk_bytes);
        if total > 0 {
            run.histogram.push(total);
            run.counts.push(new_here);
        } else {
            run.done = true;
        }
        Ok(Some(total))
    }

    /// Round 3 of layer `d` (`total` positions, `new_here` of them this worker's, in `next`):
    /// the layer's file, the partial result and the checkpoint written everywhere (the last
    /// checkpoint when the layer is empty), the layer kept as the one to expand.
    fn commit<A: Partial<P::State>>(
        &self,
        ex: &mut dyn Exchange,
        run: &mut Run<A>,
        d: u32,
        total: u64,
        new_here: u64,
        next: Sink,
    ) -> Result<(), Error> {
        let (index, files, base) = (self.index, self.files, &self.base);
        let (file, bits) = match next {
            Sink::Bits(b) => (None, Some(b)),
            Sink::File(w) => (Some(w), None),
            Sink::Both(w, b) => (Some(w), Some(b)),
            Sink::Nowhere => (None, None),
        };
        let written: Result<(), Error> = match (file, &bits) {
            // the failure to make the layer's file stopped every worker in round 2
            (None, None) => Err(Error::Internal("a layer with nowhere to go".into())),
            (None, Some(_)) => Ok(()),
            (Some(w), _) => {
                let dd = self.dir.as_ref().expect("a file sink has a folder");
                (|| {
                    if total > 0 {
                        if w.count() != new_here {
                            return Err(Error::Internal(format!(
                                "layer {d} of worker {index}: {new_here} positions found, {} \
                                 written",
                                w.count()
                            )));
                        }
                        run.disk_bytes += w.finish()?;
                        files.write_partial(dd, d, &run.part.to_bytes())?;
                        checkpoint(base, d, &run.histogram, &run.counts, false)
                            .write(dd, &files)?;
                        // partial results older than the previous layer are not needed
                        if d >= 2 {
                            let _ = fs::remove_file(partial_path(dd, d - 2));
                        }
                    } else {
                        drop(w);
                        checkpoint(base, d - 1, &run.histogram, &run.counts, true)
                            .write(dd, &files)?;
                    }
                    Ok(())
                })()
            }
        };
        let saved = written.map_err(|e| way_on(e, d)).map(|()| match bits {
            Some(b) => {
                // the layer before is expanded: its bits will hold the layer after this one
                let old = std::mem::replace(&mut run.layer, Layer::Bits(BitArray::new(0)));
                if let Layer::Bits(old) = old {
                    run.spare = Some(old);
                }
                Layer::Bits(b)
            }
            None => Layer::File(
                layer_path(self.dir.as_ref().expect("a file sink has a folder"), d),
                files.seal(LAYER, d),
            ),
        });
        run.layer = match saved {
            Ok(l) => {
                agree(ex, Ok(()), Vec::new(), &mut |_| {})?;
                l
            }
            Err(e) => {
                agree(ex, Err(e), Vec::new(), &mut |_| {})?;
                unreachable!("agree returns the error it is given")
            }
        };
        Ok(())
    }

    /// After layer `d`: worker 0 reports the progress; false when the run stops at
    /// `max_states`.
    fn progress<A>(&self, run: &mut Run<A>, d: u32) -> bool {
        let states: u64 = run.histogram.iter().sum();
        if self.index == 0 {
            if let Some(report) = &self.o.limits.progress {
                report(&Progress {
                    stats: Stats {
                        states,
                        expanded: run.expanded_all,
                        generated: run.generated_all,
                        depth: d,
                        elapsed: self.begin.elapsed(),
                    },
                });
            }
        }
        if !run.done && self.o.limits.max_states.is_some_and(|m| states >= m) {
            run.limit = Some(LimitKind::MaxStates);
            return false;
        }
        true
    }
}
