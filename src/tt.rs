//! The transposition table: lockless, shared by all search threads, four-entry buckets of
//! one cache line, depth-and-age replacement.

use crate::types::Pos;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Not a usable score.
    None = 0,
    /// The score is at most this (fail low).
    Upper = 1,
    /// The score is at least this (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// A probed entry.
#[derive(Copy, Clone, Debug)]
pub struct TtHit {
    pub best: Pos,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[repr(C, align(64))]
struct Bucket {
    /// `key ^ data` per entry: a torn write (two threads at once) fails the key check.
    keys: [AtomicU64; 4],
    data: [AtomicU64; 4],
}

/// Scores at least this far from zero are wins or losses with a distance.
pub const MATE_BOUND: i32 = 29000;

/// The buckets: zeroed memory aligned to 2 MB, which Linux is asked to back with huge pages
/// (`madvise`). A probe is a random access into tens of megabytes, so with 4 KB pages
/// nearly every probe also misses the TLB.
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
}

/// Alignment (and granule) of the bucket memory: one huge page.
const HUGE: usize = 2 << 20;

impl Buckets {
    fn new(len: usize) -> Buckets {
        let layout = Self::layout(len);
        // SAFETY: the layout has a nonzero size (at least one bucket).
        let raw = unsafe { std::alloc::alloc(layout) };
        let Some(ptr) = std::ptr::NonNull::new(raw as *mut Bucket) else {
            std::alloc::handle_alloc_error(layout)
        };
        // The advice must come before the first write to the pages, which maps them.
        #[cfg(target_os = "linux")]
        if layout.size() >= HUGE {
            // SAFETY: the range is this allocation; the advice changes no contents. Failure
            // (no transparent huge pages) only leaves 4 KB pages.
            unsafe {
                libc::madvise(raw as *mut libc::c_void, layout.size(), libc::MADV_HUGEPAGE);
            }
        }
        // SAFETY: the allocation holds `layout.size()` bytes; all-zero bytes are a valid
        // bucket (atomic integers).
        unsafe { std::ptr::write_bytes(raw, 0, layout.size()) };
        Buckets { ptr, len }
    }

    fn layout(len: usize) -> std::alloc::Layout {
        let bytes = len * std::mem::size_of::<Bucket>();
        let align = if bytes >= HUGE {
            HUGE
        } else {
            std::mem::align_of::<Bucket>()
        };
        std::alloc::Layout::from_size_align(bytes, align).expect("table size")
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, Self::layout(self.len)) }
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` initialised buckets live at `ptr` until drop.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: as in `deref`, and `&mut self` is unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

// SAFETY: `Buckets` owns its memory like a `Box<[Bucket]>`, and buckets are atomics.
unsafe impl Send for Buckets {}
// SAFETY: as above: shared access only reads and writes atomics.
unsafe impl Sync for Buckets {}

/// The shared table.
pub struct Tt {
    buckets: Buckets,
    generation: AtomicU8,
}

fn pack(best: Pos, score: i32, depth: i32, bound: Bound, gen: u8) -> u64 {
    (best.0 as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((depth.clamp(-1, 254) as i16 as u8 as u64) << 32)
        | ((bound as u64) << 40)
        | ((gen as u64) << 48)
}

fn unpack(d: u64) -> (TtHit, u8) {
    let bound = match (d >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    (
        TtHit {
            best: Pos(d as u16),
            score: (d >> 16) as u16 as i16 as i32,
            depth: (d >> 32) as u8 as i8 as i32,
            bound,
        },
        (d >> 48) as u8,
    )
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let n = (mb.max(1) << 20) / std::mem::size_of::<Bucket>();
        Tt {
            buckets: Buckets::new(n.max(1)),
            generation: AtomicU8::new(0),
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            for i in 0..4 {
                *b.keys[i].get_mut() = 0;
                *b.data[i].get_mut() = 0;
            }
        }
    }

    /// Starts a new search (ages older entries).
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Starts loading the bucket of `key` into the cache, for a probe a little later (the
    /// table is far larger than the caches: a probe's load is the search's costliest miss).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::simd::prefetch(self.bucket(key));
    }

    /// Converts a score to the form stored at a node `ply` from the root.
    #[inline]
    pub fn to_tt(score: i32, ply: usize) -> i32 {
        if score >= MATE_BOUND {
            score + ply as i32
        } else if score <= -MATE_BOUND {
            score - ply as i32
        } else {
            score
        }
    }

    /// Converts a stored score back for a node `ply` from the root.
    #[inline]
    pub fn from_tt(score: i32, ply: usize) -> i32 {
        if score >= MATE_BOUND {
            score - ply as i32
        } else if score <= -MATE_BOUND {
            score + ply as i32
        } else {
            score
        }
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let b = self.bucket(key);
        for i in 0..4 {
            let d = b.data[i].load(Ordering::Relaxed);
            if b.keys[i].load(Ordering::Relaxed) ^ d == key && d != 0 {
                return Some(unpack(d).0);
            }
        }
        None
    }

    /// Stores an entry, keeping the most valuable four per bucket.
    #[inline]
    pub fn store(&self, key: u64, best: Pos, score: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let gen = self.generation.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for i in 0..4 {
            let d = b.data[i].load(Ordering::Relaxed);
            let k = b.keys[i].load(Ordering::Relaxed) ^ d;
            let (hit, g) = unpack(d);
            if k == key || d == 0 {
                // Same position: keep the old move when the new result has none, and keep a
                // deeper exact result over a shallow bound.
                if k == key && bound != Bound::Exact && hit.depth > depth + 2 {
                    return;
                }
                let best = if best.is_none() { hit.best } else { best };
                let nd = pack(best, score, depth, bound, gen);
                b.keys[i].store(key ^ nd, Ordering::Relaxed);
                b.data[i].store(nd, Ordering::Relaxed);
                return;
            }
            let age = gen.wrapping_sub(g) as i32;
            let value = hit.depth - 8 * age;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let nd = pack(best, score, depth, bound, gen);
        b.keys[victim].store(key ^ nd, Ordering::Relaxed);
        b.data[victim].store(nd, Ordering::Relaxed);
    }

    /// Permille of the first thousand buckets' entries written this search.
    pub fn hashfull(&self) -> usize {
        let gen = self.generation.load(Ordering::Relaxed);
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for i in 0..4 {
                let d = b.data[i].load(Ordering::Relaxed);
                if d != 0 && unpack(d).1 == gen {
                    used += 1;
                }
            }
        }
        used * 1000 / (4 * n).max(1)
    }
}
