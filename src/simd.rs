//! SIMD dispatch: which kernel the CPU runs (AVX2 through `std::arch`, chosen at run time,
//! or the scalar definition every vector kernel must equal bit for bit), and a cache
//! prefetch hint. The kernels themselves sit beside the code they serve: the evaluation's
//! (`eval::term`), move scoring (`eval::order`), the lean board's line masks (`board::lean`)
//! and the move picker's scan (`movegen::list`).

/// Which implementation runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// The portable definition.
    Scalar,
    /// AVX2 (x86-64 only).
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
