//! The second input of the version-2 net: the exact contents of a cell's line window. The
//! pattern keys of [`super::net::keys`] say what a move there makes (an open three, a
//! blocked four); the window says how: which of the eight cells within four steps along the
//! line hold the side to move's stones, the other side's, or lie beyond the edge.
//!
//! A window is eight cells (offsets -4..=-1 and 1..=4 from the centre), each empty (0), the
//! side to move's (1), the other side's (2) or off the board (3): a raw key of eight base-4
//! digits, offset -4 in the lowest. A line read backwards is the same line, so a window and
//! its mirror share one row; only windows whose off-board cells run to the ends occur. The
//! rows number those canonical windows in increasing order of their raw key: [`ROWS`] of
//! them.

use crate::board::Board;
use crate::pattern::Window;
use crate::types::{Color, Dir, Pos};
use std::sync::OnceLock;

/// Rows of the window table: the canonical (mirror-merged) windows that can occur. Per side
/// 3^4 + 3^3 + 3^2 + 3 + 1 = 121 arrangements (the off-board cells are the outermost ones),
/// 121^2 ordered windows, 121 of them their own mirror: (14,641 + 121) / 2.
pub const ROWS: usize = 7381;
/// The row of an occupied cell (no window): one past the last, a zero vector in the net.
pub const NONE: u16 = ROWS as u16;

/// Raw keys: eight base-4 digits.
const RAW: usize = 1 << 16;
const UNREACHABLE: u16 = u16::MAX;

/// The raw key with offset `-k` and `+k` exchanged.
const fn mirror(raw: usize) -> usize {
    let mut out = 0;
    let mut j = 0;
    while j < 8 {
        out |= ((raw >> (2 * j)) & 3) << (2 * (7 - j));
        j += 1;
    }
    out
}

/// Can the raw key occur: on each side, is every cell beyond an off-board cell off the
/// board too?
fn reachable(raw: usize) -> bool {
    let digit = |j: usize| (raw >> (2 * j)) & 3;
    // Left side: digits 3 (offset -1) down to 0 (offset -4); right: 4 (offset 1) up to 7.
    let mut j = 3;
    while j > 0 {
        if digit(j) == 3 && digit(j - 1) != 3 {
            return false;
        }
        j -= 1;
    }
    let mut j = 4;
    while j < 7 {
        if digit(j) == 3 && digit(j + 1) != 3 {
            return false;
        }
        j += 1;
    }
    true
}

/// Row of every raw key ([`UNREACHABLE`] for one that cannot occur).
fn rows() -> &'static [u16; RAW] {
    static TABLE: OnceLock<Box<[u16; RAW]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([UNREACHABLE; RAW]);
        let mut next = 0u16;
        for raw in 0..RAW {
            let m = mirror(raw);
            if reachable(raw) && raw <= m {
                t[raw] = next;
                t[m] = next;
                next += 1;
            }
        }
        assert_eq!(next as usize, ROWS, "the window rows");
        t
    })
}

/// `SPREAD[b]`: the eight bits of `b` moved to the even bits (bit j to bit 2j), so a set of
/// cells becomes a set of base-4 digits of 1.
const SPREAD: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            t[b] |= (((b >> j) & 1) << (2 * j)) as u16;
            j += 1;
        }
        b += 1;
    }
    t
};

/// The eight cells at offsets -4..=-1, 1..=4 of an 11-bit window (bit 5 the centre).
#[inline(always)]
fn eight(bits: u32) -> usize {
    (((bits >> 1) & 0xF) | ((bits >> 2) & 0xF0)) as usize
}

/// The raw key of a line window seen by the side whose stones are `w.own`.
#[inline(always)]
pub fn raw_key(w: &Window) -> usize {
    SPREAD[eight(w.own)] as usize
        | ((SPREAD[eight(w.opp)] as usize) << 1)
        | (SPREAD[eight(w.wall)] as usize * 3)
}

/// The row of a line window seen by the side whose stones are `w.own`.
#[inline(always)]
pub fn row(w: &Window) -> u16 {
    let r = rows()[raw_key(w)];
    debug_assert!(r != UNREACHABLE, "an impossible window {w:?}");
    r
}

/// The window rows of the empty cell `p` along [`Dir::ALL`], seen by `me`.
#[inline(always)]
pub fn rows_of(board: &Board, p: Pos, me: Color) -> [u16; 4] {
    Dir::ALL.map(|d| row(&board.window(p, d, me)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn the_rows_number_the_canonical_windows() {
        let t = rows();
        let used: std::collections::BTreeSet<u16> =
            t.iter().copied().filter(|&r| r != UNREACHABLE).collect();
        assert_eq!(used.len(), ROWS);
        assert_eq!(*used.iter().next_back().unwrap() as usize, ROWS - 1);
        for raw in 0..RAW {
            assert_eq!(t[raw], t[mirror(raw)]);
            assert_eq!(t[raw] == UNREACHABLE, !reachable(raw));
        }
        // The empty window is the first row.
        assert_eq!(t[0], 0);
    }

    #[test]
    fn windows_read_the_line_and_its_mirror_alike() {
        // Black at h8 (7,7) and j8 (9,7), white at k8 (10,7): the row window of i8 (8,7).
        let mut b = Board::new(15, Rule::Freestyle);
        for (x, y) in [(7, 7), (0, 14), (9, 7), (10, 7)] {
            b.make(Pos::new(x, y));
        }
        let w = b.window(Pos::new(8, 7), Dir::ALL[0], Color::Black);
        // Offsets -1 and +1 black (digits 3 and 4), +2 white (digit 5).
        assert_eq!(raw_key(&w), (1 << 6) | (1 << 8) | (2 << 10));
        // The same shape mirrored, on the left edge: white at 1,3, black at 2,3 and 4,3,
        // read at 3,3, where offset -4 is off the board (x = -1).
        let mut m = Board::new(15, Rule::Freestyle);
        for (x, y) in [(2, 3), (14, 14), (4, 3), (1, 3)] {
            m.make(Pos::new(x, y));
        }
        let v = m.window(Pos::new(3, 3), Dir::ALL[0], Color::Black);
        assert_eq!(raw_key(&v) & !3, mirror(raw_key(&w)));
        assert_eq!(raw_key(&v) & 3, 3);
        // Seen by white, own and other swap.
        let ww = b.window(Pos::new(8, 7), Dir::ALL[0], Color::White);
        assert_eq!(raw_key(&ww), (2 << 6) | (2 << 8) | (1 << 10));
        assert_ne!(row(&w), row(&ww));
        // Every window of every cell of a busy board has a row.
        for p in b.cells().to_vec() {
            if b.is_empty(p) {
                for me in Color::ALL {
                    assert!(rows_of(&b, p, me).iter().all(|&r| (r as usize) < ROWS));
                }
            }
        }
    }
}
