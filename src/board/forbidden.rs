//! Renju forbidden points for black: overline, double four, and double three with the
//! recursive test (a three counts only if it can become a straight four whose completing
//! point is not itself forbidden).

use super::Board;
use crate::pattern::{is_straight_four, LineRule, Pattern};
use crate::threat::{nibble, Threat};
use crate::types::{Color, Dir, Pos, Rule, CELLS};
use bitvec::prelude::*;

/// A set of cells, one bit per cell index: forbidden maps and candidate areas handed out of
/// the board layer. `bitvec` gives the set operations and iteration over set bits without
/// hand-written word arithmetic, off the hot path.
pub type CellSet = BitArr!(for CELLS, in u64);

impl Board {
    /// Is the empty point `p` forbidden for black? Always false outside renju (decided
    /// inline: the solvers ask at every black block).
    #[inline(always)]
    pub fn is_forbidden(&mut self, p: Pos) -> bool {
        self.rule().has_forbidden() && self.is_forbidden_renju(p)
    }

    fn is_forbidden_renju(&mut self, p: Pos) -> bool {
        if !self.is_empty(p) {
            return false;
        }
        let (black, class) = (self.pat[p.index()][0], self.threat(p, Color::Black));
        self.forbidden_by(p, black, class, false)
    }

    /// [`Board::is_forbidden`] in lean mode (between [`Board::lean_begin`] and
    /// [`Board::lean_end`], where the cell patterns and classes are those of the position
    /// before the first lean make): the same answer, from the patterns the table keys give
    /// and a recursive three test made with lean moves.
    pub(crate) fn lean_is_forbidden(&mut self, p: Pos) -> bool {
        if !self.rule().has_forbidden() || !self.is_empty(p) {
            return false;
        }
        let ([black, _], [class, _]) = self.lean_cell(p);
        self.forbidden_by(p, black, class, true)
    }

    /// Is the empty point `p`, where black's patterns are `black` (a nibble a direction) and
    /// its class `class`, forbidden under renju? A five never is; an overline or a double
    /// four always is; else two real threes make it so ([`Board::real_threes`], with lean
    /// moves when `lean`).
    fn forbidden_by(&mut self, p: Pos, black: u16, class: Threat, lean: bool) -> bool {
        match class {
            Threat::Five => false,
            Threat::Forbidden => true,
            _ => {
                let threes = (0..4).filter(|&d| nibble(black, d) == Pattern::F3).count();
                threes >= 2 && self.real_threes(p, black, lean) >= 2
            }
        }
    }

    /// Counts the directions in which black's stone on `p` makes a real three, of those
    /// whose pattern in `packed` (black's, a nibble a direction) is an open three. The stone
    /// is placed with a lean make when `lean` (in lean mode), else with a full one.
    fn real_threes(&mut self, p: Pos, packed: u16, lean: bool) -> usize {
        let lr = LineRule::of(Rule::Renju, Color::Black);
        let mover = self.to_move;
        if lean {
            self.to_move = Color::Black;
            self.lean_make(p);
        } else {
            self.place(p, Color::Black);
        }
        let mut real = 0;
        for d in Dir::ALL {
            if nibble(packed, d as usize) != Pattern::F3 {
                continue;
            }
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
                is_straight_four(w, lr)
                    && !if lean {
                        self.lean_is_forbidden(e)
                    } else {
                        self.is_forbidden(e)
                    }
            });
            real += found as usize;
            if real >= 2 {
                break;
            }
        }
        if lean {
            self.lean_undo();
            self.to_move = mover;
        } else {
            self.unplace();
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// In lean mode, after lean makes on top of full ones, every empty cell's answer equals
    /// the full board's for the same stones: on crowded random renju positions, where
    /// double threes (and threes whose straight four needs a forbidden point) are common.
    #[test]
    fn lean_forbidden_points_match_the_full_board() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut random_empty = |b: &Board| loop {
            let p = Pos::new(
                3 + (rng.next_u32() % 9) as usize,
                3 + (rng.next_u32() % 9) as usize,
            );
            if b.is_empty(p) {
                return p;
            }
        };
        let (mut forbidden, mut by_threes) = (0, 0);
        for trial in 0..300 {
            let mut b = Board::new(15, Rule::Renju);
            for _ in 0..10 + trial % 30 {
                let p = random_empty(&b);
                b.make(p);
            }
            let mut full = b.clone();
            b.lean_begin();
            for _ in 0..1 + trial % 5 {
                let p = random_empty(&b);
                b.lean_make(p);
                full.make(p);
            }
            for &p in full.cells().to_vec().iter() {
                if !full.is_empty(p) {
                    continue;
                }
                let want = full.is_forbidden(p);
                assert_eq!(b.lean_is_forbidden(p), want, "trial {trial}, {p}");
                forbidden += want as usize;
                by_threes += (want && full.threat(p, Color::Black) != Threat::Forbidden) as usize;
            }
            for _ in 0..1 + trial % 5 {
                b.lean_undo();
            }
            b.lean_end();
        }
        assert!(
            forbidden > 200 && by_threes > 100,
            "{forbidden} {by_threes}"
        );
    }
}
