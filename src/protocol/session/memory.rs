//! The memory budget: table sizes and search threads within the manager's `max_memory`.

use super::{DbChoice, Session};
use crate::search::solver::DEFAULT_TABLE_MB;

/// Default transposition table size when the manager sets none (MB).
pub(super) const DEFAULT_HASH_MB: usize = 64;
/// Memory of the brain besides its tables, with one search thread: 5.7 MB of peak RSS with
/// 1 MB tables after short searches under every rule (a release build, 15x15 and 20x20).
/// With it the least limit is 8 MB; at 8 MB (1 MB tables) the soak's highest peak was 7.8
/// MB, over 100 engines and whole games on boards up to 22x22 under every rule (`soak
/// --games 150 --max-memory 8 --max-memory 32 --max-memory 350`).
const PROCESS_MB: usize = 6;
/// Memory of each search thread after the first (move lists, solver tables): 1.8 MB of
/// peak RSS measured.
const THREAD_MB: usize = 2;
/// Memory of the position database's accesses (redb's buffers) when `--db` is on: a brain
/// with it peaked at 10.4 MB with the least tables, 2.6 MB over one without (`soak --games
/// 20 --fast --seed 26 --db FILE`; 10.8 MB at most at the least tables).
const DB_MB: usize = 4;
/// The least transposition table.
const MIN_HASH_MB: usize = 1;
/// The least solver table of a thread.
const MIN_SOLVER_MB: usize = 1;

impl Session {
    /// Table sizes and threads within `max_memory`: the requested `hash_size` (or the
    /// default) and `thread_num`, at most the host's caps; under a memory limit (less the
    /// process's own memory, and the database's with `--db`) the solver
    /// tables get a quarter of what the process leaves and the transposition table the
    /// rest, and threads go before the tables shrink below their least sizes. A limit below
    /// what one thread and the least tables need is answered with an error, and the engine
    /// plays on at those least sizes.
    pub(super) fn apply_memory(&mut self) -> Result<(), String> {
        let want = self
            .hash_kb
            .map(|kb| (kb / 1024).max(1) as usize)
            .unwrap_or(DEFAULT_HASH_MB)
            .min(self.opts.hash_cap_mb)
            .max(MIN_HASH_MB);
        let Some(limit) = self.max_memory.map(|m| (m >> 20) as usize) else {
            self.engine.set_threads(self.threads);
            self.engine.set_hash_mb(want);
            self.engine.set_solver_table_mb(DEFAULT_TABLE_MB);
            return Ok(());
        };
        let process = PROCESS_MB
            + if self.opts.db == DbChoice::Off {
                0
            } else {
                DB_MB
            };
        let room = limit.saturating_sub(process);
        // Each thread: its stacks and lists (the first one's are in PROCESS_MB) and its
        // solver table; threads give way before the table shrinks below its least size.
        let fits = |t: usize| t * MIN_SOLVER_MB + (t - 1) * THREAD_MB + MIN_HASH_MB <= room;
        let threads = (1..=self.threads.max(1))
            .take_while(|&t| fits(t))
            .last()
            .unwrap_or(1);
        // A quarter of the room for the solver tables, the rest for the hash table.
        let solver = (room / (4 * threads)).clamp(MIN_SOLVER_MB, DEFAULT_TABLE_MB);
        let hash = room
            .saturating_sub(threads * solver + (threads - 1) * THREAD_MB)
            .clamp(MIN_HASH_MB, want);
        self.engine.set_threads(threads);
        self.engine.set_hash_mb(hash);
        self.engine.set_solver_table_mb(solver);
        let least = process + MIN_SOLVER_MB + MIN_HASH_MB;
        if limit < least {
            return Err(format!(
                "max_memory {limit} MB is below the {least} MB this engine needs; \
                 it plays on with its least tables ({MIN_HASH_MB} MB each) and one thread"
            ));
        }
        Ok(())
    }
}
