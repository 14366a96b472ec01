//! Move ordering: the weights of what a move makes and what it blocks, and the scoring of a
//! move list (a scalar definition and an AVX2 kernel).

use super::{fitted_for, lanes16};
use crate::board::Board;
use crate::movegen::ScoredMove;
use crate::simd::Kernel;
use crate::threat::{Threat, THREATS};
use crate::types::{Color, Pos, Rule};

/// Ordering score of playing `p` for `side`: what it makes plus what it takes from the
/// opponent, from the threat classes and the line patterns of the cell. Per threat class the
/// mover makes there (the classes of [`super::OWN_THREAT`]).
///
/// This, [`DEFEND`], [`ORDER_OWN_PATTERN`] and [`ORDER_OPP_PATTERN`] are fitted
/// (`tune FILE order`: a conditional logit over the candidates, at the temperature that
/// fitted the earlier hand-set weights best) to the move Rapfi 0.43 classical chose at 50 ms
/// in quiet positions of wuzi's match games (no four, no open three on the board); fives
/// and straight fours keep the hand-set values. Measured: docs/experiments.md, move ordering.
pub const ATTACK: [i32; THREATS] = [
    0, -762, 91, 81, 178, 264, 1107, 1273, 2792, 822, 954, 5076, 20000, 100000,
];
/// Ordering value of each of the mover's line patterns of a cell.
pub const ORDER_OWN_PATTERN: [i32; 16] = [
    0, 0, 86, 74, 161, 586, 626, 281, 676, 387, 387, 447, 0, 0, 0, 0,
];
/// Ordering value of each of the opponent's line patterns of a cell (blocking it).
pub const ORDER_OPP_PATTERN: [i32; 16] = [
    0, 0, 53, 15, 36, 199, 299, -40, 357, 172, 172, 217, 0, 0, 0, 0,
];
/// Ordering score of a cell for blocking what the opponent would make there.
pub const DEFEND: [i32; THREATS] = [
    0, 253, 55, 135, 64, 159, 1059, 1204, 2027, 881, 1081, 2419, 10000, 50000,
];

/// The hand-set ordering weights, kept for the rules the fit has no games of: what a move
/// makes, what it blocks, and each line pattern's value (the opponent's at 3/4).
pub const HAND_ATTACK: [i32; THREATS] = [
    0, -1000, 40, 30, 120, 130, 400, 500, 3000, 300, 500, 5000, 20000, 100000,
];
/// See [`HAND_ATTACK`].
pub const HAND_DEFEND: [i32; THREATS] = [
    0, 0, 30, 25, 100, 100, 300, 350, 2000, 150, 250, 3000, 10000, 50000,
];
/// See [`HAND_ATTACK`].
pub const HAND_OWN_PATTERN: [i32; 16] = [0, 0, 1, 3, 4, 12, 14, 36, 40, 90, 90, 150, 0, 0, 0, 0];
/// See [`HAND_ATTACK`].
pub const HAND_OPP_PATTERN: [i32; 16] = [0, 0, 0, 2, 3, 9, 10, 27, 30, 67, 67, 112, 0, 0, 0, 0];

/// The move-ordering weights: per threat class the mover makes (`attack`) and the opponent
/// would make (`defend`), per line pattern of the mover (`own`) and of the opponent (`opp`);
/// 16 lanes each (unused lanes 0) for the SIMD kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderWeights {
    /// Per threat class the mover makes on the cell.
    pub attack: [i32; 16],
    /// Per threat class the opponent would make on the cell (blocked by the move).
    pub defend: [i32; 16],
    /// Per line pattern of the mover on the cell.
    pub own: [i16; 16],
    /// Per line pattern of the opponent on the cell.
    pub opp: [i16; 16],
}

const fn lanes32(w: &[i32; THREATS]) -> [i32; 16] {
    let mut out = [0i32; 16];
    let mut t = 0;
    while t < THREATS {
        out[t] = w[t];
        t += 1;
    }
    out
}

impl OrderWeights {
    /// The fitted weights (freestyle).
    pub const DEFAULT: OrderWeights = OrderWeights {
        attack: lanes32(&ATTACK),
        defend: lanes32(&DEFEND),
        own: lanes16(&ORDER_OWN_PATTERN),
        opp: lanes16(&ORDER_OPP_PATTERN),
    };
    /// The hand-set weights.
    pub const HAND: OrderWeights = OrderWeights {
        attack: lanes32(&HAND_ATTACK),
        defend: lanes32(&HAND_DEFEND),
        own: lanes16(&HAND_OWN_PATTERN),
        opp: lanes16(&HAND_OPP_PATTERN),
    };

    /// The weights the engine plays `rule` with (as [`super::EvalWeights::for_rule`]).
    pub fn for_rule(rule: Rule) -> &'static OrderWeights {
        if fitted_for(rule) {
            &OrderWeights::DEFAULT
        } else {
            &OrderWeights::HAND
        }
    }
}

impl Default for OrderWeights {
    fn default() -> Self {
        OrderWeights::DEFAULT
    }
}

/// Scores `p` as a move for `side` with the ordering weights of the board's rule (see
/// `move_score_scalar`).
#[inline]
pub fn move_score(board: &Board, p: Pos, side: Color) -> i32 {
    move_score_scalar(board, p, side, OrderWeights::for_rule(board.rule()))
}

/// Ordering score of playing `p` for `side`: what it makes plus what it takes from the
/// opponent, from the threat classes and line patterns of the cell. The scalar definition
/// every kernel must reproduce exactly.
#[inline]
pub fn move_score_scalar(board: &Board, p: Pos, side: Color, w: &OrderWeights) -> i32 {
    let c = p.index();
    move_score_packed(board.pattern_plane()[c], board.threat_plane()[c], side, w)
}

/// [`move_score_scalar`] of a cell given its packed line patterns and classes (both sides,
/// black first), as a lean threat search reads them.
#[inline(always)]
pub fn move_score_packed(pat: [u16; 2], threat: [Threat; 2], side: Color, w: &OrderWeights) -> i32 {
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
    score_moves_with(crate::simd::best(), board, side, moves, w);
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

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

    /// The AVX2 kernel.
    ///
    /// # Safety
    /// The CPU must have AVX2 ([`crate::simd::best`] says so).
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
