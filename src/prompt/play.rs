//! The player's moves: reading `h8` or `x,y`, playing it, the reason a move is refused,
//! the end of the game, and `undo`.

use super::command::clip;
use super::{Io, Prompt};
use crate::engine::{GameStatus, MoveError};
use crate::notation::{format_h8, parse_h8};
use crate::types::{Color, Pos};
use std::io;

impl Prompt {
    /// Reads a move as the prompt takes it: `h8` by the board's labels, or zero-based
    /// `x,y` counted from the top left as Gomocup does.
    pub(super) fn read_move(&self, text: &str) -> Result<Pos, String> {
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

    pub(super) fn human_move(&mut self, text: &str, io: &mut Io) -> io::Result<Result<(), String>> {
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
            say!(io, "{text} is {}.", format_h8(p, self.size()))?;
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

    pub(super) fn move_error(&self, e: MoveError) -> String {
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
    pub(super) fn announce(&mut self, io: &mut Io) -> io::Result<bool> {
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
        say!(io, "{text} Type new for another game.")?;
        self.learn(io)?;
        Ok(true)
    }

    pub(super) fn undo(&mut self, io: &mut Io) -> io::Result<Result<(), String>> {
        // Undo back to the human's last move, which is taken back too; never into the
        // stones an opening stage set.
        let len = self.engine.board().moves().len() as isize;
        let parity = if self.human == Color::Black { 0 } else { 1 };
        let last = if (len - 1).rem_euclid(2) == parity {
            len - 1
        } else {
            len - 2
        };
        if last < self.opening_stones as isize {
            return Ok(Err(if self.opening_stones > 0 {
                "Nothing to undo: the opening stage's stones stay (type new for another game)."
                    .into()
            } else {
                "Nothing to undo.".into()
            }));
        }
        while self.engine.undo().is_some() {
            if self.engine.board().to_move() == self.human {
                break;
            }
        }
        self.show(io)?;
        Ok(Ok(()))
    }
}
