//! Balancing moves, for opening study (Yixin-Board's `YXBALANCEONE` / `YXBALANCETWO`): the
//! move, or the pair of moves, after which the position is as close to even as the search
//! can find, instead of the best move.

use super::Engine;
use crate::search::{mate_distance, Info, Limits, RootScores, INF};
use crate::types::Pos;
use std::sync::atomic::Ordering;

/// First moves tried for a balancing pair: the search's best few (a pair starts with a
/// natural move; each try costs a balancing search of the reply).
pub const PAIR_FIRST_MOVES: usize = 3;

impl Engine {
    /// The move of the side to move after which its score is closest to `bias` (0: an even
    /// game), from a search in which every root move is scored exactly; moves with a proven
    /// result are taken only when nothing else is left. Returns the move and its score (for
    /// the side to move), or `None` when there is no move.
    pub fn think_balance_one(
        &mut self,
        bias: i32,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<(Pos, i32)> {
        let scored = self.scored_root(limits, on_info);
        closest(&scored, bias)
    }

    /// Two moves, one of the side to move and the reply, after which the side to move's
    /// score is closest to `bias`. The first move is one of the [`PAIR_FIRST_MOVES`] best
    /// moves, the reply the opponent's balancing move against it (with the bias turned to
    /// the opponent's view); `limits` are shared out among the searches. Returns the pair
    /// and the final score for the side to move, or `None` when there is no pair.
    pub fn think_balance_two(
        &mut self,
        bias: i32,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<(Pos, Pos, i32)> {
        let share = share(limits, PAIR_FIRST_MOVES as u32 + 1);
        let mut firsts = self.scored_root(&share, on_info);
        firsts.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        let mut best: Option<(Pos, Pos, i32)> = None;
        for &(first, _) in firsts.iter().take(PAIR_FIRST_MOVES) {
            if self.stop.load(Ordering::SeqCst) || self.play(first).is_err() {
                continue;
            }
            let reply = self.think_balance_one(-bias, &share, on_info);
            self.undo();
            if let Some((second, score)) = reply {
                // The reply's score is the opponent's; the pair's is its negation.
                let ours = -score;
                if best.is_none_or(|(_, _, b)| (ours - bias).abs() < (b - bias).abs()) {
                    best = Some((first, second, ours));
                }
            }
        }
        self.stop.store(false, Ordering::SeqCst);
        best
    }

    /// Every root move with an exact score (for the side to move), from one search within
    /// `limits`: the balancing searches' and the opening decisions' view of all the moves
    /// at once.
    pub fn scored_root(
        &mut self,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> Vec<(Pos, i32)> {
        let out = self.search(limits, on_info, RootScores::Within(INF));
        self.stop.store(false, Ordering::SeqCst);
        let mut scored = out.root_scores;
        if scored.is_empty() && !out.best.is_none() {
            scored.push((out.best, out.score));
        }
        scored
    }
}

/// The move whose score is closest to `bias`, preferring undecided moves.
fn closest(scored: &[(Pos, i32)], bias: i32) -> Option<(Pos, i32)> {
    let undecided = scored.iter().filter(|(_, s)| mate_distance(*s).is_none());
    let pick = |it: &mut dyn Iterator<Item = &(Pos, i32)>| {
        it.min_by_key(|(_, s)| (s - bias).abs()).copied()
    };
    pick(&mut undecided.clone()).or_else(|| pick(&mut scored.iter()))
}

/// `limits` divided among `n` searches.
pub(super) fn share(limits: &Limits, n: u32) -> Limits {
    Limits {
        depth: limits.depth,
        nodes: limits.nodes.map(|x| x / n as u64),
        soft_time: limits.soft_time.map(|t| t / n),
        hard_time: limits.hard_time.map(|t| t / n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;

    #[test]
    fn the_closest_undecided_move_is_taken() {
        let (a, b, c) = (Pos::new(1, 1), Pos::new(2, 2), Pos::new(3, 3));
        assert_eq!(
            closest(&[(a, 300), (b, -40), (c, WIN - 3)], 0),
            Some((b, -40))
        );
        assert_eq!(closest(&[(a, 300), (b, -40)], 250), Some((a, 300)));
        assert_eq!(
            closest(&[(a, WIN - 3), (b, -(WIN - 4))], 0),
            Some((b, -(WIN - 4)))
        );
        assert_eq!(closest(&[], 0), None);
    }
}
