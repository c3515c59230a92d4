//! Resource limits and progress reporting shared by every search.

use super::Stats;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// More than [`Limits::max_states`] nodes would have been stored.
    MaxStates,
    /// [`Limits::timeout`] passed.
    Timeout,
}

impl LimitKind {
    /// The name used in output and on the command line: `max-states` or `timeout`.
    pub fn name(self) -> &'static str {
        match self {
            LimitKind::MaxStates => "max-states",
            LimitKind::Timeout => "timeout",
        }
    }
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A snapshot handed to the progress callback.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// What has been explored so far.
    pub stats: Stats,
}

/// Callback receiving progress snapshots, a few times a second at most.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// Limits for one search. The default has none.
#[derive(Clone, Default)]
pub struct Limits {
    /// Stop once this many nodes are stored.
    pub max_states: Option<u64>,
    /// Stop after this much wall-clock time.
    pub timeout: Option<Duration>,
    /// Called now and then with what has been explored.
    pub progress: Option<ProgressFn>,
}

impl fmt::Debug for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limits")
            .field("max_states", &self.max_states)
            .field("timeout", &self.timeout)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Limits {
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
    /// Report progress to `f`.
    pub fn progress(mut self, f: ProgressFn) -> Self {
        self.progress = Some(f);
        self
    }
}

const REPORT_EVERY: Duration = Duration::from_millis(200);
const CLOCK_EVERY: u32 = 1024;

/// Running account of a search against its [`Limits`].
pub(crate) struct Budget<'a> {
    limits: &'a Limits,
    start: Instant,
    deadline: Option<Instant>,
    ticks: u32,
    next_report: Instant,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(limits: &'a Limits) -> Self {
        let start = Instant::now();
        Budget {
            limits,
            start,
            deadline: limits.timeout.map(|t| start + t),
            // the first tick looks at the clock, so that a zero timeout stops at once
            ticks: CLOCK_EVERY - 1,
            next_report: start + REPORT_EVERY,
        }
    }

    /// Time since the search began.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether storing one more node would exceed `max_states`.
    #[inline]
    pub(crate) fn full(&self, stored: u64) -> bool {
        matches!(self.limits.max_states, Some(m) if stored >= m)
    }

    /// Called once per expansion: checks the clock now and then and reports progress.
    #[inline]
    pub(crate) fn tick(&mut self, stats: &Stats) -> Option<LimitKind> {
        self.ticks += 1;
        if self.ticks < CLOCK_EVERY {
            return None;
        }
        self.ticks = 0;
        self.check_clock(stats)
    }

    #[cold]
    fn check_clock(&mut self, stats: &Stats) -> Option<LimitKind> {
        let now = Instant::now();
        if matches!(self.deadline, Some(d) if now >= d) {
            return Some(LimitKind::Timeout);
        }
        if let Some(report) = &self.limits.progress {
            if now >= self.next_report {
                self.next_report = now + REPORT_EVERY;
                let mut stats = *stats;
                stats.elapsed = now - self.start;
                report(&Progress { stats });
            }
        }
        None
    }
}
