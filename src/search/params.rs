//! The search's parameters: every number the search was tuned with, as a named constant
//! with what it does and its unit. Where a number was set by measurement, one line names
//! the section of `docs/experiments.md` that records it.
//!
//! The search reads them through [`Params`]. In normal builds that is an empty type whose
//! getters return the constants; with the cargo feature `tuning` it holds values that
//! `Params::set` changes by name (`--set key=value` of the binaries, the key the getter's
//! name, as `--set leaf_vcf_nodes=50`), for experiments between configurations. The
//! constants after [`Params`] are fixed in every build.

/// Declares the parameters: the constants, and [`Params`] with a getter per parameter and
/// (feature `tuning`) a setter by key.
macro_rules! parameters {
    ($($(#[doc = $doc:literal])* $name:ident, $getter:ident: $t:ty = $value:expr;)*) => {
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
                #[doc = concat!("[`", stringify!($name), "`] (key `", stringify!($getter), "`).")]
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
            pub const KEYS: &'static [&'static str] = &[$(stringify!($getter)),*];

            /// Sets the parameter `key` to `v` (feature `tuning`).
            #[cfg(feature = "tuning")]
            pub fn set(&mut self, key: &str, v: i64) -> Result<(), ParamError> {
                $(
                    if key == stringify!($getter) {
                        self.$getter = <$t>::try_from(v).map_err(|_| {
                            ParamError::OutOfRange { key: key.into(), value: v }
                        })?;
                        return Ok(());
                    }
                )*
                Err(ParamError::Unknown(key.into()))
            }

            /// Sets one parameter from its command-line form `key=value` (feature `tuning`).
            #[cfg(feature = "tuning")]
            pub fn set_pair(&mut self, kv: &str) -> Result<(), ParamError> {
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| ParamError::NotAPair(kv.into()))?;
                let v = v
                    .parse()
                    .map_err(|_| ParamError::NotAnInteger(kv.into()))?;
                self.set(k, v)
            }
        }
    };
}

/// Why a search parameter was not set (feature `tuning`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No parameter has this key.
    #[error("unknown search parameter '{0}' (the keys: {keys})", keys = Params::KEYS.join(", "))]
    Unknown(String),
    /// The value does not fit the parameter's type.
    #[error("search parameter '{key}': {value} is out of range")]
    OutOfRange {
        /// The parameter's key.
        key: String,
        /// The value refused.
        value: i64,
    },
    /// `--set` without `=`.
    #[error("--set {0}: expected key=value")]
    NotAPair(String),
    /// `--set key=value` with a value that is not an integer.
    #[error("--set {0}: the value must be an integer")]
    NotAnInteger(String),
}

parameters! {
    /// Node budget of the VCF and VCT solvers at the root, and of its VCT defence checks
    /// (a quarter for the threat, a fortieth per move).
    /// Measured: docs/experiments.md, the root.
    ROOT_THREAT_NODES, root_threat_nodes: u64 = 200_000;
    /// Node budget of the VCF check at each leaf (25 times this at ply 1, where the
    /// opponent's VCF decides whether a root move defends).
    /// Measured: docs/experiments.md, leaves and threats inside the search.
    LEAF_VCF_NODES, leaf_vcf_nodes: u64 = 100;
    /// Late-move reductions, `r = scale/100 * ln(depth) * ln(move number)` plies.
    /// Measured: docs/experiments.md, pruning and reductions.
    LMR_SCALE, lmr_scale: i32 = 50;
    /// Below the root, quiet nodes search only moves whose ordering score reaches this (at
    /// least [`MIN_NARROW_MOVES`] of them), where the move ordering has the fitted weights
    /// (freestyle and standard; else [`NARROW_SCORE_HAND`]). Measured: docs/experiments.md,
    /// pruning and reductions.
    NARROW_SCORE, narrow_score: i32 = 200;
    /// [`NARROW_SCORE`] where the move ordering has the hand-set weights (renju and caro,
    /// of whose games the fit had none, `eval::order::HAND_ATTACK`): their scores run far
    /// lower (a blocked three about 50 where the fitted weights give it about 700), so the
    /// fitted weights' threshold keeps little but threes and fours there.
    /// Measured: docs/experiments.md, pruning and reductions.
    NARROW_SCORE_HAND, narrow_score_hand: i32 = 100;
    /// With the learned evaluation, the ordering score of a move gains this many points per
    /// unit of the net's policy logit (the policy's log-odds of the move being the best),
    /// on top of the classical ordering weights (a quiet node's narrowing still counts by
    /// those). Measured: docs/experiments.md, move ordering.
    POLICY_WEIGHT, policy_weight: i32 = 1000;
    /// Reverse futility and razoring margin per ply at shallow non-PV nodes, in evaluation
    /// units, with the learned evaluation ([`RFP_MARGIN_CLASSICAL`] with the classical one).
    /// Measured: docs/experiments.md, pruning and reductions.
    RFP_MARGIN, rfp_margin: i32 = 60;
    /// Futility margin per ply of remaining depth (at most two plies), in evaluation units
    /// (about a third of a straight four's cell value under the classical evaluation).
    /// Measured: docs/experiments.md, pruning and reductions.
    FUTILITY_MARGIN, futility_margin: i32 = 300;
    /// Depth given back to a reply to a four, in hundredths of a ply (100: the reply costs
    /// no depth). Measured: docs/experiments.md, extensions.
    FOUR_REPLY_EXT, four_reply_ext: i32 = 100;
    /// Singular extension margin per ply below the table score.
    /// Measured: docs/experiments.md, extensions.
    SINGULAR_MARGIN, singular_margin: i32 = 3;
    /// Late-move reductions of moves that make or stop a three: this less one ply fewer than
    /// a quiet move (0: not reduced). See [`ROOT_LMR_SCALE`].
    LMR_THREATS, lmr_threats: i32 = 1;
    /// Internal iterative reduction: a node with at least this many plies left and no table
    /// move searches one ply less. See [`ROOT_LMR_SCALE`].
    IIR_DEPTH, iir_depth: i32 = 6;
    /// Late-move reductions of quiet root moves after the second, as [`LMR_SCALE`].
    /// With [`LMR_THREATS`], [`IIR_DEPTH`] and the leaves' beta test, the bench's tree is
    /// several times smaller. Measured: docs/experiments.md, pruning and reductions.
    ROOT_LMR_SCALE, root_lmr_scale: i32 = 50;
    /// The root's search for a forced win of its own (VCF, then VCT) stops by the time
    /// target over this (not measured).
    ROOT_THREAT_TIME_DIV, root_threat_time_div: u32 = 3;
    /// The root's checks of its moves against the opponent's threats stop by the time
    /// target over this; a move left unchecked is looked at again if an iteration chooses
    /// it. Measured: docs/experiments.md, the root.
    ROOT_DEFENCE_TIME_DIV, root_defence_time_div: u32 = 32;
    /// [`ROOT_DEFENCE_TIME_DIV`] under renju: renju black's forbidden points leave it
    /// fewer defences, so white's threats at the root need the longer look.
    /// Measured: docs/experiments.md, the root.
    ROOT_DEFENCE_TIME_DIV_RENJU, root_defence_time_div_renju: u32 = 8;
    /// When the opponent threatens a forced win at the root and an iteration ranks first a
    /// move the defence checks left undecided (their solve ran out of nodes or time), that
    /// move's check runs again with the time target over this (and at most
    /// [`ROOT_RECHECK_NODES`]); a move it proves lost is dropped. 0: no second look. The
    /// first checks get a few thousand nodes a move, where the opponent's threats that
    /// decided renju games against Rapfi took 6,000 to 200,000 to prove.
    ROOT_RECHECK_TIME_DIV, root_recheck_time_div: u32 = 4;
    /// Engine score units per unit of the learned evaluation's value logit (the trainer's
    /// score scale, `eval::net::SCORE_PER_LOGIT`), which the margins above were tuned
    /// against. Measured: docs/experiments.md, nets.
    NET_SCALE, net_scale: i32 = crate::eval::net::SCORE_PER_LOGIT;
    /// The soft limit (no new iteration after it) in percent of the hard limit when a share
    /// of the game clock sets the hard limit, so that a move spends about one share on
    /// average ([`MOVE_MAX_SHARES`]).
    SOFT_SHARE_PERCENT, soft_share_percent: i64 = 40;
    /// Our moves the game clock is planned for, counted from the game's start: the time
    /// left is shared among this many less the moves already made, so that the clock is
    /// spent evenly over a game of about this length rather than kept back.
    CLOCK_HORIZON_MOVES, clock_horizon_moves: i64 = 30;
    /// The fewest of our moves the time left is shared among, however long the game: past
    /// the horizon each move takes about this fraction of what is left.
    CLOCK_MIN_MOVES_TO_GO, clock_min_moves_to_go: i64 = 20;
    /// 1: under renju, an open three of black's whose straight-four points are all
    /// forbidden is no threat that white must answer (`picker::must_answer_three`); 0: it
    /// is, as the class counts alone say. Measured: docs/experiments.md, leaves and threats
    /// inside the search.
    RENJU_REAL_THREES, renju_real_threes: u32 = 1;
    /// 1: a narrowed quiet node ([`NARROW_SCORE`]) whose kept moves all lose searches the
    /// rest of its candidates before it returns the loss; 0: it returns it. A loss over the
    /// kept moves alone is no proof, and a false one reaches the root as a mate.
    /// Measured: docs/experiments.md, pruning and reductions.
    WIDEN_LOST_NODES, widen_lost_nodes: u32 = 1;
    /// 1: a node of renju black's with no move to search while empty points are left is
    /// lost (every point forbidden, or no allowed block of white's open three); 0: it is
    /// scored as a full board's draw. Measured: docs/experiments.md, leaves and threats
    /// inside the search.
    RENJU_NO_MOVE_LOSS, renju_no_move_loss: u32 = 1;
}

/// [`RFP_MARGIN`] with the classical evaluation, whose scores run about 3.6 times the net's
/// ([`NET_SCALE`]). Measured: docs/experiments.md, pruning and reductions.
pub const RFP_MARGIN_CLASSICAL: i32 = 30;
/// Fewest moves a narrowed quiet node keeps ([`NARROW_SCORE`]).
pub const MIN_NARROW_MOVES: usize = 8;

/// Most moves a node from ply 2 on searches, by remaining depth, when a four or an open three
/// is on the board (either side has a straight-four or five point).
/// Measured: docs/experiments.md, pruning and reductions.
pub const THREAT_CAP: [usize; 16] = [3, 3, 5, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8];
/// The caps of [`THREAT_CAP`] in any other position.
pub const QUIET_CAP: [usize; 16] = [3, 3, 9, 14, 18, 22, 25, 28, 30, 32, 32, 32, 32, 32, 32, 32];

/// Quiet moves searched at each remaining depth (up to 4) before the rest are pruned
/// (late-move pruning). Measured: docs/experiments.md, pruning and reductions.
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
/// Most nodes of the second look at an undecided root move ([`ROOT_RECHECK_TIME_DIV`]).
pub const ROOT_RECHECK_NODES: u64 = 1_000_000;
/// Node budgets of the root's check of the opponent's VCF threat, and per root move of the
/// VCF after it.
pub const ROOT_VCF_DEFENCE_NODES: u64 = 20_000;

/// Nodes with at least this many plies left defer a move whose child another thread is
/// searching ([`super::busy`]); nearer the leaves the subtrees are too small to share.
pub const DEFER_MIN_PLIES: i32 = 2;
/// Most moves a node defers; past them it searches busy children at once.
pub const MAX_DEFERRED: usize = 8;

/// How long a helper that reached the depth limit before the main thread's root defence
/// checks sleeps between looks at whether they came.
pub const CHECKED_ROOTS_POLL: std::time::Duration = std::time::Duration::from_micros(200);
/// Under a node budget, the root's defence solves stop once the search has used this
/// fraction's inverse of it (2: half), as under a clock they stop at half the time target.
pub const ROOT_SOLVE_SHARE: u64 = 2;

/// Move-ordering bonus of the first and second killer moves.
pub const KILLER_BONUS: [i32; 2] = [800, 600];
/// History scores are read capped at this and divided by [`HISTORY_DIVISOR`]; a quiet cut
/// gains the square of the plies left.
pub const HISTORY_CAP: i32 = 4000;
/// See [`HISTORY_CAP`].
pub const HISTORY_DIVISOR: i32 = 8;

/// Squares (Chebyshev distance) within which a move counts as near one of the recent moves,
/// for the ordering's locality: moves farther from all of the last four moves count less.
pub const LOCALITY_RADIUS: usize = 4;
/// A move beyond [`LOCALITY_RADIUS`] of each of the last four moves has its ordering score
/// divided by this. Measured: docs/experiments.md, move ordering.
pub const LOCALITY_FAR_DIVISOR: i32 = 4;
/// A move within [`LOCALITY_RADIUS`] of one of the last four moves but of neither of the
/// last two has its ordering score divided by this.
pub const LOCALITY_NEAR_DIVISOR: i32 = 2;

/// The time kept back from a budget (process start-up, pipes and the scheduler of a busy
/// machine cost tens of milliseconds; Piskvork allows about 1 s of grace, others less):
/// this many milliseconds, plus [`TIME_MARGIN_SHARE`] of the budget, at most
/// [`TIME_MARGIN_MAX_MS`].
pub const TIME_MARGIN_MS: i64 = 30;
/// The budget over this is added to the time margin ([`TIME_MARGIN_MS`]): a twentieth.
pub const TIME_MARGIN_SHARE: i64 = 20;
/// The largest time margin, in milliseconds.
pub const TIME_MARGIN_MAX_MS: i64 = 400;
/// The soft limit (no new iteration after it) in percent of the hard limit when the turn's
/// budget sets the hard limit: an iteration the hard limit cuts short still counts if it
/// found a better root move. Measured: docs/experiments.md, time and threads.
pub const SOFT_TURN_PERCENT: i64 = 80;
/// Shares of the game clock (the time left over the moves to go) a move may take at most.
pub const MOVE_MAX_SHARES: i64 = 3;
/// A move never takes more than the time left over this, whatever its shares.
pub const MOVE_MAX_DIVISOR: i64 = 5;

/// Attacking moves the VCT's depth-first search deepens to before the proof-number search
/// takes over (`Solver::vct`). The depth-first search finds short wins in fewer nodes; the
/// proof-number search settles far more positions. Measured: docs/experiments.md, the
/// threat solver.
pub const DEPTH_FIRST_VCT_DEPTH: u8 = 5;
/// Fewest slots of the solver's proof-number table (256 KB).
pub const PN_SLOTS_MIN: usize = 1 << 14;
/// Most slots of the solver's proof-number table (16 MB): fewer proved fewer long wins,
/// more proved no more. Measured: docs/experiments.md, the threat solver.
pub const PN_SLOTS_MAX: usize = 1 << 20;
/// In the proof-number search, a child not yet searched counts as one move to prove it for
/// its side to move (`phi`), and one plus this many per place in the move order to refute it
/// (`delta`): the parent tries its moves in their order, each a little deeper before the
/// next, as the depth-first search does. Measured: docs/experiments.md, the threat solver.
pub const UNSEEN_RANK_STEP: u32 = 1;
/// In the proof-number search, a child searched next may run until its `delta` passes the
/// second best sibling's by this factor (numerator, denominator; Pawlewicz and Lew's
/// 1+epsilon trick), not by one: fewer switches between two siblings of nearly equal
/// numbers. Measured: docs/experiments.md, the threat solver.
pub const THRESHOLD_EPSILON: (u32, u32) = (5, 4);
