//! Layer 5: the engine facade. A game (board and history), a search configuration, and
//! `think` with limits and a progress callback. No I/O: front ends drive it. Beside it,
//! [`opening`]: the opening rules (swap, swap2, Soosorv-N, Taraguchi-N, Yamaguchi) as a
//! state machine that the front ends show and feed.

mod balance;
pub mod opening;

pub use balance::PAIR_FIRST_MOVES;
#[cfg(feature = "db")]
mod memory;

use crate::board::Board;
#[cfg(feature = "db")]
use crate::db::{Db, GameEnd};
use crate::movegen::{generate, GenKind, MoveList};
use crate::search::tt::{Tt, MATE_BOUND};
use crate::search::{Info, Limits, Outcome, RootScores, Shared, WIN};
use crate::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// Play on.
    Ongoing,
    /// `winner` made a five.
    Five {
        /// The side with the five.
        winner: Color,
    },
    /// Black played a forbidden point under renju and lost.
    Forbidden {
        /// White.
        winner: Color,
    },
    /// The board is full.
    Draw,
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The point is off the board.
    #[error("{0} is off the board")]
    OffBoard(Pos),
    /// The point holds a stone.
    #[error("{0} is already occupied")]
    Occupied(Pos),
    /// Forbidden for black under renju (double three, double four or overline).
    #[error("{0} is forbidden for black under renju")]
    Forbidden(Pos),
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
}

/// A board size the engine does not play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board size {0} is not supported (sizes {MIN_SIZE} to {MAX_SIZE})")]
pub struct SizeError(pub usize);

/// A random-choice margin out of range.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a random-choice margin runs from 0 to {MAX_RANDOM_MARGIN}, not {0}")]
pub struct MarginError(pub i64);

/// Why a take-back was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TakeBackError {
    /// The game has no move.
    #[error("no move to take back")]
    NoMove,
    /// `Pos::NONE` was asked for, and the last move is a stone.
    #[error("the last move is not a pass")]
    NotAPass,
    /// The point holds no stone.
    #[error("no stone on {0}")]
    NoStone(Pos),
}

/// How the engine chooses its move (the levels of the classic write-ups).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    /// Any candidate near the stones, at random (but always a five when it has one).
    Random,
    /// The best move by the one-ply pattern score, no search.
    Greedy,
    /// Alpha-beta to a fixed depth.
    Depth(i32),
    /// Full strength within the time limits.
    Full,
}

/// Largest random-choice margin the front ends accept: about what an open three adds to the
/// evaluation (two or three of its cells become straight-four points worth ~100 each), so
/// that a margin never reaches from a good move down to a blunder.
pub const MAX_RANDOM_MARGIN: i32 = 300;

/// A random-choice margin the front ends accept: 0 for none, or 1 to
/// [`MAX_RANDOM_MARGIN`].
pub fn random_margin(n: i64) -> Result<Option<i32>, MarginError> {
    match n {
        0 => Ok(None),
        n if (1..=MAX_RANDOM_MARGIN as i64).contains(&n) => Ok(Some(n as i32)),
        _ => Err(MarginError(n)),
    }
}

/// The random-choice margin at the start of a game against people (the prompt and the web
/// board): a small one, so that a line that beat the engine once need not win again, at
/// next to no cost in strength (root scores within 30 are about a tenth of an open three
/// apart).
pub const DEFAULT_RANDOM_MARGIN: i32 = 30;

/// A seed for the engine's random choices from the clock, for play against people (a fixed
/// seed would repeat the same choices in every session).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Search settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Memory of each search thread's threat-solver table, in megabytes.
    pub solver_table_mb: usize,
    /// If set, pick at random among root moves within this many centi-stones of the best,
    /// so a human cannot replay one winning line forever. Off for benchmarks and matches.
    pub random_margin: Option<i32>,
    /// Seed of the engine's random choices.
    pub seed: u64,
    /// The search's parameters (constants unless the feature `tuning` is on).
    pub params: crate::search::Params,
    /// The evaluation: by default a built-in net where one plays (15x15 freestyle,
    /// standard and renju, 20x20 freestyle: [`crate::eval::choice::builtin`]), the
    /// classical one elsewhere.
    pub eval: crate::eval::Evaluation,
    /// Whether the opening decisions judge the positions the built-in opening book holds
    /// by its deep scores ([`opening::book`]; renju on 15x15) rather than by their own
    /// short searches.
    pub opening_book: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            hash_mb: 64,
            solver_table_mb: crate::search::solver::DEFAULT_TABLE_MB,
            random_margin: None,
            seed: 0x3141_5926,
            params: crate::search::Params::default(),
            eval: crate::eval::Evaluation::Default,
            opening_book: true,
        }
    }
}

/// The engine: one game and its search state.
pub struct Engine {
    board: Board,
    config: Config,
    /// Allocated by the first search, so that a size set before it (a brain's
    /// `INFO max_memory`) is never exceeded, not even briefly.
    tt: Option<Tt>,
    stop: Arc<AtomicBool>,
    /// Nodes of the running (or last) search, all threads ([`Engine::node_counter`]).
    nodes: Arc<AtomicU64>,
    rng: Xoshiro256PlusPlus,
    status: GameStatus,
    /// The status before each move of the game (passes included), for [`Engine::undo`].
    earlier: Vec<GameStatus>,
    /// Moves the search leaves out ([`Engine::set_excluded`]).
    excluded: Vec<Pos>,
    /// The openings the engine placed in its opening stages, kept from game to game
    /// ([`Engine::placed_openings`]), and shared with other engines given the same record
    /// ([`Engine::share_placed_openings`]).
    placed: opening::placed::Shared,
    /// The position database, if one is open ([`Engine::set_db`]).
    #[cfg(feature = "db")]
    db: Option<Db>,
    /// What the database reported since the front end last asked ([`Engine::take_db_notes`]).
    #[cfg(feature = "db")]
    db_notes: Vec<String>,
    /// Search results to write with the database's next access.
    #[cfg(feature = "db")]
    db_pending: Vec<crate::db::SearchNote>,
    /// The last search's proven result: who wins, and the ply of the position it searched.
    #[cfg(feature = "db")]
    verdict: Option<(GameEnd, usize)>,
    /// The game has been learned from since its last change ([`Engine::learn_game`]).
    #[cfg(feature = "db")]
    learned: bool,
}

impl Engine {
    /// A new game on a `size` board under `rule` with default settings.
    pub fn new(size: usize, rule: Rule) -> Result<Engine, SizeError> {
        Engine::with_config(size, rule, Config::default())
    }

    /// A new game with the given settings.
    pub fn with_config(size: usize, rule: Rule, config: Config) -> Result<Engine, SizeError> {
        check_size(size)?;
        Ok(Engine {
            board: Board::new(size, rule),
            tt: None,
            rng: Xoshiro256PlusPlus::seed_from_u64(config.seed),
            config,
            stop: Arc::new(AtomicBool::new(false)),
            nodes: Arc::new(AtomicU64::new(0)),
            status: GameStatus::Ongoing,
            earlier: Vec::new(),
            excluded: Vec::new(),
            placed: opening::placed::Shared::default(),
            #[cfg(feature = "db")]
            db: None,
            #[cfg(feature = "db")]
            db_notes: Vec::new(),
            #[cfg(feature = "db")]
            db_pending: Vec::new(),
            #[cfg(feature = "db")]
            verdict: None,
            #[cfg(feature = "db")]
            learned: false,
        })
    }

    /// Starts a new game. The table is emptied, so a game owes nothing to the games before
    /// it: the same position and limits give the same move in every game, and what the
    /// engine carries from game to game is the database's alone (a kept table let a fixed
    /// opponent grow stronger at the openings it had seen, which hid what the database
    /// taught in the learning matches of docs/history.md).
    pub fn new_game(&mut self, size: usize, rule: Rule) -> Result<(), SizeError> {
        check_size(size)?;
        self.clear_hash();
        self.board = Board::new(size, rule);
        self.status = GameStatus::Ongoing;
        self.earlier.clear();
        self.game_changed();
        Ok(())
    }

    /// Judges the game by `rule` from now on: the stones stay, and the status is the one the
    /// moves reach under it.
    pub fn set_rule(&mut self, rule: Rule) {
        if rule != self.board.rule() {
            let moves = self.board.moves().to_vec();
            self.board = Board::new(self.board.size(), rule);
            self.replay(&moves);
        }
    }

    /// The position.
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// Evaluates with `eval` from the next search on (the table is emptied: its scores were
    /// another evaluation's).
    pub fn set_eval(&mut self, eval: crate::eval::Evaluation) {
        self.config.eval = eval;
        self.clear_hash();
    }
    /// Score units per unit of logit of the chance to win, under the evaluation this game's
    /// searches use.
    pub fn score_per_logit(&self) -> f64 {
        self.config
            .eval
            .score_per_logit(self.board.size(), self.board.rule())
    }
    /// The side to move's chance to win, 0 to 1, that a search `score` of this game means:
    /// certain for a proven result ([`crate::search::win_chance`]).
    pub fn win_chance(&self, score: i32) -> f64 {
        crate::search::win_chance(score, self.score_per_logit())
    }
    /// The game status.
    pub fn status(&self) -> GameStatus {
        self.status
    }

    /// Sets the thread count (at least one).
    pub fn set_threads(&mut self, n: usize) {
        self.config.threads = n.clamp(1, 64);
    }
    /// Resizes the transposition table (clears it).
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = mb.clamp(1, 1 << 16);
        if mb != self.config.hash_mb {
            self.config.hash_mb = mb;
            // Freed now; the new table is allocated by the next search.
            self.tt = None;
        }
    }
    /// Sets the memory of each search thread's threat-solver table (at least 1 MB).
    pub fn set_solver_table_mb(&mut self, mb: usize) {
        self.config.solver_table_mb = mb.max(1);
    }
    /// Allocates the transposition table now if the next search would, with all its
    /// memory mapped in (`Tt::new_mapped`), so that no search pays for either. For front
    /// ends to call outside the clock, such as when a game starts.
    pub fn prepare(&mut self) {
        let hash_mb = self.config.hash_mb;
        self.tt.get_or_insert_with(|| Tt::new_mapped(hash_mb));
    }
    /// Gives the transposition table's memory back now; the next search allocates it again,
    /// empty. For front ends that keep many games and search few at once (the web board).
    pub fn free_table(&mut self) {
        self.tt = None;
    }
    /// Empties the transposition table.
    pub fn clear_hash(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
    }
    /// Sets or clears the random-choice margin.
    pub fn set_random_margin(&mut self, margin: Option<i32>) {
        self.config.random_margin = margin;
    }
    /// Moves that searches leave out until changed (Yixin-Board's `YXBLOCK`, to see the
    /// best move other than these). Kept across games; empty to search every move.
    pub fn set_excluded(&mut self, points: Vec<Pos>) {
        self.excluded = points;
    }
    /// The moves searches leave out.
    pub fn excluded(&self) -> &[Pos] {
        &self.excluded
    }
    /// The openings the engine placed in its opening stages (each position after a stone it
    /// placed, up to symmetry), kept across games so that a varying engine does not place
    /// one symmetric to an earlier one while other balanced candidates remain.
    pub fn placed_openings(&self) -> std::sync::MutexGuard<'_, opening::placed::Placed> {
        opening::placed::lock(&self.placed)
    }
    /// Keeps the openings placed in `record` from now on (leaving the engine's own record):
    /// engines given the same record (a server's games) keep clear of each other's
    /// openings as of their own. Each step locks it briefly, never across a search.
    pub fn share_placed_openings(&mut self, record: opening::placed::Shared) {
        self.placed = record;
    }
    /// Forgets the openings placed: the next ones may repeat any of them.
    pub fn forget_openings(&mut self) {
        self.placed_openings().clear();
    }
    /// Reseeds the engine's random choices.
    pub fn set_seed(&mut self, seed: u64) {
        self.config.seed = seed;
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    /// A flag that stops the current search when raised (from any thread), or the next one
    /// when raised while none runs, so that a stop sent together with the command that
    /// starts a search is not lost. `think` lowers it when it returns; a front end that
    /// raises it for a search that has already ended lowers it itself.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The nodes of the running search, all threads, as the threads count them (each adds
    /// its count every few thousand nodes); zeroed when a search starts, and left at the
    /// last search's count when it ends. A front end reads it between iterations, where
    /// the reports of finished iterations say nothing new.
    pub fn node_counter(&self) -> Arc<AtomicU64> {
        self.nodes.clone()
    }

    /// Plays `p` for the side to move, refusing off-board, occupied and (black, renju)
    /// forbidden points, and moves after the end. Returns the new status.
    pub fn play(&mut self, p: Pos) -> Result<GameStatus, MoveError> {
        if self.status != GameStatus::Ongoing {
            return Err(MoveError::GameOver);
        }
        self.check_point(p)?;
        if self.board.to_move() == Color::Black
            && !self.board.makes_five(p, Color::Black)
            && self.board.is_forbidden(p)
        {
            return Err(MoveError::Forbidden(p));
        }
        Ok(self.play_checked(p))
    }

    /// Plays `p` even if it is forbidden (the opponent's move as a manager reports it);
    /// a forbidden move ends the game as a loss for black.
    pub fn play_unchecked(&mut self, p: Pos) -> Result<GameStatus, MoveError> {
        self.check_point(p)?;
        Ok(self.play_checked(p))
    }

    /// A change of the game: its result is not known, and not learned from.
    fn game_changed(&mut self) {
        #[cfg(feature = "db")]
        {
            self.learned = false;
        }
    }

    fn check_point(&self, p: Pos) -> Result<(), MoveError> {
        if !p.on_board(self.board.size()) {
            return Err(MoveError::OffBoard(p));
        }
        if !self.board.is_empty(p) {
            return Err(MoveError::Occupied(p));
        }
        Ok(())
    }

    /// Passes: the other side is to move. Refused after the end.
    pub fn pass(&mut self) -> Result<GameStatus, MoveError> {
        if self.status != GameStatus::Ongoing {
            return Err(MoveError::GameOver);
        }
        self.earlier.push(self.status);
        self.board.make_pass();
        Ok(self.status)
    }

    fn play_checked(&mut self, p: Pos) -> GameStatus {
        self.game_changed();
        self.earlier.push(self.status);
        let side = self.board.to_move();
        let five = self.board.makes_five(p, side);
        let forbidden = !five && side == Color::Black && self.board.is_forbidden(p);
        self.board.make(p);
        if self.status == GameStatus::Ongoing {
            self.status = if five {
                GameStatus::Five { winner: side }
            } else if forbidden {
                GameStatus::Forbidden { winner: !side }
            } else if self.board.stone_count() == self.board.size() * self.board.size() {
                GameStatus::Draw
            } else {
                GameStatus::Ongoing
            };
        }
        self.status
    }

    /// Takes back the last move. Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Pos> {
        let p = self.board.undo()?;
        self.game_changed();
        self.status = self.earlier.pop().unwrap_or(GameStatus::Ongoing);
        Some(p)
    }

    /// Plays `moves` on the (empty) board, judging each as [`Engine::play_unchecked`]
    /// does; the moves are on the board and empty where they are played.
    fn replay(&mut self, moves: &[Pos]) {
        self.game_changed();
        self.status = GameStatus::Ongoing;
        self.earlier.clear();
        for &p in moves {
            if p.is_none() {
                self.earlier.push(self.status);
                self.board.make_pass();
            } else {
                self.play_checked(p);
            }
        }
    }

    /// Removes the stone on `p` wherever it is in the move list (Gomocup TAKEBACK). The last
    /// move is undone; a stone before it is lifted from the position, the other stones keep
    /// their colours, and the lifted stone's colour is to move (as [`Engine::set_stones`]
    /// judges a position). Errors if `p` holds no stone (for `Pos::NONE`: if the last move
    /// is no pass).
    pub fn take_back(&mut self, p: Pos) -> Result<(), TakeBackError> {
        if self.board.moves().is_empty() {
            return Err(TakeBackError::NoMove);
        }
        if p.is_none() && self.board.last_move() != p {
            return Err(TakeBackError::NotAPass);
        }
        if self.board.last_move() == p {
            self.undo();
            return Ok(());
        }
        let Some(colour) = self.board.stone(p) else {
            return Err(TakeBackError::NoStone(p));
        };
        let moves = self.board.moves();
        let stones = |c: Color| -> Vec<Pos> {
            let first = c.index();
            (first..moves.len())
                .step_by(2)
                .map(|i| moves[i])
                .filter(|&m| !m.is_none() && m != p)
                .collect()
        };
        let (black, white) = (stones(Color::Black), stones(Color::White));
        let moves = alternate(&black, &white, colour);
        // The other stones were on the board: on it, and each on its own point.
        self.set_stones(&moves)
            .map_err(|_| TakeBackError::NoStone(p))
    }

    /// Replaces the game by the position of `moves` (as [`Engine::set_position`] takes them)
    /// without judging them one by one: a position given as stones in any order (a Gomocup
    /// `BOARD`) may pass through a five that a later stone turns into an overline. The game
    /// is taken to be going on. On error the game is unchanged.
    pub fn set_stones(&mut self, moves: &[Pos]) -> Result<(), MoveError> {
        self.set_position(moves)?;
        self.status = GameStatus::Ongoing;
        self.earlier
            .iter_mut()
            .for_each(|s| *s = GameStatus::Ongoing);
        Ok(())
    }

    /// Replaces the game by the position after `moves` (black first, `Pos::NONE` passes).
    /// On error the game is unchanged.
    pub fn set_position(&mut self, moves: &[Pos]) -> Result<(), MoveError> {
        let size = self.board.size();
        let mut seen = vec![false; crate::types::CELLS];
        for &p in moves.iter().filter(|p| !p.is_none()) {
            if !p.on_board(size) {
                return Err(MoveError::OffBoard(p));
            }
            if std::mem::replace(&mut seen[p.index()], true) {
                return Err(MoveError::Occupied(p));
            }
        }
        self.board = Board::new(size, self.board.rule());
        self.replay(moves);
        Ok(())
    }

    /// Black's forbidden points in the current position (empty outside renju).
    pub fn forbidden_points(&mut self) -> Vec<Pos> {
        let map = self.board.forbidden_map();
        map.iter_ones().map(|i| Pos(i as u16)).collect()
    }

    /// Chooses a move for the side to move at `level` within `limits`. `on_info` hears of
    /// every finished iteration. Returns `Pos::NONE` only when the side to move has no
    /// legal move (a full board, or renju black with every empty point forbidden).
    pub fn think(
        &mut self,
        level: Level,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let mut out = match level {
            Level::Random => self.pick_random(),
            Level::Greedy => self.pick_greedy(),
            Level::Depth(d) => {
                let lim = Limits {
                    depth: Some(d.max(1)),
                    ..limits.clone()
                };
                self.search(&lim, on_info, self.chooser_root())
            }
            Level::Full => self.search(limits, on_info, self.chooser_root()),
        };
        if let (Level::Depth(_) | Level::Full, Some(margin)) = (level, self.config.random_margin) {
            self.pick_near_equal(&mut out, margin);
        }
        // The stop (from a front end, the clock or the end of the main thread) is served.
        self.stop.store(false, Ordering::SeqCst);
        out
    }

    fn quick_outcome(&self, best: Pos, start: Instant) -> Outcome {
        Outcome {
            best,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: start.elapsed(),
            pv: vec![best],
            root_scores: Vec::new(),
            forced: false,
            instead_of: None,
            dropped: Vec::new(),
        }
    }

    fn pick_random(&mut self) -> Outcome {
        let start = Instant::now();
        let mut list = MoveList::new();
        generate(&mut self.board, GenKind::Fives, &mut list);
        if list.is_empty() {
            crate::movegen::legal_moves(&mut self.board, &mut list);
        }
        let best = if list.is_empty() {
            Pos::NONE
        } else {
            list.as_slice()[(self.rng.next_u64() % list.len() as u64) as usize].pos
        };
        self.quick_outcome(best, start)
    }

    fn pick_greedy(&mut self) -> Outcome {
        let start = Instant::now();
        let mut list = MoveList::new();
        crate::movegen::legal_moves(&mut self.board, &mut list);
        let side = self.board.to_move();
        for m in list.as_mut_slice() {
            m.score = crate::eval::move_score(&self.board, m.pos, side);
        }
        list.sort();
        let best = list.iter().next().unwrap_or(Pos::NONE);
        self.quick_outcome(best, start)
    }

    /// The root scores the move choice needs: every move's within the random-choice margin,
    /// or the best move's.
    fn chooser_root(&self) -> RootScores {
        self.config
            .random_margin
            .map_or(RootScores::Best, RootScores::Within)
    }

    fn search(
        &mut self,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
        root: RootScores,
    ) -> Outcome {
        // The clock starts before the table is allocated: a table not made ready by
        // `prepare` costs the turn its allocation and the faults of its first probes.
        let start = Instant::now();
        // The position database's advice on the root moves: penalties, a proven win, a move
        // to search first (none without the feature `db` or an open database).
        #[cfg(feature = "db")]
        let advice = self.db_advice();
        #[cfg(feature = "db")]
        let (penalties, win, first) = (&advice.penalties[..], advice.win, advice.first);
        #[cfg(not(feature = "db"))]
        let (penalties, win, first) = (&[][..], None::<(Pos, u16)>, None::<Pos>);
        let hash_mb = self.config.hash_mb;
        let tt = self.tt.get_or_insert_with(|| Tt::new(hash_mb));
        tt.new_search();
        self.nodes.store(0, Ordering::Relaxed);
        let shared = Shared {
            params: self.config.params.clone(),
            tt,
            excluded: &self.excluded,
            stop: &self.stop,
            nodes: &self.nodes,
            start,
            limits: limits.clone(),
            solver_table_mb: self.config.solver_table_mb,
            vcf_table: crate::search::solver::VcfTable::allocated(),
            checked_roots: std::sync::OnceLock::new(),
            busy: crate::search::busy::BusyTable::for_threads(self.config.threads),
            net: self
                .config
                .eval
                .network(self.board.size(), self.board.rule()),
            root_penalties: penalties,
            root_win: win.map(|(p, plies)| (p, WIN - (plies as i32).clamp(1, WIN - MATE_BOUND))),
            root_first: first,
        };
        let out =
            crate::search::threads::run(&self.board, &shared, self.config.threads, root, on_info);
        #[cfg(feature = "db")]
        self.db_store_search(&out, &advice);
        out
    }

    /// Replaces the best move by one chosen at random among the root moves scored within
    /// `margin` of it, unless the search proved a result. A different choice is reported
    /// in `instead_of`, with the chosen move's score and line.
    fn pick_near_equal(&mut self, out: &mut Outcome, margin: i32) {
        let near: Vec<(Pos, i32)> = out
            .root_scores
            .iter()
            .filter(|(_, s)| *s >= out.score - margin && *s > -crate::search::tt::MATE_BOUND)
            .copied()
            .collect();
        if near.len() > 1 && crate::search::mate_distance(out.score).is_none() {
            let (p, score) = near[(self.rng.next_u64() % near.len() as u64) as usize];
            if p != out.best {
                out.instead_of = Some((out.best, out.score));
                out.best = p;
                out.score = score;
                out.pv = vec![p];
            }
        }
    }
}

/// A move list (black first, `Pos::NONE` passes) that puts the `black` and `white` stones on
/// the board, each colour in the order given, and leaves `to_move` to move: the short side is
/// padded with passes.
pub fn alternate(black: &[Pos], white: &[Pos], to_move: Color) -> Vec<Pos> {
    // Black to move: as many black moves as white ones; white to move: one more.
    let extra = (to_move == Color::White) as usize;
    let blacks = black.len().max(white.len() + extra);
    let whites = blacks - extra;
    let mut moves = Vec::with_capacity(blacks + whites);
    for i in 0..blacks {
        moves.push(black.get(i).copied().unwrap_or(Pos::NONE));
        if i < whites {
            moves.push(white.get(i).copied().unwrap_or(Pos::NONE));
        }
    }
    moves
}

fn check_size(size: usize) -> Result<(), SizeError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(SizeError(size))
    }
}

// Front-end additions
impl Engine {
    /// The `n` best moves for the side to move with their scores (side to move's view,
    /// best first), from a search in which every root move gets an exact score (Yixin's
    /// `YXNBEST`). The engine's random-choice setting is left as it was.
    pub fn think_nbest(
        &mut self,
        n: usize,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> Vec<(Pos, i32)> {
        // Every root move keeps a score: exact for the best (and any tie), an upper bound
        // below it for the others. No random choice.
        let (mut scored, _) = self.think_defend(limits, on_info);
        scored.truncate(n);
        scored
    }

    /// Every root move judged, for a defence analysis (Yixin-Board's `YXSEARCHDEFEND`):
    /// the scored moves as [`Engine::think_nbest`] gives them (all of them), and the moves
    /// the search left out because the opponent's VCF or VCT beats each
    /// ([`crate::search::Outcome::dropped`]).
    pub fn think_defend(
        &mut self,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> (Vec<(Pos, i32)>, Vec<Pos>) {
        let out = self.search(limits, on_info, RootScores::Within(0));
        self.stop.store(false, Ordering::SeqCst);
        let mut scored = out.root_scores;
        if scored.is_empty() && !out.best.is_none() {
            scored.push((out.best, out.score));
        }
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        (scored, out.dropped)
    }
}

#[cfg(test)]
mod margin_tests {
    use super::*;

    #[test]
    fn random_margins_from_0_to_the_largest() {
        assert_eq!(random_margin(0), Ok(None));
        assert_eq!(random_margin(1), Ok(Some(1)));
        assert_eq!(random_margin(300), Ok(Some(MAX_RANDOM_MARGIN)));
        for bad in [301, -1, i64::MAX, i64::MIN] {
            assert_eq!(random_margin(bad), Err(MarginError(bad)));
        }
    }
}
