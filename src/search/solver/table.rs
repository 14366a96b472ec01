//! The solver's tables: proven VCF results, and the proof-number search's numbers.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[derive(Copy, Clone)]
pub(super) struct Entry {
    pub(super) win: bool,
    pub(super) depth: u8,
}

/// Bits of the VCF table's index: 2^16 words, 512 KB.
const VCF_BITS: u32 = 16;
/// Memory of the VCF table.
pub(super) const VCF_TABLE_BYTES: usize = 8 << VCF_BITS;

/// The VCF results: a direct-mapped table of words, each a key's upper 48 bits, the win
/// flag (bit 8) and the depth (low byte); a new result overwrites its slot. Nearly every
/// leaf of the search asks it, so it is sized to stay in the cache: the hash map it
/// replaced grew to millions of entries, and its misses cost more than the VCF moves did.
///
/// A clone is a handle on the same slots, so that the threads of one search share their
/// proven results ([`crate::search::Shared::vcf_table`]): each word is read and written
/// whole (relaxed atomics, plain loads and stores on x86), and a word holds its key's tag
/// beside its result, so a thread never reads a result under another position's key. A
/// result is a fact of the position (a win, or none within its depth), whichever thread
/// proved it.
#[derive(Default, Clone)]
pub struct VcfTable {
    slots: Arc<[AtomicU64]>,
}

impl VcfTable {
    const TAG: u64 = !0xFFFF;

    /// A table with its slots, to be shared by the threads of a search.
    pub fn allocated() -> VcfTable {
        let mut t = VcfTable::default();
        t.ready();
        t
    }

    /// Allocates the slots at a solver's first call, so that making a solver (every searcher
    /// has one) costs nothing until it solves.
    pub(super) fn ready(&mut self) {
        if self.slots.is_empty() {
            self.slots = (0..1usize << VCF_BITS).map(|_| AtomicU64::new(0)).collect();
        }
    }

    #[inline(always)]
    pub(super) fn slot(key: u64) -> usize {
        (key & ((1 << VCF_BITS) - 1)) as usize
    }

    #[inline(always)]
    pub(super) fn get(&self, key: u64) -> Option<Entry> {
        let w = self.slots.get(Self::slot(key))?.load(Ordering::Relaxed);
        (w != 0 && (w ^ key) & Self::TAG == 0).then_some(Entry {
            win: w & 1 << 8 != 0,
            depth: w as u8,
        })
    }

    #[inline(always)]
    pub(super) fn insert(&self, key: u64, e: Entry) {
        if let Some(w) = self.slots.get(Self::slot(key)) {
            w.store(
                (key & Self::TAG) | (e.win as u64) << 8 | e.depth as u64,
                Ordering::Relaxed,
            );
        }
    }

    /// Starts loading the slot of `key` into the cache, for a probe a little later: the
    /// table outgrows the core's share of the cache beside the transposition table, and its
    /// probe's load was the VCF node's costliest instruction.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        if let Some(w) = self.slots.get(Self::slot(key)) {
            crate::simd::prefetch(w);
        }
    }

    pub(super) fn clear(&self) {
        for w in self.slots.iter() {
            w.store(0, Ordering::Relaxed);
        }
    }
}

/// Bytes of one slot of the proof-number table.
pub(super) const PN_SLOT_BYTES: usize = 16;

/// A proof-number table entry: the node's numbers from the side to move's view (`phi` is
/// its proof number where the attacker moves, its disproof number where the defender does;
/// `delta` the other, below 2^31), and whether its own checks settled it (a leaf) rather
/// than its children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PnEntry {
    pub(super) phi: u32,
    pub(super) delta: u32,
    pub(super) leaf: bool,
}

/// The proof-number search's numbers: a direct-mapped table of two words a slot (the key,
/// salted by the call; the numbers and the leaf flag), a new entry overwriting its slot.
/// Each call salts its keys afresh, so that starting a call costs nothing where clearing
/// megabytes would cost more than a small solve; a lost entry only costs the search a
/// revisit.
#[derive(Default)]
pub(super) struct PnTable {
    slots: Vec<[u64; 2]>,
    salt: u64,
}

impl PnTable {
    /// Allocates `slots` slots (a power of two) unless it has them, and draws the call's
    /// salt.
    pub(super) fn start(&mut self, slots: usize) {
        debug_assert!(slots.is_power_of_two());
        if self.slots.len() != slots {
            self.slots = vec![[0; 2]; slots];
        }
        // An odd multiplier walks every 64-bit value before it repeats.
        self.salt = self.salt.wrapping_add(0x9E37_79B9_7F4A_7C15);
    }

    /// Whether the table holds its slots (a call of the proof-number search made them).
    pub(super) fn is_allocated(&self) -> bool {
        !self.slots.is_empty()
    }

    fn slot(&self, key: u64) -> usize {
        key as usize & self.slots.len().wrapping_sub(1)
    }

    pub(super) fn get(&self, key: u64) -> Option<PnEntry> {
        let [k, v] = *self.slots.get(self.slot(key))?;
        (k == key ^ self.salt && k != 0).then_some(PnEntry {
            phi: v as u32,
            delta: (v >> 32) as u32 & !(1 << 31),
            leaf: v >> 63 != 0,
        })
    }

    pub(super) fn insert(&mut self, key: u64, e: PnEntry) {
        let salted = key ^ self.salt;
        let i = self.slot(key);
        if let Some(s) = self.slots.get_mut(i) {
            *s = [
                salted,
                e.phi as u64 | (e.delta as u64) << 32 | (e.leaf as u64) << 63,
            ];
        }
    }
}
