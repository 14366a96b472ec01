//! The position database of the brain: which file (`--db`), opened before the first move,
//! and its notes shown as `MESSAGE` lines.

use super::{printable, Out, Session};
use std::path::PathBuf;

/// Where the brain keeps its position database.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DbChoice {
    /// No database.
    #[default]
    Off,
    /// This file.
    File(PathBuf),
    /// [`DB_FILE`] in the folder of `INFO folder` (none if the manager sends no folder).
    Folder,
}

/// The database's file name under `INFO folder` (`--db` without a file).
pub const DB_FILE: &str = "wuzi.db";

impl Session {
    /// Opens the database the options name, once, before the first move (`INFO folder`
    /// comes after the brain starts); a file that cannot be used is reported and the brain
    /// plays on without it.
    pub(super) fn open_db(&mut self, out: Out) {
        if self.db_tried {
            return;
        }
        self.db_tried = true;
        let path = match (&self.opts.db, &self.folder) {
            (DbChoice::Off, _) => return,
            (DbChoice::File(p), _) => p.clone(),
            (DbChoice::Folder, Some(dir)) => dir.join(DB_FILE),
            (DbChoice::Folder, None) => {
                out("MESSAGE no INFO folder for the database: playing on without it");
                return;
            }
        };
        match crate::db::Db::open(&path) {
            Ok(db) => self.engine.set_db(Some(db)),
            Err(e) => out(&format!(
                "MESSAGE {}",
                printable(&format!("database {e}; playing on without it"))
            )),
        }
    }

    /// Shows what the database reported (as `MESSAGE` lines).
    pub(super) fn db_notes(&mut self, out: Out) {
        for note in self.engine.take_db_notes() {
            out(&format!("MESSAGE {}", printable(&note)));
        }
    }
}
