//! The solver's table of proven VCF results.

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
#[derive(Default)]
pub(super) struct VcfTable {
    slots: Vec<u64>,
}

impl VcfTable {
    const TAG: u64 = !0xFFFF;

    /// Allocates the slots at a solver's first call, so that making a solver (every searcher
    /// has one) costs nothing until it solves.
    pub(super) fn ready(&mut self) {
        if self.slots.is_empty() {
            self.slots = vec![0; 1 << VCF_BITS];
        }
    }

    #[inline(always)]
    pub(super) fn slot(key: u64) -> usize {
        (key & ((1 << VCF_BITS) - 1)) as usize
    }

    #[inline(always)]
    pub(super) fn get(&self, key: u64) -> Option<Entry> {
        let w = *self.slots.get(Self::slot(key))?;
        (w != 0 && (w ^ key) & Self::TAG == 0).then_some(Entry {
            win: w & 1 << 8 != 0,
            depth: w as u8,
        })
    }

    #[inline(always)]
    pub(super) fn insert(&mut self, key: u64, e: Entry) {
        if let Some(w) = self.slots.get_mut(Self::slot(key)) {
            *w = (key & Self::TAG) | (e.win as u64) << 8 | e.depth as u64;
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

    pub(super) fn clear(&mut self) {
        self.slots.fill(0);
    }
}
