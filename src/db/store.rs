//! The file: a redb database with one table of positions (canonical key to record bytes)
//! and one of counters. The file is opened for each access and closed after it, so that two
//! processes (two brains of a tournament) can share it: redb locks the file while it is
//! open, and an access that finds it locked waits a little and tries again.

use super::backend::CheckedFile;
use super::record::Record;
use super::DbError;
use redb::{Database, ReadableTable, ReadableTableMetadata, TableDefinition};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Canonical position key -> encoded [`Record`].
const POSITIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("positions");
/// Counters: `format` (the layout version), `games` (games learned from), and the last
/// game learned (`last_game`, its hash, and `last_game_at`, when).
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

/// The layout version this build writes; a file with a larger one is refused.
const LAYOUT: u64 = 1;

/// How long an access waits for another process to close the file. A process holds it for
/// one move's probe and write-back or one game's write (10 to 20 ms in a release build, most
/// of it redb's syncs of the file at open, commit and close; ten times that in the test
/// profile, whose dependencies are not optimised). A move makes one access, before its
/// search starts, so a wait comes out of the move's time and never overruns it.
pub const LOCK_WAIT: Duration = Duration::from_secs(1);
/// Pause between two tries to open a locked file.
const LOCK_RETRY: Duration = Duration::from_millis(5);
/// redb's page cache per open: a root probe reads a few pages, a game writes a few dozen.
const CACHE_BYTES: usize = 4 << 20;

/// The database file.
#[derive(Clone, Debug)]
pub struct Store {
    path: PathBuf,
}

/// Counts of a database.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions stored.
    pub positions: u64,
    /// Of them, with a proven result.
    pub proven: u64,
    /// Of them, with a search result.
    pub searched: u64,
    /// Games learned from.
    pub games: u64,
    /// The file's size in bytes.
    pub bytes: u64,
}

impl Store {
    /// Opens (creating if missing) and checks the file once; it is closed again at once.
    pub fn open(path: &Path) -> Result<Store, DbError> {
        let store = Store {
            path: path.to_path_buf(),
        };
        store.write(|_| Ok(()))?;
        Ok(store)
    }

    /// The file, not opened (another process holds it).
    pub(crate) fn unchecked(path: &Path) -> Store {
        Store {
            path: path.to_path_buf(),
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self, e: impl Into<redb::Error>) -> DbError {
        DbError::from_redb(&self.path, e.into())
    }

    /// One access: opens the file ([`Store::database`]) and runs `f` on it, turning a panic
    /// into a [`DbError::Corrupt`]: redb 2.6 asserts instead of reporting on some damage
    /// inside a file (a flipped bit in a tree page), and the engine must play on without the
    /// file. The release profile unwinds on panic for this (`Cargo.toml`). A transaction
    /// that panics is dropped unfinished, so the file keeps its last committed state.
    fn access<T>(&self, f: impl FnOnce(Database) -> Result<T, DbError>) -> Result<T, DbError> {
        let run = || f(self.database()?);
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|_| {
            Err(DbError::Corrupt {
                path: self.path.display().to_string(),
                reason: "damaged inside: redb stopped on it".into(),
            })
        })
    }

    /// Opens the file (on [`CheckedFile`], which refuses reads past its end), waiting up to
    /// [`LOCK_WAIT`] for another process to close it.
    fn database(&self) -> Result<Database, DbError> {
        check_length(&self.path)?;
        let start = Instant::now();
        loop {
            let opened = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&self.path)
                .map_err(redb::DatabaseError::from)
                .and_then(CheckedFile::new)
                .and_then(|file| {
                    Database::builder()
                        .set_cache_size(CACHE_BYTES)
                        .create_with_backend(file)
                });
            match opened {
                Ok(db) => return Ok(db),
                Err(redb::DatabaseError::DatabaseAlreadyOpen) if start.elapsed() < LOCK_WAIT => {
                    std::thread::sleep(LOCK_RETRY)
                }
                Err(e) => return Err(self.err(e)),
            }
        }
    }

    /// Reads the records of `keys` (`None` for a position not stored) in one transaction.
    pub fn get(&self, keys: &[&[u8]]) -> Result<Vec<Option<Record>>, DbError> {
        self.access(|db| {
            let tx = db.begin_read().map_err(|e| self.err(e))?;
            let table = match tx.open_table(POSITIONS) {
                Ok(t) => t,
                // A file no write has set up yet (made by another program): nothing is known.
                Err(redb::TableError::TableDoesNotExist(_)) => return Ok(vec![None; keys.len()]),
                Err(e) => return Err(self.err(e)),
            };
            keys.iter()
                .map(|k| {
                    let v = table.get(*k).map_err(|e| self.err(e))?;
                    v.map(|v| self.decode(v.value())).transpose()
                })
                .collect()
        })
    }

    fn decode(&self, bytes: &[u8]) -> Result<Record, DbError> {
        Record::decode(bytes).ok_or_else(|| DbError::Corrupt {
            path: self.path.display().to_string(),
            reason: "a record that this version cannot read".into(),
        })
    }

    /// Runs `f` in one write transaction and commits it (durably) if `f` succeeds: all of
    /// its changes land, or none.
    pub fn write<T>(
        &self,
        f: impl FnOnce(&mut Writer) -> Result<T, DbError>,
    ) -> Result<T, DbError> {
        self.access(|db| {
            let tx = db.begin_write().map_err(|e| self.err(e))?;
            // The positions' table is opened once alone first: redb may panic on a damaged
            // table definition while it holds the transaction's lock of its tables, and a
            // table still open (the counters') would then panic again as the unwinding drops
            // it, which aborts the process. Once opened, a second open reads the same bytes.
            drop(tx.open_table(POSITIONS).map_err(|e| self.err(e))?);
            let out = {
                let mut meta = tx.open_table(META).map_err(|e| self.err(e))?;
                let layout = meta
                    .get("format")
                    .map_err(|e| self.err(e))?
                    .map(|v| v.value());
                match layout {
                    Some(v) if v > LAYOUT => {
                        return Err(DbError::Version {
                            path: self.path.display().to_string(),
                            found: v,
                        })
                    }
                    Some(_) => {}
                    None => {
                        meta.insert("format", LAYOUT).map_err(|e| self.err(e))?;
                    }
                }
                let table = tx.open_table(POSITIONS).map_err(|e| self.err(e))?;
                let mut w = Writer {
                    store: self,
                    table,
                    meta,
                };
                f(&mut w)?
            };
            tx.commit().map_err(|e| self.err(e))?;
            Ok(out)
        })
    }

    /// Counts of the file.
    pub fn stats(&self) -> Result<Stats, DbError> {
        let mut s = Stats::default();
        self.for_each(|_, r| {
            s.positions += 1;
            s.proven += r.proven.is_some() as u64;
            s.searched += r.deep.is_some() as u64;
        })?;
        s.games = self.counter("games")?;
        s.bytes = std::fs::metadata(&self.path).map_or(0, |m| m.len());
        Ok(s)
    }

    fn counter(&self, name: &str) -> Result<u64, DbError> {
        self.access(|db| {
            let tx = db.begin_read().map_err(|e| self.err(e))?;
            match tx.open_table(META) {
                Ok(t) => Ok(t
                    .get(name)
                    .map_err(|e| self.err(e))?
                    .map_or(0, |v| v.value())),
                Err(redb::TableError::TableDoesNotExist(_)) => Ok(0),
                Err(e) => Err(self.err(e)),
            }
        })
    }

    /// Calls `f` with every position's key and record, in key order.
    pub fn for_each(&self, mut f: impl FnMut(&[u8], &Record)) -> Result<(), DbError> {
        self.access(|db| {
            let tx = db.begin_read().map_err(|e| self.err(e))?;
            let table = match tx.open_table(POSITIONS) {
                Ok(t) => t,
                Err(redb::TableError::TableDoesNotExist(_)) => return Ok(()),
                Err(e) => return Err(self.err(e)),
            };
            for entry in table.iter().map_err(|e| self.err(e))? {
                let (k, v) = entry.map_err(|e| self.err(e))?;
                f(k.value(), &self.decode(v.value())?);
            }
            Ok(())
        })
    }

    /// Positions stored (without reading them).
    pub fn len(&self) -> Result<u64, DbError> {
        self.access(|db| {
            let tx = db.begin_read().map_err(|e| self.err(e))?;
            match tx.open_table(POSITIONS) {
                Ok(t) => t.len().map_err(|e| self.err(e)),
                Err(redb::TableError::TableDoesNotExist(_)) => Ok(0),
                Err(e) => Err(self.err(e)),
            }
        })
    }

    /// Does the file hold no position?
    pub fn is_empty(&self) -> Result<bool, DbError> {
        Ok(self.len()? == 0)
    }
}

/// The tables inside one write transaction.
pub struct Writer<'s, 't> {
    store: &'s Store,
    table: redb::Table<'t, &'static [u8], &'static [u8]>,
    meta: redb::Table<'t, &'static str, u64>,
}

impl Writer<'_, '_> {
    /// The record of `key`, or an empty one.
    pub fn get(&self, key: &[u8]) -> Result<Record, DbError> {
        let v = self.table.get(key).map_err(|e| self.store.err(e))?;
        match v {
            Some(v) => self.store.decode(v.value()),
            None => Ok(Record::default()),
        }
    }

    /// The record of `key`, if stored.
    pub fn find(&self, key: &[u8]) -> Result<Option<Record>, DbError> {
        let v = self.table.get(key).map_err(|e| self.store.err(e))?;
        v.map(|v| self.store.decode(v.value())).transpose()
    }

    /// Stores `rec` under `key`.
    pub fn put(&mut self, key: &[u8], rec: &Record) -> Result<(), DbError> {
        self.table
            .insert(key, rec.encode().as_slice())
            .map_err(|e| self.store.err(e))?;
        Ok(())
    }

    /// Changes the record of `key` with `f` and stores it.
    pub fn update(&mut self, key: &[u8], f: impl FnOnce(&mut Record)) -> Result<(), DbError> {
        let mut rec = self.get(key)?;
        f(&mut rec);
        self.put(key, &rec)
    }

    /// Removes the positions for which `keep` says false; returns how many.
    pub fn retain(&mut self, mut keep: impl FnMut(&[u8], &Record) -> bool) -> Result<u64, DbError> {
        let mut gone: Vec<Vec<u8>> = Vec::new();
        for entry in self.table.iter().map_err(|e| self.store.err(e))? {
            let (k, v) = entry.map_err(|e| self.store.err(e))?;
            if !keep(k.value(), &self.store.decode(v.value())?) {
                gone.push(k.value().to_vec());
            }
        }
        for k in &gone {
            self.table
                .remove(k.as_slice())
                .map_err(|e| self.store.err(e))?;
        }
        Ok(gone.len() as u64)
    }

    /// The counter `name`, if set.
    pub fn value(&self, name: &str) -> Result<Option<u64>, DbError> {
        let v = self.meta.get(name).map_err(|e| self.store.err(e))?;
        Ok(v.map(|v| v.value()))
    }

    /// Sets the counter `name` to `v`.
    pub fn set(&mut self, name: &str, v: u64) -> Result<(), DbError> {
        self.meta.insert(name, v).map_err(|e| self.store.err(e))?;
        Ok(())
    }

    /// Adds `n` to the counter `name`.
    pub fn count(&mut self, name: &str, n: u64) -> Result<(), DbError> {
        let old = self
            .meta
            .get(name)
            .map_err(|e| self.store.err(e))?
            .map_or(0, |v| v.value());
        self.meta
            .insert(name, old.saturating_add(n))
            .map_err(|e| self.store.err(e))?;
        Ok(())
    }
}

/// The start of every redb file.
const MAGIC: [u8; 9] = [b'r', b'e', b'd', b'b', 0x1A, 0x0A, 0xA9, 0x0D, 0x0A];
/// The only page size redb 2.6 opens.
const PAGE: u64 = 4096;

/// Refuses a file that redb would not report but assert on: redb 2.6 panics (which aborts a
/// release build) on a file shorter than its header says, as a cut-off copy is. The header
/// (redb's `page_store/header.rs`) holds after the magic number, a byte and two of padding:
/// the page size, then per region its header pages and most data pages, the count of full
/// regions and the data pages of a trailing partial one (little-endian `u32`s); the file is
/// one page of super-header and the regions. A missing or empty file is fine (redb makes a
/// new database in it), a file with another start is left to redb (which reports it).
fn check_length(path: &Path) -> Result<(), DbError> {
    let Ok(bytes) = std::fs::File::open(path).and_then(|f| {
        use std::io::Read;
        let mut head = Vec::with_capacity(32);
        f.take(32).read_to_end(&mut head)?;
        Ok(head)
    }) else {
        return Ok(());
    };
    if bytes.len() < 32 || bytes[..9] != MAGIC {
        return Ok(());
    }
    let field =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]) as u64;
    let (page, header, data, full, trailing) =
        (field(12), field(16), field(20), field(24), field(28));
    let corrupt = |reason: &str| DbError::Corrupt {
        path: path.display().to_string(),
        reason: reason.into(),
    };
    if page != PAGE {
        return Err(corrupt("a page size redb does not open"));
    }
    let regions = full * (header + data) + if trailing > 0 { header + trailing } else { 0 };
    let want = PAGE.saturating_add(regions.saturating_mul(PAGE));
    let have = std::fs::metadata(path).map_or(0, |m| m.len());
    if have < want {
        return Err(corrupt(&format!(
            "{have} bytes where its header says {want}: cut off"
        )));
    }
    Ok(())
}
