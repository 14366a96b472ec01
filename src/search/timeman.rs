//! Front-end time management: turns the Gomocup clock (`timeout_turn`, `timeout_match`,
//! `time_left`) into search [`Limits`] with a safety margin, so that the engine never loses
//! on time.

use crate::search::params::{
    MOVE_MAX_DIVISOR, MOVE_MAX_SHARES, SOFT_TURN_PERCENT, TIME_MARGIN_MAX_MS, TIME_MARGIN_MS,
    TIME_MARGIN_SHARE,
};
use crate::search::{Limits, Params};
use std::time::Duration;

/// `time_left` / `timeout_match` value that Gomocup managers use for "no limit".
pub const UNLIMITED_MS: i64 = 2_147_483_647;

/// Per-move budget when the manager told us nothing about time.
const DEFAULT_TURN_MS: i64 = 5_000;
/// Budget for `timeout_turn 0` ("play as fast as possible").
const FASTEST_MS: i64 = 20;
/// The smallest hard limit we ever hand the search: even with no time left we must answer.
const FLOOR_MS: i64 = 5;
/// What a move at the [`FLOOR_MS`] limit costs at most, the search's overshoot included,
/// in ms: the game clock keeps this much back for each move the board still has room for.
const LEAST_MOVE_MS: i64 = 10;
/// Never search longer than this in one move, whatever the clock says (a day).
const CEILING_MS: i64 = 86_400_000;

/// What the manager said about the clock, in milliseconds, as received (`None` = not sent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// `INFO timeout_turn`: time for one move; 0 = as fast as possible.
    pub turn_ms: Option<i64>,
    /// `INFO timeout_match`: time for the whole game; 0 = no limit.
    pub match_ms: Option<i64>,
    /// `INFO time_left`: time left in the game; may be negative; [`UNLIMITED_MS`] = no limit.
    pub left_ms: Option<i64>,
}

/// The margin kept back from a budget of `ms` ([`TIME_MARGIN_MS`]).
fn margin(ms: i64) -> i64 {
    (TIME_MARGIN_MS + ms / TIME_MARGIN_SHARE).min(TIME_MARGIN_MAX_MS)
}

impl TimeControl {
    /// The hard limit for the next move in ms on 15x15: the turn budget and a share of the
    /// match budget, each less its margin. `stones` is the number of stones on the board
    /// (to guess how many of our moves remain).
    #[cfg(test)]
    pub fn hard_ms(&self, stones: usize) -> i64 {
        self.hard_and_binding(stones, 225, &Params::default()).0
    }

    /// The hard limit, and whether the turn budget (not the game clock's share) set it.
    fn hard_and_binding(&self, stones: usize, cells: usize, params: &Params) -> (i64, bool) {
        let turn = match self.turn_ms {
            Some(t) if t <= 0 => FASTEST_MS,
            Some(t) => t - margin(t),
            None => DEFAULT_TURN_MS,
        };
        let share = self.match_share(stones, cells, params);
        let hard = turn
            .min(share.unwrap_or(CEILING_MS))
            .clamp(FLOOR_MS, CEILING_MS);
        let turn_bound = share.is_none_or(|m| m.clamp(FLOOR_MS, CEILING_MS) > hard);
        (hard, turn_bound)
    }

    /// The part of the remaining game time this move may use, if the game time is limited.
    fn match_share(&self, stones: usize, cells: usize, params: &Params) -> Option<i64> {
        // `timeout_match 0` (or the "unlimited" value) means no game clock, whatever
        // `time_left` says.
        if matches!(self.match_ms, Some(m) if m <= 0 || m >= UNLIMITED_MS) {
            return None;
        }
        let left = match self.left_ms {
            Some(l) if l >= UNLIMITED_MS => return None,
            Some(l) => l,
            None => self.match_ms?,
        };
        // Kept back: the margin, and the least a move costs for each of our moves the board
        // still has room for, so that a game played to a full board ends on the clock.
        let room = (cells.saturating_sub(stones) / 2) as i64;
        let avail = left - margin(left.max(0)) - room * LEAST_MOVE_MS;
        if avail <= 0 {
            return Some(FLOOR_MS);
        }
        // Our own moves still to come: the horizon less the moves made (half the stones),
        // never fewer than the minimum.
        let horizon = params.clock_horizon_moves().max(1);
        let least = params.clock_min_moves_to_go().clamp(1, horizon);
        let made = (stones / 2) as i64;
        let to_go = (horizon - made).clamp(least, horizon);
        // A move may take a few shares, but never more than a part of what is left.
        Some(
            (avail * MOVE_MAX_SHARES / to_go)
                .min(avail / MOVE_MAX_DIVISOR)
                .max(FLOOR_MS),
        )
    }

    /// Search limits for the next move with `stones` on a board of `cells`: the hard limit
    /// (`hard_and_binding`) and a soft limit (no new iteration after it):
    /// [`SOFT_TURN_PERCENT`] of the hard limit when the turn limit binds, the parameter
    /// [`SOFT_SHARE_PERCENT`](crate::search::params::SOFT_SHARE_PERCENT) when a share of
    /// the game clock does. The game clock's planning comes from `params`.
    pub fn limits(&self, stones: usize, cells: usize, params: &Params) -> Limits {
        let (hard, turn_bound) = self.hard_and_binding(stones, cells, params);
        let soft =
            hard * if turn_bound {
                SOFT_TURN_PERCENT
            } else {
                params.soft_share_percent()
            } / 100;
        Limits {
            depth: None,
            nodes: None,
            soft_time: Some(Duration::from_millis(soft.max(1) as u64)),
            hard_time: Some(Duration::from_millis(hard as u64)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(turn: Option<i64>, m: Option<i64>, left: Option<i64>) -> TimeControl {
        TimeControl {
            turn_ms: turn,
            match_ms: m,
            left_ms: left,
        }
    }

    #[test]
    fn turn_only_keeps_a_margin() {
        let h = tc(Some(1000), None, None).hard_ms(0);
        assert!((900..1000).contains(&h), "{h}");
        let h = tc(Some(30_000), Some(0), Some(UNLIMITED_MS)).hard_ms(0);
        assert_eq!(h, 30_000 - 400);
    }

    #[test]
    fn nothing_known_uses_the_default() {
        assert_eq!(tc(None, None, None).hard_ms(0), DEFAULT_TURN_MS);
    }

    #[test]
    fn zero_turn_means_fast() {
        assert_eq!(tc(Some(0), None, None).hard_ms(10), FASTEST_MS);
        assert_eq!(tc(Some(-5), None, None).hard_ms(10), FASTEST_MS);
    }

    #[test]
    fn match_clock_bounds_the_move() {
        // 30 s per move but only 10 s left in the game: far less than 10 s.
        let h = tc(Some(30_000), Some(180_000), Some(10_000)).hard_ms(20);
        assert!(h <= 2_000, "{h}");
        assert!(h >= 500, "{h}");
        // Only the match time known: a share of it.
        let h = tc(None, Some(60_000), None).hard_ms(0);
        assert!(h < 60_000 / 5 && h > 1000, "{h}");
    }

    #[test]
    fn negative_or_tiny_time_left_still_answers() {
        assert_eq!(tc(Some(5000), Some(1000), Some(-300)).hard_ms(50), FLOOR_MS);
        assert_eq!(tc(Some(5000), Some(1000), Some(10)).hard_ms(50), FLOOR_MS);
    }

    #[test]
    fn a_front_end_turn_is_the_brains() {
        // `Limits::for_turn` gives what a manager's `timeout_turn` alone gives the brain.
        let l = crate::search::Limits::for_turn(1000);
        let want = tc(Some(1000), None, None).limits(30, 225, &Params::default());
        assert_eq!(l.hard_time, want.hard_time);
        assert_eq!(l.soft_time, want.soft_time);
        let hard = l.hard_time.unwrap().as_millis();
        assert!((900..1000).contains(&hard), "{hard}");
        assert!(l.soft_time <= l.hard_time);
        assert_eq!((l.nodes, l.depth), (None, None));
    }

    #[test]
    fn unlimited_values_do_not_limit() {
        let t = tc(Some(2000), Some(UNLIMITED_MS), Some(UNLIMITED_MS));
        assert_eq!(t.hard_ms(0), 2000 - margin(2000));
        let t = tc(Some(2000), Some(0), None);
        assert_eq!(t.hard_ms(0), 2000 - margin(2000));
    }

    #[test]
    fn soft_limit_is_below_hard() {
        let l = tc(Some(1000), None, None).limits(0, 225, &Params::default());
        assert!(l.soft_time.unwrap() < l.hard_time.unwrap());
    }

    #[test]
    fn soft_share_depends_on_which_clock_binds() {
        // Turn limit binds (ample game time): 80% of the hard limit.
        let l = tc(Some(1000), Some(500_000), Some(500_000)).limits(10, 225, &Params::default());
        let (soft, hard) = (l.soft_time.unwrap(), l.hard_time.unwrap());
        assert_eq!(
            soft.as_millis() * 5,
            hard.as_millis() * 4,
            "{soft:?} {hard:?}"
        );
        // Game clock binds (30 s a turn, 20 s left): 40% of the hard limit.
        let l = tc(Some(30_000), Some(180_000), Some(20_000)).limits(10, 225, &Params::default());
        let (soft, hard) = (l.soft_time.unwrap(), l.hard_time.unwrap());
        assert!(hard.as_millis() < 29_000, "{hard:?}");
        assert_eq!(
            soft.as_millis(),
            hard.as_millis() * 2 / 5,
            "{soft:?} {hard:?}"
        );
    }

    /// Plays out a game clock: `moves` of our moves, each spending `spend` percent of its
    /// hard limit (100: every move runs to its hard limit), with the opponent's move
    /// between ours; returns the time left in ms.
    fn spend_clock(match_ms: i64, turn_ms: i64, moves: usize, spend: i64) -> i64 {
        let mut left = match_ms;
        for k in 0..moves {
            let t = tc(Some(turn_ms), Some(match_ms), Some(left));
            let hard = t.limits(2 * k, 225, &Params::default()).hard_time.unwrap();
            left -= hard.as_millis() as i64 * spend / 100;
            assert!(left >= 0, "move {k}: {left} ms left");
        }
        left
    }

    #[test]
    fn a_game_clock_is_spent_over_the_game_and_never_overrun() {
        // Every move to its hard limit until the board is full (112 of our moves): never out
        // of time.
        spend_clock(60_000, 5_000, 112, 100);
        spend_clock(20_000, 2_000, 112, 100);
        spend_clock(5_000, 1_000, 112, 100);
        // Every move to about its soft limit and a little over (half the hard limit): a
        // game of 30 of our moves, as most games last, spends most of the clock.
        let left = spend_clock(60_000, 5_000, 30, 50);
        assert!(left < 60_000 / 4, "{left} ms of 60 s left after 30 moves");
        let left = spend_clock(180_000, 30_000, 30, 50);
        assert!(left < 180_000 / 4, "{left} ms of 180 s left after 30 moves");
    }
}
