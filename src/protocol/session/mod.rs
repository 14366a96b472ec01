//! The Gomocup brain's state and command handler: one line in, answer lines out through a
//! callback. No I/O of its own except writing game records when the caller allows it.

mod analysis;

use super::command::{parse_line, Command, ParseError};
use super::report::{self, Detail};
use super::setup::{moves_from_stones, Owner};
use super::swap2::{decide, opening_three, Swap2Choice};
use crate::engine::{Config, Engine, GameStatus, Level};
use crate::record::{GameRecord, GameResult};
use crate::search::solver::DEFAULT_TABLE_MB;
use crate::search::timeman::TimeControl;
use crate::search::{Info, Limits};
use crate::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What the caller should do after a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `END`: exit.
    Quit,
}

/// Bounds a host puts on what the manager may ask for (tests and fuzzing keep searches
/// short and tables small).
#[derive(Clone, Debug)]
pub struct Options {
    /// Deepest search whatever `INFO max_depth` says.
    pub depth_cap: Option<i32>,
    /// Largest hash table in MB whatever `INFO hash_size` says.
    pub hash_cap_mb: usize,
    /// Most search threads whatever `INFO thread_num` says.
    pub threads_cap: usize,
    /// May the session write game records under `INFO folder`?
    pub write_records: bool,
    /// Search parameters (with the feature `tuning`, the brain's `--set key=value`).
    pub params: crate::search::Params,
    /// Pick at random among root moves within this margin of the best (the brain's
    /// `--vary N`), for play against people in a GUI; off for matches.
    pub random_margin: Option<i32>,
    /// Seed of those random choices.
    pub seed: u64,
    /// The evaluation (the brain's `--eval classical|default|FILE`).
    pub eval: crate::eval::Evaluation,
    /// The position database (the brain's `--db`), opened before the first move.
    pub db: DbChoice,
}

/// Where the brain keeps its position database.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DbChoice {
    /// No database.
    #[default]
    Off,
    /// This file.
    File(PathBuf),
    /// [`DB_FILE`] in the folder of `INFO folder` (none if the manager sends no folder).
    Folder,
}

/// The database's file name under `INFO folder` (`--db` without a file).
pub const DB_FILE: &str = "wuzi.db";

impl Default for Options {
    fn default() -> Self {
        Options {
            depth_cap: None,
            hash_cap_mb: 1024,
            threads_cap: 64,
            write_records: true,
            params: crate::search::Params::default(),
            random_margin: None,
            seed: Config::default().seed,
            eval: crate::eval::Evaluation::Default,
            db: DbChoice::Off,
        }
    }
}

/// The stones of a `BOARD`, `YXBOARD` or `SWAP2BOARD` block being read.
struct Block {
    kind: Command,
    stones: Vec<(Pos, Option<i64>)>,
    /// The first bad stone line, reported at `DONE`.
    error: Option<String>,
}

/// One brain: the engine, the manager's settings and the protocol state.
pub struct Session {
    engine: Engine,
    opts: Options,
    started: bool,
    tc: TimeControl,
    max_depth: Option<i32>,
    max_nodes: Option<u64>,
    hash_kb: Option<u64>,
    max_memory: Option<u64>,
    /// Search threads as `INFO thread_num` asked (a memory limit may allow fewer).
    threads: usize,
    block: Option<Block>,
    folder: Option<PathBuf>,
    own: Option<Color>,
    pending_stops: Arc<AtomicI64>,
    saved_games: u32,
    /// The database choice has been acted on (opened, or found unusable and reported).
    db_tried: bool,
    /// When the line being handled arrived ([`Session::handle_line_at`]): the time it waited
    /// behind earlier lines is taken from its turn.
    received: Option<Instant>,
    /// What Yixin-Board asked to see of a search (`INFO show_detail`).
    detail: Detail,
}

type Out<'a> = &'a mut dyn FnMut(&str);

/// Default transposition table size when the manager sets none (MB).
const DEFAULT_HASH_MB: usize = 64;
/// Memory of the brain besides its tables, with one search thread: 5.7 MB of peak RSS with
/// 1 MB tables after short searches under every rule (a release build, 15x15 and 20x20).
/// With it the least limit is 8 MB; at 8 MB (1 MB tables) the soak's highest peak was 7.8
/// MB, over 100 engines and whole games on boards up to 22x22 under every rule (`soak
/// --games 150 --max-memory 8 --max-memory 32 --max-memory 350`).
const PROCESS_MB: usize = 6;
/// Memory of each search thread after the first (move lists, solver tables): 1.8 MB of
/// peak RSS measured.
const THREAD_MB: usize = 2;
/// The least transposition table.
const MIN_HASH_MB: usize = 1;
/// The least solver table of a thread.
const MIN_SOLVER_MB: usize = 1;

impl Session {
    /// A brain waiting for `START` (15x15 freestyle until told otherwise).
    pub fn new(opts: Options) -> Session {
        let config = Config {
            hash_mb: DEFAULT_HASH_MB.min(opts.hash_cap_mb).max(1),
            params: opts.params.clone(),
            random_margin: opts.random_margin,
            seed: opts.seed,
            eval: opts.eval.clone(),
            ..Config::default()
        };
        let engine = match Engine::with_config(15, Rule::Freestyle, config) {
            Ok(e) => e,
            // 15 is within the supported sizes; this cannot fail.
            Err(e) => unreachable!("{e}"),
        };
        Session {
            engine,
            opts,
            started: false,
            tc: TimeControl::default(),
            max_depth: None,
            max_nodes: None,
            hash_kb: None,
            max_memory: None,
            threads: 1,
            block: None,
            folder: None,
            own: None,
            pending_stops: Arc::new(AtomicI64::new(0)),
            saved_games: 0,
            db_tried: false,
            received: None,
            detail: Detail::default(),
        }
    }

    /// The engine's stop flag: raising it from another thread ends the current search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.engine.stop_flag()
    }

    /// A counter a reader thread increments for every `STOP`, `YXSTOP` or `END` it reads
    /// before queueing the line. The session decrements it when it handles such a line, so
    /// a positive value while thinking means a stop is waiting behind the current command.
    pub fn pending_stops(&self) -> Arc<AtomicI64> {
        self.pending_stops.clone()
    }

    /// The engine (read-only), for tests and hosts.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Handles one input line and returns its answer lines (for tests and fuzzing; the
    /// brain uses [`Session::handle_line`] to stream progress while thinking).
    pub fn answer(&mut self, line: &str) -> (Vec<String>, Flow) {
        let mut lines = Vec::new();
        let flow = self.handle_line(line, &mut |s| lines.push(s.to_string()));
        (lines, flow)
    }

    /// [`Session::handle_line`] for a line that arrived at `received`: a move it asks for
    /// is due that long after it (a manager's clock runs from when it sent the line, which
    /// may have waited behind slow commands).
    pub fn handle_line_at(&mut self, line: &str, received: Instant, out: Out) -> Flow {
        self.received = Some(received);
        let flow = self.handle_line(line, out);
        self.received = None;
        flow
    }

    /// Handles one input line; answers go to `out`, one line per call, without newline.
    pub fn handle_line(&mut self, line: &str, out: Out) -> Flow {
        self.arm_stop();
        let parsed = parse_line(line);
        if self.block.is_some() {
            match self.block_line(parsed, line, out) {
                Some(p) => return self.dispatch(p, out),
                None => return Flow::Continue,
            }
        }
        self.dispatch(parsed, out)
    }

    fn dispatch(&mut self, parsed: Result<Command, ParseError>, out: Out) -> Flow {
        match parsed {
            Err(ParseError::Empty) => Flow::Continue,
            Err(ParseError::Unknown(m)) => {
                out(&format!("UNKNOWN {}", printable(&m)));
                Flow::Continue
            }
            Err(ParseError::Malformed(m)) => {
                out(&format!("ERROR {}", printable(&m)));
                Flow::Continue
            }
            Ok(cmd) => self.execute(cmd, out).unwrap_or_else(|m| {
                out(&format!("ERROR {}", printable(&m)));
                Flow::Continue
            }),
        }
    }

    /// A line inside a stone block. Returns the parse result when the line is a command
    /// that ends the block early (the block is dropped with an error).
    fn block_line(
        &mut self,
        parsed: Result<Command, ParseError>,
        line: &str,
        out: Out,
    ) -> Option<Result<Command, ParseError>> {
        let block = self.block.as_mut()?;
        match parsed {
            Ok(Command::Stone(p, f)) => block.stones.push((p, f)),
            Ok(Command::Done) => {
                if let Some(b) = self.block.take() {
                    if let Err(m) = self.finish_block(b, out) {
                        out(&format!("ERROR {}", printable(&m)));
                    }
                }
            }
            Err(ParseError::Empty) => {}
            Err(ParseError::Malformed(m)) if line.trim_start().starts_with(is_stone_start) => {
                block.error.get_or_insert(m);
            }
            other => {
                self.block = None;
                out("ERROR stone block ended without DONE; position unchanged");
                return Some(other);
            }
        }
        None
    }

    fn execute(&mut self, cmd: Command, out: Out) -> Result<Flow, String> {
        match cmd {
            Command::Start(n) => self.start(n, n, out)?,
            Command::RectStart(w, h) => self.start(w, h, out)?,
            Command::Restart => {
                self.need_game()?;
                self.save_record(out);
                self.reset_game(self.engine.board().size())?;
                out("OK");
            }
            Command::Begin | Command::Turn(_) | Command::Play(_) | Command::Takeback(_) => {
                self.need_game()?;
                self.game_command(cmd, out)?;
            }
            Command::Board
            | Command::YxBoard
            | Command::Swap2Board
            | Command::Block
            | Command::BlockUndo => {
                self.need_game()?;
                self.block = Some(Block {
                    kind: cmd,
                    stones: Vec::new(),
                    error: None,
                });
            }
            Command::Done | Command::Stone(..) => {
                return Err("stone lines and DONE belong inside a BOARD block".into())
            }
            // INFO gets no answer: a manager would read an ERROR here as the answer to its
            // next command. A bad value is only shown to the user.
            Command::Info(key, value) => {
                if let Err(m) = self.info(&key, &value) {
                    out(&format!("MESSAGE {}", printable(&m)));
                }
            }
            Command::End => {
                self.consume_stop();
                self.save_record(out);
                return Ok(Flow::Quit);
            }
            Command::About => out(&format!(
                "name=\"wuzi\", version=\"{} {}\", author=\"wuzi developers\", country=\"Unknown\", boards=\"square boards 5x5 to 22x22\"",
                env!("CARGO_PKG_VERSION"),
                self.opts
                    .eval
                    .describe(self.engine.board().size(), self.engine.board().rule())
            )),
            // Nothing is thinking now (a search answers before the next line is read).
            Command::Stop => self.consume_stop(),
            Command::ShowForbid => out(&self.forbid_line()),
            Command::HashClear => self.engine.clear_hash(),
            Command::NBest(n) => {
                self.need_game()?;
                self.nbest(n, out)?;
            }
            Command::ShowInfo => {
                out(&format!(
                    "MESSAGE INFO MAX_THREAD_NUM {}",
                    self.opts.threads_cap.max(1)
                ));
                // Yixin-Board reads the largest hash as log2 of kilobytes.
                let kb = (self.opts.hash_cap_mb.max(1) as u64) << 10;
                out(&format!("MESSAGE INFO MAX_HASH_SIZE {}", kb.ilog2()));
            }
            Command::BlockReset => self.engine.set_excluded(Vec::new()),
            Command::BalanceOne(bias) => {
                self.need_game()?;
                self.balance_one(bias, out)?;
            }
            Command::BalanceTwo(bias) => {
                self.need_game()?;
                self.balance_two(bias, out)?;
            }
            Command::SearchDefend => {
                self.need_game()?;
                self.search_defend(out)?;
            }
        }
        Ok(Flow::Continue)
    }

    fn game_command(&mut self, cmd: Command, out: Out) -> Result<(), String> {
        match cmd {
            Command::Begin => self.reply_move(out),
            Command::Turn(p) if p.is_none() => {
                self.engine.pass().map_err(|e| e.to_string())?;
                self.reply_move(out)
            }
            Command::Turn(p) => {
                // The manager judges the opponent's moves (forbidden ones included).
                self.engine.play_unchecked(p).map_err(|e| e.to_string())?;
                self.reply_move(out)
            }
            Command::Play(p) => {
                self.play_own(p)?;
                out(&p.to_string());
                Ok(())
            }
            Command::Takeback(p) => {
                self.engine.take_back(p).map_err(|e| e.to_string())?;
                out("OK");
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn need_game(&self) -> Result<(), String> {
        if self.started {
            Ok(())
        } else {
            Err("no game: send START first".into())
        }
    }

    fn start(&mut self, w: i64, h: i64, out: Out) -> Result<(), String> {
        if w != h {
            return Err(format!("rectangular boards ({w}x{h}) are not supported"));
        }
        let range = MIN_SIZE as i64..=MAX_SIZE as i64;
        if !range.contains(&w) {
            return Err(format!(
                "unsupported size {w} (sizes {MIN_SIZE} to {MAX_SIZE})"
            ));
        }
        self.save_record(out);
        self.reset_game(w as usize)?;
        self.started = true;
        out("OK");
        Ok(())
    }

    /// A new game (START, RESTART), answered OK by the caller.
    fn reset_game(&mut self, size: usize) -> Result<(), String> {
        self.block = None;
        self.engine
            .new_game(size, self.engine.board().rule())
            .map_err(|e| e.to_string())?;
        self.own = None;
        // The table's pages are mapped now, not during the first move (a manager waits for
        // the OK before it sends a move), if the memory limit is known: most managers send
        // it after START, and a table mapped before then could pass it. Not after an INFO
        // line either: a move may follow at once, and mapping a whole table (up to 270
        // ms) takes longer than a short search's own faults. Those tables are made by the
        // first search.
        if self.max_memory.is_some() {
            self.engine.prepare();
        }
        Ok(())
    }

    /// Sets the engine's stop flag to "a stop is queued": raised if a `STOP`, `YXSTOP` or
    /// `END` waits behind this line (a search this line starts then answers at once),
    /// lowered otherwise (a stop read while nothing was thinking has been served). The
    /// reader thread counts a stop before it raises the flag, so reading the count after
    /// lowering the flag cannot miss one.
    fn arm_stop(&self) {
        let stop = self.engine.stop_flag();
        stop.store(false, Ordering::SeqCst);
        if self.pending_stops.load(Ordering::SeqCst) > 0 {
            stop.store(true, Ordering::SeqCst);
        }
    }

    fn consume_stop(&self) {
        let _ = self
            .pending_stops
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| Some((n - 1).max(0)));
    }

    /// Plays one of our own moves (never a forbidden point while the game is on).
    fn play_own(&mut self, p: Pos) -> Result<(), String> {
        let side = self.engine.board().to_move();
        match self.engine.status() {
            GameStatus::Ongoing => self.engine.play(p),
            // After a forbidden move the manager decides whether play goes on.
            _ => self.engine.play_unchecked(p),
        }
        .map_err(|e| e.to_string())?;
        self.own = Some(side);
        Ok(())
    }

    /// Search limits for the next move from the clock, `max_depth`, `max_node` and caps.
    fn limits(&self) -> Limits {
        let b = self.engine.board();
        let mut l = self.tc.limits(b.stone_count(), b.size() * b.size());
        l.depth = match (self.max_depth, self.opts.depth_cap) {
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        };
        l.nodes = self.max_nodes;
        if let Some(waited) = self.received.map(|r| r.elapsed()) {
            l.soft_time = l.soft_time.map(|t| t.saturating_sub(waited));
            l.hard_time = l.hard_time.map(|t| t.saturating_sub(waited));
        }
        l
    }

    /// Thinks and plays our move, answering `x,y`; progress goes out as `MESSAGE` lines.
    fn reply_move(&mut self, out: Out) -> Result<(), String> {
        match self.engine.status() {
            GameStatus::Five { winner } => {
                return Err(format!("the game is over: {winner} has five"))
            }
            GameStatus::Draw => return Err("the game is over: the board is full".into()),
            _ => {}
        }
        self.open_db(out);
        let limits = self.limits();
        let mut report = self.reporter(&mut *out);
        let best = self.engine.think(Level::Full, &limits, &mut report).best;
        drop(report);
        self.db_notes(out);
        if best.is_none() {
            return Err(self.no_move_reason());
        }
        self.play_own(best)?;
        out(&best.to_string());
        Ok(())
    }

    /// Why a search found no move to play: the board is full, or (renju) every empty point
    /// is forbidden for black.
    fn no_move_reason(&self) -> String {
        let b = self.engine.board();
        if b.stone_count() == b.size() * b.size() {
            "no empty point left: the board is full".into()
        } else {
            "no legal move: every empty point is forbidden for black".into()
        }
    }

    /// The progress callback of a search: prints `MESSAGE` lines, and stops the search
    /// when a `STOP` or `END` is queued behind the current command (a search's own end
    /// lowers the flag; a Swap2 answer runs several).
    fn reporter<'o>(&self, out: Out<'o>) -> impl FnMut(&Info) + 'o {
        let stop = self.engine.stop_flag();
        let pending = self.pending_stops.clone();
        let detail = self.detail;
        move |info| {
            if pending.load(Ordering::SeqCst) > 0 {
                stop.store(true, Ordering::SeqCst);
            }
            for line in report::iteration(info, detail) {
                out(&line);
            }
        }
    }

    fn forbid_line(&mut self) -> String {
        let mut s = String::from("FORBID ");
        if self.started {
            for p in self.engine.forbidden_points() {
                s += &format!("{:02}{:02}", p.x(), p.y());
            }
        }
        s.push('.');
        s
    }

    fn finish_block(&mut self, block: Block, out: Out) -> Result<(), String> {
        if let Some(e) = block.error {
            return Err(format!("bad stone line: {e}; position unchanged"));
        }
        for &(p, _) in &block.stones {
            let size = self.engine.board().size();
            if !p.on_board(size) {
                return Err(format!("stone {p} is off the {size}x{size} board"));
            }
        }
        if block.kind == Command::Swap2Board {
            return self.swap2(&block.stones, out);
        }
        if matches!(block.kind, Command::Block | Command::BlockUndo) {
            let mut excluded = self.engine.excluded().to_vec();
            for &(p, _) in &block.stones {
                excluded.retain(|&q| q != p);
                if block.kind == Command::Block {
                    excluded.push(p);
                }
            }
            self.engine.set_excluded(excluded);
            return Ok(());
        }
        let mut stones = Vec::with_capacity(block.stones.len());
        for &(p, f) in &block.stones {
            let owner = f.and_then(Owner::from_field).ok_or_else(|| {
                format!("stone {p} needs a field 1 (own), 2 (opponent) or 3 (marker)")
            })?;
            stones.push((p, owner));
        }
        let moves = moves_from_stones(&stones);
        self.engine
            .set_stones(&moves)
            .map_err(|e| format!("{e}; position unchanged"))?;
        self.own = Some(self.engine.board().to_move());
        if block.kind == Command::Board {
            self.reply_move(out)?;
        }
        Ok(())
    }

    fn swap2(&mut self, stones: &[(Pos, Option<i64>)], out: Out) -> Result<(), String> {
        let moves: Vec<Pos> = stones.iter().map(|s| s.0).collect();
        if ![0, 3, 5].contains(&moves.len()) {
            return Err(format!(
                "SWAP2BOARD takes 0, 3 or 5 stones, not {}",
                moves.len()
            ));
        }
        self.engine
            .set_position(&moves)
            .map_err(|e| format!("{e}; position unchanged"))?;
        let limits = self.limits();
        if moves.is_empty() {
            let pending = self.pending_stops.clone();
            let stopped = move || pending.load(Ordering::SeqCst) > 0;
            let [a, b, c] = opening_three(&mut self.engine, &limits, &stopped);
            out(&format!("{a} {b} {c}"));
            return Ok(());
        }
        match decide(&mut self.engine, &limits) {
            Swap2Choice::Swap => {
                self.own = Some(Color::Black);
                out("SWAP");
            }
            Swap2Choice::Move(p) => {
                self.play_own(p)?;
                out(&p.to_string());
            }
        }
        Ok(())
    }

    fn info(&mut self, key: &str, value: &str) -> Result<(), String> {
        let num = || -> Result<i64, String> {
            value
                .trim()
                .parse::<i64>()
                .map_err(|_| format!("INFO {key}: bad number '{value}'"))
        };
        match key {
            "timeout_turn" => self.tc.turn_ms = Some(num()?),
            "timeout_match" => self.tc.match_ms = Some(num()?),
            "time_left" => self.tc.left_ms = Some(num()?),
            "max_memory" => {
                self.max_memory = Some(num()?).filter(|&m| m > 0).map(|m| m as u64);
                self.apply_memory()?;
            }
            "hash_size" => {
                self.hash_kb = Some(num()?).filter(|&k| k > 0).map(|k| k as u64);
                self.apply_memory()?;
            }
            "thread_num" => {
                let n = num()?.clamp(1, self.opts.threads_cap.max(1) as i64);
                self.threads = n as usize;
                self.apply_memory()?;
            }
            "max_node" => self.max_nodes = Some(num()?).filter(|&n| n > 0).map(|n| n as u64),
            "max_depth" => {
                self.max_depth = Some(num()?)
                    .filter(|&d| d > 0)
                    .map(|d| d.min(i32::MAX as i64) as i32)
            }
            "rule" => self.set_rule(num()?)?,
            "show_detail" => self.detail = Detail::from_mask(num()?),
            "folder" => {
                self.folder = Some(value.trim())
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            }
            // Accepted and not needed: game_type, caution_factor, pondering, evaluate, and
            // any key we do not know (the protocol says to ignore those silently).
            _ => {}
        }
        Ok(())
    }

    fn set_rule(&mut self, mask: i64) -> Result<(), String> {
        let rule = u32::try_from(mask)
            .ok()
            .and_then(Rule::from_gomocup)
            .ok_or_else(|| format!("INFO rule {mask} is not supported"))?;
        // The stones stay; only the rule that judges them changes.
        self.engine.set_rule(rule);
        Ok(())
    }

    /// Table sizes and threads within `max_memory`: the requested `hash_size` (or the
    /// default) and `thread_num`, at most the host's caps; under a memory limit the solver
    /// tables get a quarter of what the process leaves and the transposition table the
    /// rest, and threads go before the tables shrink below their least sizes. A limit below
    /// what one thread and the least tables need is answered with an error, and the engine
    /// plays on at those least sizes.
    fn apply_memory(&mut self) -> Result<(), String> {
        let want = self
            .hash_kb
            .map(|kb| (kb / 1024).max(1) as usize)
            .unwrap_or(DEFAULT_HASH_MB)
            .min(self.opts.hash_cap_mb)
            .max(MIN_HASH_MB);
        let Some(limit) = self.max_memory.map(|m| (m >> 20) as usize) else {
            self.engine.set_threads(self.threads);
            self.engine.set_hash_mb(want);
            self.engine.set_solver_table_mb(DEFAULT_TABLE_MB);
            return Ok(());
        };
        let room = limit.saturating_sub(PROCESS_MB);
        // Each thread: its stacks and lists (the first one's are in PROCESS_MB) and its
        // solver table; threads give way before the table shrinks below its least size.
        let fits = |t: usize| t * MIN_SOLVER_MB + (t - 1) * THREAD_MB + MIN_HASH_MB <= room;
        let threads = (1..=self.threads.max(1))
            .take_while(|&t| fits(t))
            .last()
            .unwrap_or(1);
        // A quarter of the room for the solver tables, the rest for the hash table.
        let solver = (room / (4 * threads)).clamp(MIN_SOLVER_MB, DEFAULT_TABLE_MB);
        let hash = room
            .saturating_sub(threads * solver + (threads - 1) * THREAD_MB)
            .clamp(MIN_HASH_MB, want);
        self.engine.set_threads(threads);
        self.engine.set_hash_mb(hash);
        self.engine.set_solver_table_mb(solver);
        let least = PROCESS_MB + MIN_SOLVER_MB + MIN_HASH_MB;
        if limit < least {
            return Err(format!(
                "max_memory {limit} MB is below the {least} MB this engine needs; \
                 it plays on with its least tables ({MIN_HASH_MB} MB each) and one thread"
            ));
        }
        Ok(())
    }

    /// Opens the database the options name, once, before the first move (`INFO folder`
    /// comes after the brain starts); a file that cannot be used is reported and the brain
    /// plays on without it.
    fn open_db(&mut self, out: Out) {
        if self.db_tried {
            return;
        }
        self.db_tried = true;
        let path = match (&self.opts.db, &self.folder) {
            (DbChoice::Off, _) => return,
            (DbChoice::File(p), _) => p.clone(),
            (DbChoice::Folder, Some(dir)) => dir.join(DB_FILE),
            (DbChoice::Folder, None) => {
                out("MESSAGE no INFO folder for the database: playing on without it");
                return;
            }
        };
        match crate::db::Db::open(&path) {
            Ok(db) => self.engine.set_db(Some(db)),
            Err(e) => out(&format!(
                "MESSAGE {}",
                printable(&format!("database {e}; playing on without it"))
            )),
        }
    }

    /// Shows what the database reported (as `MESSAGE` lines).
    fn db_notes(&mut self, out: Out) {
        for note in self.engine.take_db_notes() {
            out(&format!("MESSAGE {}", printable(&note)));
        }
    }

    /// Ends the game: learns from it if it has a known result and a database is open, and
    /// writes it under `INFO folder` (if set, allowed, and the game has moves).
    fn save_record(&mut self, out: Out) {
        if self.started {
            self.engine.learn_game();
            self.db_notes(out);
        }
        let Some(dir) = self.folder.clone().filter(|_| self.opts.write_records) else {
            return;
        };
        let board = self.engine.board();
        if board.moves().is_empty() || !self.started {
            return;
        }
        let mut rec = GameRecord::new(board.rule(), board.size());
        rec.moves = board.moves().to_vec();
        rec.result = GameResult::from_status(self.engine.status());
        let (us, them) = ("wuzi".to_string(), "opponent".to_string());
        (rec.black, rec.white) = match self.own {
            Some(Color::White) => (them, us),
            _ => (us, them),
        };
        self.saved_games += 1;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let name = format!(
            "wuzi-{stamp}-{}-{}.txt",
            std::process::id(),
            self.saved_games
        );
        let path = dir.join(name);
        if let Err(e) =
            std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, rec.to_text()))
        {
            out(&format!(
                "MESSAGE could not save the game to {}: {e}",
                path.display()
            ));
        }
    }
}

fn is_stone_start(c: char) -> bool {
    c.is_ascii_digit() || c == '-'
}

/// Longest message of an `ERROR` or `UNKNOWN` answer, in characters: messages quote the
/// input, and a manager's log should not receive a megabyte line back.
const MAX_MESSAGE: usize = 200;

/// `m` as one short printable line: control characters escaped (`\u{1}`), cut after
/// [`MAX_MESSAGE`] characters with `...`.
fn printable(m: &str) -> String {
    let mut s = String::new();
    for (i, c) in m.chars().enumerate() {
        if i == MAX_MESSAGE {
            s.push_str("...");
            break;
        }
        if c.is_control() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}
