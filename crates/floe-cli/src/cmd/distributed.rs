//! What `space`, `reach`, the tables and the census share when their work is shared by
//! workers, processes and machines: the layout, the estimate judged before the run, the
//! options of the library's enumeration, and how the answer says it was computed.

use crate::args::{ClusterArgs, LimitArgs};
use crate::cluster::Layout;
use crate::out::{human_bytes, thousands};
use floe::game::Computed;
use floe::mem::RunIdentity;
use floe::ops::Request;
use floe::search::dist::{DistOptions, BUCKET_BYTES, FORMAT};
use floe::search::{rough_time, Limits, Progress};
use floe::Error;
use std::path::Path;

/// A run's layout and the library's options for it.
pub(crate) struct Shared {
    pub layout: Layout,
    pub opts: DistOptions,
    /// What the run is, as its processes say when they connect.
    pub identity: RunIdentity,
    /// Whether `--workers` was given (else the layout's workers are the default).
    pub workers_given: bool,
}

impl Shared {
    /// What the processes compare when they connect: the run, and whether it keeps its
    /// layers on disk and whether it takes a run up, which every process must do alike (one
    /// that resumes beside one that starts afresh, or one on disk beside one in memory,
    /// would leave a run no resume can take up).
    pub fn greeting(&self) -> RunIdentity {
        let said = |b: bool| if b { "given" } else { "not given" };
        self.identity
            .clone()
            .param("--work-dir", said(self.opts.work_dir.is_some()))
            .param("--resume", said(self.opts.resume))
    }

    /// `e`, and what to do about it: when it refuses a checkpoint over its number of workers
    /// although no `--workers` was given, how this process came to its number; when a resume
    /// refuses a file of the run (damaged, cut, swapped, of another run), the two ways on
    /// (not when the folder is in use: nothing is wrong with its files).
    /// It reads the library's refusals (`floe::search::dist`: a checkpoint's differences
    /// name `--workers: `, a file's refusal begins with its path, a layout's gives the flags
    /// that take it up); the tests of `tests/cluster.rs` hold both ends to those words.
    pub fn explain(&self, e: Error) -> Error {
        let dir = self.opts.work_dir.as_ref().map(|d| d.display().to_string());
        match e {
            Error::Invalid(msg) if !self.workers_given && msg.contains("--workers: ") => {
                let cores =
                    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
                Error::Invalid(format!(
                    "{msg}. No --workers was given, so this process took {}: without it the \
                     {cores} cores of a host are divided among the run's processes on it",
                    self.layout.workers
                ))
            }
            Error::Invalid(msg)
                if self.opts.resume
                    && dir
                        .as_ref()
                        .is_some_and(|d| of_worker(&msg).starts_with(d.as_str()))
                    && !msg.contains("take it up with")
                    && !msg.contains("is in use by another run")
                    && !msg.contains("may only be read here") =>
            {
                Error::Invalid(format!(
                    "{msg}. The run cannot be taken up from {} as it is: put back the file as \
                     it was, or start the run afresh in an empty folder (the same command \
                     without --resume)",
                    dir.unwrap_or_default()
                ))
            }
            e => e,
        }
    }
}

/// A worker's message without its `worker 1 of 2: ` (what worker 0's says alike).
fn of_worker(msg: &str) -> &str {
    match msg.split_once(": ") {
        Some((who, rest)) if who.starts_with("worker ") && who.contains(" of ") => rest,
        _ => msg,
    }
}

/// The identity of `command` on the level of `req`: the game, the level's name and text,
/// its parameters, and the board's size when it is an empty one.
pub(crate) fn level_identity(
    command: &str,
    req: &Request,
    board: &crate::args::BoardArgs,
) -> Result<RunIdentity, Error> {
    let level = &req.level;
    let mut id =
        RunIdentity::new(command, req.game.info().name).level(level.name(), &level.to_text(None)?);
    for (k, v) in level.params().0 {
        let v = match v {
            serde_json::Value::String(s) => s,
            other => other.to_string(),
        };
        id = id.param(format!("--{k}"), v);
    }
    if let Ok((r, c, b)) = board.empty.size() {
        id = id
            .param("--rows", r)
            .param("--cols", c)
            .param("--blocks", b);
    }
    Ok(id)
}

/// Bytes a worker keeps on disk per position (a rank in 5 bytes).
const DISK_PER_POSITION: f64 = 5.0;
/// Share of the possible positions two layers hold at most: the two largest layers of the
/// 8×8 board with 8 blocks hold 17 % of its possible positions.
const LIVE_SHARE: f64 = 0.2;
/// Possible positions per second per core of a shared enumeration: the 8×8 board with 7
/// blocks, two workers with their layers on disk, C(64, 7) = 621,216,192 possible
/// (469,048,908 reachable) in 65.3 s of CPU time (user and system; BENCHMARKS.md, "The
/// estimates' rates measured again"), 9.5 million. The single process goes through the
/// possible positions of 9×9 with 8 blocks at three quarters of its rate on 8×8 with 7
/// (`floe::search::POSITIONS_PER_CORE_SECOND`): 7.1 million, lowered to 6 for a slower day
/// (as the single process's rate is).
const SHARED_POSITIONS_PER_CORE_SECOND: f64 = 6.0e6;

/// What a shared enumeration of `space` possible positions will need, per process.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SharedEstimate {
    pub positions: u64,
    pub memory: u64,
    pub disk: u64,
    pub seconds: f64,
    /// When the visited bits do not fit the budget beside the rest and the run has a work
    /// folder: the bytes each worker's bits may take in memory (the rest stay on disk).
    pub bits_budget: Option<u64>,
    /// Whether the layer files are read in the narrower window (2 MiB instead of 16): with
    /// the wider one the run would pass the budget.
    pub narrow: bool,
    /// With a work folder, whether each layer is kept in memory too (a bit a rank) and
    /// expanded from there: where the budget holds two layers' bits beside the rest.
    pub layers_in_memory: bool,
}

/// Positions a worker expands between two rounds when memory is short: with up to 32
/// successors each, 2 MiB of ranks on their way.
const SMALL_EPOCH: usize = 1 << 13;
/// How much longer a run takes with its visited bits on disk (its successors bucketed,
/// written, read back and judged a segment at a time): 8×8 with 7 blocks, `--workers 2
/// --work-dir DIR --max-memory 73M`, 312 s against the 107 s estimated with them in memory;
/// 8×8 with 6 blocks under 64M 29.4 s against 12.9 s.
const BITS_ON_DISK_SLOWER: f64 = 3.0;
/// The smallest segment of a worker's bits on disk.
const MIN_SEGMENT: u64 = 1 << 20;
/// Most segments a worker's bits on disk are cut into (each has a bucket file open).
const MAX_SEGMENTS: u64 = 256;

/// How a worker's `bits` bytes of visited bits on disk are cut into segments: the segment's
/// bytes, and what the bits then hold in memory (one segment, and every segment's bucket).
/// The fewest segments that fit in `room` bytes; when none does, the cut that holds the
/// least (which the estimate then shows above the budget, and the run is refused before it
/// starts rather than stopped by the budget half-way).
fn segments_within(bits: u64, room: f64) -> (u64, u64) {
    let cut = |k: u64| {
        // whole words, and a little over the share so that k segments cover the bits
        let segment = (bits.div_ceil(k).div_ceil(8) * 8 + 8).max(MIN_SEGMENT);
        // a bucket per segment, and one more where a bucket is sorted
        let segments = bits.div_ceil(segment);
        (segment, segment + (segments + 1) * BUCKET_BYTES as u64)
    };
    let mut least = cut(1);
    for k in 1..=MAX_SEGMENTS {
        let c = cut(k);
        if c.1 as f64 <= room {
            return c;
        }
        if c.1 < least.1 {
            least = c;
        }
    }
    least
}
/// What a process holds besides its bits, layers and buffers (code, threads, allocator).
const BASE_MEMORY: f64 = (32 << 20) as f64;

impl SharedEstimate {
    /// `budget`: the memory budget per process; with `on_disk` (a work folder), bits that
    /// do not fit it beside the buffers are kept on disk too.
    pub(crate) fn new(
        space: u64,
        layout: &Layout,
        on_disk: bool,
        budget: Option<u64>,
    ) -> SharedEstimate {
        let n = space as f64;
        let processes = layout.processes as f64;
        let mut bits = n / 8.0 / processes;
        // layers in memory: two of them, a bit a rank each (the one expanded and the next)
        // on disk: the writer's and reader's buffers, and the window of ranks read ahead
        // and sorted beside as much scratch (16 MiB; 2 MiB where the bits go to disk too)
        let on_disk_layers = |bits_on_disk: bool| {
            let window = floe::search::dist::window_ranks(bits_on_disk) as f64 * 8.0;
            layout.workers as f64 * (5.0 * (1 << 20) as f64 + 2.0 * window)
        };
        let mut layers = if on_disk {
            on_disk_layers(false)
        } else {
            2.0 * n / 8.0 / processes
        };
        // a chunk's successors (4,096 positions, up to 32 successors each), listed, and
        // routed to the batches of the workers: room for all in each of up to 4 batches,
        // beyond that for each its share (about once over between them)
        let rooms = layout.peers().min(floe::search::dist::ROOM_FOR_ALL) + 1;
        let buffers = layout.workers as f64 * rooms as f64 * 4096.0 * 32.0 * 8.0;
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        let per_process = layout.workers.min(cores).max(1) as f64;
        let mut disk = if on_disk {
            n * DISK_PER_POSITION / processes
        } else {
            0.0
        };
        let workers = layout.workers.max(1) as f64;
        let mut bits_budget = None;
        // the process itself counts too: bits that fit only without it would stop the run
        // at the budget half-way
        // short of memory: the layer files are read in the narrower window first
        let narrow =
            budget.is_some_and(|b| on_disk && bits + layers + buffers + BASE_MEMORY > b as f64);
        if narrow {
            layers = on_disk_layers(true);
        }
        let whole = bits + layers + buffers + BASE_MEMORY;
        if let Some(b) = budget.filter(|&b| on_disk && whole > b as f64) {
            // the bits go to disk: a segment per worker in memory, and on disk the bits and
            // the buckets of a layer's successors (at most the live share, twice over)
            let room = (b as f64 - BASE_MEMORY - layers - buffers) / workers;
            let (segment, held) = segments_within((bits / workers) as u64, room);
            disk += bits + 2.0 * LIVE_SHARE * n * DISK_PER_POSITION / processes;
            bits = held as f64 * workers;
            bits_budget = Some(segment);
        }
        // with a work folder and room to spare, the layers are kept in memory too (two bits
        // a rank of the process's): expanded from bits, they are not read back and sorted
        // (8×8 with 7 blocks on two workers: BENCHMARKS.md, "COST, sixth step"). The files'
        // buffers and windows are counted still: a resume reads its first layer from its file
        let in_memory = 2.0 * n / 8.0 / processes + layers;
        let layers_in_memory = on_disk
            && bits_budget.is_none()
            && !narrow
            && budget.is_some_and(|b| bits + in_memory + buffers + BASE_MEMORY <= b as f64);
        if layers_in_memory {
            layers = in_memory;
        }
        SharedEstimate {
            positions: space,
            memory: (bits + layers + buffers + BASE_MEMORY) as u64,
            disk: disk as u64,
            seconds: n / (SHARED_POSITIONS_PER_CORE_SECOND * per_process * processes)
                * if bits_budget.is_some() {
                    BITS_ON_DISK_SLOWER
                } else {
                    1.0
                },
            bits_budget,
            narrow,
            layers_in_memory,
        }
    }
}

impl std::fmt::Display for SharedEstimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "up to {} positions; per process about {} of memory{}{}, and about {} on this layout \
             (at {} million possible positions a second per core, below the rate measured on \
             an idle machine)",
            thousands(self.positions),
            human_bytes(self.memory),
            if self.bits_budget.is_some() {
                " (the visited bits on disk)"
            } else {
                ""
            },
            if self.disk > 0 {
                format!(" and up to {} of disk", human_bytes(self.disk))
            } else {
                String::new()
            },
            rough_time(self.seconds),
            SHARED_POSITIONS_PER_CORE_SECOND / 1e6
        )
    }
}

/// Free bytes on the file system of `dir` (or of its nearest existing parent).
/// Bytes the files under `dir` take on disk (blocks, so sparse files count what they hold).
fn disk_taken(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => disk_taken(&e.path()),
            Ok(m) if m.is_file() => m.blocks() * 512,
            _ => 0,
        })
        .sum()
}

fn free_disk(dir: &Path) -> Option<u64> {
    let mut d = dir;
    while !d.exists() {
        d = d.parent()?;
    }
    let c = std::ffi::CString::new(d.as_os_str().as_encoded_bytes()).ok()?;
    let mut s = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `c` is a NUL-terminated path and `s` is a statvfs that the call fills in.
    let r = unsafe { libc::statvfs(c.as_ptr(), s.as_mut_ptr()) };
    if r != 0 {
        return None;
    }
    // SAFETY: statvfs returned 0, so it filled `s`.
    let s = unsafe { s.assume_init() };
    #[allow(clippy::unnecessary_cast)]
    Some(s.f_bavail as u64 * s.f_frsize as u64)
}

/// The layout and options of a shared run of `what`, after judging its estimate: a run
/// that will not fit the memory budget or the free disk is refused unless `--force` (or a
/// limit that bounds it). Process 0 announces a large run and shows the progress.
pub(crate) fn prepare(
    what: &str,
    cluster: &ClusterArgs,
    limits: &LimitArgs,
    identity: RunIdentity,
    space: Option<u64>,
) -> Result<Shared, Error> {
    let layout = Layout::of(&cluster.peers)?;
    if let Some(dir) = cluster
        .work_dir
        .as_ref()
        .filter(|d| d.exists() && !d.is_dir())
    {
        return Err(Error::invalid(format!(
            "--work-dir {}: that is a file, not a folder; give a folder (made if it does not \
             exist)",
            dir.display()
        )));
    }
    let identity = identity
        .layout(layout.processes, layout.workers)
        .format(FORMAT);
    let mut lim: Limits = limits.limits();
    let mut bits_budget = None;
    let mut window = None;
    let mut layers_in_memory = false;
    if let Some(space) = space {
        let e = SharedEstimate::new(space, &layout, cluster.work_dir.is_some(), limits.budget());
        bits_budget = e.bits_budget;
        window = e.narrow.then(|| floe::search::dist::window_ranks(true));
        layers_in_memory = e.layers_in_memory;
        let bounded = limits.force || limits.timeout.is_some() || limits.max_states.is_some();
        if let Some(b) = limits.budget() {
            if e.memory > b && !bounded && e.bits_budget.is_some() {
                // already on disk: what is left in memory is a segment, its buckets, the
                // buffers and the process
                return Err(Error::invalid(format!(
                    "{what}: {e}; that is more than {} per process even with the visited \
                     bits on disk (a segment and a bucket per segment in memory). Give it \
                     --max-memory {}M or more, spread it over more processes, or --force to \
                     start anyway",
                    limits.budget_words(floe::request::Naming::Flags),
                    e.memory.div_ceil(1 << 20)
                )));
            }
            if e.memory > b && !bounded {
                let fit = (e.memory as f64 * layout.processes as f64 / b as f64).ceil();
                return Err(Error::invalid(format!(
                    "{what}: {e}; that is more than {} per process. Spread it over {fit} \
                     processes or more (each holds 1/N of the visited positions), keep the \
                     layers and the visited bits on disk with --work-dir, give more with \
                     --max-memory, or --force to start anyway",
                    limits.budget_words(floe::request::Naming::Flags)
                )));
            }
        }
        if let (Some(dir), true) = (&cluster.work_dir, e.disk > 0) {
            if let Some(free) = free_disk(dir) {
                // A resume needs only what is not on disk yet.
                let there = if cluster.resume { disk_taken(dir) } else { 0 };
                if e.disk.saturating_sub(there) > free && !bounded {
                    let way = if cluster.resume {
                        format!(
                            "{} of the run are on disk already; free {} more there and \
                             --resume takes the run up (moving the folder whole elsewhere \
                             keeps its work too), or --force to go on anyway: the run stops \
                             cleanly, resumable, if the disk fills",
                            human_bytes(there),
                            human_bytes(e.disk.saturating_sub(there) - free)
                        )
                    } else {
                        "Spread it over more machines, give another --work-dir, or --force to \
                         start anyway"
                            .to_string()
                    };
                    return Err(Error::invalid(format!(
                        "{what}: {e}; {} has only {} free. {way}",
                        dir.display(),
                        human_bytes(free)
                    )));
                }
            }
        }
        if layout.process == 0 && (e.seconds >= 60.0 || e.memory >= 1 << 30) {
            eprintln!("floe: {what}: {e} (an estimate before the run)");
        }
    }
    let mut opts = DistOptions {
        limits: Limits::default(),
        work_dir: cluster.work_dir.clone(),
        resume: cluster.resume,
        identity: identity.clone(),
        bits_budget,
        window,
        // a run whose bits do not fit keeps what travels between workers small too
        epoch: bits_budget.map(|_| SMALL_EPOCH),
        layers_in_memory,
    };
    lim.progress = None;
    opts.limits = lim;
    Ok(Shared {
        layout,
        opts,
        identity,
        workers_given: cluster.peers.workers.is_some(),
    })
}

/// The possible positions of a shared run from the level's estimate: refused when they are
/// more than 2^64, which no rank of a shared enumeration can number (the single-process
/// enumeration may still try, under its limits).
pub(crate) fn rankable(
    what: &str,
    e: Option<floe::search::Estimate>,
) -> Result<Option<u64>, Error> {
    match e {
        Some(e) if e.bound >= u64::MAX as f64 => Err(Error::invalid(format!(
            "{what}: up to {} possible positions, more than the 2^64 ranks by which an \
             enumeration shared by workers or kept on disk numbers them; it cannot be shared \
             (without --workers, --processes and --work-dir it runs in one process, within its \
             limits)",
            floe::search::count_words(e.bound)
        ))),
        e => Ok(e.map(|e| e.positions)),
    }
}

/// What the progress line says: positions, layer, rate, and the time left at most (were
/// every possible position reachable).
pub(crate) fn progress_words(space: Option<u64>) -> impl Fn(&Progress) -> String + Send + Sync {
    move |p: &Progress| {
        let secs = p.stats.elapsed.as_secs_f64().max(1e-3);
        let rate = p.stats.states as f64 / secs;
        let left = space
            .filter(|_| rate > 0.0)
            .map(|n| n.saturating_sub(p.stats.states) as f64 / rate);
        format!(
            "{} positions, layer {}, {}/s{}",
            thousands(p.stats.states),
            p.stats.depth,
            thousands(rate as u64),
            left.map_or(String::new(), |s| format!(
                ", at most {} left",
                rough_time(s)
            ))
        )
    }
}

/// How the run was computed, from every local worker's figures.
pub(crate) fn computed(layout: &Layout, work_dir: Option<&Path>, parts: &[Computed]) -> Computed {
    Computed {
        engine: "timely".into(),
        processes: layout.processes,
        workers_per_process: layout.workers,
        work_dir: work_dir.map(|p| p.display().to_string()),
        resumed_at: parts.iter().find_map(|c| c.resumed_at),
        disk_bytes: parts.iter().map(|c| c.disk_bytes).sum(),
        owned: parts.iter().flat_map(|c| c.owned.iter().copied()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared estimate's time, as CPU seconds, is at least the CPU time measured (8×8
    /// with 7 blocks, `--workers 2 --work-dir DIR`, user and system: 65.41 and 65.16 s;
    /// BENCHMARKS.md, "The estimates' rates measured again") and at most twice as long as
    /// the run would take at its pace if every possible position were reachable (its rate is
    /// lowered for larger boards and slower days).
    #[test]
    fn the_shared_estimate_bounds_the_measured_time() {
        // one worker: the estimate's seconds are its CPU seconds, whatever the machine's cores
        let one = Layout {
            workers: 1,
            processes: 1,
            process: 0,
            addresses: vec![],
        };
        let (possible, reachable) = (621_216_192u64, 469_048_908u64);
        let estimated = SharedEstimate::new(possible, &one, true, None).seconds;
        for cpu in [65.41, 65.16] {
            let cpu_over_possible = cpu * possible as f64 / reachable as f64;
            assert!(
                estimated >= cpu && estimated <= 2.0 * cpu_over_possible,
                "estimated {estimated:.1} CPU s, measured {cpu} ({cpu_over_possible:.1} at that \
                 pace over every possible position)"
            );
        }
    }

    #[test]
    fn estimates_shrink_with_processes_and_disk() {
        let one = Layout {
            workers: 2,
            processes: 1,
            process: 0,
            addresses: vec![],
        };
        let four = Layout {
            processes: 4,
            ..one.clone()
        };
        let n = 4_426_165_368; // 8×8 with 8 blocks
        let a = SharedEstimate::new(n, &one, false, None);
        let b = SharedEstimate::new(n, &four, false, None);
        let c = SharedEstimate::new(n, &one, true, None);
        // under a budget of 128 MiB the bits go to disk, a segment per worker in memory and
        // a bucket per segment
        let d = SharedEstimate::new(n, &one, true, Some(128 << 20));
        assert_eq!(c.bits_budget, None);
        assert!(d.memory <= 128 << 20 && d.disk > c.disk + (n / 8), "{d:?}");
        assert!(d.bits_budget.is_some_and(|b| b >= 1 << 20), "{d:?}");
        // under 80 MiB they do not fit even so (the buckets of many small segments): the
        // estimate says more than the budget, and the run is refused before it starts
        let e = SharedEstimate::new(n, &one, true, Some(80 << 20));
        assert!(e.memory > 80 << 20 && e.bits_budget.is_some(), "{e:?}");
        // without a work folder nothing goes to disk
        assert_eq!(
            SharedEstimate::new(n, &one, false, Some(64 << 20)).bits_budget,
            None
        );
        // in memory, three bits a rank (the visited bit and the two layers'): 1.55 GiB
        assert!(
            a.memory > 1_659_812_013 && a.memory < 1_659_812_013 + (64 << 20),
            "{a:?}"
        );
        assert!(b.memory * 3 < a.memory, "{b:?}");
        assert!(c.memory < 1 << 30 && c.disk > 20 << 30, "{c:?}");
        assert!(b.seconds * 3.0 < a.seconds);
        assert!(free_disk(&std::env::temp_dir().join("no/such/dir")).is_some());
    }

    /// What a resume counts as on disk already: the files under the folder, its subfolders'
    /// included; a folder not there holds nothing.
    #[test]
    fn disk_taken_counts_the_files_of_a_folder_and_its_subfolders() {
        let dir = std::env::temp_dir().join(format!("floe-taken-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("worker-0")).unwrap();
        std::fs::write(dir.join("a"), vec![1u8; 100_000]).unwrap();
        std::fs::write(dir.join("worker-0/b"), vec![1u8; 300_000]).unwrap();
        let t = disk_taken(&dir);
        assert!((400_000..=420_000).contains(&t), "{t}");
        assert_eq!(disk_taken(&dir.join("none")), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Layer files are read in 16 MiB windows, in 2 MiB ones where the wider would pass the
    /// budget; the bits go to disk only where even that does not fit.
    #[test]
    fn a_tight_budget_narrows_the_window_before_the_bits_leave_memory() {
        let two = Layout {
            workers: 2,
            processes: 1,
            process: 0,
            addresses: vec![],
        };
        let n = 621_216_192; // 8×8 with 7 blocks: 74 MiB of bits
        let wide = SharedEstimate::new(n, &two, true, None);
        assert!(!wide.narrow && wide.bits_budget.is_none(), "{wide:?}");
        // the two windows differ by 2 × (16 − 2) MiB for each of the two workers
        let roomy = SharedEstimate::new(n, &two, true, Some(wide.memory));
        assert_eq!(roomy, wide);
        let tight = SharedEstimate::new(n, &two, true, Some(wide.memory - 1));
        assert!(tight.narrow && tight.bits_budget.is_none(), "{tight:?}");
        assert_eq!(wide.memory - tight.memory, 2 * 2 * (14 << 20));
        // below the narrow run's memory the bits go to disk too, still in narrow windows
        let short = SharedEstimate::new(n, &two, true, Some(tight.memory - 1));
        assert!(short.narrow && short.bits_budget.is_some(), "{short:?}");
        // in memory there is no window: never narrow
        let mem = SharedEstimate::new(n, &two, false, Some(1 << 20));
        assert!(!mem.narrow, "{mem:?}");
    }

    /// With a work folder, the layers are kept in memory too where the budget holds two
    /// bits a rank more beside the rest (the windows of the files included: a resume reads
    /// its first layer from its file), not where it holds one byte less; without a budget,
    /// never; without a folder, the question does not arise.
    #[test]
    fn layers_stay_in_memory_too_where_the_budget_holds_them() {
        let two = Layout {
            workers: 2,
            processes: 1,
            process: 0,
            addresses: vec![],
        };
        let n = 621_216_192; // 8×8 with 7 blocks: 74 MiB of bits, as much a layer
        let files = SharedEstimate::new(n, &two, true, None);
        assert!(!files.layers_in_memory, "{files:?}");
        let both = SharedEstimate::new(n, &two, true, Some(1 << 40));
        assert!(both.layers_in_memory && !both.narrow && both.bits_budget.is_none());
        // two bit layers more, beside the windows (two lists of 16 MiB a worker)
        assert!(
            both.memory.abs_diff(files.memory + 2 * n.div_ceil(8)) <= 2,
            "{both:?}"
        );
        assert_eq!(SharedEstimate::new(n, &two, true, Some(both.memory)), both);
        let short = SharedEstimate::new(n, &two, true, Some(both.memory - 1));
        assert!(
            !short.layers_in_memory && short.memory == files.memory,
            "{short:?}"
        );
        // the disk is used the same either way
        assert_eq!((both.disk, both.seconds), (files.disk, files.seconds));
        assert!(!SharedEstimate::new(n, &two, false, Some(1 << 40)).layers_in_memory);
    }

    /// The bits on disk as `floe::search::dist` cuts them: `Seen::new` makes segments of the
    /// budget's bytes, as many as cover the worker's bits.
    #[test]
    fn segments_cover_the_bits_and_fit_the_room_they_are_given() {
        let mib = (1u64 << 20) as f64;
        for bits in [5u64 << 20, 38_826_012, 276_635_336, (1 << 30) + 7] {
            for room in [2.0 * mib, 8.0 * mib, 12.0 * mib, 40.0 * mib, 1e12] {
                let (segment, held) = segments_within(bits, room);
                assert!(segment >= MIN_SEGMENT && segment % 8 == 0);
                let segments = bits.div_ceil(segment);
                assert!(segments <= MAX_SEGMENTS, "{bits} {room}: {segments}");
                assert_eq!(held, segment + (segments + 1) * BUCKET_BYTES as u64);
                // what fits is taken with the fewest segments; else the least is held
                let fits = (1..=MAX_SEGMENTS).any(|k| {
                    let s = (bits.div_ceil(k).div_ceil(8) * 8 + 8).max(MIN_SEGMENT);
                    (s + (bits.div_ceil(s) + 1) * BUCKET_BYTES as u64) as f64 <= room
                });
                assert_eq!(held as f64 <= room, fits, "{bits} {room}");
            }
        }
        // 8×8 with 7 blocks on two workers (38.8 MB of bits each): 12 MiB a worker holds
        // them in a few segments of about 9 MiB
        let (segment, held) = segments_within(38_826_012, 12.0 * mib);
        assert!(
            held as f64 <= 12.0 * mib && segment > 8 << 20,
            "{segment} {held}"
        );
    }
}
