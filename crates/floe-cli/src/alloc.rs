//! The program's allocator: the system's, with a reserve for the moment it fails. An
//! allocation the system refuses (an address-space limit, `ulimit -v`; a cgroup at its
//! limit) is answered from a reserve set aside when the program starts, and floe's searches
//! are told ([`floe::mem::note_out_of_memory`]): they stop at their next check as at the
//! memory budget (`max-memory`), so that the run ends with its report, its files whole and
//! its work folder resumable, instead of an abort. Large arrays are asked for fallibly where
//! they are made (`floe::mem::zeroed_words`), so that a refusal of one is a clean stop too.
//!
//! `FLOE_FAULT=alloc@N` (the fault tests) refuses the `N`th allocation of at least
//! [`LARGE`] bytes, as a limit would.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Bytes set aside for allocations the system refuses: 32 MiB, a sixteenth of an address
/// space limit when that is less (a tight `ulimit -v` leaves room for the program itself).
const RESERVE: usize = 32 << 20;

/// What `FLOE_FAULT=alloc@N` counts: allocations of at least this many bytes.
pub const LARGE: usize = 64 << 10;

/// The reserve, mapped when the program starts ([`set_aside`]): its start and its size (0:
/// none, when it could not be mapped).
static POOL_BASE: AtomicUsize = AtomicUsize::new(0);
static POOL_SIZE: AtomicUsize = AtomicUsize::new(0);

/// Maps the reserve (the memory is the system's only once touched).
pub fn set_aside() {
    let size =
        floe::mem::address_limit().map_or(RESERVE, |l| RESERVE.min((l / 16) as usize)) & !4095;
    if size == 0 {
        return;
    }
    // SAFETY: an anonymous private mapping of `size` bytes, owned by the pool for the life
    // of the process
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p != libc::MAP_FAILED {
        POOL_SIZE.store(size, Ordering::Relaxed);
        POOL_BASE.store(p as usize, Ordering::Release);
    }
}

/// The pool's bytes handed out (the low 40 bits) and the allocations of it still held (the
/// bits above), changed together.
static STATE: AtomicU64 = AtomicU64::new(0);
const USED_BITS: u32 = 40;
/// The large allocation to refuse (0: none), and how many were made.
static REFUSE_AT: AtomicU64 = AtomicU64::new(0);
static LARGE_SEEN: AtomicU64 = AtomicU64::new(0);

/// Plans the refusal of `FLOE_FAULT=alloc@N`, if that is the fault asked for.
pub fn plan_fault() {
    if let Some(n) = std::env::var("FLOE_FAULT")
        .ok()
        .and_then(|v| v.strip_prefix("alloc@").and_then(|n| n.trim().parse().ok()))
    {
        REFUSE_AT.store(n, Ordering::Relaxed);
    }
}

/// The allocator (see the module's text).
pub struct Floe;

fn in_pool(p: *mut u8) -> bool {
    let start = POOL_BASE.load(Ordering::Acquire);
    start != 0 && (start..start + POOL_SIZE.load(Ordering::Relaxed)).contains(&(p as usize))
}

/// Whether this allocation is the one `FLOE_FAULT=alloc@N` refuses.
fn planted(size: usize) -> bool {
    let at = REFUSE_AT.load(Ordering::Relaxed);
    at != 0 && size >= LARGE && LARGE_SEEN.fetch_add(1, Ordering::Relaxed) + 1 == at
}

/// `l` from the reserve, or null when it is spent; the searches are told when it lends.
fn from_reserve(l: Layout) -> *mut u8 {
    let base = POOL_BASE.load(Ordering::Acquire);
    let size = POOL_SIZE.load(Ordering::Relaxed);
    if base == 0 {
        return std::ptr::null_mut();
    }
    let mut state = STATE.load(Ordering::Relaxed);
    loop {
        let used = (state & ((1 << USED_BITS) - 1)) as usize;
        let start = (base + used).next_multiple_of(l.align()) - base;
        let end = start.saturating_add(l.size());
        if end > size {
            return std::ptr::null_mut();
        }
        let live = state >> USED_BITS;
        let next = (live + 1) << USED_BITS | end as u64;
        match STATE.compare_exchange_weak(state, next, Ordering::AcqRel, Ordering::Relaxed) {
            Ok(_) => {
                // the searches stop: what the reserve lends is for the run's last moments (a
                // refusal the reserve cannot answer is the caller's: a fallible one does
                // without, an infallible one aborts)
                floe::mem::note_out_of_memory();
                // SAFETY: `start..end` lies in the pool and no one holds it
                return unsafe { (base as *mut u8).add(start) };
            }
            Err(now) => state = now,
        }
    }
}

/// An allocation of the pool given back: once none is held, the pool is whole again.
fn back_to_reserve() {
    let mut state = STATE.load(Ordering::Relaxed);
    loop {
        let live = (state >> USED_BITS).saturating_sub(1);
        let next = if live == 0 {
            0
        } else {
            live << USED_BITS | (state & ((1 << USED_BITS) - 1))
        };
        match STATE.compare_exchange_weak(state, next, Ordering::AcqRel, Ordering::Relaxed) {
            Ok(_) => return,
            Err(now) => state = now,
        }
    }
}

// SAFETY: every pointer handed out is either the system allocator's (returned to it) or a
// part of the pool no one else holds (never returned to the system).
unsafe impl GlobalAlloc for Floe {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = if planted(l.size()) {
            std::ptr::null_mut()
        } else {
            System.alloc(l)
        };
        if p.is_null() {
            from_reserve(l)
        } else {
            p
        }
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = if planted(l.size()) {
            std::ptr::null_mut()
        } else {
            System.alloc_zeroed(l)
        };
        if p.is_null() {
            let r = from_reserve(l);
            if !r.is_null() {
                // the pool's bytes may have served before
                std::ptr::write_bytes(r, 0, l.size());
            }
            r
        } else {
            p
        }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        if in_pool(p) {
            back_to_reserve();
        } else {
            System.dealloc(p, l);
        }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let grown = Layout::from_size_align_unchecked(new, l.align());
        if in_pool(p) {
            let q = self.alloc(grown);
            if !q.is_null() {
                std::ptr::copy_nonoverlapping(p, q, l.size().min(new));
                back_to_reserve();
            }
            return q;
        }
        let q = if planted(new) {
            std::ptr::null_mut()
        } else {
            System.realloc(p, l, new)
        };
        if !q.is_null() {
            return q;
        }
        let r = from_reserve(grown);
        if !r.is_null() {
            std::ptr::copy_nonoverlapping(p, r, l.size().min(new));
            System.dealloc(p, l);
        }
        r
    }
}
