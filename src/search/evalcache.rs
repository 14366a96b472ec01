//! A searcher's cache of the learned evaluation: the net's score of positions the search
//! has evaluated, by their hash, so that a position reached again (a transposition, or the
//! same leaf under another window) is not evaluated again.
//!
//! The net's value is a function of the board alone (the stones and the side to move,
//! both in the hash), so a hit returns the score a fresh evaluation gives and the search
//! walks the same tree: a pure speed-up. Each thread keeps its own: no sharing, no locks.

use crate::eval::net::MAX_NET_SCORE;

/// Entries of a cache, a power of two: 8 bytes each, 128 kilobytes in all. A larger cache
/// keeps more of a search's repeated positions (docs/architecture.md gives the figures),
/// but this size stays inside the memory the brain budgets a search thread
/// (`protocol::session::memory`).
pub const EVAL_CACHE_ENTRIES: usize = 1 << 14;

/// The bits of an entry below its key check: the score as a 16-bit two's complement.
const SCORE_BITS: u32 = 16;
const _: () = assert!(MAX_NET_SCORE <= i16::MAX as i32);

/// Scores of positions by hash, one slot per index, the newest kept. An entry is the
/// position's hash with its low [`SCORE_BITS`] replaced by the score: with the slot's index
/// (the hash's low bits) that leaves 62 bits of the hash checked, so a hit on another
/// position is as rare as a collision of the transposition table's key.
pub struct EvalCache {
    entries: Box<[u64]>,
}

/// The mask of an entry's key check.
const CHECK: u64 = !((1 << SCORE_BITS) - 1);

impl EvalCache {
    /// An empty cache of [`EVAL_CACHE_ENTRIES`] (an empty slot holds a check no position
    /// is likely to have, all ones).
    pub fn new() -> EvalCache {
        EvalCache {
            entries: vec![u64::MAX; EVAL_CACHE_ENTRIES].into_boxed_slice(),
        }
    }

    /// The slot of `key`.
    #[inline(always)]
    fn slot(key: u64) -> usize {
        key as usize & (EVAL_CACHE_ENTRIES - 1)
    }

    /// The score kept for the position of hash `key`, if there is one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<i32> {
        let e = self.entries[Self::slot(key)];
        ((e ^ key) & CHECK == 0).then_some(e as u16 as i16 as i32)
    }

    /// Keeps `score` (within [`MAX_NET_SCORE`]) for the position of hash `key`, replacing
    /// the slot's entry.
    #[inline]
    pub fn store(&mut self, key: u64, score: i32) {
        debug_assert!(score.abs() <= MAX_NET_SCORE);
        self.entries[Self::slot(key)] = key & CHECK | score as i16 as u16 as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored score (negative, zero or the largest) is found under its key, not under
    /// another key of the same slot, and a later store to the slot replaces it; an empty
    /// cache finds nothing, for key zero either.
    #[test]
    fn keeps_the_newest_score_per_slot() {
        let mut c = EvalCache::new();
        assert_eq!(c.probe(0), None);
        let (a, b) = (
            0x1234_5678_9abc_def0u64,
            0x1234_5678_9abc_def0u64 ^ (1 << 40),
        );
        assert_eq!(EvalCache::slot(a), EvalCache::slot(b));
        c.store(a, -37);
        assert_eq!(c.probe(a), Some(-37));
        assert_eq!(c.probe(b), None);
        c.store(b, MAX_NET_SCORE);
        assert_eq!((c.probe(a), c.probe(b)), (None, Some(MAX_NET_SCORE)));
        c.store(0, 0);
        assert_eq!(c.probe(0), Some(0));
        c.store(u64::MAX, -MAX_NET_SCORE);
        assert_eq!(c.probe(u64::MAX), Some(-MAX_NET_SCORE));
    }
}
