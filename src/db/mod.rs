//! Layer 5, beside the engine facade: the position database, wuzi's memory across games.
//! One redb file holds, per symmetry-canonical position, proven results, the deepest root
//! search result and the outcomes of the games that went through it. The engine consults it
//! before a search (penalties for root moves that lost, [`Db::advice`]) and writes back
//! what its searches prove and what its games teach ([`Db::learn_game`]).
//!
//! - [`key`]: canonical keys over the eight symmetries of the board, and moves mapped to and
//!   from the canonical orientation;
//! - [`record`]: what is stored per position, and its bytes;
//! - [`store`]: the file (opened per access, so processes can share it);
//! - `backend`: the file under redb, its reads checked against its length;
//! - [`learn`]: learning from finished games and advice for the root;
//! - [`export`]: the JSON-lines form of the records (`wuzi db export|import`).
//!
//! No I/O other than the database file; front ends print what it reports.

mod backend;
pub mod export;
pub mod key;
pub mod learn;
pub mod record;
pub mod store;

pub use key::Canon;
pub use learn::{Advice, GameEnd, Known, Learned, SearchNote};
pub use record::{Deep, Outcomes, Proven, Record};
pub use store::{Stats, Store};

use std::path::Path;

/// Why the database could not be used. Every variant names the file and says what the
/// engine does: it plays on without the database (or, for [`DbError::Locked`], without this
/// one access).
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// Another process kept the file open longer than [`store::LOCK_WAIT`].
    #[error("{path}: in use by another process; this access is skipped")]
    Locked {
        /// The file.
        path: String,
    },
    /// The file could not be opened or written (missing folder, read-only file, disk full).
    #[error("{path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        reason: String,
    },
    /// Not a wuzi database, or damaged.
    #[error("{path}: not a readable position database ({reason})")]
    Corrupt {
        /// The file.
        path: String,
        /// What was wrong.
        reason: String,
    },
    /// Written by a newer wuzi.
    #[error("{path}: written by a newer wuzi (layout {found})")]
    Version {
        /// The file.
        path: String,
        /// Its layout version.
        found: u64,
    },
    /// A line of an import that is not a record.
    #[error("line {line}: {reason}")]
    Import {
        /// Line number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl DbError {
    /// Maps a redb error on `path`.
    pub(crate) fn from_redb(path: &Path, e: redb::Error) -> DbError {
        let path = path.display().to_string();
        match e {
            redb::Error::DatabaseAlreadyOpen => DbError::Locked { path },
            redb::Error::Io(io) => {
                if matches!(
                    io.kind(),
                    std::io::ErrorKind::InvalidData | std::io::ErrorKind::UnexpectedEof
                ) {
                    return DbError::Corrupt {
                        path,
                        reason: io.to_string(),
                    };
                }
                let reason = match io.kind() {
                    std::io::ErrorKind::PermissionDenied => {
                        "cannot be opened for writing (read-only file or folder)".to_string()
                    }
                    std::io::ErrorKind::NotFound => "its folder does not exist".to_string(),
                    _ => io.to_string(),
                };
                DbError::Io { path, reason }
            }
            redb::Error::UpgradeRequired(v) => DbError::Corrupt {
                path,
                reason: format!("an old redb file format ({v})"),
            },
            other => DbError::Corrupt {
                path,
                reason: other.to_string(),
            },
        }
    }

    /// Is the file unusable for the rest of the process (not just busy)?
    pub fn is_fatal(&self) -> bool {
        !matches!(self, DbError::Locked { .. })
    }
}

/// An open position database.
#[derive(Clone, Debug)]
pub struct Db {
    store: Store,
}

impl Db {
    /// Opens `path`, creating an empty database if the file does not exist. Fails with a
    /// message fit for the user if it cannot be read and written.
    /// A file another process holds open is taken as it is (that process is using it as
    /// a database); each access then waits for it briefly.
    pub fn open(path: &Path) -> Result<Db, DbError> {
        match Store::open(path) {
            Ok(store) => Ok(Db { store }),
            Err(DbError::Locked { .. }) => Ok(Db {
                store: Store::unchecked(path),
            }),
            Err(e) => Err(e),
        }
    }

    /// The file.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Counts of the file.
    pub fn stats(&self) -> Result<Stats, DbError> {
        self.store.stats()
    }
}
