//! Resource limits and progress reporting shared by every search.

use super::Stats;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// More than [`Limits::max_states`] nodes would have been stored.
    MaxStates,
    /// [`Limits::timeout`] passed.
    Timeout,
    /// The process held more than [`Limits::max_memory`].
    MaxMemory,
    /// The user asked to stop (Ctrl-C, [`interrupt`], or the limits' own stop flag).
    Interrupted,
    /// A search that looks only for solutions up to a cost found none there
    /// ([`astar_proving_upto`](super::astar_proving_upto)): a proof, not a lack of means.
    MaxMoves,
}

impl LimitKind {
    /// The name used in output and on the command line: `max-states`, `timeout`,
    /// `max-memory`, `interrupted` or `max-moves`.
    pub fn name(self) -> &'static str {
        match self {
            LimitKind::MaxStates => "max-states",
            LimitKind::Timeout => "timeout",
            LimitKind::MaxMemory => "max-memory",
            LimitKind::Interrupted => "interrupted",
            LimitKind::MaxMoves => "max-moves",
        }
    }

    /// What stopped the work, in words after "stopped": `by --timeout`, `by Ctrl-C`, `by the
    /// memory budget (--max-memory)`.
    pub fn by(self) -> String {
        match self {
            LimitKind::Interrupted => "by Ctrl-C".into(),
            LimitKind::MaxMemory => match crate::mem::refused_by() {
                Some(what) => format!("by {what}"),
                None => "by the memory budget (--max-memory)".into(),
            },
            k => format!("by --{}", k.name()),
        }
    }

    /// The kind named `name` (see [`LimitKind::name`]).
    pub fn from_name(name: &str) -> Option<LimitKind> {
        [
            LimitKind::MaxStates,
            LimitKind::Timeout,
            LimitKind::MaxMemory,
            LimitKind::Interrupted,
            LimitKind::MaxMoves,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

display_by_name!(LimitKind);

/// A snapshot handed to the progress callback.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// What has been explored so far.
    pub stats: Stats,
}

/// Callback receiving progress snapshots, a few times a second at most.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// Told `(done, total)` of a work counted in units (levels made, placements judged, steps
/// of an annealing; with a time budget, milliseconds of it), `total` when it is known. It may
/// be called from several threads at once and often, so a listener throttles what it shows.
/// The last call, when the work ends (done or stopped), has `done == total`.
///
/// ```
/// use floe::search::Tally;
/// use std::sync::{Arc, Mutex};
/// let heard = Arc::new(Mutex::new(Vec::new()));
/// let h = Arc::clone(&heard);
/// let tally = Tally::new(move |done, total| h.lock().unwrap().push((done, total)));
/// tally.tell(1, Some(4));
/// tally.end(3);
/// assert_eq!(*heard.lock().unwrap(), [(1, Some(4)), (3, Some(3))]);
/// ```
#[derive(Clone)]
pub struct Tally(Arc<dyn Fn(u64, Option<u64>) + Send + Sync>);

impl Tally {
    /// A tally told to `f`.
    pub fn new(f: impl Fn(u64, Option<u64>) + Send + Sync + 'static) -> Tally {
        Tally(Arc::new(f))
    }
    /// Tells `done` of `total` (while the work goes on: `done < total` when it is known).
    pub fn tell(&self, done: u64, total: Option<u64>) {
        (self.0)(
            done.min(total.map_or(u64::MAX, |t| t.saturating_sub(1))),
            total,
        )
    }
    /// Tells the end of the work, `done` units in all.
    pub fn end(&self, done: u64) {
        (self.0)(done, Some(done))
    }
}

impl fmt::Debug for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Tally")
    }
}

/// Limits for one search. The default has none.
///
/// ```
/// use floe::search::{bfs, from_fn, LimitKind, Limits, Outcome};
/// // count from 0 to a million one step at a time, storing at most 100 positions
/// let p = from_fn(0u32, |&x| [('+', x + 1)], |&x| x == 1_000_000);
/// let r = bfs(&p, &Limits::none().max_states(100));
/// assert_eq!(r.outcome, Outcome::Limit(LimitKind::MaxStates));
/// assert_eq!(r.stats.states, 100);
/// ```
#[derive(Clone, Default)]
pub struct Limits {
    /// Stop once this many nodes are stored.
    pub max_states: Option<u64>,
    /// Stop after this much wall-clock time.
    pub timeout: Option<Duration>,
    /// Stop once the process holds more than this many bytes (its resident memory, read at
    /// most every 50 ms).
    pub max_memory: Option<u64>,
    /// Stop when this flag is set (a stop button; Ctrl-C sets the process-wide
    /// [`interrupt`] flag, which every search also watches).
    pub stop: Option<Arc<AtomicBool>>,
    /// Called now and then with what has been explored.
    pub progress: Option<ProgressFn>,
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static TERMINATED: AtomicBool = AtomicBool::new(false);

/// Notes that the process was asked to stop by SIGTERM rather than Ctrl-C (only an atomic
/// store: a signal handler may call it), so that a stopped run says so.
pub fn note_terminated() {
    TERMINATED.store(true, Ordering::Relaxed);
}

/// Whether [`note_terminated`] was called.
pub fn terminated() -> bool {
    TERMINATED.load(Ordering::Relaxed)
}

/// How the limit named `limit` ([`LimitKind::name`]) stopped the work, after "stopped", as a
/// report's text says it: `by --timeout`, `by --max-memory (floe held 3.0 GiB)`, `by Ctrl-C`,
/// `by SIGTERM`.
pub fn stopped_by(limit: &str) -> String {
    match limit {
        "interrupted" if terminated() => "by SIGTERM".into(),
        "interrupted" => "by Ctrl-C".into(),
        "max-memory" => {
            let what = LimitKind::MaxMemory.by();
            match crate::mem::peak_resident_bytes() {
                Some(b) => format!("{what} (floe held {})", crate::mem::human_bytes(b)),
                None => what,
            }
        }
        l => format!("by --{l}"),
    }
}

/// Asks every running search of the process to stop (what Ctrl-C does): each ends within a
/// moment with [`LimitKind::Interrupted`] and reports what it explored.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Whether [`interrupt`] was called (and not [`clear_interrupt`]ed since).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Lets searches run again after an [`interrupt`] (a notebook or a server goes on).
pub fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::Relaxed);
}

impl fmt::Debug for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limits")
            .field("max_states", &self.max_states)
            .field("timeout", &self.timeout)
            .field("max_memory", &self.max_memory)
            .field(
                "stop",
                &self.stop.as_ref().map(|s| s.load(Ordering::Relaxed)),
            )
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Limits {
    /// The instant `timeout` after `start`, if there is a timeout. A timeout too long to add
    /// to the clock (beyond any run's length) counts as none, never as an overflow.
    pub fn deadline_from(&self, start: Instant) -> Option<Instant> {
        self.timeout.and_then(|t| start.checked_add(t))
    }
    /// No limits.
    pub fn none() -> Self {
        Self::default()
    }
    /// At most `n` stored nodes.
    pub fn max_states(mut self, n: u64) -> Self {
        self.max_states = Some(n);
        self
    }
    /// At most `d` of wall-clock time.
    pub fn timeout(mut self, d: Duration) -> Self {
        self.timeout = Some(d);
        self
    }
    /// At most `bytes` of memory held by the process.
    pub fn max_memory(mut self, bytes: u64) -> Self {
        self.max_memory = Some(bytes);
        self
    }
    /// Stop when `flag` is set.
    pub fn stop_on(mut self, flag: Arc<AtomicBool>) -> Self {
        self.stop = Some(flag);
        self
    }
    /// Report progress to `f`.
    pub fn progress(mut self, f: ProgressFn) -> Self {
        self.progress = Some(f);
        self
    }

    /// Whether the work must stop now for a reason other than the clock or the state count:
    /// the user asked to stop ([`LimitKind::Interrupted`]) or the process holds more memory
    /// than allowed ([`LimitKind::MaxMemory`]). Cheap enough to ask every few thousand steps,
    /// from any thread (kept out of line, so that the loops that ask keep their shape).
    #[inline(never)]
    pub fn halted(&self) -> Option<LimitKind> {
        if interrupted()
            || self
                .stop
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Some(LimitKind::Interrupted);
        }
        // the memory budget, the address space `ulimit -v` leaves, an allocation the program's
        // allocator could only answer from its reserve
        let over = self
            .max_memory
            .is_some_and(|max| crate::mem::resident_recent() > max);
        (over || crate::mem::address_exhausted() || crate::mem::out_of_memory())
            .then_some(LimitKind::MaxMemory)
    }

    /// [`Limits::halted`], or [`LimitKind::Timeout`] once `deadline` has passed.
    #[inline(never)]
    pub fn check(&self, deadline: Option<Instant>) -> Option<LimitKind> {
        if matches!(deadline, Some(d) if Instant::now() >= d) {
            return Some(LimitKind::Timeout);
        }
        self.halted()
    }
}

/// The most states one search stores: its arena is indexed by 32-bit numbers. A search that
/// would store more stops with [`LimitKind::MaxStates`].
pub const MAX_STORED: u64 = u32::MAX as u64;

const REPORT_EVERY: Duration = Duration::from_millis(200);
const CLOCK_EVERY: u32 = 1024;

/// Running account of a search against its [`Limits`]: the one clock and state counter every
/// search in floe uses (generic or game-specific), so that limits mean the same everywhere.
///
/// ```
/// use floe::search::{Budget, Limits, Stats};
/// let limits = Limits::none().max_states(10);
/// let mut budget = Budget::new(&limits);
/// assert!(!budget.full(9));
/// assert!(budget.full(10));
/// assert_eq!(budget.tick(&Stats::default()), None);
/// ```
pub struct Budget<'a> {
    limits: &'a Limits,
    start: Instant,
    deadline: Option<Instant>,
    ticks: u32,
    next_report: Instant,
    /// Bytes each stored node costs in arrays that double (see [`Budget::storing`]).
    node_bytes: u64,
    /// Nodes the arrays were given room for at once ([`Budget::reserved`]): no doubling.
    reserved: Option<u64>,
}

/// Stored nodes at which [`Budget::make_room`] gives a search's arrays the room of the whole
/// memory budget at once (a test lowers it).
#[cfg(not(test))]
pub const ROOM_AT: u64 = 1 << 20;
#[cfg(test)]
pub const ROOM_AT: u64 = 1 << 10;

/// Bytes per node, beyond [`Budget::storing`]'s arrays, for what still doubles beside them
/// once they are reserved: the index (a slot and a control byte at most 7/8 full, twice
/// that while it grows) and the open lists.
const BESIDE_BYTES: u64 = 16;

impl<'a> Budget<'a> {
    /// Starts the clock.
    pub fn new(limits: &'a Limits) -> Self {
        let start = Instant::now();
        Budget {
            limits,
            start,
            deadline: limits.deadline_from(start),
            // the first tick looks at the clock, so that a zero timeout stops at once
            ticks: CLOCK_EVERY - 1,
            next_report: start + REPORT_EVERY,
            node_bytes: 0,
            reserved: None,
        }
    }

    /// The budget of a search that keeps every node in arrays of `S` (and a parent, a move
    /// and an index slot beside it), which double as they grow: before each doubling past a
    /// million nodes, [`Budget::store_limit`] asks whether the memory held and the new
    /// arrays would pass `max_memory`, so that a doubling that cannot be had is not tried.
    pub fn storing<S>(mut self) -> Self {
        self.node_bytes = std::mem::size_of::<S>() as u64 + 16;
        self
    }

    /// [`Budget::storing`] for states of `bytes` bytes each (states kept packed).
    pub fn storing_bytes(mut self, bytes: usize) -> Self {
        self.node_bytes = bytes as u64 + 16;
        self
    }

    /// Whether storing one more node is refused: [`LimitKind::MaxStates`] at the state cap
    /// ([`Budget::full`]), [`LimitKind::MaxMemory`] when the arrays are about to double
    /// beyond the memory budget (see [`Budget::storing`]).
    #[inline]
    pub fn store_limit(&self, stored: u64) -> Option<LimitKind> {
        if self.full(stored) {
            return Some(LimitKind::MaxStates);
        }
        if let Some(room) = self.reserved {
            return (stored >= room).then_some(LimitKind::MaxMemory);
        }
        if stored >= 1 << 20 && stored.is_power_of_two() && self.node_bytes > 0 {
            return self.doubling_too_big(stored);
        }
        None
    }

    /// How many nodes in all the arrays of [`Budget::storing`] can hold within
    /// `max_memory`, counting what this process holds now and what doubles beside them
    /// (the index, the open lists). `None` without a memory budget, or when the system does
    /// not tell the memory held. A search that has grown past a million nodes can give its
    /// arrays that room at once (`Vec::try_reserve_exact`) and say so with
    /// [`Budget::reserved`]: it then stores up to the budget instead of stopping at the
    /// doubling that would not fit, which could leave half the budget unused.
    pub fn node_room(&self) -> Option<u64> {
        let max = self.limits.max_memory?;
        let held = crate::mem::resident_bytes()?;
        let room = max.saturating_sub(held) / (self.node_bytes + BESIDE_BYTES).max(1);
        Some(room.min(MAX_STORED))
    }

    /// The arrays now have room for `nodes` nodes in all: [`Budget::store_limit`] refuses
    /// the node past them ([`LimitKind::MaxMemory`]) and no longer checks doublings.
    pub fn reserved(&mut self, nodes: u64) {
        self.reserved = Some(nodes);
    }

    /// Called before storing node number `stored`: once, at [`ROOM_AT`] nodes, asks
    /// `reserve(more)` to give every array room for `more` nodes beyond those stored (true
    /// when all of them got it) and, if it did, stores up to [`Budget::node_room`] from then
    /// on ([`Budget::reserved`]).
    #[inline]
    pub fn make_room(&mut self, stored: u64, reserve: impl FnOnce(usize) -> bool) {
        if stored != ROOM_AT || self.reserved.is_some() {
            return;
        }
        if let Some(room) = self.node_room() {
            if reserve(room.saturating_sub(stored) as usize) {
                self.reserved(room);
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn doubling_too_big(&self, stored: u64) -> Option<LimitKind> {
        let max = self.limits.max_memory?;
        let held = crate::mem::resident_bytes()?;
        let grown = stored.saturating_mul(2).saturating_mul(self.node_bytes);
        (held.saturating_add(grown) > max).then_some(LimitKind::MaxMemory)
    }

    /// Time since the search began.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether storing one more node would exceed `max_states`, or the most any store
    /// indexes ([`MAX_STORED`]).
    #[inline]
    pub fn full(&self, stored: u64) -> bool {
        stored >= MAX_STORED || matches!(self.limits.max_states, Some(m) if stored >= m)
    }

    /// Called once per expansion: checks the clock now and then and reports progress.
    #[inline]
    pub fn tick(&mut self, stats: &Stats) -> Option<LimitKind> {
        self.ticks += 1;
        if self.ticks < CLOCK_EVERY {
            return None;
        }
        self.ticks = 0;
        self.check_clock(stats)
    }

    /// [`Budget::full`] and [`Budget::tick`] at once, for searches that store as they
    /// expand: `max-states` when `stored` reached the cap, else the clock now and then.
    #[inline]
    pub fn over(&mut self, stored: u64, stats: &Stats) -> Option<LimitKind> {
        if self.full(stored) {
            return Some(LimitKind::MaxStates);
        }
        self.tick(stats)
    }

    /// The time limit passed (the clock is read at every call), or the work must stop for
    /// another reason ([`Limits::halted`]).
    pub fn timed_out(&self) -> bool {
        self.limits.check(self.deadline).is_some()
    }

    /// Why the work must stop now, reading the clock and the memory ([`Limits::check`]).
    pub fn stopped(&self) -> Option<LimitKind> {
        self.limits.check(self.deadline)
    }

    /// Reports progress now if a report is due, whatever the tick count.
    pub fn report(&mut self, stats: &Stats) {
        self.report_at(Instant::now(), stats);
    }

    /// Reports the end of the search (finished or stopped), whenever the last report was: a
    /// listener hears what was explored in all, even of a search that ended before its first
    /// report was due.
    pub fn finish(&self, stats: &Stats) {
        if let Some(report) = &self.limits.progress {
            let mut stats = *stats;
            stats.elapsed = self.start.elapsed();
            report(&Progress { stats });
        }
    }

    /// Reports progress if a report is due at `now`.
    fn report_at(&mut self, now: Instant, stats: &Stats) {
        if let Some(report) = &self.limits.progress {
            if now >= self.next_report {
                self.next_report = now + REPORT_EVERY;
                let mut stats = *stats;
                stats.elapsed = now - self.start;
                report(&Progress { stats });
            }
        }
    }

    #[cold]
    fn check_clock(&mut self, stats: &Stats) -> Option<LimitKind> {
        let now = Instant::now();
        if matches!(self.deadline, Some(d) if now >= d) {
            return Some(LimitKind::Timeout);
        }
        if let Some(k) = self.limits.halted() {
            return Some(k);
        }
        self.report_at(now, stats);
        None
    }
}

/// The longest duration [`parse_duration`] accepts: 365 days.
pub const MAX_DURATION: Duration = Duration::from_secs(365 * 24 * 3600);

/// Parses a duration as every front end writes it: a number of seconds (`30`, `1.5`) or a
/// number with a unit, `ms`, `s`, `m` (or `min`) or `h` (`500ms`, `30s`, `2m`, `1h`), from 0
/// to [`MAX_DURATION`]. The error says what was wrong, in words.
///
/// ```
/// use floe::search::parse_duration;
/// use std::time::Duration;
/// assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
/// assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
/// assert!(parse_duration("1e300").is_err());
/// ```
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let x: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a duration (e.g. 30, 30s, 500ms, 2m, 1h)"))?;
    let secs = match unit.trim() {
        "ms" => x / 1000.0,
        "s" | "sec" => x,
        "m" | "min" => x * 60.0,
        "h" => x * 3600.0,
        u => {
            return Err(format!(
                "unknown time unit '{u}' in '{s}': use ms, s, m or h"
            ))
        }
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!("'{s}' is not a duration: it must be 0 or more"));
    }
    if secs > MAX_DURATION.as_secs_f64() {
        return Err(format!(
            "'{s}' is too long: durations go up to 365 days (8760h)"
        ));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| format!("'{s}' is not a duration: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30").unwrap(), Duration::from_secs(30));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("2 min").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("1h").unwrap(), Duration::from_secs(3600));
        assert_eq!(parse_duration("1e2").unwrap(), Duration::from_secs(100));
        for bad in [
            "-1",
            "soon",
            "3 weeks",
            "1e300",
            "99999999999999999999",
            "18000000000000000000",
            "NaN",
            "inf",
            "",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn reserved_arrays_stop_at_their_room_and_not_at_a_doubling() {
        // no budget: no room to tell
        let none = Limits::none();
        assert_eq!(Budget::new(&none).storing::<[u8; 48]>().node_room(), None);
        if crate::mem::resident_bytes().is_none() {
            return; // the system does not tell the memory held
        }
        // a budget of 64 MiB beside what the process holds: room for about that many bytes
        let held = crate::mem::resident_bytes().unwrap();
        let limits = Limits::none().max_memory(held + (64 << 20));
        let mut budget = Budget::new(&limits).storing::<[u8; 48]>();
        let room = budget.node_room().unwrap();
        let per_node = 48 + 16 + BESIDE_BYTES;
        assert!(room <= (64 << 20) / per_node, "{room}");
        assert!(room >= (32 << 20) / per_node, "{room}");
        // before: the doubling at 2^20 nodes (2^21 × 64 bytes = 128 MiB) does not fit
        assert_eq!(budget.store_limit(1 << 20), Some(LimitKind::MaxMemory));
        // reserved: stores up to the room, and no further
        budget.reserved(room);
        assert_eq!(budget.store_limit(1 << 19), None);
        assert_eq!(budget.store_limit(room - 1), None);
        assert_eq!(budget.store_limit(room), Some(LimitKind::MaxMemory));
        // the state cap still comes first
        let capped = limits.clone().max_states(10);
        let mut budget = Budget::new(&capped).storing::<[u8; 48]>();
        budget.reserved(1 << 30);
        assert_eq!(budget.store_limit(10), Some(LimitKind::MaxStates));
    }

    #[test]
    fn huge_timeouts_do_not_overflow_the_clock() {
        let limits = Limits::none().timeout(Duration::MAX);
        assert_eq!(limits.deadline_from(Instant::now()), None);
        let mut b = Budget::new(&limits);
        assert_eq!(b.tick(&Stats::default()), None);
    }
}
