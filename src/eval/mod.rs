//! Layer 3: the static evaluation (weights per threat class and line pattern over the
//! board's incremental counts), move ordering (`order`), and the learned evaluation
//! (`net`, kept up to date move by move by `accumulator`), with their kernels. Users choose
//! one with [`Evaluation`]; the rest is internal.

pub mod choice;
internal!(accumulator, net, order, term);

pub use choice::Evaluation;
pub use order::{move_score, OrderWeights};

use crate::board::Board;
use crate::threat::THREATS;
use crate::types::{Color, Rule};

/// Score units per unit of logit of the chance to win under the classical evaluation: its
/// weights were fitted (`examples/tune.rs`, K = 1449) so that the logistic of
/// `eval / 1449` matches Rapfi's judged chance of the same positions. Rounded: the fit is
/// of static evaluations, and a search's score is only close to one.
pub const CLASSICAL_SCORE_PER_LOGIT: f64 = 1450.0;

/// Value of one empty cell of each threat class for the side to move.
/// None, forbidden, flex2, block3, 2xflex2, block3+, flex3, flex3+, 2xflex3, block4,
/// block4+, block4+flex3, flex4, five.
///
/// This, [`OPP_THREAT`] and [`PATTERN_WEIGHT`] are fitted (`examples/tune.rs`, K = 1449) to
/// positions from wuzi's match games, each scored by Rapfi 0.43 classical (its sigmoid scale
/// 200). Measured: docs/experiments.md, classical evaluation.
pub const OWN_THREAT: [i32; THREATS] = [
    0, 0, -27, -50, -28, -1, 111, 162, 267, 17, 205, 437, 2036, 0,
];
/// Value of one empty cell of each class for the side not to move (it must be answered
/// first, so the same shapes are worth less).
pub const OPP_THREAT: [i32; THREATS] = [
    0, 0, -53, -62, -61, -30, 27, 79, 143, -15, 201, 288, 1066, 0,
];
/// Value of one line pattern of one empty cell, the same for both sides (the evaluation adds
/// the side to move's and subtracts the other's). Dead, overline, B1, F1, B2, F2, B3, F3, B4,
/// F4, double four, five.
pub const PATTERN_WEIGHT: [i32; 16] = [0, 0, -1, 11, 21, 58, 100, 125, 343, 1, 0, 0, 0, 0, 0, 0];

/// The hand-set class weights of the side to move (the classic score-table shape: each class
/// worth a few times the one below), kept for the rules the fit has no games of.
pub const HAND_OWN_THREAT: [i32; THREATS] = [0, 0, 6, 6, 20, 24, 60, 80, 300, 40, 60, 400, 2000, 0];
/// The hand-set class weights of the other side: 60% of [`HAND_OWN_THREAT`].
/// Measured: docs/experiments.md, classical evaluation.
pub const HAND_OPP_THREAT: [i32; THREATS] = [0, 0, 3, 3, 12, 14, 36, 48, 180, 24, 36, 240, 1200, 0];
/// The hand-set pattern weights, by line pattern (indexed by discriminant): dead, overline,
/// B1, F1, B2, F2, B3, F3, B4, F4, double four, five.
pub const HAND_PATTERN_WEIGHT: [i32; 16] = [0, 0, 1, 3, 4, 12, 14, 36, 40, 90, 90, 150, 0, 0, 0, 0];

/// The sum of [`HAND_PATTERN_WEIGHT`] over `side`'s line patterns on every empty cell: a
/// smooth measure of its shape potential, from the board's pattern counts.
pub fn pattern_score(board: &Board, side: Color) -> i32 {
    let counts = &board.pattern_counts()[side.index()];
    (0..16)
        .map(|p| HAND_PATTERN_WEIGHT[p] * counts[p] as i32)
        .sum()
}

/// The evaluation's weights: per threat class for the side to move and for the other side,
/// and per line pattern (the same for both sides), as 16 `i16` lanes (unused lanes 0) that
/// the SIMD kernel loads directly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Per threat class, the value of one empty cell for the side to move.
    pub own: [i16; 16],
    /// Per threat class, the value of one empty cell for the other side.
    pub opp: [i16; 16],
    /// Per line pattern, the value of one pattern of one empty cell of the side to move.
    pub pattern: [i16; 16],
    /// The line-pattern weights of the side not to move (the same as `pattern` in the
    /// engine's weights; the kernels take them apart).
    pub pattern_opp: [i16; 16],
}

const fn lanes(w: &[i32; THREATS]) -> [i16; 16] {
    let mut out = [0i16; 16];
    // None, forbidden and five are the search's business: weight 0.
    let mut t = 2;
    while t < THREATS - 1 {
        out[t] = w[t] as i16;
        t += 1;
    }
    out
}

impl EvalWeights {
    /// The fitted weights (freestyle).
    pub const DEFAULT: EvalWeights = EvalWeights {
        own: lanes(&OWN_THREAT),
        opp: lanes(&OPP_THREAT),
        pattern: lanes16(&PATTERN_WEIGHT),
        pattern_opp: lanes16(&PATTERN_WEIGHT),
    };

    /// The hand-set weights.
    pub const HAND: EvalWeights = EvalWeights {
        own: lanes(&HAND_OWN_THREAT),
        opp: lanes(&HAND_OPP_THREAT),
        pattern: lanes16(&HAND_PATTERN_WEIGHT),
        pattern_opp: lanes16(&HAND_PATTERN_WEIGHT),
    };

    /// The weights the engine plays `rule` with: the fitted ones for freestyle and exact
    /// five, whose games they were fitted to (exact five differs only by overlines); the
    /// hand-set ones for renju and caro. With the fitted evaluation or the fitted ordering,
    /// renju defence fell below the 99% of `tests/it/engine.rs` (two of 200 sampled rows of
    /// renju_defend_vcf missed with either).
    pub fn for_rule(rule: Rule) -> &'static EvalWeights {
        if fitted_for(rule) {
            &EvalWeights::DEFAULT
        } else {
            &EvalWeights::HAND
        }
    }
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights::DEFAULT
    }
}

/// Static evaluation of the position for the side to move, in centi-stones. The search
/// handles fives and straight fours before it asks for this.
#[inline]
pub fn evaluate(board: &Board, w: &EvalWeights) -> i32 {
    term::eval_term_with(crate::simd::best(), board, board.to_move(), w)
}

/// The weights that make [`Board::after`]'s change the change of [`evaluate`]'s count
/// terms for `me` to move (the evaluation is linear in the counts).
pub fn count_weights(w: &EvalWeights, me: Color) -> crate::board::CountWeights {
    let mut cw = crate::board::CountWeights::default();
    let (m, o) = (me.index(), (!me).index());
    for t in 0..THREATS {
        cw.class[m][t] = w.own[t] as i32;
        cw.class[o][t] = -(w.opp[t] as i32);
    }
    for p in 0..16 {
        cw.pattern[m][p] = w.pattern[p] as i32;
        cw.pattern[o][p] = -(w.pattern_opp[p] as i32);
    }
    cw
}

pub(crate) const fn lanes16(w: &[i32; 16]) -> [i16; 16] {
    let mut out = [0i16; 16];
    let mut t = 0;
    while t < 16 {
        out[t] = w[t] as i16;
        t += 1;
    }
    out
}

/// Were the fitted weights fitted to games of `rule`? Freestyle, and exact five (which
/// differs from it only by overlines); not renju or caro.
pub(crate) fn fitted_for(rule: Rule) -> bool {
    matches!(rule, Rule::Freestyle | Rule::Standard)
}
