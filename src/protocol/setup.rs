//! Turning a `BOARD` block (own and opponent stones, in any order) into a move list with
//! alternating colours after which the engine is to move.

use crate::engine::alternate;
use crate::types::{Color, Pos};

/// Who a `BOARD` stone belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    /// Field 1: ours.
    Own,
    /// Field 2: the opponent's.
    Opponent,
    /// Field 3: a continuous-game marker. It stays an occupied cell; we count it as the
    /// opponent's so that the engine never plays there and never builds through it.
    Marker,
}

impl Owner {
    /// The owner of a field number, if it is one.
    pub fn from_field(f: i64) -> Option<Owner> {
        match f {
            1 => Some(Owner::Own),
            2 => Some(Owner::Opponent),
            3 => Some(Owner::Marker),
            _ => None,
        }
    }
}

/// A move list (black first, `Pos::NONE` passes) holding exactly the given stones, each
/// colour in the order given, after which the owner of the `Own` stones is to move.
///
/// Colours: with as many own stones as opponent stones the engine is black; with one
/// opponent stone more it is white. Other counts are padded with passes on the short side
/// (the engine is black if it has more stones, white if the opponent has).
pub fn moves_from_stones(stones: &[(Pos, Owner)]) -> Vec<Pos> {
    let own: Vec<Pos> = stones
        .iter()
        .filter(|s| s.1 == Owner::Own)
        .map(|s| s.0)
        .collect();
    let opp: Vec<Pos> = stones
        .iter()
        .filter(|s| s.1 != Owner::Own)
        .map(|s| s.0)
        .collect();
    let engine_white = opp.len() > own.len();
    let (black, white, own_colour) = if engine_white {
        (opp, own, Color::White)
    } else {
        (own, opp, Color::Black)
    };
    alternate(&black, &white, own_colour)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Owner::*;

    fn p(x: usize, y: usize) -> Pos {
        Pos::new(x, y)
    }

    fn to_move_is_own(moves: &[Pos], stones: &[(Pos, Owner)]) -> bool {
        // Black moves at even plies; own stones must have the colour of the side to move.
        let own_parity = moves
            .iter()
            .position(|m| stones.iter().any(|s| s.0 == *m && s.1 == Own));
        match own_parity {
            Some(i) => i % 2 == moves.len() % 2,
            None => true,
        }
    }

    #[test]
    fn equal_counts_engine_black() {
        let s = [(p(1, 1), Opponent), (p(0, 0), Own)];
        let m = moves_from_stones(&s);
        assert_eq!(m, vec![p(0, 0), p(1, 1)]);
        assert!(to_move_is_own(&m, &s));
    }

    #[test]
    fn opponent_one_more_engine_white() {
        let s = [(p(0, 0), Opponent), (p(1, 1), Own), (p(2, 2), Opponent)];
        let m = moves_from_stones(&s);
        assert_eq!(m, vec![p(0, 0), p(1, 1), p(2, 2)]);
        assert!(to_move_is_own(&m, &s));
    }

    #[test]
    fn uneven_counts_are_padded() {
        let s = [
            (p(0, 0), Opponent),
            (p(1, 1), Opponent),
            (p(2, 2), Opponent),
        ];
        let m = moves_from_stones(&s);
        assert_eq!(m, vec![p(0, 0), Pos::NONE, p(1, 1), Pos::NONE, p(2, 2)]);
        let s = [(p(0, 0), Own), (p(1, 1), Own), (p(2, 2), Opponent)];
        let m = moves_from_stones(&s);
        assert_eq!(m, vec![p(0, 0), p(2, 2), p(1, 1), Pos::NONE]);
        assert_eq!(m.len() % 2, 0);
    }

    #[test]
    fn markers_count_as_the_opponent() {
        let s = [(p(0, 0), Marker), (p(1, 1), Own), (p(2, 2), Opponent)];
        let m = moves_from_stones(&s);
        assert_eq!(m, vec![p(0, 0), p(1, 1), p(2, 2)]);
    }

    #[test]
    fn empty_board() {
        assert!(moves_from_stones(&[]).is_empty());
    }
}
