//! Why an action was refused: each message says what was wrong, and those about the stage
//! say what is expected instead.

use super::action::{Expect, Player};
use crate::types::Pos;

/// An action an opening stage refuses; the stage is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// The other player is to act.
    #[error("it is the {to_act}'s turn to {expected}")]
    OutOfTurn {
        /// Who is to act.
        to_act: Player,
        /// What is expected of them.
        expected: Expect,
    },
    /// Not the kind of action the stage waits for.
    #[error("not now: {0}")]
    Unexpected(Expect),
    /// The opening stage is over.
    #[error("the opening stage is over: the game goes on move by move")]
    Over,
    /// A point off the board.
    #[error("{0} is off the board")]
    OffBoard(Pos),
    /// A point that holds a stone (or is named twice in one action).
    #[error("{0} is already occupied")]
    Occupied(Pos),
    /// A stone outside the central square the rule asks for.
    #[error("{pos} is not {}", square_text(*.side))]
    OutsideSquare {
        /// The point.
        pos: Pos,
        /// The side of the square.
        side: u8,
    },
    /// A black stone or offer on a point forbidden for black under renju.
    #[error("{0} is forbidden for black under renju")]
    Forbidden(Pos),
    /// A number of fifth moves out of range.
    #[error("declare 1 to {max} fifth moves, not {got}")]
    Declared {
        /// The number declared.
        got: u8,
        /// The most allowed.
        max: u8,
    },
    /// An offer of the wrong number of fifth moves.
    #[error("offer {expected} fifth moves, not {got}")]
    OfferCount {
        /// Moves offered.
        got: usize,
        /// Moves to offer.
        expected: u8,
    },
    /// One fifth move offered twice.
    #[error("{0} is offered twice")]
    OfferedTwice(Pos),
    /// Two offered fifth moves that give the same position up to a symmetry of the first
    /// four stones.
    #[error("{0} and {1} are symmetric: both give the same position")]
    Symmetric(Pos, Pos),
    /// A pick that was not offered.
    #[error("{0} is not one of the offered fifth moves")]
    NotOffered(Pos),
}

/// "on the centre point", "within the central 5x5 square".
fn square_text(side: u8) -> String {
    if side == 1 {
        "on the centre point".into()
    } else {
        format!("within the central {side}x{side} square")
    }
}
