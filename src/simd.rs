//! Layer 3 kernels with an AVX2 path (`std::arch`, chosen at run time) and a scalar path
//! that gives bit-identical results: move scoring over a candidate list, and the weighted
//! threat-class and line-pattern counts of the evaluation.

use crate::board::Board;
use crate::eval::{EvalWeights, OrderWeights};
use crate::movegen::ScoredMove;
use crate::threat::THREATS;
use crate::types::Color;

/// Which implementation runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kernel {
    Scalar,
    Avx2,
}

/// The best kernel this CPU supports (detected once, then cached by `std`).
#[inline(always)]
pub fn best() -> Kernel {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernel::Avx2;
        }
    }
    Kernel::Scalar
}

/// Ordering score of playing `p` for `side`: what it makes plus what it takes from the
/// opponent, from the threat classes and line patterns of the cell. The scalar definition
/// every kernel must reproduce exactly.
#[inline]
pub fn move_score_scalar(
    board: &Board,
    p: crate::types::Pos,
    side: Color,
    w: &OrderWeights,
) -> i32 {
    let c = p.index();
    move_score_packed(board.pattern_plane()[c], board.threat_plane()[c], side, w)
}

/// [`move_score_scalar`] of a cell given its packed line patterns and classes (both sides,
/// black first), as a lean threat search reads them.
#[inline(always)]
pub fn move_score_packed(
    pat: [u16; 2],
    threat: [crate::threat::Threat; 2],
    side: Color,
    w: &OrderWeights,
) -> i32 {
    let (me, them) = (side.index(), (!side).index());
    let mut s = w.attack[threat[me] as usize] + w.defend[threat[them] as usize];
    for d in 0..4 {
        s += w.own[((pat[me] >> (4 * d)) & 15) as usize] as i32;
        s += w.opp[((pat[them] >> (4 * d)) & 15) as usize] as i32;
    }
    s
}

/// Sets every move's score to [`move_score_scalar`] of it, with the given kernel.
pub fn score_moves_with(
    kernel: Kernel,
    board: &Board,
    side: Color,
    moves: &mut [ScoredMove],
    w: &OrderWeights,
) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            // SAFETY: `Avx2` is only returned by `best()` when the CPU has AVX2 (callers that
            // force it in tests check `best()` first).
            unsafe { avx2::score_moves(board, side, moves, w) }
        }
        _ => {
            for m in moves {
                m.score = move_score_scalar(board, m.pos, side, w);
            }
        }
    }
}

/// Scores moves with the best kernel.
#[inline]
pub fn score_moves(board: &Board, side: Color, moves: &mut [ScoredMove], w: &OrderWeights) {
    score_moves_with(best(), board, side, moves, w);
}

/// The weighted-count part of the evaluation for `me`:
/// `sum over classes t of own[t] * count(me, t) - opp[t] * count(opp, t)`
/// `+ sum over line patterns p of pattern[p] * (patterns(me, p) - patterns(opp, p))`.
pub fn eval_term_scalar(board: &Board, me: Color, w: &EvalWeights) -> i32 {
    let (counts, pcounts) = (board.threat_counts(), board.pattern_counts());
    let (m, o) = (me.index(), 1 - me.index());
    let mut s = 0;
    for t in 0..THREATS {
        s += w.own[t] as i32 * counts[m][t] as i32;
        s -= w.opp[t] as i32 * counts[o][t] as i32;
    }
    for p in 0..16 {
        s += w.pattern[p] as i32 * pcounts[m][p] as i32;
        s -= w.pattern_opp[p] as i32 * pcounts[o][p] as i32;
    }
    s
}

/// [`eval_term_scalar`] with the given kernel.
#[inline]
pub fn eval_term_with(kernel: Kernel, board: &Board, me: Color, w: &EvalWeights) -> i32 {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `score_moves_with`.
        Kernel::Avx2 => unsafe { avx2::eval_term(board, me, w) },
        _ => eval_term_scalar(board, me, w),
    }
}

/// [`crate::board::line_threats`] of eight lines at once (`own[k]`, `blocked[k]`): the five
/// masks and the four masks, for a lean make's four directions and two sides. With the best
/// kernel.
#[inline(always)]
pub fn line_threats_x8(own: &[u32; 8], blocked: &[u32; 8]) -> ([u32; 8], [u32; 8]) {
    line_threats_x8_with(best(), own, blocked)
}

/// [`line_threats_x8`] with the given kernel.
#[inline(always)]
pub fn line_threats_x8_with(
    kernel: Kernel,
    own: &[u32; 8],
    blocked: &[u32; 8],
) -> ([u32; 8], [u32; 8]) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `score_moves_with`.
        Kernel::Avx2 => unsafe { avx2::line_threats_x8(own, blocked) },
        _ => line_threats_x8_scalar(own, blocked),
    }
}

/// [`line_threats_x8`] one line at a time: the definition the vector path must equal.
#[inline(always)]
pub fn line_threats_x8_scalar(own: &[u32; 8], blocked: &[u32; 8]) -> ([u32; 8], [u32; 8]) {
    let (mut five, mut four) = ([0; 8], [0; 8]);
    for k in 0..8 {
        (five[k], four[k]) = crate::board::line_threats(own[k], blocked[k]);
    }
    (five, four)
}

/// Starts loading the cache line of `r` for a read a little later (a hint: it never faults
/// and changes no result). The tables' probes use it: the transposition table's bucket and
/// the VCF table's slot.
#[inline(always)]
pub fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is only a hint, and the address is a live reference's.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(r as *const T as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

/// The index of the first least word of `w` (not empty), with the best kernel: the move
/// picker's scan ([`crate::movegen::MoveList::pick`]).
#[inline(always)]
pub fn min_index(w: &[u64]) -> usize {
    min_index_with(best(), w)
}

/// [`min_index`] with the given kernel.
#[inline(always)]
pub fn min_index_with(kernel: Kernel, w: &[u64]) -> usize {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `score_moves_with`.
        Kernel::Avx2 => unsafe { avx2::min_index(w) },
        _ => min_index_scalar(w),
    }
}

/// [`min_index`] a word at a time: the definition the vector path must equal.
#[inline(always)]
pub fn min_index_scalar(w: &[u64]) -> usize {
    let (mut best, mut bw) = (0, w[0]);
    for (j, &x) in w.iter().enumerate().skip(1) {
        let less = x < bw;
        bw = if less { x } else { bw };
        best = if less { j } else { best };
    }
    best
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    /// [`super::min_index`]: eight words a step in two pairs of accumulators (the least word
    /// and its index per lane, so each lane keeps its first least; two chains halve the
    /// latency of compare and blend), then the lanes and the last words one at a time.
    /// Unsigned order through the signed compare: every word has its top bit flipped.
    #[target_feature(enable = "avx2")]
    pub unsafe fn min_index(w: &[u64]) -> usize {
        let n = w.len();
        if n < 8 {
            return min_index_scalar(w);
        }
        let sign = _mm256_set1_epi64x(i64::MIN);
        let p = w.as_ptr() as *const __m256i;
        // SAFETY (the loads): chunks k and k + 1 of four words lie below n.
        let load = |k: usize| unsafe { _mm256_xor_si256(_mm256_loadu_si256(p.add(k)), sign) };
        let (mut min_a, mut min_b) = (load(0), load(1));
        let (mut idx_a, mut idx_b) = (
            _mm256_setr_epi64x(0, 1, 2, 3),
            _mm256_setr_epi64x(4, 5, 6, 7),
        );
        let (mut cur_a, mut cur_b) = (idx_a, idx_b);
        let eight = _mm256_set1_epi64x(8);
        let pairs = n / 8;
        for k in 1..pairs {
            cur_a = _mm256_add_epi64(cur_a, eight);
            cur_b = _mm256_add_epi64(cur_b, eight);
            let (x, y) = (load(2 * k), load(2 * k + 1));
            let (lt_a, lt_b) = (_mm256_cmpgt_epi64(min_a, x), _mm256_cmpgt_epi64(min_b, y));
            min_a = _mm256_blendv_epi8(min_a, x, lt_a);
            idx_a = _mm256_blendv_epi8(idx_a, cur_a, lt_a);
            min_b = _mm256_blendv_epi8(min_b, y, lt_b);
            idx_b = _mm256_blendv_epi8(idx_b, cur_b, lt_b);
        }
        let (mut mins, mut idx) = ([0i64; 8], [0i64; 8]);
        // SAFETY: stores into local arrays of eight words.
        unsafe {
            _mm256_storeu_si256(mins.as_mut_ptr() as *mut __m256i, min_a);
            _mm256_storeu_si256(mins.as_mut_ptr().add(4) as *mut __m256i, min_b);
            _mm256_storeu_si256(idx.as_mut_ptr() as *mut __m256i, idx_a);
            _mm256_storeu_si256(idx.as_mut_ptr().add(4) as *mut __m256i, idx_b);
        }
        let (mut best, mut bw) = (idx[0] as usize, mins[0]);
        for l in 1..8 {
            let (x, j) = (mins[l], idx[l] as usize);
            if x < bw || (x == bw && j < best) {
                (best, bw) = (j, x);
            }
        }
        for (j, &x) in w.iter().enumerate().skip(pairs * 8) {
            let x = (x ^ 1 << 63) as i64;
            if x < bw {
                (best, bw) = (j, x);
            }
        }
        best
    }

    /// [`crate::board::line_threats`] on eight 32-bit lanes, step for step.
    #[target_feature(enable = "avx2")]
    pub unsafe fn line_threats_x8(own: &[u32; 8], blocked: &[u32; 8]) -> ([u32; 8], [u32; 8]) {
        let (o, b) = (
            _mm256_loadu_si256(own.as_ptr() as *const __m256i),
            _mm256_loadu_si256(blocked.as_ptr() as *const __m256i),
        );
        let (or, and, xor) = (_mm256_or_si256, _mm256_and_si256, _mm256_xor_si256);
        // andnot(a, b) = !a & b
        let andnot = _mm256_andnot_si256;
        let empty = andnot(or(o, b), _mm256_set1_epi32(-1));
        let dirty = or(
            or(b, _mm256_srli_epi32::<1>(b)),
            or(
                or(_mm256_srli_epi32::<2>(b), _mm256_srli_epi32::<3>(b)),
                _mm256_srli_epi32::<4>(b),
            ),
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

    #[target_feature(enable = "avx2")]
    pub unsafe fn eval_term(board: &Board, me: Color, w: &EvalWeights) -> i32 {
        let (counts, pcounts) = (board.threat_counts(), board.pattern_counts());
        let (m, o) = (me.index(), 1 - me.index());
        let mut a = [0u16; 16];
        let mut b = [0u16; 16];
        a[..THREATS].copy_from_slice(&counts[m]);
        b[..THREATS].copy_from_slice(&counts[o]);
        // SAFETY: every load reads 32 bytes from a 16-lane `u16`/`i16` array.
        let (va, vb, wa, wb, pa, pb, wp, wq) = unsafe {
            (
                _mm256_loadu_si256(a.as_ptr() as *const __m256i),
                _mm256_loadu_si256(b.as_ptr() as *const __m256i),
                _mm256_loadu_si256(w.own.as_ptr() as *const __m256i),
                _mm256_loadu_si256(w.opp.as_ptr() as *const __m256i),
                _mm256_loadu_si256(pcounts[m].as_ptr() as *const __m256i),
                _mm256_loadu_si256(pcounts[o].as_ptr() as *const __m256i),
                _mm256_loadu_si256(w.pattern.as_ptr() as *const __m256i),
                _mm256_loadu_si256(w.pattern_opp.as_ptr() as *const __m256i),
            )
        };
        // Class counts are at most 484 and pattern counts 4 * 484, weights are i16: the
        // products and their pairwise i32 sums are exact.
        let d = _mm256_sub_epi32(_mm256_madd_epi16(va, wa), _mm256_madd_epi16(vb, wb));
        let e = _mm256_sub_epi32(_mm256_madd_epi16(pa, wp), _mm256_madd_epi16(pb, wq));
        let d = _mm256_add_epi32(d, e);
        let s = _mm_add_epi32(_mm256_castsi256_si128(d), _mm256_extracti128_si256::<1>(d));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }

    /// The low (`HIGH = false`) or high bytes of sixteen `i16` weights, twice: a `pshufb`
    /// table for both 128-bit lanes.
    fn byte_table<const HIGH: bool>(w: &[i16; 16]) -> [u8; 32] {
        let mut t = [0u8; 32];
        for i in 0..16 {
            let b = if HIGH { (w[i] >> 8) as u8 } else { w[i] as u8 };
            t[i] = b;
            t[i + 16] = b;
        }
        t
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn score_moves(
        board: &Board,
        side: Color,
        moves: &mut [ScoredMove],
        w: &OrderWeights,
    ) {
        let thr = board.threat_plane().as_ptr() as *const u8;
        let pat = board.pattern_plane().as_ptr() as *const u8;
        let (s, o) = (side.index() as i32, 1 - side.index() as i32);
        let tables = [
            byte_table::<false>(&w.own),
            byte_table::<true>(&w.own),
            byte_table::<false>(&w.opp),
            byte_table::<true>(&w.opp),
        ];
        // SAFETY: 32-byte loads from 32-byte arrays.
        let [own_lo, own_hi, opp_lo, opp_hi] =
            tables.map(|t| unsafe { _mm256_loadu_si256(t.as_ptr() as *const __m256i) });
        // The i16 weight of each lane's nibble, sign-extended to i32: low and high bytes
        // looked up apart (the other bytes of each index are 0x80, which `pshufb` zeroes).
        let lookup = |lo: __m256i, hi: __m256i, n: __m256i| {
            let v = _mm256_or_si256(
                _mm256_shuffle_epi8(lo, n),
                _mm256_slli_epi32::<8>(_mm256_shuffle_epi8(hi, n)),
            );
            _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(v))
        };
        let byte = _mm256_set1_epi32(0xFF);
        let nib = _mm256_set1_epi32(0xF);
        let zero_hi = _mm256_set1_epi32(0x8080_8000u32 as i32);
        let mut chunks = moves.chunks_exact_mut(8);
        for chunk in &mut chunks {
            let mut idx = [0i32; 8];
            for (k, m) in chunk.iter().enumerate() {
                idx[k] = m.pos.0 as i32;
            }
            // SAFETY: 32-byte load from an 8-lane i32 array.
            let cell = unsafe { _mm256_loadu_si256(idx.as_ptr() as *const __m256i) };
            let c2 = _mm256_slli_epi32::<1>(cell);
            let c4 = _mm256_slli_epi32::<2>(cell);
            // SAFETY: every move is an on-board cell (index < 22 * 32), so the 4-byte reads at
            // byte offsets 2 * cell + side (threat plane, 2048 bytes) and 4 * cell + 2 * side
            // (pattern plane, 4096 bytes) stay inside the planes; the table lookups use class
            // values below `THREATS`.
            let v = unsafe {
                let tm = _mm256_and_si256(
                    _mm256_i32gather_epi32::<1>(
                        thr as *const i32,
                        _mm256_add_epi32(c2, _mm256_set1_epi32(s)),
                    ),
                    byte,
                );
                let to = _mm256_and_si256(
                    _mm256_i32gather_epi32::<1>(
                        thr as *const i32,
                        _mm256_add_epi32(c2, _mm256_set1_epi32(o)),
                    ),
                    byte,
                );
                let pm = _mm256_i32gather_epi32::<1>(
                    pat as *const i32,
                    _mm256_add_epi32(c4, _mm256_set1_epi32(2 * s)),
                );
                let po = _mm256_i32gather_epi32::<1>(
                    pat as *const i32,
                    _mm256_add_epi32(c4, _mm256_set1_epi32(2 * o)),
                );
                let mut acc = _mm256_add_epi32(
                    _mm256_i32gather_epi32::<4>(w.attack.as_ptr(), tm),
                    _mm256_i32gather_epi32::<4>(w.defend.as_ptr(), to),
                );
                for d in 0..4 {
                    let sh = _mm_cvtsi32_si128(4 * d);
                    let nm =
                        _mm256_or_si256(_mm256_and_si256(_mm256_srl_epi32(pm, sh), nib), zero_hi);
                    let no =
                        _mm256_or_si256(_mm256_and_si256(_mm256_srl_epi32(po, sh), nib), zero_hi);
                    let vm = lookup(own_lo, own_hi, nm);
                    let vo = lookup(opp_lo, opp_hi, no);
                    acc = _mm256_add_epi32(acc, _mm256_add_epi32(vm, vo));
                }
                acc
            };
            let mut out = [0i32; 8];
            // SAFETY: 32-byte store into an 8-lane i32 array.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, v) };
            for (k, m) in chunk.iter_mut().enumerate() {
                m.score = out[k];
            }
        }
        for m in chunks.into_remainder() {
            m.score = move_score_scalar(board, m.pos, side, w);
        }
    }
}
