//! Front end: the terminal prompt. A game against the engine at once (15x15 freestyle, the
//! engine white, about a second a move); moves in `h8` or `x,y`; `help` lists the rest.
//!
//! Works the same with a pipe as with a terminal: the board and answers go to `out`, search
//! progress to `err` (overwriting one line with `\r` only when `err` is a terminal).

pub mod command;
pub mod view;

use crate::engine::{clock_seed, Engine, GameStatus, Level, MoveError};
use crate::notation::{format_h8, parse_any};
use crate::record::{GameRecord, GameResult};
use crate::search::{mate_distance, Info, Limits};
use crate::types::{Color, Pos, Rule};
use command::{parse, Cmd, HELP};
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// Where the prompt writes.
pub struct Io<'a> {
    /// The game: boards, answers, results.
    pub out: &'a mut dyn Write,
    /// Search progress and warnings.
    pub err: &'a mut dyn Write,
    /// Is `err` a terminal (progress may overwrite itself)?
    pub err_tty: bool,
}

/// The prompt's game and settings.
pub struct Prompt {
    engine: Engine,
    human: Color,
    level: Level,
    seconds: f64,
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
        Ok(Prompt {
            engine,
            human: Color::Black,
            level: Level::Full,
            seconds: 1.0,
        })
    }

    /// Runs until `quit` or the end of `input`.
    pub fn run(&mut self, input: &mut dyn BufRead, io: &mut Io) -> io::Result<()> {
        writeln!(
            io.out,
            "wuzi {}: you play black (X). Type help for commands.",
            env!("CARGO_PKG_VERSION")
        )?;
        self.show(io)?;
        let mut line = String::new();
        loop {
            write!(io.out, "{}> ", self.turn_text())?;
            io.out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 {
                writeln!(io.out)?;
                return Ok(());
            }
            match parse(&line) {
                Ok(None) => {}
                Ok(Some(Cmd::Quit)) => return Ok(()),
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

    fn show(&self, io: &mut Io) -> io::Result<()> {
        let b = self.engine.board();
        write!(io.out, "{}", view::draw(b))?;
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

    fn human_move(&mut self, text: &str, io: &mut Io) -> io::Result<Result<(), String>> {
        if self.engine.status() != GameStatus::Ongoing {
            return Ok(Err("The game is over: type new, undo or load.".into()));
        }
        if self.engine.board().to_move() != self.human {
            return Ok(Err(
                "It is the engine's move: type swap or side to change sides.".into(),
            ));
        }
        let p = match parse_any(text, self.size()) {
            Ok(p) if p.is_none() => return Ok(Err("Passing is not allowed.".into())),
            Ok(p) => p,
            Err(e) => return Ok(Err(format!("Not a move: {e}."))),
        };
        if let Err(e) = self.engine.play(p) {
            return Ok(Err(self.move_error(e)));
        }
        self.show(io)?;
        if !self.announce(io)? {
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

    /// Says how the game ended, if it has. Returns whether it has.
    fn announce(&self, io: &mut Io) -> io::Result<bool> {
        let text = match self.engine.status() {
            GameStatus::Ongoing => return Ok(false),
            GameStatus::Five { winner } if winner == self.human => {
                "Five in a row: you win!".to_string()
            }
            GameStatus::Five { winner } => format!("Five in a row: {winner} (wuzi) wins."),
            GameStatus::Forbidden { winner } => {
                format!("Black played a forbidden point: {winner} wins.")
            }
            GameStatus::Draw => "The board is full: a draw.".into(),
        };
        writeln!(io.out, "{text} Type new for another game.")?;
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
    fn think(&mut self, io: &mut Io) -> io::Result<(Pos, i32, i32)> {
        let limits = self.limits();
        let size = self.size();
        let (err, tty) = (&mut *io.err, io.err_tty);
        let mut report = |info: &Info| {
            let best = info.pv.first().map_or("-".into(), |&p| format_h8(p, size));
            let line = format!(
                "thinking: depth {} best {} eval {}",
                info.depth,
                best,
                score_text(info.score)
            );
            // Progress is a courtesy: a closed stderr must not stop the game.
            let _ = if tty {
                write!(err, "\r{line}\x1b[K").and_then(|_| err.flush())
            } else {
                writeln!(err, "{line}")
            };
        };
        let out = self.engine.think(self.level, &limits, &mut report);
        if tty {
            let _ = write!(io.err, "\r\x1b[K");
        }
        Ok((out.best, out.score, out.depth))
    }

    /// If it is the engine's move, makes it.
    fn engine_turn(&mut self, io: &mut Io) -> io::Result<()> {
        if self.engine.status() != GameStatus::Ongoing
            || self.engine.board().to_move() == self.human
        {
            return Ok(());
        }
        let (best, score, depth) = self.think(io)?;
        if best.is_none() || self.engine.play(best).is_err() {
            writeln!(io.out, "The engine finds no move.")?;
            return Ok(());
        }
        self.show(io)?;
        writeln!(
            io.out,
            "wuzi plays {} (depth {depth}, eval {})",
            format_h8(best, self.size()),
            score_text(score)
        )?;
        self.announce(io)?;
        Ok(())
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

    fn hint(&mut self, io: &mut Io) -> io::Result<Result<(), String>> {
        if self.engine.status() != GameStatus::Ongoing {
            return Ok(Err("The game is over.".into()));
        }
        let (best, score, _) = self.think(io)?;
        if best.is_none() {
            return Ok(Err("No move left.".into()));
        }
        writeln!(
            io.out,
            "Hint: {} (eval {})",
            format_h8(best, self.size()),
            score_text(score)
        )?;
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
        let text = if is_psq(file) {
            match rec.to_psq(&[]) {
                Ok(t) => t,
                Err(e) => return Ok(Err(format!("Cannot save: {e}."))),
            }
        } else {
            rec.to_text()
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
        let parsed = if is_psq(file) {
            GameRecord::from_psq(&text, self.engine.board().rule())
        } else {
            GameRecord::parse(&text)
        };
        let rec = match parsed {
            Ok(r) => r,
            Err(e) => return Ok(Err(format!("Cannot load {file}: {e}."))),
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
        writeln!(io.out, "Loaded {} moves from {file}.", rec.moves.len())?;
        self.show(io)?;
        if !self.announce(io)? {
            self.engine_turn(io)?;
        }
        Ok(Ok(()))
    }
}

fn is_psq(file: &str) -> bool {
    file.to_ascii_lowercase().ends_with(".psq")
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

fn score_text(score: i32) -> String {
    match mate_distance(score) {
        Some(m) if m >= 0 => format!("win in {}", (m + 1) / 2),
        Some(m) => format!("loss in {}", (-m + 1) / 2),
        None => format!("{score:+}"),
    }
}
