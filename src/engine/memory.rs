//! The facade's use of the position database ([`crate::db`]): advice before a search, the
//! search's result after it, and learning from a finished game. Every failure becomes a note
//! for the front end ([`Engine::take_db_notes`]); a file that cannot be used is dropped and
//! the engine plays on without it.

use super::{Engine, GameStatus};
use crate::db::{Advice, Db, DbError, GameEnd, Known, Learned};
use crate::search::{mate_distance, Outcome};

impl Engine {
    /// Uses `db` from now on (`None`: no database).
    pub fn set_db(&mut self, db: Option<Db>) {
        self.db = db;
    }

    /// The open database.
    pub fn db(&self) -> Option<&Db> {
        self.db.as_ref()
    }

    /// What the database reported since the last call (a file that became unusable, a
    /// skipped access), one line each, for the front end to show.
    pub fn take_db_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.db_notes)
    }

    /// A change of the game: its result is not known, and not learned from.
    pub(super) fn game_changed(&mut self) {
        self.learned = false;
    }

    fn db_failed(&mut self, e: DbError) {
        if e.is_fatal() {
            self.db_notes
                .push(format!("database {e}; playing on without it"));
            self.db = None;
        } else {
            self.db_notes.push(format!("database {e}"));
        }
    }

    /// The database's penalties for the root moves (none without a database).
    pub(super) fn db_advice(&mut self) -> Advice {
        let Some(db) = &self.db else {
            return Advice::default();
        };
        match db.advice(&mut self.board) {
            Ok(a) => a,
            Err(e) => {
                self.db_failed(e);
                Advice::default()
            }
        }
    }

    /// Stores a finished search's result, and remembers a proven one as the game's likely
    /// result.
    pub(super) fn db_store_search(&mut self, out: &Outcome, advice: &Advice) {
        let side = self.board.to_move();
        self.verdict = mate_distance(out.score).map(|d| {
            let winner = if d > 0 { side } else { !side };
            (GameEnd::Won(winner), self.board.ply())
        });
        let Some(db) = &self.db else {
            return;
        };
        // The search's own score: the penalty it subtracted from an undecided move added back.
        let pen = advice
            .penalties
            .iter()
            .find(|m| m.0 == out.best)
            .map_or(0, |m| m.1);
        let score = if mate_distance(out.score).is_some() {
            out.score
        } else {
            out.score + pen
        };
        if let Err(e) = db.store_search(&self.board, out.best, score, out.depth) {
            self.db_failed(e);
        }
    }

    /// How the game ended, if that is known: a five, a forbidden move or a full board, or a
    /// loss the engine's search proved on its last move before the game stopped (a Gomocup
    /// manager ends a game without sending the winning five to the loser).
    pub fn game_end(&self) -> Option<GameEnd> {
        match self.status {
            GameStatus::Five { winner } | GameStatus::Forbidden { winner } => {
                Some(GameEnd::Won(winner))
            }
            GameStatus::Draw => Some(GameEnd::Draw),
            GameStatus::Ongoing => match self.verdict {
                // The search was on the position before the last move (ours).
                Some((end, ply)) if ply + 1 == self.board.ply() => Some(end),
                _ => None,
            },
        }
    }

    /// Learns from the game if it has ended (see [`Engine::game_end`]) and was not learned
    /// from since its last change: the outcomes of its moves and the proofs it carries go
    /// into the database. Returns what was learned (`None`: no database, or no result).
    pub fn learn_game(&mut self) -> Option<Learned> {
        let end = self.game_end()?;
        if self.learned {
            return None;
        }
        let db = self.db.as_ref()?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let b = &self.board;
        match db.learn_game(b.size(), b.rule(), b.moves(), end, now) {
            Ok(l) => {
                self.learned = true;
                Some(l)
            }
            Err(e) => {
                self.db_failed(e);
                None
            }
        }
    }

    /// What the database knows about the current position (`None`: no database, or it
    /// failed, with a note).
    pub fn db_known(&mut self) -> Option<Known> {
        let db = self.db.as_ref()?;
        match db.known(&mut self.board) {
            Ok(k) => Some(k),
            Err(e) => {
                self.db_failed(e);
                None
            }
        }
    }
}
