use super::*;
use crate::search::enumerate;
use std::collections::VecDeque;
use std::sync::mpsc::{channel, Receiver, Sender};

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
        if n > 1 {
            // the positions are shared out, not all at one worker
            assert!(d.owned < e.states * 2 / n as u64, "{n}: {}", d.owned);
        }
    }
}

#[test]
fn layers_on_disk_count_the_same_and_resume_after_a_stop() {
    layers_on_disk(None);
}

/// The same with the visited bits on disk, in segments of 64 bytes (512 ranks: some 65
/// segments a worker, each layer's ranks judged a segment at a time).
#[test]
fn bits_on_disk_count_the_same_and_resume_after_a_stop() {
    layers_on_disk(Some(64));
}

fn layers_on_disk(bits_budget: Option<u64>) {
    let p = Walks { n: 100_003 };
    let (e, sums) = truth(&p);
    let dir = temp_dir(&format!("resume-{bits_budget:?}"));
    let o = DistOptions {
        work_dir: Some(dir.clone()),
        identity: "walks 100003".into(),
        bits_budget,
        ..DistOptions::default()
    };
    let (d, _) = run(&p, 3, &o).unwrap();
    assert_eq!(d.enumeration.histogram, e.histogram);
    assert_eq!(d.partial.as_ref(), Some(&sums));
    assert!(d.disk_bytes > 0);
    let bits = worker_dir(&dir, 1).join("seen.bin");
    assert_eq!(bits.exists(), bits_budget.is_some());
    if bits_budget.is_some() {
        // 100,003 ranks over 3 workers: a bit each, in whole words
        assert_eq!(
            fs::metadata(&bits).unwrap().len(),
            33_335u64.div_ceil(64) * 8
        );
    }
    // the finished run resumes to the same answer without expanding anything
    let again = DistOptions {
        resume: true,
        ..o.clone()
    };
    let (r, _) = run(&p, 3, &again).unwrap();
    assert_eq!(r.enumeration.histogram, e.histogram);
    assert_eq!(r.partial.as_ref(), Some(&sums));
    assert_eq!(r.enumeration.stats.expanded, 0);
    // a fresh run into the folder is refused, so is a resume by other workers or of another level
    let msg = run(&p, 3, &o).unwrap_err().to_string();
    assert!(msg.contains("--resume"), "{msg}");
    let msg = run(&p, 2, &again).unwrap_err().to_string();
    assert!(msg.contains("same number of processes"), "{msg}");
    let other = DistOptions {
        identity: "walks 99991".into(),
        ..again.clone()
    };
    let msg = run(&p, 3, &other).unwrap_err().to_string();
    assert!(msg.contains("another run"), "{msg}");
    fs::remove_dir_all(&dir).unwrap();

    // stopped after some layers, then taken up: the same answer
    let stop = DistOptions {
        limits: Limits {
            max_states: Some(e.states / 3),
            ..Limits::default()
        },
        ..o.clone()
    };
    let (s, _) = run(&p, 3, &stop).unwrap();
    assert_eq!(s.enumeration.limit, Some(LimitKind::MaxStates));
    let layers = s.enumeration.histogram.len();
    assert!(layers >= 2 && layers < e.histogram.len());
    assert_eq!(s.enumeration.histogram[..], e.histogram[..layers]);
    let (r, _) = run(&p, 3, &again).unwrap();
    assert_eq!(r.resumed_at, Some(layers as u32 - 1));
    assert_eq!(r.enumeration.histogram, e.histogram);
    assert_eq!(r.partial.as_ref(), Some(&sums));
    assert!(r.enumeration.stats.expanded < e.states);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn workers_one_layer_apart_resume_at_the_common_layer() {
    let p = Walks { n: 20_011 };
    let (e, sums) = truth(&p);
    let dir = temp_dir("apart");
    let o = DistOptions {
        work_dir: Some(dir.clone()),
        identity: "walks".into(),
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
    let text = fs::read_to_string(w1.join("progress.json")).unwrap();
    let mut c: Checkpoint = serde_json::from_str(&text).unwrap();
    c.layer = last - 1;
    c.histogram.pop();
    fs::write(w1.join("progress.json"), serde_json::to_string(&c).unwrap()).unwrap();
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
