//! The search's parameters: every number the search was tuned with, as a named constant
//! with what it does and the measurement that set it (the match diaries behind them are in
//! `docs/experiments.md`). Matches: 15x15 freestyle against PentaZen on the 40 Piskvork
//! openings, both colours; self-play at a fixed node count a move.
//!
//! The search reads them through [`Params`]. In normal builds that is an empty type whose
//! getters return the constants; with the cargo feature `tuning` it holds values that
//! `Params::set` changes by name (`--set key=value` of the binaries), for experiments
//! between configurations.

/// Declares the parameters: the constants, and [`Params`] with a getter per parameter and
/// (feature `tuning`) a setter by key.
macro_rules! parameters {
    ($($(#[doc = $doc:literal])* $name:ident, $getter:ident, $key:literal: $t:ty = $value:expr;)*) => {
        $(
            $(#[doc = $doc])*
            pub const $name: $t = $value;
        )*

        /// The parameters a search runs with: the constants of this module, or with the
        /// feature `tuning`, values set by name.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $(
                #[cfg(feature = "tuning")]
                $getter: $t,
            )*
        }

        impl Default for Params {
            fn default() -> Self {
                Params {
                    $(
                        #[cfg(feature = "tuning")]
                        $getter: $name,
                    )*
                }
            }
        }

        impl Params {
            $(
                #[doc = concat!("[`", stringify!($name), "`] (key `", $key, "`).")]
                #[inline(always)]
                pub fn $getter(&self) -> $t {
                    #[cfg(feature = "tuning")]
                    {
                        self.$getter
                    }
                    #[cfg(not(feature = "tuning"))]
                    {
                        $name
                    }
                }
            )*

            /// The keys of `Params::set`.
            pub const KEYS: &'static [&'static str] = &[$($key),*];

            /// Sets the parameter `key` to `v` (feature `tuning`).
            #[cfg(feature = "tuning")]
            pub fn set(&mut self, key: &str, v: i64) -> Result<(), String> {
                match key {
                    $(
                        $key => {
                            self.$getter = <$t>::try_from(v).map_err(|_| {
                                format!("search parameter '{key}': {v} is out of range")
                            })?
                        }
                    )*
                    _ => {
                        return Err(format!(
                            "unknown search parameter '{key}' (the keys: {})",
                            Self::KEYS.join(", ")
                        ))
                    }
                }
                Ok(())
            }

            /// Sets one parameter from its command-line form `key=value` (feature `tuning`).
            #[cfg(feature = "tuning")]
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
    };
}

parameters! {
    /// Node budget of the VCF and VCT solvers at the root, and of its VCT defence checks
    /// (a quarter for the threat, a fortieth per move); 0 skips them. Set with the root
    /// threat search; the leaf budget was tuned beside it.
    ROOT_THREAT_NODES, root_threat_nodes, "root": u64 = 200_000;
    /// Node budget of the VCF check at each leaf (25 times this at ply 1, where the
    /// opponent's VCF decides whether a root move defends). At 200 the leaves' checks took
    /// about half the nodes of a search (session 46). Self-play with the built-in net at
    /// 300 ms a move, 100 against 200: 187-138-75 of 400 games, +43 Elo [+17, +69], on the
    /// balanced openings s1, -17 [-41, +7] on s2; both, 800 games, +13 [-5, +31]
    /// (docs/strength.md, sessions 52 and 53). With the local check of session 53, 200
    /// against 100 at 20,000 nodes a move: 0 [-13, +13] (400 games). With the classical
    /// evaluation against PentaZen, 100 had scored 47.6% and 47.8% where 200 scored 41.9%
    /// at 200 ms a move (320 games each), and 38.1% against 43.8% at 1 s (80 games each,
    /// within the noise).
    LEAF_VCF_NODES, leaf_vcf_nodes, "leaf": u64 = 100;
    /// 1: a node whose side to move has a four-three or a double three, where the opponent
    /// has no four to interrupt it, is a win in five plies without a search
    /// (`search::node::wins_in_five`); 0: the search proves it. Long wins at 1,000,000
    /// nodes a row: 44 of 75 against 38. Self-play at 100 ms a move against 0 (400 games on
    /// each of the balanced openings s1 and s2): -3 Elo [-30, +24] and +1 [-26, +28]
    /// (docs/experiments.md, session 61).
    QUICK_WIN, quick_win, "qwin": i32 = 1;
    /// Late-move reductions, `r = scale/100 * ln(depth) * ln(move number)` plies. Against
    /// PentaZen at 200 ms a move: 34.6% (240 games) where 35 scored 23.8% and 75 35.0%.
    /// With the built-in net at 100 ms a move (400 games of self-play on the balanced
    /// openings s1): 70 against 50, -1 Elo [-32, +30]. Long wins at 1,000,000 nodes
    /// (session 55): 20, 22 and 21 of 75 at 100, 150 and 200 against 22, though the
    /// searched depth grew from 14.1 to 16.5 plies.
    LMR_SCALE, lmr_scale, "lmr": i32 = 50;
    /// Below the root, quiet nodes search only moves whose ordering score reaches this (at
    /// least [`MIN_NARROW_MOVES`] of them). Self-play at 60,000 nodes a move: 57.5% against
    /// searching every candidate (40 games). With the built-in net at 100 ms a move (400
    /// games on the balanced openings s1): 100 against 200, -12 Elo [-38, +13]; keeping
    /// instead the moves within 4 policy logits of the best, +3 [-26, +33], within 2, -53
    /// [-84, -22].
    NARROW_SCORE, narrow_score, "narrow": i32 = 200;
    /// With the learned evaluation, the ordering score of a move gains this many points per
    /// unit of the net's policy logit (the policy's log-odds of the move being the best),
    /// on top of the classical ordering weights (a quiet node's narrowing still counts by
    /// those). Self-play at 10,000 nodes a move on the balanced openings, gen2 net on both
    /// sides: 1000 against 0 (the classical ordering alone) 218-168-14, 56.2%, +44 Elo
    /// [+13, +75] (400 games); 2000 against 1000 205-186-9, +17 [-16, +49], not kept. With
    /// the built-in net at 100 ms a move (800 games on the balanced openings s1 and s2):
    /// 2000 against 1000, 391-391-18, 0 Elo [-22, +22].
    POLICY_WEIGHT, policy_weight, "policy": i32 = 1000;
    /// Reverse futility and razoring margin per ply at shallow non-PV nodes, with the
    /// learned evaluation ([`RFP_MARGIN_CLASSICAL`] with the classical one). With the
    /// built-in net of the day (`freestyle15-h64`) at 100 ms a move, 60 against 30: +8 Elo
    /// [-23, +39] on the balanced openings s1 (400 games, the screen), then +19 [+3, +36]
    /// on s2 and two sets never used before (1,200 games); all 1,600 games 819-743-38, +16
    /// [+2, +31] (docs/strength.md, session 38). 90 against 60: +10 [-21, +40] with
    /// `freestyle15-h64` on s1 (400 games), then with `freestyle15-split` -5 [-26, +16] on
    /// s2 and the seed-3 set of session 38 (800 games, 385-397-18). Beyond it, Rapfi's
    /// fail-high reduction (a ply less for every move but a four at a non-PV node whose
    /// evaluation is 15 a ply above beta) at 20,000 nodes a move: -8 Elo [-40, +24] (s1),
    /// -27 [-59, +4] (s2; session 55), not kept.
    RFP_MARGIN, rfp_margin, "rfp": i32 = 60;
    /// Futility margin per ply of remaining depth (at most two plies), in evaluation units
    /// (about a third of a straight four's cell value under the classical evaluation).
    /// With `freestyle15-h64` at 100 ms a move (400 games of self-play on the balanced
    /// openings s1): 150 against 300, -7 Elo [-30, +16].
    FUTILITY_MARGIN, futility_margin, "fut": i32 = 300;
    /// Depth given back to a reply to a four, in hundredths of a ply (100: the reply costs
    /// no depth). Long forced wins at 1,000,000 nodes: 15 of 75 against 14 with 130.
    FOUR_REPLY_EXT, four_reply_ext, "fext": i32 = 100;
    /// Singular extension margin per ply below the table score (0: off). Against PentaZen
    /// at 1 s a move: 36.6% (160 games) where off scored 28.8% (120 games).
    SINGULAR_MARGIN, singular_margin, "se": i32 = 3;
    /// Late-move reductions of moves that make or stop a three: this less one ply fewer than
    /// a quiet move (0: not reduced). With the three below: see [`ROOT_LMR_SCALE`].
    LMR_THREATS, lmr_threats, "lmrt": i32 = 1;
    /// Internal iterative reduction: a node with at least this many plies left and no table
    /// move searches one ply less (0: off). See [`ROOT_LMR_SCALE`].
    IIR_DEPTH, iir_depth, "iir": i32 = 6;
    /// Late-move reductions of quiet root moves after the second, as [`LMR_SCALE`] (0: none).
    /// With [`LMR_THREATS`], [`IIR_DEPTH`] and the leaves' beta test: the depth-14 tree of the
    /// 40 openings 5.1 M nodes against 38.6 M; head to head against none of the four at 1 s a
    /// move, 63.5% (100 games).
    ROOT_LMR_SCALE, root_lmr_scale, "rlmr": i32 = 50;
    /// The root's search for a forced win of its own (VCF, then VCT) stops by the time
    /// target over this (not measured).
    ROOT_THREAT_TIME_DIV, root_threat_time_div, "rtdiv": u32 = 3;
    /// The root's checks of its moves against the opponent's threats stop by the time
    /// target over this; a move left unchecked is looked at again if an iteration chooses
    /// it. Self-play with the net, 8 against 2: +77 Elo [+43, +112] (s1, 100 ms a move,
    /// 159-98-20, stopped at LLR 2.53) and +54 [+24, +85] (s2, 100 ms, 210-148-42). 16
    /// against 8: +18 [-7, +44] (s1, 100 ms, 400 games), 0 [-34, +34] (s2, 200 ms, 224
    /// games). 32 against 8: +30 [-6, +67] (s1, 200 ms, 210 games), +10 [-14, +33] (s1,
    /// 100 ms, 365 games), +16 [-9, +42] (s2, 100 ms, 388 games), +14 [-11, +39] (s1,
    /// 300 ms, 400 games); the last three together +13 [-1, +28] over 1,152 games, every
    /// run above zero: the main search makes better use of the time the checks gave up.
    ROOT_DEFENCE_TIME_DIV, root_defence_time_div, "kddiv": u32 = 32;
    /// Below the root, a node whose opponent has a four-three point (and no five or
    /// straight-four point) searches only our fours and the moves that may stop it
    /// (`movegen::four_three_defences`), as replies to an open three are narrowed (0: off,
    /// every candidate). Self-play with the built-in net against off, both colours of the
    /// balanced openings: +6 Elo [-24, +37] (s1, 100,000 nodes a move), +9 [-16, +34] (s2,
    /// 100 ms), +12 [-16, +40] (s1, 100 ms); all 1,200 games +9 [-7, +25], not proven but
    /// positive in each. The bench tree to depth 14: 4.34 M nodes against 4.92 M. Long
    /// wins at 1,000,000 nodes: 16 of 75 against 17.
    FOUR_THREE_REPLIES, four_three_replies, "f3r": i32 = 1;
    /// Engine score units per unit of the learned evaluation's value logit (the trainer's
    /// score scale, `eval::net::SCORE_PER_LOGIT`), which the margins above were
    /// tuned against. Self-play at 10,000 nodes a move on the balanced openings against
    /// 400: 1450 (the classical evaluation's scale) 155-232-13, -68 Elo [-101, -36];
    /// 650 126-170-8 after 304 games (stopped, LLR -1.97); 250 203-180-17, +20 [-10, +50];
    /// 250 with `policy` 2000 against both defaults 202-189-9, +11 [-22, +44]: not kept.
    NET_SCALE, net_scale, "nscale": i32 = crate::eval::net::SCORE_PER_LOGIT;
}

/// [`RFP_MARGIN`] with the classical evaluation, whose scores run about 3.6 times the net's
/// ([`NET_SCALE`]). Self-play at 60,000 nodes a move: 63.8% against neither pruning (40
/// games); not measured again.
pub const RFP_MARGIN_CLASSICAL: i32 = 30;
/// Fewest moves a narrowed quiet node keeps ([`NARROW_SCORE`]).
pub const MIN_NARROW_MOVES: usize = 8;

/// Most moves a node from ply 2 on searches, by remaining depth, when a four or an open three
/// is on the board (either side has a straight-four or five point): self-play at 60,000
/// nodes a move, 61.2% against no caps (40 games).
pub const THREAT_CAP: [usize; 16] = [3, 3, 5, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8];
/// The caps of [`THREAT_CAP`] in any other position. A cap after Rapfi's move-count
/// pruning, `3 + depth^1.32` moves and half that where the static evaluation is no better
/// than two plies up, as well (session 55, 20,000 nodes a move): -31 Elo [-63, 0] on the
/// balanced openings s1, -20 [-50, +10] on s2.
pub const QUIET_CAP: [usize; 16] = [3, 3, 9, 14, 18, 22, 25, 28, 30, 32, 32, 32, 32, 32, 32, 32];

/// Quiet moves searched at each remaining depth (up to 4) before the rest are pruned
/// (late-move pruning; with futility, 61.2% in self-play against neither, 40 games at
/// 100,000 nodes a move).
pub const LMP_MOVES: [usize; 5] = [4, 6, 10, 16, 24];
/// Most plies left at which reverse futility returns.
pub const RFP_DEPTH: i32 = 7;
/// Most plies left at which razoring drops to the leaf check.
pub const RAZOR_DEPTH: i32 = 5;
/// Most plies left at which late-move pruning and futility apply ([`LMP_MOVES`]).
pub const PRUNE_DEPTH: i32 = 4;

/// Least remaining depth, in plies, for a singular extension search.
pub const SE_DEPTH: i32 = 7;
/// Depth, in hundredths of a ply, a table move loses when the singular search fails high
/// below beta but the table score is above it (the table move is likely not alone).
pub const SE_NEGATIVE_EXT: i32 = 150;

/// Least plies left for late-move reductions below the root.
pub const LMR_DEPTH: i32 = 3;
/// Index of the first move late-move reductions reduce (the first two are searched whole).
pub const LMR_FIRST_MOVE: usize = 2;
/// Least depth of a root iteration that reduces late root moves ([`ROOT_LMR_SCALE`]).
pub const ROOT_LMR_DEPTH: i32 = 4;

/// Factor of [`LEAF_VCF_NODES`] at ply 1, where the opponent's VCF decides whether a root
/// move defends.
pub const LEAF_PLY1_FACTOR: u64 = 25;

/// First aspiration window half-width around the previous iteration's score: a fifth of
/// an open three's value; the window triples on each failure.
pub const ASPIRATION_DELTA: i32 = 60;
/// Window half-width beyond which an aspiration search opens the window fully.
pub const ASPIRATION_MAX: i32 = 2000;
/// Least depth with an aspiration window (shallower iterations are cheap).
pub const ASPIRATION_DEPTH: i32 = 4;

/// Most attacking moves of the root's VCF line (longer than any real VCF).
pub const ROOT_VCF_DEPTH: u8 = 120;
/// Most attacking moves of the root's VCT line: VCT trees grow fast with depth.
pub const ROOT_VCT_DEPTH: u8 = 12;
/// Most attacking moves of a VCT defence check after a root move.
pub const DEFENCE_VCT_DEPTH: u8 = 10;
/// Most attacking moves of a leaf's VCF check (its node budget ends it first).
pub const LEAF_VCF_DEPTH: u8 = 40;
/// Node budgets of the root's check of the opponent's VCF threat, and per root move of the
/// VCF after it.
pub const ROOT_VCF_DEFENCE_NODES: u64 = 20_000;
/// Under a node budget, the root's defence solves stop once the search has used this
/// fraction's inverse of it (2: half), as under a clock they stop at half the time target.
pub const ROOT_SOLVE_SHARE: u64 = 2;

/// Move-ordering bonus of the first and second killer moves. A bonus of 500 for the quiet
/// move that last cut after the opponent's last move (a counter move) as well: +1 Elo
/// [-25, +27] at 20,000 nodes a move (s1, 400 games; session 55), not kept.
pub const KILLER_BONUS: [i32; 2] = [800, 600];
/// History scores are read capped at this and divided by [`HISTORY_DIVISOR`]. A quiet cut
/// gains the square of the plies left; the quiet moves searched before it losing as much
/// (a malus) scored +19 Elo [+4, +35] (s1), -3 [-18, +13] (s2) and +1 [-12, +14] (a new
/// set) at 20,000 nodes a move, 400 games each (session 55): not kept.
pub const HISTORY_CAP: i32 = 4000;
/// See [`HISTORY_CAP`].
pub const HISTORY_DIVISOR: i32 = 8;
