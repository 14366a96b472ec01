//! VCT: the attacker wins by fours and open threes, against every reply that stops a
//! three (counter-fours included).

use super::lines::{fives_of, legal_flex4, two_fives, two_fives_line, unstoppable_line};
use super::moves::attack_moves;
use super::table::Entry;
use super::{Res, Solver, CARO_DEFENCE_WORK};
use crate::board::Board;
use crate::movegen::{five_defences, five_point, three_defences, MoveList};
use crate::threat::Threat;
use crate::types::{Color, Pos};

/// Most fours of the VCF a VCT node tries before its own threats (and a defender's node
/// before its blocks).
const VCT_VCF_DEPTH: u8 = 120;

/// The depth of a VCT table entry whose search found no win without ever stopping at its
/// depth limit: no deeper search can find one either.
pub(super) const NO_WIN_AT_ANY_DEPTH: u8 = u8::MAX;

impl Solver {
    /// A VCT node, the attacker to move, within `depth` attacking moves; `root`: the
    /// search's first node.
    pub(super) fn vct_attack(
        &mut self,
        b: &mut Board,
        depth: u8,
        line: &mut Vec<Pos>,
        root: bool,
    ) -> Res {
        self.tick()?;
        let a = b.to_move();
        let d = !a;
        if let Some(p) = five_point(b, a) {
            line.push(p);
            return Ok(true);
        }
        if b.count(d, Threat::Five) > 0 {
            if b.rule().is_caro() {
                let mut blocks = self.lists.pop().unwrap_or_default();
                let r = self.vct_block(b, depth, line, &mut blocks);
                self.lists.push(blocks);
                return r;
            }
            // The defender has a four: block it; it is a threat only if the block makes one.
            let q = match fives_of(b, d) {
                (1, q) => q,
                _ => return Ok(false),
            };
            if a == Color::Black && b.is_forbidden(q) {
                return Ok(false);
            }
            b.make(q);
            let r = self.vct_defend(b, depth, line);
            b.undo();
            if r? {
                line.push(q);
                return Ok(true);
            }
            return Ok(false);
        }
        if let Some(p) = self.legal_flex4(b, a) {
            b.make(p);
            unstoppable_line(b, line);
            b.undo();
            line.push(p);
            return Ok(true);
        }
        // A win by fours ends the attack whatever depth is left: the VCT's depth counts the
        // threes and fours before it. Below the first node the check is local
        // (`Solver::vcf_local`): it proves fewer wins by fours than the full search, in far
        // fewer nodes, and a VCT has a check at each of its attacking nodes (measured:
        // docs/experiments.md, the threat solver). The first node's is full, so that a VCT
        // proves every win by fours a VCF would.
        if self.vcf_here(b, line, !root)? {
            return Ok(true);
        }
        if depth == 0 {
            if b.count_at_least(a, Threat::Flex3) > 0 {
                // Threats were left untried: a deeper search may still win.
                self.depth_cuts += 1;
            }
            return Ok(false);
        }
        let key = b.hash();
        if let Some(e) = self.vct_tt.get(&key) {
            if !e.win && e.depth >= depth {
                if e.depth != NO_WIN_AT_ANY_DEPTH {
                    self.depth_cuts += 1;
                }
                return Ok(false);
            }
        }
        let cuts = self.depth_cuts;
        let mut moves = [Pos::NONE; 256];
        let n = attack_moves(b, a, false, &mut moves);
        let mut won = false;
        for &p in &moves[..n] {
            b.make(p);
            let r = self.vct_defend(b, depth - 1, line);
            b.undo();
            if r? {
                line.push(p);
                won = true;
                break;
            }
        }
        // A search that found no win without meeting its depth limit holds at every depth.
        let depth = if !won && self.depth_cuts == cuts {
            NO_WIN_AT_ANY_DEPTH
        } else {
            depth
        };
        self.store_vct(key, Entry { win: won, depth });
        Ok(won)
    }

    /// Does the side to move win by fours alone ([`VCT_VCF_DEPTH`] of them at most), by a
    /// local search ([`Solver::vcf_local`]) if `local`? On lean moves where the rule allows,
    /// except in debug builds, whose every lean run ends with a check of the whole board
    /// (the two visit the same nodes: `vcf_with`'s tests).
    pub(super) fn vcf_here(&mut self, b: &mut Board, line: &mut Vec<Pos>, local: bool) -> Res {
        self.with_local(local, |s| {
            s.vcf_search(b, VCT_VCF_DEPTH, line, !cfg!(debug_assertions))
        })
    }

    /// [`five_defences`] under caro, its makes charged as nodes.
    pub(super) fn caro_defences(&mut self, b: &mut Board, list: &mut MoveList) {
        five_defences(b, list);
        self.charge(CARO_DEFENCE_WORK);
    }

    /// [`legal_flex4`], charging the caro checks' makes.
    fn legal_flex4(&mut self, b: &mut Board, side: Color) -> Option<Pos> {
        if b.rule().is_caro() {
            self.charge(CARO_DEFENCE_WORK * b.count(side, Threat::Flex4) as u64);
        }
        legal_flex4(b, side)
    }

    /// The attacker to move must stop the defender's fives (caro: any of
    /// [`five_defences`]); a block wins when it is a threat the defender cannot meet.
    fn vct_block(
        &mut self,
        b: &mut Board,
        depth: u8,
        line: &mut Vec<Pos>,
        blocks: &mut MoveList,
    ) -> Res {
        self.caro_defences(b, blocks);
        for q in blocks.iter() {
            b.make(q);
            let r = self.vct_defend(b, depth, line);
            b.undo();
            if r? {
                line.push(q);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The defender to move against a threat. True when every defence loses.
    pub(super) fn vct_defend(&mut self, b: &mut Board, depth: u8, line: &mut Vec<Pos>) -> Res {
        // Move lists are large: reuse them rather than zero a new one at every node.
        let mut moves = self.lists.pop().unwrap_or_default();
        let r = self.vct_defend_with(b, depth, line, &mut moves);
        self.lists.push(moves);
        r
    }

    fn vct_defend_with(
        &mut self,
        b: &mut Board,
        depth: u8,
        line: &mut Vec<Pos>,
        moves: &mut MoveList,
    ) -> Res {
        self.tick()?;
        let d = b.to_move();
        let a = !d;
        if b.count(d, Threat::Five) > 0 {
            return Ok(false);
        }
        moves.clear();
        match fives_of(b, a) {
            (0, _) => {
                if self.legal_flex4(b, a).is_none() {
                    return Ok(false); // no threat left: the defender is free
                }
                // A defender that wins by fours refutes the three at once (its fours are
                // among the replies below, but each would be searched as a defence). Its
                // check is the full search: a win claimed by the VCT must meet every
                // refutation by fours the budget can find.
                if self.vcf_here(b, &mut Vec::new(), false)? {
                    return Ok(false);
                }
                three_defences(b, moves);
                // The likeliest refutation first: a failed attack is dropped at its first
                // successful defence.
                sort_defences(b, d, moves);
            }
            _ if b.rule().is_caro() => {
                self.caro_defences(b, moves);
                if moves.is_empty() {
                    unstoppable_line(b, line);
                    return Ok(true);
                }
            }
            (1, q) => {
                if d == Color::Black && b.is_forbidden(q) {
                    line.push(q);
                    line.push(Pos::NONE);
                    return Ok(true);
                }
                moves.push(q);
            }
            _ => {
                let (q1, q2) = two_fives(b, a);
                two_fives_line(b, q1, q2, line, Board::is_forbidden);
                return Ok(true);
            }
        }
        let mut first_line = Vec::new();
        for (i, r) in moves.iter().enumerate() {
            b.make(r);
            let mut sub = Vec::new();
            let res = self.vct_attack(b, depth, &mut sub, false);
            b.undo();
            if !res? {
                return Ok(false);
            }
            if i == 0 {
                sub.push(r);
                first_line = sub;
            }
        }
        line.extend(first_line);
        Ok(true)
    }
}

/// The defences of a three, likeliest refutation first (the defender's ordering score).
pub(super) fn sort_defences(b: &Board, d: Color, list: &mut MoveList) {
    for m in list.as_mut_slice() {
        m.score = crate::eval::move_score(b, m.pos, d);
    }
    list.sort();
}
