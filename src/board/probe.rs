//! What a move would leave, without making it. Most search nodes end in their first steps,
//! which read only the class and pattern counts and the hash of the position; a make and
//! undo writes and restores per-cell state those steps never read.

use super::linekeys::KEY_ADD;
use super::Board;
use crate::pattern::WINDOW;
use crate::threat::{Threat, COMBINED};
use crate::types::{Color, Dir, Pos, Rule, CELLS};

/// Weights of a linear function of the class and pattern counts, per colour (black first),
/// indexed by class and by pattern discriminant: what [`Board::after`] sums the change of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CountWeights {
    /// Per colour, the weight of one empty cell of each threat class.
    pub class: [[i32; 16]; 2],
    /// Per colour, the weight of one line pattern of one empty cell.
    pub pattern: [[i32; 16]; 2],
}

/// What [`Board::after`] tells of a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct After {
    /// The change of the weighted sum of the counts ([`CountWeights`]) the move makes.
    pub change: i32,
    /// Per colour after the move: cells of class five, of class straight four, and of
    /// class four or better.
    pub fives: [u16; 2],
    /// See `fives`.
    pub flex4: [u16; 2],
    /// See `fives`.
    pub fours: [u16; 2],
}

/// Three counts packed in one word, 16 bits apart (five, straight four, four or better), so
/// one add moves all three; the packed sum is exact as long as every final count is.
const fn tally(t: usize) -> u64 {
    (t == Threat::Five as usize) as u64
        | ((t == Threat::Flex4 as usize) as u64) << 16
        | ((t >= Threat::Block4 as usize) as u64) << 32
}

const TALLY: [u64; 16] = {
    let mut v = [0u64; 16];
    let mut t = 0;
    while t < 16 {
        v[t] = tally(t);
        t += 1;
    }
    v
};

impl Board {
    /// Can [`Board::after`] tell a move? Not under caro, whose patterns read beyond the
    /// table keys.
    #[inline(always)]
    pub fn has_after(&self) -> bool {
        !self.caro
    }

    /// The hash ([`Board::hash`]) that making the empty cell `p` for the side to move would
    /// leave.
    #[inline(always)]
    pub fn hash_after(&self, p: Pos) -> u64 {
        let z = crate::zobrist::keys();
        self.hash ^ z.stone[self.to_move.index()][p.index()] ^ z.side
    }

    /// Making the empty cell `p` for the side to move, without making it: the change of the
    /// weighted counts `w`, and the counts of the classes that decide a position. Only where
    /// [`Board::has_after`]. With AVX2 where the CPU has it (`simd::best`);
    /// [`Board::after_scalar`] is the definition.
    #[inline]
    pub fn after(&self, p: Pos, w: &CountWeights) -> After {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::best() == crate::simd::Kernel::Avx2 {
            // SAFETY: the CPU has AVX2.
            return unsafe { self.after_avx2(p, w) };
        }
        self.after_scalar(p, w)
    }

    /// [`Board::after`] without SIMD.
    pub fn after_scalar(&self, p: Pos, w: &CountWeights) -> After {
        let (mut change, mut tallies) = self.after_start(p, w);
        self.each_change(p, |shift, old, new, was, now| {
            weigh(w, shift, old, new, was, now, &mut change, &mut tallies);
        });
        finish(change, tallies)
    }

    /// The start of [`Board::after`]: the stone's cell leaves the weighted sum and the
    /// tallies of the current counts.
    #[inline(always)]
    fn after_start(&self, p: Pos, w: &CountWeights) -> (i32, [u64; 2]) {
        let c = p.index() & (CELLS - 1);
        let mut tallies = [0u64; 2];
        let mut change = 0;
        for side in 0..2 {
            let colour = Color::ALL[side];
            tallies[side] = self.count(colour, Threat::Five) as u64
                | (self.count(colour, Threat::Flex4) as u64) << 16
                | (self.count_at_least(colour, Threat::Block4) as u64) << 32;
            let t = self.threat[c][side] as usize & 15;
            tallies[side] = tallies[side].wrapping_sub(TALLY[t]);
            change -= w.class[side][t];
            for d in 0..4 {
                change -= w.pattern[side][((self.pat[c][side] >> (4 * d)) & 15) as usize];
            }
        }
        (change, tallies)
    }

    /// [`Board::after`] with AVX2: per direction the eight cells within four of the stone in
    /// eight lanes (gathered keys, patterns and classes; weights looked up in registers), the
    /// cells five away (which only rules other than freestyle re-grade) one at a time.
    ///
    /// # Safety
    /// The CPU must have AVX2 ([`crate::simd::best`] says so); `p` is an empty on-board cell.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn after_avx2(&self, p: Pos, w: &CountWeights) -> After {
        use std::arch::x86_64::*;
        debug_assert!(self.has_after() && self.is_empty(p));
        let (mut change, mut tallies) = self.after_start(p, w);
        let c = p.index() & (CELLS - 1);
        let s = self.to_move.index();
        let forbid = self.forbid_black() & 1;
        let far = if self.rule == Rule::Freestyle {
            0
        } else {
            1 | 1 << 10
        };
        let mut add = [0u32; 16];
        add[..11].copy_from_slice(&KEY_ADD[s]);
        // SAFETY (every load and gather below): the vector loads read 8 words of 16- and
        // 32-word arrays from index 0 or 8, and 8 words of a line's 32 keys from i + 1 and
        // i + 2 (i <= 21). Gathers read only lanes of on-board cells (the `valid` and
        // `changed` masks): patterns and classes of cells q within four of the stone; table
        // entries at keys below KEYS3 (4 bytes: the tables have TABLE_PAD bytes after their
        // last key) and combined classes at packed patterns of nibbles up to 11 (below
        // 0xC000, 4 bytes inside the 65536 of the row).
        unsafe {
            let ld = |t: &[i32; 16]| {
                let q = t.as_ptr() as *const __m256i;
                (_mm256_loadu_si256(q), _mm256_loadu_si256(q.add(1)))
            };
            let lut = |(lo, hi): (__m256i, __m256i), idx: __m256i| {
                let (a, b) = (
                    _mm256_permutevar8x32_epi32(lo, idx),
                    _mm256_permutevar8x32_epi32(hi, idx),
                );
                let upper = _mm256_castsi256_ps(_mm256_slli_epi32::<28>(idx));
                _mm256_castps_si256(_mm256_blendv_ps(
                    _mm256_castsi256_ps(a),
                    _mm256_castsi256_ps(b),
                    upper,
                ))
            };
            let (pat_b, pat_w) = (ld(&w.pattern[0]), ld(&w.pattern[1]));
            let (cls_b, cls_w) = (ld(&w.class[0]), ld(&w.class[1]));
            let tly = ld(&TALLY32);
            let kv = _mm256_setr_epi32(1, 2, 3, 4, 6, 7, 8, 9);
            let add8 = _mm256_setr_epi32(
                add[1] as i32,
                add[2] as i32,
                add[3] as i32,
                add[4] as i32,
                add[6] as i32,
                add[7] as i32,
                add[8] as i32,
                add[9] as i32,
            );
            let (one, byte, nib, low16) = (
                _mm256_set1_epi32(1),
                _mm256_set1_epi32(0xFF),
                _mm256_set1_epi32(15),
                _mm256_set1_epi32(0xFFFF),
            );
            let zero = _mm256_setzero_si256();
            // The bytes at `base + idx` in the lanes of `mask` (0 in the others).
            let bytes_at = |base: *const i32, idx: __m256i, mask: __m256i| {
                _mm256_and_si256(
                    _mm256_mask_i32gather_epi32::<1>(zero, base, idx, mask),
                    byte,
                )
            };
            let (mut acc, mut tacc_b, mut tacc_w) = (zero, zero, zero);
            let (tab_b, tab_w) = (
                self.tables[0].as_ptr() as *const i32,
                self.tables[1].as_ptr() as *const i32,
            );
            let (comb_b, comb_w) = (
                COMBINED[forbid].as_ptr() as *const i32,
                COMBINED[0].as_ptr() as *const i32,
            );
            let (pat_plane, thr_plane) = (
                self.pat.as_ptr() as *const i32,
                self.threat.as_ptr() as *const i32,
            );
            for d in 0..4 {
                let l = self.geo.line[d][c] as usize;
                let i = self.geo.idx[d][c] as usize;
                let occupied = self.lines[0][d][l] | self.lines[1][d][l] | self.geo.wall[d][l];
                let empty = !(occupied >> i) & WINDOW & !(1 << 5);
                let mut edge = empty & far;
                while edge != 0 {
                    let k = edge.trailing_zeros() as usize;
                    edge &= edge - 1;
                    if let Some((shift, old, new, was, now)) =
                        self.cell_change(d, l, i, c, k, &add, forbid)
                    {
                        weigh(w, shift, old, new, was, now, &mut change, &mut tallies);
                    }
                }
                let near = empty & 0x3DE;
                if near == 0 {
                    continue;
                }
                let valid = _mm256_cmpeq_epi32(
                    _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(near as i32), kv), one),
                    one,
                );
                let keys = self.keys[d][l].as_ptr().add(i + 1) as *const __m256i;
                let key = _mm256_add_epi32(
                    _mm256_blend_epi32::<0xF0>(
                        _mm256_loadu_si256(keys),
                        _mm256_loadu_si256((keys as *const u32).add(1) as *const __m256i),
                    ),
                    add8,
                );
                let to_b = bytes_at(tab_b, _mm256_and_si256(key, low16), valid);
                let to_w = bytes_at(tab_w, _mm256_srli_epi32::<16>(key), valid);
                let step = Dir::ALL[d].delta() as i32;
                let q = _mm256_add_epi32(
                    _mm256_set1_epi32(c as i32),
                    _mm256_mullo_epi32(
                        _mm256_sub_epi32(kv, _mm256_set1_epi32(5)),
                        _mm256_set1_epi32(step),
                    ),
                );
                let old = _mm256_mask_i32gather_epi32::<4>(zero, pat_plane, q, valid);
                let (sh, sh16) = (
                    _mm_cvtsi32_si128(4 * d as i32),
                    _mm_cvtsi32_si128(16 + 4 * d as i32),
                );
                let keep = _mm256_set1_epi32(!(15i32 << (4 * d) | 15 << (16 + 4 * d)));
                let new = _mm256_or_si256(
                    _mm256_and_si256(old, keep),
                    _mm256_or_si256(_mm256_sll_epi32(to_b, sh), _mm256_sll_epi32(to_w, sh16)),
                );
                let changed = _mm256_andnot_si256(_mm256_cmpeq_epi32(new, old), valid);
                if _mm256_movemask_epi8(changed) == 0 {
                    continue;
                }
                let was = _mm256_mask_i32gather_epi32::<2>(zero, thr_plane, q, changed);
                let was_b = _mm256_and_si256(was, byte);
                let was_w = _mm256_and_si256(_mm256_srli_epi32::<8>(was), byte);
                let now_b = bytes_at(comb_b, _mm256_and_si256(new, low16), changed);
                let now_w = bytes_at(comb_w, _mm256_srli_epi32::<16>(new), changed);
                let from_b = _mm256_and_si256(_mm256_srl_epi32(old, sh), nib);
                let from_w = _mm256_and_si256(_mm256_srl_epi32(old, sh16), nib);
                let gain = |t, to, from| _mm256_sub_epi32(lut(t, to), lut(t, from));
                let dw = _mm256_add_epi32(
                    _mm256_add_epi32(gain(pat_b, to_b, from_b), gain(pat_w, to_w, from_w)),
                    _mm256_add_epi32(gain(cls_b, now_b, was_b), gain(cls_w, now_w, was_w)),
                );
                acc = _mm256_add_epi32(acc, _mm256_and_si256(dw, changed));
                tacc_b =
                    _mm256_add_epi32(tacc_b, _mm256_and_si256(gain(tly, now_b, was_b), changed));
                tacc_w =
                    _mm256_add_epi32(tacc_w, _mm256_and_si256(gain(tly, now_w, was_w), changed));
            }
            let hsum = |v: __m256i| {
                let x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
                let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
                let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
                _mm_cvtsi128_si32(x)
            };
            change += hsum(acc);
            for (side, t) in [(0, tacc_b), (1, tacc_w)] {
                tallies[side] = tallies[side].wrapping_add(unpack_tally32(hsum(t)));
            }
        }
        finish(change, tallies)
    }

    /// The change the stone of the side to move on `c` makes to the cell at window bit `k`
    /// (`k - 5` steps) of line `l` along `d`, if it changes: `(shift, old, new, was, now)`
    /// as [`Board::each_change`] gives them.
    #[inline(always)]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn cell_change(
        &self,
        d: usize,
        l: usize,
        i: usize,
        c: usize,
        k: usize,
        add: &[u32; 16],
        forbid: usize,
    ) -> Option<(u32, u32, u32, [Threat; 2], [Threat; 2])> {
        // The key the stone would leave: its digit added. The slot i + k is at most 31 and k
        // at most 10; the masks only spare the bounds checks.
        let key = self.keys[d][l][(i + k) & 31].wrapping_add(add[k & 15]);
        let q = (c as isize + (k as isize - 5) * Dir::ALL[d].delta()) as usize & (CELLS - 1);
        let [pb, pw] = self.key_patterns(key).map(u32::from);
        let shift = 4 * d as u32;
        let keep = !(15u32 << shift | 15 << (16 + shift));
        let [ob, ow] = self.pat[q];
        let old = ob as u32 | (ow as u32) << 16;
        let new = (old & keep) | pb << shift | pw << (16 + shift);
        if new == old {
            return None;
        }
        let now = [
            COMBINED[forbid][new as u16 as usize],
            COMBINED[0][(new >> 16) as usize],
        ];
        Some((shift, old, new, self.threat[q], now))
    }

    /// Calls `f(shift, old, new, was, now)` for every empty cell whose line patterns the
    /// stone of the side to move on `p` would change (not `p` itself): both sides' packed
    /// patterns before and after (black's in the low half, white's in the high half; the
    /// changed direction's nibbles at `shift` and `16 + shift`) and the classes.
    #[inline(always)]
    fn each_change(&self, p: Pos, mut f: impl FnMut(u32, u32, u32, [Threat; 2], [Threat; 2])) {
        debug_assert!(self.has_after() && self.is_empty(p));
        let s = self.to_move.index();
        let c = p.index() & (CELLS - 1);
        // As in `place`: the cells five away keep their freestyle patterns.
        let skip = if self.rule == Rule::Freestyle {
            1 | 1 << 10
        } else {
            0
        };
        let forbid = self.forbid_black() & 1;
        let mut add = [0u32; 16];
        add[..11].copy_from_slice(&KEY_ADD[s]);
        for d in 0..4 {
            let l = self.geo.line[d][c] as usize;
            let i = self.geo.idx[d][c] as usize;
            let occupied = self.lines[0][d][l] | self.lines[1][d][l] | self.geo.wall[d][l];
            // Window bit k is cell k - 5 steps along the line (the centre is the stone).
            let mut empty = !(occupied >> i) & WINDOW & !skip & !(1 << 5);
            while empty != 0 {
                let k = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                if let Some((shift, old, new, was, now)) =
                    self.cell_change(d, l, i, c, k, &add, forbid)
                {
                    f(shift, old, new, was, now);
                }
            }
        }
    }
}

/// [`TALLY`] in one 32-bit lane: five, straight four and four-or-better 10 bits apart.
#[cfg(target_arch = "x86_64")]
const TALLY32: [i32; 16] = {
    let mut v = [0i32; 16];
    let mut t = 0;
    while t < 16 {
        let x = tally(t);
        v[t] = (x & 1 | (x >> 16 & 1) << 10 | (x >> 32 & 1) << 20) as i32;
        t += 1;
    }
    v
};

/// A sum of [`TALLY32`] differences (each field within -512..512) as a [`TALLY`] difference
/// to add with wrapping.
#[cfg(target_arch = "x86_64")]
fn unpack_tally32(sum: i32) -> u64 {
    let biased = sum.wrapping_add(512 | 512 << 10 | 512 << 20) as u32;
    let field = |f: u32| ((biased >> (10 * f)) & 1023) as i64 - 512;
    (field(0) + (field(1) << 16) + (field(2) << 32)) as u64
}

/// Adds one cell's change (as [`Board::each_change`] gives it) to the weighted sum and the
/// tallies of [`Board::after`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn weigh(
    w: &CountWeights,
    shift: u32,
    old: u32,
    new: u32,
    was: [Threat; 2],
    now: [Threat; 2],
    change: &mut i32,
    tallies: &mut [u64; 2],
) {
    let (from, to) = (old >> shift, new >> shift);
    for side in 0..2 {
        let (f, t) = ((from >> (16 * side)) & 15, (to >> (16 * side)) & 15);
        let (a, b) = (was[side] as usize & 15, now[side] as usize & 15);
        *change += w.pattern[side][t as usize] - w.pattern[side][f as usize];
        *change += w.class[side][b] - w.class[side][a];
        tallies[side] = tallies[side].wrapping_add(TALLY[b]).wrapping_sub(TALLY[a]);
    }
}

/// [`After`] from the weighted change and the final tallies.
fn finish(change: i32, tallies: [u64; 2]) -> After {
    let field = |k: u32| tallies.map(|t| (t >> (16 * k)) as u16);
    After {
        change,
        fives: field(0),
        flex4: field(1),
        fours: field(2),
    }
}
