//! The manager's clock: the time control a game is played under, what it tells the engines
//! (`INFO timeout_turn`, `timeout_match`, `time_left`), and the limit each move is held to.

use crate::dice::Dice;
use std::fmt;

/// `time_left` / `timeout_match` value that Gomocup managers send for "no limit".
pub const UNLIMITED_MS: i64 = 2_147_483_647;

/// A game's time control.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Clock {
    /// `timeout_turn` per move and no game clock. `announce` also sends `timeout_match 0`
    /// and `time_left 2147483647`, as Piskvork does; otherwise nothing is said about it.
    Turn { turn_ms: u64, announce: bool },
    /// A per-move limit and a game clock, with `time_left` before every move.
    Match { turn_ms: u64, match_ms: u64 },
    /// `timeout_turn 0` ("as fast as possible") with a game clock only.
    MatchOnly { match_ms: u64 },
}

impl Clock {
    /// Draws a time control: full range, or only fast ones (`fast`, for the test).
    pub fn draw(dice: &mut Dice, fast: bool) -> Clock {
        match dice.weighted(&[(60, 0), (25, 1), (15, 2)]) {
            0 => Clock::Turn {
                turn_ms: if fast {
                    dice.log_range(50, 200)
                } else {
                    dice.log_range(50, 2000)
                },
                announce: dice.chance(0.5),
            },
            1 => Clock::Match {
                turn_ms: if fast {
                    dice.range(100, 200)
                } else {
                    dice.log_range(500, 5000)
                },
                match_ms: if fast {
                    dice.range(1000, 3000)
                } else {
                    dice.log_range(2000, 20_000)
                },
            },
            _ => Clock::MatchOnly {
                match_ms: if fast {
                    dice.range(500, 2000)
                } else {
                    dice.log_range(1000, 10_000)
                },
            },
        }
    }

    /// The game clock in ms, if there is one.
    pub fn match_ms(self) -> Option<u64> {
        match self {
            Clock::Turn { .. } => None,
            Clock::Match { match_ms, .. } | Clock::MatchOnly { match_ms } => Some(match_ms),
        }
    }

    /// The `INFO` settings announced at the start of a game, as (key, value).
    pub fn settings(self) -> Vec<(&'static str, String)> {
        match self {
            Clock::Turn { turn_ms, announce } => {
                let mut v = vec![("timeout_turn", turn_ms.to_string())];
                if announce {
                    v.push(("timeout_match", "0".into()));
                    v.push(("time_left", UNLIMITED_MS.to_string()));
                }
                v
            }
            Clock::Match { turn_ms, match_ms } => vec![
                ("timeout_turn", turn_ms.to_string()),
                ("timeout_match", match_ms.to_string()),
            ],
            Clock::MatchOnly { match_ms } => vec![
                ("timeout_turn", "0".into()),
                ("timeout_match", match_ms.to_string()),
            ],
        }
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Clock::Turn { turn_ms, announce } => write!(
                f,
                "turn {turn_ms} ms{}",
                if *announce { " (match 0 sent)" } else { "" }
            ),
            Clock::Match { turn_ms, match_ms } => {
                write!(f, "turn {turn_ms} ms, match {match_ms} ms")
            }
            Clock::MatchOnly { match_ms } => write!(f, "turn 0, match {match_ms} ms"),
        }
    }
}

/// The running clock of one game: each player's time left under a game clock.
pub struct ClockState {
    clock: Clock,
    left_ms: [i64; 2],
    least_ms: Option<i64>,
}

impl ClockState {
    /// Both players start with the whole game clock.
    pub fn new(clock: Clock) -> ClockState {
        let full = clock.match_ms().map_or(0, |m| m as i64);
        ClockState {
            clock,
            left_ms: [full; 2],
            least_ms: None,
        }
    }

    /// The `INFO time_left` line to send before player `p`'s move, if there is a game
    /// clock. Remembers the least value sent.
    pub fn time_left_value(&mut self, p: usize) -> Option<i64> {
        self.clock.match_ms()?;
        let left = self.left_ms[p];
        self.least_ms = Some(self.least_ms.map_or(left, |l| l.min(left)));
        Some(left)
    }

    /// The manager's limit for player `p`'s next answer in ms: the turn time, or what is
    /// left of the game clock, whichever is smaller (0 once the clock has run out). Under
    /// `timeout_turn 0` only the game clock limits.
    pub fn limit_ms(&self, p: usize) -> u64 {
        let left = self.left_ms[p].max(0) as u64;
        match self.clock {
            Clock::Turn { turn_ms, .. } => turn_ms,
            Clock::Match { turn_ms, .. } => turn_ms.min(left),
            Clock::MatchOnly { .. } => left,
        }
    }

    /// Charges player `p` for an answer that took `ms`.
    pub fn charge(&mut self, p: usize, ms: u64) {
        if self.clock.match_ms().is_some() {
            self.left_ms[p] -= ms as i64;
            let left = self.left_ms[p];
            self.least_ms = Some(self.least_ms.map_or(left, |l| l.min(left)));
        }
    }

    /// The least time left seen (sent, or after a charge), under a game clock.
    pub fn least_ms(&self) -> Option<i64> {
        self.least_ms
    }
}
