//! The node search: negamax with alpha-beta and principal variation search, the table,
//! pruning, extensions and reductions, the pending (not yet made) child, and the leaves.
//! What a node decides before it searches a move is in `decided.rs`.
use super::decided::{wins_in_five, Facts};
use super::params::*;
use super::picker::{answers_four_three, must_answer_three};
use super::solver::legal_flex4;
use super::*;

impl Searcher<'_> {
    /// Negamax with alpha-beta and principal variation search. Scores are from the side
    /// to move at this node; `depth` is in hundredths of a ply ([`ONE_PLY`]).
    pub(super) fn negamax(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv: bool,
    ) -> i32 {
        self.nodes += 1;
        // The node's move may still be pending: until the steps below need the board, they
        // read the counts and hash it would leave.
        let mut pending = self.pending.take();
        let (me, facts) = match &pending {
            Some(pd) => (!self.board.to_move(), pd.facts),
            None => {
                let me = self.board.to_move();
                (me, Facts::of(self.board.threat_counts(), me))
            }
        };
        // 1. Decided positions: our five next move, or two opponent fives we cannot both stop.
        let opp_fives = match self.node_start(ply, &facts) {
            Ok(n) => n,
            Err(score) => return score,
        };
        let opp = !me;
        // Mate-distance pruning.
        alpha = alpha.max(-(WIN - ply as i32));
        beta = beta.min(WIN - (ply as i32 + 1));
        if alpha >= beta {
            return alpha;
        }
        // 2. Our straight four (or double four) with no opponent four to answer: a win in 3.
        if opp_fives == 0 && facts.flex4 {
            let renju_black = self.board.rule().forbids(me);
            if !renju_black || {
                self.materialize(&mut pending, ply);
                legal_flex4(&mut self.board, Color::Black).is_some()
            } {
                return WIN - (ply as i32 + 3);
            }
        }
        // 2b. Our four-three, or our double three, with no four of the opponent's to
        //     interrupt it: a win in 5 (from the board's counts, once the move is made).
        if pending.is_none() && opp_fives == 0 && wins_in_five(&self.board, me) {
            return WIN - (ply as i32 + 5);
        }
        if ply >= MAX_PLY - 2 {
            self.materialize(&mut pending, ply);
            return self.evaluate_at(true);
        }
        // 3. Leaves: a short VCF check, then the static evaluation; not while the
        //    opponent's four forces our reply.
        if depth <= 0 && opp_fives == 0 {
            return self.leaf(ply, &mut pending, facts.four, beta, None);
        }
        // Whole plies, for the tables indexed by depth.
        let plies = depth / ONE_PLY;
        // 4. Transposition table (depths stored in whole plies).
        let key = pending.as_ref().map_or(self.board.hash(), |pd| pd.hash);
        let mut tt_move = Pos::NONE;
        let excluded = self.excluded[ply];
        let tt_hit = self.shared.tt.probe(key);
        if let Some(hit) = tt_hit {
            tt_move = hit.best;
            let s = Tt::from_tt(hit.score, ply);
            // A proven win or loss cuts at any depth, in principal-variation nodes too:
            // depth does not weaken a proof, and the search need not find it again.
            let proven = s.abs() >= MATE_BOUND;
            if (!pv || proven) && excluded.is_none() && (proven || hit.depth * ONE_PLY >= depth) {
                match hit.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        // Internal iterative reduction: a node the table knows nothing of is likely
        // ordered badly, so search it a ply shallower.
        let iir = self.shared.params.iir_depth();
        let (depth, plies) =
            if tt_move.is_none() && plies >= iir && excluded.is_none() && opp_fives == 0 {
                (depth - ONE_PLY, plies - 1)
            } else {
                (depth, plies)
            };
        // 5. Reverse futility and razoring.
        let margin = if self.shared.net.is_some() {
            self.shared.params.rfp_margin()
        } else {
            RFP_MARGIN_CLASSICAL
        };
        // Not while the opponent has an open three to answer: the static evaluation cannot
        // tell a three that one block stops from two that no block does (a double three is
        // a win the search must prove, and a cut here hid it: it finds more long wins in
        // the same nodes).
        // Nor in the middle of our attack by fours ([`Searcher::attacking_by_fours`]).
        let may_cut = !pv
            && opp_fives == 0
            && !facts.opp_flex4
            && ply >= 1
            && margin > 0
            && plies < RFP_DEPTH.max(RAZOR_DEPTH)
            && !self.attacking_by_fours(ply);
        // A node that may return here reads the net's value as a leaf does, without
        // bringing the net's inputs up to date, and does that only if it searches on
        // ([`Searcher::evaluate_at`]).
        let own_eval = self.static_eval(ply, &pending, may_cut);
        let mut static_eval = own_eval;
        // The table score replaces the static one where its bound says it is closer to the
        // truth.
        if let Some(hit) = tt_hit {
            let s = Tt::from_tt(hit.score, ply);
            let closer = match hit.bound {
                Bound::Lower => s > static_eval,
                Bound::Upper => s < static_eval,
                Bound::Exact => true,
                Bound::None => false,
            };
            if closer && s.abs() < MATE_BOUND {
                static_eval = s;
            }
        }
        if may_cut {
            let e = static_eval;
            if plies < RFP_DEPTH && e - margin * plies >= beta && e < MATE_BOUND {
                return e;
            }
            if plies < RAZOR_DEPTH && e + margin * plies <= alpha {
                return self.leaf(ply, &mut pending, facts.four, beta, Some(own_eval));
            }
        }
        // Everything below searches on from the board.
        self.materialize(&mut pending, ply);
        if may_cut {
            // The children read the net after this node's move.
            self.sync_net();
        }
        // Singular extension of the table move.
        let mut tt_ext = 0;
        let se = self.shared.params.singular_margin();
        if let Some(hit) = tt_hit.filter(|h| {
            ply > 0
                && excluded.is_none()
                && opp_fives == 0
                && plies >= SE_DEPTH
                && !h.best.is_none()
                && matches!(h.bound, Bound::Lower | Bound::Exact)
                && h.depth >= plies - 2
        }) {
            let s = Tt::from_tt(hit.score, ply);
            if s.abs() < MATE_BOUND {
                let sbeta = s - se * plies;
                self.excluded[ply] = hit.best;
                let v = self.negamax(depth / 2, sbeta - 1, sbeta, ply, false);
                self.excluded[ply] = Pos::NONE;
                if self.aborted {
                    return 0;
                }
                if v < sbeta {
                    tt_ext = ONE_PLY;
                } else if sbeta >= beta {
                    return sbeta;
                } else if s >= beta {
                    tt_ext = -SE_NEGATIVE_EXT;
                }
            }
        }
        // 6. Moves.
        let mut list = self.take_list(ply);
        let forced = opp_fives > 0;
        // Nodes that answer a threat generate a narrower list, which may not hold the table
        // move.
        let defending =
            must_answer_three(&mut self.board, self.shared.params.renju_real_threes() != 0)
                || answers_four_three(&self.board, ply);
        // The table move first, before the others are generated: a cut by it (the common
        // case) saves generating and scoring the list. Only where the list would hold it
        // first: a quiet node's candidates (every empty cell near a stone) always hold a
        // legal table move, with the top score; not in forced or defending nodes, whose
        // lists are narrower, nor beside a singular search's excluded move.
        let staged = tt_move != Pos::NONE
            && excluded == Pos::NONE
            && !forced
            && !defending
            && self.board.is_empty(tt_move)
            && self.board.is_near(tt_move)
            && !(self.board.rule().forbids(me) && self.board.is_forbidden(tt_move));
        let mut generated = false;
        // The kept moves: the first `n` of the order (a kept set's first moves are the
        // list's first moves, so the list need not be cut to it); unknown until generated.
        let mut n = usize::MAX;
        if !staged {
            let Some(keep) = self.gen_moves(&mut list, tt_move, ply) else {
                self.lists[ply] = Some(list);
                return -(WIN - (ply as i32 + 2));
            };
            if list.is_empty() {
                self.lists[ply] = Some(list);
                return self.no_move_score(ply);
            }
            // Most nodes search a few moves: each is picked from the list when its turn
            // comes, instead of sorting the list first.
            list.start_picks();
            n = list.len().min(keep);
            generated = true;
        }
        let prune = !pv && !forced && plies <= PRUNE_DEPTH;
        // Replies to a four cost less depth (none at the default `four_reply_ext`): the
        // attacker's threat sequence is searched as deep as its quiet moves allow.
        let new_depth = if forced {
            depth - ONE_PLY + self.shared.params.four_reply_ext()
        } else {
            depth - ONE_PLY
        };
        // Move caps, from ply 2, on replies to an open three too.
        let cap = if ply < 2 || forced {
            usize::MAX
        } else {
            let table = if self.board.count_at_least(me, Threat::Flex4) > 0
                || self.board.count_at_least(opp, Threat::Flex4) > 0
            {
                &THREAT_CAP
            } else {
                &QUIET_CAP
            };
            table[plies.clamp(0, 15) as usize]
        };
        let lmr_threats = self.shared.params.lmr_threats();
        let futility = self.shared.params.futility_margin();
        // Can the children start from the counts their move would leave?
        // A pending child's evaluation comes from the classical counts: not with the net.
        let lazy = self.board.has_after() && self.acc.is_none();
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Pos::NONE;
        // Deferred moves: with several threads, a move (not the first) whose child another
        // thread is searching waits until the rest are searched, with its index and its
        // child's hash (the key of that child's mark).
        let defer = plies >= DEFER_MIN_PLIES && self.shared.busy.active();
        let mut deferred = [(Pos::NONE, 0usize, None::<u64>); MAX_DEFERRED];
        let (mut n_deferred, mut next_deferred) = (0, 0);
        // A narrowed quiet node whose kept moves all lose searches the rest of its list
        // too, once (`n` is then the list's length): the one defence may be a quiet move
        // the narrowing left out (a point of the opponent's line of fours that stops it
        // early), and a loss over the kept moves alone is no proof; a false one reaches
        // the root as a mate it stops on.
        let mut next = 0;
        loop {
            let i = next;
            next += 1;
            if i > 0 && !generated {
                // The table move did not cut: the rest of the list, which holds it first.
                let keep = self
                    .gen_moves(&mut list, tt_move, ply)
                    .expect("a quiet node has moves");
                list.start_picks();
                let first = list.pick(0).pos;
                debug_assert_eq!(first, tt_move, "the table move heads the list");
                n = list.len().min(keep);
                generated = true;
            }
            let (p, i, busy_key) = if i < n {
                // Past the cap, only while every move so far loses.
                if i >= cap && best > -MATE_BOUND {
                    break;
                }
                let p = if !generated {
                    tt_move
                } else {
                    list.pick(i).pos
                };
                if p == excluded {
                    continue;
                }
                let busy_key = defer.then(|| self.board.hash_after(p));
                if i > 0
                    && n_deferred < MAX_DEFERRED
                    && busy_key.is_some_and(|k| self.shared.busy.is_busy(k))
                {
                    deferred[n_deferred] = (p, i, busy_key);
                    n_deferred += 1;
                    continue;
                }
                (p, i, busy_key)
            } else if next_deferred < n_deferred {
                next_deferred += 1;
                deferred[next_deferred - 1]
            } else if generated
                && best <= -MATE_BOUND
                && n < list.len()
                && self.shared.params.widen_lost_nodes() != 0
            {
                // Past the kept moves, from the first one left out.
                next = n;
                n = list.len();
                continue;
            } else {
                break;
            };
            let quiet = self.is_quiet(p, me);
            if prune && quiet && best > -MATE_BOUND {
                // Late-move pruning: near the leaves only the first few quiet moves count.
                if i >= LMP_MOVES[plies.max(0) as usize] {
                    continue;
                }
                // Futility: a quiet move will not lift a hopeless static score to alpha.
                if plies <= 2 && static_eval + futility * plies.max(1) <= alpha {
                    continue;
                }
            }
            let new_depth = new_depth + if p == tt_move { tt_ext } else { 0 };
            self.move_threat[ply] = self.board.threat(p, me);
            self.made[ply + 1] = false;
            let mut counted = None;
            let mut score;
            if let Some(k) = busy_key {
                self.shared.busy.mark(k);
            }
            if i == 0 {
                score = -self.child(p, lazy, &mut counted, new_depth, -beta, -alpha, ply + 1, pv);
            } else {
                // Late moves are searched shallower first (threat moves by less, or not at
                // all without `lmr_threats`).
                let r = if plies >= LMR_DEPTH
                    && i >= LMR_FIRST_MOVE
                    && !forced
                    && (quiet || lmr_threats > 0)
                {
                    let less = if quiet { 0 } else { lmr_threats - 1 };
                    ((self.lmr.get(plies, i) + !pv as i32 - less).max(0) * ONE_PLY)
                        .clamp(0, (new_depth / ONE_PLY - 1).max(0) * ONE_PLY)
                } else {
                    0
                };
                let d = new_depth - r;
                score = -self.child(p, lazy, &mut counted, d, -alpha - 1, -alpha, ply + 1, false);
                if score > alpha && r > 0 {
                    score = -self.child(
                        p,
                        lazy,
                        &mut counted,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                    );
                }
                if score > alpha && score < beta {
                    score = -self.child(
                        p,
                        lazy,
                        &mut counted,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        true,
                    );
                }
            }
            if let Some(k) = busy_key {
                self.shared.busy.unmark(k);
            }
            if self.made[ply + 1] {
                self.undo_move();
            }
            if self.aborted {
                self.lists[ply] = Some(list);
                return 0;
            }
            if score > best {
                best = score;
                best_move = p;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != p {
                                k[1] = k[0];
                                k[0] = p;
                            }
                            let h = &mut self.history[me.index()][p.index()];
                            *h = h.saturating_add(plies * plies);
                        }
                        break;
                    }
                }
            }
        }
        self.lists[ply] = Some(list);
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_none() {
            self.shared
                .tt
                .store(key, best_move, Tt::to_tt(best, ply), plies, bound);
        }
        best
    }

    /// Searches the child `p` of the node at `ply - 1`. Unless an earlier search of this
    /// child made it (`made[ply]`), the move is left pending where the counts decide
    /// (`lazy`; `counted` keeps them for the next search of the child): most children end in
    /// their first steps (a decided position, the table, a leaf, futility), which the counts
    /// and hash the move would leave answer without making it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn child(
        &mut self,
        p: Pos,
        lazy: bool,
        counted: &mut Option<Pending>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv: bool,
    ) -> i32 {
        if !self.made[ply] {
            // A child above the leaves probes the table in its first steps: start that load
            // now. (A leaf reads no table unless a four forces it on: no prefetch.)
            if depth > 0 {
                self.shared.tt.prefetch(self.board.hash_after(p));
            }
            if lazy {
                if counted.is_none() {
                    *counted = Some(self.pending_child(p));
                }
                self.pending = *counted;
            } else {
                self.make_move(p);
                self.made[ply] = true;
            }
        }
        self.negamax(depth, alpha, beta, ply, pv)
    }

    /// The child `p` as a pending move: its hash, raw static evaluation and deciding counts,
    /// from what the move would change ([`Board::after`]). Only where
    /// [`crate::eval::counts_decide`] for the child's weights. Debug builds make the move
    /// once and compare.
    pub(super) fn pending_child(&mut self, p: Pos) -> Pending {
        let b = &self.board;
        let me = !b.to_move();
        let (m, o) = (me.index(), (!me).index());
        let a = b.after(p, &self.count_weights[m]);
        let now = crate::eval::term::eval_term_with(crate::simd::best(), b, me, self.weights);
        let pd = Pending {
            p,
            hash: b.hash_after(p),
            eval: now + a.change,
            facts: Facts {
                five: a.fives[m] > 0,
                opp_fives: a.fives[o],
                flex4: a.flex4[m] > 0,
                four: a.fours[m] > 0,
                opp_flex4: a.flex4[o] > 0,
            },
        };
        #[cfg(debug_assertions)]
        {
            self.board.make(p);
            let facts = Facts::of(self.board.threat_counts(), me);
            let made = (self.evaluate_at(false), facts, self.board.hash());
            assert_eq!((pd.eval, pd.facts, pd.hash), made, "after {p}");
            self.board.undo();
        }
        pd
    }

    /// Makes the node's pending move, if it has one.
    #[inline]
    pub(super) fn materialize(&mut self, pending: &mut Option<Pending>, ply: usize) {
        if let Some(pd) = pending.take() {
            self.make_move(pd.p);
            self.made[ply] = true;
        }
    }

    /// Makes `p` on the search's board. The net's inputs catch up only where a node reads
    /// the net ([`Searcher::sync_net`]).
    #[inline]
    pub(super) fn make_move(&mut self, p: Pos) {
        self.board.make(p);
    }

    /// Takes back the last [`Searcher::make_move`], and what the net's inputs took from it.
    #[inline]
    pub(super) fn undo_move(&mut self) {
        self.board.undo();
        if let Some(acc) = self.acc.as_mut() {
            acc.undo(&self.board);
        }
    }

    /// Brings the net's inputs up to date with the board, before the node reads the net's
    /// value or policy. Done on demand and not at every make, a child answered before it
    /// reads the net (by the table, or a decided position) costs no update: one make in nine
    /// in the bench, 3% of its instructions.
    #[inline]
    pub(super) fn sync_net(&mut self) {
        if let (Some(acc), Some(net)) = (self.acc.as_mut(), self.shared.net) {
            acc.sync(net, &self.board);
        }
    }

    /// A leaf: our VCF if a short local check finds one ([`Solver::vcf_local`]), else the
    /// static evaluation. `four`: can the side to move make a four? A static evaluation at
    /// or above `beta` is returned without the check (a win found there would only raise a
    /// score that already cuts). A pending move stays pending through a lean VCF. `known`:
    /// the node's static evaluation, if it has been read.
    pub(super) fn leaf(
        &mut self,
        ply: usize,
        pending: &mut Option<Pending>,
        four: bool,
        beta: i32,
        known: Option<i32>,
    ) -> i32 {
        let budget = self.leaf_budget(ply);
        let mut eval = known;
        if budget > 0 && four {
            let e = match known {
                Some(e) => e,
                None => self.static_eval(ply, pending, true),
            };
            if e >= beta {
                return e;
            }
            eval = Some(e);
            let lim = SolveLimits {
                depth: LEAF_VCF_DEPTH,
                nodes: budget,
                // The hard limit: a leaf check of thousands of nodes (at ply 1, under caro's
                // slower moves) would otherwise run past it before the next clock read.
                deadline: self.deadline,
                stop: None,
            };
            let r = match pending.as_ref().map(|pd| pd.p) {
                Some(p) if self.board.lean_rule() => {
                    self.solver.vcf_after_local(&mut self.board, p, &lim)
                }
                _ => {
                    self.materialize(pending, ply);
                    self.solver.vcf_local(&mut self.board, &lim)
                }
            };
            self.nodes += self.solver.nodes();
            if let Proof::Win(line) = r {
                return WIN - (ply + line.len()) as i32;
            }
        }
        match eval {
            Some(e) => e,
            None => self.static_eval(ply, pending, true),
        }
    }

    /// Did the side to move at `ply` make a four with each of its last two moves? Such a
    /// node is spared reverse futility and razoring (as Rapfi's futility pruning spares
    /// it): the threats to come are not in the static evaluation. Measured:
    /// docs/experiments.md, pruning and reductions.
    #[inline]
    fn attacking_by_fours(&self, ply: usize) -> bool {
        ply >= 4
            && self.move_threat[ply - 2] >= Threat::Block4
            && self.move_threat[ply - 4] >= Threat::Block4
    }

    /// Does `p` neither make nor stop a three (`me` to move)? Such moves are reduced first.
    pub(super) fn is_quiet(&self, p: Pos, me: Color) -> bool {
        self.board.threat(p, me) < Threat::Flex3 && self.board.threat(p, !me) < Threat::Flex3
    }

    /// The node budget of a leaf's threat check: larger right below the root, where the
    /// opponent's VCF decides whether a root move defends.
    pub(super) fn leaf_budget(&self, ply: usize) -> u64 {
        self.shared.params.leaf_vcf_nodes() * if ply == 1 { LEAF_PLY1_FACTOR } else { 1 }
    }

    /// The raw static evaluation for the side to move. At a `leaf`, which reads nothing more
    /// of the net, the value one move ahead of the net's inputs comes without bringing them
    /// up to date ([`crate::eval::accumulator::Accumulator::value_logit_ahead`]): the side
    /// to move's cells alone, and nothing saved for an undo. With the nodes that may return
    /// at reverse futility or razoring read so as well (and brought up to date only if they
    /// search on), the same search needs far fewer syncs (docs/architecture.md). A
    /// position this search evaluated before takes its score from the evaluation cache
    /// ([`super::evalcache`]).
    #[inline]
    pub(super) fn evaluate_at(&mut self, leaf: bool) -> i32 {
        let Some(net) = self.shared.net.filter(|_| self.acc.is_some()) else {
            return evaluate(&self.board, self.weights);
        };
        let key = self.board.hash();
        if let Some(score) = self.eval_cache.as_ref().and_then(|c| c.probe(key)) {
            debug_assert_eq!(
                score,
                crate::eval::net::score_of_logit(
                    net.evaluate(&self.board),
                    self.shared.params.net_scale()
                ),
                "a cached evaluation differs from a recomputation"
            );
            if !leaf {
                // The node searches on: its children read the net one move ahead of it.
                self.sync_net();
            }
            return score;
        }
        let ahead = if leaf {
            self.acc
                .as_ref()
                .and_then(|acc| acc.value_logit_ahead(net, &self.board))
        } else {
            None
        };
        let z = match ahead {
            Some(z) => z,
            None => {
                self.sync_net();
                let acc = self.acc.as_ref().expect("the net's inputs");
                acc.value_logit(net, &self.board)
            }
        };
        let score = crate::eval::net::score_of_logit(z, self.shared.params.net_scale());
        if let Some(c) = self.eval_cache.as_mut() {
            c.store(key, score);
        }
        score
    }

    /// The static evaluation at `ply`: below the root the mean of the node's raw evaluation
    /// and its parent's (negated), which cancels most of the side-to-move swing between odd
    /// and even depths (measured: docs/experiments.md, pruning and reductions). Records the
    /// raw value for the children.
    /// At a `leaf` the node reads nothing more of the net ([`Searcher::evaluate_at`]).
    pub(super) fn static_eval(&mut self, ply: usize, pending: &Option<Pending>, leaf: bool) -> i32 {
        let raw = match pending {
            Some(pd) => pd.eval,
            None => self.evaluate_at(leaf),
        };
        self.evals[ply] = raw;
        if ply > 0 {
            (raw - self.evals[ply - 1]) / 2
        } else {
            raw
        }
    }
}

/// A child whose move is not made yet: the move, and the hash, raw static evaluation and
/// deciding counts of the position after it.
#[derive(Copy, Clone)]
pub(super) struct Pending {
    p: Pos,
    hash: u64,
    eval: i32,
    facts: Facts,
}
