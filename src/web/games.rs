//! The server's games, one per page (by id), and the search slots they share: at most
//! `max_searches` searches at once (a request beyond them is answered 503 at once, not
//! queued), at most `max_games` games kept (the one idle longest is let go for a new one),
//! and none idle longer than `idle` (let go by [`Games::sweep`]).

use super::error::ApiError;
use super::session::{Session, Setup};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// A game shared between requests. Locks are held for a step, never across a wait.
pub type Shared = Arc<Mutex<Session>>;

/// Locks a game. A lock poisoned by a panic elsewhere still holds a whole game (every
/// change is made through the engine facade, which refuses bad moves before it changes
/// anything), so it is used, not given up.
pub fn lock(game: &Shared) -> MutexGuard<'_, Session> {
    game.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The games and the search slots.
pub struct Games {
    games: Mutex<HashMap<String, Shared>>,
    max_games: usize,
    /// How long a game may go unused before it is let go.
    pub idle: Duration,
    /// Most games whose engines keep a hash table between searches.
    max_tables: usize,
    slots: Arc<Semaphore>,
    max_searches: usize,
    /// Longest analysis, in seconds.
    pub analysis_seconds: f64,
    /// What every game's engine is set up with.
    pub setup: Setup,
    next: Mutex<u64>,
}

impl Games {
    /// No games yet, under the server's `options`.
    pub fn new(options: &super::Options) -> Games {
        let max_searches = options.max_searches.max(1);
        Games {
            games: Mutex::new(HashMap::new()),
            max_games: options.max_games.max(1),
            idle: options.idle,
            max_tables: options.max_tables.max(1),
            slots: Arc::new(Semaphore::new(max_searches)),
            max_searches,
            analysis_seconds: options.analysis_seconds,
            setup: Setup {
                eval: options.eval.clone(),
                db: options.db.clone(),
                placed: Default::default(),
            },
            next: Mutex::new(crate::engine::clock_seed()),
        }
    }

    /// A fresh id: a counter, mixed so that ids do not look like neighbours.
    pub fn new_id(&self) -> String {
        let mut n = self.next.lock().unwrap_or_else(|p| p.into_inner());
        *n = n.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *n;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        format!("{:012x}", (z ^ (z >> 31)) & 0xFFFF_FFFF_FFFF)
    }

    /// Keeps a new game, letting go of those idle past their time and, if the server is
    /// still full, of the one idle longest (503 if every game is searching).
    pub fn insert(&self, session: Session) -> Result<Shared, ApiError> {
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        games.retain(|_, g| !idle_past(&lock(g), now, self.idle));
        if games.len() >= self.max_games {
            let idle = games
                .iter()
                .map(|(id, g)| (id, lock(g)))
                .filter(|(_, s)| s.running().is_none())
                .min_by_key(|(_, s)| s.touched)
                .map(|(id, _)| id.clone());
            match idle {
                Some(id) => {
                    games.remove(&id);
                }
                None => {
                    return Err(ApiError::busy(format!(
                        "the server holds {} games, all thinking: try again soon",
                        games.len()
                    )))
                }
            }
        }
        let id = session.id().to_string();
        let shared = Arc::new(Mutex::new(session));
        games.insert(id, shared.clone());
        Ok(shared)
    }

    /// Lets go of every game unused for longer than `idle` (none is searching); returns
    /// how many.
    pub fn sweep(&self) -> usize {
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let before = games.len();
        let now = Instant::now();
        games.retain(|_, g| !idle_past(&lock(g), now, self.idle));
        before - games.len()
    }

    /// Makes room for `game`'s search to have a hash table: if that would make more than
    /// `max_tables` games keeping one, the games that searched longest ago (and are not
    /// searching) give theirs up. So the tables' memory stays under `max_tables` times a
    /// table, however many games are kept.
    pub fn room_for_table(&self, game: &Shared) {
        if lock(game).table_used().is_some() {
            return;
        }
        let games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let mut holders: Vec<(Instant, &Shared)> = games
            .values()
            .filter(|g| !Arc::ptr_eq(g, game))
            .filter_map(|g| lock(g).table_used().map(|t| (t, g)))
            .collect();
        let Some(excess) = (holders.len() + 1).checked_sub(self.max_tables) else {
            return;
        };
        holders.sort_by_key(|&(t, _)| t);
        let mut freed = 0;
        for (_, g) in holders {
            if freed >= excess {
                break;
            }
            freed += lock(g).free_table() as usize;
        }
    }

    /// The game `id` (404 if there is none: never made, deleted, or let go).
    pub fn get(&self, id: &str) -> Result<Shared, ApiError> {
        let games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let game = games.get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no game '{id}' on this server (it may have been closed): start a new one"
            ))
        })?;
        lock(&game).touched = std::time::Instant::now();
        Ok(game)
    }

    /// Forgets the game `id`; returns it so that a running search can be stopped.
    pub fn remove(&self, id: &str) -> Result<Shared, ApiError> {
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        games
            .remove(id)
            .ok_or_else(|| ApiError::not_found(format!("no game '{id}' on this server")))
    }

    /// A search slot, or 503 if all are taken.
    pub fn slot(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        self.slots.clone().try_acquire_owned().map_err(|_| {
            ApiError::busy(format!(
                "the server is busy: {} searches are running (its limit); try again in a moment",
                self.max_searches
            ))
        })
    }
}

/// Has `session` gone unused for longer than `idle` at `now`? A game with a search running
/// is in use.
fn idle_past(session: &Session, now: Instant, idle: Duration) -> bool {
    session.running().is_none() && now.saturating_duration_since(session.touched) > idle
}
