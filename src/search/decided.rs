//! What a search node decides before it searches a move: the positions fives decide at
//! its start, a win in five plies by the class counts, and the score of a node left with
//! no move to search. [`Facts`] holds what those steps read of the counts.
use super::*;

impl Searcher<'_> {
    /// The start of every search node: the deepest ply, the stop check (0 when stopping),
    /// and the positions fives decide (`facts` of the node's counts): our five point wins,
    /// two of the opponent's lose. Otherwise the opponent's number of five points.
    pub(super) fn node_start(&mut self, ply: usize, facts: &Facts) -> Result<u16, i32> {
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.should_stop() {
            return Err(0);
        }
        if facts.five {
            return Err(WIN - (ply as i32 + 1));
        }
        if facts.opp_fives >= 2 {
            return Err(-(WIN - (ply as i32 + 2)));
        }
        Ok(facts.opp_fives)
    }

    /// The score of a node whose move generator gave nothing to search (an opponent five
    /// it cannot stop is scored before). A full board is a draw. Renju black with empty
    /// points left has lost: either every one is forbidden (a manager ends the game at
    /// black's forbidden move), or black may not block white's open three, has no four of
    /// its own, and white's straight four comes next (lost in four plies).
    pub(super) fn no_move_score(&self, ply: usize) -> i32 {
        let b = &self.board;
        let me = b.to_move();
        let cells = b.size() * b.size();
        if !b.rule().forbids(me)
            || b.stone_count() >= cells
            || self.shared.params.renju_no_move_loss() == 0
        {
            return 0;
        }
        if b.count(!me, Threat::Flex4) > 0 {
            -(WIN - (ply as i32 + 4))
        } else {
            -(WIN - (ply as i32 + 1))
        }
    }
}

/// Does `me`, to move on `b` with no five to block, win in five plies by the counts alone?
/// So with a four-three (the four forces its block, which cannot stop the three, on another
/// line) or a double three (one move cannot block two lines), where the opponent has no cell
/// that makes a four, the only move that could interrupt: our stones take none away, and
/// they cannot gain one. Not for renju black (a double three is forbidden, and a four-three
/// may need a forbidden straight four) nor under caro (a blocked five does not win).
pub(super) fn wins_in_five(b: &Board, me: Color) -> bool {
    let rule = b.rule();
    if rule.is_caro() || rule.forbids(me) {
        return false;
    }
    (b.count(me, Threat::Block4Flex3) > 0 || b.count(me, Threat::Flex3x2) > 0)
        && b.count_at_least(!me, Threat::Block4) == 0
}

/// What a node's first steps read of the class counts, for the side to move `me`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Facts {
    /// `me` has a five point.
    pub(super) five: bool,
    /// The opponent's five points.
    pub(super) opp_fives: u16,
    /// `me` has a straight-four point (or a double four).
    pub(super) flex4: bool,
    /// `me` can make a four or better.
    pub(super) four: bool,
    /// The opponent has a straight-four point (an open three `me` must answer).
    pub(super) opp_flex4: bool,
}

impl Facts {
    #[inline(always)]
    pub(super) fn of(counts: &[[u16; crate::threat::THREATS]; 2], me: Color) -> Facts {
        let (m, o) = (&counts[me.index()], &counts[(!me).index()]);
        Facts {
            five: m[Threat::Five as usize] > 0,
            opp_fives: o[Threat::Five as usize],
            flex4: m[Threat::Flex4 as usize] > 0,
            four: m[Threat::Block4 as usize..].iter().any(|&c| c > 0),
            opp_flex4: o[Threat::Flex4 as usize] > 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{generate, GenKind, MoveList};
    use crate::search::solver::{Proof, SolveLimits, Solver};
    use crate::types::Rule;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Random games under freestyle, standard and renju: wherever [`wins_in_five`] calls
    /// the position won, the threat solver proves the win too.
    #[test]
    fn a_win_in_five_is_one_the_solver_proves() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut list = MoveList::new();
        let mut won = [0; 3];
        for g in 0..300 {
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][g % 3];
            let mut b = Board::new(15, rule);
            for _ in 0..60 {
                let me = b.to_move();
                let no_fives = b.count(!me, Threat::Five) == 0 && b.count(me, Threat::Five) == 0;
                if no_fives && wins_in_five(&b, me) {
                    won[g % 3] += 1;
                    let proof = Solver::new().vct(&mut b, &SolveLimits::default());
                    assert!(
                        matches!(proof, Proof::Win(_)),
                        "{rule:?} {:?}: {proof:?}",
                        b.moves()
                    );
                    break;
                }
                generate(&mut b, GenKind::Candidates, &mut list);
                if list.is_empty() || !no_fives {
                    break;
                }
                b.make(list.as_slice()[rng.next_u32() as usize % list.len()].pos);
            }
        }
        assert!(won.iter().all(|&n| n >= 10), "{won:?}");
    }
}
