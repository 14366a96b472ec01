//! Move generation: candidates near stones (centre-out), and threat moves for the threat
//! search and forced positions.

pub mod list;

use crate::board::Board;
use crate::pattern::Pattern;
use crate::threat::Threat;
use crate::types::{Color, Dir, Pos, Rule};

pub use list::{MoveList, ScoredMove};

/// Which moves to generate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// Every empty point near a stone (the centre on an empty board).
    Candidates,
    /// Points where the side to move makes a five.
    Fives,
}

/// Generates moves of `kind` for the side to move into `list` (cleared first), centre-out.
/// Never an occupied point; never a forbidden point for black under renju.
pub fn generate(board: &mut Board, kind: GenKind, list: &mut MoveList) {
    list.clear();
    let side = board.to_move();
    if board.stone_count() == 0 && kind == GenKind::Candidates {
        let c = board.size() / 2;
        list.push(Pos::new(c, c));
        return;
    }
    let check_forbid = board.rule().forbids(side);
    if kind == GenKind::Candidates {
        // Nearness first: one byte read rejects most far cells before anything else.
        for &p in board.cells() {
            if board.is_near(p) && board.is_empty(p) && !(check_forbid && board.is_forbidden(p)) {
                list.push(p);
            }
        }
        return;
    }
    for &p in board.cells() {
        if !board.is_empty(p) {
            continue;
        }
        let t = board.threat(p, side);
        let wanted = match kind {
            GenKind::Candidates => board.is_near(p),
            GenKind::Fives => t == Threat::Five,
        };
        if wanted && !(check_forbid && board.is_forbidden(p)) {
            list.push(p);
        }
    }
}

/// The candidate moves of [`GenKind::Candidates`] in row order rather than centre-out, read
/// a row at a time ([`Board::candidate_row`]): for a caller that sorts them by a total order
/// (the search: score, then position).
pub fn candidates_by_row(board: &mut Board, list: &mut MoveList) {
    list.clear();
    if board.stone_count() == 0 {
        let c = board.size() / 2;
        list.push(Pos::new(c, c));
        return;
    }
    let check_forbid = board.rule().forbids(board.to_move());
    for y in 0..board.size() {
        let mut m = board.candidate_row(y);
        while m != 0 {
            let p = Pos::new(m.trailing_zeros() as usize, y);
            m &= m - 1;
            if !(check_forbid && board.is_forbidden(p)) {
                list.push(p);
            }
        }
    }
}

/// Every move the side to move may play, for a position in which the search's generators
/// leave nothing (a lost position whose only defences are forbidden for black, say): the
/// candidates near the stones, or failing those every empty point; never a forbidden point
/// for black under renju. Empty only when no legal move exists (a full board, or renju
/// black with every empty point forbidden).
pub fn legal_moves(board: &mut Board, list: &mut MoveList) {
    generate(board, GenKind::Candidates, list);
    if !list.is_empty() {
        return;
    }
    let check_forbid = forbid_applies(board);
    for &p in board.cells() {
        if legal_point(board, p, check_forbid) {
            list.push(p);
        }
    }
}

/// Every point of the square `lo..=hi` (both coordinates) that the side to move may play,
/// row by row: empty, and never a forbidden point for black under renju. For a caller that
/// places stones anywhere in a region rather than near the stones (random openings).
pub fn legal_in_square(board: &mut Board, lo: usize, hi: usize, list: &mut MoveList) {
    list.clear();
    let check_forbid = forbid_applies(board);
    for y in lo..=hi {
        for x in lo..=hi {
            let p = Pos::new(x, y);
            if legal_point(board, p, check_forbid) {
                list.push(p);
            }
        }
    }
}

/// Must the side to move keep off forbidden points (black under renju)?
fn forbid_applies(board: &Board) -> bool {
    board.rule().forbids(board.to_move())
}

/// May the side to move play `p`: empty, and not forbidden where `check_forbid` says so.
fn legal_point(board: &mut Board, p: Pos, check_forbid: bool) -> bool {
    board.is_empty(p) && !(check_forbid && board.is_forbidden(p))
}

/// Defences when the opponent threatens to win next move (has a five point): the
/// opponent's five points, and under caro every point after which the opponent has no five
/// point left (`caro_five_defences`). Empty when nothing stops every five. The side to
/// move should first check its own fives.
pub fn five_defences(board: &mut Board, list: &mut MoveList) {
    list.clear();
    let opp = !board.to_move();
    if board.rule().is_caro() {
        caro_five_defences(board, opp, list);
        return;
    }
    let check_forbid = board.rule().forbids(board.to_move());
    let legal = |b: &mut Board, p: Pos| !(check_forbid && b.is_forbidden(p));
    // A single five point is found without scanning the board (the search's case).
    if board.count(opp, Threat::Five) == 1 {
        if let Some(p) = five_point(board, opp).filter(|&p| legal(board, p)) {
            list.push(p);
        }
        return;
    }
    for &p in board.cells() {
        if board.threat(p, opp) == Threat::Five && legal(board, p) {
            list.push(p);
        }
    }
}

/// Under caro a five closed at both ends by opponent stones does not win, so a stone can stop
/// a five point without taking it: just beyond an end of the five's run, when the other end
/// is closed already (which also lets a stone on one five point close another's five). A
/// defence must stop every five point, so the candidates are those of one five point `q`:
/// `q`, and along each line where `q` makes the five the first cell beyond each end of the
/// run through it. Each is kept when, after it, `opp` has no five point (a few makes, where
/// every cell within five of `q` took up to twenty and made the threat search's caro nodes
/// several times slower).
fn caro_five_defences(board: &mut Board, opp: Color, list: &mut MoveList) {
    let Some(q) = five_point(board, opp) else {
        return;
    };
    let geo = board.geometry();
    let mut candidates = vec![q];
    for d in Dir::ALL {
        if board.pattern(q, opp, d) != Pattern::Five {
            continue;
        }
        for dir in [-1, 1] {
            // The run of `opp` stones next to `q` this way, then the cell beyond it.
            let mut k = dir;
            while let Some(p) = geo.step(q, d, k) {
                if board.stone(p) != Some(opp) {
                    if board.is_empty(p) && !candidates.contains(&p) {
                        candidates.push(p);
                    }
                    break;
                }
                k += dir;
            }
        }
    }
    for p in candidates {
        board.make(p);
        let stopped = board.count(opp, Threat::Five) == 0;
        board.undo();
        if stopped {
            list.push(p);
        }
    }
}

/// A five point of `side`, if it has one: the first centre-out, or the only one, which is
/// nearly always on a line through the last move and looked for there first.
pub fn five_point(board: &Board, side: Color) -> Option<Pos> {
    let scan = || {
        board
            .cells()
            .iter()
            .copied()
            .find(|&p| board.is_empty(p) && board.threat(p, side) == Threat::Five)
    };
    match board.count(side, Threat::Five) {
        0 => None,
        1 => five_point_near_last(board, side).or_else(scan),
        _ => scan(),
    }
}

/// A five point of `side` on the four lines through the last move, within four cells of it.
fn five_point_near_last(board: &Board, side: Color) -> Option<Pos> {
    let last = board.last_move();
    if last.is_none() {
        return None;
    }
    let geo = board.geometry();
    for d in Dir::ALL {
        for k in -4..=4 {
            if let Some(p) = geo.step(last, d, k) {
                if board.is_empty(p) && board.threat(p, side) == Threat::Five {
                    return Some(p);
                }
            }
        }
    }
    None
}

/// Replies of the side to move to an opponent's open three: its own fours, and the points
/// on the line of one of the opponent's straight-four points, within four cells of it, where
/// the opponent would make a four along that line (a four point the opponent may not play,
/// renju black's, included). Every point that blocks the three, or one of the fours of a
/// double-four point, is such a point; a four elsewhere does not stop the straight four.
/// Under caro, where a stone just beyond a run's end closes it, every point of those lines
/// within five cells. Never a forbidden point for black under renju; our fours first, in
/// centre-out order.
pub fn three_defences(board: &mut Board, list: &mut MoveList) {
    list.clear();
    let me = board.to_move();
    let opp = !me;
    let check_forbid = board.rule().forbids(me);
    push_fours(board, list);
    // The opponent's straight-four points, and along each of their four lines the points
    // that block it.
    let caro = matches!(board.rule(), Rule::Caro { .. });
    let reach: isize = if caro { 5 } else { 4 };
    let geo = board.geometry();
    let mut flex = board.count(opp, Threat::Flex4);
    let mut cells = board.cells().iter();
    while flex > 0 {
        let Some(&f) = cells.next() else { break };
        if board.threat(f, opp) != Threat::Flex4 {
            continue;
        }
        flex -= 1;
        for d in Dir::ALL {
            if board.pattern(f, opp, d) < Pattern::B4 {
                continue;
            }
            for p in (-reach..=reach).filter_map(|k| geo.step(f, d, k)) {
                if board.is_empty(p)
                    && (caro || board.pattern(p, opp, d) >= Pattern::B4)
                    && !list.contains(p)
                    && !(check_forbid && board.is_forbidden(p))
                {
                    list.push(p);
                }
            }
        }
    }
}

/// Appends the side to move's four points (its five points included) to `list`, in
/// centre-out order, never a forbidden point for black under renju; the class counts say
/// when the scan can stop.
fn push_fours(board: &mut Board, list: &mut MoveList) {
    let me = board.to_move();
    let check_forbid = board.rule().forbids(me);
    let mut fours = board.count_at_least(me, Threat::Block4);
    let mut cells = board.cells().iter();
    while fours > 0 {
        let Some(&p) = cells.next() else { break };
        if board.threat(p, me) >= Threat::Block4 {
            fours -= 1;
            if !(check_forbid && board.is_forbidden(p)) {
                list.push(p);
            }
        }
    }
}

/// Replies of the side to move to an opponent's four-three point (a point where the
/// opponent's stone would make a four and an open three at once, which wins unless the block
/// of the four makes a four of ours), for a position where neither side has a five point
/// and the opponent no straight-four point. Fills `list` with our fours, then the points
/// that may stop the threat directly: the four-three point itself; along the line of its
/// open three, every empty point within four cells (up to a stone of ours) where the
/// opponent would make at least a blocked three (every point whose stone leaves no open
/// three there is one); along the line of its four, the point where that four would make
/// five; and the points that would let our block there make a four of ours (along each line
/// through it, within four cells and up to an opponent stone, every empty point where we
/// would make at least a blocked three). With several four-three points, the answers to the first: a move that
/// stops none of its parts lets it win.
///
/// Leaves `list` empty when the threat needs no direct answer (our stone on that five point
/// would already make a four), and under renju and caro, whose forbidden points and closed
/// fives make a four-three point's threat uncertain.
pub fn four_three_defences(board: &mut Board, list: &mut MoveList) {
    list.clear();
    if !matches!(board.rule(), Rule::Freestyle | Rule::Standard) {
        return;
    }
    let me = board.to_move();
    let opp = !me;
    let Some(c) = board
        .cells()
        .iter()
        .copied()
        .find(|&p| board.threat(p, opp) == Threat::Block4Flex3)
    else {
        return;
    };
    let geo = board.geometry();
    // The five points of the four: the first empty point each way past the opponent's
    // stones where the opponent would make a four along the line too.
    let mut fives = [Pos::NONE; 2];
    for d in Dir::ALL {
        if board.pattern(c, opp, d) != Pattern::B4 {
            continue;
        }
        for (slot, sign) in fives.iter_mut().zip([-1isize, 1]) {
            let first_empty = (1..=4)
                .map_while(|k| geo.step(c, d, sign * k))
                .find(|&p| board.stone(p) != Some(opp))
                .filter(|&p| board.is_empty(p));
            if let Some(q) = first_empty.filter(|&q| board.pattern(q, opp, d) >= Pattern::B4) {
                if board.threat(q, me) >= Threat::Block4 {
                    // Our block of the four makes a four: no direct answer needed.
                    return;
                }
                *slot = q;
            }
        }
        break;
    }
    push_fours(board, list);
    let board = &*board;
    // The empty points along `d` from `c`, within four cells, past the stones of `through`
    // and up to one of the other side's.
    let line = |c: Pos, d: Dir, through: Color| {
        [-1isize, 1].into_iter().flat_map(move |sign| {
            (1..=4)
                .map(move |k| geo.step(c, d, sign * k))
                .take_while(move |p| p.is_some_and(|p| board.stone(p) != Some(!through)))
                .flatten()
                .filter(move |&p| board.is_empty(p))
        })
    };
    let add = |list: &mut MoveList, p: Pos| {
        if !list.contains(p) {
            list.push(p);
        }
    };
    add(list, c);
    for d in Dir::ALL {
        if board.pattern(c, opp, d) == Pattern::F3 {
            for p in line(c, d, opp) {
                if board.pattern(p, opp, d) >= Pattern::B3 {
                    add(list, p);
                }
            }
        }
    }
    for q in fives.into_iter().filter(|q| !q.is_none()) {
        add(list, q);
        for d in Dir::ALL {
            for p in line(q, d, me) {
                if board.pattern(p, me, d) >= Pattern::B3 {
                    add(list, p);
                }
            }
        }
    }
}
