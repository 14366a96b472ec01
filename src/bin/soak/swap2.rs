//! The Swap2 opening through `SWAP2BOARD`: one engine proposes three stones (black, white,
//! black); the other answers `SWAP` (it takes black), one move (it stays white and plays
//! the fourth stone), or two moves (white, black), after which the first engine gets the
//! five stones and answers `SWAP` (it takes black) or white's sixth stone.

use crate::fault::Kind;
use crate::game::{Abort, Game};
use wuzi::Pos;

impl Game<'_> {
    /// Plays the Swap2 opening and sets who is black ([`Game::settle_black`]).
    pub fn swap2(&mut self) -> Result<(), Abort> {
        let first = self.dice.below(2) as usize;
        let second = 1 - first;
        let Some(text) = self.swap2_request(first)? else {
            return Ok(());
        };
        let three = self.points(first, &text, 3)?;
        self.play_all(first, &three, &text)?;
        let Some(text) = self.swap2_request(second)? else {
            return Ok(());
        };
        let black = if text.eq_ignore_ascii_case("SWAP") {
            second
        } else {
            let more = self.points(second, &text, 0)?;
            match more.len() {
                1 => {
                    self.play_all(second, &more, &text)?;
                    first
                }
                2 => {
                    self.play_all(second, &more, &text)?;
                    let Some(text) = self.swap2_request(first)? else {
                        return Ok(());
                    };
                    if text.eq_ignore_ascii_case("SWAP") {
                        first
                    } else {
                        let sixth = self.points(first, &text, 1)?;
                        self.play_all(first, &sixth, &text)?;
                        second
                    }
                }
                n => {
                    self.fault(
                        second,
                        Kind::Malformed,
                        format!("answered {n} moves to a 3-stone SWAP2BOARD: '{text}'"),
                    )?;
                    return Err(Abort);
                }
            }
        };
        self.settle_black(black, "Swap2");
        Ok(())
    }

    /// `SWAP2BOARD` with the referee's stones to engine `p`, timed like a move.
    fn swap2_request(&mut self, p: usize) -> Result<Option<String>, Abort> {
        let mut lines = vec!["SWAP2BOARD".to_string()];
        lines.extend(self.referee.moves().iter().map(|m| m.to_string()));
        lines.push("DONE".into());
        self.count(match self.referee.len() {
            0 => "SWAP2BOARD, 0 stones",
            3 => "SWAP2BOARD, 3 stones",
            _ => "SWAP2BOARD, 5 stones",
        });
        self.request(p, &lines)
    }

    /// Reads `want` space-separated points (any number if `want` is 0).
    fn points(&mut self, p: usize, text: &str, want: usize) -> Result<Vec<Pos>, Abort> {
        let words: Vec<&str> = text.split(' ').collect();
        if want != 0 && words.len() != want {
            self.fault(
                p,
                Kind::Malformed,
                format!("expected {want} moves but got '{text}'"),
            )?;
            return Err(Abort);
        }
        words.into_iter().map(|w| self.parse_move(p, w)).collect()
    }

    /// Plays engine `p`'s points in turn on the referee's board.
    fn play_all(&mut self, p: usize, points: &[Pos], text: &str) -> Result<(), Abort> {
        for &pos in points {
            self.play_move(p, pos, text)?;
        }
        Ok(())
    }
}
