//! The prompt and the position database: `wuzi --db FILE` opens it, a finished game is
//! learned from, and `db` shows what is known about the position.

use super::{Io, Prompt};
use crate::db::{Db, Known};
use crate::notation::format_h8;
use crate::search::mate_distance;
use std::io;

impl Prompt {
    /// Learns from finished games in `db` from now on.
    pub fn set_db(&mut self, db: Option<Db>) {
        self.engine.set_db(db);
    }

    /// Learns from the game if it has ended (once), and says so.
    pub(super) fn learn(&mut self, io: &mut Io) -> io::Result<()> {
        if let Some(l) = self.engine.learn_game() {
            say!(
                io,
                "Remembered: {} positions, {} proven.",
                l.positions,
                l.proofs
            )?;
        }
        self.db_notes(io)
    }

    /// Shows the database's notes (a file that failed) on `err`.
    pub(super) fn db_notes(&mut self, io: &mut Io) -> io::Result<()> {
        for note in self.engine.take_db_notes() {
            writeln!(io.err, "wuzi: {note}")?;
        }
        Ok(())
    }

    /// The `db` command.
    pub(super) fn show_db(&mut self, io: &mut Io) -> io::Result<()> {
        if self.engine.db().is_none() {
            say!(io, "No position database (start wuzi with --db FILE).")?;
            return self.db_notes(io);
        }
        if let Some(k) = self.engine.db_known() {
            say!(io, "{}", known_text(&k, self.size()))?;
        }
        self.db_notes(io)
    }
}

/// What is known, as lines for the prompt.
fn known_text(k: &Known, size: usize) -> String {
    let h8 = |p| format_h8(p, size);
    let mut lines = Vec::new();
    match k.proven {
        Some(p) if p.win => lines.push(format!(
            "proven: the side to move wins in {} plies{}",
            p.distance,
            if p.best.is_none() {
                String::new()
            } else {
                format!(" with {}", h8(p.best))
            }
        )),
        Some(p) => lines.push(format!(
            "proven: the side to move loses in {} plies",
            p.distance
        )),
        None => {}
    }
    if let Some(d) = k.deep {
        lines.push(format!(
            "searched: depth {}, best {}, eval {}",
            d.depth,
            h8(d.best),
            score_text(d.score)
        ));
    }
    for o in &k.moves {
        lines.push(format!(
            "played {}: {} won, {} drawn, {} lost",
            h8(o.mv),
            o.wins,
            o.draws,
            o.losses
        ));
    }
    for (p, pr) in &k.children {
        lines.push(format!(
            "after {}: the opponent {} in {} plies",
            h8(*p),
            if pr.win { "wins" } else { "loses" },
            pr.distance
        ));
    }
    for (p, pen) in &k.advice.penalties {
        let (what, size) = if *pen < 0 {
            ("bonus", -pen)
        } else {
            ("penalty", *pen)
        };
        lines.push(format!("{what} {}: {size}", h8(*p)));
    }
    if let Some(p) = k.advice.first {
        lines.push(format!("searched first: {}", h8(p)));
    }
    if lines.is_empty() {
        "Nothing is known about this position.".into()
    } else {
        lines.join("\n")
    }
}

/// A stored score: centi-stones, or a proven result in plies.
fn score_text(score: i32) -> String {
    match mate_distance(score) {
        Some(m) if m >= 0 => format!("win in {m} plies"),
        Some(m) => format!("loss in {} plies", -m),
        None => format!("{score:+}"),
    }
}
