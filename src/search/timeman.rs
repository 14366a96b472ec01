//! Front-end time management: turns the Gomocup clock (`timeout_turn`, `timeout_match`,
//! `time_left`) into search [`Limits`] with a safety margin, so that the engine never loses
//! on time.

use crate::search::params::{
    MOVES_TO_GO, MOVE_MAX_DIVISOR, MOVE_MAX_SHARES, SOFT_SHARE_PERCENT, SOFT_TURN_PERCENT,
    TIME_MARGIN_MAX_MS, TIME_MARGIN_MS, TIME_MARGIN_SHARE,
};
use crate::search::Limits;
use std::time::Duration;

/// `time_left` / `timeout_match` value that Gomocup managers use for "no limit".
pub const UNLIMITED_MS: i64 = 2_147_483_647;

/// Per-move budget when the manager told us nothing about time.
const DEFAULT_TURN_MS: i64 = 5_000;
/// Budget for `timeout_turn 0` ("play as fast as possible").
const FASTEST_MS: i64 = 20;
/// The smallest hard limit we ever hand the search: even with no time left we must answer.
const FLOOR_MS: i64 = 5;
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
    /// The hard limit for the next move in ms: the turn budget and a share of the match
    /// budget, each less its margin. `stones` is the number of stones on the board and
    /// `cells` the board's area (to guess how many moves remain).
    #[cfg(test)]
    pub fn hard_ms(&self, stones: usize, cells: usize) -> i64 {
        self.hard_and_binding(stones, cells).0
    }

    /// The hard limit, and whether the turn budget (not the game clock's share) set it.
    fn hard_and_binding(&self, stones: usize, cells: usize) -> (i64, bool) {
        let turn = match self.turn_ms {
            Some(t) if t <= 0 => FASTEST_MS,
            Some(t) => t - margin(t),
            None => DEFAULT_TURN_MS,
        };
        let share = self.match_share(stones, cells);
        let hard = turn
            .min(share.unwrap_or(CEILING_MS))
            .clamp(FLOOR_MS, CEILING_MS);
        let turn_bound = share.is_none_or(|m| m.clamp(FLOOR_MS, CEILING_MS) > hard);
        (hard, turn_bound)
    }

    /// The part of the remaining game time this move may use, if the game time is limited.
    fn match_share(&self, stones: usize, cells: usize) -> Option<i64> {
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
        let avail = left - margin(left.max(0));
        if avail <= 0 {
            return Some(FLOOR_MS);
        }
        // Our own moves still to come: half the empty cells, within MOVES_TO_GO.
        let empty = cells.saturating_sub(stones) as i64;
        let to_go = (empty / 2).clamp(MOVES_TO_GO.0, MOVES_TO_GO.1);
        // A move may take a few shares, but never more than a part of what is left.
        Some(
            (avail * MOVE_MAX_SHARES / to_go)
                .min(avail / MOVE_MAX_DIVISOR)
                .max(FLOOR_MS),
        )
    }

    /// Search limits for the next move: the hard limit (`hard_and_binding`) and a
    /// soft limit (no new iteration after it): [`SOFT_TURN_PERCENT`] of the hard limit when
    /// the turn limit binds, [`SOFT_SHARE_PERCENT`] when a share of the game clock does.
    pub fn limits(&self, stones: usize, cells: usize) -> Limits {
        let (hard, turn_bound) = self.hard_and_binding(stones, cells);
        let soft = hard
            * if turn_bound {
                SOFT_TURN_PERCENT
            } else {
                SOFT_SHARE_PERCENT
            }
            / 100;
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
        let h = tc(Some(1000), None, None).hard_ms(0, 225);
        assert!((900..1000).contains(&h), "{h}");
        let h = tc(Some(30_000), Some(0), Some(UNLIMITED_MS)).hard_ms(0, 225);
        assert_eq!(h, 30_000 - 400);
    }

    #[test]
    fn nothing_known_uses_the_default() {
        assert_eq!(tc(None, None, None).hard_ms(0, 225), DEFAULT_TURN_MS);
    }

    #[test]
    fn zero_turn_means_fast() {
        assert_eq!(tc(Some(0), None, None).hard_ms(10, 225), FASTEST_MS);
        assert_eq!(tc(Some(-5), None, None).hard_ms(10, 225), FASTEST_MS);
    }

    #[test]
    fn match_clock_bounds_the_move() {
        // 30 s per move but only 10 s left in the game: far less than 10 s.
        let h = tc(Some(30_000), Some(180_000), Some(10_000)).hard_ms(20, 225);
        assert!(h <= 2_000, "{h}");
        assert!(h >= 500, "{h}");
        // Only the match time known: a share of it.
        let h = tc(None, Some(60_000), None).hard_ms(0, 225);
        assert!(h < 60_000 / 5 && h > 1000, "{h}");
    }

    #[test]
    fn negative_or_tiny_time_left_still_answers() {
        assert_eq!(
            tc(Some(5000), Some(1000), Some(-300)).hard_ms(50, 225),
            FLOOR_MS
        );
        assert_eq!(
            tc(Some(5000), Some(1000), Some(10)).hard_ms(50, 225),
            FLOOR_MS
        );
    }

    #[test]
    fn a_front_end_turn_is_the_brains() {
        // `Limits::for_turn` gives what a manager's `timeout_turn` alone gives the brain.
        let l = crate::search::Limits::for_turn(1000, 30, 225);
        let want = tc(Some(1000), None, None).limits(30, 225);
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
        assert_eq!(t.hard_ms(0, 225), 2000 - margin(2000));
        let t = tc(Some(2000), Some(0), None);
        assert_eq!(t.hard_ms(0, 225), 2000 - margin(2000));
    }

    #[test]
    fn soft_limit_is_below_hard() {
        let l = tc(Some(1000), None, None).limits(0, 225);
        assert!(l.soft_time.unwrap() < l.hard_time.unwrap());
    }

    #[test]
    fn soft_share_depends_on_which_clock_binds() {
        // Turn limit binds (ample game time): 80% of the hard limit.
        let l = tc(Some(1000), Some(500_000), Some(500_000)).limits(10, 225);
        let (soft, hard) = (l.soft_time.unwrap(), l.hard_time.unwrap());
        assert_eq!(
            soft.as_millis() * 5,
            hard.as_millis() * 4,
            "{soft:?} {hard:?}"
        );
        // Game clock binds (30 s a turn, 20 s left): 40% of the hard limit.
        let l = tc(Some(30_000), Some(180_000), Some(20_000)).limits(10, 225);
        let (soft, hard) = (l.soft_time.unwrap(), l.hard_time.unwrap());
        assert!(hard.as_millis() < 29_000, "{hard:?}");
        assert_eq!(
            soft.as_millis() * 5,
            hard.as_millis() * 2,
            "{soft:?} {hard:?}"
        );
    }
}
