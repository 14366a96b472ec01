//! VCF: the attacker wins by fours alone, each forcing the one reply that stops its five.

use super::lines::{two_fives, two_fives_line, unstoppable_line};
use super::moves::{attack_moves, lean_four_moves};
use super::table::Entry;
use super::{Res, Solver};
use crate::board::Board;
use crate::movegen::{five_point, MoveList};
use crate::threat::Threat;
use crate::types::{Color, Pos};

impl Solver {
    /// A VCF node, the attacker to move, on the moves of `M` (full or lean). In a local
    /// search ([`Solver::vcf_local`]) `near` is the attacker's previous four (`Pos::NONE` at
    /// the first), and only fours [`close`] to it are tried.
    pub(super) fn vcf_node<M: FourMoves>(
        &mut self,
        b: &mut Board,
        depth: u8,
        line: &mut Vec<Pos>,
        near: Pos,
    ) -> Res {
        self.tick()?;
        let a = b.to_move();
        let (fives, first, _) = M::fives(b, a);
        if fives > 0 {
            line.push(first);
            return Ok(true);
        }
        if depth == 0 {
            return Ok(false);
        }
        let key = self.vcf_key(b.hash(), near);
        if let Some(e) = self.vcf_tt.get(key) {
            // A stored win is re-derived by searching on, to rebuild its line: it is found
            // again at once through the stored wins below.
            if !e.win && e.depth >= depth {
                return Ok(false);
            }
        }
        let mut moves = [Pos::NONE; 64];
        let n = M::fours(b, a, &mut moves);
        let mut won = false;
        for &p in &moves[..n] {
            if !near.is_none() && !close(near, p) {
                continue;
            }
            M::play(b, p);
            let next = if self.local { p } else { Pos::NONE };
            let r = self.after_four::<M>(b, depth, line, next);
            M::take_back(b);
            if r? {
                line.push(p);
                won = true;
                break;
            }
        }
        self.vcf_tt.insert(key, Entry { win: won, depth });
        Ok(won)
    }

    /// The table key of a VCF node of position `hash`. A local search proves less: its
    /// results are kept apart from the full search's, and from those of other `near`
    /// points.
    #[inline(always)]
    fn vcf_key(&self, hash: u64, near: Pos) -> u64 {
        if self.local {
            hash ^ local_salt(near)
        } else {
            hash
        }
    }

    /// The attacker has just made a four (`b` has the defender to move). Plays the forced
    /// block and goes on with the attacker's next VCF node (`near`: [`Solver::vcf_node`]).
    fn after_four<M: FourMoves>(
        &mut self,
        b: &mut Board,
        depth: u8,
        line: &mut Vec<Pos>,
        near: Pos,
    ) -> Res {
        let d = b.to_move();
        let a = !d;
        if M::fives(b, d).0 > 0 {
            return Ok(false); // the defender completes its own five first
        }
        if b.rule().is_caro() {
            let mut blocks = self.lists.pop().unwrap_or_default();
            let r = self.caro_after_four::<M>(b, depth, line, &mut blocks, near);
            self.lists.push(blocks);
            return r;
        }
        let q = match M::fives(b, a) {
            (0, _, _) => return Ok(false),
            (1, q, _) => q,
            (_, q1, q2) => {
                two_fives_line(b, q1, q2, line, M::forbidden);
                return Ok(true);
            }
        };
        if d == Color::Black && M::forbidden(b, q) {
            // Black cannot block on a forbidden point: any reply, then the five.
            line.push(q);
            line.push(Pos::NONE);
            return Ok(true);
        }
        // The next node probes the table after the block's make: start its load now.
        self.vcf_tt.prefetch(self.vcf_key(b.hash_after(q), near));
        M::play(b, q);
        let r = self.vcf_node::<M>(b, depth - 1, line, near);
        M::take_back(b);
        if r? {
            line.push(q);
            return Ok(true);
        }
        Ok(false)
    }

    /// [`Solver::after_four`] under caro, where one stone can stop a five point without
    /// taking it, or two five points at once ([`five_defences`]): every such block must lose.
    fn caro_after_four<M: FourMoves>(
        &mut self,
        b: &mut Board,
        depth: u8,
        line: &mut Vec<Pos>,
        blocks: &mut MoveList,
        near: Pos,
    ) -> Res {
        if M::fives(b, !b.to_move()).0 == 0 {
            return Ok(false);
        }
        self.caro_defences(b, blocks);
        if blocks.is_empty() {
            unstoppable_line(b, line);
            return Ok(true);
        }
        let mut kept = None;
        for p in blocks.iter() {
            M::play(b, p);
            let mut sub = Vec::new();
            let r = self.vcf_node::<M>(b, depth - 1, &mut sub, near);
            M::take_back(b);
            if !r? {
                return Ok(false);
            }
            kept.get_or_insert((p, sub));
        }
        if let Some((p, sub)) = kept {
            line.extend(sub);
            line.push(p);
        }
        Ok(true)
    }
}

/// Is `p` close to `near` for a local VCF: within two cells of it each way, or on one of
/// its four lines within four cells (a four that uses the stone at `near`)?
#[inline(always)]
fn close(near: Pos, p: Pos) -> bool {
    let dx = near.x().abs_diff(p.x());
    let dy = near.y().abs_diff(p.y());
    (dx <= 2 && dy <= 2) || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 4)
}

/// What a local search's node mixes into its table key: a constant of its own, and `near`.
#[inline(always)]
fn local_salt(near: Pos) -> u64 {
    0x5bd1_e995_7f4a_7c15 ^ (u64::from(near.0) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The moves and reads of a VCF: full moves on the board, or lean ones (every rule but caro).
pub(super) trait FourMoves {
    fn play(b: &mut Board, p: Pos);
    fn take_back(b: &mut Board);
    /// How many five points `side` has (two at most), and the first two.
    fn fives(b: &Board, side: Color) -> (u32, Pos, Pos);
    /// The attacker's fours, strongest first ([`attack_moves`]).
    fn fours(b: &mut Board, side: Color, out: &mut [Pos; 64]) -> usize;
    /// Is the empty point `p` forbidden for black ([`Board::is_forbidden`])?
    fn forbidden(b: &mut Board, p: Pos) -> bool;
}

/// [`Board::make`] and the board's classes.
pub(super) struct Full;

impl FourMoves for Full {
    #[inline(always)]
    fn play(b: &mut Board, p: Pos) {
        b.make(p);
    }
    #[inline(always)]
    fn take_back(b: &mut Board) {
        b.undo();
    }
    #[inline(always)]
    fn fives(b: &Board, side: Color) -> (u32, Pos, Pos) {
        match b.count(side, Threat::Five) {
            0 => (0, Pos::NONE, Pos::NONE),
            1 => (1, five_point(b, side).unwrap_or(Pos::NONE), Pos::NONE),
            _ => {
                let (q1, q2) = two_fives(b, side);
                (2, q1, q2)
            }
        }
    }
    #[inline(always)]
    fn fours(b: &mut Board, side: Color, out: &mut [Pos; 64]) -> usize {
        attack_moves(b, side, true, out)
    }
    #[inline(always)]
    fn forbidden(b: &mut Board, p: Pos) -> bool {
        b.is_forbidden(p)
    }
}

/// [`Board::lean_make`] and the lean masks.
pub(super) struct Lean;

impl FourMoves for Lean {
    #[inline(always)]
    fn play(b: &mut Board, p: Pos) {
        b.lean_make(p);
    }
    #[inline(always)]
    fn take_back(b: &mut Board) {
        b.lean_undo();
    }
    #[inline(always)]
    fn fives(b: &Board, side: Color) -> (u32, Pos, Pos) {
        if b.lean_has_five(side) {
            b.lean_fives(side)
        } else {
            (0, Pos::NONE, Pos::NONE)
        }
    }
    #[inline(always)]
    fn fours(b: &mut Board, side: Color, out: &mut [Pos; 64]) -> usize {
        lean_four_moves(b, side, out)
    }
    #[inline(always)]
    fn forbidden(b: &mut Board, p: Pos) -> bool {
        b.rule().has_forbidden() && b.lean_is_forbidden(p)
    }
}
