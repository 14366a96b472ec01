//! Five points, and the closing moves of a proven line.

use crate::board::Board;
use crate::movegen::{five_defences, five_point, MoveList};
use crate::threat::Threat;
use crate::types::{Color, Pos};

/// Two distinct five points of `side`, which must have at least two.
pub(super) fn two_fives(b: &Board, side: Color) -> (Pos, Pos) {
    let mut it = b
        .cells()
        .iter()
        .copied()
        .filter(|&p| b.is_empty(p) && b.threat(p, side) == Threat::Five);
    let q1 = it.next().unwrap_or(Pos::NONE);
    (q1, it.next().unwrap_or(q1))
}

/// How many five points `side` has, and the first.
pub(super) fn fives_of(b: &Board, side: Color) -> (u16, Pos) {
    let n = b.count(side, Threat::Five);
    if n == 0 {
        return (0, Pos::NONE);
    }
    (n, five_point(b, side).unwrap_or(Pos::NONE))
}

/// A straight-four point of `side` it may play (renju black: not forbidden). Under caro the
/// class says only "two five points" (one stone may stop both): each is checked by playing it.
pub(crate) fn legal_flex4(b: &mut Board, side: Color) -> Option<Pos> {
    if b.count(side, Threat::Flex4) == 0 {
        return None;
    }
    let caro = b.rule().is_caro();
    let cells = b.cells();
    cells.iter().copied().find(|&p| {
        b.threat(p, side) == Threat::Flex4
            && !(side == Color::Black && b.is_forbidden(p))
            && (!caro || caro_wins_with(b, side, p))
    })
}

/// Caro: does `side` playing `p` leave the opponent no five of its own and no stone that
/// stops every five point of `side`?
pub(super) fn caro_wins_with(b: &mut Board, side: Color, p: Pos) -> bool {
    let pass = b.to_move() != side;
    if pass {
        b.make_pass();
    }
    b.make(p);
    let mut blocks = MoveList::default();
    five_defences(b, &mut blocks);
    let won =
        b.count(!side, Threat::Five) == 0 && b.count(side, Threat::Five) > 0 && blocks.is_empty();
    b.undo();
    if pass {
        b.undo();
    }
    won
}

/// The defender (to move) faces the two five points `q1` and `q2`, and no stone stops both
/// (every rule but caro): writes its reply and the attacker's five, reversed as lines are
/// built. Renju black's reply is never a forbidden point: the other five point, or
/// `Pos::NONE` when both are forbidden. `forbidden` answers [`Board::is_forbidden`] for
/// the board's mode (full moves, or lean ones: `Board::lean_is_forbidden`).
pub(super) fn two_fives_line(
    b: &mut Board,
    q1: Pos,
    q2: Pos,
    line: &mut Vec<Pos>,
    forbidden: impl Fn(&mut Board, Pos) -> bool,
) {
    let check = b.rule().forbids(b.to_move());
    let (reply, five) = if !(check && forbidden(b, q1)) {
        (q1, q2)
    } else if !(check && forbidden(b, q2)) {
        (q2, q1)
    } else {
        (Pos::NONE, q1)
    };
    line.push(five);
    line.push(reply);
}

/// The defender (to move) cannot stop every five of the attacker: writes its reply (a five
/// point it may play, else `Pos::NONE`) and the attacker's five after it, reversed as lines
/// are built.
pub(super) fn unstoppable_line(b: &mut Board, line: &mut Vec<Pos>) {
    let d = b.to_move();
    let a = !d;
    let check = b.rule().forbids(d);
    let cells = b.cells();
    let reply = cells
        .iter()
        .copied()
        .find(|&p| b.is_empty(p) && b.threat(p, a) == Threat::Five && !(check && b.is_forbidden(p)))
        .unwrap_or(Pos::NONE);
    let five = if reply.is_none() {
        five_point(b, a)
    } else {
        b.make(reply);
        let f = five_point(b, a);
        b.undo();
        f
    };
    line.push(five.unwrap_or(Pos::NONE));
    line.push(reply);
}
