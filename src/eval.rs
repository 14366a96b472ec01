//! Layer 3: static evaluation and move scoring, from the board's incremental pattern state.

use crate::board::Board;
use crate::threat::THREATS;
use crate::types::{Color, Pos, Rule};

/// Value of one empty cell of each threat class for the side to move.
/// None, forbidden, flex2, block3, 2xflex2, block3+, flex3, flex3+, 2xflex3, block4,
/// block4+, block4+flex3, flex4, five.
///
/// This, [`OPP_THREAT`] and [`PATTERN_WEIGHT`] are fitted (`examples/tune.rs`, K = 1449) to
/// 4,339 positions sampled from wuzi's games against PentaZen at 200 ms a move, each scored
/// by Rapfi 0.43 classical at 200 ms (its sigmoid scale 200). Held-out cross-entropy 0.592
/// (the weights before) -> 0.582. Against PentaZen at 1 s a move, with
/// [`crate::search::Options::root_verify_nodes`], 80 games: see that option.
///
/// The weights before were fitted to 18,665 positions of wuzi's match games against
/// PentaZen, Rapfi and itself scored by Rapfi at 50 ms, at the scale that fitted the earlier
/// hand-set weights best (K = 1380), so that the search's margins keep their meaning:
/// own [0, 0, -14, -28, -1, 4, 74, 156, 288, 50, 184, 437, 2036, 0], other side
/// [0, 0, -38, -42, -11, -28, -7, 86, 150, -5, 145, 279, 1094, 0], patterns
/// [0, 0, 1, 10, 10, 35, 95, 107, 311, 26, 0, ...] (held-out 0.611 -> 0.519 from the
/// hand-set weights; self-play at 60,000 nodes a move, 40 games: 60.0% against them).
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
/// The hand-set class weights of the other side: 60% of [`HAND_OWN_THREAT`] (self-play at
/// 60,000 nodes a move, 40 games: 66.2% against an earlier ~40-67% set; 90% scored 43.8%).
pub const HAND_OPP_THREAT: [i32; THREATS] = [0, 0, 3, 3, 12, 14, 36, 48, 180, 24, 36, 240, 1200, 0];
/// The hand-set pattern weights (the board's [`crate::board::PATTERN_VALUE`]).
pub const HAND_PATTERN_WEIGHT: [i32; 16] = crate::board::PATTERN_VALUE;

/// The evaluation's weights: per threat class for the side to move and for the other side,
/// and per line pattern (the same for both sides), as 16 `i16` lanes (unused lanes 0) that
/// the SIMD kernel loads directly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    pub own: [i16; 16],
    pub opp: [i16; 16],
    pub pattern: [i16; 16],
    /// The line-pattern weights of the side not to move: the same as `pattern`, unless the
    /// search weighs one side's shapes more ([`crate::search::Options::white_caution`]).
    pub pattern_opp: [i16; 16],
    /// Add the board's combination values ([`crate::cellvalue`]), where its rule has them
    /// (the engine sets it from [`crate::search::Options::cell_values`]).
    pub cells: bool,
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
        cells: false,
    };

    /// The hand-set weights.
    pub const HAND: EvalWeights = EvalWeights {
        own: lanes(&HAND_OWN_THREAT),
        opp: lanes(&HAND_OPP_THREAT),
        pattern: lanes16(&HAND_PATTERN_WEIGHT),
        pattern_opp: lanes16(&HAND_PATTERN_WEIGHT),
        cells: false,
    };

    /// The weights the engine plays `rule` with: the fitted ones for freestyle and exact
    /// five, whose games they were fitted to (exact five differs only by overlines); the
    /// hand-set ones for renju and caro. With the fitted evaluation or the fitted ordering,
    /// renju defence fell below the 99% of `tests/engine.rs` (two of 200 sampled rows of
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
    let me = board.to_move();
    let term = crate::simd::eval_term_with(crate::simd::best(), board, me, w);
    if w.cells && board.has_cell_values() {
        let v = board.cell_values();
        let pairs = board.pair_values()[me.index()];
        let whole = crate::cellvalue::presence(board.threat_counts(), me.index());
        term + v[me.index()][0] - v[(!me).index()][1] + pairs + whole
    } else {
        term
    }
}

/// Does [`evaluate`] on this board read only the class and pattern counts, and can the board
/// tell what a move does to them ([`Board::after`])? Then the evaluation after a move is the
/// count term now plus the change [`count_weights`] give it.
#[inline(always)]
pub fn counts_decide(board: &Board, w: &EvalWeights) -> bool {
    board.has_after() && !(w.cells && board.has_cell_values())
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

/// Ordering score of playing `p` for `side`: what it makes plus what it takes from the
/// opponent, from the threat classes and the line patterns of the cell. Per threat class the
/// mover makes there (the classes of [`OWN_THREAT`]).
///
/// This, [`DEFEND`], [`ORDER_OWN_PATTERN`] and [`ORDER_OPP_PATTERN`] are fitted
/// (`tune FILE order`: a conditional logit over the candidates, at the temperature that
/// fitted the earlier hand-set weights best) to the move Rapfi 0.43 classical chose at 50 ms
/// in 10,843 quiet positions of wuzi's match games (no four, no open three on the board);
/// fives and straight fours keep the hand-set values. On 1,204 held-out positions Rapfi's move
/// is first in 25.7% -> 27.7%, in the first three 46.6% -> 54.3%, in the first eight
/// 72.7% -> 78.6%. Self-play at 60,000 nodes a move, 40 games: 63.8% against the hand-set
/// ordering.
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
    pub attack: [i32; 16],
    pub defend: [i32; 16],
    pub own: [i16; 16],
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

const fn lanes16(w: &[i32; 16]) -> [i16; 16] {
    let mut out = [0i16; 16];
    let mut t = 0;
    while t < 16 {
        out[t] = w[t] as i16;
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

    /// The weights the engine plays `rule` with (as [`EvalWeights::for_rule`]).
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
/// [`crate::simd::move_score_scalar`]).
#[inline]
pub fn move_score(board: &Board, p: Pos, side: Color) -> i32 {
    crate::simd::move_score_scalar(board, p, side, OrderWeights::for_rule(board.rule()))
}

/// Were the fitted weights fitted to games of `rule`? Freestyle, and exact five (which
/// differs from it only by overlines); not renju or caro.
fn fitted_for(rule: Rule) -> bool {
    matches!(rule, Rule::Freestyle | Rule::Standard)
}
