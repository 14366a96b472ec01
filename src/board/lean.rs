//! Lean moves for the four-only threat search under freestyle, standard and renju. Per side
//! and line the board keeps two slot masks computed from the line masks alone: the empty
//! cells that make a five, and the empty cells that may make a four (some five-cell window
//! through the cell holds three stones of the side and nothing of the other; where only
//! exactly five wins, standard and renju's black, with no stone of the side just outside it
//! either, since a five there would be an overline). A lean make moves only the stones, the
//! table keys, the hash and those masks: the cell patterns, classes and counts keep the
//! value they had before the first lean make, and are right again once every lean make is
//! undone. Normal makes only mark their lines stale, and [`Board::lean_begin`] refreshes
//! those. Renju black's forbidden points are read through the table keys
//! ([`Board::lean_is_forbidden`]), which lean makes keep.

use super::linekeys::{KEY_ADD, KEY_SUB};
use super::{Board, LeanSaved, EMPTY};
use crate::geometry::MARGIN;
use crate::simd::Kernel;
use crate::threat::{Threat, COMBINED};
use crate::types::{Color, Dir, Pos, Rule, CELLS};
use crate::zobrist;

/// The five and four masks of one side's line: `own` its stones, `blocked` the other side's
/// stones and the wall. Bit `MARGIN + i` stands for cell `i`, as in the line masks. `exact`
/// is all ones where only exactly five wins (standard, renju's black), zero where longer
/// runs win too (freestyle, renju's white).
#[inline(always)]
pub(crate) fn line_threats(own: u32, blocked: u32, exact: u32) -> (u32, u32) {
    let empty = !(own | blocked);
    // Window `t` covers bits t..t+4: clean when none of them is blocked and, where `exact`,
    // neither bit t-1 nor bit t+5 holds a stone of the side. The top five bits are always
    // wall, so the zeros the shifts bring in never make a clean window.
    let edge = own & exact;
    let dirty =
        blocked | blocked >> 1 | blocked >> 2 | blocked >> 3 | blocked >> 4 | edge << 1 | edge >> 5;
    // The own stones of window t as a bit-sliced sum: s2 + 2 * (c1 + c2).
    let (a0, a1, a2, a3, a4) = (own, own >> 1, own >> 2, own >> 3, own >> 4);
    let s1 = a0 ^ a1 ^ a2;
    let c1 = (a0 & a1) | (a2 & (a0 ^ a1));
    let s2 = s1 ^ a3 ^ a4;
    let c2 = (s1 & a3) | (a4 & (s1 ^ a3));
    let four = c1 & c2 & !dirty;
    let three = ((c1 & c2) | ((c1 | c2) & s2)) & !dirty;
    let spread = |w: u32| w | w << 1 | w << 2 | w << 3 | w << 4;
    (spread(four) & empty, spread(three) & empty)
}

impl Board {
    /// Does this board's rule allow lean moves? Every rule but caro's: there a five-cell
    /// window (where only exactly five wins, with the two cells just outside it) decides
    /// fives and fours alone; caro's blocked ends need more. Renju's forbidden points are
    /// asked of [`Board::lean_is_forbidden`].
    #[inline(always)]
    pub(crate) fn lean_rule(&self) -> bool {
        matches!(self.rule, Rule::Freestyle | Rule::Standard | Rule::Renju)
    }

    /// [`line_threats`]' `exact` for each side (black, white) under this board's rule: all
    /// ones where only exactly five wins.
    #[inline(always)]
    fn lean_exact(&self) -> [u32; 2] {
        match self.rule {
            Rule::Standard => [u32::MAX; 2],
            Rule::Renju => [u32::MAX, 0],
            _ => [0; 2],
        }
    }

    /// Brings the lean masks of every stale line up to date, before the first lean make.
    pub(crate) fn lean_begin(&mut self) {
        debug_assert!(self.lean_rule() && self.lean_saved.is_empty());
        for d in 0..4 {
            let mut stale = self.stale[d];
            while stale != 0 {
                let l = stale.trailing_zeros() as usize;
                stale &= stale - 1;
                self.refresh_lean_line(d, l);
            }
            self.stale[d] = 0;
        }
    }

    /// Ends a run of lean moves (all of them undone): debug builds recheck the whole board.
    pub(crate) fn lean_end(&mut self) {
        debug_assert!(self.lean_saved.is_empty(), "lean moves left on the board");
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Recomputes both sides' lean masks of line `l` along `d`.
    #[inline(always)]
    pub(super) fn refresh_lean_line(&mut self, d: usize, l: usize) {
        let wall = self.geo.wall[d][l];
        let (b, w) = (self.lines[0][d][l], self.lines[1][d][l]);
        let exact = self.lean_exact();
        for (s, own, opp) in [(0, b, w), (1, w, b)] {
            let (five, four) = line_threats(own, opp | wall, exact[s]);
            self.set_lean_masks(s, d, l, five, four);
        }
    }

    /// Sets side `s`'s lean masks of line `l` along `d`, and the line's bit in its line sets.
    #[inline(always)]
    fn set_lean_masks(&mut self, s: usize, d: usize, l: usize, five: u32, four: u32) {
        let bit = 1u64 << l;
        self.five_mask[s][d][l] = five;
        self.four_mask[s][d][l] = four;
        let (fl, ol) = (&mut self.five_lines[s][d], &mut self.four_lines[s][d]);
        *fl = if five != 0 { *fl | bit } else { *fl & !bit };
        *ol = if four != 0 { *ol | bit } else { *ol & !bit };
    }

    /// A lean make of `p` for the side to move (see the module notes): stones, keys, hash,
    /// move list and lean masks only.
    pub(crate) fn lean_make(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p), "lean make on a non-empty point {p}");
        let s = self.to_move;
        let c = p.index();
        self.cells[c] = s as u8 + 1;
        let z = zobrist::keys();
        self.hash ^= z.stone[s.index()][c] ^ z.side;
        let mut saved = LeanSaved {
            masks: [[(0, 0); 2]; 4],
        };
        // The eight lines' masks (four directions, two sides) in one kernel call: lane
        // 2d + side holds that side's line along d.
        let (mut own, mut blocked, mut ls) = ([0u32; 8], [0u32; 8], [0usize; 4]);
        for d in 0..4 {
            let l = self.geo.line[d][c] as usize;
            let i = self.geo.idx[d][c] as usize;
            ls[d] = l;
            for side in 0..2 {
                saved.masks[d][side] = (self.five_mask[side][d][l], self.four_mask[side][d][l]);
            }
            self.lines[s.index()][d][l] |= 1 << (i as u32 + MARGIN);
            self.add_key_digits(d, l, i, &KEY_ADD[s.index()]);
            let wall = self.geo.wall[d][l];
            let (b, w) = (self.lines[0][d][l], self.lines[1][d][l]);
            (own[2 * d], blocked[2 * d]) = (b, w | wall);
            (own[2 * d + 1], blocked[2 * d + 1]) = (w, b | wall);
        }
        let (five, four) = line_threats_x8(&own, &blocked, self.lean_exact());
        for (d, &l) in ls.iter().enumerate() {
            for side in 0..2 {
                self.set_lean_masks(side, d, l, five[2 * d + side], four[2 * d + side]);
            }
        }
        self.lean_saved.push(saved);
        self.moves.push(p);
        self.stones += 1;
        self.to_move = !s;
    }

    /// Takes back the last lean make: the stone, keys and hash by reversing the make, the
    /// lean masks and their line-set bits from what the make saved.
    pub(crate) fn lean_undo(&mut self) {
        let p = self.moves.pop().unwrap_or(Pos::NONE);
        let c = p.index() & (CELLS - 1);
        let s = !self.to_move;
        self.to_move = s;
        self.cells[c] = EMPTY;
        let z = zobrist::keys();
        self.hash ^= z.stone[s.index()][c] ^ z.side;
        let saved = self
            .lean_saved
            .pop()
            .expect("lean undo without a lean make");
        for d in 0..4 {
            let l = self.geo.line[d][c] as usize;
            let i = self.geo.idx[d][c] as usize;
            self.lines[s.index()][d][l] &= !(1 << (i as u32 + MARGIN));
            self.add_key_digits(d, l, i, &KEY_SUB[s.index()]);
            for side in 0..2 {
                self.set_lean_masks(side, d, l, saved.masks[d][side].0, saved.masks[d][side].1);
            }
        }
        self.stones -= 1;
    }

    /// The cell at `slot` (bit of the line mask) of line `l` along `d`.
    #[inline(always)]
    fn slot_cell(&self, d: usize, l: usize, slot: u32) -> Pos {
        let start = self.geo.start[d][l].0 as isize;
        Pos((start + (slot - MARGIN) as isize * Dir::ALL[d].delta()) as u16)
    }

    /// Calls `f` on every cell of `side`'s masks of one kind (`fives` or the four masks),
    /// once per line that holds it.
    #[inline(always)]
    fn each_mask_cell(&self, side: Color, fives: bool, mut f: impl FnMut(Pos) -> bool) {
        let (masks, lines) = if fives {
            (
                &self.five_mask[side.index()],
                &self.five_lines[side.index()],
            )
        } else {
            (
                &self.four_mask[side.index()],
                &self.four_lines[side.index()],
            )
        };
        for d in 0..4 {
            let mut ls = lines[d];
            while ls != 0 {
                let l = ls.trailing_zeros() as usize;
                ls &= ls - 1;
                let mut m = masks[d][l];
                while m != 0 {
                    let slot = m.trailing_zeros();
                    m &= m - 1;
                    if !f(self.slot_cell(d, l, slot)) {
                        return;
                    }
                }
            }
        }
    }

    /// In lean mode: has `side` a five point?
    #[inline(always)]
    pub(crate) fn lean_has_five(&self, side: Color) -> bool {
        self.five_lines[side.index()].iter().any(|&m| m != 0)
    }

    /// In lean mode: how many distinct five points `side` has (counting stops at two), and
    /// the first two found.
    pub(crate) fn lean_fives(&self, side: Color) -> (u32, Pos, Pos) {
        let (mut n, mut first, mut second) = (0, Pos::NONE, Pos::NONE);
        self.each_mask_cell(side, true, |p| {
            if n == 0 {
                (n, first) = (1, p);
            } else if p != first {
                (n, second) = (2, p);
            }
            n < 2
        });
        (n, first, second)
    }

    /// In lean mode: every distinct cell that may make a four for `side` (a superset of the
    /// cells of class [`Threat::Block4`] and up; five points included).
    pub(crate) fn lean_four_cells(&self, side: Color, mut f: impl FnMut(Pos)) {
        let mut seen = [0u64; CELLS / 64];
        self.each_mask_cell(side, false, |p| {
            let (w, b) = (p.index() / 64 % (CELLS / 64), p.index() % 64);
            if seen[w] & 1 << b == 0 {
                seen[w] |= 1 << b;
                f(p);
            }
            true
        });
    }

    /// In lean mode: both sides' packed line patterns and classes of the empty cell `p`,
    /// read through its table keys (which lean makes keep).
    pub(crate) fn lean_cell(&self, p: Pos) -> ([u16; 2], [Threat; 2]) {
        let c = p.index();
        let mut packed = [0u16; 2];
        for d in 0..4 {
            let l = self.geo.line[d][c] as usize;
            let slot = self.geo.idx[d][c] as usize + MARGIN as usize;
            let [pb, pw] = self.key_patterns(self.keys[d][l][slot]);
            packed[0] |= (pb as u16) << (4 * d);
            packed[1] |= (pw as u16) << (4 * d);
        }
        debug_assert_eq!(
            packed,
            self.cell_patterns_from_cells(p),
            "lean patterns of {p}"
        );
        let t = [
            COMBINED[self.forbid_black()][packed[0] as usize],
            COMBINED[0][packed[1] as usize],
        ];
        (packed, t)
    }
}

/// The line masks of eight lines at once (`own[k]`, `blocked[k]`): the five
/// masks and the four masks, for a lean make's four directions and two sides (lane `2d +
/// side`). `exact[side]`: all ones where a run longer than five does not win for that side
/// (standard, renju's black), else zero. With the best kernel.
#[inline(always)]
pub fn line_threats_x8(
    own: &[u32; 8],
    blocked: &[u32; 8],
    exact: [u32; 2],
) -> ([u32; 8], [u32; 8]) {
    line_threats_x8_with(crate::simd::best(), own, blocked, exact)
}

/// [`line_threats_x8`] with the given kernel.
#[inline(always)]
pub fn line_threats_x8_with(
    kernel: Kernel,
    own: &[u32; 8],
    blocked: &[u32; 8],
    exact: [u32; 2],
) -> ([u32; 8], [u32; 8]) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Avx2` is only returned by `best()` when the CPU has AVX2 (callers that
        // force it in tests check `best()` first).
        Kernel::Avx2 => unsafe { avx2::line_threats_x8(own, blocked, exact) },
        _ => line_threats_x8_scalar(own, blocked, exact),
    }
}

/// [`line_threats_x8`] one line at a time: the definition the vector path must equal.
#[inline(always)]
pub fn line_threats_x8_scalar(
    own: &[u32; 8],
    blocked: &[u32; 8],
    exact: [u32; 2],
) -> ([u32; 8], [u32; 8]) {
    let (mut five, mut four) = ([0; 8], [0; 8]);
    for k in 0..8 {
        (five[k], four[k]) = line_threats(own[k], blocked[k], exact[k % 2]);
    }
    (five, four)
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// [`crate::board::line_threats`] on eight 32-bit lanes, step for step.
    ///
    /// # Safety
    /// The CPU must have AVX2 ([`crate::simd::best`] says so).
    #[target_feature(enable = "avx2")]
    pub unsafe fn line_threats_x8(
        own: &[u32; 8],
        blocked: &[u32; 8],
        exact: [u32; 2],
    ) -> ([u32; 8], [u32; 8]) {
        let (o, b) = (
            _mm256_loadu_si256(own.as_ptr() as *const __m256i),
            _mm256_loadu_si256(blocked.as_ptr() as *const __m256i),
        );
        let (or, and, xor) = (_mm256_or_si256, _mm256_and_si256, _mm256_xor_si256);
        // andnot(a, b) = !a & b
        let andnot = _mm256_andnot_si256;
        let empty = andnot(or(o, b), _mm256_set1_epi32(-1));
        let (eb, ew) = (exact[0] as i32, exact[1] as i32);
        let edge = and(o, _mm256_setr_epi32(eb, ew, eb, ew, eb, ew, eb, ew));
        let dirty = or(
            or(
                or(b, _mm256_srli_epi32::<1>(b)),
                or(
                    or(_mm256_srli_epi32::<2>(b), _mm256_srli_epi32::<3>(b)),
                    _mm256_srli_epi32::<4>(b),
                ),
            ),
            or(_mm256_slli_epi32::<1>(edge), _mm256_srli_epi32::<5>(edge)),
        );
        let (a0, a1, a2, a3, a4) = (
            o,
            _mm256_srli_epi32::<1>(o),
            _mm256_srli_epi32::<2>(o),
            _mm256_srli_epi32::<3>(o),
            _mm256_srli_epi32::<4>(o),
        );
        let s1 = xor(xor(a0, a1), a2);
        let c1 = or(and(a0, a1), and(a2, xor(a0, a1)));
        let s2 = xor(xor(s1, a3), a4);
        let c2 = or(and(s1, a3), and(a4, xor(s1, a3)));
        let c12 = and(c1, c2);
        let four = andnot(dirty, c12);
        let three = andnot(dirty, or(c12, and(or(c1, c2), s2)));
        let spread = |w: __m256i| {
            or(
                or(w, _mm256_slli_epi32::<1>(w)),
                or(
                    or(_mm256_slli_epi32::<2>(w), _mm256_slli_epi32::<3>(w)),
                    _mm256_slli_epi32::<4>(w),
                ),
            )
        };
        let (mut five_out, mut four_out) = ([0u32; 8], [0u32; 8]);
        _mm256_storeu_si256(
            five_out.as_mut_ptr() as *mut __m256i,
            and(spread(four), empty),
        );
        _mm256_storeu_si256(
            four_out.as_mut_ptr() as *mut __m256i,
            and(spread(three), empty),
        );
        (five_out, four_out)
    }
}
