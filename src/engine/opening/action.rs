//! The players, what they may do in an opening stage, and what the stage waits for.

use crate::notation::format_h8;
use crate::types::{Color, Pos};
use std::fmt;
use std::ops::Not;

/// The two players, by who begins: the first player places the first stone (tentatively
/// black, as RIF's texts say), whatever colour either ends with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// The player who begins.
    First,
    /// The other.
    Second,
}

impl Not for Player {
    type Output = Player;
    fn not(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first player",
            Player::Second => "second player",
        })
    }
}

/// One step of a player in an opening stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Place the next stone (its colour follows from the stones before it: black first).
    Place(Pos),
    /// Place the next stone and declare how many fifth moves will be offered (Soosorv's
    /// 4th stone, Yamaguchi's 3rd).
    PlaceAndDeclare(Pos, u8),
    /// Play this colour from here on: a swap when it is not the player's colour so far.
    Choose(Color),
    /// Swap2's third option: a white stone, then a black one; the first player then
    /// chooses the colour.
    AddTwo(Pos, Pos),
    /// Offer these fifth moves (black's), for the white player to pick one.
    Offer(Vec<Pos>),
    /// Take this one of the offered fifth moves (the white player).
    Pick(Pos),
}

impl Action {
    /// The step in words on a board of `size`, with `who` as its subject ("you", in either
    /// case, takes the verb without an s): "wuzi places h8 and declares 3 fifth moves.",
    /// "You choose white."
    pub fn sentence(&self, who: &str, size: usize) -> String {
        let h8 = |p: &Pos| format_h8(*p, size);
        let s = if who.eq_ignore_ascii_case("you") {
            ""
        } else {
            "s"
        };
        match self {
            Action::Place(p) => format!("{who} place{s} {}.", h8(p)),
            Action::PlaceAndDeclare(p, k) => {
                format!("{who} place{s} {} and declare{s} {k} fifth moves.", h8(p))
            }
            Action::Choose(c) => format!("{who} choose{s} {c}."),
            Action::AddTwo(w, b) => format!("{who} add{s} white {} and black {}.", h8(w), h8(b)),
            Action::Offer(list) => {
                let list: Vec<String> = list.iter().map(h8).collect();
                format!("{who} offer{s} {}.", list.join(" "))
            }
            Action::Pick(p) => format!("{who} pick{s} {}.", h8(p)),
        }
    }
}

/// What an opening stage waits for, from whom [`Opening::to_act`](super::Opening::to_act)
/// says. Displayed as an instruction: "place the 4th stone (white) anywhere and declare 1 to
/// 8 fifth moves".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// A stone ([`Action::Place`]).
    Stone {
        /// Its number in the game, from 1.
        number: usize,
        /// Its colour.
        colour: Color,
        /// The side of the central square it must stand in; `None`: anywhere.
        square: Option<u8>,
    },
    /// A stone and a number of fifth moves ([`Action::PlaceAndDeclare`]).
    StoneAndDeclare {
        /// Its number in the game, from 1.
        number: usize,
        /// Its colour.
        colour: Color,
        /// The side of the central square it must stand in; `None`: anywhere.
        square: Option<u8>,
        /// The most fifth moves that may be declared (at least 1).
        max: u8,
    },
    /// A colour ([`Action::Choose`]): swap or keep.
    Colour,
    /// Swap2 after three stones: black, white ([`Action::Choose`]) or two more stones
    /// ([`Action::AddTwo`]).
    Swap2Choice,
    /// Taraguchi after the 4th stone, black's choice: a colour ([`Action::Choose`]; then
    /// black places the 5th within the central 9x9 square), or `count` fifth moves offered
    /// ([`Action::Offer`]).
    FifthOrOffer {
        /// The fifth moves of the second choice.
        count: u8,
    },
    /// `count` fifth moves, none symmetric to another ([`Action::Offer`]).
    Offer {
        /// How many.
        count: u8,
    },
    /// One of the offered fifth moves ([`Action::Pick`]).
    Pick,
    /// Nothing: the opening stage is over and the game goes on move by move.
    Nothing,
}

/// `1st`, `2nd`, `3rd`, `4th`...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, k) if k != 11 => "st",
        (2, k) if k != 12 => "nd",
        (3, k) if k != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// "the 4th stone (white) within the central 7x7 square".
fn stone(
    f: &mut fmt::Formatter<'_>,
    number: usize,
    colour: Color,
    square: Option<u8>,
) -> fmt::Result {
    write!(f, "place the {} stone ({colour})", ordinal(number))?;
    match square {
        Some(1) => f.write_str(" on the centre point"),
        Some(k) => write!(f, " within the central {k}x{k} square"),
        None => f.write_str(" anywhere"),
    }
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Expect::Stone {
                number,
                colour,
                square,
            } => stone(f, number, colour, square),
            Expect::StoneAndDeclare {
                number,
                colour,
                square,
                max,
            } => {
                stone(f, number, colour, square)?;
                write!(f, " and declare 1 to {max} fifth moves")
            }
            Expect::Colour => f.write_str("choose a colour: black or white"),
            Expect::Swap2Choice => f.write_str(
                "choose black, choose white, or add a white and a black stone and let the \
                 first player choose",
            ),
            Expect::FifthOrOffer { count } => write!(
                f,
                "choose a colour (then black places the 5th stone within the central 9x9 \
                 square), or offer {count} fifth moves"
            ),
            Expect::Offer { count: 1 } => f.write_str("offer 1 fifth move"),
            Expect::Offer { count } => {
                write!(f, "offer {count} fifth moves, none symmetric to another")
            }
            Expect::Pick => f.write_str("choose one of the offered fifth moves"),
            Expect::Nothing => f.write_str("play on: the opening stage is over"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_read_as_sentences() {
        let e = Expect::StoneAndDeclare {
            number: 4,
            colour: Color::White,
            square: None,
            max: 8,
        };
        assert_eq!(
            e.to_string(),
            "place the 4th stone (white) anywhere and declare 1 to 8 fifth moves"
        );
        let e = Expect::Stone {
            number: 1,
            colour: Color::Black,
            square: Some(1),
        };
        assert_eq!(
            e.to_string(),
            "place the 1st stone (black) on the centre point"
        );
        let e = Expect::Stone {
            number: 2,
            colour: Color::White,
            square: Some(3),
        };
        assert_eq!(
            e.to_string(),
            "place the 2nd stone (white) within the central 3x3 square"
        );
        assert_eq!(
            Expect::Pick.to_string(),
            "choose one of the offered fifth moves"
        );
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(11), "11th");
    }
}
