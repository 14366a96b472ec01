//! The fifth-move decisions of the RIF rules: black's list of fifth moves, the offers and
//! the number declared (Soosorv's 4th stone with it), and white's pick among the offers.

use super::*;

impl Engine {
    /// Black's fifth moves after `stones`, best first for black with their scores, one of
    /// each set that a symmetry of the stones maps onto each other: the opening book's
    /// fifth moves where it lists them after `stones` ([`Engine::book_fifths`]: the short
    /// search is not run, whose list of root moves differs from the book's and whose
    /// scores of the moves outside the book would stand among the book's deeper ones),
    /// else the short search's root moves, with the book's score where it has the position.
    pub(super) fn fifths(&mut self, stones: &[Pos], limits: &Limits) -> Vec<(Pos, i32)> {
        let mut scored = self.book_fifths(stones);
        if scored.is_empty() {
            self.set_position(stones).ok();
            scored = self.scored_root(limits, &mut |_| {});
            self.with_book_scores(stones, &mut scored);
        }
        scored.sort_by_key(|&(p, s)| (std::cmp::Reverse(s), p.0));
        one_of_each(self.board().size(), stones, &scored)
    }

    /// Black's score when it offers its `count` best fifth moves and white takes the worst.
    pub(super) fn nth_fifth(&mut self, stones: &[Pos], count: u8, limits: &Limits) -> i32 {
        let fifths = self.fifths(stones, limits);
        worst_of_best(&fifths, count as usize)
    }

    /// `count` fifth moves for black to offer: its best, none symmetric to another, with
    /// legal points of the board added (centre-out) when the search named too few.
    pub(super) fn offers(
        &mut self,
        stones: &[Pos],
        fifths: &[(Pos, i32)],
        count: usize,
    ) -> Vec<Pos> {
        let mut list: Vec<Pos> = fifths.iter().take(count).map(|&(p, _)| p).collect();
        let size = self.board().size();
        let syms = keeping(size, stones);
        self.set_position(stones).ok();
        let forbidden = self.forbidden_points();
        let cells: Vec<Pos> = self.board().cells().to_vec();
        for p in cells {
            if list.len() >= count {
                break;
            }
            let taken = stones.contains(&p) || forbidden.contains(&p);
            let twin = list
                .iter()
                .any(|&q| syms.iter().any(|t| t.apply(p, size) == q));
            if !taken && !twin {
                list.push(p);
            }
        }
        list
    }

    /// White's pick among `offers`: the fifth move worst for black (by the opening book
    /// where it has the position, else by a search); when the engine varies
    /// its play, the one [`Engine::vary`] takes with the worst for black as the ideal and
    /// the engine's random margin. Returns it and black's score after it.
    pub(super) fn pick(&mut self, stones: &[Pos], offers: &[Pos], limits: &Limits) -> (Pos, i32) {
        let share = share(limits, 2);
        self.set_position(stones).ok();
        let scored = self.scored_root(&share, &mut |_| {});
        let missing: Vec<Pos> = offers
            .iter()
            .copied()
            .filter(|p| !scored.iter().any(|(q, _)| q == p))
            .collect();
        let probe = Engine::probe(&share, missing.len());
        let mut all: Vec<(Pos, i32)> = scored
            .into_iter()
            .filter(|(p, _)| offers.contains(p))
            .collect();
        for p in missing {
            if self.set_position(&with(stones, &[p])).is_ok() {
                let out = self.searched(&probe);
                all.push((p, -out.score));
            }
        }
        let booked = self.with_book_scores(stones, &mut all) == all.len();
        all.sort_by_key(|&(p, s)| (s, p.0));
        let Some(&(worst, least)) = all.first() else {
            return (offers.first().copied().unwrap_or(Pos::NONE), 0);
        };
        let Some(margin) = self.config.random_margin else {
            return (worst, least);
        };
        // Every offer judged by the book: the worst for black, new positions first among
        // equals. A random margin there would hand black up to the margin at every pick,
        // which the offers, balanced by the same book, do not expect.
        let margin = if booked { 0 } else { margin };
        if mate_distance(least).is_some() {
            return (worst, least);
        }
        // Varying: as Engine::vary does with the worst for black as the ideal.
        self.vary(stones, &all, margin, &|s| s - least)
            .unwrap_or((worst, least))
    }

    /// The number of fifth moves (1 to `max`) after which black, offering its best and
    /// white taking the worst, stands nearest even; with `white_first`, after white's best
    /// 4th stone first. Returns it and black's score.
    pub(super) fn declare_for(
        &mut self,
        stones: &[Pos],
        max: u8,
        white_first: bool,
        limits: &Limits,
    ) -> (u8, i32) {
        let share = share(limits, 2);
        let mut with = stones.to_vec();
        if white_first {
            self.set_position(stones).ok();
            let out = self.searched(&share);
            if !out.best.is_none() {
                with.push(out.best);
            }
        }
        let fifths = self.fifths(&with, &share);
        nearest_even(&fifths, max)
    }

    /// Soosorv's 4th stone and number: of white's best few 4th stones ([`FOURTHS_TRIED`],
    /// [`FOURTHS_TRIED_VARYING`] when the engine varies its play; only those after which the
    /// opening book has fifth moves, when it has any, and of those only the ones it
    /// balances within [`VARIETY_WINDOW`] if there are such), the one and the number
    /// after which black stands nearest even (black may swap next), chosen as
    /// [`Engine::choose_balanced`] does. Returns the stone, the number and black's score.
    pub(super) fn fourth_and_declare(
        &mut self,
        stones: &[Pos],
        max: u8,
        limits: &Limits,
        stopped: &dyn Fn() -> bool,
    ) -> (Pos, u8, i32) {
        let rule = OpeningRule::Soosorv { max_fifths: max };
        let tried = if self.config.random_margin.is_some() {
            FOURTHS_TRIED_VARYING
        } else {
            FOURTHS_TRIED
        };
        // The time is shared among the searches; a node budget caps each one, as it caps
        // each probe, so that trying more 4th stones makes none of them shallower.
        let share = Limits {
            nodes: limits.nodes,
            ..share(limits, tried as u32 + 2)
        };
        self.set_position(stones).ok();
        let mut fourths = self.scored_root(&share, &mut |_| {});
        fourths.sort_by_key(|&(p, s)| (std::cmp::Reverse(s), p.0));
        // Where the book has fifth moves after some of them, those: black's fifths are
        // then judged by its scores, not by the short searches.
        let in_book: Vec<(Pos, i32)> = fourths
            .iter()
            .copied()
            .filter(|&(p, _)| self.book_balance(&with(stones, &[p]), rule).is_some())
            .collect();
        let booked = !in_book.is_empty();
        if booked {
            fourths = in_book;
        }
        let mut scored: Vec<((Pos, u8), Vec<Pos>, i32)> = Vec::new();
        for &(fourth, _) in fourths.iter().take(tried) {
            if stopped() && !scored.is_empty() {
                break;
            }
            let after = with(stones, &[fourth]);
            let fifths = self.fifths(&after, &share);
            let (k, v) = if booked {
                self.declare_fresh(&after, &fifths, max)
            } else {
                nearest_even(&fifths, max)
            };
            scored.push(((fourth, k), after, v));
        }
        if booked {
            keep_balanced(&mut scored);
        }
        // No deeper checks: a search of the position after the 4th judges black's free
        // choice of the 5th, not the offers.
        match self.choose_balanced(stones, scored, None, stopped) {
            Some(((fourth, k), v)) => (fourth, k, v),
            None => {
                let free = self
                    .board()
                    .cells()
                    .iter()
                    .copied()
                    .find(|p| !stones.contains(p));
                (free.unwrap_or(Pos::NONE), max.min(MAX_FIFTHS), 0)
            }
        }
    }
}

/// Black's score when it offers the first `count` of `fifths` (best first) and white takes
/// the worst: the `count`th, or the last when there are fewer.
pub(super) fn worst_of_best(fifths: &[(Pos, i32)], count: usize) -> i32 {
    fifths
        .get(count.max(1) - 1)
        .or(fifths.last())
        .map_or(0, |&(_, s)| s)
}

/// The number 1 to `max` whose [`worst_of_best`] is nearest even, and that score.
pub(super) fn nearest_even(fifths: &[(Pos, i32)], max: u8) -> (u8, i32) {
    (1..=max.max(1))
        .map(|k| (k, worst_of_best(fifths, k as usize)))
        .min_by_key(|&(k, v)| (v.abs(), k))
        .unwrap_or((1, 0))
}
