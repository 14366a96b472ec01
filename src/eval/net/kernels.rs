//! The net's row kernel: a cell's sum of rows, with AVX2 and its portable (scalar) twin
//! giving the same bits. The accumulator's updates are portable code compiled for AVX2
//! whole (`src/eval/accumulator.rs`).

use super::FEATURES;
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

/// The portable definition of [`sum_rows`]: also the accumulator's, inlined into its update
/// (compiled for AVX2 there where the CPU has it).
#[inline(always)]
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
