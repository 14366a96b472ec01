//! Layer 4: the search. Iterative deepening negamax with principal variation search,
//! aspiration windows, a shared transposition table, killer and history move ordering,
//! forced-move handling for fives, fours and open threes, and Lazy SMP threads.

pub mod busy;
mod decided;
mod evalcache;
mod lmr;
mod node;
pub mod params;
mod picker;
mod root;
pub mod solver;
pub mod timeman;
internal!(threads, tt);

use crate::board::Board;
use crate::eval::evaluate;
use crate::movegen::{generate, GenKind, MoveList};
use crate::threat::Threat;
use crate::types::{Color, Pos, CELLS, STRIDE};
use lmr::LmrTable;
use node::Pending;
pub use params::{ParamError, Params};
use solver::{Proof, SolveLimits, Solver};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::{Bound, Tt, MATE_BOUND};

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

impl Limits {
    /// The limits a Gomocup brain takes for a move when the manager gives `turn_ms` a move
    /// and no game clock (the time manager's `TimeControl::limits`): what "`turn_ms` a
    /// move" means for a front end that runs the engine on positions (a suite, an
    /// analysis) as a tournament would.
    pub fn for_turn(turn_ms: u64) -> Limits {
        timeman::TimeControl {
            turn_ms: Some(turn_ms.min(i64::MAX as u64) as i64),
            ..timeman::TimeControl::default()
        }
        .limits(0, 0, &Params::default())
    }
}

/// Progress of one finished iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// The iteration's depth in plies.
    pub depth: i32,
    /// The deepest ply any node of it reached.
    pub seldepth: usize,
    /// Its score for the side to move ([`WIN`] less the plies for a proven win).
    pub score: i32,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The principal variation, from the root.
    pub pv: Vec<Pos>,
    /// The side to move's chance to win that `score` means under the evaluation searched
    /// with ([`win_chance`]).
    pub chance: f64,
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
    /// The move to play (`Pos::NONE` only when there is no legal move).
    pub best: Pos,
    /// Its score for the side to move.
    pub score: i32,
    /// The deepest finished iteration (0: none finished, the move is the ordering's best).
    pub depth: i32,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Time the search took.
    pub elapsed: Duration,
    /// The principal variation, from the root.
    pub pv: Vec<Pos>,
    /// Root moves with their last scores (only with [`RootScores::Within`]): exact for
    /// the moves within the margin of the best, upper bounds below it for the others.
    pub root_scores: Vec<(Pos, i32)>,
    /// The move was forced and found without a search: the only move that does not lose at
    /// once (a five to block), or a five to make. `score` is then no judgement of the game.
    pub forced: bool,
    /// When the engine chose another move at random among near-equal ones
    /// ([`crate::engine::Config::random_margin`]): the search's best move and its score.
    /// `best` and `score` are then the chosen move's.
    pub instead_of: Option<(Pos, i32)>,
    /// Root moves the search left out because the opponent's VCF or VCT beats each (proven
    /// before or between its iterations); they have no score in `root_scores`.
    pub dropped: Vec<Pos>,
}

/// The side to move's chance to win, 0 to 1, at `score` from a search whose evaluation
/// reads `per_logit` score units as one unit of logit of that chance
/// ([`crate::eval::choice::Evaluation::score_per_logit`]): certain for a proven result,
/// else the logistic of `score / per_logit`.
pub fn win_chance(score: i32, per_logit: f64) -> f64 {
    match mate_distance(score) {
        Some(m) if m >= 0 => 1.0,
        Some(_) => 0.0,
        None => 1.0 / (1.0 + (-(score as f64) / per_logit).exp()),
    }
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

/// Which root moves a search scores exactly.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RootScores {
    /// Only the best move's: the normal search, where later moves are refuted with null
    /// windows, a cut ends the root loop and a proven result ends the iterations.
    Best,
    /// Every move within this margin of the best (the others get an upper bound below it):
    /// the root keeps searching after a cut, opens no aspiration window and goes on past a
    /// proven result. For a random choice among near-equal moves, and N-best lists.
    Within(i32),
}

/// State shared by all threads of one search.
pub struct Shared<'a> {
    /// The parameters (constants unless the feature `tuning` is on).
    pub params: Params,
    /// The transposition table.
    pub tt: &'a Tt,
    /// Raised to stop every thread (by a front end, the clock, or the main thread's end).
    pub stop: &'a Arc<AtomicBool>,
    /// Nodes of all threads (each flushes its count now and then).
    pub nodes: &'a AtomicU64,
    /// When the search began.
    pub start: Instant,
    /// When to stop.
    pub limits: Limits,
    /// Memory of each thread's threat-solver table, in megabytes.
    pub solver_table_mb: usize,
    /// The VCF results every thread's solver keeps and reads: a result one thread proved
    /// spares the others its solve.
    pub vcf_table: solver::VcfTable,
    /// The root moves the main thread kept after its root defence checks (the moves that
    /// stop the opponent's forced win), set once it has them. Helpers do not run the checks
    /// themselves: they search from the start and take this list when it comes.
    pub checked_roots: std::sync::OnceLock<Vec<Pos>>,
    /// The positions the threads are searching now, for deferred moves (empty with one
    /// thread).
    pub busy: busy::BusyTable,
    /// The learned evaluation, if the engine uses it instead of the classical one.
    pub net: Option<&'a crate::eval::net::Network>,
    /// Root moves the search leaves out (Yixin-Board's `YXBLOCK`, for analysis).
    pub excluded: &'a [Pos],
    /// Root moves to play less readily, with a penalty in centi-stones that their search
    /// scores lose unless the search proves them won or lost, or more readily, with a
    /// negative penalty they gain (the position database's advice; empty without one, and
    /// then the search is exactly as without the field).
    pub root_penalties: &'a [(Pos, i32)],
    /// A root move the position database holds a proven win with, and that win's score:
    /// unless the search decides the move itself, scored as the win (so played where the
    /// search alone would not find the win in time). None without a database.
    pub root_win: Option<(Pos, i32)>,
    /// The root move to search first: the database's proven win, else the move of its
    /// deepest search (the table's move does this within a process; the database across
    /// them).
    pub root_first: Option<Pos>,
}

impl Shared<'_> {
    /// Score units per unit of logit of the chance to win, under the evaluation searched
    /// with.
    pub fn score_per_logit(&self) -> f64 {
        match self.net {
            Some(_) => self.params.net_scale() as f64,
            None => crate::eval::CLASSICAL_SCORE_PER_LOGIT,
        }
    }

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
    /// One move list per ply reached so far, boxed so that taking one out moves a pointer,
    /// not the list.
    lists: Vec<Option<Box<MoveList>>>,
    killers: [[Pos; 2]; MAX_PLY + 1],
    /// Per side, per cell: the sum of `plies^2` over the cutoffs the quiet move made (read
    /// capped).
    history: Box<[[i32; CELLS]; 2]>,
    /// Evaluation weights of the board's rule.
    weights: &'static crate::eval::EvalWeights,
    /// Move-ordering weights of the board's rule.
    order: &'static crate::eval::OrderWeights,
    /// Raw static evaluation of the node at each ply (leaves average theirs with their
    /// parent's).
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
    /// Did the last root search, cut short, prove a win (its score)?
    partial_win: Option<i32>,
    /// Root moves proven to lose and left out ([`Outcome::dropped`]).
    dropped: Vec<Pos>,
    /// Root moves whose check against the opponent's proven threat was left undecided
    /// ([`params::ROOT_RECHECK_TIME_DIV`]).
    undecided: Vec<Pos>,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    aborted: bool,
    /// Which root moves get exact scores.
    pub root: RootScores,
    /// When the hard time limit ends, if there is one.
    deadline: Option<Instant>,
    /// Thread index (0 the main thread).
    pub id: usize,
    /// A helper whose finished iteration at the depth limit ends the whole search (its
    /// result is then the deepest): the first thread to reach the limit stops the others,
    /// so two threads reach a fixed depth sooner than one. Off for the main thread, which
    /// ends the search anyway, and when the main thread must keep exact root scores.
    pub ends_at_limit: bool,
    /// Has this thread's root move list been through the root defence checks (the main
    /// thread's own, or taken from [`Shared::checked_roots`])? Until then a helper's
    /// iterations may rank a move the checks drop, so they neither end the search nor
    /// give the move.
    roots_checked: bool,
    /// Late-move reductions by depth and move index ([`params::LMR_SCALE`]).
    lmr: LmrTable,
    /// The learned evaluation's inputs, kept up to date by the search's makes and undos
    /// (`None` with the classical evaluation).
    acc: Option<crate::eval::accumulator::Accumulator>,
    /// The net's scores of positions this search evaluated, by hash (`None` with the
    /// classical evaluation, which is cheaper than a probe).
    eval_cache: Option<evalcache::EvalCache>,
}

/// Nodes between two reads of the clock and the node limit.
const CHECK_EVERY: u64 = 1024;

impl<'a> Searcher<'a> {
    /// A searcher on a copy of `board`.
    pub fn new(board: &Board, shared: &'a Shared<'a>, id: usize) -> Searcher<'a> {
        let mut board = board.clone();
        let acc = shared
            .net
            .map(|net| crate::eval::accumulator::Accumulator::new(net, &board));
        // Only the classical evaluation reads the board's pattern counts.
        board.keep_pattern_counts(acc.is_none());
        let weights = crate::eval::EvalWeights::for_rule(board.rule());
        let count_weights = Color::ALL.map(|c| crate::eval::count_weights(weights, c));
        Searcher {
            order: crate::eval::OrderWeights::for_rule(board.rule()),
            board,
            weights,
            solver: {
                let mut solver = Solver::new();
                solver.watch(shared.stop.clone());
                solver.limit_table(shared.solver_table_mb);
                solver.share_vcf_table(shared.vcf_table.clone());
                solver
            },
            shared,
            lists: Vec::with_capacity(MAX_PLY + 1),
            killers: [[Pos::NONE; 2]; MAX_PLY + 1],
            history: Box::new([[0; CELLS]; 2]),
            evals: [0; MAX_PLY + 2],
            excluded: [Pos::NONE; MAX_PLY + 2],
            pending: None,
            made: [false; MAX_PLY + 2],
            move_threat: [Threat::None; MAX_PLY + 2],
            count_weights,
            partial_better: false,
            partial_win: None,
            dropped: Vec::new(),
            undecided: Vec::new(),
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            aborted: false,
            root: RootScores::Best,
            ends_at_limit: false,
            roots_checked: false,
            deadline: shared.limits.hard_time.map(|t| shared.start + t),
            id,
            lmr: LmrTable::new(shared.params.lmr_scale() as f32 / 100.0),
            eval_cache: acc.as_ref().map(|_| evalcache::EvalCache::new()),
            acc,
        }
    }

    /// The move list of `ply`, to be put back in `self.lists[ply]` before returning. A ply's
    /// list is made when the search first reaches it: all `MAX_PLY` lists made up front were
    /// a megabyte of every searcher (massif, 19x19), most of it never used.
    fn take_list(&mut self, ply: usize) -> Box<MoveList> {
        while self.lists.len() <= ply {
            self.lists.push(Some(Box::default()));
        }
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
}
