//! What one server holds at most, and for how long: games, their idle time, request bodies
//! (`wuzi serve`'s flags; defaults in `docs/web.md`). Open event streams need no cap of
//! their own: each is a search (or review) holding one of the `--max-searches` slots.

use std::time::Duration;

/// The largest request body the API takes by default: a game record of the largest board is
/// under 4 KB.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The most the server reads of a body before it answers, unless the body limit is larger.
/// A body over the limit but under this is read to its end and refused with 413, so that
/// the client, still sending, reads the answer instead of a broken connection; a larger one
/// is refused unread.
pub const READ_LIMIT: usize = 1024 * 1024;

/// Games kept by default. Each holds an engine whose 64 MB table is mapped as its searches
/// touch it.
pub const MAX_GAMES: usize = 64;

/// Games whose engines keep their hash table (64 MB, the prompt's) between searches, by
/// default: 1 GB of tables at most. A game beyond them searches with a fresh table, which
/// at the page's times of a second or so costs little strength.
pub const MAX_TABLES: usize = 16;

/// How long a game may go unused (no request, no search) before the server lets it go, by
/// default: a page left open over a lunch break keeps its game, one closed for the day does
/// not hold its memory.
pub const IDLE: Duration = Duration::from_secs(30 * 60);

/// How long a 503's `Retry-After` asks the client to wait, in seconds: a search slot frees
/// as soon as any search ends, and the page's searches last about a second.
pub const RETRY_AFTER_SECONDS: u64 = 1;

/// How often the server looks for games idle past their time, at most.
pub fn sweep_every(idle: Duration) -> Duration {
    (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(60))
}

/// The body limit a request sees (set by the server as a request extension).
#[derive(Copy, Clone, Debug)]
pub struct BodyLimit(pub usize);

impl BodyLimit {
    /// What the server reads of a body before refusing it: [`READ_LIMIT`], or the limit if
    /// larger.
    pub fn read_limit(self) -> usize {
        self.0.max(READ_LIMIT)
    }
}
