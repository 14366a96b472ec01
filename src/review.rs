//! Game review: where a game was decided, move by move, by the threat solver.
//!
//! For every move of a game the review asks two questions of the position before it:
//! - Did the mover have a forced win (by fours, else by fours and threes) that the move
//!   played does not carry on? Then the move **missed a win**.
//! - Did the opponent threaten one (a win after a pass of the mover's), and does it still
//!   have one after the move? Then the move either **failed to stop it** while some other
//!   move would have (each such stop proven: after it the opponent has no forced win within
//!   the solver's reach), or it came when no move could (the game was **already lost** to
//!   the threat: the decisive mistake came earlier, or lies deeper than the solver sees).
//!
//! Each solve has a time limit, so a verdict is as good as the solver's reach: a threat it
//! cannot find within the limit is not reported, and a move whose check runs out of time is
//! neither a stop nor a failure. The first blunder or missed win of a lost game is where a
//! player learns most; [`Report`] words the findings, which `wuzi review` and the prompt's
//! `review` print.

use crate::board::{Board, MoveListError};
use crate::movegen::{five_defences, MoveList};
use crate::notation::format_h8;
use crate::search::solver::{Proof, SolveLimits, Solver};
use crate::threat::Threat;
use crate::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The default time of one solve of a review, in milliseconds: a few seconds for a game
/// with few threats, a minute or two for a long tactical one.
pub const DEFAULT_SOLVE_MS: u64 = 200;
/// The longest time a front end lets one solve of a review take, in milliseconds: a review
/// solves a few times a move, and many times where a threat must be stopped.
pub const MAX_SOLVE_MS: u64 = 60_000;

/// Why a game cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// A board size the engine does not play.
    #[error("board size {0} is not supported ({MIN_SIZE} to {MAX_SIZE})")]
    Size(usize),
    /// A move list that cannot be played.
    #[error(transparent)]
    Moves(#[from] MoveListError),
}

/// What the review found at one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The mover had a forced win, `line` (its first move first), and the move played does
    /// not start one the solver proves. `by_fours`: the win was by fours alone (a VCF).
    MissedWin {
        /// The win the mover had.
        line: Vec<Pos>,
        /// Whether it was a win by fours alone.
        by_fours: bool,
    },
    /// The opponent threatened a forced win and still has one after the move, `line` (the
    /// opponent's first move first), while each move of `stops` would have left it none.
    Blunder {
        /// The opponent's forced win after the move played.
        line: Vec<Pos>,
        /// The moves proven to stop the threat.
        stops: Vec<Pos>,
    },
    /// The opponent has a forced win after the move, `line`, and no move was proven to
    /// stop it: the position was lost before this move, as far as the solver sees.
    AlreadyLost {
        /// The opponent's forced win after the move played.
        line: Vec<Pos>,
    },
}

impl Finding {
    /// A word for the kind of finding: `missed-win`, `blunder` or `already-lost`.
    pub fn tag(&self) -> &'static str {
        match self {
            Finding::MissedWin { .. } => "missed-win",
            Finding::Blunder { .. } => "blunder",
            Finding::AlreadyLost { .. } => "already-lost",
        }
    }

    /// The forced win behind the finding: the mover's for a missed win, else the
    /// opponent's.
    pub fn line(&self) -> &[Pos] {
        match self {
            Finding::MissedWin { line, .. }
            | Finding::Blunder { line, .. }
            | Finding::AlreadyLost { line } => line,
        }
    }
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReview {
    /// The move's number in the game, from 1.
    pub number: usize,
    /// Who played it.
    pub mover: Color,
    /// The point played.
    pub played: Pos,
    /// What the review found; `None` for a move with nothing to note.
    pub finding: Option<Finding>,
}

impl MoveReview {
    /// Is this the kind of move a player learns from: a blunder or a missed win?
    pub fn is_mistake(&self) -> bool {
        matches!(
            self.finding,
            Some(Finding::Blunder { .. } | Finding::MissedWin { .. })
        )
    }
}

/// Which moves a review looks at, how long each solve may take, and when it ends early.
#[derive(Clone, Debug)]
pub struct ReviewLimits {
    /// The first move reviewed, numbered from 1; the moves before it are played unreviewed.
    pub first: usize,
    /// The longest time of one solve.
    pub per_solve: Duration,
    /// When raised, the review ends soon: the solve under way stops, the move it was for is
    /// left out (its verdict would be unsure), and no later move is reviewed.
    pub stop: Option<Arc<AtomicBool>>,
}

impl ReviewLimits {
    /// The whole game, each solve given at most `per_solve`, never stopped.
    pub fn new(per_solve: Duration) -> ReviewLimits {
        ReviewLimits {
            first: 1,
            per_solve,
            stop: None,
        }
    }

    fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// Reviews a game: `moves` from the empty board (black first, `Pos::NONE` a pass) under
/// `rule` on a `size` board, within `limits`. `on_move` sees each move's review as it is
/// done (a long game takes a while). Returns the reviews, fewer than the moves if the
/// review was stopped. Fails, before any solving, on a size the engine does not play or a
/// move list that cannot be played.
pub fn review_game(
    size: usize,
    rule: Rule,
    moves: &[Pos],
    limits: &ReviewLimits,
    on_move: &mut dyn FnMut(&MoveReview),
) -> Result<Vec<MoveReview>, ReviewError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(ReviewError::Size(size));
    }
    // The whole list is checked first: a bad move is reported before minutes of solving.
    Board::new(size, rule).play_all(moves)?;
    let mut board = Board::new(size, rule);
    let mut solver = Solver::new();
    if let Some(stop) = &limits.stop {
        solver.watch(stop.clone());
    }
    let mut reviewer = Reviewer {
        solver,
        per_solve: limits.per_solve,
    };
    let mut out = Vec::with_capacity(moves.len());
    for (k, &p) in moves.iter().enumerate() {
        if p.is_none() {
            board.make_pass();
            continue;
        }
        if k + 1 < limits.first {
            board.make(p);
            continue;
        }
        if limits.stopped() {
            break;
        }
        let mover = board.to_move();
        let finding = reviewer.review_move(&mut board, p);
        if limits.stopped() {
            break;
        }
        let r = MoveReview {
            number: k + 1,
            mover,
            played: p,
            finding,
        };
        on_move(&r);
        out.push(r);
        board.make(p);
    }
    Ok(out)
}

/// The solver and its time limit, for the questions of one game.
struct Reviewer {
    solver: Solver,
    per_solve: Duration,
}

impl Reviewer {
    fn limits(&self) -> SolveLimits {
        SolveLimits {
            deadline: Some(Instant::now() + self.per_solve),
            ..SolveLimits::default()
        }
    }

    /// The side to move's forced win: by fours first (the shorter, surer proof), then by
    /// threats. With whether it was by fours.
    fn own_win(&mut self, b: &mut Board) -> Option<(Vec<Pos>, bool)> {
        if let Proof::Win(line) = self.solver.vcf(b, &self.limits()) {
            return Some((line, true));
        }
        match self.solver.vct(b, &self.limits()) {
            Proof::Win(line) => Some((line, false)),
            _ => None,
        }
    }

    /// The finding at `p`, to be played by the side to move of `b` (left as it was).
    fn review_move(&mut self, b: &mut Board, p: Pos) -> Option<Finding> {
        let mover = b.to_move();
        if b.makes_five(p, mover) {
            return None;
        }
        if let Some((line, by_fours)) = self.own_win(b) {
            if line[0] == p {
                return None;
            }
            // Another first move may win too: only a threat can, as far as the solver goes.
            let lim = self.limits();
            if b.threat(p, mover) >= Threat::Flex3
                && matches!(self.solver.vct_with(b, p, &lim), Proof::Win(_))
            {
                return None;
            }
            return Some(Finding::MissedWin { line, by_fours });
        }
        // The opponent's threat: its win if the mover passed.
        b.make_pass();
        let threat = self.own_win(b);
        b.undo();
        threat.as_ref()?;
        b.make(p);
        let after = self.own_win(b);
        b.undo();
        let (line, _) = after?;
        let stops = self.stops(b, p);
        Some(if stops.is_empty() {
            Finding::AlreadyLost { line }
        } else {
            Finding::Blunder { line, stops }
        })
    }

    /// The moves other than `played` that are proven to stop the opponent's forced win
    /// ([`Reviewer::defends`]): legal points near a stone (a stop farther off cannot touch
    /// the threat's lines).
    fn stops(&mut self, b: &mut Board, played: Pos) -> Vec<Pos> {
        let mut stops = Vec::new();
        for c in self.candidates(b) {
            if c != played && self.defends(b, c, FOUR_CHAIN) {
                stops.push(c);
            }
        }
        stops
    }

    /// The side to move's legal points near a stone: where a stop may be.
    fn candidates(&self, b: &mut Board) -> Vec<Pos> {
        let mover = b.to_move();
        let mut out = Vec::new();
        for &c in b.cells() {
            if !b.is_empty(c) || !b.is_near(c) {
                continue;
            }
            if mover == Color::Black && b.is_forbidden(c) {
                continue;
            }
            out.push(c);
        }
        out
    }

    /// Does `c`, played by the side to move, stop the opponent's forced win? Proven so when
    /// the opponent has no forced win after it. A four of the mover's is a stop only if every
    /// reply that stops its five leaves the mover safe: no forced win of the opponent's,
    /// or a stop of its own again (`fours_left` more fours at most). Without that a four
    /// would count as a stop whenever its block is no threat, though it only delays: after
    /// the block the mover faces the same threat.
    fn defends(&mut self, b: &mut Board, c: Pos, fours_left: u8) -> bool {
        let mover = b.to_move();
        b.make(c);
        let r = if b.count(!mover, Threat::Five) > 0 {
            // The opponent wins at once.
            false
        } else if b.count(mover, Threat::Five) > 0 {
            self.four_defends(b, mover, fours_left)
        } else {
            self.solver.vct(b, &self.limits()) == Proof::NoWin
        };
        b.undo();
        r
    }

    /// The opponent to move must stop `mover`'s five: is `mover` safe after every such
    /// reply? See [`Reviewer::defends`].
    fn four_defends(&mut self, b: &mut Board, mover: Color, fours_left: u8) -> bool {
        if fours_left == 0 {
            // A longer chain of fours than the review follows: not proven a stop.
            return false;
        }
        let mut replies = MoveList::new();
        five_defences(b, &mut replies);
        for r in replies.iter() {
            b.make(r);
            let safe = b.count(mover, Threat::Five) > 0
                || self.no_threat(b)
                || self
                    .candidates(b)
                    .into_iter()
                    .any(|c| self.defends(b, c, fours_left - 1));
            b.undo();
            if !safe {
                return false;
            }
        }
        true
    }

    /// Is the side to move proven free of the opponent's forced win (none after a pass)?
    fn no_threat(&mut self, b: &mut Board) -> bool {
        b.make_pass();
        let proof = self.solver.vct(b, &self.limits());
        b.undo();
        proof == Proof::NoWin
    }
}

/// Most fours in a row the review follows when it asks whether a four of the mover's
/// stops the opponent's threat ([`Reviewer::defends`]): each costs a scan of the board's
/// candidates, and a longer chain of delaying fours is rare.
const FOUR_CHAIN: u8 = 2;

/// Most points of a line or of a list of stops a report line shows.
const SHOWN: usize = 12;

/// The report of a review as lines of text, for the front ends to print: each blunder and
/// missed win, the first move of each side's stretch of lost positions (the rest of the
/// stretch says nothing new), and with `all` every other move; then the first mistake.
pub struct Report {
    size: usize,
    all: bool,
    /// Is each side (by colour index) in a stretch of lost positions?
    lost: [bool; 2],
    /// The game's first blunder or missed win so far.
    first: Option<MoveReview>,
}

impl Report {
    /// A report of a game on a `size` board; `all` shows the moves with nothing to note too.
    pub fn new(size: usize, all: bool) -> Report {
        Report {
            size,
            all,
            lost: [false; 2],
            first: None,
        }
    }

    /// The line to show for the next reviewed move, if any.
    pub fn line(&mut self, m: &MoveReview) -> Option<String> {
        let side = m.mover.index();
        let show = match m.finding {
            Some(Finding::AlreadyLost { .. }) => !std::mem::replace(&mut self.lost[side], true),
            Some(_) => {
                self.lost[side] = false;
                true
            }
            None => {
                self.lost[side] = false;
                self.all
            }
        };
        if m.is_mistake() && self.first.is_none() {
            self.first = Some(m.clone());
        }
        show.then(|| describe(m, self.size))
    }

    /// The game's first blunder or missed win among the moves seen so far, if any.
    pub fn first_mistake(&self) -> Option<&MoveReview> {
        self.first.as_ref()
    }

    /// The closing line: the game's first blunder or missed win, or that there was none.
    pub fn summary(&self) -> String {
        match &self.first {
            Some(m) => format!(
                "first mistake: move {}, {} {} ({})",
                m.number,
                m.mover,
                format_h8(m.played, self.size),
                kind(m)
            ),
            None => "no blunder or missed win within the solver's reach".into(),
        }
    }
}

fn kind(m: &MoveReview) -> &'static str {
    match m.finding {
        Some(Finding::MissedWin { by_fours: true, .. }) => "missed a win by fours",
        Some(Finding::MissedWin { .. }) => "missed a win by threats",
        Some(Finding::Blunder { .. }) => "blunder",
        Some(Finding::AlreadyLost { .. }) => "already lost",
        None => "nothing to note",
    }
}

/// Points in h8 notation, at most [`SHOWN`] of them.
fn points(ps: &[Pos], size: usize) -> String {
    let mut s: Vec<String> = ps.iter().take(SHOWN).map(|&p| format_h8(p, size)).collect();
    if ps.len() > SHOWN {
        s.push(format!("... ({} in all)", ps.len()));
    }
    s.join(" ")
}

/// One reviewed move as a line: number, mover, point, and what was found.
fn describe(m: &MoveReview, size: usize) -> String {
    let head = format!(
        "{:>4}. {} {}: {}",
        m.number,
        m.mover,
        format_h8(m.played, size),
        kind(m)
    );
    let other = !m.mover;
    match &m.finding {
        None => head,
        Some(Finding::MissedWin { line, .. }) => format!("{head}: {}", points(line, size)),
        Some(Finding::Blunder { line, stops }) => format!(
            "{head}: {other} wins by {}; {} move(s) would have stopped it: {}",
            points(line, size),
            stops.len(),
            points(stops, size)
        ),
        Some(Finding::AlreadyLost { line }) => {
            format!(
                "{head}: {other} wins by {}, and no move stops it",
                points(line, size)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move_list;

    fn moves(s: &str) -> Vec<Pos> {
        parse_move_list(s).expect("a move list")
    }

    #[test]
    fn an_unplayable_move_list_is_refused_before_any_solving() {
        let list = moves("7,7 7,7");
        let lim = ReviewLimits::new(Duration::from_millis(1));
        let e = review_game(15, Rule::Freestyle, &list, &lim, &mut |_| {});
        assert!(matches!(
            e,
            Err(ReviewError::Moves(MoveListError::Occupied {
                number: 2,
                ..
            }))
        ));
        let e = review_game(30, Rule::Freestyle, &list, &lim, &mut |_| {});
        assert_eq!(e, Err(ReviewError::Size(30)));
    }

    #[test]
    fn a_missed_open_four_and_an_unblocked_four_are_found() {
        // Black makes an open three (7,7 8,7 9,7) that white leaves standing; black, with a
        // win by fours in hand, then plays far away.
        let list = moves("7,7 0,0 8,7 0,14 9,7 14,0 3,3");
        let mut seen = Vec::new();
        let lim = ReviewLimits::new(Duration::from_secs(2));
        let r = review_game(15, Rule::Freestyle, &list, &lim, &mut |m| {
            seen.push(m.number)
        })
        .unwrap();
        assert_eq!(seen, (1..=7).collect::<Vec<_>>());
        // Move 6 (white, 14,0) leaves black's open three standing: white had to stop it.
        match &r[5].finding {
            Some(Finding::Blunder { stops, .. }) => {
                for s in [Pos::new(6, 7), Pos::new(10, 7)] {
                    assert!(stops.contains(&s), "{s} stops the three: {stops:?}");
                }
            }
            f => panic!("move 6: {f:?}"),
        }
        // Move 7 (black, 3,3) lets the win by the open three go.
        assert!(
            matches!(r[6].finding, Some(Finding::MissedWin { .. })),
            "{:?}",
            r[6]
        );
        assert!(r[..5].iter().all(|m| m.finding.is_none()), "{r:?}");
    }

    /// Reviews the last move of `list` (freestyle, 15x15).
    fn last_move(list: &[Pos]) -> Option<Finding> {
        let lim = ReviewLimits {
            first: list.len(),
            per_solve: Duration::from_secs(20),
            stop: None,
        };
        let r = review_game(15, Rule::Freestyle, list, &lim, &mut |_| {}).unwrap();
        r[0].finding.clone()
    }

    #[test]
    fn a_four_that_only_delays_is_no_stop() {
        // Black has two open threes, along rows 7 and 11: no white stone stops both. White's
        // closed three down column 12 gives it a four (12,5 or 12,6) whose block is no
        // threat, so right after it black has no forced win; but after the block black has
        // both threes again. White's last move, 14,10, lost nothing: the game was lost
        // before it.
        let list = moves("5,7 12,2 6,7 12,3 7,7 12,4 5,11 0,0 6,11 14,14 7,11 0,14 12,1 14,10");
        let f = last_move(&list);
        assert!(matches!(f, Some(Finding::AlreadyLost { .. })), "{f:?}");
    }

    #[test]
    fn a_four_before_a_stop_is_a_stop() {
        // One open three: after white's four and black's block, white still stops it, so the
        // four is a stop as well as the three's own defences.
        let list = moves("5,7 12,2 6,7 12,3 7,7 12,4 12,1 14,10");
        match last_move(&list) {
            Some(Finding::Blunder { stops, .. }) => {
                for x in [4, 8] {
                    let s = Pos::new(x, 7);
                    assert!(stops.contains(&s), "{s}: {stops:?}");
                }
                for y in [5, 6] {
                    let s = Pos::new(12, y);
                    assert!(stops.contains(&s), "{s}: {stops:?}");
                }
            }
            f => panic!("{f:?}"),
        }
    }

    #[test]
    fn a_stopped_review_ends_without_the_move_it_was_on() {
        let list = moves("7,7 0,0 8,7 0,14 9,7 14,0 3,3");
        let stop = Arc::new(AtomicBool::new(false));
        let lim = ReviewLimits {
            first: 2,
            per_solve: Duration::from_secs(2),
            stop: Some(stop.clone()),
        };
        let mut seen = Vec::new();
        let r = review_game(15, Rule::Freestyle, &list, &lim, &mut |m| {
            seen.push(m.number);
            if m.number == 4 {
                stop.store(true, Ordering::Relaxed);
            }
        })
        .unwrap();
        assert_eq!(seen, vec![2, 3, 4]);
        assert_eq!(r.len(), 3);
        // Raised before the start: nothing is reviewed.
        let r = review_game(15, Rule::Freestyle, &list, &lim, &mut |_| panic!()).unwrap();
        assert!(r.is_empty());
    }
}
