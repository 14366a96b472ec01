//! `save` and `load`: the game as a record file (text, `.psq` or SGF).

use super::command::clip_at;
use super::{Io, Prompt};
use crate::engine::GameStatus;
use crate::record::{Format, GameRecord, GameResult};
use crate::types::Color;
use std::io;

impl Prompt {
    pub(super) fn record(&self) -> GameRecord {
        let b = self.engine.board();
        let mut rec = GameRecord::new(b.rule(), b.size());
        rec.moves = b.moves().to_vec();
        rec.result = GameResult::from_status(self.engine.status());
        let (you, wuzi) = ("you".to_string(), "wuzi".to_string());
        (rec.black, rec.white) = match self.human {
            Color::Black => (you, wuzi),
            Color::White => (wuzi, you),
        };
        // The opening stage's stones are the record's opening; its steps, the comment.
        if let Some(stage) = self.opening.as_ref().or(self.played_opening.as_ref()) {
            rec.opening = stage.stones().len();
            rec.comment = self.opening_story(stage);
        }
        rec
    }

    pub(super) fn save(&self, file: &str, io: &mut Io) -> io::Result<Result<(), String>> {
        let rec = self.record();
        let format = Format::from_word(&extension(file)).unwrap_or(Format::Text);
        let text = match rec.write(format) {
            Ok(t) => t,
            Err(e) => return Ok(Err(format!("Cannot save: {e}."))),
        };
        if let Err(e) = std::fs::write(file, text) {
            return Ok(Err(format!("Cannot write {file}: {e}.")));
        }
        say!(io, "Saved {} moves to {file}.", rec.moves.len())?;
        Ok(Ok(()))
    }

    pub(super) fn load(&mut self, file: &str, io: &mut Io) -> io::Result<Result<(), String>> {
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
        // A loaded game is played on from its moves, past any opening stage.
        self.opening = None;
        self.opening_stones = 0;
        self.played_opening = None;
        let of = if games > 1 {
            format!(" (the first of its {games} games)")
        } else {
            String::new()
        };
        say!(io, "Loaded {} moves from {file}{of}.", rec.moves.len())?;
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
