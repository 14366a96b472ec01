//! The file under redb: redb's own file backend, with every read and every growth checked
//! against the file's length before anything is allocated. redb trusts the page numbers and
//! lengths it finds in the file, and its file backend allocates a read's buffer before it
//! reads: one flipped bit in a damaged file once asked for 8 TB, and a failed allocation
//! aborts the process (no `catch_unwind` can turn it into an error). Here such a read is an
//! I/O error, which the database reports as damage like any other.

use redb::backends::FileBackend;
use redb::StorageBackend;
use std::fs::File;
use std::io;

/// A growth of the file may at most reach this many times its length, or its length plus
/// [`GROWTH_BYTES`], whichever is more. redb grows a file by doubling it or by a region or
/// two (of 16 MB at most at its default sizes); a write of one game or one import's records
/// never needs more, and a damaged header asking for terabytes is refused.
const GROWTH_FACTOR: u64 = 4;
/// See [`GROWTH_FACTOR`].
const GROWTH_BYTES: u64 = 1 << 30;

/// redb's file backend with checked reads and growths.
#[derive(Debug)]
pub(super) struct CheckedFile {
    inner: FileBackend,
}

impl CheckedFile {
    /// Locks `file` for this process, as redb's own backend does (an error
    /// [`redb::DatabaseError::DatabaseAlreadyOpen`] if another process holds it).
    pub(super) fn new(file: File) -> Result<CheckedFile, redb::DatabaseError> {
        Ok(CheckedFile {
            inner: FileBackend::new(file)?,
        })
    }
}

/// The error of a read or growth past what the file can hold.
fn damaged(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

impl StorageBackend for CheckedFile {
    fn len(&self) -> Result<u64, io::Error> {
        self.inner.len()
    }

    fn read(&self, offset: u64, len: usize) -> Result<Vec<u8>, io::Error> {
        let have = self.inner.len()?;
        match offset.checked_add(len as u64) {
            Some(end) if end <= have => self.inner.read(offset, len),
            _ => Err(damaged(format!(
                "a read of {len} bytes at {offset}, past the file's {have}"
            ))),
        }
    }

    fn set_len(&self, len: u64) -> Result<(), io::Error> {
        let have = self.inner.len()?;
        let most = have
            .saturating_mul(GROWTH_FACTOR)
            .max(have.saturating_add(GROWTH_BYTES));
        if len > most {
            return Err(damaged(format!(
                "a growth of the file from {have} to {len} bytes"
            )));
        }
        self.inner.set_len(len)
    }

    fn sync_data(&self, eventual: bool) -> Result<(), io::Error> {
        self.inner.sync_data(eventual)
    }

    fn write(&self, offset: u64, data: &[u8]) -> Result<(), io::Error> {
        self.inner.write(offset, data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `bytes`, removed at once: the open handle keeps it.
    fn file(name: &str, bytes: &[u8]) -> CheckedFile {
        let path = std::env::temp_dir().join(format!("wuzi-backend-{name}-{}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        CheckedFile::new(f).unwrap()
    }

    #[test]
    fn a_read_inside_the_file_gives_its_bytes_and_one_past_it_an_error() {
        let f = file("read", &[1, 2, 3, 4, 5]);
        assert_eq!(f.read(1, 3).unwrap(), vec![2, 3, 4]);
        assert_eq!(f.read(0, 5).unwrap(), vec![1, 2, 3, 4, 5]);
        let e = f.read(1, 5).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        // What a damaged page number asks for: refused before any buffer is made.
        assert!(f.read(u64::MAX - 2, 8 << 40).is_err());
        assert!(f.read(0, usize::MAX).is_err());
    }

    #[test]
    fn the_file_grows_by_doubling_but_not_by_terabytes() {
        let f = file("grow", &[0; 4096]);
        f.set_len(8192).unwrap();
        assert_eq!(f.len().unwrap(), 8192);
        f.set_len(8192 + GROWTH_BYTES).unwrap();
        assert!(f.set_len(8 << 40).is_err());
        assert_eq!(f.len().unwrap(), 8192 + GROWTH_BYTES);
        // Shrinking is redb's own business (compaction).
        f.set_len(100).unwrap();
        assert_eq!(f.read(0, 100).unwrap(), vec![0; 100]);
    }
}
