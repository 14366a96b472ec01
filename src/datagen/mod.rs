//! Training data from self-play (`wuzi datagen`): games of the engine against itself from
//! random balanced openings at a fixed node budget ([`selfplay`]), written in shards of a
//! documented binary format ([`format`](mod@format), `docs/datagen.md`), and turned into the network's
//! inputs for the trainer ([`features`]).
//!
//! The work is cut into shards of [`Job::shard_games`] games. Shard `k` of a run is
//! determined by the settings, the seed and `k` alone, so workers (threads here, or whole
//! machines with different seeds) share nothing; a shard is written under a temporary name
//! and renamed when complete, and a run that finds a complete shard skips it, so a killed
//! run resumes where it stopped.

pub mod features;
pub mod format;
pub mod opening;
pub mod selfplay;

use crate::engine::{Config, Engine};
use format::{Game, MAGIC};
use opening::OpeningStyle;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use selfplay::Settings;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use thiserror::Error;

/// Transposition table of each worker's engine: the searches are small (thousands of
/// nodes), and many workers share the machine's memory.
pub const WORKER_HASH_MB: usize = 16;
/// The file extension of shards.
pub const EXTENSION: &str = "wzd";

/// A data-generation run.
#[derive(Clone, Debug)]
pub struct Job {
    /// What each game is.
    pub settings: Settings,
    /// Games in all (rounded up to whole shards).
    pub games: usize,
    /// Games per shard.
    pub shard_games: usize,
    /// Threads, each with its own engine.
    pub workers: usize,
    /// The run's seed: runs on several machines need different seeds.
    pub seed: u64,
    /// The directory the shards go to (created if missing).
    pub out: PathBuf,
    /// The evaluation both sides search with (the default: the built-in net where it
    /// plays). Not part of the shard names: give a run with another one its own directory.
    pub eval: crate::eval::Evaluation,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Shards written by this run.
    pub shards_written: usize,
    /// Shards found complete and skipped.
    pub shards_skipped: usize,
    /// Games played by this run.
    pub games: usize,
    /// Searched positions (plies with a search) of those games.
    pub positions: usize,
    /// Wins of black, wins of white, draws, in those games.
    pub results: [usize; 3],
}

/// A run that could not go on.
#[derive(Debug, Error)]
pub enum DatagenError {
    /// The settings cannot be played.
    #[error("{0}")]
    Settings(String),
    /// A file could not be written or renamed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

impl Job {
    /// How many shards the run has.
    pub fn shards(&self) -> usize {
        self.games.div_ceil(self.shard_games.max(1))
    }

    /// The file of shard `k`: the rule, the size, `-wide` for wide openings, the nodes, the
    /// seed and `k`.
    pub fn shard_path(&self, k: usize) -> PathBuf {
        let style = match self.settings.openings {
            OpeningStyle::Centre => "",
            OpeningStyle::Wide => "-wide",
        };
        self.out.join(format!(
            "{}{}{style}-n{}-s{}-{k:05}.{EXTENSION}",
            self.settings.rule.name(),
            self.settings.size,
            self.settings.nodes,
            self.seed
        ))
    }

    /// Runs the job; `on_game` hears of every finished game (from any worker).
    pub fn run(&self, on_game: &(dyn Fn(&Game) + Sync)) -> Result<Summary, DatagenError> {
        self.run_shards(0..self.shards(), on_game)
    }

    /// Runs shards `range` of the job alone (the part of it within `0..shards()`): each is
    /// the shard the whole run makes under that index, so separate processes or machines
    /// sharing one seed can each make their own part of a run.
    pub fn run_shards(
        &self,
        range: Range<usize>,
        on_game: &(dyn Fn(&Game) + Sync),
    ) -> Result<Summary, DatagenError> {
        let range = range.start.min(self.shards())..range.end.min(self.shards());
        Engine::new(self.settings.size, self.settings.rule)
            .map_err(|e| DatagenError::Settings(e.to_string()))?;
        if self.shard_games == 0 || self.workers == 0 {
            return Err(DatagenError::Settings(
                "games per shard and workers must be at least 1".into(),
            ));
        }
        std::fs::create_dir_all(&self.out).map_err(|source| DatagenError::Io {
            path: self.out.clone(),
            source,
        })?;
        let next = AtomicUsize::new(range.start);
        let summary = Mutex::new(Summary::default());
        let failure = Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..self.workers {
                s.spawn(|| loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= range.end || failure.lock().is_ok_and(|f| f.is_some()) {
                        return;
                    }
                    if let Err(e) = self.shard(k, on_game, &summary) {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                        return;
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().ok().flatten() {
            return Err(e);
        }
        Ok(summary.into_inner().unwrap_or_default())
    }

    /// Writes shard `k`, unless it is complete already.
    fn shard(
        &self,
        k: usize,
        on_game: &(dyn Fn(&Game) + Sync),
        summary: &Mutex<Summary>,
    ) -> Result<(), DatagenError> {
        let path = self.shard_path(k);
        if complete(&path, self.shard_games) {
            if let Ok(mut s) = summary.lock() {
                s.shards_skipped += 1;
            }
            return Ok(());
        }
        let config = Config {
            hash_mb: WORKER_HASH_MB,
            eval: self.eval.clone(),
            ..Config::default()
        };
        let mut engine = Engine::with_config(self.settings.size, self.settings.rule, config)
            .map_err(|e| DatagenError::Settings(e.to_string()))?;
        // Shard k's games depend on the seed and k only.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(
            self.seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let mut bytes = MAGIC.to_vec();
        for _ in 0..self.shard_games {
            let game = selfplay::play_game(&self.settings, &mut engine, &mut rng);
            format::write_game(&game, &mut bytes);
            on_game(&game);
            if let Ok(mut s) = summary.lock() {
                s.games += 1;
                s.positions += game.plies.len() - game.opening;
                s.results[match game.outcome {
                    format::Outcome::BlackWin => 0,
                    format::Outcome::WhiteWin => 1,
                    format::Outcome::Draw => 2,
                }] += 1;
            }
        }
        let part = path.with_extension("part");
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| DatagenError::Io { path, source }
        };
        std::fs::write(&part, &bytes).map_err(io(&part))?;
        std::fs::rename(&part, &path).map_err(io(&path))?;
        if let Ok(mut s) = summary.lock() {
            s.shards_written += 1;
        }
        Ok(())
    }
}

/// Does `path` hold a readable shard of `games` games?
fn complete(path: &Path, games: usize) -> bool {
    std::fs::read(path)
        .ok()
        .and_then(|b| format::read_shard(&b).ok())
        .is_some_and(|g| g.len() == games)
}
