//! Proof-number search over the VCT's tree: the same nodes, moves and leaf checks as the
//! depth-first VCT (`vct`), expanded best-first. Each node keeps a proof number (how many
//! leaves must still be proven to prove it) and a disproof number; the search always
//! expands a leaf of the most proving line. A depth-first search must finish every shorter
//! line before a longer one, so its trees grow with the branching factor to the power of the
//! depth; this one follows a narrow forcing line (a four the defender must block, a three
//! with few defences) as deep as it goes.

use super::lines::{fives_of, legal_flex4};
use super::moves::attack_moves;
use super::table::{Entry, PnEntry};
use super::vct::{sort_defences, NO_WIN_AT_ANY_DEPTH};
use super::{Res, Solver};
use crate::board::Board;
use crate::movegen::{five_point, three_defences};
use crate::search::params::{THRESHOLD_EPSILON, UNSEEN_RANK_STEP};
use crate::threat::Threat;
use crate::types::{Color, Pos};

/// A proof or disproof number that stands for infinity: the node is disproven (as proof
/// number) or proven (as disproof number). Sums saturate here.
const INFINITE: u32 = 1 << 30;

/// What expanding a leaf found.
enum Expansion {
    Proven,
    Disproven,
    /// Children: the moves now in the solver's scratch list.
    Moves,
}

impl Solver {
    /// Does the side to move win by continuous threats? Depth-first proof-number search
    /// (df-pn) over the tree of [`Solver::vct_attack`] (freestyle, standard and renju; not
    /// caro), its numbers in a table keyed by position. On a win `line` holds the main line,
    /// first move first.
    pub(super) fn vct_pns(&mut self, b: &mut Board, line: &mut Vec<Pos>) -> Res {
        let slots = self.pn_slots();
        self.pn_tt.start(slots);
        let (phi, delta) = self.mid(b, INFINITE, INFINITE, true, true)?;
        if delta == 0 || phi >= INFINITE {
            return Ok(false);
        }
        if phi != 0 {
            return Err(super::Abort);
        }
        if self.pns_line(b, line) {
            Ok(true)
        } else {
            Err(super::Abort)
        }
    }

    /// One df-pn node: searches below it until its numbers reach a threshold, and returns
    /// them (`phi`, `delta`, from its side to move's view).
    fn mid(
        &mut self,
        b: &mut Board,
        th_phi: u32,
        th_delta: u32,
        attacker: bool,
        root: bool,
    ) -> Result<(u32, u32), super::Abort> {
        let key = b.hash();
        let mut moves = Vec::new();
        let seen = self.pn_tt.get(key);
        if let Some(e) = seen {
            if e.phi == 0 || e.delta == 0 {
                return Ok((e.phi, e.delta));
            }
        }
        let found = if attacker {
            self.pns_attacker(b, root, seen.is_none(), &mut moves)?
        } else {
            self.pns_defender(b, seen.is_none(), &mut moves)?
        };
        // Proven: the attacker wins.
        let settled = match found {
            Expansion::Proven => Some(attacker),
            Expansion::Disproven => Some(!attacker),
            Expansion::Moves => None,
        };
        if let Some(mover_wins) = settled {
            let (phi, delta) = if mover_wins {
                (0, INFINITE)
            } else {
                (INFINITE, 0)
            };
            self.pn_tt.insert(
                key,
                PnEntry {
                    phi,
                    delta,
                    leaf: true,
                },
            );
            self.note_no_win(b, attacker, mover_wins);
            return Ok((phi, delta));
        }
        loop {
            let mut min_delta = INFINITE;
            let mut second = INFINITE;
            let mut best = 0;
            let mut best_phi = 1;
            let mut sum_phi = 0u32;
            for (k, &p) in moves.iter().enumerate() {
                let (cp, cd) = self
                    .pn_tt
                    .get(b.hash_after(p))
                    .map_or((1, 1 + k as u32 * UNSEEN_RANK_STEP), |e| (e.phi, e.delta));
                sum_phi = (sum_phi + cp).min(INFINITE);
                if cd < min_delta {
                    second = min_delta;
                    min_delta = cd;
                    best = k;
                    best_phi = cp;
                } else if cd < second {
                    second = cd;
                }
            }
            let (phi, delta) = (min_delta, sum_phi);
            if phi >= th_phi || delta >= th_delta || phi == 0 || delta == 0 {
                self.pn_tt.insert(
                    key,
                    PnEntry {
                        phi,
                        delta,
                        leaf: false,
                    },
                );
                if phi == 0 || delta == 0 {
                    self.note_no_win(b, attacker, phi == 0);
                }
                return Ok((phi, delta));
            }
            // The child's phi counts in this node's delta; its delta is this node's phi.
            let child_phi = (th_delta - delta + best_phi).min(INFINITE);
            let child_delta = th_phi
                .min(
                    second
                        .saturating_add(1)
                        .max(second.saturating_mul(THRESHOLD_EPSILON.0) / THRESHOLD_EPSILON.1),
                )
                .min(INFINITE);
            let p = moves[best];
            b.make(p);
            let r = self.mid(b, child_phi, child_delta, !attacker, false);
            b.undo();
            r?;
        }
    }

    /// Records a settled attacker's node without a win (`mover_wins` false) in the
    /// depth-first VCT's table.
    fn note_no_win(&mut self, b: &Board, attacker: bool, mover_wins: bool) {
        if attacker && !mover_wins {
            self.store_vct(
                b.hash(),
                Entry {
                    win: false,
                    depth: NO_WIN_AT_ANY_DEPTH,
                },
            );
        }
    }

    /// The main line of a proven root, first move first: the attacker's first proven move
    /// and the defender's first reply at each step, then the proven leaf's own line (its
    /// closing fours, from the depth-first search, which proves it again at once). False
    /// if the table lost part of the proof.
    fn pns_line(&mut self, b: &mut Board, line: &mut Vec<Pos>) -> bool {
        // The leaf's re-proof must not run out of budget.
        let limits = self.limits.clone();
        self.limits.nodes = u64::MAX;
        self.limits.deadline = None;
        let mut made = 0;
        let mut moves = Vec::new();
        let ok = loop {
            let attacker = made % 2 == 0;
            let Some(e) = self.pn_tt.get(b.hash()) else {
                break false;
            };
            if e.leaf {
                let mut tail = Vec::new();
                let r = if attacker {
                    self.vct_attack(b, 1, &mut tail, made == 0)
                } else {
                    self.vct_defend(b, 0, &mut tail)
                };
                tail.reverse();
                line.extend(tail);
                break matches!(r, Ok(true));
            }
            let r = if attacker {
                self.pns_attacker(b, made == 0, false, &mut moves)
            } else {
                self.pns_defender(b, false, &mut moves)
            };
            if !matches!(r, Ok(Expansion::Moves)) {
                break false;
            }
            let next = if attacker {
                moves.iter().copied().find(|&p| {
                    self.pn_tt
                        .get(b.hash_after(p))
                        .is_some_and(|e| e.delta == 0)
                })
            } else {
                moves.first().copied()
            };
            let Some(p) = next else { break false };
            line.push(p);
            b.make(p);
            made += 1;
        };
        for _ in 0..made {
            b.undo();
        }
        self.limits = limits;
        ok
    }

    /// Expands an attacker's node: the checks of [`Solver::vct_attack`] before its threats,
    /// then its threats (or the one block of the defender's four) as children.
    fn pns_attacker(
        &mut self,
        b: &mut Board,
        root: bool,
        checks: bool,
        moves: &mut Vec<Pos>,
    ) -> Result<Expansion, super::Abort> {
        self.tick()?;
        let a = b.to_move();
        let d = !a;
        moves.clear();
        if five_point(b, a).is_some() {
            return Ok(Expansion::Proven);
        }
        if b.count(d, Threat::Five) > 0 {
            let q = match fives_of(b, d) {
                (1, q) => q,
                _ => return Ok(Expansion::Disproven),
            };
            if a == Color::Black && b.is_forbidden(q) {
                return Ok(Expansion::Disproven);
            }
            moves.push(q);
            return Ok(Expansion::Moves);
        }
        if legal_flex4(b, a).is_some() {
            return Ok(Expansion::Proven);
        }
        if checks && !root {
            if let Some(e) = self.vct_tt.get(&b.hash()) {
                if !e.win && e.depth == NO_WIN_AT_ANY_DEPTH {
                    return Ok(Expansion::Disproven);
                }
            }
        }
        if checks && self.vcf_check(b, !root)? {
            return Ok(Expansion::Proven);
        }
        let mut list = [Pos::NONE; 256];
        let n = attack_moves(b, a, false, &mut list);
        if n == 0 {
            return Ok(Expansion::Disproven);
        }
        moves.extend_from_slice(&list[..n]);
        Ok(Expansion::Moves)
    }

    /// Expands a defender's node: the checks of [`Solver::vct_defend`], then its defences as
    /// children, likeliest refutation first.
    fn pns_defender(
        &mut self,
        b: &mut Board,
        checks: bool,
        moves: &mut Vec<Pos>,
    ) -> Result<Expansion, super::Abort> {
        self.tick()?;
        let d = b.to_move();
        let a = !d;
        moves.clear();
        if b.count(d, Threat::Five) > 0 {
            return Ok(Expansion::Disproven);
        }
        match fives_of(b, a) {
            (0, _) => {
                if legal_flex4(b, a).is_none() {
                    return Ok(Expansion::Disproven);
                }
                if checks && self.vcf_check(b, false)? {
                    return Ok(Expansion::Disproven);
                }
                let mut list = self.lists.pop().unwrap_or_default();
                three_defences(b, &mut list);
                sort_defences(b, d, &mut list);
                moves.extend(list.iter());
                self.lists.push(list);
                Ok(if moves.is_empty() {
                    Expansion::Proven
                } else {
                    Expansion::Moves
                })
            }
            (1, q) => {
                if d == Color::Black && b.is_forbidden(q) {
                    return Ok(Expansion::Proven);
                }
                moves.push(q);
                Ok(Expansion::Moves)
            }
            _ => Ok(Expansion::Proven),
        }
    }

    /// Does the side to move win by fours (a local search if `local`)? The depth-first VCT's
    /// check, its line dropped.
    fn vcf_check(&mut self, b: &mut Board, local: bool) -> Res {
        self.vcf_here(b, &mut Vec::new(), local)
    }
}
