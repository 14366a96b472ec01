//! Front end: the terminal prompt. A game against the engine at once (15x15 freestyle, the
//! engine white, about a second a move); moves in `h8` or `x,y`; `help` lists the rest.
//!
//! Works the same with a pipe as with a terminal: the board and answers go to `out` (in
//! colour only when `out` wants it), search progress to `err` (one line overwriting itself
//! only when `err` is a terminal).

/// Writes a message to the player (`format!`'s arguments) on `io.out`, its lines broken
/// between words to fit [`text::WIDTH`] columns.
macro_rules! say {
    ($io:expr, $($arg:tt)*) => {
        writeln!($io.out, "{}", $crate::prompt::text::wrap(&format!($($arg)*)))
    };
}

mod command;
mod file;
pub mod input;
mod memory;
mod opening;
mod play;
mod review;
mod text;
mod think;
mod verdict;
mod view;

use crate::engine::opening::{Opening, OpeningRule, Player};
use crate::engine::{clock_seed, Engine, GameStatus, Level, SizeError, DEFAULT_RANDOM_MARGIN};
use crate::types::{Color, Pos, Rule};
use command::{parse, Cmd, HELP, MAX_LINE};
use input::{Input, Read};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use text::{level_text, stone_char, vary_text};

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

/// The prompt's game and settings.
pub struct Prompt {
    engine: Engine,
    human: Color,
    level: Level,
    seconds: f64,
    interrupt: Interrupt,
    /// The opening rule of new games.
    opening_rule: OpeningRule,
    /// The opening stage under way, if any.
    opening: Option<Opening>,
    /// The player's seat in the opening stage (the first player when they began as black).
    seat: Player,
    /// Stones the game's opening stage set, which `undo` keeps.
    opening_stones: usize,
    /// The game's finished opening stage, told in its records.
    played_opening: Option<Opening>,
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

impl Prompt {
    /// A 15x15 freestyle game, human black, full strength at one second a move, varying
    /// among near-equal moves ([`DEFAULT_RANDOM_MARGIN`]) with a seed from the clock.
    pub fn new() -> Result<Prompt, SizeError> {
        let mut engine = Engine::new(15, Rule::Freestyle)?;
        engine.set_hash_mb(64);
        engine.set_seed(clock_seed());
        engine.set_random_margin(Some(DEFAULT_RANDOM_MARGIN));
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
            opening_rule: OpeningRule::Free,
            opening: None,
            seat: Player::First,
            opening_stones: 0,
            played_opening: None,
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
        say!(
            io,
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
                    say!(io, "(Ctrl-C again, or quit, to leave.)")?;
                    continue;
                }
            };
            let line = match std::str::from_utf8(&bytes) {
                Ok(l) => l,
                Err(_) => {
                    say!(io, "That line is not UTF-8 text, so it was ignored (type help for the commands)."
                    )?;
                    continue;
                }
            };
            let chars = line.trim().chars().count();
            if chars > MAX_LINE {
                say!(io, "That line is {chars} characters long; commands are shorter than {MAX_LINE}, so it was ignored."
                )?;
                continue;
            }
            if self.in_opening() && self.opening_line(line, io)?.is_some() {
                continue;
            }
            match parse(line) {
                Ok(None) => {}
                Ok(Some(Cmd::Quit)) => return self.learn(io),
                Ok(Some(cmd)) => {
                    if let Err(reason) = self.execute(cmd, io)? {
                        say!(io, "{reason}")?;
                    }
                }
                Err(reason) => say!(io, "{reason}")?,
            }
        }
    }

    /// Runs one command. The outer error is an I/O failure; the inner one a reason to show.
    fn execute(&mut self, cmd: Cmd, io: &mut Io) -> io::Result<Result<(), String>> {
        if self.in_opening() && matches!(cmd, Cmd::Undo | Cmd::Hint | Cmd::Swap | Cmd::Side(_)) {
            let asked = self.opening.as_ref().map(|o| o.expect().to_string());
            return Ok(Err(format!(
                "Not in the opening stage (type new to start again); now: {}.",
                asked.unwrap_or_default()
            )));
        }
        match cmd {
            Cmd::Move(text) => return self.human_move(&text, io),
            Cmd::Undo => return self.undo(io),
            Cmd::Hint => return self.hint(io),
            Cmd::New => self.restart(None, None, io)?,
            Cmd::Swap => {
                self.human = !self.human;
                say!(io, "You now play {}.", self.human)?;
                self.engine_turn(io)?;
            }
            Cmd::Side(c) => {
                self.human = c;
                say!(io, "You play {c}.")?;
                self.engine_turn(io)?;
            }
            Cmd::Level(l) => {
                self.level = l;
                say!(io, "Level: {}.", level_text(l))?;
            }
            Cmd::Rule(r, o) => {
                let old = std::mem::replace(&mut self.opening_rule, o);
                if let Err(e) = o.check_size(self.size()) {
                    self.opening_rule = old;
                    return Ok(Err(format!("{e}.")));
                }
                self.restart(Some(r), None, io)?
            }
            Cmd::Size(n) => self.restart(None, Some(n), io)?,
            Cmd::Time(t) => {
                self.seconds = t;
                say!(io, "The engine thinks {t} s a move.")?;
            }
            Cmd::Vary(v) => {
                self.engine.set_random_margin(v);
                say!(io, "{}.", vary_text(v))?;
            }
            Cmd::Save(file) => return self.save(&file, io),
            Cmd::Load(file) => return self.load(&file, io),
            Cmd::Board => self.show(io)?,
            Cmd::Db => self.show_db(io)?,
            Cmd::Review(ms) => return self.review(ms, io),
            Cmd::Help => say!(io, "{HELP}")?,
            Cmd::Quit => {}
        }
        Ok(Ok(()))
    }

    fn size(&self) -> usize {
        self.engine.board().size()
    }

    fn turn_text(&self) -> String {
        let side = self.engine.board().to_move();
        if self.in_opening() {
            "opening ".into()
        } else if self.engine.status() != GameStatus::Ongoing {
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
        let you = match &self.opening {
            Some(o) if !o.is_over() => {
                let c = o.colour_of(self.seat);
                format!("the {} ({c} for now)", self.seat)
            }
            _ => format!("{} ({})", self.human, stone_char(self.human)),
        };
        let b = self.engine.board();
        write!(io.out, "{}", view::draw(b, &marks))?;
        let opening = match self.opening_rule {
            OpeningRule::Free => String::new(),
            o => format!(" ({o})"),
        };
        say!(
            io,
            "{} {}x{}{opening}, move {}; you: {you}; engine: {}{}",
            b.rule(),
            b.size(),
            b.size(),
            b.ply() + 1,
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
        if b.rule().forbids(b.to_move()) && self.engine.status() == GameStatus::Ongoing {
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

    fn restart(&mut self, rule: Option<Rule>, size: Option<usize>, io: &mut Io) -> io::Result<()> {
        let rule = rule.unwrap_or(self.engine.board().rule());
        let size = size.unwrap_or(self.size());
        if let Err(e) = self.opening_rule.check_size(size) {
            say!(io, "{e}.")?;
            return Ok(());
        }
        if let Err(e) = self.engine.new_game(size, rule) {
            say!(io, "{e}")?;
            return Ok(());
        }
        self.opening_stones = 0;
        self.played_opening = None;
        if let Err(e) = self.start_opening() {
            say!(io, "{e}.")?;
            self.opening = None;
        }
        if self.opening.is_some() {
            say!(
                io,
                "New game: {rule}, {size}x{size}, opening rule {}; you begin as the {} player.",
                self.opening_rule,
                if self.seat == Player::First {
                    "first"
                } else {
                    "second"
                }
            )?;
            return self.opening_goes_on(io);
        }
        say!(io, "New game: {rule}, {size}x{size}.")?;
        self.show(io)?;
        self.engine_turn(io)
    }
}
