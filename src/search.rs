//! Layer 4: the search. Iterative deepening negamax with principal variation search,
//! aspiration windows, a shared transposition table, killer and history move ordering,
//! forced-move handling for fives, fours and open threes, and Lazy SMP threads.

use crate::board::Board;
use crate::eval::evaluate;
use crate::movegen::{generate, GenKind, MoveList};
use crate::threat::Threat;
use crate::threats::{Proof, SolveLimits, Solver};
use crate::tt::{Bound, Tt, MATE_BOUND};
use crate::types::{Color, Pos, CELLS, STRIDE};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A won position's score at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30000;
/// Larger than any score.
pub const INF: i32 = 32000;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// One ply of search depth: below the root, depths count in hundredths of a ply, so that
/// extensions and reductions can be fractions of a ply.
pub const ONE_PLY: i32 = 100;

/// When to stop.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<i32>,
    /// Node budget (checked every few thousand nodes).
    pub nodes: Option<u64>,
    /// Time to aim for: no new iteration starts after it.
    pub soft_time: Option<Duration>,
    /// Hard deadline: the search stops as soon as it notices.
    pub hard_time: Option<Duration>,
}

/// Progress of one finished iteration.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: usize,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Pos>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub best: Pos,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Pos>,
    /// Root moves with their last scores (only with [`Searcher::root_margin`]): exact for
    /// the moves within the margin of the best, upper bounds below it for the others.
    pub root_scores: Vec<(Pos, i32)>,
}

/// Plies to a decided result, if `score` is one (positive: the side to move wins).
pub fn mate_distance(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(WIN - score)
    } else if score <= -MATE_BOUND {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// What the search does besides alpha-beta.
#[derive(Clone, Debug)]
pub struct Options {
    /// Node budget of the VCF and VCT solvers at the root (0: skip them).
    pub root_threat_nodes: u64,
    /// Node budget of the VCF check at each leaf (0: no check; 25 times this at ply 1).
    /// Against PentaZen at 200 ms a move (320 games each, Piskvork openings, both colours),
    /// 100 scored 47.6% and 47.8%, 50 47.3%, where 200 scored 41.9% in the same hours; but at
    /// 1 s a move (80 games each, every opening once with each colour, side by side) 100
    /// scored 30-49-1 (38.1%) where 200 scored 32-42-6 (43.8%): the smaller budget pays only at
    /// the short control, so 200 stays. 400 at 1 s a move: 27-52-1 (34.4%, 80 games).
    pub leaf_vcf_nodes: u64,
    /// Late-move pruning and futility pruning of quiet moves near the leaves. With the
    /// logarithmic reductions below: 61.2% in self-play against neither (40 games at
    /// 100,000 nodes a move).
    pub prune: bool,
    /// Late-move reductions: `r = lmr_scale * ln(depth) * ln(move number)`, in hundredths.
    /// Against PentaZen at 200 ms a move (80 games each, with `caps_on_board`): 35 scored
    /// 19-61-0 (23.8%), 75 28-52-0 (35.0%), where 50 scored 82-156-2 (34.6%, 240 games).
    /// With the smaller tree of [`Options::leaf_beta`]'s four options, 70 scored 44.2% (320
    /// games) where 50 scored 41.9% in the same hours: within a standard error.
    pub lmr_scale: i32,
    /// Evaluation weights.
    pub eval: crate::eval::EvalWeights,
    /// Replace `eval` and `order` by the rule's weights ([`crate::eval::EvalWeights::for_rule`],
    /// [`crate::eval::OrderWeights::for_rule`]) when a search starts (off when a caller sets
    /// its own weights).
    pub weights_by_rule: bool,
    /// Move-ordering weights.
    pub order: crate::eval::OrderWeights,
    /// At the root, also keep only moves that stop the opponent's VCT.
    pub root_vct_defence: bool,
    /// Below the root, in quiet nodes, search only moves whose ordering score reaches this
    /// (at least [`MIN_NARROW_MOVES`] of them); 0 searches every candidate. Self-play, 40
    /// games at 60,000 nodes a move: 200 scored 57.5% against 0 (40: 53.8%, 100: 55.0%;
    /// 400 against 200: 52.5%). Against PentaZen at 200 ms a move (80 games each, with
    /// `caps_on_board`): 0 scored 27-51-2 (35.0%), 400 26-53-1 (33.1%), where 200 scored
    /// 82-156-2 (34.6%, 240 games).
    pub narrow_score: i32,
    /// Leaves score the mean of their static evaluation and the parent's (negated), which
    /// cancels most of the side-to-move swing between odd and even depths. Self-play, 40
    /// games at 60,000 nodes a move: 61.2% with move caps against caps alone (42.5% without
    /// the caps).
    pub avg_eval: bool,
    /// Non-PV nodes search at most a depth-dependent number of moves (fewer in threat
    /// positions, see [`Options::caps_on_board`]). Self-play, 40 games at 60,000 nodes a
    /// move: 61.2% against no caps.
    pub move_caps: bool,
    /// The caps scaled by this percentage. Against PentaZen at 200 ms a move, 80 games: 200
    /// scored 25-54-1 (31.9%) without `caps_on_board`; 130 scored 26-54-0 (32.5%) with it.
    pub caps_pct: usize,
    /// Apply the caps to the replies to an open three too.
    pub cap_defences: bool,
    /// Margin per ply of reverse futility (a static score this far above beta returns) and
    /// razoring (this far below alpha drops to the leaf check; see [`Options::razor`]) at
    /// shallow non-PV nodes; 0: neither. Self-play, 40 games at 60,000 nodes a move: 30
    /// scored 63.8% against 0. Of 75 positions from lost games just before our losing move
    /// as white, Rapfi at 1 s refutes the move chosen at 1,000,000 nodes in 36 with 30 (0:
    /// 41, 60: 42, 120: 41).
    pub rfp: i32,
    /// Move ordering favours moves near the last moves: a quarter of the score for a move
    /// more than four lines from each of the last four moves, half for one that far from the
    /// last two. Self-play, 40 games at 60,000 nodes a move: 55.0% against none.
    pub locality: bool,
    /// The smaller move caps apply only when a four or an open three is on the board (either
    /// side has a straight-four or five point), not whenever either side can make an open three
    /// (PentaZen's test). On by default. Against PentaZen, 15x15 freestyle, Piskvork openings:
    /// at 1 s a move 46-73-1 (38.8%, three runs of 40 games) where off scored 26-52-2 (33.8%,
    /// two runs of 40) in the same days; at 200 ms a move 82-156-2 (34.6%, three runs of 80)
    /// where off scored 79-157-4 (33.8%, three runs of 80). Over all 360 games 36.0% against
    /// off's 33.8% over 320: within a standard error. Head to head against off at 1 s a move,
    /// 17-19-4 (47.5%, 40 games). Long forced wins at 1,000,000 nodes: 14 of 75 against 18;
    /// win finding on 80 positions: 53 against 61 found. With `narrow` 0, 13-26-1 (33.8%) at
    /// 1 s; with `root` 400,000, 3-17-1 after 21 games (stopped); with `root` 50,000 at 200 ms,
    /// 26-54-0 (32.5%).
    pub caps_on_board: bool,
    /// Add the combination values of [`crate::cellvalue`] to the evaluation (where the
    /// rule has them); off, the search's board does not keep their sums. Held-out
    /// cross-entropy against Rapfi's scores 0.5489 -> 0.5045, but in play no gain: self-play
    /// 53.8% (200 ms a move, 40 games) and 46.2% (60,000 nodes a move); against PentaZen at
    /// 1 s a move 20-58-2 (26.2%, 80 games) where the same build without them scored
    /// 22-55-3 (29.4%) in the same hours; 8.8% more instructions per node (off). With the
    /// smaller tree of [`Options::leaf_beta`]'s four options, 35-43-2 (45.0%, 80 games at 1 s)
    /// where the default had scored 32-42-6 (43.8%): within a standard error. A third time,
    /// all 40 openings with each colour: 31-48-1 (39.4%, 80 games) where the default scored
    /// 34-43-3 (44.4%) beside it. On 4,541 positions of the 1 s match games scored by Rapfi
    /// at 200 ms, the fitted class weights barely move (held-out 0.5248 -> 0.5246) while
    /// combination values refitted on top of them take it from 0.5239 to 0.5093 (at its own
    /// scale, K 1380): the better fit has not shown in play.
    pub cell_values: bool,
    /// Use the combination values of [`Options::cell_values`] in searches from positions of
    /// fewer than this many moves (0: only as `cell_values` says). On the 600 positions of
    /// [`Options::attack_lmr`], `cells=1` chose better moves than the default before move 20
    /// (3.40 points of win probability lost a move against 4.53, 130 positions) and worse
    /// after move 40 (2.26 against 1.64, 330 positions): 30 lost 0.49 +- 0.30 points a move
    /// less than the default over all 600 (20: 0.25 +- 0.23). Against PentaZen at 1 s a move
    /// (as for [`Options::attack_lmr`]), 30 scored 34-45-1 (43.1%, 80 games): as white 11-29-0
    /// where the default's two runs that day went 13-23-4 and 2-34-4, but as black 23-16-1
    /// where they went 29-9-2 and 29-8-3. With `catk` 100 as well, 35-34-11 (50.6%, 80
    /// games; as black 26-7-7, as white 9-27-4), and 35-41-4 (46.2%) in a second run: 48.4%
    /// over 160, as the default (49.0% over 680 games).
    pub cell_values_until: usize,
    /// Depth given back to a reply to a four, in hundredths of a ply (100: the reply costs
    /// nothing). Long forced wins found at 1,000,000 nodes: 130: 14 of 75, 150: 15, 100: 15.
    /// With singular extension, 130 scored 12-28 (30.0%) against PentaZen at 1 s a move
    /// (40 games), below the default's 36.6%. The same for the replies to an open three
    /// (50 or 100 given back, tried once) found fewer of PentaZen's announced wins at
    /// 1,000,000 nodes: 101 and 102 of 284 against 115.
    pub four_reply_ext: i32,
    /// Late-move reduction taken off (hundredths of a ply) a move that makes an open three
    /// or a four when the mover's previous move did too (a continuing attack). PentaZen's
    /// announced wins at 1,000,000 nodes: 100 found 116 of 284 (200: 111) against 115. Move
    /// quality on 600 positions of the 1 s match games (`solve --engine --nodes 1000000
    /// --choices`, each chosen move scored by Rapfi classical at 500 ms): 100 lost 0.48 +-
    /// 0.26 points of win probability a move less than the default (132 moves differ; 200:
    /// 0.37 less, 50: 0.01). Against PentaZen at 1 s a move (all 40 Piskvork openings with
    /// each colour, beside a run of the default): 100 scored 35-40-5 (46.9%, 80 games) where
    /// the default scored 31-42-7 (43.1%): within a standard error. A second run, 28-44-8
    /// (40.0%) beside the default's 43-32-5 (56.9%): 43.4% over 160 games.
    pub attack_lmr: i32,
    /// Fail-high reduction (0: off): at a non-PV node whose static evaluation is at least
    /// this much per ply above beta, moves that make no four lose a ply, and a four after
    /// the mover's four two plies up gains one. 30 found 111 of PentaZen's 284 announced wins
    /// at 1,000,000 nodes against the default's 115, and lost 0.24 +- 0.21 points of win
    /// probability a move less on the positions of [`Options::attack_lmr`] (60: 0.04 more).
    pub fail_high_margin: i32,
    /// Singular extension (0: off): the table move gets one more ply when a search of the
    /// other moves at about half the depth, with a window this much per ply below the
    /// table score, fails low. When that search fails high above beta, the node cuts off
    /// (multi-cut); when only the table score is above beta, the table move loses 1.5 plies.
    /// Against PentaZen at 1 s a move, 3 scored 56-99-5 (36.6%, four runs of 40 games:
    /// 36.2%, 33.8%, 43.8%, 32.5%) where 0 had scored 33-84-3 (28.8%, 120 games); head to
    /// head against 0, 18-18-4 (40 games); long forced wins found at
    /// 1,000,000 nodes 19 of 75 against 15 (2: 16, 10: 15; at 3,000,000 nodes 25 against 22).
    /// With `tt_eval`, 5 scored 12-26-2 against PentaZen (32.5%, 40 games) against 3's 40.4%.
    pub singular: i32,
    /// Pruning decisions (reverse futility, razoring, futility) use the
    /// table score instead of the static evaluation when its bound says the table score is
    /// closer to the truth. Against PentaZen at 1 s a move, 62-94-4 (40.0%, four runs of 40
    /// games: 38.8%, 40.0%, 42.5%, 38.8%) where off had scored 36.6% over 160 games; long
    /// forced wins at 1,000,000 nodes 18 of 75 against 19. Head to head against off, 40 games
    /// at 1 s a move: 21-17-2 (55.0%; black won 37 of the 38 decisive games).
    pub tt_eval: bool,
    /// Evaluation-sorted children (0: off): at nodes with at least this many plies left,
    /// each candidate's ordering score gets `eval_sort_weight`% of the static evaluation
    /// after it (from the mover's side), and the list is sorted again. At 6 the search runs
    /// at about a third of the nodes per second; against PentaZen at 1 s a move 12-26-2
    /// (32.5%, 40 games) where the default scored 33.8% over 80 in the same hours (off).
    pub eval_sort: i32,
    /// See [`Options::eval_sort`].
    pub eval_sort_weight: i32,
    /// When the search's side is white, black's shapes count this percentage in the
    /// evaluation (100: as white's), so that white, the defender under freestyle, blocks
    /// black's development earlier. Against PentaZen at 1 s a move, 130 scored 31-46-3
    /// (40.6%, two runs of 40 games; as white 2-36-2) where the default scored 26-52-2 (33.8%,
    /// 80 games; as white 1-38-1) in the same hours: less than a standard error. 160 scored
    /// 12-26-2 (32.5%, 40 games), and 130 with `caps_on_board` 5-18-2 after 25 games; at
    /// 200 ms a move 130 scored 28-52-0 (35.0%, 80 games) alone and 20-60-0 (25.0%) with
    /// `caps_on_board` (off). With the refitted weights and the root's second look, 130 scored
    /// 26-40-5 (40.1%, 71 games of two side-by-side runs of 40, the second stopped) where the
    /// default scored 34-39-7 (46.9%, 80 games) the same day.
    pub white_caution: i32,
    /// Late-move reductions of moves that make or stop a three too (0: only quiet moves
    /// are reduced), by this value less one ply fewer than a quiet move. See
    /// [`Options::leaf_beta`] for the measurement of the four options together.
    pub lmr_threats: i32,
    /// Internal iterative reduction (0: off): a node with at least this many plies left
    /// and no table move searches one ply less.
    pub iir: i32,
    /// Late-move reductions at the root (0: none), in hundredths like
    /// [`Options::lmr_scale`]: root moves after the second that make or stop no three.
    pub root_lmr: i32,
    /// Leaves skip the VCF check when the static evaluation already reaches beta (a win
    /// found there would only raise a score that already cuts).
    ///
    /// Together, `lmr_threats` 1, `iir` 6, `leaf_beta` and `root_lmr` 50 make the tree of
    /// a given depth much smaller: the 40 Piskvork openings searched to depth 14 without the
    /// root threat search take 5.1 M nodes against 38.6 M without the four (PentaZen, to its
    /// own depth 14: about 17 M); `bench --depth 12` 1.04 M nodes against 4.75 M. Against
    /// PentaZen at 200 ms a move, 320 games each, Piskvork openings: the first three scored
    /// 44.1% and 40.5%, all four 45.5%, where none of them scored 38.1% in the same hours
    /// (and 39.1%, 37.7% the day before). At 1 s a move, 80 games each (every opening
    /// once with each colour): all four 28-46-6 (38.8%), none 23-54-3 (30.6%) in the same
    /// hours; head to head against none at 1 s a move, 60-33-7 (63.5%, 100 games). Long
    /// forced wins found at 2,000,000 nodes: 25 of 75 against 20.
    pub leaf_beta: bool,
    /// Node budget of the second look at the opponent's VCT after the root move an
    /// iteration chooses, when the root's first check of the moves against a VCT threat
    /// (5,000 nodes each) ran out of budget on that move (0: none). A move it refutes leaves
    /// the root list and the depth is searched again. Against PentaZen at 1 s a move (80
    /// games each, every Piskvork opening once with each colour, two matches side by side):
    /// with the evaluation weights fitted to Rapfi's 200 ms scores
    /// ([`crate::eval::OWN_THREAT`]), 39-37-4 (**51.2%**), and without it 29-48-3 (38.1%,
    /// two runs of 40 side by side, openings 1-20 and 21-40); with the weights before,
    /// 23-49-8 (33.8%; as white 2-35-3), where the weights before without it had scored
    /// 32-42-6 (43.8%) the day before. Each has a standard error of about 5.5 points. Of
    /// 565 positions from 1 s match games, the move chosen at 1 s changed in 48 (agreement
    /// with Rapfi's 1.5 s move: 14 lost, 16 gained). A third run of 100,000, 34-39-7
    /// (46.9%, 80 games); 300,000 (the default since) in the same hours 39-36-5 (51.9%) and
    /// 40-34-6 (53.8%): 52.8% over 160 games, within a standard error of 100,000's runs
    /// (49.0% over 193 games in all) but the better one measured. A third run of 300,000
    /// the next session, 28-46-6 (38.8%): 48.1% over 240 games; head to head against
    /// 100,000, 37-36-7 (50.6%, 80 games), and 34-36-10 (48.8%) a session later: 49.7% over
    /// 160. With 19-18-3 (40 games), 34-43-3 (44.4%, 80), 42-32-6 (56.2%) and 31-42-7
    /// (43.1%) since: 233-251-36, 48.3% over 520 games; with 36-43-1 (45.6%) and 43-32-5
    /// (56.9%) of the same tree (faster lean moves), 312-326-42, 49.0% over 680.
    pub root_verify_nodes: u64,
    /// Root moves searched with the full window from the start (at least 1, the first):
    /// the next ones skip the null-window probe of the selective non-PV tree, which can
    /// fail a move low that a PV search scores above the best (through razoring, see
    /// [`Options::razor`]). Against PentaZen at 1 s a move (all 40 Piskvork openings with
    /// each colour, 80 games a run, beside another match): 3 scored
    /// 37-35-8 (51.2%) and 39-38-3 (50.6%), 50.9% over 160 games, where 1 scored 47-64-9
    /// (42.9%, 120 games) the same day and 48.6% over 280 games in all: within a standard
    /// error. Self-play at 100,000 nodes a move, 80 games: 3 47.5%, 2 51.9% against 1. Costs
    /// 2% more nodes at depth 14. 3 was the default for a day: a third run against PentaZen
    /// scored 31-41-8 (43.8%; 107-114-19, 48.5% over 240 games, level with 1's 48.6% over
    /// 280), and head to head against 1 (0d5761b, all 40 openings with each colour) it lost
    /// 29-40-11 (43.1%, 80 games) and 16-19-4 (46.2%, 39 games, openings 1-20): 43.7% over
    /// 119 (as black 23-12-5 in the first, where 1 won 28-6-6 with black). So 1, the default
    /// again.
    pub root_pv_moves: usize,
    /// Margin per ply of razoring alone (`None`: [`Options::rfp`]'s; 0: no razoring).
    /// Against PentaZen at 1 s a move, 80 games each as for [`Options::root_pv_moves`], the
    /// same day: 0 scored 37-39-4 (48.8%), 100 31-45-4 (41.2%); self-play at 100,000 nodes a
    /// move, 0 scored 46.9% (80 games) against the default.
    pub razor: Option<i32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            root_threat_nodes: 200_000,
            leaf_vcf_nodes: 200,
            prune: true,
            lmr_scale: 50,
            eval: crate::eval::EvalWeights::default(),
            weights_by_rule: true,
            order: crate::eval::OrderWeights::default(),
            root_vct_defence: true,
            narrow_score: 200,
            avg_eval: true,
            move_caps: true,
            caps_pct: 100,
            cap_defences: true,
            rfp: 30,
            locality: true,
            caps_on_board: true,
            cell_values: false,
            cell_values_until: 0,
            four_reply_ext: 100,
            attack_lmr: 0,
            fail_high_margin: 0,
            singular: 3,
            tt_eval: true,
            eval_sort: 0,
            eval_sort_weight: 100,
            white_caution: 100,
            lmr_threats: 1,
            iir: 6,
            root_lmr: 50,
            leaf_beta: true,
            root_verify_nodes: 300_000,
            root_pv_moves: 1,
            razor: None,
        }
    }
}

impl Options {
    /// Sets one option by its short name (the self-play and `solve --set` flags): `leaf`,
    /// `root`, `prune`, `lmr`, `narrow`, `vctdef`, `local`, `caps%`, `capdef`, `avg`, `caps`,
    /// `rfp`, `capsboard`, `cells`, `fext`, `se`, `tteval`, `evs`, `evw`, `wcaut`, `lmrt`,
    /// `iir`, `rlmr`, `leafbeta`, `verify`, `rootpv` (at least 1), `razor`, `catk`, `fhr`,
    /// `cellsto`, `hand` (1: the hand-set evaluation weights, 2: the hand-set ordering, 3:
    /// both; the fitted ones otherwise, whatever the rule; against PentaZen at 1 s a move 3
    /// scored 9-31-0, 22.5% of 40 games, where the fitted weights scored 33.8% over 80);
    /// flags take 0 or 1.
    pub fn set(&mut self, key: &str, v: i64) -> Result<(), String> {
        match key {
            "leaf" => self.leaf_vcf_nodes = v as u64,
            "root" => self.root_threat_nodes = v as u64,
            "prune" => self.prune = v != 0,
            "lmr" => self.lmr_scale = v as i32,
            "narrow" => self.narrow_score = v as i32,
            "vctdef" => self.root_vct_defence = v != 0,
            "local" => self.locality = v != 0,
            "caps%" => self.caps_pct = v as usize,
            "capdef" => self.cap_defences = v != 0,
            "avg" => self.avg_eval = v != 0,
            "caps" => self.move_caps = v != 0,
            "rfp" => self.rfp = v as i32,
            "capsboard" => self.caps_on_board = v != 0,
            "cells" => self.cell_values = v != 0,
            "cellsto" => self.cell_values_until = v.max(0) as usize,
            "fext" => self.four_reply_ext = v as i32,
            "catk" => self.attack_lmr = v as i32,
            "fhr" => self.fail_high_margin = v as i32,
            "se" => self.singular = v as i32,
            "tteval" => self.tt_eval = v != 0,
            "hand" => {
                // Bit 0: the hand-set evaluation weights; bit 1: the hand-set ordering.
                self.weights_by_rule = false;
                self.eval = if v & 1 != 0 {
                    crate::eval::EvalWeights::HAND
                } else {
                    crate::eval::EvalWeights::DEFAULT
                };
                self.order = if v & 2 != 0 {
                    crate::eval::OrderWeights::HAND
                } else {
                    crate::eval::OrderWeights::DEFAULT
                };
            }
            "evs" => self.eval_sort = v as i32,
            "evw" => self.eval_sort_weight = v as i32,
            "wcaut" => self.white_caution = v as i32,
            "lmrt" => self.lmr_threats = v as i32,
            "iir" => self.iir = v as i32,
            "rlmr" => self.root_lmr = v as i32,
            "leafbeta" => self.leaf_beta = v != 0,
            "verify" => self.root_verify_nodes = v as u64,
            "rootpv" => self.root_pv_moves = v.max(1) as usize,
            "razor" => self.razor = Some(v as i32),
            _ => return Err(format!("unknown search option '{key}'")),
        }
        Ok(())
    }

    /// Sets one option from its command-line form `key=value` (the `--set` of
    /// `pbrain-wuzi`, `bench` and `solve`), with [`Options::set`].
    pub fn set_pair(&mut self, kv: &str) -> Result<(), String> {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("--set {kv}: expected key=value"))?;
        let v = v
            .parse()
            .map_err(|_| format!("--set {kv}: the value must be an integer"))?;
        self.set(k, v)
    }
}

/// State shared by all threads of one search.
pub struct Shared<'a> {
    pub options: Options,
    pub tt: &'a Tt,
    pub stop: &'a Arc<AtomicBool>,
    pub nodes: AtomicU64,
    pub start: Instant,
    pub limits: Limits,
}

impl Shared<'_> {
    fn out_of_time(&self) -> bool {
        self.limits
            .hard_time
            .is_some_and(|t| self.start.elapsed() >= t)
            || self
                .limits
                .nodes
                .is_some_and(|n| self.nodes.load(Ordering::Relaxed) >= n)
    }
}

/// One search thread.
pub struct Searcher<'a> {
    board: Board,
    solver: Solver,
    shared: &'a Shared<'a>,
    /// One move list per ply, boxed so that taking one out moves a pointer, not the list.
    lists: Vec<Option<Box<MoveList>>>,
    killers: [[Pos; 2]; MAX_PLY + 1],
    /// Per side, per cell: the sum of `plies^2` over the cutoffs the quiet move made (read
    /// capped). A bounded "gravity" update that also lowers the quiet moves searched before
    /// the cutoff, with a counter-move bonus of 500, scored 42.0% against PentaZen at 200 ms
    /// a move (320 games) where this scored 41.9% in the same hours, and was dropped.
    history: Box<[[i32; CELLS]; 2]>,
    /// Evaluation weights by the side to move (they differ with [`Options::white_caution`]).
    weights: [crate::eval::EvalWeights; 2],
    /// Raw static evaluation of the node at each ply, for [`Options::avg_eval`].
    evals: [i32; MAX_PLY + 2],
    /// The move a singular-extension search leaves out at each ply.
    excluded: [Pos; MAX_PLY + 2],
    /// The child a node is about to search, not yet made ([`Pending`]); the child takes it.
    pending: Option<Pending>,
    /// Per ply: has the node there made its pending move (its parent undoes it)?
    made: [bool; MAX_PLY + 2],
    /// Per ply: the class the move searched from the node there makes for its mover.
    move_threat: [Threat; MAX_PLY + 2],
    /// Per side to move, `weights` as weights of the board's counts, for pending moves.
    count_weights: [crate::board::CountWeights; 2],
    /// The interrupted iteration fully searched a root move that beat the previous best.
    partial_better: bool,
    /// Root moves whose check against the opponent's VCT ran out of budget while the
    /// opponent had one after a pass ([`Searcher::keep_defences`]); checked again, with
    /// [`Options::root_verify_nodes`], when an iteration chooses one.
    unverified: Vec<Pos>,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    aborted: bool,
    /// Score every root move that comes within this margin of the best exactly (the others
    /// get an upper bound below it), keep searching the root after a cut and stop no
    /// iteration early at a mate: for a random choice among near-equal moves. `None`: the
    /// normal root, where only the best move's score is exact.
    pub root_margin: Option<i32>,
    /// Thread index (helpers vary their depths).
    pub id: usize,
    /// Late-move reductions by depth and move index ([`Options::lmr_scale`]).
    lmr: LmrTable,
}

const CHECK_EVERY: u64 = 1024;

/// Least remaining depth, in plies, for a singular extension search.
const SE_DEPTH: i32 = 7;

/// Fewest moves a narrowed quiet node keeps.
pub const MIN_NARROW_MOVES: usize = 8;

/// Most moves a non-PV node searches, by remaining depth, with [`Options::move_caps`]: in a
/// threat position ([`Options::caps_on_board`]), and in any other.
const THREAT_CAP: [usize; 16] = [3, 3, 5, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8];
const QUIET_CAP: [usize; 16] = [3, 3, 9, 14, 18, 22, 25, 28, 30, 32, 32, 32, 32, 32, 32, 32];

/// Quiet moves searched at each remaining depth (up to 4) before the rest are pruned.
const LMP_MOVES: [usize; 5] = [4, 6, 10, 16, 24];
/// Futility margin per ply of remaining depth, in evaluation units.
const FUTILITY_MARGIN: i32 = 300;

/// Whole plies a late move loses: `scale * ln(depth) * ln(i)`, for the move at index `i` of a
/// node with `depth` plies left.
fn lmr_plies(scale: f32, depth: i32, i: usize) -> i32 {
    (scale * (depth as f32).ln() * (i as f32).ln()) as i32
}

/// Depths and move indices of [`LmrTable`].
const LMR_DEPTHS: usize = 32;
const LMR_MOVES: usize = 64;

/// [`lmr_plies`] of the search's scale for small depths and indices, looked up instead of
/// two logarithms a move (a percent of a search's time).
struct LmrTable {
    scale: f32,
    plies: Box<[[i16; LMR_MOVES]; LMR_DEPTHS]>,
}

impl LmrTable {
    fn new(scale: f32) -> LmrTable {
        let mut plies = Box::new([[0i16; LMR_MOVES]; LMR_DEPTHS]);
        for (d, row) in plies.iter_mut().enumerate() {
            for (i, r) in row.iter_mut().enumerate() {
                *r = lmr_plies(scale, d as i32, i).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            }
        }
        LmrTable { scale, plies }
    }

    #[inline(always)]
    fn get(&self, depth: i32, i: usize) -> i32 {
        match self.plies.get(depth as usize).and_then(|row| row.get(i)) {
            Some(&r) => r as i32,
            _ => lmr_plies(self.scale, depth, i),
        }
    }
}

impl<'a> Searcher<'a> {
    /// A searcher on a copy of `board`.
    pub fn new(board: &Board, shared: &'a Shared<'a>, id: usize) -> Searcher<'a> {
        let mut board = board.clone();
        if !shared.options.eval.cells {
            board.drop_cell_values();
        }
        let weights = side_weights(&shared.options, board.to_move());
        let count_weights = Color::ALL.map(|c| crate::eval::count_weights(&weights[c.index()], c));
        Searcher {
            board,
            weights,
            solver: Solver::new(),
            shared,
            lists: (0..=MAX_PLY).map(|_| Some(Box::default())).collect(),
            killers: [[Pos::NONE; 2]; MAX_PLY + 1],
            history: Box::new([[0; CELLS]; 2]),
            evals: [0; MAX_PLY + 2],
            excluded: [Pos::NONE; MAX_PLY + 2],
            pending: None,
            made: [false; MAX_PLY + 2],
            move_threat: [Threat::None; MAX_PLY + 2],
            count_weights,
            partial_better: false,
            unverified: Vec::new(),
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            aborted: false,
            root_margin: None,
            id,
            lmr: LmrTable::new(shared.options.lmr_scale as f32 / 100.0),
        }
    }

    /// The move list of `ply`, to be put back in `self.lists[ply]` before returning.
    fn take_list(&mut self, ply: usize) -> Box<MoveList> {
        self.lists[ply]
            .take()
            .expect("each ply's move list is put back")
    }

    /// Nodes this thread searched.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        // The stop flag is one relaxed load: read at every node, so a stop is served at
        // once even where nodes are slow (debug builds recheck the board at every make).
        if self.shared.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return true;
        }
        // Solver calls add many nodes at once, so count since the last check rather than
        // testing for a multiple of CHECK_EVERY (which a jump can skip for a long time).
        if self.nodes - self.flushed >= CHECK_EVERY {
            self.flush_nodes();
            if self.shared.out_of_time() {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.aborted = true;
            }
        }
        self.aborted
    }

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
        };
        self.unverified.clear();
        let mut roots = self.root_moves();
        if roots.is_empty() {
            return out;
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
            return out;
        }
        if self.id == 0 && self.shared.options.root_threat_nodes > 0 {
            if let Some(line) = self.root_threats() {
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
                });
                return out;
            }
        }
        let budget = self.shared.options.root_threat_nodes;
        if budget > 0 {
            self.keep_defences(&mut roots, false, 20_000, 20_000);
            if self.shared.options.root_vct_defence {
                self.keep_defences(&mut roots, true, budget / 4, budget / 40);
            }
            out.best = roots[0].0;
        }
        let max_depth = self.shared.limits.depth.unwrap_or(MAX_PLY as i32 - 8);
        let mut prev = 0;
        let mut depth = 1;
        while depth <= max_depth {
            // Every thread searches the same depths; they spread over the tree through the
            // shared table. Self-play at 300 ms a move, 40 games, 2 threads against 1: 61.2%
            // this way, 42.5% when odd helpers searched one ply deeper.
            let d = depth;
            let score = self.aspiration(d, prev, &mut roots);
            if self.aborted {
                // A move that beat the previous best in the unfinished iteration is the
                // better guess (its search was complete).
                if self.partial_better && mate_distance(out.score).is_none() {
                    out.best = roots[0].0;
                    out.pv = vec![out.best];
                }
                break;
            }
            if score.abs() < MATE_BOUND && self.refuted_choice(&mut roots) {
                // The iteration chose a move the opponent's VCT beats: search this depth
                // again without it.
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
                });
            }
            if mate_distance(score).is_some_and(|m| m.abs() <= d) && self.root_margin.is_none() {
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
        self.flush_nodes();
        out.nodes = self.shared.nodes.load(Ordering::Relaxed);
        out.elapsed = self.shared.start.elapsed();
        out
    }

    /// Looks for a forced win of the side to move: first by fours (VCF), then by threats
    /// (VCT), within the root threat budget. Counts the solver's nodes as search nodes.
    fn root_threats(&mut self) -> Option<Vec<Pos>> {
        // At most a quarter of the node budget and a third of the time target.
        let limits = &self.shared.limits;
        let budget = limits
            .nodes
            .map_or(u64::MAX, |n| n / 4)
            .min(self.shared.options.root_threat_nodes);
        let time = limits.soft_time.or(limits.hard_time).map(|t| t / 3);
        let lim = |nodes: u64, depth: u8| SolveLimits {
            depth,
            nodes,
            deadline: time.map(|t| self.shared.start + t),
            stop: Some(self.shared.stop.clone()),
        };
        let vcf = self.solver.vcf(&mut self.board, &lim(budget / 4, 120));
        self.nodes += self.solver.nodes();
        if let Proof::Win(line) = vcf {
            return Some(line);
        }
        let vct = self.solver.vct(&mut self.board, &lim(budget, 12));
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
    fn keep_defences(
        &mut self,
        roots: &mut Vec<(Pos, i32)>,
        vct: bool,
        threat_nodes: u64,
        move_nodes: u64,
    ) {
        let deadline = self
            .shared
            .limits
            .soft_time
            .or(self.shared.limits.hard_time)
            .map(|t| self.shared.start + t / 2);
        let threat_lim = self.defence_limits(vct, threat_nodes, deadline);
        let move_lim = self.defence_limits(vct, move_nodes, deadline);
        self.board.make_pass();
        let threat = self.solve(vct, &threat_lim);
        self.board.undo();
        if !matches!(threat, Proof::Win(_)) {
            return;
        }
        let mut keep = Vec::with_capacity(roots.len());
        for &(p, s) in roots.iter() {
            // After our reply the opponent moves; a four of ours makes it block first, which
            // the solver handles (the threat goes on only if the block is itself a four).
            self.board.make(p);
            let r = self.solve(vct, &move_lim);
            self.board.undo();
            match r {
                Proof::Win(_) => {}
                Proof::Unknown if vct => {
                    self.unverified.push(p);
                    keep.push((p, s));
                }
                _ => keep.push((p, s)),
            }
        }
        if !keep.is_empty() {
            *roots = keep;
        }
    }

    /// Limits of a solve for the opponent's threat after a root move (a VCT, or with `vct`
    /// false a VCF): `nodes`, `deadline` and the search's stop flag.
    fn defence_limits(&self, vct: bool, nodes: u64, deadline: Option<Instant>) -> SolveLimits {
        SolveLimits {
            depth: if vct { 10 } else { 120 },
            nodes,
            deadline,
            stop: Some(self.shared.stop.clone()),
        }
    }

    /// Checks the iteration's choice `roots[0]` once more against the opponent's VCT if the
    /// first check ran out of budget on it; removes it from `roots` (and says so) when the
    /// opponent wins.
    fn refuted_choice(&mut self, roots: &mut Vec<(Pos, i32)>) -> bool {
        let p = roots[0].0;
        let budget = self.shared.options.root_verify_nodes;
        let Some(i) = self.unverified.iter().position(|&q| q == p) else {
            return false;
        };
        self.unverified.swap_remove(i);
        if budget == 0 || roots.len() < 2 {
            return false;
        }
        let deadline = self.shared.limits.soft_time.map(|t| self.shared.start + t);
        let lim = self.defence_limits(true, budget, deadline);
        self.board.make(p);
        let r = self.solve(true, &lim);
        self.board.undo();
        if matches!(r, Proof::Win(_)) {
            roots.remove(0);
            true
        } else {
            false
        }
    }

    /// Runs the VCF or VCT solver for the side to move, counting its nodes.
    fn solve(&mut self, vct: bool, lim: &SolveLimits) -> Proof {
        let r = if vct {
            self.solver.vct(&mut self.board, lim)
        } else {
            self.solver.vcf(&mut self.board, lim)
        };
        self.nodes += self.solver.nodes();
        r
    }

    /// Root moves, best-scored first. Empty only when the side to move has no legal move.
    fn root_moves(&mut self) -> Vec<(Pos, i32)> {
        let mut list = MoveList::new();
        // The root is never narrowed: every move is kept.
        self.gen_moves(&mut list, Pos::NONE, 0);
        if list.is_empty() {
            // Lost (the only defences are forbidden, or there are none): any legal move
            // still has to be played.
            crate::movegen::legal_moves(&mut self.board, &mut list);
        }
        list.sort();
        list.iter().map(|p| (p, -INF)).collect()
    }

    fn aspiration(&mut self, depth: i32, prev: i32, roots: &mut [(Pos, i32)]) -> i32 {
        let mut delta = 60;
        let (mut alpha, mut beta) =
            if depth >= 4 && prev.abs() < MATE_BOUND && self.root_margin.is_none() {
                (prev - delta, prev + delta)
            } else {
                (-INF, INF)
            };
        loop {
            let score = self.root_search(depth, alpha, beta, roots);
            if self.aborted {
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
            if delta > 2000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn root_search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        roots: &mut [(Pos, i32)],
    ) -> i32 {
        self.static_eval(0, &None);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_i = 0;
        let me = self.board.to_move();
        let root_lmr = self.shared.options.root_lmr;
        let root_pv = self.shared.options.root_pv_moves;
        for i in 0..roots.len() {
            let p = roots[i].0;
            // Late root moves that make or stop no three are searched shallower first.
            let r = if root_lmr > 0 && depth >= 4 && i >= 2.max(root_pv) && self.is_quiet(p, me) {
                lmr_plies(root_lmr as f32 / 100.0, depth, i).clamp(0, depth - 2)
            } else {
                0
            };
            // The bound a later move must beat: alpha, or with a margin the best score less
            // the margin, so that every move within it gets an exact score. A move that
            // fails low below it returns an upper bound, which keeps it out of the margin.
            let floor = match self.root_margin {
                Some(m) if i > 0 => alpha.min(best.saturating_sub(m.saturating_add(1))),
                _ => alpha,
            };
            self.move_threat[0] = self.board.threat(p, me);
            self.board.make(p);
            self.nodes += 1;
            let score = if i == 0 {
                -self.negamax((depth - 1) * ONE_PLY, -beta, -alpha, 1, true)
            } else if i < root_pv {
                -self.negamax((depth - 1) * ONE_PLY, -beta, -floor, 1, true)
            } else {
                let mut s = -self.negamax((depth - 1 - r) * ONE_PLY, -floor - 1, -floor, 1, false);
                if r > 0 && s > floor {
                    s = -self.negamax((depth - 1) * ONE_PLY, -floor - 1, -floor, 1, false);
                }
                if s > floor && s < beta {
                    -self.negamax((depth - 1) * ONE_PLY, -beta, -floor, 1, true)
                } else {
                    s
                }
            };
            self.board.undo();
            if self.aborted {
                break;
            }
            roots[i].1 = score;
            if score > best {
                best = score;
                best_i = i;
                if score > alpha {
                    alpha = score;
                    if score >= beta && self.root_margin.is_none() {
                        break;
                    }
                }
            }
        }
        self.partial_better = self.aborted && best_i > 0 && best > orig_alpha;
        if !self.aborted || best_i > 0 {
            let m = roots[best_i];
            roots[..=best_i].rotate_right(1);
            roots[0] = m;
            let key = self.board.hash();
            self.shared.tt.store(key, m.0, best, depth, Bound::Exact);
        }
        best
    }

    /// Follows the table from the root's best move.
    fn pv_line(&mut self, first: Pos) -> Vec<Pos> {
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

    /// Fills `list` with the moves of this node, scored for ordering, in no particular order
    /// (the caller orders what it needs: [`MoveList::pick`]). Returns how many of the
    /// best-ordered moves the node may search (a narrowed quiet node keeps fewer than the
    /// list holds; the list itself is not cut, since a caller that picks its moves in order
    /// meets the kept ones first), or `None` when the side to move has lost (cannot stop the
    /// opponent's five).
    fn gen_moves(&mut self, list: &mut MoveList, tt_move: Pos, ply: usize) -> Option<usize> {
        let b = &mut self.board;
        let me = b.to_move();
        let opp = !me;
        list.clear();
        if b.count(me, Threat::Five) > 0 {
            generate(b, GenKind::Fives, list);
            if !list.is_empty() {
                return Some(usize::MAX);
            }
        }
        if b.count(opp, Threat::Five) > 0 {
            crate::movegen::five_defences(b, list);
            return (!list.is_empty()).then_some(usize::MAX);
        }
        let mut quiet_node = false;
        if must_answer_three(b) {
            // Only our fours, or points that block its open threes, can hold.
            crate::movegen::three_defences(b, list);
        } else {
            // Row order: every caller sorts the list by score, then position.
            crate::movegen::candidates_by_row(b, list);
            quiet_node = ply > 0;
        }
        let k = self.killers[ply];
        let side = me.index();
        crate::simd::score_moves(
            &self.board,
            me,
            list.as_mut_slice(),
            &self.shared.options.order,
        );
        if self.shared.options.locality {
            let mv = self.board.moves();
            let last = |k: usize| mv.len().checked_sub(k).map_or(Pos::NONE, |i| mv[i]);
            // Per row, bit x: within four (Chebyshev) of one of the last two moves
            // (`near2`), of one of the last four (`near4`).
            let (mut near2, mut near4) = ([0u32; STRIDE], [0u32; STRIDE]);
            for k in 1..=4 {
                let q = last(k);
                if q.is_none() {
                    continue;
                }
                let cols = ((0x1FFu64 << q.x()) >> 4) as u32;
                for y in q.y().saturating_sub(4)..=(q.y() + 4).min(STRIDE - 1) {
                    near4[y] |= cols;
                    if k <= 2 {
                        near2[y] |= cols;
                    }
                }
            }
            for m in list.as_mut_slice() {
                if m.score > 0 {
                    let (x, y) = (m.pos.x(), m.pos.y() & (STRIDE - 1));
                    if near4[y] >> x & 1 == 0 {
                        m.score /= 4;
                    } else if near2[y] >> x & 1 == 0 {
                        m.score /= 2;
                    }
                }
            }
        }
        // Below the root, quiet nodes search only moves that make or stop something.
        let narrow = self.shared.options.narrow_score;
        let keep = if quiet_node && narrow > 0 {
            let n = list.iter_scores().filter(|&s| s >= narrow).count();
            n.max(MIN_NARROW_MOVES)
        } else {
            usize::MAX
        };
        for m in list.as_mut_slice() {
            let p = m.pos;
            m.score = if p == tt_move {
                1 << 28
            } else {
                let mut s = m.score;
                if p == k[0] {
                    s += 800;
                } else if p == k[1] {
                    s += 600;
                }
                s + self.history[side][p.index()].min(4000) / 8
            };
        }
        Some(keep)
    }

    /// Negamax with alpha-beta and principal variation search. Scores are from the side
    /// to move at this node; `depth` is in hundredths of a ply ([`ONE_PLY`]).
    fn negamax(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize, pv: bool) -> i32 {
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
            let renju_black = me == Color::Black && self.board.rule().has_forbidden();
            if !renju_black || {
                self.materialize(&mut pending, ply);
                self.has_legal_flex4()
            } {
                return WIN - (ply as i32 + 3);
            }
        }
        if ply >= MAX_PLY - 2 {
            self.materialize(&mut pending, ply);
            return self.evaluate();
        }
        // 3. Leaves: a short VCF check, then the static evaluation; not while the
        //    opponent's four forces our reply.
        if depth <= 0 && opp_fives == 0 {
            return self.leaf(ply, &mut pending, facts.four, beta);
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
            if !pv && excluded.is_none() && hit.depth * ONE_PLY >= depth {
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
        let iir = self.shared.options.iir;
        let (depth, plies) =
            if iir > 0 && tt_move.is_none() && plies >= iir && excluded.is_none() && opp_fives == 0
            {
                (depth - ONE_PLY, plies - 1)
            } else {
                (depth, plies)
            };
        // 5. Reverse futility and razoring.
        let mut static_eval = self.static_eval(ply, &pending);
        if let Some(hit) = tt_hit.filter(|_| self.shared.options.tt_eval) {
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
        let margin = self.shared.options.rfp;
        let razor = self.shared.options.razor.unwrap_or(margin);
        if !pv && opp_fives == 0 && ply >= 1 {
            let e = static_eval;
            if margin > 0 && plies < 7 && e - margin * plies >= beta && e < MATE_BOUND {
                return e;
            }
            if razor > 0 && plies < 5 && e + razor * plies <= alpha {
                return self.leaf(ply, &mut pending, facts.four, beta);
            }
        }
        // Everything below searches on from the board.
        self.materialize(&mut pending, ply);
        // Singular extension of the table move.
        let mut tt_ext = 0;
        let se = self.shared.options.singular;
        if let Some(hit) = tt_hit.filter(|h| {
            se > 0
                && ply > 0
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
                    tt_ext = -ONE_PLY * 3 / 2;
                }
            }
        }
        // 6. Moves.
        let mut list = self.take_list(ply);
        let forced = opp_fives > 0;
        let evs = self.shared.options.eval_sort;
        // The evaluation's sort of the list (when it has more than one move).
        let eval_sort = evs > 0 && plies >= evs && !forced;
        let defending_three = must_answer_three(&self.board);
        // The table move first, before the others are generated: a cut by it (the common
        // case) saves generating and scoring the list. Only where the list would hold it
        // first: a quiet node's candidates (every empty cell near a stone) always hold a
        // legal table move, with the top score; not in forced or defending nodes, whose
        // lists are narrower, nor beside a singular search's excluded move or with the
        // evaluation's sort.
        let staged = tt_move != Pos::NONE
            && excluded == Pos::NONE
            && !forced
            && !defending_three
            && !eval_sort
            && self.board.is_empty(tt_move)
            && self.board.is_near(tt_move)
            && !(me == Color::Black
                && self.board.rule().has_forbidden()
                && self.board.is_forbidden(tt_move));
        let mut generated = false;
        let mut eval_sorted = false;
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
                return 0; // full board: a draw
            }
            eval_sorted = eval_sort && list.len() > 1;
            if eval_sorted {
                // The evaluation reorders the kept moves only.
                list.keep_top(keep);
                self.sort_by_eval(&mut list, tt_move);
            } else {
                // Most nodes search a few moves: each is picked from the list when its turn
                // comes, instead of sorting the list first.
                list.start_picks();
            }
            n = list.len().min(keep);
            generated = true;
        }
        let prune = self.shared.options.prune && !pv && !forced && plies <= 4;
        // Replies to a four cost less depth (none at the default `four_reply_ext`): the
        // attacker's threat sequence is searched as deep as its quiet moves allow.
        let new_depth = if forced {
            depth - ONE_PLY + self.shared.options.four_reply_ext
        } else {
            depth - ONE_PLY
        };
        let caps = self.shared.options.move_caps
            && ply >= 2
            && !forced
            && (self.shared.options.cap_defences || !defending_three);
        let cap = if !caps {
            usize::MAX
        } else {
            let threat_at = if self.shared.options.caps_on_board {
                Threat::Flex4
            } else {
                Threat::Flex3
            };
            let table = if self.board.count_at_least(me, threat_at) > 0
                || self.board.count_at_least(opp, threat_at) > 0
            {
                &THREAT_CAP
            } else {
                &QUIET_CAP
            };
            (table[plies.clamp(0, 15) as usize] * self.shared.options.caps_pct / 100).max(2)
        };
        let lmr_threats = self.shared.options.lmr_threats;
        let attack_lmr = self.shared.options.attack_lmr;
        let fhr = self.shared.options.fail_high_margin;
        let likely_cut = fhr > 0
            && !pv
            && !forced
            && ply >= 1
            && static_eval < MATE_BOUND
            && static_eval >= beta.saturating_add(fhr * plies);
        // Can the children start from the counts their move would leave?
        let lazy = crate::eval::counts_decide(&self.board, &self.weights[opp.index()]);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Pos::NONE;
        for i in 0.. {
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
            if i >= n {
                break;
            }
            // Past the cap, only while every move so far loses.
            if i >= cap && best > -MATE_BOUND {
                break;
            }
            let p = if !generated {
                tt_move
            } else if eval_sorted {
                list.as_slice()[i].pos
            } else {
                list.pick(i).pos
            };
            if p == excluded {
                continue;
            }
            let quiet = self.is_quiet(p, me);
            if prune && quiet && best > -MATE_BOUND {
                // Late-move pruning: near the leaves only the first few quiet moves count.
                if i >= LMP_MOVES[plies.max(0) as usize] {
                    continue;
                }
                // Futility: a quiet move will not lift a hopeless static score to alpha.
                if plies <= 2 && static_eval + FUTILITY_MARGIN * plies.max(1) <= alpha {
                    continue;
                }
            }
            let new_depth = new_depth + if p == tt_move { tt_ext } else { 0 };
            let made_threat = self.board.threat(p, me);
            self.move_threat[ply] = made_threat;
            let new_depth = if !likely_cut {
                new_depth
            } else if made_threat < Threat::Block4 {
                new_depth - ONE_PLY
            } else if ply >= 2 && self.move_threat[ply - 2] >= Threat::Block4 {
                new_depth + ONE_PLY
            } else {
                new_depth
            };
            self.made[ply + 1] = false;
            let mut counted = None;
            let mut score;
            if i == 0 {
                score = -self.child(p, lazy, &mut counted, new_depth, -beta, -alpha, ply + 1, pv);
            } else {
                // Late moves are searched shallower first (threat moves by less, or not at
                // all without `lmr_threats`).
                let r = if plies >= 3 && i >= 2 && !forced && (quiet || lmr_threats > 0) {
                    let less = if quiet { 0 } else { lmr_threats - 1 };
                    let attack = attack_lmr > 0
                        && ply >= 2
                        && made_threat >= Threat::Flex3
                        && self.move_threat[ply - 2] >= Threat::Flex3;
                    ((self.lmr.get(plies, i) + !pv as i32 - less).max(0) * ONE_PLY
                        - if attack { attack_lmr } else { 0 })
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
            if self.made[ply + 1] {
                self.board.undo();
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
    fn child(
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
                self.board.make(p);
                self.made[ply] = true;
            }
        }
        self.negamax(depth, alpha, beta, ply, pv)
    }

    /// The child `p` as a pending move: its hash, raw static evaluation and deciding counts,
    /// from what the move would change ([`Board::after`]). Only where
    /// [`crate::eval::counts_decide`] for the child's weights. Debug builds make the move
    /// once and compare.
    fn pending_child(&mut self, p: Pos) -> Pending {
        let b = &self.board;
        let me = !b.to_move();
        let (m, o) = (me.index(), (!me).index());
        let a = b.after(p, &self.count_weights[m]);
        let now = crate::simd::eval_term_with(crate::simd::best(), b, me, &self.weights[m]);
        let pd = Pending {
            p,
            hash: b.hash_after(p),
            eval: now + a.change,
            facts: Facts {
                five: a.fives[m] > 0,
                opp_fives: a.fives[o],
                flex4: a.flex4[m] > 0,
                four: a.fours[m] > 0,
            },
        };
        #[cfg(debug_assertions)]
        {
            self.board.make(p);
            let facts = Facts::of(self.board.threat_counts(), me);
            let made = (self.evaluate(), facts, self.board.hash());
            assert_eq!((pd.eval, pd.facts, pd.hash), made, "after {p}");
            self.board.undo();
        }
        pd
    }

    /// Makes the node's pending move, if it has one.
    #[inline]
    fn materialize(&mut self, pending: &mut Option<Pending>, ply: usize) {
        if let Some(pd) = pending.take() {
            self.board.make(pd.p);
            self.made[ply] = true;
        }
    }

    /// Adds to each move's ordering score a share of the static evaluation after it (the
    /// table move keeps its place) and sorts again.
    fn sort_by_eval(&mut self, list: &mut MoveList, tt_move: Pos) {
        let w = self.shared.options.eval_sort_weight;
        let opp = !self.board.to_move();
        let lazy = crate::eval::counts_decide(&self.board, &self.weights[opp.index()]);
        for m in list.as_mut_slice() {
            if m.pos == tt_move {
                continue;
            }
            // The evaluation after the move, as a pending child has it (a make and undo where
            // the counts do not decide).
            let v = if lazy {
                -self.pending_child(m.pos).eval
            } else {
                self.board.make(m.pos);
                let v = -self.evaluate();
                self.board.undo();
                v
            };
            m.score += v * w / 100;
        }
        list.sort();
    }

    /// A leaf: our VCF if a short check finds one, else the static evaluation. `four`: can
    /// the side to move make a four? With [`Options::leaf_beta`], a static evaluation at or
    /// above `beta` is returned without the check. A pending move stays pending through a
    /// lean VCF.
    fn leaf(&mut self, ply: usize, pending: &mut Option<Pending>, four: bool, beta: i32) -> i32 {
        let budget = self.leaf_budget(ply);
        let mut eval = None;
        if budget > 0 && four {
            if self.shared.options.leaf_beta {
                // Already at or above beta: the threat check cannot change the cutoff.
                let e = self.static_eval(ply, pending);
                if e >= beta {
                    return e;
                }
                eval = Some(e);
            }
            let lim = SolveLimits {
                depth: 40,
                nodes: budget,
                deadline: None,
                stop: None,
            };
            let r = match pending.as_ref().map(|pd| pd.p) {
                Some(p) if self.board.lean_rule() => {
                    self.solver.vcf_after(&mut self.board, p, &lim)
                }
                _ => {
                    self.materialize(pending, ply);
                    self.solver.vcf(&mut self.board, &lim)
                }
            };
            self.nodes += self.solver.nodes();
            if let Proof::Win(line) = r {
                return WIN - (ply + line.len()) as i32;
            }
        }
        match eval {
            Some(e) => e,
            None => self.static_eval(ply, pending),
        }
    }

    /// Does `p` neither make nor stop a three (`me` to move)? Such moves are reduced first.
    fn is_quiet(&self, p: Pos, me: Color) -> bool {
        self.board.threat(p, me) < Threat::Flex3 && self.board.threat(p, !me) < Threat::Flex3
    }

    /// The node budget of a leaf's threat check: larger right below the root, where the
    /// opponent's VCF decides whether a root move defends.
    fn leaf_budget(&self, ply: usize) -> u64 {
        self.shared.options.leaf_vcf_nodes * if ply == 1 { 25 } else { 1 }
    }

    /// The raw static evaluation for the side to move.
    #[inline]
    fn evaluate(&self) -> i32 {
        evaluate(&self.board, &self.weights[self.board.to_move().index()])
    }

    /// The static evaluation at `ply` (averaged with the parent's under
    /// [`Options::avg_eval`]); records the raw value for the children.
    fn static_eval(&mut self, ply: usize, pending: &Option<Pending>) -> i32 {
        let raw = match pending {
            Some(pd) => pd.eval,
            None => self.evaluate(),
        };
        self.evals[ply] = raw;
        if self.shared.options.avg_eval && ply > 0 {
            (raw - self.evals[ply - 1]) / 2
        } else {
            raw
        }
    }

    /// The start of every search node: the deepest ply, the stop check (0 when stopping),
    /// and the positions fives decide (`facts` of the node's counts): our five point wins,
    /// two of the opponent's lose. Otherwise the opponent's number of five points.
    fn node_start(&mut self, ply: usize, facts: &Facts) -> Result<u16, i32> {
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.should_stop() {
            return Err(0);
        }
        if facts.five {
            return Err(WIN - (ply as i32 + 1));
        }
        if facts.opp_fives >= 2 {
            return Err(-(WIN - (ply as i32 + 2)));
        }
        Ok(facts.opp_fives)
    }

    /// Renju black: is one of black's straight-four points legal?
    fn has_legal_flex4(&mut self) -> bool {
        let cells = self.board.cells();
        for &p in cells {
            if self.board.threat(p, Color::Black) == Threat::Flex4 && !self.board.is_forbidden(p) {
                return true;
            }
        }
        false
    }
}

/// A child whose move is not made yet: the move, and the hash, raw static evaluation and
/// deciding counts of the position after it.
#[derive(Copy, Clone)]
struct Pending {
    p: Pos,
    hash: u64,
    eval: i32,
    facts: Facts,
}

/// What a node's first steps read of the class counts, for the side to move `me`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Facts {
    /// `me` has a five point.
    five: bool,
    /// The opponent's five points.
    opp_fives: u16,
    /// `me` has a straight-four point (or a double four).
    flex4: bool,
    /// `me` can make a four or better.
    four: bool,
}

impl Facts {
    #[inline(always)]
    fn of(counts: &[[u16; crate::threat::THREATS]; 2], me: Color) -> Facts {
        let (m, o) = (&counts[me.index()], &counts[(!me).index()]);
        Facts {
            five: m[Threat::Five as usize] > 0,
            opp_fives: o[Threat::Five as usize],
            flex4: m[Threat::Flex4 as usize] > 0,
            four: m[Threat::Block4 as usize..].iter().any(|&c| c > 0),
        }
    }
}

/// The evaluation weights for each side to move, for a search whose root side is `root`:
/// with [`Options::white_caution`] and a white root, black's class and pattern weights are
/// scaled in both roles (as the side to move and as the other side).
fn side_weights(o: &Options, root: Color) -> [crate::eval::EvalWeights; 2] {
    let k = o.white_caution;
    let mut w = [o.eval.clone(), o.eval.clone()];
    if root == Color::White && k != 100 {
        let scale = |a: &mut [i16; 16]| {
            for x in a.iter_mut() {
                *x = (*x as i32 * k / 100).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            }
        };
        // White to move: black is the other side.
        let white = &mut w[Color::White.index()];
        scale(&mut white.opp);
        scale(&mut white.pattern_opp);
        // Black to move: black is the side to move.
        let black = &mut w[Color::Black.index()];
        scale(&mut black.own);
        scale(&mut black.pattern);
    }
    w
}

/// Must the side to move answer an open three (the opponent has a straight-four point and
/// it has none of its own)? Then only blocks and its own fours are searched.
fn must_answer_three(b: &Board) -> bool {
    let me = b.to_move();
    b.count(!me, Threat::Flex4) > 0 && b.count(me, Threat::Flex4) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalWeights;

    fn scaled(a: &[i16; 16], k: i32) -> [i16; 16] {
        a.map(|x| (x as i32 * k / 100) as i16)
    }

    #[test]
    fn white_caution_scales_black_in_both_roles() {
        let mut o = Options {
            white_caution: 150,
            ..Options::default()
        };
        o.eval = EvalWeights::DEFAULT;
        let d = &EvalWeights::DEFAULT;
        let w = side_weights(&o, Color::White);
        let (white, black) = (&w[Color::White.index()], &w[Color::Black.index()]);
        assert_eq!((white.own, white.pattern), (d.own, d.pattern));
        assert_eq!(white.opp, scaled(&d.opp, 150));
        assert_eq!(white.pattern_opp, scaled(&d.pattern, 150));
        assert_eq!(black.own, scaled(&d.own, 150));
        assert_eq!(black.pattern, scaled(&d.pattern, 150));
        assert_eq!((black.opp, black.pattern_opp), (d.opp, d.pattern));
        // A black root, or 100%, leaves the weights alone.
        for w in [
            side_weights(&o, Color::Black),
            side_weights(&Options::default(), Color::White),
        ] {
            assert!(w.iter().all(|x| *x == EvalWeights::DEFAULT));
        }
    }

    #[test]
    fn white_caution_changes_only_a_white_search() {
        let tt = Tt::new(1);
        let stop = Arc::new(AtomicBool::new(false));
        let mut board = Board::new(15, crate::types::Rule::Freestyle);
        for (x, y) in [(7, 7), (8, 7), (8, 10)] {
            board.make(Pos::new(x, y));
        }
        let eval_with = |board: &Board, k: i32| {
            let shared = Shared {
                options: Options {
                    white_caution: k,
                    ..Options::default()
                },
                tt: &tt,
                stop: &stop,
                nodes: AtomicU64::new(0),
                start: Instant::now(),
                limits: Limits::default(),
            };
            Searcher::new(board, &shared, 0).evaluate()
        };
        // White to move: black's three stones weigh more, so white's evaluation drops.
        assert!(eval_with(&board, 150) < eval_with(&board, 100));
        board.make(Pos::new(9, 9));
        assert_eq!(eval_with(&board, 150), eval_with(&board, 100));
    }
}
