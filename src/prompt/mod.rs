//! Front end: the terminal prompt. A game against the engine at once (15x15 freestyle, the
//! engine white, about a second a move); moves in `h8` or `x,y`; `help` lists the rest.
//!
//! Works the same with a pipe as with a terminal: the board and answers go to `out` (in
//! colour only when `out` wants it), search progress to `err` (one line overwriting itself
//! only when `err` is a terminal).

pub mod command;
pub mod input;
mod memory;
pub mod verdict;
pub mod view;

use crate::engine::{clock_seed, Engine, GameStatus, Level, MoveError};
use crate::notation::{format_h8, parse_h8};
use crate::record::{Format, GameRecord, GameResult};
use crate::review::{review_game, Report, ReviewLimits};
use crate::search::{Info, Limits, Outcome};
use crate::types::{Color, Pos, Rule};
use command::{clip, clip_at, parse, Cmd, HELP, MAX_LINE};
use input::{Input, Read};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;
use verdict::{ordinal, Verdict};

/// Where the prompt writes.
pub struct Io<'a> {
    /// The game: boards, answers, results.
    pub out: &'a mut dyn Write,
    /// Search progress and warnings.
    pub err: &'a mut dyn Write,
    /// Is `err` a terminal (progress may overwrite itself)?
    pub err_tty: bool,
    /// Does `out` want colours (a terminal, and `NO_COLOR` unset)?
    pub color: bool,
}

/// Moves of a principal variation shown in a message.
const PV_SHOWN: usize = 10;

/// The prompt's game and settings.
pub struct Prompt {
    engine: Engine,
    human: Color,
    level: Level,
    seconds: f64,
    interrupt: Interrupt,
}

/// What a Ctrl-C handler shares with the prompt: the first Ctrl-C during a think stops it
/// (the engine plays its best move so far), a second one quits; at the prompt, Ctrl-C
/// twice in a row quits. Typing a line starts the count again.
#[derive(Clone)]
pub struct Interrupt {
    /// The engine's stop flag.
    stop: Arc<AtomicBool>,
    /// Is the engine thinking?
    thinking: Arc<AtomicBool>,
    /// Ctrl-C presses since the player's last line.
    presses: Arc<AtomicU32>,
}

impl Interrupt {
    /// A Ctrl-C (SIGINT) from outside the prompt's own reading: stops a think the first
    /// time. Returns whether the program should quit instead.
    pub fn press(&self) -> bool {
        let n = self.presses.fetch_add(1, Ordering::SeqCst) + 1;
        if n == 1 && self.thinking.load(Ordering::SeqCst) {
            self.stop.store(true, Ordering::SeqCst);
            false
        } else {
            true
        }
    }
}

/// The prompt's `vary` margin at start: a small one, so that a line that beat the engine once
/// need not win again, at next to no cost in strength (root scores within 30 are about a
/// tenth of an open three apart).
pub const DEFAULT_VARY: i32 = 30;

impl Prompt {
    /// A 15x15 freestyle game, human black, full strength at one second a move, varying
    /// among near-equal moves ([`DEFAULT_VARY`]) with a seed from the clock.
    pub fn new() -> Result<Prompt, String> {
        let mut engine = Engine::new(15, Rule::Freestyle).map_err(|e| e.to_string())?;
        engine.set_hash_mb(64);
        engine.set_seed(clock_seed());
        engine.set_random_margin(Some(DEFAULT_VARY));
        let interrupt = Interrupt {
            stop: engine.stop_flag(),
            thinking: Arc::new(AtomicBool::new(false)),
            presses: Arc::new(AtomicU32::new(0)),
        };
        Ok(Prompt {
            engine,
            human: Color::Black,
            level: Level::Full,
            seconds: 1.0,
            interrupt,
        })
    }

    /// Plays with `eval` (the engine's default: the built-in net on 15x15 freestyle,
    /// standard and renju).
    pub fn set_eval(&mut self, eval: crate::eval::Evaluation) {
        self.engine.set_eval(eval);
    }

    /// The handle a Ctrl-C handler calls ([`Interrupt::press`]).
    pub fn interrupt(&self) -> Interrupt {
        self.interrupt.clone()
    }

    /// Runs until `quit`, the end of `input`, or Ctrl-C twice.
    pub fn run(&mut self, input: &mut dyn Input, io: &mut Io) -> io::Result<()> {
        let board = self.engine.board();
        let eval = self
            .engine
            .config()
            .eval
            .describe(board.size(), board.rule());
        writeln!(
            io.out,
            "wuzi {} ({eval}): you play black (X). Type help for commands.",
            env!("CARGO_PKG_VERSION")
        )?;
        self.show(io)?;
        loop {
            let prompt = format!("{}> ", self.turn_text());
            let bytes = match input.read(&prompt, io.out)? {
                Read::Line(bytes) => {
                    self.interrupt.presses.store(0, Ordering::SeqCst);
                    bytes
                }
                Read::End => return self.learn(io),
                Read::Interrupted => {
                    if self.interrupt.presses.fetch_add(1, Ordering::SeqCst) >= 1 {
                        return self.learn(io);
                    }
                    writeln!(io.out, "(Ctrl-C again, or quit, to leave.)")?;
                    continue;
                }
            };
            let line = match std::str::from_utf8(&bytes) {
                Ok(l) => l,
                Err(_) => {
                    writeln!(
                        io.out,
                        "That line is not UTF-8 text, so it was ignored (type help for the commands)."
                    )?;
                    continue;
                }
            };
            let chars = line.trim().chars().count();
            if chars > MAX_LINE {
                writeln!(
                    io.out,
                    "That line is {chars} characters long; commands are shorter than {MAX_LINE}, so it was ignored."
                )?;
                continue;
            }
            match parse(line) {
                Ok(None) => {}
                Ok(Some(Cmd::Quit)) => return self.learn(io),
                Ok(Some(cmd)) => {
                    if let Err(reason) = self.execute(cmd, io)? {
                        writeln!(io.out, "{reason}")?;
                    }
                }
                Err(reason) => writeln!(io.out, "{reason}")?,
            }
        }
    }

    /// Runs one command. The outer error is an I/O failure; the inner one a reason to show.
    fn execute(&mut self, cmd: Cmd, io: &mut Io) -> io::Result<Result<(), String>> {
        match cmd {
            Cmd::Move(text) => return self.human_move(&text, io),
            Cmd::Undo => return self.undo(io),
            Cmd::Hint => return self.hint(io),
            Cmd::New => self.restart(None, None, io)?,
            Cmd::Swap => {
                self.human = !self.human;
                writeln!(io.out, "You now play {}.", self.human)?;
                self.engine_turn(io)?;
            }
            Cmd::Side(c) => {
                self.human = c;
                writeln!(io.out, "You play {c}.")?;
                self.engine_turn(io)?;
            }
            Cmd::Level(l) => {
                self.level = l;
                writeln!(io.out, "Level: {}.", level_text(l))?;
            }
            Cmd::Rule(r) => self.restart(Some(r), None, io)?,
            Cmd::Size(n) => self.restart(None, Some(n), io)?,
            Cmd::Time(t) => {
                self.seconds = t;
                writeln!(io.out, "The engine thinks {t} s a move.")?;
            }
            Cmd::Vary(v) => {
                self.engine.set_random_margin(v);
                writeln!(io.out, "{}.", vary_text(v))?;
            }
            Cmd::Save(file) => return self.save(&file, io),
            Cmd::Load(file) => return self.load(&file, io),
            Cmd::Board => self.show(io)?,
            Cmd::Db => self.show_db(io)?,
            Cmd::Review(ms) => return self.review(ms, io),
            Cmd::Help => writeln!(io.out, "{HELP}")?,
            Cmd::Quit => {}
        }
        Ok(Ok(()))
    }

    fn size(&self) -> usize {
        self.engine.board().size()
    }

    fn turn_text(&self) -> String {
        let side = self.engine.board().to_move();
        if self.engine.status() != GameStatus::Ongoing {
            "game over ".into()
        } else if side == self.human {
            format!("{side} ({}) to move ", stone_char(side))
        } else {
            String::new()
        }
    }

    fn show(&mut self, io: &mut Io) -> io::Result<()> {
        let marks = view::Marks {
            forbidden: self.forbidden_shown(),
            five: self.five(),
            color: io.color,
        };
        let b = self.engine.board();
        write!(io.out, "{}", view::draw(b, &marks))?;
        writeln!(
            io.out,
            "{} {}x{}, move {}; you: {} ({}); engine: {}{}",
            b.rule(),
            b.size(),
            b.size(),
            b.ply() + 1,
            self.human,
            stone_char(self.human),
            level_text(self.level),
            match (self.level, self.engine.config().random_margin) {
                (Level::Full | Level::Depth(_), Some(m)) => format!(", vary {m}"),
                _ => String::new(),
            }
        )
    }

    /// Black's forbidden points when black is to move in a renju game that goes on.
    fn forbidden_shown(&mut self) -> Vec<Pos> {
        let b = self.engine.board();
        if b.rule().has_forbidden()
            && b.to_move() == Color::Black
            && self.engine.status() == GameStatus::Ongoing
        {
            self.engine.forbidden_points()
        } else {
            Vec::new()
        }
    }

    /// The winning five, if the game ended with one.
    fn five(&self) -> Vec<Pos> {
        match self.engine.status() {
            GameStatus::Five { winner } => self.engine.board().winning_line(winner),
            _ => Vec::new(),
        }
    }

    /// Reads a move as the prompt takes it: `h8` by the board's labels, or zero-based
    /// `x,y` counted from the top left as Gomocup does.
    fn read_move(&self, text: &str) -> Result<Pos, String> {
        let n = self.size();
        let Some((x, y)) = text.split_once(',') else {
            return parse_h8(text, n).map_err(|e| format!("Not a move: {}.", clip(&e.to_string())));
        };
        let num = |t: &str| t.trim().parse::<i64>().ok();
        let (Some(x), Some(y)) = (num(x), num(y)) else {
            return Err(format!(
                "Not a move: {} (x,y wants two numbers).",
                clip(text)
            ));
        };
        if (x, y) == (-1, -1) {
            return Err("Passing is not allowed.".into());
        }
        let on = |v: i64| (0..n as i64).contains(&v);
        if !on(x) || !on(y) {
            return Err(format!(
                "{},{} is off the {n}x{n} board: x and y run from 0 to {} (type help).",
                clip(&x.to_string()),
                clip(&y.to_string()),
                n - 1
            ));
        }
        Ok(Pos::new(x as usize, y as usize))
    }

    fn human_move(&mut self, text: &str, io: &mut Io) -> io::Result<Result<(), String>> {
        if self.engine.status() != GameStatus::Ongoing {
            return Ok(Err("The game is over: type new, undo or load.".into()));
        }
        if self.engine.board().to_move() != self.human {
            return Ok(Err(
                "It is the engine's move: type swap or side to change sides.".into(),
            ));
        }
        let p = match self.read_move(text) {
            Ok(p) => p,
            Err(e) => return Ok(Err(e)),
        };
        if let Err(e) = self.engine.play(p) {
            return Ok(Err(self.move_error(e)));
        }
        if text.contains(',') {
            writeln!(io.out, "{text} is {}.", format_h8(p, self.size()))?;
        }
        // The board is drawn once a turn: after the engine's reply, or now if it has none.
        if self.engine.status() != GameStatus::Ongoing {
            self.show(io)?;
            self.announce(io)?;
        } else {
            self.engine_turn(io)?;
        }
        Ok(Ok(()))
    }

    fn move_error(&self, e: MoveError) -> String {
        let n = self.size();
        match e {
            MoveError::OffBoard(p) => format!("{p} is off the {n}x{n} board."),
            MoveError::Occupied(p) => format!("{} is already taken.", format_h8(p, n)),
            MoveError::Forbidden(p) => format!(
                "{} is forbidden for black under renju (double three, double four or overline).",
                format_h8(p, n)
            ),
            MoveError::GameOver => "The game is over.".into(),
        }
    }

    /// Says how the game ended, if it has, and learns from it. Returns whether it has.
    fn announce(&mut self, io: &mut Io) -> io::Result<bool> {
        let n = self.size();
        let line = |cells: &[Pos]| {
            let words: Vec<String> = cells.iter().map(|&p| format_h8(p, n)).collect();
            words.join(" ")
        };
        let text = match self.engine.status() {
            GameStatus::Ongoing => return Ok(false),
            GameStatus::Five { winner } if winner == self.human => {
                format!("Five in a row ({}): you win!", line(&self.five()))
            }
            GameStatus::Five { winner } => {
                format!(
                    "Five in a row ({}): {winner} (wuzi) wins.",
                    line(&self.five())
                )
            }
            GameStatus::Forbidden { winner } => {
                format!("Black played a forbidden point: {winner} wins.")
            }
            GameStatus::Draw => "The board is full: a draw.".into(),
        };
        writeln!(io.out, "{text} Type new for another game.")?;
        self.learn(io)?;
        Ok(true)
    }

    fn limits(&self) -> Limits {
        let hard = Duration::from_secs_f64(self.seconds);
        Limits {
            depth: None,
            nodes: None,
            soft_time: Some(hard / 2),
            hard_time: Some(hard),
        }
    }

    /// Thinks for the side to move, showing progress on `err`.
    fn think(&mut self, io: &mut Io) -> io::Result<Outcome> {
        let limits = self.limits();
        let size = self.size();
        let mover = self.engine.board().to_move();
        let (err, tty) = (&mut *io.err, io.err_tty);
        let mut report = |info: &Info| {
            let line = progress_line(info, mover, size);
            // Progress is a courtesy: a closed stderr must not stop the game.
            let _ = if tty {
                write!(err, "\r{line}\x1b[K").and_then(|_| err.flush())
            } else {
                writeln!(err, "{line}")
            };
        };
        let thinking = self.interrupt.thinking.clone();
        thinking.store(true, Ordering::SeqCst);
        let out = self.engine.think(self.level, &limits, &mut report);
        thinking.store(false, Ordering::SeqCst);
        if tty {
            let _ = write!(io.err, "\r\x1b[K");
        }
        self.db_notes(io)?;
        Ok(out)
    }

    /// Was the last think stopped by Ctrl-C?
    fn stopped(&self) -> bool {
        self.interrupt.presses.load(Ordering::SeqCst) > 0
    }

    /// If it is the engine's move, makes it.
    fn engine_turn(&mut self, io: &mut Io) -> io::Result<()> {
        if self.engine.status() != GameStatus::Ongoing
            || self.engine.board().to_move() == self.human
        {
            return Ok(());
        }
        let mover = self.engine.board().to_move();
        let out = self.think(io)?;
        if out.best.is_none() || self.engine.play(out.best).is_err() {
            writeln!(io.out, "The engine finds no move.")?;
            return Ok(());
        }
        self.show(io)?;
        let n = self.size();
        let mut text = format!("wuzi plays {}", format_h8(out.best, n));
        if self.engine.status() == GameStatus::Ongoing {
            text += &self.judgement(&out, mover);
        }
        writeln!(io.out, "{text}.")?;
        if self.stopped() {
            writeln!(
                io.out,
                "(You stopped the search with Ctrl-C: that was its best move so far. Ctrl-C again quits.)"
            )?;
        }
        self.announce(io)?;
        Ok(())
    }

    /// What the engine's move means for the player, after `wuzi plays x`: forced, a chance,
    /// or a forced win counted in the winner's moves; and whether a random pick among
    /// near-equal moves chose it.
    fn judgement(&self, out: &Outcome, mover: Color) -> String {
        if out.forced {
            return ", forced: the only move that does not lose at once".into();
        }
        if matches!(self.level, Level::Random | Level::Greedy) {
            return format!(" ({} level, no search)", level_text(self.level));
        }
        let n = self.size();
        let line = pv_text(&out.pv, n);
        let mut text = match Verdict::of(
            out.score,
            self.engine.win_chance(out.score),
            mover,
            self.human,
        ) {
            Verdict::Chance { percent, .. } => {
                format!(
                    " (searched {} plies): your chance about {percent}%",
                    out.depth
                )
            }
            Verdict::Win { winner, moves } if winner == mover => format!(
                ". It sees a forced win: its five comes in {} more of its moves along {line}",
                moves - 1
            ),
            Verdict::Win { moves, .. } => format!(
                ". It sees a forced win for you: your five can come on your {} move from here",
                ordinal(moves)
            ),
        };
        if let Some((best, score)) = out.instead_of {
            let own = self.engine.win_chance(score);
            let percent = verdict::chance(score, own, mover, self.human).unwrap_or(50);
            text += &format!(
                ". A random pick among its near-equal moves (vary {}): its best was {} (your chance about {percent}%)",
                self.engine.config().random_margin.unwrap_or(0),
                format_h8(best, n)
            );
        }
        text
    }

    fn undo(&mut self, io: &mut Io) -> io::Result<Result<(), String>> {
        // Undo back to the human's last move, which is taken back too.
        let human_moved = {
            let b = self.engine.board();
            let first = if self.human == Color::Black { 0 } else { 1 };
            b.moves().len() > first
        };
        if !human_moved {
            return Ok(Err("Nothing to undo.".into()));
        }
        while self.engine.undo().is_some() {
            if self.engine.board().to_move() == self.human {
                break;
            }
        }
        self.show(io)?;
        Ok(Ok(()))
    }

    /// Reviews the game so far (`crate::review`): its blunders and missed wins, as the
    /// solver finds them, then the first mistake.
    fn review(&mut self, ms: u64, io: &mut Io) -> io::Result<Result<(), String>> {
        let b = self.engine.board();
        let (size, rule, moves) = (b.size(), b.rule(), b.moves().to_vec());
        if moves.is_empty() {
            return Ok(Err("No moves to review yet.".into()));
        }
        writeln!(
            io.out,
            "Reviewing {} moves, up to {ms} ms a solve.",
            moves.len()
        )?;
        let mut report = Report::new(size, false);
        let mut written = Ok(());
        let limits = ReviewLimits::new(Duration::from_millis(ms));
        let reviewed = review_game(size, rule, &moves, &limits, &mut |m| {
            if let (Some(line), Ok(())) = (report.line(m), &written) {
                written = writeln!(io.out, "{line}");
            }
        });
        written?;
        if let Err(e) = reviewed {
            return Ok(Err(format!("Cannot review this game: {e}.")));
        }
        writeln!(io.out, "{}", report.summary())?;
        Ok(Ok(()))
    }

    fn hint(&mut self, io: &mut Io) -> io::Result<Result<(), String>> {
        if self.engine.status() != GameStatus::Ongoing {
            return Ok(Err("The game is over.".into()));
        }
        let mover = self.engine.board().to_move();
        let mut out = self.think(io)?;
        // A hint gives the search's best move, not the engine's random pick.
        if let Some((best, score)) = out.instead_of.take() {
            out.best = best;
            out.score = score;
            out.pv = vec![best];
        }
        if out.best.is_none() {
            return Ok(Err("No move left.".into()));
        }
        let n = self.size();
        let best = format_h8(out.best, n);
        let text = if out.forced {
            format!("Hint: {best}, forced: the only move that does not lose at once.")
        } else if matches!(self.level, Level::Random | Level::Greedy) {
            format!(
                "Hint: {best} ({} level, no search).",
                level_text(self.level)
            )
        } else {
            let line = pv_text(&out.pv, n);
            match Verdict::of(out.score, self.engine.win_chance(out.score), mover, mover) {
                Verdict::Chance { side, percent } if side == self.human => {
                    format!("Hint: {best}: your chance about {percent}%, along {line}.")
                }
                Verdict::Chance { percent, .. } => {
                    format!("Hint: {best}: {mover}'s chance about {percent}%, along {line}.")
                }
                Verdict::Win { winner, moves } if winner == mover => format!(
                    "Hint: {best}, a forced win: five on the {} move of {mover}, this one counted, along {line}.",
                    ordinal(moves)
                ),
                Verdict::Win { winner, moves } => format!(
                    "Hint: {best}; {winner} has a forced win all the same: five on its {} move along {line}.",
                    ordinal(moves)
                ),
            }
        };
        writeln!(io.out, "{text}")?;
        if self.stopped() {
            writeln!(
                io.out,
                "(You stopped the search with Ctrl-C: that was its best move so far.)"
            )?;
        }
        Ok(Ok(()))
    }

    fn restart(&mut self, rule: Option<Rule>, size: Option<usize>, io: &mut Io) -> io::Result<()> {
        let rule = rule.unwrap_or(self.engine.board().rule());
        let size = size.unwrap_or(self.size());
        if let Err(e) = self.engine.new_game(size, rule) {
            writeln!(io.out, "{e}")?;
            return Ok(());
        }
        writeln!(io.out, "New game: {rule}, {size}x{size}.")?;
        self.show(io)?;
        self.engine_turn(io)
    }

    fn record(&self) -> GameRecord {
        let b = self.engine.board();
        let mut rec = GameRecord::new(b.rule(), b.size());
        rec.moves = b.moves().to_vec();
        rec.result = GameResult::from_status(self.engine.status());
        let (you, wuzi) = ("you".to_string(), "wuzi".to_string());
        (rec.black, rec.white) = match self.human {
            Color::Black => (you, wuzi),
            Color::White => (wuzi, you),
        };
        rec
    }

    fn save(&self, file: &str, io: &mut Io) -> io::Result<Result<(), String>> {
        let rec = self.record();
        let format = Format::from_word(&extension(file)).unwrap_or(Format::Text);
        let text = match rec.write(format) {
            Ok(t) => t,
            Err(e) => return Ok(Err(format!("Cannot save: {e}."))),
        };
        if let Err(e) = std::fs::write(file, text) {
            return Ok(Err(format!("Cannot write {file}: {e}.")));
        }
        writeln!(io.out, "Saved {} moves to {file}.", rec.moves.len())?;
        Ok(Ok(()))
    }

    fn load(&mut self, file: &str, io: &mut Io) -> io::Result<Result<(), String>> {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => return Ok(Err(format!("Cannot read {file}: {e}."))),
        };
        // The format is told by the text, not the name; a .psq names no rule.
        let (rec, games) = match GameRecord::read_any(&text, self.engine.board().rule()) {
            Ok(r) => r,
            Err(e) => {
                return Ok(Err(format!(
                    "Cannot load {file}: {}.",
                    clip_at(&e.to_string(), 200)
                )))
            }
        };
        // On a bad move list, put the old game back.
        let b = self.engine.board();
        let (old_size, old_rule, old_moves) = (b.size(), b.rule(), b.moves().to_vec());
        let loaded = match self.engine.new_game(rec.size, rec.rule) {
            Ok(()) => self
                .engine
                .set_position(&rec.moves)
                .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = loaded {
            let _ = self.engine.new_game(old_size, old_rule);
            let _ = self.engine.set_position(&old_moves);
            return Ok(Err(format!("Cannot load {file}: {e}.")));
        }
        let of = if games > 1 {
            format!(" (the first of its {games} games)")
        } else {
            String::new()
        };
        writeln!(io.out, "Loaded {} moves from {file}{of}.", rec.moves.len())?;
        // One board: the engine's reply draws it if the engine is to move.
        if self.engine.status() != GameStatus::Ongoing
            || self.engine.board().to_move() == self.human
        {
            self.show(io)?;
            self.announce(io)?;
        } else {
            self.engine_turn(io)?;
        }
        Ok(Ok(()))
    }
}

/// A file name's extension in lower case (empty if none).
fn extension(file: &str) -> String {
    std::path::Path::new(file)
        .extension()
        .map_or(String::new(), |e| e.to_string_lossy().to_ascii_lowercase())
}

fn stone_char(c: Color) -> char {
    match c {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

fn level_text(l: Level) -> String {
    match l {
        Level::Random => "random".into(),
        Level::Greedy => "greedy".into(),
        Level::Depth(d) => format!("depth {d}"),
        Level::Full => "full".into(),
    }
}

fn vary_text(v: Option<i32>) -> String {
    match v {
        Some(m) => format!("The engine picks at random among moves within {m} of the best"),
        None => "The engine always plays its best move".into(),
    }
}

/// A principal variation in `h8` notation, at most [`PV_SHOWN`] moves.
fn pv_text(pv: &[Pos], size: usize) -> String {
    let mut words: Vec<String> = pv
        .iter()
        .take(PV_SHOWN)
        .map(|&p| format_h8(p, size))
        .collect();
    if pv.len() > PV_SHOWN {
        words.push(format!("(+{} more)", pv.len() - PV_SHOWN));
    }
    words.join(" ")
}

/// One line of search progress: depth, the thinker's chance (or forced win), time, speed
/// and the principal variation.
fn progress_line(info: &Info, mover: Color, size: usize) -> String {
    let judged = match Verdict::of(info.score, info.chance, mover, mover) {
        Verdict::Chance { side, percent } => format!("{side} {percent}%"),
        Verdict::Win { winner, moves } => format!("{winner} wins, five in {moves}"),
    };
    format!(
        "thinking: depth {:>2}  {judged}  {:.1} s  {} knodes/s  {}",
        info.depth,
        info.elapsed.as_secs_f64(),
        info.nps() / 1000,
        pv_text(&info.pv, size)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;

    fn outcome(best: Pos, score: i32) -> Outcome {
        Outcome {
            best,
            score,
            depth: 9,
            nodes: 1000,
            elapsed: Duration::from_millis(100),
            pv: vec![best],
            root_scores: Vec::new(),
            forced: false,
            instead_of: None,
            dropped: Vec::new(),
        }
    }

    /// The engine's move as the player reads it: the random pick among near-equal moves
    /// named with the search's best, a forced reply said to be forced, a proven win counted
    /// in the winner's moves. The engine is white, the player black.
    #[test]
    fn judgements_of_the_engines_move() {
        let p = Prompt::new().unwrap();
        let (f8, i7) = (Pos::new(5, 7), Pos::new(8, 8));
        let mut out = outcome(i7, 20);
        out.instead_of = Some((f8, 40));
        let text = p.judgement(&out, Color::White);
        // The chance reads the score on the scale of the evaluation searched with: the
        // built-in net on 15x15 freestyle, 400 a unit of logit (20: 51.2% for white).
        assert!(text.contains("your chance about 49%"), "{text}");
        assert!(
            text.ends_with(
                "A random pick among its near-equal moves (vary 30): its best was f8 (your chance about 48%)"
            ),
            "{text}"
        );
        let mut forced = outcome(f8, 0);
        forced.forced = true;
        assert_eq!(
            p.judgement(&forced, Color::White),
            ", forced: the only move that does not lose at once"
        );
        let won = outcome(f8, WIN - 5);
        let text = p.judgement(&won, Color::White);
        assert!(
            text.contains("its five comes in 2 more of its moves along f8"),
            "{text}"
        );
        let lost = outcome(f8, -(WIN - 4));
        let text = p.judgement(&lost, Color::White);
        assert!(
            text.contains("your five can come on your 2nd move"),
            "{text}"
        );
    }
}
