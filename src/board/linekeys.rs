//! Table keys of line windows: the base-3 digits a stone adds to the keys around it, and
//! the caro rule for runs that leave the window.

use crate::pattern::{outer, Window, POW3};

/// The 20-bit caro key of one side's window (wall cells hold no stone).
#[inline(always)]
pub(super) fn caro_key(own: u32, opp: u32, wall: u32) -> usize {
    Window {
        own,
        opp,
        wall: wall & !(own | opp),
    }
    .key4()
}

/// Caro without exact five: the window at shift `i` of a line sees own stones `own` and
/// opponent stones `opp`. When its edge cell (offset -5 or +5) holds an own stone whose run
/// goes on beyond the window and ends at an opponent stone, the edge cell is returned as an
/// opponent stone. That keeps every five through the centre the same: such a five covers
/// offsets -4..=0 (or 0..=4) already, so it stays five or more long, and its end is closed
/// either way. Without it, `O XXXXX.X O` with the gap filled counted as a five.
#[inline]
pub(super) fn caro_edges(own_line: u32, opp_line: u32, i: usize, own: u32, opp: u32) -> (u32, u32) {
    let (mut own, mut opp) = (own, opp);
    // Own stones sit only on line bits MARGIN..MARGIN + 22, so a set edge bit means
    // `i >= MARGIN` below and `i + 11 <= 28` above: the shifts stay in range, and the margin
    // bits (never own) end every run.
    if own & 1 != 0 {
        let beyond = !own_line & ((1u32 << i) - 1);
        let end = 31 - beyond.leading_zeros();
        if opp_line >> end & 1 != 0 {
            own &= !1;
            opp |= 1;
        }
    }
    if own & (1 << 10) != 0 {
        let beyond = !own_line & (u32::MAX << (i + 11));
        let end = beyond.trailing_zeros();
        if opp_line >> end & 1 != 0 {
            own &= !(1 << 10);
            opp |= 1 << 10;
        }
    }
    (own, opp)
}

/// The base-3 table key of one side's window, `own` its stones and `blocked` the other
/// side's stones and the wall (eleven-bit windows; the centre has no digit): 1 for an own
/// cell, 2 for a blocked one.
#[inline(always)]
pub(super) fn table_key(own: u32, blocked: u32) -> u32 {
    POW3[outer(own) as usize] as u32 + 2 * POW3[outer(blocked) as usize] as u32
}

/// `KEY_DIGIT[k + 5]`: the base-3 place value, in the key of the cell `k` steps along a line
/// from a stone, of that stone's window cell (offset `-k` from the cell's centre; the centre
/// itself, `k = 0`, has no digit).
const KEY_DIGIT: [u16; 11] = {
    let mut t = [0u16; 11];
    let mut k = 0;
    while k < 11 {
        let bit = 10 - k; // window bit of offset -(k - 5)
        t[k] = if bit == 5 {
            0
        } else {
            POW3[1 << if bit < 5 { bit } else { bit - 1 }]
        };
        k += 1;
    }
    t
};

const fn key_deltas(colour: usize, sign: u32) -> [u32; 11] {
    // Own 1 and blocked 2 in the side's key; black's key in the low half.
    let (b, w) = if colour == 0 { (1, 2) } else { (2, 1) };
    let mut t = [0u32; 11];
    let mut k = 0;
    while k < 11 {
        let digit = KEY_DIGIT[k] as u32;
        t[k] = ((digit * b) | ((digit * w) << 16)).wrapping_mul(sign);
        k += 1;
    }
    t
}

/// `KEY_ADD[stone colour][k + 5]`: what a stone adds to the packed keys of the cell `k`
/// steps from it (own 1, blocked 2; black's key in the low half).
pub(super) const KEY_ADD: [[u32; 11]; 2] = [key_deltas(0, 1), key_deltas(1, 1)];
/// The same, subtracted (added with wrapping) by unplace.
pub(super) const KEY_SUB: [[u32; 11]; 2] = [key_deltas(0, u32::MAX), key_deltas(1, u32::MAX)];
