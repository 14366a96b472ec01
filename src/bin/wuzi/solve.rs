//! `wuzi solve`: the threat-space solver from the command line.
//!
//! One position: `wuzi solve [--vct] [--rule R] [--size N] [--ms T | --nodes N] MOVES...`
//! where MOVES are `x,y` points (black first, `pass` allowed) or one `h8h7j6` string.
//! A suite: `wuzi solve [--vct] [--ms T | --nodes N] --suite FILE` runs every row of a
//! suite file (the .tsv format of `tests/data/`) and reports how often a win was found,
//! the nodes, and the median and worst time.
//! `--every N` takes every N-th row. `--engine` runs the whole engine (search with threat
//! checks) at `--ms` per move instead: on `defend_vcf` rows it reports how often the chosen
//! move is in the answer set, on `move` rows how often it chooses a move of the answer set
//! (an oracle's choice), on other rows how often it finds a forced win (a mate score) and
//! how long that took. `--nodes N` gives the solver or the engine a node budget instead of
//! a time;
//! `--eval EVAL` gives the engine another evaluation (`classical`, or a net file);
//! `--threads N` lets it search with N threads;
//! `--set key=value` sets a search parameter (`search::Params::set`, built with the feature
//! `tuning`); `--choices` prints every row's id, chosen move and score (tab-separated)
//! instead of only the misses.

use crate::rule_parser;
use clap::builder::RangedU64ValueParser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use wuzi::engine::Config;
use wuzi::eval::Evaluation;
use wuzi::notation::{parse_h8_run, parse_move_list};
use wuzi::search::solver::{Proof, SolveLimits, Solver};
use wuzi::suite::{load_suite, PointSet};
use wuzi::types::{MAX_SIZE, MIN_SIZE};
use wuzi::{Board, Rule};

/// The longest time limit `--ms` takes: a day (a larger one would overflow the deadline).
const MAX_MS: u64 = 24 * 3600 * 1000;
/// The largest `--nodes` budget: hours of search a row.
const MAX_NODES: u64 = 1_000_000_000_000;

/// Run the threat-space solver (VCF or VCT) on a position, or the solver or the engine on a
/// suite of positions.
///
/// One position: MOVES are x,y points, black first (`pass` allowed), or h8 moves, run
/// together (h8i9j10i8) or apart (h8 i9 j10 i8); it prints the winning line, "none", or
/// "unknown" when the budget ran out. A suite (--suite FILE): the solver reports how often
/// it found a win and whether the first move is in the row's answers, with the median and
/// worst time; with --engine the engine searches each row for --ms milliseconds (or --nodes
/// nodes) and reports how often its move or score is right.
#[derive(clap::Args)]
#[command(
    override_usage = "wuzi solve [--vct] [--rule R] [--size N] [--ms T | --nodes N] [--depth D] [MOVES]...\n       \
                      wuzi solve [--vct] [--ms T | --nodes N] [--depth D] [--every N] --suite FILE\n       \
                      wuzi solve --engine [--ms T | --nodes N] [--eval EVAL] [--threads N] [--choices] [--every N] --suite FILE"
)]
pub struct Args {
    /// Prove a win by continuous threats (fours and threes), not only by fours.
    #[arg(long, conflicts_with = "engine")]
    vct: bool,
    /// The rule of the position.
    #[arg(long, value_name = "R", default_value = "freestyle", ignore_case = true,
          value_parser = rule_parser(), conflicts_with = "suite")]
    rule: Rule,
    /// Board size of the position.
    #[arg(long, value_name = "N", default_value_t = 15, conflicts_with = "suite",
          value_parser = RangedU64ValueParser::<usize>::new()
              .range(MIN_SIZE as u64..=MAX_SIZE as u64))]
    size: usize,
    /// Time limit in milliseconds: of the solver on each position; with --engine, the time
    /// a move of each row, which the engine spends as the Gomocup brain spends a turn of
    /// that many milliseconds (`INFO timeout_turn`: the turn less a safety margin).
    #[arg(long, value_name = "T", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_MS))]
    ms: u64,
    /// Most attacking moves in a line the solver searches.
    #[arg(long, value_name = "D", default_value_t = 120, conflicts_with = "engine",
          value_parser = clap::value_parser!(u8).range(1..))]
    depth: u8,
    /// Run every row of this suite file instead of one position: a .tsv such as those of
    /// tests/data/tactics (the format: tests/data/README.md).
    #[arg(long, value_name = "FILE", conflicts_with = "moves")]
    suite: Option<PathBuf>,
    /// Take only every N-th row of the suite.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "suite", conflicts_with = "moves",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    every: usize,
    /// Run the whole engine (search with threat checks) on each suite row instead of the solver.
    #[arg(long, requires = "suite", conflicts_with = "moves")]
    engine: bool,
    /// A node budget instead of --ms: of the solver on each position, or of the engine on each
    /// row with --engine (repeatable on a loaded machine).
    #[arg(long, value_name = "N", conflicts_with = "ms",
          value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    nodes: Option<u64>,
    /// The evaluation the engine searches with (--engine): `default` (the built-in net where
    /// it plays, the classical evaluation elsewhere), `classical`, or a net file (nets/).
    #[arg(long, value_name = "EVAL", requires = "engine", conflicts_with = "moves",
          value_parser = Evaluation::from_arg)]
    eval: Option<Evaluation>,
    /// A search parameter of the engine as key=value (repeatable; built with the feature
    /// `tuning`).
    #[cfg(feature = "tuning")]
    #[arg(
        long = "set",
        value_name = "K=V",
        requires = "engine",
        conflicts_with = "moves"
    )]
    sets: Vec<String>,
    /// Search threads of the engine (--engine; Lazy SMP, as the brain's `thread_num`); one
    /// unless given.
    #[arg(long, value_name = "N", requires = "engine", conflicts_with = "moves",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    threads: Option<usize>,
    /// Print every row's id, chosen move and score (tab-separated) instead of only the misses.
    #[arg(long, requires = "engine", conflicts_with = "moves")]
    choices: bool,
    /// The position's moves: x,y points (black first, `pass` allowed) or h8 moves.
    #[arg(value_name = "MOVES")]
    moves: Vec<String>,
}

/// Runs the subcommand; a bad position, suite file or `--set` gives a message and exit 2.
pub fn run(args: Args) -> ExitCode {
    match solve_command(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wuzi solve: {e}");
            ExitCode::from(2)
        }
    }
}

fn solve_command(o: &Args) -> Result<(), String> {
    if let Some(path) = &o.suite {
        if o.engine {
            #[allow(unused_mut)] // --set (feature `tuning`) changes it
            let mut config = Config {
                eval: o.eval.clone().unwrap_or_default(),
                threads: o.threads.unwrap_or(1),
                ..Config::default()
            };
            #[cfg(feature = "tuning")]
            for kv in &o.sets {
                config.params.set_pair(kv).map_err(|e| e.to_string())?;
            }
            run_engine_suite(path, o, &config)
        } else {
            run_suite(path, o)
        }
    } else {
        solve_position(o)
    }
}

/// The solver's limits: `--nodes` if given, else the `--ms` deadline.
fn limits(o: &Args) -> SolveLimits {
    match o.nodes {
        Some(nodes) => SolveLimits {
            depth: o.depth,
            nodes,
            ..SolveLimits::default()
        },
        None => SolveLimits {
            depth: o.depth,
            deadline: Some(Instant::now() + Duration::from_millis(o.ms)),
            ..SolveLimits::default()
        },
    }
}

fn solve(solver: &mut Solver, b: &mut Board, o: &Args) -> (Proof, Duration) {
    let t = Instant::now();
    let p = if o.vct {
        solver.vct(b, &limits(o))
    } else {
        solver.vcf(b, &limits(o))
    };
    (p, t.elapsed())
}

fn solve_position(o: &Args) -> Result<(), String> {
    let text = o.moves.join(" ");
    let moves = if text.contains(',') || text.trim().is_empty() {
        parse_move_list(&text)
    } else {
        parse_h8_run(&text, o.size)
    };
    let moves = moves.map_err(|e| format!("bad move list: {e}"))?;
    let mut b = Board::new(o.size, o.rule);
    b.play_all(&moves)
        .map_err(|e| format!("bad position: {e}"))?;
    let mut solver = Solver::new();
    let (p, t) = solve(&mut solver, &mut b, o);
    let kind = if o.vct { "VCT" } else { "VCF" };
    match p {
        Proof::Win(line) => {
            let l: Vec<String> = line.iter().map(|p| p.to_string()).collect();
            outln!(
                "{kind}: win for {} ({} nodes, {:?}): {}",
                b.to_move(),
                solver.nodes(),
                t,
                l.join(" ")
            );
        }
        Proof::NoWin => outln!("{kind}: none ({} nodes, {:?})", solver.nodes(), t),
        Proof::Unknown => outln!(
            "{kind}: unknown, budget exhausted ({} nodes, {:?})",
            solver.nodes(),
            t
        ),
    }
    Ok(())
}

/// The suite's rows (every `--every`-th one).
fn load_rows(path: &Path, o: &Args) -> Result<Vec<wuzi::suite::SuiteRow>, String> {
    let rows = load_suite(path)?;
    Ok(rows.into_iter().step_by(o.every).collect())
}

fn run_suite(path: &Path, o: &Args) -> Result<(), String> {
    let rows = load_rows(path, o)?;
    let mut solver = Solver::new();
    let (mut found, mut right, mut total) = (0, 0, 0);
    let mut nodes = 0;
    let mut times = Vec::new();
    for row in &rows {
        let Ok(mut b) = row.board() else {
            eprintln!("{}: bad position", row.id);
            continue;
        };
        solver.clear();
        let (p, t) = solve(&mut solver, &mut b, o);
        total += 1;
        nodes += solver.nodes();
        times.push(t);
        if let Proof::Win(line) = &p {
            found += 1;
            let ok = match &row.answers {
                PointSet::Points(a) => a.contains(&line[0]),
                _ => true,
            };
            right += ok as usize;
            if !ok {
                outln!("{}: first move {} not in answers", row.id, line[0]);
            }
        } else {
            outln!("{}: {:?} ({} nodes)", row.id, p, solver.nodes());
        }
    }
    times.sort();
    let med = times.get(times.len() / 2).copied().unwrap_or_default();
    let worst = times.last().copied().unwrap_or_default();
    outln!(
        "{}: {total} rows, win found {found}, first move in answers {right}; {nodes} nodes; median {:.2} ms, worst {:.2} ms",
        path.display(),
        med.as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3
    );
    Ok(())
}

fn run_engine_suite(path: &Path, o: &Args, config: &Config) -> Result<(), String> {
    use wuzi::engine::{Engine, Level};
    use wuzi::search::{mate_distance, Limits};
    let rows = load_rows(path, o)?;
    // A node budget (repeatable on a loaded machine) replaces the time limits.
    let budget = o.nodes.map(|n| Limits {
        nodes: Some(n),
        ..Limits::default()
    });
    let (mut good, mut total, mut hopeless) = (0, 0, 0);
    let mut times = Vec::new();
    for row in &rows {
        let mut e = match Engine::with_config(15, row.rule, config.clone()) {
            Ok(e) => e,
            Err(err) => {
                eprintln!("{}: {err}", row.id);
                continue;
            }
        };
        if e.set_position(&row.moves).is_err() {
            eprintln!("{}: bad position", row.id);
            continue;
        }
        // --ms: what the brain takes for a move at `timeout_turn` of that many milliseconds.
        let lim = budget.clone().unwrap_or_else(|| Limits::for_turn(o.ms));
        let mut first_win = None;
        let t = Instant::now();
        let out = e.think(Level::Full, &lim, &mut |info| {
            if first_win.is_none() && mate_distance(info.score).is_some_and(|m| m > 0) {
                first_win = Some(t.elapsed());
            }
        });
        total += 1;
        let ok = if row.task == "move" {
            matches!(&row.answers, PointSet::Points(a) if a.contains(&out.best))
        } else if row.task == "defend_vcf" {
            match &row.answers {
                // No defence exists: right when the engine sees that it loses.
                PointSet::Points(a) if a.is_empty() => {
                    hopeless += 1;
                    mate_distance(out.score).is_some_and(|m| m < 0)
                }
                PointSet::Points(a) => a.contains(&out.best),
                _ => true,
            }
        } else {
            mate_distance(out.score).is_some_and(|m| m > 0)
        };
        if o.choices {
            outln!("{}\t{}\t{}", row.id, out.best, out.score);
        }
        if ok {
            good += 1;
            times.push(first_win.unwrap_or(out.elapsed));
        } else if !o.choices {
            outln!(
                "{}: chose {} score {} depth {}",
                row.id,
                out.best,
                out.score,
                out.depth
            );
        }
    }
    times.sort();
    let med = times.get(times.len() / 2).copied().unwrap_or_default();
    outln!(
        "{}: {total} rows ({hopeless} without a defence: right if a loss is seen), engine correct on {good} ({:.1}%); median time to the answer {:.1} ms",
        path.display(),
        100.0 * good as f64 / total.max(1) as f64,
        med.as_secs_f64() * 1e3
    );
    Ok(())
}
