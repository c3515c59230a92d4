use super::*;
use crate::search::enumerate;
use files::checkpoint_path;
use std::collections::VecDeque;
use std::sync::mpsc::{channel, Receiver, Sender};

/// The layers and bits kept on disk, and the layers kept in memory too.
mod disk;

/// Workers on threads of one test, linked by channels: what the dataflow engine does across
/// processes, in the smallest form. Messages from one sender arrive in order, so a worker's
/// figures for a round arrive after every rank it sent in that round.
enum Msg {
    Ranks(Vec<u64>),
    Figures(usize, Vec<u64>),
    Bytes(usize, Vec<u8>),
}

struct Threads {
    index: usize,
    round: u64,
    to: Vec<Sender<(u64, Msg)>>,
    from: Receiver<(u64, Msg)>,
    later: VecDeque<(u64, Msg)>,
}

fn threads(n: usize) -> Vec<Threads> {
    let (tx, rx): (Vec<_>, Vec<_>) = (0..n).map(|_| channel()).unzip();
    rx.into_iter()
        .enumerate()
        .map(|(index, from)| Threads {
            index,
            round: 0,
            to: tx.clone(),
            from,
            later: VecDeque::new(),
        })
        .collect()
}

impl Threads {
    /// Moves what has arrived into `later` (waiting for one message if `block`).
    fn pump(&mut self, block: bool) {
        if block {
            let m = self.from.recv().unwrap();
            self.later.push_back(m);
        }
        while let Ok(m) = self.from.try_recv() {
            self.later.push_back(m);
        }
    }
    /// Hands `got` the ranks of this round that have arrived.
    fn deliver(&mut self, got: &mut dyn FnMut(&[u64])) {
        let round = self.round;
        self.later.retain(|(r, m)| match m {
            Msg::Ranks(v) if *r == round => {
                got(v);
                false
            }
            _ => true,
        });
    }
    /// Takes the messages of this round that `pick` wants.
    fn take<T>(&mut self, mut pick: impl FnMut(&Msg) -> Option<T>) -> Vec<T> {
        let round = self.round;
        let mut out = Vec::new();
        self.later
            .retain(|(r, m)| match (*r == round).then(|| pick(m)).flatten() {
                Some(t) => {
                    out.push(t);
                    false
                }
                None => true,
            });
        out
    }
}

impl Exchange for Threads {
    fn index(&self) -> usize {
        self.index
    }
    fn peers(&self) -> usize {
        self.to.len()
    }
    fn send(&mut self, batches: &mut [Vec<u64>], got: &mut dyn FnMut(&[u64])) {
        for (w, b) in batches.iter_mut().enumerate() {
            if b.is_empty() {
                continue;
            }
            if w == self.index {
                got(b);
                b.clear();
            } else {
                self.to[w]
                    .send((self.round, Msg::Ranks(std::mem::take(b))))
                    .unwrap();
            }
        }
        self.pump(false);
        self.deliver(got);
    }
    fn end_round(&mut self, figures: Vec<u64>, got: &mut dyn FnMut(&[u64])) -> Vec<Vec<u64>> {
        for t in &self.to {
            t.send((self.round, Msg::Figures(self.index, figures.clone())))
                .unwrap();
        }
        let mut all = vec![None; self.to.len()];
        loop {
            self.deliver(got);
            for (w, f) in self.take(|m| match m {
                Msg::Figures(w, f) => Some((*w, f.clone())),
                _ => None,
            }) {
                all[w] = Some(f);
            }
            if all.iter().all(Option::is_some) {
                break;
            }
            self.pump(true);
        }
        self.round += 1;
        all.into_iter().map(Option::unwrap).collect()
    }
    fn gather(&mut self, bytes: Vec<u8>) -> Option<Vec<Vec<u8>>> {
        self.to[0]
            .send((self.round, Msg::Bytes(self.index, bytes)))
            .unwrap();
        let out = (self.index == 0).then(|| {
            let mut all = vec![None; self.to.len()];
            loop {
                for (w, b) in self.take(|m| match m {
                    Msg::Bytes(w, b) => Some((*w, b.clone())),
                    _ => None,
                }) {
                    all[w] = Some(b);
                }
                if all.iter().all(Option::is_some) {
                    break;
                }
                self.pump(true);
            }
            all.into_iter().map(Option::unwrap).collect()
        });
        self.round += 1;
        out
    }
}

/// Numbers below `n` under x → 3x+1 (modulo n), x → x/2 (even x), x → x+7 (below n): many layers,
/// many successors found twice, and positions that are never reached.
struct Walks {
    n: u64,
}

impl Puzzle for Walks {
    type State = u64;
    type Move = u8;
    fn start(&self) -> u64 {
        1
    }
    fn successors(&self, &x: &u64, out: &mut Vec<(u8, u64)>) {
        out.push((0, (3 * x + 1) % self.n));
        if x % 2 == 0 {
            out.push((1, x / 2));
        }
        if x + 7 < self.n {
            out.push((2, x + 7));
        }
    }
    fn is_goal(&self, _: &u64) -> bool {
        false
    }
    fn rank_space(&self) -> Option<u64> {
        Some(self.n)
    }
    fn rank(&self, &x: &u64) -> Option<u64> {
        Some(x)
    }
    fn unrank(&self, r: u64) -> Option<u64> {
        (r < self.n).then_some(r)
    }
}

/// Per depth, how many positions and the sum of their values: a part that needs the states.
#[derive(Debug, Default, PartialEq)]
struct Sums(Vec<(u64, u64)>);

impl Partial<u64> for Sums {
    const STATES: bool = true;
    fn visit(&mut self, &x: &u64, depth: u32) {
        let d = depth as usize;
        if self.0.len() <= d {
            self.0.resize(d + 1, (0, 0));
        }
        self.0[d].0 += 1;
        self.0[d].1 += x;
    }
    fn merge(&mut self, other: Sums) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), (0, 0));
        }
        for (a, b) in self.0.iter_mut().zip(other.0) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }
    fn to_bytes(&self) -> Vec<u8> {
        self.0
            .iter()
            .flat_map(|&(a, b)| a.to_le_bytes().into_iter().chain(b.to_le_bytes()))
            .collect()
    }
    fn from_bytes(_: Sums, bytes: &[u8]) -> Result<Sums, Error> {
        let w: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        Ok(Sums(w.chunks_exact(2).map(|c| (c[0], c[1])).collect()))
    }
}

/// The one-worker truth.
fn truth(p: &Walks) -> (Enumeration, Sums) {
    let mut sums = Sums::default();
    let e = enumerate(p, &Limits::none(), |x, d| sums.visit(x, d));
    (e, sums)
}

/// Runs `n` workers on threads; worker 0's answer, or the first error.
fn run(
    p: &Walks,
    n: usize,
    o: &DistOptions,
) -> Result<(DistEnumeration<Sums>, Vec<DistEnumeration<Sums>>), Error> {
    let results: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = threads(n)
            .into_iter()
            .map(|mut ex| s.spawn(move || enumerate_dist(p, &mut ex, o, Sums::default)))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all = Vec::new();
    for r in results {
        all.push(r?);
    }
    let first = all.remove(0);
    Ok((first, all))
}

/// What worker `index` of `peers` writes its files as.
fn files_of(p: &Walks, o: &DistOptions, peers: u64, index: u32) -> Files {
    Files {
        run: files_digest(o, peers, p.n, Owners::new(p.n, peers).block()),
        worker: index,
        width: 5,
    }
}

/// Worker `index`'s checkpoint as it is on disk (checked).
fn read_checkpoint(p: &Walks, o: &DistOptions, peers: u64, index: u32) -> Checkpoint {
    let dir = worker_dir(o.work_dir.as_ref().unwrap(), index as usize);
    let f = files_of(p, o, peers, index);
    let bytes = crate::mem::read_sealed(&checkpoint_path(&dir), f.seal(*b"CKPT", 0)).unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("floe-dist-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    d
}

#[test]
fn every_number_of_workers_counts_the_same() {
    let p = Walks { n: 100_003 };
    let (e, sums) = truth(&p);
    assert!(e.states > 50_000 && e.histogram.len() > 10, "{e:?}");
    for n in [1, 2, 3, 4] {
        let (d, others) = run(&p, n, &DistOptions::default()).unwrap();
        assert_eq!(d.enumeration.histogram, e.histogram, "{n} workers");
        assert_eq!(d.enumeration.states, e.states);
        assert_eq!(d.enumeration.limit, None);
        assert_eq!(d.partial.as_ref(), Some(&sums), "{n} workers");
        // every worker knows the counts; only worker 0 has the merged part
        let owned: u64 = d.owned + others.iter().map(|o| o.owned).sum::<u64>();
        assert_eq!(owned, e.states);
        for o in &others {
            assert_eq!(o.enumeration.histogram, e.histogram);
            assert!(o.partial.is_none());
        }
        // every position was expanded once, somewhere, and every worker says so: the
        // figures are the run's, not one worker's share
        for w in std::iter::once(&d).chain(&others) {
            let s = &w.enumeration.stats;
            assert_eq!(s.expanded, e.stats.expanded, "{n} workers");
            assert_eq!(s.generated, e.stats.generated, "{n} workers");
        }
        if n > 1 {
            // the positions are shared out, not all at one worker
            assert!(d.owned < e.states * 2 / n as u64, "{n}: {}", d.owned);
        }
    }
}

#[test]
fn workers_one_layer_apart_resume_at_the_common_layer() {
    let p = Walks { n: 20_011 };
    let (e, sums) = truth(&p);
    let dir = temp_dir("apart");
    let o = DistOptions {
        work_dir: Some(dir.clone()),
        identity: RunIdentity::new("walks", "numbers"),
        limits: Limits {
            max_states: Some(e.states / 2),
            ..Limits::default()
        },
        ..DistOptions::default()
    };
    let (s, _) = run(&p, 2, &o).unwrap();
    let last = s.enumeration.histogram.len() as u32 - 1;
    assert!(last >= 2);
    // worker 1 died before recording its last layer: its checkpoint says one layer less
    let w1 = worker_dir(&dir, 1);
    let mut c = read_checkpoint(&p, &o, 2, 1);
    c.layer = last - 1;
    c.histogram.pop();
    c.counts.pop();
    c.write(&w1, &files_of(&p, &o, 2, 1)).unwrap();
    fs::rename(
        layer_path(&w1, last),
        layer_path(&w1, last).with_extension("part"),
    )
    .unwrap();
    let again = DistOptions {
        resume: true,
        limits: Limits::default(),
        ..o.clone()
    };
    let (r, _) = run(&p, 2, &again).unwrap();
    assert_eq!(r.resumed_at, Some(last - 1));
    assert_eq!(r.enumeration.histogram, e.histogram);
    assert_eq!(r.partial.as_ref(), Some(&sums));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_without_an_inverse_rank_is_refused() {
    let p = crate::search::from_fn(0u32, |&x| [('+', (x + 1) % 5)], |_| false);
    let e = enumerate_dist(&p, &mut Alone, &DistOptions::default(), || ()).unwrap_err();
    assert!(e.to_string().contains("perfect hash"), "{e}");
}

#[test]
fn a_timeout_stops_every_worker_at_the_same_layer() {
    let p = Walks { n: 1_000_003 };
    let o = DistOptions {
        limits: Limits {
            timeout: Some(std::time::Duration::ZERO),
            ..Limits::default()
        },
        ..DistOptions::default()
    };
    let (d, others) = run(&p, 3, &o).unwrap();
    assert_eq!(d.enumeration.limit, Some(LimitKind::Timeout));
    for x in others {
        assert_eq!(x.enumeration.histogram, d.enumeration.histogram);
        assert!(x.enumeration.limit.is_some());
    }
}

/// Every file of a folder, to put the folder back as it was between two cases.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all = Vec::new();
    for w in fs::read_dir(dir).unwrap() {
        let w = w.unwrap().path();
        for f in fs::read_dir(&w).unwrap() {
            let f = f.unwrap().path();
            all.push((f.clone(), fs::read(&f).unwrap()));
        }
    }
    all.sort();
    all
}

fn restore(dir: &Path, files: &[(PathBuf, Vec<u8>)]) {
    let _ = fs::remove_dir_all(dir);
    for (f, b) in files {
        fs::create_dir_all(f.parent().unwrap()).unwrap();
        fs::write(f, b).unwrap();
    }
}

/// A run stopped half-way on disk, then its files damaged one way at a time: each resume
/// either gives the uninterrupted run's figures or refuses, naming the folder or the file;
/// the damage a checksum cannot see (a file copied, moved or re-sealed with other counts)
/// is refused too.
#[test]
fn damaged_or_misplaced_files_are_refused_never_used() {
    let p = Walks { n: 20_011 };
    let (e, sums) = truth(&p);
    let dir = temp_dir("damage");
    let o = DistOptions {
        work_dir: Some(dir.clone()),
        identity: RunIdentity::new("walks", "numbers").layout(1, 2),
        limits: Limits {
            max_states: Some(e.states / 2),
            ..Limits::default()
        },
        ..DistOptions::default()
    };
    let again = DistOptions {
        resume: true,
        limits: Limits::default(),
        ..o.clone()
    };
    let (s, _) = run(&p, 2, &o).unwrap();
    let last = s.enumeration.histogram.len() as u32 - 1;
    assert!(last >= 4);
    let saved = snapshot(&dir);
    let (w0, w1) = (worker_dir(&dir, 0), worker_dir(&dir, 1));
    let f0 = files_of(&p, &o, 2, 0);
    let f1 = files_of(&p, &o, 2, 1);
    let refused = |what: &str, needle: &str| {
        let msg = run(&p, 2, &again)
            .map(|_| "resumed".to_string())
            .unwrap_or_else(|e| e.to_string());
        assert!(msg.contains(needle), "{what}: {msg}");
    };
    let flip = |path: &Path, at: usize| {
        let mut b = fs::read(path).unwrap();
        let at = at % b.len();
        b[at] ^= 0x04;
        fs::write(path, b).unwrap();
    };
    // a bit flipped anywhere in any layer file, the partial result or the checkpoint
    for k in 0..=last {
        restore(&dir, &saved);
        flip(&layer_path(&w1, k), 13 + 31 * k as usize);
        refused(&format!("layer {k} flipped"), &format!("layer-{k:05}.bin"));
        // a record one off (its lowest bit flipped): a repeat of a position or a new one,
        // either way the file's checksum is what refuses it, and the message says so
        restore(&dir, &saved);
        let path = layer_path(&w0, k);
        let mut b = fs::read(&path).unwrap();
        if b.len() > 64 + 16 {
            let middle = 64 + 5 * ((b.len() - 80) / 5 / 2);
            b[middle] ^= 1;
            fs::write(&path, b).unwrap();
            refused(&format!("layer {k} one off"), "checksum does not match");
        }
    }
    restore(&dir, &saved);
    flip(&partial_path(&w0, last), 70);
    refused("partial flipped", "partial-");
    restore(&dir, &saved);
    flip(&checkpoint_path(&w1), 90);
    refused("checkpoint flipped", "checkpoint.bin");
    // cut short, deleted
    restore(&dir, &saved);
    let l2 = layer_path(&w0, 2);
    let b = fs::read(&l2).unwrap();
    fs::write(&l2, &b[..b.len() - 3]).unwrap();
    refused("layer cut short", "layer-00002.bin");
    restore(&dir, &saved);
    fs::remove_file(layer_path(&w1, 1)).unwrap();
    refused("layer deleted", "layer-00001.bin");
    restore(&dir, &saved);
    fs::remove_file(checkpoint_path(&w1)).unwrap();
    refused("checkpoint deleted", "no checkpoint");
    // a worker's folder gone: refused, and nothing is made in its place
    restore(&dir, &saved);
    fs::remove_dir_all(&w1).unwrap();
    refused("worker folder deleted", "does not exist");
    assert!(!w1.exists(), "a refused resume made {}", w1.display());
    // a run never started there: nothing to take up, and no folder left behind
    let nowhere = temp_dir("damage-nowhere");
    let msg = run(
        &p,
        2,
        &DistOptions {
            work_dir: Some(nowhere.clone()),
            ..again.clone()
        },
    )
    .map(|_| "resumed".to_string())
    .unwrap_or_else(|e| e.to_string());
    assert!(msg.contains("nothing to resume"), "{msg}");
    assert!(
        !nowhere.exists(),
        "a refused resume made {}",
        nowhere.display()
    );
    // copied over another layer, swapped between workers
    restore(&dir, &saved);
    fs::copy(layer_path(&w0, 3), layer_path(&w0, 4)).unwrap();
    refused("layer copied", "not layer 4 of worker 0");
    restore(&dir, &saved);
    let a = fs::read(layer_path(&w0, 3)).unwrap();
    let b = fs::read(layer_path(&w1, 3)).unwrap();
    fs::write(layer_path(&w0, 3), b).unwrap();
    fs::write(layer_path(&w1, 3), a).unwrap();
    refused("layers swapped", "not layer 3 of worker");
    restore(&dir, &saved);
    fs::copy(checkpoint_path(&w0), checkpoint_path(&w1)).unwrap();
    // said as a file moved between the folders (it said "resume with the same number of
    // processes and workers", which the resume had done)
    refused(
        "checkpoint copied",
        "this is worker 0's checkpoint in worker 1's folder",
    );
    // the histogram edited in both checkpoints, with their checksums made right again
    restore(&dir, &saved);
    for (k, f) in [(0, &f0), (1, &f1)] {
        let mut c = read_checkpoint(&p, &o, 2, k);
        c.histogram[2] += 1;
        c.write(&worker_dir(&dir, k as usize), f).unwrap();
    }
    refused("histogram edited", "layer 2: the workers' layer files hold");
    restore(&dir, &saved);
    let mut c = read_checkpoint(&p, &o, 2, 1);
    c.histogram[3] -= 1;
    c.write(&w1, &f1).unwrap();
    refused("one histogram edited", "disagree on layer 3");
    // a layer rewritten with an earlier layer's positions, every count made to match
    restore(&dir, &saved);
    let mut ranks = Vec::new();
    let mut r = LayerReader::open(&layer_path(&w0, 2), f0.seal(LAYER, 2), u64::MAX).unwrap();
    let mut chunk = Vec::new();
    while r.chunk(100, &mut chunk).unwrap() {
        ranks.extend_from_slice(&chunk);
    }
    let mut w = LayerWriter::create(layer_path(&w0, 3), f0.seal(LAYER, 3)).unwrap();
    for &l in &ranks {
        w.push(l).unwrap();
    }
    w.finish().unwrap();
    let c0 = read_checkpoint(&p, &o, 2, 0);
    for (k, f) in [(0, &f0), (1, &f1)] {
        let mut c = read_checkpoint(&p, &o, 2, k);
        c.histogram[3] = c.histogram[3] - c0.counts[3] + ranks.len() as u64;
        if k == 0 {
            c.counts[3] = ranks.len() as u64;
        }
        c.write(&worker_dir(&dir, k as usize), f).unwrap();
    }
    refused("duplicates", "there twice");
    // untouched, the run resumes to the uninterrupted figures
    restore(&dir, &saved);
    let (r, _) = run(&p, 2, &again).unwrap();
    assert_eq!(r.enumeration.histogram, e.histogram);
    assert_eq!(r.partial.as_ref(), Some(&sums));
    fs::remove_dir_all(&dir).unwrap();
}

/// A run killed after one worker recorded the end and before the other did: the run is
/// not over until every worker says so, and taking it up gives the right figures.
#[test]
fn the_end_is_the_end_only_when_every_worker_recorded_it() {
    let p = Walks { n: 20_011 };
    let (e, sums) = truth(&p);
    let dir = temp_dir("end");
    let o = DistOptions {
        work_dir: Some(dir.clone()),
        identity: RunIdentity::new("walks", "numbers"),
        ..DistOptions::default()
    };
    let (d, _) = run(&p, 2, &o).unwrap();
    assert_eq!(d.enumeration.histogram, e.histogram);
    let again = DistOptions {
        resume: true,
        ..o.clone()
    };
    for late in 0..2u32 {
        let mut c = read_checkpoint(&p, &o, 2, late);
        assert!(c.done);
        c.done = false;
        c.write(&worker_dir(&dir, late as usize), &files_of(&p, &o, 2, late))
            .unwrap();
        let (r, _) = run(&p, 2, &again).unwrap();
        assert_eq!(r.enumeration.histogram, e.histogram, "worker {late} late");
        assert_eq!(r.partial.as_ref(), Some(&sums));
        assert!(read_checkpoint(&p, &o, 2, late).done);
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// A worker that fails tells every other worker its own message, and a folder in use by
/// another live run is refused with its holder.
#[test]
fn a_failed_worker_s_message_reaches_every_worker_and_a_folder_in_use_is_refused() {
    let p = Walks { n: 20_011 };
    let dir = temp_dir("fail");
    fs::create_dir_all(&dir).unwrap();
    // worker 1's folder cannot be made: a file is in its way
    fs::write(worker_dir(&dir, 1), "in the way").unwrap();
    let o = DistOptions {
        work_dir: Some(dir.clone()),
        identity: RunIdentity::new("walks", "numbers"),
        ..DistOptions::default()
    };
    let results: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = threads(2)
            .into_iter()
            .map(|mut ex| {
                let o = &o;
                let p = &p;
                s.spawn(move || enumerate_dist(p, &mut ex, o, Sums::default).map(|_| ()))
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let own = results[1].as_ref().unwrap_err().to_string();
    let told = results[0].as_ref().unwrap_err().to_string();
    assert!(own.contains("worker-1"), "{own}");
    assert!(
        told.starts_with("worker 1 of 2: ") && told.contains(&own),
        "{told}"
    );
    fs::remove_dir_all(&dir).unwrap();
    // a live run holds worker 0's folder
    let held = crate::mem::Lock::acquire(&worker_dir(&dir, 0), "walks of numbers").unwrap();
    let msg = run(&p, 2, &o).unwrap_err().to_string();
    assert!(msg.contains("in use by another run"), "{msg}");
    assert!(
        msg.contains(&format!("process {}", std::process::id())),
        "{msg}"
    );
    drop(held);
    run(&p, 2, &o).unwrap();
    fs::remove_dir_all(&dir).unwrap();
}

/// A layer file holds its ranks in the order they were found; it is read back in windows of
/// `WINDOW` ranks, each in increasing order, every rank once, and a damaged rank is still
/// refused.
#[test]
fn a_layer_file_is_read_back_sorted_window_by_window() {
    let dir = temp_dir("window");
    fs::create_dir_all(&dir).unwrap();
    let f = Files {
        run: 11,
        worker: 0,
        width: 5,
    };
    let n = files::WINDOW + files::WINDOW / 2 + 7;
    // a permutation of 0..n, far from sorted
    let written: Vec<u64> = (0..n as u64).map(|i| i * 7_919 % n as u64).collect();
    let path = layer_path(&dir, 1);
    let mut w = LayerWriter::create(path.clone(), f.seal(LAYER, 1)).unwrap();
    for &l in &written {
        w.push(l).unwrap();
    }
    w.finish().unwrap();
    let layer = Layer::File(path.clone(), f.seal(LAYER, 1));
    let mut cursor = LayerCursor::open(&layer, n as u64).unwrap();
    let (mut read, mut chunk) = (Vec::new(), Vec::new());
    while cursor.chunk(&mut chunk).unwrap() {
        assert!(chunk.len() <= CHUNK);
        read.extend_from_slice(&chunk);
    }
    assert_eq!(read.len(), n);
    for (k, window) in read.chunks(files::WINDOW).enumerate() {
        assert!(window.windows(2).all(|p| p[0] < p[1]), "window {k}");
        let mut want = written[k * files::WINDOW..][..window.len()].to_vec();
        want.sort_unstable();
        assert_eq!(window, &want[..], "window {k}");
    }
    // read to the refusal, which must come before the end
    let refusal = |cursor: &mut LayerCursor, chunk: &mut Vec<u64>| loop {
        match cursor.chunk(chunk) {
            Ok(true) => {}
            Ok(false) => panic!("a damaged file was read to its end"),
            Err(e) => break e.to_string(),
        }
    };
    // a bound below the largest rank: refused, whichever window holds it
    let mut cursor = LayerCursor::open(&layer, n as u64 - 1).unwrap();
    let err = refusal(&mut cursor, &mut chunk);
    assert!(err.contains("beyond the worker's ranks"), "{err}");
    // a byte flipped in the last window's ranks: refused, never read to its end, and
    // nothing more after the refusal
    let mut bytes = fs::read(&path).unwrap();
    let at = bytes.len() - 40;
    bytes[at] ^= 0x01;
    fs::write(&path, &bytes).unwrap();
    let mut cursor = LayerCursor::open(&layer, n as u64 + 2).unwrap();
    let err = refusal(&mut cursor, &mut chunk);
    assert!(err.contains("damaged"), "{err}");
    assert!(!cursor.chunk(&mut chunk).unwrap());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_rank_reaches_its_owners_batch_in_order() {
    for peers in [1u64, 2, 3, 4] {
        let ranks: Vec<u64> = (0..5_000u64).map(|i| i * 7919 % 10_007).collect();
        // batches that hold something already, one without room
        let mut batches: Vec<Vec<u64>> = (0..peers).map(|w| vec![w; w as usize]).collect();
        batches[0] = Vec::new();
        let mut want = batches.clone();
        for &r in &ranks {
            want[(r % peers) as usize].push(r / peers);
        }
        super::route(&ranks, &mut batches, |r| ((r % peers) as usize, r / peers));
        assert_eq!(batches, want, "{peers} workers");
        // and again on top, with no rank at all
        super::route(&[], &mut batches, |r| ((r % peers) as usize, r / peers));
        assert_eq!(batches, want);
    }
    // the batches of many workers make room for the ranks once between them, not once each
    let ranks: Vec<u64> = (0..5_000u64).map(|i| i * 7919 % 10_007).collect();
    let mut batches: Vec<Vec<u64>> = (0..64).map(|_| Vec::new()).collect();
    super::route(&ranks, &mut batches, |r| ((r % 64) as usize, r / 64));
    let room: usize = batches.iter().map(Vec::capacity).sum();
    assert!(room <= 2 * ranks.len(), "room for {room} ranks");
}

/// The owners of a rank: blocks of consecutive ranks dealt in turn, each rank given back by
/// its owner's number for it, a worker's numbers in increasing rank, the workers' shares even
/// to a block, small spaces dealt one rank at a time.
#[test]
fn every_rank_has_one_owner_and_comes_back_from_its_number() {
    use super::route::{BLOCKS_EACH, MAX_BLOCK};
    let big = 1u64 << 62;
    for (space, peers) in [
        (1u64, 1u64),
        (560, 2),
        (1_023, 2),
        (1_024, 2),
        (100_003, 1),
        (100_003, 2),
        (100_003, 3),
        (100_003, 4),
        (1 << 20, 8),
        (13_983_816, 2),
        (74_974_368, 2),
        (74_974_368, 3),
        (32_164_253_550, 16),
        (big, 5),
    ] {
        let o = Owners::new(space, peers);
        let b = o.block();
        assert!(b <= MAX_BLOCK, "{space} {peers}");
        if peers == 1 || space < 2 * peers * BLOCKS_EACH {
            assert_eq!(b, 0, "{space} ranks among {peers}");
        } else {
            // every worker gets BLOCKS_EACH blocks at least, and the blocks are as large as
            // that allows (or the largest)
            assert!(
                space >> b >= peers * BLOCKS_EACH,
                "{space} {peers}: block {b}"
            );
            assert!(b == MAX_BLOCK || space >> (b + 1) < peers * BLOCKS_EACH);
        }
        let local = o.local_space(space);
        // no more room than a block beyond an even share
        assert!(local >= space.div_ceil(peers) && local - space.div_ceil(peers) < 1 << b);
        // every rank of a small space, and the ranks around the ends of blocks of a large one
        let ranks: Vec<u64> = if space <= 200_000 {
            (0..space).collect()
        } else {
            let step = space / 997;
            (0..997u64)
                .flat_map(|i| {
                    let r = i * step;
                    let edge = (r >> b) << b;
                    [r, edge, edge.saturating_sub(1), edge + (1 << b) - 1]
                })
                .chain([space - 1, space - 2])
                .filter(|&r| r < space)
                .collect()
        };
        let mut share = vec![0u64; peers as usize];
        let mut last: Vec<Option<(u64, u64)>> = vec![None; peers as usize];
        let mut sorted = ranks.clone();
        sorted.sort_unstable();
        sorted.dedup();
        for &r in &sorted {
            let (w, l) = o.split(r);
            assert!(w < peers as usize && l < local, "{space} {peers}: rank {r}");
            assert_eq!(o.global(w as u64, l), r, "{space} {peers}: rank {r}");
            assert_eq!(o.global_checked(w as u64, l), Some(r));
            if peers.is_power_of_two() {
                assert_eq!(o.split_pow2(r, peers.trailing_zeros()), (w, l));
            }
            // the neighbour in its block has the same owner and the next number
            if r & ((1 << b) - 1) != (1 << b) - 1 && r + 1 < space {
                assert_eq!(o.split(r + 1), (w, l + 1), "{space} {peers}: rank {r}");
            }
            // a worker's numbers grow with the ranks
            if let Some((lr, ll)) = last[w] {
                assert!(ll < l && lr < r);
            }
            last[w] = Some((r, l));
            share[w] += 1;
        }
        if space <= 200_000 {
            // the shares differ by a block at most
            let (lo, hi) = (share.iter().min().unwrap(), share.iter().max().unwrap());
            assert!(hi - lo <= 1 << b, "{space} {peers}: {share:?}");
        }
    }
}

/// Two workers' routing, four ranks at a time where the processor can (and the rest one at
/// a time), gives each rank to its owner under its number, in order, on top of what the
/// batches held, for every length of a chunk up to a few vectors and every size of block.
#[test]
fn two_workers_route_four_at_a_time_as_one_at_a_time() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for space in [600u64, 100_003, 74_974_368, 1 << 40] {
        let owners = Owners::new(space, 2);
        for len in (0..40).chain([1_000, 4_099]) {
            let ranks: Vec<u64> = (0..len).map(|_| next() % space).collect();
            let mut batches = vec![vec![7u64; 3], Vec::new()];
            let mut want = batches.clone();
            for &r in &ranks {
                let (w, l) = owners.split(r);
                want[w].push(l);
            }
            super::route_two(&ranks, &mut batches, owners);
            assert_eq!(batches, want, "{space} ranks, {len} routed");
            // and again on top
            super::route_two(&ranks, &mut batches, owners);
            for &r in &ranks {
                let (w, l) = owners.split(r);
                want[w].push(l);
            }
            assert_eq!(batches, want, "{space} ranks, {len} routed twice");
        }
    }
}

#[test]
fn a_number_read_from_a_file_never_wraps_around_to_another_workers_rank() {
    // spaces within a few blocks of 2^64: the last numbers of a worker's share would wrap
    for (space, peers) in [
        (u64::MAX, 3),
        (u64::MAX, 5),
        (u64::MAX - 70_000, 7),
        (1 << 63, 3),
    ] {
        let o = Owners::new(space, peers);
        let local = o.local_space(space);
        for me in 0..peers {
            for l in [0, 1, local / 2, local - 2, local - 1, local, u64::MAX] {
                match o.global_checked(me, l) {
                    // a rank that fits is the one `global` gives, and it is this worker's
                    Some(r) => assert_eq!((o.global(me, l), o.split(r)), (r, (me as usize, l))),
                    // one that does not fit is past every rank
                    None => assert!(l >= local / 2, "{space} {peers}: {me} {l}"),
                }
            }
        }
    }
}
