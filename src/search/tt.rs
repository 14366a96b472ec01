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
    /// The best move found (`Pos::NONE` if none).
    pub best: Pos,
    /// The score, in the table's form ([`Tt::from_tt`] converts it for a ply).
    pub score: i32,
    /// The depth it was searched to, in plies.
    pub depth: i32,
    /// What the score means.
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

/// The buckets: zeroed memory; on Linux a large table is an anonymous mapping aligned to
/// 2 MB and advised to be backed by huge pages ([`Buckets::mapped`]).
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    /// Linux, tables of a huge page or more: the anonymous mapping the buckets lie in (its
    /// start and length), unmapped on drop.
    #[cfg(target_os = "linux")]
    map: Option<(*mut libc::c_void, usize)>,
}

/// Alignment (and granule) of large bucket memory: one huge page.
const HUGE: usize = 2 << 20;

impl Buckets {
    fn new(len: usize) -> Buckets {
        #[cfg(target_os = "linux")]
        if let Some(b) = Self::mapped(len) {
            return b;
        }
        let layout = Self::layout(len);
        // SAFETY: the layout has a nonzero size (at least one bucket).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let Some(ptr) = std::ptr::NonNull::new(raw as *mut Bucket) else {
            std::alloc::handle_alloc_error(layout)
        };
        // All-zero bytes are a valid bucket (atomic integers).
        Buckets {
            ptr,
            len,
            #[cfg(target_os = "linux")]
            map: None,
        }
    }

    /// A table of a huge page or more in an anonymous mapping, aligned to a huge page and
    /// advised to be backed by huge pages (a probe is a random access into tens of
    /// megabytes: with 4 KB pages nearly every probe would also miss the TLB). Its pages are
    /// zero and mapped only when first touched: no search waits for a 64 MB memset (tens of
    /// milliseconds of a first move), and pages never touched cost no memory.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize) -> Option<Buckets> {
        let bytes = len * std::mem::size_of::<Bucket>();
        if bytes < HUGE {
            return None;
        }
        let map_len = bytes + HUGE;
        // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            std::alloc::handle_alloc_error(Self::layout(len));
        }
        let aligned = (raw as usize + HUGE - 1) & !(HUGE - 1);
        // SAFETY: [aligned, aligned + bytes) lies inside the mapping; the advice changes no
        // contents, and its failure (no transparent huge pages) only leaves 4 KB pages.
        unsafe { libc::madvise(aligned as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) };
        Some(Buckets {
            ptr: std::ptr::NonNull::new(aligned as *mut Bucket)?,
            len,
            map: Some((raw, map_len)),
        })
    }

    fn layout(len: usize) -> std::alloc::Layout {
        let bytes = len * std::mem::size_of::<Bucket>();
        std::alloc::Layout::from_size_align(bytes, std::mem::align_of::<Bucket>())
            .expect("table size")
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some((raw, map_len)) = self.map {
            // SAFETY: the mapping made in `mapped`, unmapped once.
            unsafe { libc::munmap(raw, map_len) };
            return;
        }
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
        // A signed byte: `unpack` reads it back as one.
        | ((depth.clamp(-1, i8::MAX as i32) as i8 as u8 as u64) << 32)
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

    /// A table of about `mb` megabytes, as [`Tt::new`], with every page mapped in now (a
    /// store of zero to each): the searches that follow fault in none. A fresh table's
    /// pages are otherwise mapped by the probes of its first search, which at 64 MB took
    /// 90 to 210 ms of a brain's first move (the kernel's huge-page compaction on each
    /// fault).
    pub fn new_mapped(mb: usize) -> Tt {
        let mut tt = Tt::new(mb);
        const PAGE: usize = 4096;
        let stride = (PAGE / std::mem::size_of::<Bucket>()).max(1);
        for b in tt.buckets.iter_mut().step_by(stride) {
            // Volatile: the store must reach memory, though it writes the zero a fresh
            // page holds (an atomic `fetch_or(0)` was compiled to a load, which maps the
            // shared zero page and leaves the write fault to the search).
            // SAFETY: a valid, aligned pointer to a key of a bucket this function owns.
            unsafe { std::ptr::write_volatile(b.keys[0].as_ptr(), 0) };
        }
        tt
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys `base + i` share a bucket (the index comes from the key's high bits).
    const BASE: u64 = 0x9E37_79B9_0000_0000;

    #[test]
    fn an_entry_packs_and_unpacks_unchanged() {
        for best in [Pos(0), Pos(224), Pos(511), Pos::NONE] {
            for score in [
                -30_000,
                -MATE_BOUND,
                -1,
                0,
                1,
                12_345,
                MATE_BOUND + 7,
                32_000,
            ] {
                for depth in [-1, 0, 1, 60, 127] {
                    for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
                        let (hit, gen) = unpack(pack(best, score, depth, bound, 201));
                        assert_eq!(
                            (hit.best, hit.score, hit.depth, hit.bound, gen),
                            (best, score, depth, bound, 201)
                        );
                    }
                }
            }
        }
        // Depths beyond the signed byte are clamped, not wrapped (254 read back as -2 before).
        assert_eq!(unpack(pack(Pos(3), 0, 200, Bound::Exact, 0)).0.depth, 127);
        assert_eq!(unpack(pack(Pos(3), 0, -5, Bound::Exact, 0)).0.depth, -1);
    }

    #[test]
    fn a_stored_position_is_found_and_no_other() {
        let tt = Tt::new(1);
        tt.store(BASE + 1, Pos(40), -250, 7, Bound::Lower);
        let hit = tt.probe(BASE + 1).expect("stored");
        assert_eq!(
            (hit.best, hit.score, hit.depth, hit.bound),
            (Pos(40), -250, 7, Bound::Lower)
        );
        assert!(tt.probe(BASE + 2).is_none(), "same bucket, other key");
        assert!(tt.probe(!BASE).is_none(), "other bucket");
    }

    #[test]
    fn mate_scores_keep_their_distance_from_the_node() {
        // A win five plies below a node at ply p, stored there and read at ply q, is still a
        // win five plies below the node.
        for (p, q) in [(7usize, 3usize), (3, 7), (0, 12), (12, 0)] {
            let s = 30_000 - (p as i32 + 5);
            assert_eq!(Tt::from_tt(Tt::to_tt(s, p), q), 30_000 - (q as i32 + 5));
            assert_eq!(Tt::from_tt(Tt::to_tt(-s, p), q), -(30_000 - (q as i32 + 5)));
        }
        // Other scores are stored as they are.
        for s in [-MATE_BOUND + 1, -400, 0, 999, MATE_BOUND - 1] {
            assert_eq!(Tt::to_tt(s, 9), s);
            assert_eq!(Tt::from_tt(s, 9), s);
        }
        // Through the table: stored at ply 7, read at ply 3, four plies nearer the root.
        let win_at_7 = 30_000 - (7 + 5);
        let tt = Tt::new(1);
        tt.store(BASE, Pos(5), Tt::to_tt(win_at_7, 7), 4, Bound::Exact);
        let hit = tt.probe(BASE).unwrap();
        assert_eq!(Tt::from_tt(hit.score, 3), win_at_7 + 4);
    }

    #[test]
    fn a_full_bucket_replaces_its_shallowest_entry() {
        let tt = Tt::new(1);
        let bucket = |k: u64| tt.bucket(k) as *const Bucket;
        assert!((1..=5).all(|i| bucket(BASE + i) == bucket(BASE)));
        for (i, depth) in [(1, 5), (2, 2), (3, 8), (4, 6)] {
            tt.store(BASE + i, Pos(i as u16), 0, depth, Bound::Exact);
        }
        tt.store(BASE + 5, Pos(5), 0, 4, Bound::Exact);
        assert!(tt.probe(BASE + 2).is_none(), "the depth-2 entry went");
        for i in [1, 3, 4, 5] {
            assert_eq!(tt.probe(BASE + i).unwrap().best, Pos(i as u16));
        }
    }

    #[test]
    fn entries_of_older_searches_go_first() {
        let tt = Tt::new(1);
        tt.store(BASE + 1, Pos(1), 0, 10, Bound::Exact);
        tt.new_search();
        for i in 2..=4 {
            tt.store(BASE + i, Pos(i as u16), 0, 4, Bound::Exact);
        }
        // Depth 10 one search old counts as 2, below this search's depth 4.
        tt.store(BASE + 5, Pos(5), 0, 1, Bound::Exact);
        assert!(tt.probe(BASE + 1).is_none());
        assert!((2..=5).all(|i| tt.probe(BASE + i).is_some()));
    }

    #[test]
    fn a_shallow_bound_keeps_a_deeper_result_of_the_same_position() {
        let tt = Tt::new(1);
        tt.store(BASE, Pos(9), 100, 10, Bound::Exact);
        tt.store(BASE, Pos(8), 300, 5, Bound::Lower);
        let hit = tt.probe(BASE).unwrap();
        assert_eq!((hit.best, hit.score, hit.depth), (Pos(9), 100, 10));
        // Within two plies, or exact, the newer result replaces it.
        tt.store(BASE, Pos(8), 300, 8, Bound::Lower);
        assert_eq!(tt.probe(BASE).unwrap().depth, 8);
        tt.store(BASE, Pos(7), -20, 2, Bound::Exact);
        let hit = tt.probe(BASE).unwrap();
        assert_eq!((hit.best, hit.score, hit.depth), (Pos(7), -20, 2));
    }

    #[test]
    fn a_result_without_a_move_keeps_the_stored_move() {
        let tt = Tt::new(1);
        tt.store(BASE, Pos(17), 50, 3, Bound::Lower);
        tt.store(BASE, Pos::NONE, -60, 4, Bound::Upper);
        let hit = tt.probe(BASE).unwrap();
        assert_eq!(
            (hit.best, hit.score, hit.bound),
            (Pos(17), -60, Bound::Upper)
        );
    }

    #[test]
    fn size_follows_the_memory_budget_and_clear_forgets() {
        assert_eq!(Tt::new(4).bytes(), 4 << 20);
        assert_eq!(Tt::new(0).bytes(), 1 << 20, "at least a megabyte");
        let mut tt = Tt::new(1);
        tt.store(BASE, Pos(1), 0, 1, Bound::Exact);
        tt.clear();
        assert!(tt.probe(BASE).is_none());
    }

    #[test]
    fn a_mapped_table_starts_empty_and_works() {
        // 4 MB: a mapped table of two huge pages.
        let tt = Tt::new_mapped(4);
        assert_eq!(tt.bytes(), 4 << 20);
        for j in 0..64u64 {
            assert!(tt.probe(j << 52).is_none(), "a fresh table is empty");
            tt.store(j << 52, Pos(j as u16), j as i32, 3, Bound::Exact);
        }
        for j in 0..64u64 {
            let hit = tt.probe(j << 52).expect("stored");
            assert_eq!((hit.best, hit.score), (Pos(j as u16), j as i32));
        }
    }

    #[test]
    fn hashfull_counts_this_search_s_entries() {
        let tt = Tt::new(1);
        // One entry in each of the first ten buckets (of 16,384: bucket j starts at j << 50).
        for j in 0..10u64 {
            assert_eq!(
                tt.bucket(j << 50) as *const Bucket,
                &tt.buckets[j as usize] as *const _
            );
            tt.store(j << 50, Pos(1), 0, 1, Bound::Exact);
        }
        assert_eq!(tt.hashfull(), 10);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
