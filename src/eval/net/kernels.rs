//! The accumulator's kernels: a cell's sum of rows, and the change of a cell's sum with its
//! clipped vector's share of the board sum, each with AVX2 and its portable (scalar) twin
//! giving the same bits.

use super::{clip, FEATURES, QUANT};
use crate::simd::Kernel;

/// The unclipped sum of `N` vectors.
#[inline(always)]
pub fn sum_rows<const N: usize>(kernel: Kernel, rows: [&[i16; FEATURES]; N]) -> [i16; FEATURES] {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernel::Avx2` is only chosen when the CPU has AVX2.
        Kernel::Avx2 => unsafe { sum_rows_avx2(rows) },
        _ => sum_rows_scalar(rows),
    }
}

/// The portable definition of [`sum_rows`].
pub fn sum_rows_scalar<const N: usize>(rows: [&[i16; FEATURES]; N]) -> [i16; FEATURES] {
    let mut h = [0i16; FEATURES];
    for row in rows {
        for (x, &e) in h.iter_mut().zip(row) {
            *x = x.wrapping_add(e);
        }
    }
    h
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sum_rows_avx2<const N: usize>(rows: [&[i16; FEATURES]; N]) -> [i16; FEATURES] {
    use std::arch::x86_64::*;
    let mut out = [0i16; FEATURES];
    let p = out.as_mut_ptr() as *mut __m256i;
    for half in 0..2 {
        // SAFETY: each row and `out` are 32 i16 lanes, two unaligned 256-bit halves.
        let load =
            |r: &[i16; FEATURES]| _mm256_loadu_si256((r.as_ptr() as *const __m256i).add(half));
        let mut acc = _mm256_setzero_si256();
        for row in rows {
            acc = _mm256_add_epi16(acc, load(row));
        }
        _mm256_storeu_si256(p.add(half), acc);
    }
    out
}

/// A cell's sum `s` loses the rows `old` and gains the rows `new`; the change of its
/// clipped vector is added to the board sum `sum`.
#[inline(always)]
pub(super) fn change_rows<const N: usize>(
    kernel: Kernel,
    s: &mut [i16; FEATURES],
    sum: &mut [i32; FEATURES],
    old: [&[i16; FEATURES]; N],
    new: [&[i16; FEATURES]; N],
) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernel::Avx2` is only chosen when the CPU has AVX2.
        Kernel::Avx2 => unsafe { change_avx2(s, sum, old, new) },
        _ => change_scalar(s, sum, old, new),
    }
}

/// The portable definition of [`super::Network::change`]'s step: the cell's sum `s` loses the
/// rows `old` and gains the rows `new`.
pub fn change_scalar<const N: usize>(
    s: &mut [i16; FEATURES],
    sum: &mut [i32; FEATURES],
    old: [&[i16; FEATURES]; N],
    new: [&[i16; FEATURES]; N],
) {
    let before = clip(s);
    for (o, n) in old.iter().zip(&new) {
        for i in 0..FEATURES {
            s[i] = s[i].wrapping_sub(o[i]).wrapping_add(n[i]);
        }
    }
    let after = clip(s);
    for i in 0..FEATURES {
        sum[i] += after[i] as i32 - before[i] as i32;
    }
}

/// A cell's sum `s` becomes `new`; the change of its clipped vector is added to the board
/// sum `sum` ([`super::Network::set`]).
#[inline(always)]
pub(super) fn set_row(
    kernel: Kernel,
    s: &mut [i16; FEATURES],
    sum: &mut [i32; FEATURES],
    new: &[i16; FEATURES],
) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernel::Avx2` is only chosen when the CPU has AVX2.
        Kernel::Avx2 => unsafe { set_avx2(s, sum, new) },
        _ => set_scalar(s, sum, new),
    }
}

/// The portable definition of [`set_row`].
pub fn set_scalar(s: &mut [i16; FEATURES], sum: &mut [i32; FEATURES], new: &[i16; FEATURES]) {
    let (before, after) = (clip(s), clip(new));
    *s = *new;
    for i in 0..FEATURES {
        sum[i] += after[i] as i32 - before[i] as i32;
    }
}

/// The AVX2 kernels' common step, for one half of a cell's lanes: stores its new sum `k1`
/// over the old `k0` at `kp` and adds the change of its clipped vector to the board sum's
/// 16 i32 lanes at `s0`.
///
/// # Safety
/// The CPU has AVX2; `kp` points at 16 writable i16 lanes, `s0` at 16 writable i32 lanes
/// (two 256-bit words).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store_and_account(
    kp: *mut std::arch::x86_64::__m256i,
    s0: *mut std::arch::x86_64::__m256i,
    k0: std::arch::x86_64::__m256i,
    k1: std::arch::x86_64::__m256i,
) {
    use std::arch::x86_64::*;
    _mm256_storeu_si256(kp, k1);
    let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QUANT as i16));
    let clip = |x| _mm256_min_epi16(_mm256_max_epi16(x, zero), top);
    // The change of the clipped vector fits i16 (both clips are in 0..=QUANT).
    let delta = _mm256_sub_epi16(clip(k1), clip(k0));
    let lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(delta));
    let hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(delta));
    _mm256_storeu_si256(s0, _mm256_add_epi32(_mm256_loadu_si256(s0), lo));
    _mm256_storeu_si256(
        s0.add(1),
        _mm256_add_epi32(_mm256_loadu_si256(s0.add(1)), hi),
    );
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn set_avx2(s: &mut [i16; FEATURES], sum: &mut [i32; FEATURES], new: &[i16; FEATURES]) {
    use std::arch::x86_64::*;
    let kp = s.as_mut_ptr() as *mut __m256i;
    let nk = new.as_ptr() as *const __m256i;
    let sp = sum.as_mut_ptr() as *mut __m256i;
    for half in 0..2 {
        // SAFETY: the sums are 32 i16 lanes (two 256-bit halves), `sum` 32 i32 lanes
        // (four); every load and store is unaligned and in bounds.
        let old = _mm256_loadu_si256(kp.add(half));
        let new = _mm256_loadu_si256(nk.add(half));
        store_and_account(kp.add(half), sp.add(2 * half), old, new);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn change_avx2<const N: usize>(
    s: &mut [i16; FEATURES],
    sum: &mut [i32; FEATURES],
    old: [&[i16; FEATURES]; N],
    new: [&[i16; FEATURES]; N],
) {
    use std::arch::x86_64::*;
    let kp = s.as_mut_ptr() as *mut __m256i;
    let sp = sum.as_mut_ptr() as *mut __m256i;
    for half in 0..2 {
        // SAFETY: the sum and each row are 32 i16 lanes (two 256-bit halves), `sum` 32
        // i32 lanes (four); every load and store is unaligned and in bounds.
        let load =
            |r: &[i16; FEATURES]| _mm256_loadu_si256((r.as_ptr() as *const __m256i).add(half));
        let k0 = _mm256_loadu_si256(kp.add(half));
        let mut k1 = k0;
        for (o, n) in old.iter().zip(&new) {
            k1 = _mm256_add_epi16(_mm256_sub_epi16(k1, load(o)), load(n));
        }
        store_and_account(kp.add(half), sp.add(2 * half), k0, k1);
    }
}
