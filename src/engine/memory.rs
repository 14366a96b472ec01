//! The facade's use of the position database ([`crate::db`]): advice before a search, the
//! search's result after it, and learning from a finished game. Every failure becomes a note
//! for the front end ([`Engine::take_db_notes`]); a file that cannot be used is dropped and
//! the engine plays on without it.

use super::{Engine, GameStatus};
use crate::db::{Advice, Db, DbError, GameEnd, Known, Learned};

/// Most search results kept for the next access while the file is busy (a move's worth
/// each; older ones are dropped rather than let the list grow without end).
const MAX_PENDING: usize = 64;
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

    fn db_failed(&mut self, e: DbError) {
        if e.is_fatal() {
            self.db_notes
                .push(format!("database {e}; playing on without it"));
            self.db = None;
        } else {
            self.db_notes.push(format!("database {e}"));
        }
    }

    /// The database's penalties for the root moves (none without a database), with the
    /// earlier searches' results written in the same access.
    pub(super) fn db_advice(&mut self) -> Advice {
        let Some(db) = &self.db else {
            return Advice::default();
        };
        match db.advise(&mut self.board, &self.db_pending) {
            Ok(a) => {
                self.db_pending.clear();
                a
            }
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
        if self.db.is_none() {
            return;
        }
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
        if self.db_pending.len() >= MAX_PENDING {
            self.db_pending.remove(0);
        }
        self.db_pending
            .extend(Db::note_search(&self.board, out.best, score, out.depth));
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

    /// Writes the searches' results not written yet, and learns from the game if it has
    /// ended (see [`Engine::game_end`]) and was not learned from since its last change: the
    /// outcomes of its moves and the proofs it carries go into the database, in one
    /// transaction. Front ends call it when a game ends and before they quit. Returns what
    /// was learned (`None`: no database, or no result).
    pub fn learn_game(&mut self) -> Option<Learned> {
        let db = self.db.as_ref()?;
        let end = self.game_end().filter(|_| !self.learned);
        let written = match end {
            Some(end) => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs());
                let b = &self.board;
                db.learn_game(b.size(), b.rule(), b.moves(), end, now, &self.db_pending)
                    .map(Some)
            }
            None => db.write_notes(&self.db_pending).map(|_| None),
        };
        match written {
            Ok(l) => {
                self.db_pending.clear();
                self.learned |= l.is_some();
                l
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
