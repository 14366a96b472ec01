//! Renju forbidden points for black: overline, double four, and double three with the
//! recursive test (a three counts only if it can become a straight four whose completing
//! point is not itself forbidden).

use super::Board;
use crate::pattern::{is_straight_four, LineRule, Pattern};
use crate::threat::Threat;
use crate::types::{Color, Dir, Pos, Rule, CELLS};
use bitvec::prelude::*;

/// A set of cells, one bit per cell index: forbidden maps and candidate areas handed out of
/// the board layer. `bitvec` gives the set operations and iteration over set bits without
/// hand-written word arithmetic, off the hot path.
pub type CellSet = BitArr!(for CELLS, in u64);

impl Board {
    /// Could `p` be forbidden for black? A cheap filter from the patterns: true for overlines,
    /// double fours and any cell with two open threes.
    #[inline]
    pub fn may_be_forbidden(&self, p: Pos) -> bool {
        if !self.rule().has_forbidden() || !self.is_empty(p) {
            return false;
        }
        match self.threat(p, Color::Black) {
            Threat::Five => false,
            Threat::Forbidden => true,
            _ => self.open_threes(p, Color::Black) >= 2,
        }
    }

    /// Is the empty point `p` forbidden for black? Always false outside renju (decided
    /// inline: the solvers ask at every black block).
    #[inline(always)]
    pub fn is_forbidden(&mut self, p: Pos) -> bool {
        self.rule().has_forbidden() && self.is_forbidden_renju(p)
    }

    fn is_forbidden_renju(&mut self, p: Pos) -> bool {
        if !self.may_be_forbidden(p) {
            return false;
        }
        if self.threat(p, Color::Black) == Threat::Forbidden {
            return true;
        }
        self.real_threes(p) >= 2
    }

    /// Counts the directions in which black's stone on `p` makes a real three.
    fn real_threes(&mut self, p: Pos) -> usize {
        let dirs: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|&d| self.pattern(p, Color::Black, d) == Pattern::F3)
            .collect();
        let lr = LineRule::of(Rule::Renju, Color::Black);
        self.place(p, Color::Black);
        let mut real = 0;
        for &d in &dirs {
            let geo = self.geometry();
            let found = (-4isize..=4).filter(|&k| k != 0).any(|k| {
                let Some(e) = geo.step(p, d, k) else {
                    return false;
                };
                if !self.is_empty(e) {
                    return false;
                }
                let mut w = self.window(p, d, Color::Black);
                w.own |= 1 << (5 + k);
                is_straight_four(w, lr) && !self.is_forbidden(e)
            });
            real += found as usize;
            if real >= 2 {
                break;
            }
        }
        self.unplace();
        real
    }

    /// Every point forbidden for black in the current position (empty outside renju).
    pub fn forbidden_map(&mut self) -> CellSet {
        let mut set = CellSet::ZERO;
        for &p in self.cells() {
            if self.is_forbidden(p) {
                set.set(p.index(), true);
            }
        }
        set
    }
}
