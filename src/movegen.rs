//! Move generation: candidates near stones (centre-out), and threat moves for the threat
//! search and forced positions.

use crate::board::Board;
use crate::pattern::Pattern;
use crate::threat::Threat;
use crate::types::{Color, Dir, Pos, Rule, MAX_SIZE};

/// Capacity of a move list: every point of the largest board.
pub const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;

/// A move with an ordering score.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoredMove {
    pub pos: Pos,
    pub score: i32,
}

impl ScoredMove {
    /// The sort key of [`MoveList::sort`]: one integer (score above, position below,
    /// inverted so that the larger key comes first in both), a single compare instead of two.
    #[inline(always)]
    pub(crate) fn order_key(&self) -> std::cmp::Reverse<i64> {
        std::cmp::Reverse(((self.score as i64) << 16) | (u16::MAX - self.pos.0) as i64)
    }
}

/// A fixed-capacity list of moves: no allocation on the hot path.
#[derive(Clone)]
pub struct MoveList {
    moves: [ScoredMove; MAX_MOVES],
    len: usize,
    /// Scratch for sorting: the moves as plain integers in sort order ([`sort_word`]).
    words: [u64; MAX_MOVES],
}

/// A move as one integer whose ascending order is the order of [`MoveList::sort`] (the
/// [`ScoredMove::order_key`] reversed): primitive sorts beat sorts by a computed key.
#[inline(always)]
fn sort_word(m: &ScoredMove) -> u64 {
    let key = ((m.score as i64) << 16) | (u16::MAX - m.pos.0) as i64;
    !(key as u64 ^ 1 << 63)
}

/// The move of a [`sort_word`].
#[inline(always)]
fn from_sort_word(w: u64) -> ScoredMove {
    let key = (!w ^ 1 << 63) as i64;
    ScoredMove {
        pos: Pos(u16::MAX - key as u16),
        score: (key >> 16) as i32,
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [ScoredMove::default(); MAX_MOVES],
            len: 0,
            words: [0; MAX_MOVES],
        }
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a move (score 0). Panics only beyond `MAX_MOVES`, which a board cannot reach.
    #[inline(always)]
    pub fn push(&mut self, pos: Pos) {
        self.moves[self.len] = ScoredMove { pos, score: 0 };
        self.len += 1;
    }
    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Is the list empty?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Keeps the first `n` moves.
    #[inline(always)]
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// The moves with their scores.
    #[inline(always)]
    pub fn as_slice(&self) -> &[ScoredMove] {
        &self.moves[..self.len]
    }
    /// The moves with their scores, mutable (for scoring and sorting).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [ScoredMove] {
        &mut self.moves[..self.len]
    }
    /// Iterates the scores.
    pub fn iter_scores(&self) -> impl Iterator<Item = i32> + '_ {
        self.as_slice().iter().map(|m| m.score)
    }
    /// Iterates the positions.
    pub fn iter(&self) -> impl Iterator<Item = Pos> + '_ {
        self.as_slice().iter().map(|m| m.pos)
    }
    /// Does the list hold `p`?
    pub fn contains(&self, p: Pos) -> bool {
        self.iter().any(|q| q == p)
    }
    /// Sorts by score, best first; ties by position so the order is total.
    pub fn sort(&mut self) {
        self.sorted(|w| w.sort_unstable());
    }
    /// Applies `op` to the moves as sort words ([`sort_word`]).
    #[inline(always)]
    fn sorted(&mut self, op: impl FnOnce(&mut [u64])) {
        let (moves, words) = (&mut self.moves[..self.len], &mut self.words[..self.len]);
        for (w, m) in words.iter_mut().zip(moves.iter()) {
            *w = sort_word(m);
        }
        op(words);
        for (m, &w) in moves.iter_mut().zip(words.iter()) {
            *m = from_sort_word(w);
        }
    }
    /// Keeps the first `n` moves of the [`MoveList::sort`] order, in no particular order:
    /// the same set as a sort followed by a truncate, without sorting.
    pub fn keep_top(&mut self, n: usize) {
        if n == 0 {
            self.len = 0;
        } else if n < self.len {
            self.sorted(|w| {
                w.select_nth_unstable(n - 1);
            });
            self.len = n;
        }
    }
    /// Readies [`MoveList::pick`]: the moves as sort words.
    pub fn start_picks(&mut self) {
        for (w, m) in self.words[..self.len]
            .iter_mut()
            .zip(&self.moves[..self.len])
        {
            *w = sort_word(m);
        }
    }
    /// The move at `i` of the [`MoveList::sort`] order, when moves `0..i` were picked before
    /// it (after [`MoveList::start_picks`]): the least sort word from `i` on, swapped to `i`.
    /// A node that searches a few moves scans the list a few times instead of sorting it.
    /// Only the words move: the moves themselves keep their order.
    #[inline]
    pub fn pick(&mut self, i: usize) -> ScoredMove {
        let w = &mut self.words[i..self.len];
        let best = crate::simd::min_index(w);
        w.swap(0, best);
        from_sort_word(w[0])
    }
}

/// Which moves to generate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// Every empty point near a stone (the centre on an empty board).
    Candidates,
    /// Points where the side to move makes a five.
    Fives,
    /// Points where the side to move makes a four or better.
    Fours,
    /// Points where the side to move makes an open three or better (fours included).
    Threes,
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
    let check_forbid = side == Color::Black && board.rule().has_forbidden();
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
            GenKind::Fours => t >= Threat::Block4,
            GenKind::Threes => t >= Threat::Flex3 || board.open_threes(p, side) > 0,
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
    let check_forbid = board.to_move() == Color::Black && board.rule().has_forbidden();
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
    let check_forbid = board.to_move() == Color::Black && board.rule().has_forbidden();
    for &p in board.cells() {
        if board.is_empty(p) && !(check_forbid && board.is_forbidden(p)) {
            list.push(p);
        }
    }
}

/// Defences when the opponent threatens to win next move (has a five point): the
/// opponent's five points. The side to move should first check its own fives.
pub fn five_defences(board: &mut Board, list: &mut MoveList) {
    list.clear();
    let opp = !board.to_move();
    let check_forbid = board.to_move() == Color::Black && board.rule().has_forbidden();
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
    let check_forbid = me == Color::Black && board.rule().has_forbidden();
    // Our fours (the counts say when the scan can stop).
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A list of `n` distinct positions with scores from a small range (many ties).
    fn random_list(rng: &mut Xoshiro256PlusPlus, n: usize) -> MoveList {
        let mut list = MoveList::new();
        let mut cells: Vec<u16> = (0..MAX_MOVES as u16).collect();
        for k in 0..n {
            let j = k + (rng.next_u64() as usize) % (cells.len() - k);
            cells.swap(k, j);
            list.push(Pos(cells[k]));
            list.as_mut_slice()[k].score = (rng.next_u64() % 9) as i32 * 100 - 400;
        }
        list
    }

    #[test]
    fn picks_and_partial_sorts_match_a_full_sort() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for round in 0..500 {
            let n = round % 70;
            let full = {
                let mut l = random_list(&mut Xoshiro256PlusPlus::seed_from_u64(round as u64), n);
                l.sort();
                l.as_slice().to_vec()
            };
            let fresh = || random_list(&mut Xoshiro256PlusPlus::seed_from_u64(round as u64), n);
            let k = (rng.next_u64() % 80) as usize;
            // pick: one move at a time, in the sort order.
            let mut l = fresh();
            l.start_picks();
            let picked: Vec<ScoredMove> = (0..n).map(|i| l.pick(i)).collect();
            assert_eq!(picked, full, "picks of {n}");
            // keep_top: the same set as sort + truncate.
            let m = k.min(n);
            let mut l = fresh();
            l.keep_top(k);
            l.sort();
            assert_eq!(l.as_slice(), &full[..m], "top {k} of {n}");
        }
    }
}
