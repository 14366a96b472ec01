//! The end of a game: what the database learns from it, and its record written under
//! `INFO folder`.

use super::{Out, Session};
use crate::record::{GameRecord, GameResult};
use crate::types::Color;

impl Session {
    /// Ends the game: learns from it if it has a known result and a database is open, and
    /// writes it under `INFO folder` (if set, allowed, and the game has moves).
    pub(super) fn save_record(&mut self, out: Out) {
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
