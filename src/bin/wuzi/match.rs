//! `wuzi match`: one game pair between two engine configurations, A and B, from one opening
//! of a suite file: A plays black in the first game and white in the second. It prints one
//! JSON line with both games' results, for a driver that runs many pairs (the SPRT of
//! `cluster/`, docs/cluster.md) and keeps the tally.
//!
//! Each side is a whole engine (`Engine::think` at `Level::Full`) with its own
//! configuration: the evaluation, threads, a node budget or a time a move (the limits a
//! Gomocup brain takes at that `timeout_turn`, `Limits::for_turn`), and with the feature
//! `tuning` search parameters. Both engines start each game from the opening's stones.

use clap::builder::RangedU64ValueParser;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use wuzi::engine::{Config, Engine, GameStatus, Level};
use wuzi::eval::Evaluation;
use wuzi::suite::{load_suite, SuiteRow};
use wuzi::types::{MAX_SIZE, MIN_SIZE};
use wuzi::{Color, Limits};

/// The longest time a move `--ms` takes: an hour.
const MAX_MS: u64 = 3_600_000;
/// The largest node budget a move.
const MAX_NODES: u64 = 1_000_000_000_000;

/// Play one game pair between engine configurations A and B from one opening of a suite
/// file (A black, then A white) and print the results as one JSON line.
///
/// A side's limit is its own `--a-nodes`/`--a-ms` (`--b-...`), else the shared `--nodes` or
/// `--ms` (100 ms a move unless told). The line: `{"opening": ID, "index": N, "rule": R,
/// "size": S, "games": [{"a": "black", "points": P, "moves": M, "end": E}, {"a": "white",
/// ...}], "a_points": P}`, points of A (1, 0.5 or 0; 0 to 2 for the pair), moves on the
/// board at the end, the end `five`, `forbidden` or `draw`.
#[derive(clap::Args)]
pub struct Args {
    /// The suite file of openings (tests/data/openings/, or one from `wuzi openings`).
    #[arg(long, value_name = "FILE")]
    openings: PathBuf,
    /// Which opening: its row number in the file, from 0.
    #[arg(long, value_name = "N")]
    opening: usize,
    /// Board size of the openings (each row gives its rule).
    #[arg(long, value_name = "N", default_value_t = 15,
          value_parser = RangedU64ValueParser::<usize>::new()
              .range(MIN_SIZE as u64..=MAX_SIZE as u64))]
    size: usize,
    /// Milliseconds a move of both sides (unless a side has its own limit).
    #[arg(long, value_name = "T", conflicts_with = "nodes",
          value_parser = clap::value_parser!(u64).range(1..=MAX_MS))]
    ms: Option<u64>,
    /// Nodes a move of both sides instead of a time (repeatable on a loaded machine).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    nodes: Option<u64>,
    /// A's evaluation: `default` (the built-in net where it plays, the classical
    /// evaluation elsewhere), `classical`, or a net file.
    #[arg(long, value_name = "EVAL", default_value = "default",
          value_parser = Evaluation::from_arg)]
    a_eval: Evaluation,
    /// B's evaluation, as `--a-eval`.
    #[arg(long, value_name = "EVAL", default_value = "default",
          value_parser = Evaluation::from_arg)]
    b_eval: Evaluation,
    /// A's milliseconds a move.
    #[arg(long, value_name = "T", conflicts_with = "a_nodes",
          value_parser = clap::value_parser!(u64).range(1..=MAX_MS))]
    a_ms: Option<u64>,
    /// B's milliseconds a move.
    #[arg(long, value_name = "T", conflicts_with = "b_nodes",
          value_parser = clap::value_parser!(u64).range(1..=MAX_MS))]
    b_ms: Option<u64>,
    /// A's nodes a move.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    a_nodes: Option<u64>,
    /// B's nodes a move.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    b_nodes: Option<u64>,
    /// A's search threads (Lazy SMP).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    a_threads: usize,
    /// B's search threads.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    b_threads: usize,
    /// A search parameter of A as key=value (repeatable; built with the feature `tuning`).
    #[cfg(feature = "tuning")]
    #[arg(long, value_name = "K=V")]
    a_set: Vec<String>,
    /// A search parameter of B as key=value (repeatable; feature `tuning`).
    #[cfg(feature = "tuning")]
    #[arg(long, value_name = "K=V")]
    b_set: Vec<String>,
}

/// A side's move limit: nodes a move, or the brain's limits for a time a move.
#[derive(Clone, Copy)]
enum Budget {
    Nodes(u64),
    Ms(u64),
}

impl Budget {
    fn limits(self) -> Limits {
        match self {
            Budget::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            Budget::Ms(ms) => Limits::for_turn(ms),
        }
    }
}

/// One side: its engine configuration and its limit.
struct Side {
    config: Config,
    budget: Budget,
}

/// One game's result, as the line gives it.
#[derive(Serialize)]
struct GameResult {
    /// A's colour.
    a: &'static str,
    /// A's points.
    points: f64,
    /// Stones on the board at the end.
    moves: usize,
    /// How the game ended.
    end: &'static str,
}

/// The line of a pair.
#[derive(Serialize)]
struct PairResult<'a> {
    opening: &'a str,
    index: usize,
    rule: &'static str,
    size: usize,
    games: [GameResult; 2],
    a_points: f64,
}

/// Runs the subcommand: exit 0 with the line, 2 with a message on bad input.
pub fn run(args: Args) -> ExitCode {
    match pair(&args) {
        Ok(line) => {
            outln!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("wuzi match: {e}");
            ExitCode::from(2)
        }
    }
}

/// The two sides of the arguments.
fn sides(args: &Args) -> Result<[Side; 2], String> {
    let shared = match (args.nodes, args.ms) {
        (Some(n), _) => Budget::Nodes(n),
        (None, Some(ms)) => Budget::Ms(ms),
        (None, None) => Budget::Ms(100),
    };
    let budget = |nodes: Option<u64>, ms: Option<u64>| match (nodes, ms) {
        (Some(n), _) => Budget::Nodes(n),
        (None, Some(ms)) => Budget::Ms(ms),
        (None, None) => shared,
    };
    #[allow(unused_mut)] // --a-set and --b-set (feature `tuning`) change them
    let mut sides = [
        Side {
            config: Config {
                eval: args.a_eval.clone(),
                threads: args.a_threads,
                ..Config::default()
            },
            budget: budget(args.a_nodes, args.a_ms),
        },
        Side {
            config: Config {
                eval: args.b_eval.clone(),
                threads: args.b_threads,
                ..Config::default()
            },
            budget: budget(args.b_nodes, args.b_ms),
        },
    ];
    #[cfg(feature = "tuning")]
    for (side, sets) in sides.iter_mut().zip([&args.a_set, &args.b_set]) {
        for kv in sets {
            side.config.params.set_pair(kv).map_err(|e| e.to_string())?;
        }
    }
    Ok(sides)
}

/// The opening's row.
fn opening(path: &Path, index: usize) -> Result<SuiteRow, String> {
    let rows = load_suite(path).map_err(|e| e.to_string())?;
    let n = rows.len();
    rows.into_iter().nth(index).ok_or_else(|| {
        format!(
            "{}: no opening {index} (the file has {n}, from 0)",
            path.display()
        )
    })
}

/// Plays the pair and gives its line.
fn pair(args: &Args) -> Result<String, String> {
    let row = opening(&args.openings, args.opening)?;
    let sides = sides(args)?;
    let mut games = Vec::with_capacity(2);
    for a_color in [Color::Black, Color::White] {
        games.push(game(args.size, &row, &sides, a_color)?);
    }
    let a_points = games.iter().map(|g| g.points).sum();
    let [first, second]: [GameResult; 2] = games.try_into().map_err(|_| "two games".to_string())?;
    let line = PairResult {
        opening: &row.id,
        index: args.opening,
        rule: row.rule.name(),
        size: args.size,
        games: [first, second],
        a_points,
    };
    serde_json::to_string(&line).map_err(|e| e.to_string())
}

/// A side's engine on the opening.
fn engine(size: usize, row: &SuiteRow, side: &Side) -> Result<Engine, String> {
    let mut e =
        Engine::with_config(size, row.rule, side.config.clone()).map_err(|e| e.to_string())?;
    e.set_position(&row.moves)
        .map_err(|e| format!("opening {}: {e}", row.id))?;
    Ok(e)
}

/// One game from the opening, A playing `a_color`.
fn game(
    size: usize,
    row: &SuiteRow,
    sides: &[Side; 2],
    a_color: Color,
) -> Result<GameResult, String> {
    let mut engines = [engine(size, row, &sides[0])?, engine(size, row, &sides[1])?];
    let status = loop {
        let to_move = engines[0].board().to_move();
        let i = usize::from(to_move != a_color);
        let limits = sides[i].budget.limits();
        let best = engines[i].think(Level::Full, &limits, &mut |_| {}).best;
        if best.is_none() {
            // No move left to search: the board is full for this side.
            break GameStatus::Draw;
        }
        let status = engines[0].play(best).map_err(|e| e.to_string())?;
        engines[1].play(best).map_err(|e| e.to_string())?;
        if status != GameStatus::Ongoing {
            break status;
        }
    };
    let (points, end) = match status {
        GameStatus::Five { winner } => (if winner == a_color { 1.0 } else { 0.0 }, "five"),
        GameStatus::Forbidden { winner } => {
            (if winner == a_color { 1.0 } else { 0.0 }, "forbidden")
        }
        _ => (0.5, "draw"),
    };
    Ok(GameResult {
        a: if a_color == Color::Black {
            "black"
        } else {
            "white"
        },
        points,
        moves: engines[0].board().moves().len(),
        end,
    })
}
