//! The root: iterative deepening with aspiration windows, the root's threat solves (our
//! forced win, the opponent's threats each root move must stop), the root move loop and the
//! principal variation.
use super::lmr::lmr_plies;
use super::params::*;
use super::*;

impl Searcher<'_> {
    /// Iterative deepening from the root; calls `on_iter` after each finished iteration
    /// (thread 0 only reports). Returns the best move found.
    pub fn think(&mut self, on_iter: &mut dyn FnMut(&Info)) -> Outcome {
        let mut out = Outcome {
            best: Pos::NONE,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
            root_scores: Vec::new(),
            forced: false,
            instead_of: None,
            dropped: Vec::new(),
        };
        self.dropped.clear();
        let mut roots = self.root_moves();
        if roots.is_empty() {
            return out;
        }
        // The database's move first (an ordering hint: no move is added or removed).
        if let Some(first) = self.shared.root_first {
            if let Some(i) = roots.iter().position(|r| r.0 == first) {
                roots[..=i].rotate_right(1);
            }
        }
        out.best = roots[0].0;
        // A forced root (one legal reply, or an immediate five) needs no search.
        let side = self.board.to_move();
        if self.board.makes_five(roots[0].0, side) || roots.len() == 1 {
            out.score = if self.board.makes_five(roots[0].0, side) {
                WIN - 1
            } else {
                0
            };
            out.pv = vec![roots[0].0];
            out.depth = 1;
            out.forced = true;
            return out;
        }
        if self.id == 0 {
            let excluded = self.shared.excluded;
            if let Some(line) = self.root_threats().filter(|l| !excluded.contains(&l[0])) {
                out.best = line[0];
                out.score = WIN - line.len() as i32;
                out.depth = 1;
                out.pv = line;
                self.flush_nodes();
                out.nodes = self.shared.nodes.load(Ordering::Relaxed);
                out.elapsed = self.shared.start.elapsed();
                on_iter(&Info {
                    depth: 1,
                    seldepth: out.pv.len(),
                    score: out.score,
                    nodes: out.nodes,
                    elapsed: out.elapsed,
                    pv: out.pv.clone(),
                    chance: win_chance(out.score, self.shared.score_per_logit()),
                });
                return out;
            }
        }
        if self.id == 0 {
            let budget = self.shared.params.root_threat_nodes();
            self.keep_defences(
                &mut roots,
                false,
                ROOT_VCF_DEFENCE_NODES,
                ROOT_VCF_DEFENCE_NODES,
            );
            self.keep_defences(&mut roots, true, budget / 4, budget / 40);
            self.roots_checked = true;
            let _ = self
                .shared
                .checked_roots
                .set(roots.iter().map(|r| r.0).collect());
        }
        out.best = roots[0].0;
        let max_depth = self.shared.limits.depth.unwrap_or(MAX_PLY as i32 - 8);
        let mut prev = 0;
        let mut depth = 1;
        while depth <= max_depth {
            self.adopt_checked_roots(&mut roots);
            // Every thread searches the same depths; they spread over the tree through the
            // shared table (helpers searching one ply deeper did worse; measured:
            // docs/experiments.md, time and threads).
            let d = depth;
            let score = self.aspiration(d, prev, &mut roots);
            if self.aborted {
                // A win proven in the unfinished iteration is one (the moves searched after it
                // could only have proven a shorter one).
                if let Some(win) = self.partial_win.filter(|&w| w > out.score) {
                    out.best = roots[0].0;
                    out.score = win;
                    out.depth = d;
                    out.pv = self.pv_line(out.best);
                    break;
                }
                // A move that beat the previous best in the unfinished iteration is the
                // better guess (its search was complete).
                if self.partial_better && mate_distance(out.score).is_none() {
                    out.best = roots[0].0;
                    out.pv = vec![out.best];
                }
                break;
            }
            if !self.roots_checked && d >= max_depth {
                // A helper at the depth limit before the checks came: it waits for them and
                // searches the last depth again over the checked moves.
                while self.shared.checked_roots.get().is_none() && !self.should_stop() {
                    std::thread::sleep(CHECKED_ROOTS_POLL);
                }
                continue;
            }
            prev = score;
            out.best = roots[0].0;
            out.score = score;
            out.depth = d;
            out.pv = self.pv_line(roots[0].0);
            self.flush_nodes();
            out.nodes = self.shared.nodes.load(Ordering::Relaxed);
            out.elapsed = self.shared.start.elapsed();
            out.root_scores = roots.iter().map(|r| (r.0, r.1)).collect();
            if self.id == 0 {
                on_iter(&Info {
                    depth: d,
                    seldepth: self.seldepth,
                    score,
                    nodes: out.nodes,
                    elapsed: out.elapsed,
                    pv: out.pv.clone(),
                    chance: win_chance(out.score, self.shared.score_per_logit()),
                });
            }
            if self.id == 0 && self.recheck_best(&mut roots) {
                // The next best by this iteration leads until the next one ends.
                out.best = roots[0].0;
                out.pv = vec![out.best];
            }
            if mate_distance(score).is_some_and(|m| m.abs() <= d) && self.root == RootScores::Best {
                break;
            }
            if self.ends_at_limit && d >= max_depth {
                self.shared.stop.store(true, Ordering::Relaxed);
                break;
            }
            if self
                .shared
                .limits
                .soft_time
                .is_some_and(|t| self.shared.start.elapsed() >= t)
            {
                break;
            }
            depth += 1;
        }
        if !self.roots_checked {
            // A helper stopped before the checks came: its move may be one they drop.
            out.best = Pos::NONE;
        }
        self.flush_nodes();
        out.nodes = self.shared.nodes.load(Ordering::Relaxed);
        out.elapsed = self.shared.start.elapsed();
        out.dropped = self.dropped.clone();
        out
    }

    /// A helper takes the main thread's checked root moves once they are there
    /// ([`Shared::checked_roots`]): of its own list it keeps those, in its order. Until then
    /// it searches every root move, which fills the shared table while the main thread
    /// runs the checks (each thread running them all over did the same work twice).
    fn adopt_checked_roots(&mut self, roots: &mut Vec<(Pos, i32)>) {
        if self.roots_checked {
            return;
        }
        if let Some(kept) = self.shared.checked_roots.get() {
            let mine: Vec<_> = roots
                .iter()
                .filter(|r| kept.contains(&r.0))
                .copied()
                .collect();
            // The lists hold the same moves (the same position's root moves); were they ever
            // apart, the helper goes on with its own and gives no move.
            if !mine.is_empty() {
                *roots = mine;
                self.roots_checked = true;
            }
        }
    }

    /// Looks for a forced win of the side to move: first by fours (VCF), then by threats
    /// (VCT), within the root threat budget. Counts the solver's nodes as search nodes.
    pub(super) fn root_threats(&mut self) -> Option<Vec<Pos>> {
        // At most a quarter of the node budget and a [`ROOT_THREAT_TIME_DIV`]-th of the time
        // target.
        let budget = self
            .shared
            .limits
            .nodes
            .map_or(u64::MAX, |n| n / 4)
            .min(self.shared.params.root_threat_nodes());
        let deadline =
            self.share_deadline(self.shared.start, self.shared.params.root_threat_time_div());
        let lim = |nodes: u64, depth: u8| SolveLimits {
            depth,
            nodes,
            deadline,
            // The searcher's solver watches the search's stop flag (`Solver::watch`).
            stop: None,
        };
        let vcf = self
            .solver
            .vcf(&mut self.board, &lim(budget / 4, ROOT_VCF_DEPTH));
        self.nodes += self.solver.nodes();
        if let Proof::Win(line) = vcf {
            return Some(line);
        }
        let vct = self
            .solver
            .vct_depth_first(&mut self.board, &lim(budget, ROOT_VCT_DEPTH));
        self.nodes += self.solver.nodes();
        match vct {
            Proof::Win(line) => Some(line),
            _ => None,
        }
    }

    /// If the opponent threatens a forced win (a VCF, or with `vct` a VCT), keeps only the
    /// root moves after which it has none (all of them if none defends, and a move whose
    /// check runs out of budget). A deep threat behind a delaying four of ours is beyond the
    /// leaf checks' horizon, so the root settles it with solves.
    pub(super) fn keep_defences(
        &mut self,
        roots: &mut Vec<(Pos, i32)>,
        vct: bool,
        threat_nodes: u64,
        move_nodes: u64,
    ) {
        let params = &self.shared.params;
        let div = if self.board.rule().has_forbidden() {
            params.root_defence_time_div_renju()
        } else {
            params.root_defence_time_div()
        };
        // The checks' share of the time runs from their start: the root's search for a win
        // of its own, just before, may take a third of the time target, and a share from
        // the search's start left the checks nothing after a long one.
        let deadline = self.share_deadline(Instant::now(), div);
        let threat_lim = self.defence_limits(vct, self.solve_nodes(threat_nodes), deadline);
        self.board.make_pass();
        let threat = self.solve(vct, &threat_lim);
        self.board.undo();
        if !matches!(threat, Proof::Win(_)) {
            return;
        }
        let mut keep = Vec::with_capacity(roots.len());
        let mut lost = Vec::new();
        let mut undecided = Vec::new();
        for &(p, s) in roots.iter() {
            let nodes = self.solve_nodes(move_nodes);
            if nodes == 0 || self.shared.stop.load(Ordering::Relaxed) {
                // Out of nodes, or stopped: the moves not checked stay (a stopped solve
                // would end at once anyway, after a hundred nodes, which a debug build
                // makes slow).
                keep.push((p, s));
                undecided.push(p);
                continue;
            }
            let move_lim = self.defence_limits(vct, nodes, deadline);
            // After our reply the opponent moves; a four of ours makes it block first, which
            // the solver handles (the threat goes on only if the block is itself a four).
            self.board.make(p);
            let r = self.solve(vct, &move_lim);
            self.board.undo();
            match r {
                Proof::Win(_) => lost.push(p),
                Proof::NoWin => keep.push((p, s)),
                Proof::Unknown => {
                    keep.push((p, s));
                    undecided.push(p);
                }
            }
        }
        if !keep.is_empty() {
            *roots = keep;
            self.dropped.extend(lost);
            if vct {
                self.undecided = undecided;
            }
        }
    }

    /// When the iteration's best root move is one the VCT defence checks left undecided
    /// ([`ROOT_RECHECK_TIME_DIV`]), checks it again with more time, once; if the opponent's
    /// forced win after it is proven, drops it, so that the next best leads. Returns whether
    /// it dropped the move. Never drops the last move.
    pub(super) fn recheck_best(&mut self, roots: &mut Vec<(Pos, i32)>) -> bool {
        let div = self.shared.params.root_recheck_time_div();
        let p = roots[0].0;
        let Some(i) = self.undecided.iter().position(|&q| q == p) else {
            return false;
        };
        self.undecided.swap_remove(i);
        if div == 0 || roots.len() < 2 {
            return false;
        }
        let nodes = self.solve_nodes(ROOT_RECHECK_NODES);
        if nodes == 0 || self.shared.stop.load(Ordering::Relaxed) {
            return false;
        }
        let lim = self.defence_limits(true, nodes, self.share_deadline(Instant::now(), div));
        // The proof-number search, which proves a long threat sequence in far fewer nodes
        // than the depth-first one of the first checks.
        self.board.make(p);
        let r = self.solver.vct(&mut self.board, &lim);
        self.nodes += self.solver.nodes();
        self.board.undo();
        if !matches!(r, Proof::Win(_)) {
            return false;
        }
        roots.remove(0);
        self.dropped.push(p);
        true
    }

    /// When a root solve given a `div`-th of the time target (the soft limit, else the hard
    /// one) from `from` must stop, but no later than the hard limit; none without a clock.
    fn share_deadline(&self, from: Instant, div: u32) -> Option<Instant> {
        let limits = &self.shared.limits;
        let target = limits.soft_time.or(limits.hard_time)?;
        let share = from + target / div.max(1);
        Some(match limits.hard_time {
            Some(hard) => share.min(self.shared.start + hard),
            None => share,
        })
    }

    /// The nodes a root solve may use, at most `want`: with a node budget, the root's solves
    /// together take at most a [`ROOT_SOLVE_SHARE`]-th of it, as the clock gives them half the
    /// time target. Without the cap a search of 20,000 nodes spent 100,000 to 600,000 in
    /// them and often finished no iteration (its move was the ordering's first).
    fn solve_nodes(&self, want: u64) -> u64 {
        match self.shared.limits.nodes {
            Some(n) => want.min((n / ROOT_SOLVE_SHARE).saturating_sub(self.nodes)),
            None => want,
        }
    }

    /// Limits of a solve for the opponent's threat after a root move (a VCT, or with `vct`
    /// false a VCF): `nodes` and `deadline` (the solver watches the search's stop flag).
    pub(super) fn defence_limits(
        &self,
        vct: bool,
        nodes: u64,
        deadline: Option<Instant>,
    ) -> SolveLimits {
        SolveLimits {
            depth: if vct {
                DEFENCE_VCT_DEPTH
            } else {
                ROOT_VCF_DEPTH
            },
            nodes,
            deadline,
            // The searcher's solver watches the search's stop flag (`Solver::watch`).
            stop: None,
        }
    }

    /// Runs the VCF or VCT solver for the side to move, counting its nodes.
    pub(super) fn solve(&mut self, vct: bool, lim: &SolveLimits) -> Proof {
        let r = if vct {
            self.solver.vct_depth_first(&mut self.board, lim)
        } else {
            self.solver.vcf(&mut self.board, lim)
        };
        self.nodes += self.solver.nodes();
        r
    }

    /// Root moves, best-scored first, less the excluded ones. Empty only when the side to
    /// move has no legal move, or every one is excluded.
    pub(super) fn root_moves(&mut self) -> Vec<(Pos, i32)> {
        let mut list = MoveList::new();
        // The root is never narrowed: every move is kept.
        self.gen_moves(&mut list, Pos::NONE, 0);
        if list.is_empty() {
            // Lost (the only defences are forbidden, or there are none): any legal move
            // still has to be played.
            crate::movegen::legal_moves(&mut self.board, &mut list);
        }
        list.sort();
        let excluded = self.shared.excluded;
        list.iter()
            .filter(|p| !excluded.contains(p))
            .map(|p| (p, -INF))
            .collect()
    }

    pub(super) fn aspiration(&mut self, depth: i32, prev: i32, roots: &mut [(Pos, i32)]) -> i32 {
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH
            && prev.abs() < MATE_BOUND
            && self.root == RootScores::Best
        {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root_search(depth, alpha, beta, roots);
            // A proven win or loss is final, inside the window or not: a fail-high with a
            // win is a proof. Widening on found a win, then lost it on the full window, whose
            // principal variation searched the line anew (a long win found at 480,000
            // nodes instead of 1,180,000).
            if self.aborted || score.abs() >= MATE_BOUND {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INF);
            } else if score >= beta {
                beta = (beta + delta).min(INF);
            } else {
                return score;
            }
            delta *= 3;
            if delta > ASPIRATION_MAX {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    pub(super) fn root_search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        roots: &mut [(Pos, i32)],
    ) -> i32 {
        self.static_eval(0, &None, false);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_i = 0;
        let me = self.board.to_move();
        let root_lmr = self.shared.params.root_lmr_scale();
        for i in 0..roots.len() {
            let p = roots[i].0;
            // Late root moves that make or stop no three are searched shallower first.
            let r = if depth >= ROOT_LMR_DEPTH && i >= LMR_FIRST_MOVE && self.is_quiet(p, me) {
                lmr_plies(root_lmr as f32 / 100.0, depth, i).clamp(0, depth - 2)
            } else {
                0
            };
            // The bound a later move must beat: alpha, or with a margin the best score less
            // the margin, so that every move within it gets an exact score. A move that
            // fails low below it returns an upper bound, which keeps it out of the margin.
            let floor = match self.root {
                RootScores::Within(m) if i > 0 => {
                    alpha.min(best.saturating_sub(m.saturating_add(1)))
                }
                _ => alpha,
            };
            // A penalised move is searched with its window raised by the penalty (lowered by
            // a bonus), so that its score less the penalty is compared with the bounds.
            let pen = self.root_penalty(p);
            let (a, b, f) = (raise(alpha, pen), raise(beta, pen), raise(floor, pen));
            self.move_threat[0] = self.board.threat(p, me);
            self.make_move(p);
            self.nodes += 1;
            let score = if i == 0 {
                -self.negamax((depth - 1) * ONE_PLY, -b, -a, 1, true)
            } else {
                let mut s = -self.negamax((depth - 1 - r) * ONE_PLY, -f - 1, -f, 1, false);
                if r > 0 && s > f {
                    s = -self.negamax((depth - 1) * ONE_PLY, -f - 1, -f, 1, false);
                }
                if s > f && s < b {
                    -self.negamax((depth - 1) * ONE_PLY, -b, -f, 1, true)
                } else {
                    s
                }
            };
            let score = self.stored_win(p, penalised(score, pen));
            self.undo_move();
            if self.aborted {
                break;
            }
            roots[i].1 = score;
            if score > best {
                best = score;
                best_i = i;
                if score > alpha {
                    alpha = score;
                    if score >= beta && self.root == RootScores::Best {
                        break;
                    }
                }
            }
        }
        self.partial_better = self.aborted && best_i > 0 && best > orig_alpha;
        // A win proven for a move whose search completed stands, though later moves were
        // cut short (it heads `roots`).
        self.partial_win = (self.aborted && best >= MATE_BOUND).then_some(best);
        if !self.aborted || best_i > 0 {
            let m = roots[best_i];
            roots[..=best_i].rotate_right(1);
            roots[0] = m;
            let key = self.board.hash();
            self.shared.tt.store(key, m.0, best, depth, Bound::Exact);
        }
        best
    }

    /// The penalty of root move `p` ([`Shared::root_penalties`]; 0 for most moves).
    fn root_penalty(&self, p: Pos) -> i32 {
        let list = self.shared.root_penalties;
        if list.is_empty() {
            return 0;
        }
        list.iter().find(|m| m.0 == p).map_or(0, |m| m.1)
    }

    /// Root move `p`'s score: the database's proven win with `p`
    /// ([`Shared::root_win`]) unless the search decided `p` itself (a fresh proof of a win
    /// keeps its own distance; a fresh proof of a loss always wins over the database).
    fn stored_win(&self, p: Pos, score: i32) -> i32 {
        match self.shared.root_win {
            Some((w, win)) if w == p && score.abs() < MATE_BOUND => win,
            _ => score,
        }
    }

    /// Follows the table from the root's best move.
    pub(super) fn pv_line(&mut self, first: Pos) -> Vec<Pos> {
        let mut pv = vec![first];
        self.board.make(first);
        let mut made = 1;
        while made < 32 {
            let Some(hit) = self.shared.tt.probe(self.board.hash()) else {
                break;
            };
            let p = hit.best;
            if p.is_none() || !p.on_board(self.board.size()) || !self.board.is_empty(p) {
                break;
            }
            pv.push(p);
            self.board.make(p);
            made += 1;
        }
        for _ in 0..made {
            self.board.undo();
        }
        pv
    }
}

/// A root bound raised by a move's penalty, lowered by a bonus (within the score range).
fn raise(bound: i32, pen: i32) -> i32 {
    if pen == 0 {
        bound
    } else {
        bound.saturating_add(pen).clamp(-INF, INF)
    }
}

/// A root move's search score less its penalty (plus its bonus, a negative penalty). A
/// proven result is kept as it is, and an undecided score stays undecided (above every
/// proven loss, below every proven win): a penalty or bonus reorders the moves the search
/// has not decided and never makes a move it proves lost preferable.
fn penalised(score: i32, pen: i32) -> i32 {
    if pen == 0 || score.abs() >= MATE_BOUND {
        score
    } else {
        (score - pen).clamp(1 - MATE_BOUND, MATE_BOUND - 1)
    }
}
