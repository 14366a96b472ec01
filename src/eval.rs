//! Layer 3: static evaluation and move scoring, from the board's incremental pattern state.

use crate::board::Board;
use crate::threat::THREATS;
use crate::types::{Color, Pos};

/// Value of one empty cell of each threat class for the side to move.
/// None, forbidden, flex2, block3, 2xflex2, block3+, flex3, flex3+, 2xflex3, block4,
/// block4+, block4+flex3, flex4, five.
pub const OWN_THREAT: [i32; THREATS] = [0, 0, 6, 6, 20, 24, 60, 80, 300, 40, 60, 400, 2000, 0];
/// Value of one empty cell of each class for the side not to move (it must be answered
/// first, so the same shapes are worth less): 60% of [`OWN_THREAT`]. Self-play at 60,000
/// nodes per move, 40 games: 60% scored 66.2% against the earlier ~40-67% set, 90% scored
/// 43.8%.
pub const OPP_THREAT: [i32; THREATS] = [0, 0, 3, 3, 12, 14, 36, 48, 180, 24, 36, 240, 1200, 0];

/// The evaluation's weights: per threat class for the side to move and for the other side
/// (16 `i16` lanes, the last two unused, so the SIMD kernel loads them directly), and the
/// weight of the pattern-score difference in 1/16ths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    pub own: [i16; 16],
    pub opp: [i16; 16],
    pub pattern16: i32,
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

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            own: lanes(&OWN_THREAT),
            opp: lanes(&OPP_THREAT),
            pattern16: 16,
        }
    }
}

/// Static evaluation of the position for the side to move, in centi-stones. The search
/// handles fives and straight fours before it asks for this.
#[inline]
pub fn evaluate(board: &Board, w: &EvalWeights) -> i32 {
    let me = board.to_move();
    let opp = !me;
    let s = crate::simd::threat_term_with(crate::simd::best(), board.threat_counts(), me, w);
    s + (board.pattern_score(me) - board.pattern_score(opp)) * w.pattern16 / 16
}

/// Ordering score of playing `p` for `side`: what it makes plus what it takes from the
/// opponent, from the threat classes and the line patterns of the cell.
pub const ATTACK: [i32; THREATS] = [
    0, -1000, 40, 30, 120, 130, 400, 500, 3000, 300, 500, 5000, 20000, 100000,
];
/// Ordering score of a cell for blocking what the opponent would make there.
pub const DEFEND: [i32; THREATS] = [
    0, 0, 30, 25, 100, 100, 300, 350, 2000, 150, 250, 3000, 10000, 50000,
];

/// Scores `p` as a move for `side` (see [`crate::simd::move_score_scalar`]).
#[inline]
pub fn move_score(board: &Board, p: Pos, side: Color) -> i32 {
    crate::simd::move_score_scalar(board, p, side)
}
