//! `solve`: the threat-space solver from the command line.
//!
//! One position: `solve [--vct] [--rule R] [--size N] [--ms T] MOVES...` where MOVES are `x,y`
//! points (black first, `pass` allowed) or one `h8h7j6` string.
//! A suite: `solve [--vct] [--ms T] --suite FILE` runs every row of a `../shared/data`-style
//! file and reports how often a win was found, and the median and worst time.
//! `--every N` takes every N-th row. `--engine` runs the whole engine (search with threat
//! checks) at `--ms` per move instead: on `defend_vcf` rows it reports how often the chosen
//! move is in the answer set, on `move` rows how often it chooses a move of the answer set
//! (an oracle's choice), on other rows how often it finds a forced win (a mate score) and
//! how long that took. `--nodes N` gives the engine a node budget instead of a time;
//! `--set key=value` sets a search option (`search::Options::set`); `--choices` prints
//! every row's id, chosen move and score (tab-separated) instead of only the misses.

use std::time::{Duration, Instant};
use wuzi::notation::{parse_h8_run, parse_move_list};
use wuzi::suite::{load_suite, PointSet};
use wuzi::threats::{Proof, SolveLimits, Solver};
use wuzi::{Board, Rule};

struct Opts {
    vct: bool,
    engine: bool,
    choices: bool,
    rule: Rule,
    size: usize,
    ms: u64,
    nodes: Option<u64>,
    /// Search options for `--engine` (`--set key=value`, see `search::Options::set`).
    search: wuzi::search::Options,
    depth: u8,
    every: usize,
    suite: Option<String>,
    moves: Vec<String>,
}

fn parse_args() -> Result<Opts, String> {
    let mut o = Opts {
        vct: false,
        engine: false,
        choices: false,
        rule: Rule::Freestyle,
        size: 15,
        ms: 10_000,
        nodes: None,
        search: wuzi::search::Options::default(),
        depth: 120,
        every: 1,
        suite: None,
        moves: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut val = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--vct" => o.vct = true,
            "--engine" => o.engine = true,
            "--choices" => o.choices = true,
            "--rule" => {
                let v = val("--rule")?;
                o.rule = Rule::parse(&v).ok_or(format!("unknown rule '{v}'"))?;
            }
            "--size" => o.size = val("--size")?.parse().map_err(|_| "bad --size")?,
            "--ms" => o.ms = val("--ms")?.parse().map_err(|_| "bad --ms")?,
            "--nodes" => o.nodes = Some(val("--nodes")?.parse().map_err(|_| "bad --nodes")?),
            "--set" => o.search.set_pair(&val("--set")?)?,
            "--every" => o.every = val("--every")?.parse().map_err(|_| "bad --every")?,
            "--depth" => o.depth = val("--depth")?.parse().map_err(|_| "bad --depth")?,
            "--suite" => o.suite = Some(val("--suite")?),
            "-h" | "--help" => {
                return Err("usage: solve [--vct] [--rule R] [--size N] [--ms T] MOVES... | solve [--vct] [--ms T] --suite FILE | solve --engine [--ms T | --nodes N] [--set K=V]... [--choices] --suite FILE".into())
            }
            _ => o.moves.push(a),
        }
    }
    Ok(o)
}

fn limits(ms: u64, depth: u8) -> SolveLimits {
    SolveLimits {
        depth,
        deadline: Some(Instant::now() + Duration::from_millis(ms)),
        ..SolveLimits::default()
    }
}

fn solve(solver: &mut Solver, b: &mut Board, o: &Opts) -> (Proof, Duration) {
    let t = Instant::now();
    let p = if o.vct {
        solver.vct(b, &limits(o.ms, o.depth))
    } else {
        solver.vcf(b, &limits(o.ms, o.depth))
    };
    (p, t.elapsed())
}

fn main() {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Some(path) = &o.suite {
        if o.engine {
            run_engine_suite(path, &o);
        } else {
            run_suite(path, &o);
        }
        return;
    }
    let text = o.moves.join(" ");
    let moves = if text.contains(',') || text.trim().is_empty() {
        parse_move_list(&text)
    } else {
        parse_h8_run(text.trim(), o.size)
    };
    let moves = moves.unwrap_or_else(|e| {
        eprintln!("bad move list: {e}");
        std::process::exit(2)
    });
    let mut b = Board::new(o.size, o.rule);
    if let Err(e) = b.play_all(&moves) {
        eprintln!("bad position: {e}");
        std::process::exit(2);
    }
    let mut solver = Solver::new();
    let (p, t) = solve(&mut solver, &mut b, &o);
    let kind = if o.vct { "VCT" } else { "VCF" };
    match p {
        Proof::Win(line) => {
            let l: Vec<String> = line.iter().map(|p| p.to_string()).collect();
            println!(
                "{kind}: win for {} ({} nodes, {:?}): {}",
                b.to_move(),
                solver.nodes(),
                t,
                l.join(" ")
            );
        }
        Proof::NoWin => println!("{kind}: none ({} nodes, {:?})", solver.nodes(), t),
        Proof::Unknown => println!(
            "{kind}: unknown, budget exhausted ({} nodes, {:?})",
            solver.nodes(),
            t
        ),
    }
}

/// The suite's rows (every `--every`-th one); exits with a message if it cannot be read.
fn load_rows(path: &str, o: &Opts) -> Vec<wuzi::suite::SuiteRow> {
    let rows = load_suite(std::path::Path::new(path)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    rows.into_iter().step_by(o.every.max(1)).collect()
}

fn run_suite(path: &str, o: &Opts) {
    let rows = load_rows(path, o);
    let mut solver = Solver::new();
    let (mut found, mut right, mut total) = (0, 0, 0);
    let mut times = Vec::new();
    for row in &rows {
        let Ok(mut b) = row.board() else {
            eprintln!("{}: bad position", row.id);
            continue;
        };
        solver.clear();
        let (p, t) = solve(&mut solver, &mut b, o);
        total += 1;
        times.push(t);
        if let Proof::Win(line) = &p {
            found += 1;
            let ok = match &row.answers {
                PointSet::Points(a) => a.contains(&line[0]),
                _ => true,
            };
            right += ok as usize;
            if !ok {
                println!("{}: first move {} not in answers", row.id, line[0]);
            }
        } else {
            println!("{}: {:?} ({} nodes)", row.id, p, solver.nodes());
        }
    }
    times.sort();
    let med = times.get(times.len() / 2).copied().unwrap_or_default();
    let worst = times.last().copied().unwrap_or_default();
    println!(
        "{path}: {total} rows, win found {found}, first move in answers {right}; median {:.2} ms, worst {:.2} ms",
        med.as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3
    );
}

fn run_engine_suite(path: &str, o: &Opts) {
    use wuzi::engine::{Engine, Level};
    use wuzi::search::{mate_distance, Limits};
    let rows = load_rows(path, o);
    // A node budget (repeatable on a loaded machine) replaces the time limits.
    let lim = match o.nodes {
        Some(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        None => Limits {
            soft_time: Some(Duration::from_millis(o.ms * 6 / 10)),
            hard_time: Some(Duration::from_millis(o.ms)),
            ..Limits::default()
        },
    };
    let (mut good, mut total, mut hopeless) = (0, 0, 0);
    let mut times = Vec::new();
    for row in &rows {
        let config = wuzi::engine::Config {
            search: o.search.clone(),
            ..wuzi::engine::Config::default()
        };
        let mut e = match Engine::with_config(15, row.rule, config) {
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
            println!("{}\t{}\t{}", row.id, out.best, out.score);
        }
        if ok {
            good += 1;
            times.push(first_win.unwrap_or(out.elapsed));
        } else if !o.choices {
            println!(
                "{}: chose {} score {} depth {}",
                row.id, out.best, out.score, out.depth
            );
        }
    }
    times.sort();
    let med = times.get(times.len() / 2).copied().unwrap_or_default();
    println!(
        "{path}: {total} rows ({hopeless} without a defence: right if a loss is seen), engine correct on {good} ({:.1}%); median time to the answer {:.1} ms",
        100.0 * good as f64 / total.max(1) as f64,
        med.as_secs_f64() * 1e3
    );
}
