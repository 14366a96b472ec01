//! The engine's judgement in a player's words: a chance to win for the side named, or a
//! forced win counted in the winner's own moves. Scores come from the search, for the side
//! that was to move when it searched.

use crate::search::mate_distance;
use crate::types::Color;

/// The chance that `side` wins, in percent (1 to 99), from a score for `mover` and the
/// mover's chance to win that it means under the evaluation searched with (`own`, 0 to 1:
/// [`crate::engine::Engine::win_chance`]). `None` for a proven result (see [`Verdict`]).
pub fn chance(score: i32, own: f64, mover: Color, side: Color) -> Option<u32> {
    if mate_distance(score).is_some() {
        return None;
    }
    let p = if mover == side { own } else { 1.0 - own };
    // Never 0% or 100% for a position that is not proven.
    Some(((p * 100.0).round() as u32).clamp(1, 99))
}

/// How a search judged a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No proven result: `side`'s chance to win in percent.
    Chance {
        /// The side the chance is for.
        side: Color,
        /// 1 to 99.
        percent: u32,
    },
    /// `winner` can force a five; along the search's line it comes on the winner's
    /// `moves`-th move from the position searched (a defence that adds fours of its own
    /// can delay it).
    Win {
        /// The side with the forced win.
        winner: Color,
        /// The winner's moves to the five, counted from the position searched.
        moves: i32,
    },
}

impl Verdict {
    /// The verdict of `score` (for `mover`, the side to move when the search ran, whose
    /// chance to win it means is `own`), with chances given for `side`.
    pub fn of(score: i32, own: f64, mover: Color, side: Color) -> Verdict {
        match mate_distance(score) {
            // m plies with the mover first: the mover plays plies 1, 3, 5...
            Some(m) if m >= 0 => Verdict::Win {
                winner: mover,
                moves: (m + 1) / 2,
            },
            // The other side plays plies 2, 4, 6...
            Some(m) => Verdict::Win {
                winner: !mover,
                moves: (-m / 2).max(1),
            },
            None => Verdict::Chance {
                side,
                percent: chance(score, own, mover, side).unwrap_or(50),
            },
        }
    }
}

/// Ordinal words for move counts: `1st`, `2nd`, `3rd`, `4th`...
pub fn ordinal(n: i32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;

    #[test]
    fn chances_are_for_the_side_named() {
        assert_eq!(chance(0, 0.5, Color::Black, Color::White), Some(50));
        assert_eq!(chance(1450, 0.731, Color::Black, Color::Black), Some(73));
        assert_eq!(chance(1450, 0.731, Color::Black, Color::White), Some(27));
        assert_eq!(chance(-20000, 0.0001, Color::White, Color::White), Some(1));
        assert_eq!(chance(WIN - 5, 1.0, Color::Black, Color::Black), None);
    }

    #[test]
    fn wins_count_the_winners_own_moves() {
        // The mover makes five on its third move: plies 1, 3 and 5.
        assert_eq!(
            Verdict::of(WIN - 5, 1.0, Color::Black, Color::White),
            Verdict::Win {
                winner: Color::Black,
                moves: 3
            }
        );
        // The mover is lost in 4 plies: the other side's moves are plies 2 and 4.
        assert_eq!(
            Verdict::of(-(WIN - 4), 0.0, Color::Black, Color::Black),
            Verdict::Win {
                winner: Color::White,
                moves: 2
            }
        );
        assert_eq!(
            Verdict::of(-300, 0.45, Color::White, Color::Black),
            Verdict::Chance {
                side: Color::Black,
                percent: 55
            }
        );
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(23), "23rd");
    }
}
