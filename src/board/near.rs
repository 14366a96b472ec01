//! The candidate area: per cell, how many stones lie within the candidate neighbourhood,
//! kept by make and undo; a cell is a move candidate when it is empty and near a stone.

use super::{Board, EMPTY};
use crate::types::{Pos, CELLS, STRIDE};

/// Padding of the neighbour-count array: offsets up to three cells from any on-board cell
/// land inside it, so the update loop needs no bounds checks.
pub(super) const NEAR_BASE: usize = 3 * STRIDE + 3;

/// The neighbourhood that makes an empty cell a move candidate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Neighbourhood {
    /// Every cell within this Chebyshev distance of a stone.
    pub square: u8,
    /// Cells along the four lines of a stone up to this distance.
    pub line: u8,
}

impl Default for Neighbourhood {
    fn default() -> Self {
        Neighbourhood { square: 2, line: 3 }
    }
}

impl Neighbourhood {
    pub(super) fn row_masks(self) -> [u64; 7] {
        let mut rows = [0u64; 7];
        for o in self.offsets() {
            // o = dy * STRIDE + dx with |dx|, |dy| <= 3.
            let shifted = (o + NEAR_BASE as isize) as usize;
            rows[shifted / STRIDE] |= 1 << (8 * (shifted % STRIDE));
        }
        rows
    }

    pub(super) fn offsets(self) -> Vec<isize> {
        let r = self.square.min(3) as isize;
        let l = self.line.min(3) as isize;
        let mut v = Vec::new();
        for dy in -3isize..=3 {
            for dx in -3isize..=3 {
                if dx == 0 && dy == 0 {
                    continue;
                }
                let sq = dx.abs().max(dy.abs()) <= r;
                let on_line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                if sq || (on_line && dx.abs().max(dy.abs()) <= l) {
                    v.push(dy * STRIDE as isize + dx);
                }
            }
        }
        v
    }
}

impl Board {
    /// Is there a stone within the candidate neighbourhood of `p`?
    #[inline(always)]
    pub fn is_near(&self, p: Pos) -> bool {
        self.near[p.index() + NEAR_BASE] != 0
    }
    /// The candidate cells of row `y` (`y < size`): bit `x` set when `(x, y)` is empty and
    /// near a stone ([`Board::is_near`]). With AVX2 where the CPU has it
    /// (`simd::best`); [`Board::candidate_row_scalar`] is the definition.
    #[inline(always)]
    pub fn candidate_row(&self, y: usize) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::best() == crate::simd::Kernel::Avx2 && y < self.size {
            // SAFETY: the CPU has AVX2, and row y < size <= STRIDE lies inside both arrays.
            return unsafe { self.candidate_row_avx2(y) };
        }
        self.candidate_row_scalar(y)
    }
    /// [`Board::candidate_row`] a cell at a time.
    pub fn candidate_row_scalar(&self, y: usize) -> u32 {
        let mut m = 0;
        for x in 0..self.size.min(STRIDE) {
            let p = Pos::new(x, y);
            if self.is_empty(p) && self.is_near(p) {
                m |= 1 << x;
            }
        }
        m
    }
    /// [`Board::candidate_row`] as one 32-byte compare of the row's cells and `near` bytes
    /// (cells off the board hold `OFF`, never `EMPTY`).
    ///
    /// # Safety
    /// The CPU must have AVX2 ([`crate::simd::best`] says so), and `y` is below the size.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn candidate_row_avx2(&self, y: usize) -> u32 {
        use std::arch::x86_64::*;
        let at = y * STRIDE;
        debug_assert!(at + STRIDE <= CELLS && EMPTY == 0);
        // SAFETY: at + 32 <= CELLS bytes of `cells`, and of `near` from at + NEAR_BASE
        // (its length is CELLS + 2 * NEAR_BASE).
        let (cells, near) = unsafe {
            (
                _mm256_loadu_si256(self.cells.as_ptr().add(at) as *const __m256i),
                _mm256_loadu_si256(self.near.as_ptr().add(at + NEAR_BASE) as *const __m256i),
            )
        };
        let zero = _mm256_setzero_si256();
        let empty = _mm256_cmpeq_epi8(cells, zero);
        let far = _mm256_cmpeq_epi8(near, zero);
        _mm256_movemask_epi8(_mm256_andnot_si256(far, empty)) as u32
    }

    /// Counts (or uncounts) a stone on `c` in the `near` bytes of its neighbourhood, a row
    /// of eight bytes at a time: 7 word adds instead of 32 byte adds (no byte carries over,
    /// a count never passes the 32 offsets).
    #[inline(always)]
    pub(super) fn add_near(&mut self, c: usize, remove: bool) {
        for (r, &mask) in self.neigh_rows.iter().enumerate() {
            // Row r holds dy = r - 3; its first byte is dx = -3, at c + NEAR_BASE + (r-3) *
            // STRIDE - 3 >= c.
            let at = c + r * STRIDE;
            let bytes: &mut [u8; 8] = (&mut self.near[at..at + 8]).try_into().unwrap();
            let v = u64::from_le_bytes(*bytes);
            *bytes = if remove { v - mask } else { v + mask }.to_le_bytes();
        }
    }
}
