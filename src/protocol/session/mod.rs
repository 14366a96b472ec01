//! The Gomocup brain's state and command handler: one line in, answer lines out through a
//! callback. No I/O of its own except writing game records when the caller allows it.

mod analysis;
mod block;
mod database;
mod memory;
mod opening;
mod record;
mod settings;
mod steps;

use super::command::{parse_line, Command, ParseError};
use super::report::{self, Detail};
use crate::engine::{Config, Engine, GameStatus, Level};
use crate::search::timeman::TimeControl;
use crate::search::{Info, Limits};
use crate::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use block::Block;
pub use database::{DbChoice, DB_FILE};
use memory::DEFAULT_HASH_MB;
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
            | Command::SoosorvStep(2..=6, _)
            | Command::Block
            | Command::BlockUndo => {
                self.need_game()?;
                self.block = Some(Block::new(cmd));
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
            Command::Swap2Step(step) => {
                self.need_game()?;
                self.swap2_step(step, out)?;
            }
            Command::SoosorvStep(step, fifths) => {
                self.need_game()?;
                self.soosorv_step(step, fifths, &[], out)?;
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
        let mut l = self.tc.limits(
            b.stone_count(),
            b.size() * b.size(),
            &self.engine.config().params,
        );
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
            return self.play_forbidden(out);
        }
        self.play_own(best)?;
        out(&best.to_string());
        Ok(())
    }

    /// Renju black with empty points left but every one forbidden: the protocol has no
    /// pass, and an answer that is not a move reads to a manager as a crash or a loss on
    /// time, so the brain says why in a MESSAGE and plays a forbidden point, which the
    /// manager judges by its rules (a loss for black under renju). An error only when the
    /// board is full.
    fn play_forbidden(&mut self, out: Out<'_>) -> Result<(), String> {
        let b = self.engine.board();
        let Some(p) = b.cells().iter().copied().find(|&p| b.is_empty(p)) else {
            return Err(self.no_move_reason());
        };
        out(&format!(
            "MESSAGE every empty point is forbidden for black; {p} is played, a forbidden \
             point, since there is no pass"
        ));
        let side = b.to_move();
        self.engine.play_unchecked(p).map_err(|e| e.to_string())?;
        self.own = Some(side);
        out(&p.to_string());
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
