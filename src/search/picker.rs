//! Move generation and ordering for a node: the forced replies (fives, blocks of a four,
//! answers to an open three) or the candidates, scored by the ordering weights, locality,
//! the net's policy (with the learned evaluation), killers and history, and narrowed in
//! quiet nodes.
use super::params::*;
use super::*;
use crate::search::solver::legal_flex4;
use crate::types::Rule;

impl Searcher<'_> {
    /// Fills `list` with the moves of this node, scored for ordering, in no particular order
    /// (the caller orders what it needs: [`MoveList::pick`]). Returns how many of the
    /// best-ordered moves the node may search (a narrowed quiet node keeps fewer than the
    /// list holds; the list itself is not cut, since a caller that picks its moves in order
    /// meets the kept ones first), or `None` when the side to move has lost (cannot stop the
    /// opponent's five).
    pub(super) fn gen_moves(
        &mut self,
        list: &mut MoveList,
        tt_move: Pos,
        ply: usize,
    ) -> Option<usize> {
        let real_threes = self.shared.params.renju_real_threes() != 0;
        let b = &mut self.board;
        let me = b.to_move();
        let opp = !me;
        list.clear();
        if b.count(me, Threat::Five) > 0 {
            generate(b, GenKind::Fives, list);
            if !list.is_empty() {
                return Some(usize::MAX);
            }
        }
        if b.count(opp, Threat::Five) > 0 {
            crate::movegen::five_defences(b, list);
            return (!list.is_empty()).then_some(usize::MAX);
        }
        let mut quiet_node = false;
        if must_answer_three(b, real_threes) {
            // Only our fours, or points that block its open threes, can hold.
            crate::movegen::three_defences(b, list);
        } else if answers_four_three(b, ply) && {
            crate::movegen::four_three_defences(b, list);
            !list.is_empty()
        } {
            // Only our fours, or points that may stop its four-three directly.
        } else {
            // Row order: every caller sorts the list by score, then position.
            crate::movegen::candidates_by_row(b, list);
            quiet_node = ply > 0;
        }
        let k = self.killers[ply];
        let side = me.index();
        crate::eval::order::score_moves(&self.board, me, list.as_mut_slice(), self.order);
        // Locality: moves far from the recent moves count less (measured:
        // docs/experiments.md, move ordering).
        {
            let mv = self.board.moves();
            let last = |k: usize| mv.len().checked_sub(k).map_or(Pos::NONE, |i| mv[i]);
            // Per row, bit x: within LOCALITY_RADIUS (Chebyshev) of one of the last two
            // moves (`near2`), of one of the last four (`near4`).
            let (mut near2, mut near4) = ([0u32; STRIDE], [0u32; STRIDE]);
            const R: usize = LOCALITY_RADIUS;
            for k in 1..=4 {
                let q = last(k);
                if q.is_none() {
                    continue;
                }
                let cols = ((((1u64 << (2 * R + 1)) - 1) << q.x()) >> R) as u32;
                for y in q.y().saturating_sub(R)..=(q.y() + R).min(STRIDE - 1) {
                    near4[y] |= cols;
                    if k <= 2 {
                        near2[y] |= cols;
                    }
                }
            }
            for m in list.as_mut_slice() {
                if m.score > 0 {
                    let (x, y) = (m.pos.x(), m.pos.y() & (STRIDE - 1));
                    if near4[y] >> x & 1 == 0 {
                        m.score /= LOCALITY_FAR_DIVISOR;
                    } else if near2[y] >> x & 1 == 0 {
                        m.score /= LOCALITY_NEAR_DIVISOR;
                    }
                }
            }
        }
        // Below the root, quiet nodes search only moves that make or stop something.
        let narrow = if crate::eval::fitted_for(self.board.rule()) {
            self.shared.params.narrow_score()
        } else {
            self.shared.params.narrow_score_hand()
        };
        let keep = if quiet_node {
            let n = list.iter_scores().filter(|&s| s >= narrow).count();
            n.max(MIN_NARROW_MOVES)
        } else {
            usize::MAX
        };
        let policy = self.shared.params.policy_weight();
        self.sync_net();
        if let (Some(acc), Some(net)) = (&self.acc, self.shared.net) {
            // The net's policy logit is in units of 1/QUANT^2; a version-6 net adds its
            // window term.
            let unit = crate::eval::net::QUANT * crate::eval::net::QUANT;
            for m in list.as_mut_slice() {
                let input = acc.cell(me, m.pos);
                let logit = net.policy(&input) + net.window_logit(&self.board, m.pos, me);
                m.score += (logit as i64 * policy as i64 / unit as i64) as i32;
            }
        }
        for m in list.as_mut_slice() {
            let p = m.pos;
            m.score = if p == tt_move {
                1 << 28
            } else {
                let mut s = m.score;
                if p == k[0] {
                    s += KILLER_BONUS[0];
                } else if p == k[1] {
                    s += KILLER_BONUS[1];
                }
                s + self.history[side][p.index()].min(HISTORY_CAP) / HISTORY_DIVISOR
            };
        }
        Some(keep)
    }
}

/// Must the side to move answer an open three (the opponent has a straight-four point and
/// it has none of its own)? Then only blocks and its own fours are searched. Under renju a
/// three of black's whose straight-four points are all forbidden is none: white need not
/// answer it (and the search then sees white's other moves too).
/// `real`: [`RENJU_REAL_THREES`].
pub(super) fn must_answer_three(b: &mut Board, real: bool) -> bool {
    let me = b.to_move();
    let opp = !me;
    b.count(opp, Threat::Flex4) > 0
        && b.count(me, Threat::Flex4) == 0
        && (!b.rule().forbids(opp) || !real || legal_flex4(b, Color::Black).is_some())
}

/// Does the side to move, below the root, answer an opponent's four-three point with the
/// moves that may stop it ([`crate::movegen::four_three_defences`]) alone?
pub(super) fn answers_four_three(b: &Board, ply: usize) -> bool {
    ply > 0
        && matches!(b.rule(), Rule::Freestyle | Rule::Standard)
        && b.count(!b.to_move(), Threat::Block4Flex3) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renju, white to move: black's open three 5,7 6,7 7,7 has the straight-four points
    /// 4,7 and 8,7, and each would also make two open threes (a four-three-three, forbidden
    /// as a double three). White need not answer it; with the class counts alone it would.
    #[test]
    fn a_renju_three_with_only_forbidden_fours_needs_no_answer() {
        let black = "5,7 6,7 7,7 8,5 8,6 9,8 10,9 4,5 4,6 3,8 2,9";
        let white = "0,0 14,0 0,14 14,14 0,7 14,7 7,0 7,14 11,2 2,12";
        let b = crate::notation::parse_move_list(black).unwrap();
        let w = crate::notation::parse_move_list(white).unwrap();
        let mut moves: Vec<Pos> = b.iter().zip(&w).flat_map(|(&x, &y)| [x, y]).collect();
        moves.push(*b.last().unwrap());
        let mut board = Board::new(15, Rule::Renju);
        board.play_all(&moves).unwrap();
        assert_eq!(board.to_move(), Color::White);
        assert_eq!(board.count(Color::Black, Threat::Flex4), 2);
        for p in [Pos::new(4, 7), Pos::new(8, 7)] {
            assert_eq!(board.threat(p, Color::Black), Threat::Flex4, "{p}");
            assert!(board.is_forbidden(p), "{p} is forbidden");
        }
        assert!(legal_flex4(&mut board, Color::Black).is_none());
        assert!(!must_answer_three(&mut board, true));
        assert!(must_answer_three(&mut board, false));
        // Under freestyle the same stones make a three white must answer.
        let mut free = Board::new(15, Rule::Freestyle);
        free.play_all(&moves).unwrap();
        assert!(must_answer_three(&mut free, true));
    }
}
