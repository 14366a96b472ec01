//! The manager's referee: the authoritative game, judged by the library's own rules
//! (`wuzi::Engine::play` refuses off-board, occupied and renju-forbidden points;
//! `Engine::status` says when a five ends the game; `Board::is_forbidden` lists black's
//! forbidden points). Also the strict reading of an engine's `x,y`, and random openings.

use crate::dice::Dice;
use wuzi::engine::Config;
use wuzi::{Color, Engine, GameStatus, Pos, Rule};

/// The game as the manager holds it.
pub struct Referee {
    engine: Engine,
}

impl Referee {
    /// An empty `size` board under `rule`. The engine is only a referee: its table is the
    /// smallest there is.
    pub fn new(size: usize, rule: Rule) -> Result<Referee, String> {
        let config = Config {
            hash_mb: 1,
            ..Config::default()
        };
        Ok(Referee {
            engine: Engine::with_config(size, rule, config).map_err(|e| e.to_string())?,
        })
    }

    /// Board side.
    pub fn size(&self) -> usize {
        self.engine.board().size()
    }

    /// The moves so far, black first.
    pub fn moves(&self) -> &[Pos] {
        self.engine.board().moves()
    }

    /// Number of stones on the board (the game has no passes).
    pub fn len(&self) -> usize {
        self.moves().len()
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.engine.board().to_move()
    }

    /// The colour of the stone on `p`, if any.
    pub fn stone(&self, p: Pos) -> Option<Color> {
        self.engine.board().stone(p)
    }

    /// How the game stands.
    pub fn status(&self) -> GameStatus {
        self.engine.status()
    }

    /// Plays `p` for the side to move if it is legal; says why not otherwise.
    pub fn play(&mut self, p: Pos) -> Result<GameStatus, String> {
        self.engine.play(p).map_err(|e| e.to_string())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Pos> {
        self.engine.undo()
    }

    /// Black's forbidden points now (empty outside renju), by `Board::is_forbidden`.
    pub fn forbidden_points(&self) -> Vec<Pos> {
        let mut board = self.engine.board().clone();
        let size = self.size();
        let mut out = Vec::new();
        for y in 0..size {
            for x in 0..size {
                let p = Pos::new(x, y);
                if board.is_empty(p) && board.is_forbidden(p) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Plays up to `n` random stones near the centre, alternately black and white, none of
    /// which makes a five and (under renju) no black one forbidden. Returns how many.
    pub fn random_stones(&mut self, dice: &mut Dice, n: usize) -> usize {
        let size = self.size();
        let span = size.min(7);
        let lo = (size - span) / 2;
        let mut placed = 0;
        for _ in 0..n {
            let ok = (0..60).any(|_| {
                let p = Pos::new(
                    lo + dice.below(span as u64) as usize,
                    lo + dice.below(span as u64) as usize,
                );
                let side = self.to_move();
                self.engine.board().is_empty(p)
                    && !self.engine.board().makes_five(p, side)
                    && self.play(p) == Ok(GameStatus::Ongoing)
            });
            if !ok {
                break;
            }
            placed += 1;
        }
        placed
    }
}

/// Reads an engine's move strictly: two unsigned decimal numbers joined by one comma, no
/// spaces. `None` if the text is not of that form.
pub fn parse_point(text: &str) -> Option<(usize, usize)> {
    let (x, y) = text.split_once(',')?;
    let num = |s: &str| -> Option<usize> {
        if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    Some((num(x)?, num(y)?))
}

/// The point `x,y` on a `size` board, or why it is not one.
pub fn on_board(x: usize, y: usize, size: usize) -> Result<Pos, String> {
    if x < size && y < size {
        Ok(Pos::new(x, y))
    } else {
        Err(format!("{x},{y} is off the {size}x{size} board"))
    }
}
