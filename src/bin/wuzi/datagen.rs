//! `wuzi datagen`: self-play training data (`wuzi::datagen`), with a progress bar.

use crate::rule_parser;
use clap::builder::{PossibleValuesParser, RangedU64ValueParser, TypedValueParser};
use indicatif::{ProgressBar, ProgressStyle};
use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use wuzi::datagen::opening::OpeningStyle;
use wuzi::datagen::selfplay::Settings;
use wuzi::datagen::Job;
use wuzi::eval::Evaluation;
use wuzi::types::{MAX_SIZE, MIN_SIZE};
use wuzi::Rule;

/// Generate training data: games of the engine against itself from random balanced
/// openings at a fixed node budget, written as shards to DIR (docs/datagen.md).
///
/// Shards are complete files, each determined by the settings, the seed and its index: a
/// rerun skips the complete ones (resume after a kill), and machines with different seeds
/// make different data that can be put together.
#[derive(clap::Args)]
pub struct Args {
    /// Directory of the shards (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Games in all (rounded up to whole shards).
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=100_000_000))]
    games: usize,
    /// Nodes searched for every move.
    #[arg(long, value_name = "N", default_value_t = 20_000,
          value_parser = RangedU64ValueParser::<u64>::new().range(100..=100_000_000))]
    nodes: u64,
    /// Rule of the games.
    #[arg(long, value_name = "R", default_value = "freestyle", ignore_case = true,
          value_parser = rule_parser())]
    rule: Rule,
    /// Board size.
    #[arg(long, value_name = "N", default_value_t = 15,
          value_parser = RangedU64ValueParser::<usize>::new()
              .range(MIN_SIZE as u64..=MAX_SIZE as u64))]
    size: usize,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=1024))]
    workers: Option<usize>,
    /// Games per shard.
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    shard_games: usize,
    /// Seed of the run: give each machine its own.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The evaluation both sides search with: `default` (the built-in net where it plays,
    /// the classical evaluation elsewhere), `classical`, or a net file (nets/). Not part of
    /// the shard names: a run with another evaluation needs its own directory.
    #[arg(long, value_name = "EVAL", default_value = "default",
          value_parser = Evaluation::from_arg)]
    eval: Evaluation,
    /// Where the random opening stones go: `centre` (a compact group in the middle) or
    /// `wide` (up to ten stones over most of the board, like match openings; the shard
    /// names say `-wide`).
    #[arg(long, value_name = "STYLE", default_value = "centre", ignore_case = true,
          value_parser = openings_parser())]
    openings: OpeningStyle,
    /// Make only these shards of the run: `A..B` (shards A to B-1) or one shard `N`. Each is
    /// the shard the whole run makes under that number, so tasks on a cluster (cluster/,
    /// docs/cluster.md) can each make a part of one run.
    #[arg(long, value_name = "A..B", value_parser = shard_range)]
    shards: Option<Range<usize>>,
}

/// The `--openings` values: the library's style names.
fn openings_parser() -> impl TypedValueParser<Value = OpeningStyle> {
    PossibleValuesParser::new(OpeningStyle::ALL.map(OpeningStyle::name))
        .try_map(|s| OpeningStyle::parse(&s).ok_or_else(|| format!("unknown opening style '{s}'")))
}

/// The `--shards` value: `A..B` with A < B, or `N` for `N..N+1`.
fn shard_range(s: &str) -> Result<Range<usize>, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{t}' is not a shard number"))
    };
    let range = match s.split_once("..") {
        Some((a, b)) => number(a)?..number(b)?,
        None => {
            let n = number(s)?;
            n..n.saturating_add(1)
        }
    };
    if range.is_empty() {
        return Err(format!("{s}: an empty range (A..B makes shards A to B-1)"));
    }
    Ok(range)
}

/// Runs the subcommand: exit 0 when every shard is complete, 2 on an error.
pub fn run(args: Args) -> ExitCode {
    let workers = args.workers.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let eval = args.eval;
    let job = Job {
        settings: Settings {
            size: args.size,
            rule: args.rule,
            nodes: args.nodes,
            openings: args.openings,
        },
        games: args.games,
        shard_games: args.shard_games,
        workers,
        seed: args.seed,
        out: args.out,
        eval,
    };
    let range = args.shards.unwrap_or(0..job.shards());
    if range.end > job.shards() {
        eprintln!(
            "wuzi datagen: --shards {}..{}: the run has {} shards (0..{})",
            range.start,
            range.end,
            job.shards(),
            job.shards()
        );
        return ExitCode::from(2);
    }
    let bar = ProgressBar::new((range.len() * job.shard_games) as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg} (eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let positions = std::sync::atomic::AtomicUsize::new(0);
    let result = job.run_shards(range, &|game| {
        let searched = game.plies.len() - game.opening;
        let n = positions.fetch_add(searched, std::sync::atomic::Ordering::Relaxed) + searched;
        bar.inc(1);
        let rate = n as f64 / start.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!("{n} positions, {rate:.0}/s"));
    });
    bar.finish_and_clear();
    match result {
        Ok(s) => {
            let secs = start.elapsed().as_secs_f64();
            outln!(
                "{} shards written, {} complete already; {} games ({} black wins, {} white \
                 wins, {} draws), {} positions in {secs:.1} s: {:.0} positions/s, {:.0} per \
                 worker",
                s.shards_written,
                s.shards_skipped,
                s.games,
                s.results[0],
                s.results[1],
                s.results[2],
                s.positions,
                s.positions as f64 / secs,
                s.positions as f64 / secs / workers as f64
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("wuzi datagen: {e}");
            ExitCode::from(2)
        }
    }
}
