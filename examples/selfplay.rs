//! In-process A/B match between two engine configurations, both colours per opening.
//! Usage:
//! `selfplay MS_PER_MOVE [N_OPENINGS] [A-flags] -- [B-flags]` (`nN` instead of a time: N
//! nodes a move). Flags of either side: the search parameters as `key=value`
//! (`leaf_vcf_nodes=N root_threat_nodes=N ...`, the keys of `search::Params`), `threads=N`,
//! `soft=PERCENT`, `eval=EVAL` (`default`, `classical` or a net file). Match options, from
//! the environment: `OPENINGS=FILE` (a suite file, e.g. from `wuzi openings`, or a file
//! named `*.offset.txt` in the offset form of tournament managers, whose rule `RULE=NAME`
//! gives; default the 40 Piskvork openings), `SPRT=ELO0,ELO1` (stop when a pentanomial
//! SPRT at alpha = beta = 0.05 decides; N_OPENINGS is then the most it plays), `SIZE=N`
//! (the board size of the openings, default 15; a suite's rows give their rule),
//! `CLOCK=MATCH_MS/TURN_MS` (a game clock for each side, as a manager's `timeout_match` and
//! `timeout_turn`, instead of a time a move: each move's limits come from the brain's time
//! manager with the time left, a side whose clock runs out loses, and the time each side
//! spent per move is reported). Needs the feature `tuning`:
//! `cargo run --release --features tuning --example selfplay -- ...`.
use std::time::{Duration, Instant};
use wuzi::engine::{Config, Engine, GameStatus, Level};
use wuzi::search::timeman::TimeControl;
use wuzi::suite::{load_offset_openings, load_suite, SuiteRow};
use wuzi::{Color, Limits, Rule};

/// The engine configuration of one side's flags.
fn config(flags: &[String]) -> Result<Config, String> {
    let mut c = Config::default();
    for f in flags {
        let (k, v) = f
            .split_once('=')
            .ok_or_else(|| format!("flag '{f}': expected key=value"))?;
        if k == "eval" {
            c.eval = wuzi::eval::Evaluation::from_arg(v).map_err(|e| e.to_string())?;
            continue;
        }
        let v: i64 = v
            .parse()
            .map_err(|_| format!("flag '{f}': the value must be an integer"))?;
        match k {
            "soft" => {} // read by `limits`
            "threads" => c.threads = v.max(1) as usize,
            _ => c.params.set(k, v).map_err(|e| e.to_string())?,
        }
    }
    Ok(c)
}

/// Per-move limits: `ms` hard (or `nodes`), soft at the `soft=` percentage (default 60).
fn limits(flags: &[String], ms: u64, nodes: Option<u64>) -> Result<Limits, String> {
    let soft = match flags.iter().find_map(|f| f.strip_prefix("soft=")) {
        Some(v) => v
            .parse::<u64>()
            .map_err(|_| format!("soft={v}: expected a percentage"))?,
        None => 60,
    };
    Ok(Limits {
        soft_time: Some(Duration::from_millis(ms * soft / 100)),
        hard_time: Some(Duration::from_millis(ms)),
        nodes,
        ..Default::default()
    })
}

/// A side's engine for one opening: its configuration on the opening's rule and stones.
fn engine(size: usize, row: &SuiteRow, config: &Config) -> Result<Engine, String> {
    let mut e = Engine::with_config(size, row.rule, config.clone()).map_err(|e| e.to_string())?;
    e.set_position(&row.moves)
        .map_err(|e| format!("opening {}: {e}", row.id))?;
    Ok(e)
}

/// Under a game clock, the time report goes to stderr after this many pairs of games too.
const CLOCK_REPORT_PAIRS: u32 = 10;

/// A game clock for each side (`CLOCK=MATCH_MS/TURN_MS`), in milliseconds.
#[derive(Clone, Copy, Debug)]
struct Clock {
    match_ms: i64,
    turn_ms: i64,
}

/// The time the sides (A, B) spent under a game clock.
#[derive(Debug, Default)]
struct ClockLog {
    /// Per side, by the side's own move number (from 0): the milliseconds spent, summed
    /// over the games, and the number of games that had that move.
    by_move: [Vec<(i64, u32)>; 2],
    /// Per side: the milliseconds spent in all games together.
    total_ms: [i64; 2],
    /// Games played under the clock.
    games: u32,
    /// Per side: games lost on time (the game clock run out, or a move over the turn time).
    flagged: [u32; 2],
}

impl ClockLog {
    fn record(&mut self, side: usize, own_move: usize, ms: i64) {
        let v = &mut self.by_move[side];
        if v.len() <= own_move {
            v.resize(own_move + 1, (0, 0));
        }
        v[own_move].0 += ms;
        v[own_move].1 += 1;
        self.total_ms[side] += ms;
    }

    /// The report: each side's mean share of the game clock spent, losses on time, and the
    /// mean time a move by move number (in groups of five moves).
    fn report(&self, clock: Clock) -> String {
        let games = self.games.max(1) as f64;
        let mut out = format!(
            "clock {}/{} ms: mean spent a game A {:.1} s ({:.0}%), B {:.1} s ({:.0}%); \
             lost on time A {}, B {}\nmean ms a move by own move number (A / B):",
            clock.match_ms,
            clock.turn_ms,
            self.total_ms[0] as f64 / games / 1000.0,
            100.0 * self.total_ms[0] as f64 / games / clock.match_ms as f64,
            self.total_ms[1] as f64 / games / 1000.0,
            100.0 * self.total_ms[1] as f64 / games / clock.match_ms as f64,
            self.flagged[0],
            self.flagged[1],
        );
        let n = self.by_move[0].len().max(self.by_move[1].len());
        for from in (0..n).step_by(5) {
            let mean = |side: usize| {
                let rows = self.by_move[side].iter().skip(from).take(5);
                let (ms, k) = rows.fold((0i64, 0u32), |(a, b), &(m, c)| (a + m, b + c));
                if k == 0 {
                    "-".to_string()
                } else {
                    format!("{} ({k})", ms / i64::from(k))
                }
            };
            out += &format!(
                "\n  {:>3}-{:<3} {} / {}",
                from + 1,
                from + 5,
                mean(0),
                mean(1)
            );
        }
        out
    }
}

/// Points of A (1, 0.5 or 0) in one game from `row`, and the game's length in moves. Under
/// a game `clock` each move's limits come from the time manager and the log gets its time.
fn play(
    size: usize,
    row: &SuiteRow,
    a_is_black: bool,
    configs: [&Config; 2],
    lim: [&Limits; 2],
    clock: Option<(Clock, &mut ClockLog)>,
) -> (f64, usize) {
    // `main` made both engines on every opening before the match.
    let mut engines = [
        engine(size, row, configs[0]).expect("checked before the match"),
        engine(size, row, configs[1]).expect("checked before the match"),
    ];
    let a_color = if a_is_black {
        Color::Black
    } else {
        Color::White
    };
    let (clock, mut log) = match clock {
        Some((c, log)) => (Some(c), Some(log)),
        None => (None, None),
    };
    let mut left = clock.map_or([0; 2], |c| [c.match_ms; 2]);
    let mut own_moves = [0usize; 2];
    let status = loop {
        let i = usize::from(engines[0].board().to_move() != a_color);
        let limits = match clock {
            Some(c) => Limits {
                nodes: lim[i].nodes,
                ..TimeControl {
                    turn_ms: Some(c.turn_ms),
                    match_ms: Some(c.match_ms),
                    left_ms: Some(left[i]),
                }
                .limits(
                    engines[i].board().stone_count(),
                    size * size,
                    &configs[i].params,
                )
            },
            None => lim[i].clone(),
        };
        let started = Instant::now();
        let o = engines[i].think(Level::Full, &limits, &mut |_| {});
        let ms = started.elapsed().as_millis() as i64;
        if let (Some(c), Some(log)) = (clock, log.as_deref_mut()) {
            log.record(i, own_moves[i], ms);
            own_moves[i] += 1;
            left[i] -= ms;
            if left[i] < 0 || ms > c.turn_ms {
                log.flagged[i] += 1;
                eprintln!(
                    "{} {} lost on time at its move {}: {ms} ms spent (hard limit {:?}), \
                     {} ms left",
                    row.id,
                    ["A", "B"][i],
                    own_moves[i],
                    limits.hard_time,
                    left[i]
                );
                let loser = engines[i].board().to_move();
                break GameStatus::Five { winner: !loser };
            }
        }
        if o.best.is_none() {
            break GameStatus::Draw;
        }
        // A searched move is legal on both boards, which hold the same stones.
        let s1 = engines[0].play(o.best).expect("a searched move is legal");
        engines[1].play(o.best).expect("a searched move is legal");
        if s1 != GameStatus::Ongoing {
            break s1;
        }
    };
    if let Some(log) = log {
        log.games += 1;
    }
    let pts = match status {
        GameStatus::Five { winner } | GameStatus::Forbidden { winner } => {
            if winner == a_color {
                1.0
            } else {
                0.0
            }
        }
        _ => 0.5,
    };
    (pts, engines[0].board().ply())
}

/// The expected score of an Elo difference.
fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Fewest pairs before the SPRT may stop: its ratio takes the variance from the pairs seen,
/// and a handful of alike pairs make that variance tiny and the ratio huge (5 pairs
/// [4, 1, 0, 0, 0] gave -3.29 and stopped a test that scored +44 Elo on 20 other openings).
const MIN_SPRT_PAIRS: u32 = 20;

/// The mean score of a pair (one opening, both colours) as a fraction of its two points,
/// the variance of that score over the pairs, and the number of pairs, from the counts of
/// pairs by A's points in the pair (0, 0.5, ... 2).
fn pair_stats(pairs: &[u32; 5]) -> (f64, f64, f64) {
    let n: f64 = pairs.iter().map(|&c| c as f64).sum();
    if n == 0.0 {
        return (0.5, 0.0, 0.0);
    }
    let x = |i: usize| i as f64 / 4.0;
    let mean: f64 = (0..5).map(|i| pairs[i] as f64 * x(i)).sum::<f64>() / n;
    let var: f64 = (0..5)
        .map(|i| pairs[i] as f64 * (x(i) - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, var, n)
}

/// The log-likelihood ratio of "A is `elo1` better" against "`elo0`" from the pairs
/// ([`pair_stats`]): the normal approximation of the generalised SPRT, as tournament
/// testers compute it.
fn llr(pairs: &[u32; 5], elo0: f64, elo1: f64) -> f64 {
    let (mean, var, n) = pair_stats(pairs);
    if var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (expected(elo0), expected(elo1));
    (s1 - s0) * (2.0 * mean - s0 - s1) * n / (2.0 * var)
}

/// Elo of a score, and the bounds of its 95% interval from the pairs' variance.
fn elo_interval(pairs: &[u32; 5]) -> (f64, f64, f64) {
    let (mean, var, n) = pair_stats(pairs);
    let se = (var / n.max(1.0)).sqrt();
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10();
    (elo(mean), elo(mean - 1.96 * se), elo(mean + 1.96 * se))
}

/// The match's settings, from the command line and the environment.
struct Settings {
    ms: u64,
    nodes: Option<u64>,
    n: usize,
    a_flags: Vec<String>,
    b_flags: Vec<String>,
    openings: String,
    rows: Vec<SuiteRow>,
    size: usize,
    sprt: Option<(f64, f64)>,
    clock: Option<Clock>,
}

const USAGE: &str = "usage: selfplay MS_PER_MOVE|nNODES [N_OPENINGS] [A-flags] -- [B-flags] \
                     (environment: OPENINGS=FILE [RULE=NAME] SPRT=ELO0,ELO1 SIZE=N \
                     CLOCK=MATCH_MS/TURN_MS)";

/// The file-name ending of an opening file in the offset form.
const OFFSET_SUFFIX: &str = ".offset.txt";

fn settings() -> Result<Settings, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let first = args.first().ok_or("no time or node budget given")?;
    // `MS` per move, or `nN` for N nodes per move (independent of machine load).
    let bad = || format!("'{first}': expected milliseconds a move, or nN for N nodes");
    let (ms, nodes) = match first.strip_prefix('n') {
        Some(n) => (60_000, Some(n.parse::<u64>().map_err(|_| bad())?)),
        None => (first.parse().map_err(|_| bad())?, None),
    };
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(40);
    let sep = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let a_flags = args[2.min(sep)..sep].to_vec();
    let b_flags = args.get(sep + 1..).map(|s| s.to_vec()).unwrap_or_default();
    let openings = std::env::var("OPENINGS")
        .unwrap_or_else(|_| "tests/data/openings/freestyle15_piskvork_openings.tsv".into());
    let size: usize = match std::env::var("SIZE") {
        Ok(s) => s
            .parse()
            .map_err(|_| format!("SIZE={s}: expected a board size"))?,
        Err(_) => 15,
    };
    let path = std::path::Path::new(&openings);
    let rows = if openings.ends_with(OFFSET_SUFFIX) {
        let name = std::env::var("RULE")
            .map_err(|_| format!("OPENINGS={openings}: the offset form needs RULE=NAME"))?;
        let rule = Rule::parse(&name).ok_or_else(|| format!("RULE={name}: unknown rule"))?;
        load_offset_openings(path, size, rule)
    } else {
        load_suite(path)
    }
    .map_err(|e| e.to_string())?;
    let sprt = match std::env::var("SPRT") {
        Ok(s) => {
            let bounds = s.split_once(',').and_then(|(a, b)| {
                Some((a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?))
            });
            Some(bounds.ok_or_else(|| format!("SPRT={s}: expected ELO0,ELO1"))?)
        }
        Err(_) => None,
    };
    let clock = match std::env::var("CLOCK") {
        Ok(s) => {
            let parsed = s.split_once('/').and_then(|(m, t)| {
                Some(Clock {
                    match_ms: m.trim().parse().ok().filter(|&m: &i64| m > 0)?,
                    turn_ms: t.trim().parse().ok().filter(|&t: &i64| t > 0)?,
                })
            });
            Some(parsed.ok_or_else(|| format!("CLOCK={s}: expected MATCH_MS/TURN_MS"))?)
        }
        Err(_) => None,
    };
    Ok(Settings {
        ms,
        nodes,
        n,
        a_flags,
        b_flags,
        openings,
        rows,
        size,
        sprt,
        clock,
    })
}

fn main() {
    let fail = |e: String| -> ! {
        eprintln!("selfplay: {e}\n{USAGE}");
        std::process::exit(2)
    };
    let set = settings().unwrap_or_else(|e| fail(e));
    let (size, sprt, openings) = (set.size, set.sprt, &set.openings);
    let (a_flags, b_flags) = (&set.a_flags, &set.b_flags);
    let configs = [a_flags, b_flags].map(|f| config(f).unwrap_or_else(|e| fail(e)));
    // Every opening must set up on both sides before the first game.
    for row in set.rows.iter().take(set.n) {
        for c in &configs {
            if let Err(e) = engine(size, row, c) {
                fail(e);
            }
        }
    }
    // alpha = beta = 0.05.
    let (lower, upper) = ((0.05f64 / 0.95).ln(), (0.95f64 / 0.05).ln());
    let (lim_a, lim_b) = match (
        limits(a_flags, set.ms, set.nodes),
        limits(b_flags, set.ms, set.nodes),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => fail(e),
    };
    let (mut wdl, mut pairs) = ([0u32; 3], [0u32; 5]);
    let mut clock_log = ClockLog::default();
    for row in set.rows.iter().take(set.n) {
        let mut pair = 0.0;
        for a_is_black in [true, false] {
            let (pts, len) = play(
                size,
                row,
                a_is_black,
                [&configs[0], &configs[1]],
                [&lim_a, &lim_b],
                set.clock.map(|c| (c, &mut clock_log)),
            );
            wdl[if pts == 1.0 {
                0
            } else if pts == 0.0 {
                2
            } else {
                1
            }] += 1;
            pair += pts;
            eprintln!(
                "{} A as {}: {pts} ({len} moves)  W-L-D {}-{}-{}",
                row.id,
                if a_is_black { "black" } else { "white" },
                wdl[0],
                wdl[2],
                wdl[1]
            );
        }
        pairs[(pair * 2.0) as usize] += 1;
        let played = pairs.iter().sum::<u32>();
        if let (Some(c), true) = (set.clock, played % CLOCK_REPORT_PAIRS == 0) {
            eprintln!("{}", clock_log.report(c));
        }
        if let Some((e0, e1)) = sprt {
            let l = llr(&pairs, e0, e1);
            eprintln!("  pairs {pairs:?}  LLR {l:.2} ({lower:.2}, {upper:.2})");
            let enough = pairs.iter().sum::<u32>() >= MIN_SPRT_PAIRS;
            if enough && (l >= upper || l <= lower) {
                println!(
                    "SPRT [{e0}, {e1}]: {}",
                    if l >= upper {
                        "H1 accepted"
                    } else {
                        "H0 accepted"
                    }
                );
                break;
            }
        }
    }
    let games = wdl.iter().sum::<u32>();
    let score = (wdl[0] as f64 + wdl[1] as f64 / 2.0) / games as f64;
    let (elo, lo, hi) = elo_interval(&pairs);
    println!(
        "A {a_flags:?} vs B {b_flags:?} on {openings}: W-L-D {}-{}-{} of {games} = {:.1}%, \
         Elo {elo:+.0} [{lo:+.0}, {hi:+.0}] (95%, pairs {pairs:?})",
        wdl[0],
        wdl[2],
        wdl[1],
        100.0 * score
    );
    if let Some(c) = set.clock {
        println!("{}", clock_log.report(c));
    }
}
