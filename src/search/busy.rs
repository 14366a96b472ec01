//! Which positions another thread is searching now, so that a thread can put off a move
//! whose child a helper is already on (deferred moves, after ABDADA): two threads searching
//! the same iteration in the same order would otherwise search the same subtrees side by
//! side.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bits of the busy table's index: 2^14 words, 128 KB.
const BUSY_BITS: u32 = 14;

/// A direct-mapped table of the hashes of the positions being searched. Empty (every
/// question answered no) for a search of one thread, which so searches exactly the tree it
/// did without it.
#[derive(Default)]
pub struct BusyTable {
    slots: Vec<AtomicU64>,
}

impl BusyTable {
    /// A table for a search of `threads` threads: slots only if there are several.
    pub fn for_threads(threads: usize) -> BusyTable {
        let slots = if threads > 1 {
            (0..1usize << BUSY_BITS)
                .map(|_| AtomicU64::new(0))
                .collect()
        } else {
            Vec::new()
        };
        BusyTable { slots }
    }

    /// Does the table keep anything (several threads)?
    #[inline(always)]
    pub fn active(&self) -> bool {
        !self.slots.is_empty()
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> Option<&AtomicU64> {
        self.slots.get((key >> (64 - BUSY_BITS)) as usize)
    }

    /// Is the position of hash `key` being searched (by this or another thread)?
    #[inline(always)]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key)
            .is_some_and(|w| w.load(Ordering::Relaxed) == key)
    }

    /// Marks the position of hash `key` as being searched.
    #[inline(always)]
    pub fn mark(&self, key: u64) {
        if let Some(w) = self.slot(key) {
            w.store(key, Ordering::Relaxed);
        }
    }

    /// Clears the mark of `key`, unless another position took its slot since.
    #[inline(always)]
    pub fn unmark(&self, key: u64) {
        if let Some(w) = self.slot(key) {
            let _ = w.compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mark is seen until it is cleared; a key that shares the slot replaces it, and the
    /// old key's clearing then leaves the new mark; one thread's table keeps nothing.
    #[test]
    fn marks_are_seen_until_cleared() {
        let t = BusyTable::for_threads(2);
        assert!(t.active());
        let (a, b) = (0xABCD_0000_0000_0001u64, 0xABCD_0000_0000_0002u64);
        assert!(!t.is_busy(a));
        t.mark(a);
        assert!(t.is_busy(a) && !t.is_busy(b));
        t.mark(b);
        assert!(t.is_busy(b) && !t.is_busy(a), "same slot: the newer mark");
        t.unmark(a);
        assert!(t.is_busy(b), "clearing a replaced mark leaves the new one");
        t.unmark(b);
        assert!(!t.is_busy(b));
        let one = BusyTable::for_threads(1);
        one.mark(a);
        assert!(!one.active() && !one.is_busy(a));
    }
}
