//! Layer 3: static evaluation and move scoring, from the board's incremental pattern state.

use crate::board::Board;
use crate::threat::THREATS;
use crate::types::{Color, Pos};

/// Value of one empty cell of each threat class for the side to move.
/// None, forbidden, flex2, block3, 2xflex2, block3+, flex3, flex3+, 2xflex3, block4,
/// block4+, block4+flex3, flex4, five.
pub const OWN_THREAT: [i32; THREATS] = [0, 0, 6, 6, 20, 24, 60, 80, 300, 40, 60, 400, 2000, 0];
/// Value of one empty cell of each class for the side not to move (it must be answered
/// first, so the same shapes are worth less).
pub const OPP_THREAT: [i32; THREATS] = [0, 0, 5, 5, 16, 18, 40, 50, 150, 30, 40, 160, 800, 0];

/// Static evaluation of the position for the side to move, in centi-stones. The search
/// handles fives and straight fours before it asks for this.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let me = board.to_move();
    let opp = !me;
    let s = crate::simd::threat_term_with(crate::simd::best(), board.threat_counts(), me);
    s + (board.pattern_score(me) - board.pattern_score(opp)) / 2
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
