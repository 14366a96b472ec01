//! The evaluation's weighted counts: a dot product of the threat-class and line-pattern
//! counts with the weights, as a scalar definition and an AVX2 kernel.

use super::EvalWeights;
use crate::board::Board;
use crate::simd::Kernel;
use crate::threat::THREATS;
use crate::types::Color;

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
        // SAFETY: `Avx2` is only returned by `best()` when the CPU has AVX2 (callers that
        // force it in tests check `best()` first).
        Kernel::Avx2 => unsafe { avx2::eval_term(board, me, w) },
        _ => eval_term_scalar(board, me, w),
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    /// The AVX2 kernel.
    ///
    /// # Safety
    /// The CPU must have AVX2 ([`crate::simd::best`] says so).
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
}
