//! How a varying engine orders its candidates by its record of the positions it placed
//! ([`Placed`]): new balanced positions first, then ways that may still lead to new final
//! positions, then wider windows, and a spent position last; and which stones end a stage.

use super::{with, Engine, VARIETY_WINDOW, WIDEST_WINDOW};
use crate::engine::opening::action::{Action, Expect};
use crate::engine::opening::placed::Placed;
use crate::engine::opening::state::Opening;
use crate::types::Pos;
use rand_xoshiro::rand_core::RngCore;
use std::borrow::Cow;

impl Engine {
    /// Shuffles `items` in place (Fisher-Yates, by the engine's generator).
    pub(super) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.rng.next_u64() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }

    /// Of `moves` after `stones` (each with its score), the one a varying engine plays when
    /// `off` says how far a score stands from the ideal (0 for the ideal): the first in the
    /// order of [`Engine::order_varied`] with `margin` as the window. `None` when `moves`
    /// is empty.
    pub(super) fn vary(
        &mut self,
        stones: &[Pos],
        moves: &[(Pos, i32)],
        margin: i32,
        off: &dyn Fn(i32) -> i32,
    ) -> Option<(Pos, i32)> {
        let mut pool = moves.to_vec();
        self.order_varied(stones, &mut pool, margin, |&(p, s)| {
            (Cow::Owned(with(stones, &[p])), off(s))
        });
        pool.first().copied()
    }

    /// Orders the candidates after `stones` as a varying engine tries them: shuffled, then
    /// by [`rank`] of the position each makes and its distance from the ideal (`made`),
    /// with `near` as the window (random among equals); `stones` spent when the first is
    /// not new and within the window ([`Engine::spend_if_wide`]).
    pub(super) fn order_varied<C>(
        &mut self,
        stones: &[Pos],
        pool: &mut Vec<C>,
        near: i32,
        made: impl Fn(&C) -> (Cow<'_, [Pos]>, i32),
    ) {
        self.shuffle(pool);
        let size = self.board().size();
        let placed = self.placed_openings();
        let mut ranked: Vec<_> = pool
            .drain(..)
            .map(|c| {
                let (after, off) = made(&c);
                (rank(&placed, size, &after, off, near), c)
            })
            .collect();
        drop(placed);
        // Stable: equal ranks keep the shuffled order.
        ranked.sort_by_key(|r| r.0);
        if let Some(&(order, _)) = ranked.first() {
            self.spend_if_wide(stones, order);
        }
        pool.extend(ranked.into_iter().map(|r| r.1));
    }

    /// When the first candidate in the order of [`rank`] after `stones` lies outside the
    /// window, no new balanced position follows `stones`: the way to it is spent
    /// ([`Placed::spend`]), so that later stages go another way before they come back
    /// here for the wider windows.
    pub(super) fn spend_if_wide(&mut self, stones: &[Pos], order: Rank) {
        if order.0 >= 2 {
            let size = self.board().size();
            self.placed_openings().spend(size, stones);
        }
    }
}

/// Does `action` (a stone placed or picked) end the stones of `opening`'s stage: do only
/// choices of colour follow it? Then the position it makes is the stage's final position.
pub(super) fn ends_stones(opening: &Opening, action: &Action) -> bool {
    let mut after = opening.clone();
    let Some(who) = after.to_act() else {
        return true;
    };
    if after.apply(who, action.clone()).is_err() {
        return false;
    }
    while let Some(who) = after.to_act() {
        if !matches!(after.expect(), Expect::Colour | Expect::Swap2Choice) {
            return false;
        }
        let keep = after.colour_of(who);
        if after.apply(who, Action::Choose(keep)).is_err() {
            return false;
        }
    }
    true
}

/// Where a candidate stands in a varying engine's order ([`rank`]): lower first.
pub(super) type Rank = (u8, u32, u32, i32);

/// The order in which a varying engine tries a candidate that makes `after`, `off` from
/// the ideal (0 for the ideal: even, the best move or the offer worst for black), with
/// `near` the window within which it counts as balanced (lower first, random among equals):
/// 0. new positions within `near`;
/// 1. positions placed before but not spent ([`Placed::end`]) within `near`, the least
///    placed first: new final positions may still follow them;
/// 2. new positions within [`VARIETY_WINDOW`] (or `near` if wider), nearest first;
/// 3. positions placed before but not spent within that window, the least placed first;
/// 4. spent positions within `near`, the least spent first, then the least placed: a
///    balanced position placed again is worth more than a new one further than
///    [`VARIETY_WINDOW`] from even, where a short search's error makes the opening a
///    gift to one side (and where a rule has few final positions, as swap after the
///    first move with its 36 points, every one is placed again sooner or later);
/// 5. new positions within [`WIDEST_WINDOW`], nearest first;
/// 6. the rest, new positions first, nearest first.
pub(super) fn rank(placed: &Placed, size: usize, after: &[Pos], off: i32, near: i32) -> Rank {
    let (times, spent) = (placed.times(size, after), placed.spent(size, after));
    let (new, fresh) = (times == 0, spent == 0);
    let wide = VARIETY_WINDOW.max(near);
    match off {
        _ if off <= near && new => (0, 0, 0, 0),
        _ if off <= near && fresh => (1, times, 0, 0),
        _ if off <= wide && new => (2, 0, 0, off),
        _ if off <= wide && fresh => (3, times, 0, off),
        _ if off <= near => (4, spent, times, 0),
        _ if off <= WIDEST_WINDOW && new => (5, 0, 0, off),
        _ => (6, times.min(1), 0, off),
    }
}
