//! `soak`: plays `pbrain-wuzi` processes against each other through the Gomocup protocol,
//! as a tournament manager does, and checks every answer (project issue 32).
//!
//! ```text
//! cargo build --release --bin pbrain-wuzi
//! cargo run --release --bin soak -- --games 100 --out /tmp/soak [--seed S] [--jobs J]
//! ```
//!
//! Each game starts two engine processes and draws, from the run seed and its index, the
//! board size, the rule, the time control, `max_memory`, the threads, the opening (`BEGIN`,
//! `TURN`, `BOARD`, `SWAP2BOARD`, Yixin-Board's `YXSWAP2STEP` and `YXSOOSORVSTEP`) and
//! rarer paths (TAKEBACK and replay, RESTART, STOP and YXSTOP while thinking, END while
//! thinking, INFO between moves, illegal manager moves).
//! Every answer is checked for form, legality (the library's referee), time (the manager's
//! limit plus a tolerance and slack) and the engine's memory (VmRSS/VmHWM against
//! `max_memory`); every engine must exit within a second of `END`. The run writes
//! `DIR/summary.txt`, a `DIR/fail-NNN.txt` transcript per failing game and the engines'
//! non-empty stderr under `DIR/stderr/`, and exits with 1 if any fault was found (2 if the
//! harness itself could not run).
//!
//! Modules, one concept each: [`plan`] (a game's drawn settings) and [`clock`] (time
//! control), [`engine`] (the process and its pipes) and [`player`] (an engine in a game),
//! [`game`] (the script), [`request`] (one move request), [`events`], [`swap2`] and
//! [`yixin`] (the rarer paths), [`referee`] (legality), [`memory`] and [`baseline`], [`fault`],
//! [`transcript`], [`report`] (summary and failure files), [`dice`] (seeded draws).

mod baseline;
mod clock;
mod dice;
mod engine;
mod events;
mod fault;
mod game;
mod memory;
mod plan;
mod player;
mod referee;
mod report;
mod request;
mod swap2;
mod transcript;
mod yixin;

use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Soak the Gomocup brain: engine-against-engine games through the protocol, every answer
/// checked.
#[derive(Parser, Debug)]
#[command(name = "soak")]
struct Args {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Output directory (summary.txt, fail-NNN.txt, stderr/).
    #[arg(long)]
    out: PathBuf,
    /// Run seed (default: from the clock; the summary prints it).
    #[arg(long)]
    seed: Option<u64>,
    /// The engine binary (default: pbrain-wuzi next to this executable).
    #[arg(long)]
    engine: Option<PathBuf>,
    /// Games played at once (each runs two engine processes, one thinking at a time).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Only fast controls (timeout_turn 50-200 ms, short game clocks), mostly small boards
    /// and games of at most 16 plies, for the test.
    #[arg(long)]
    fast: bool,
    /// Play only these game indices of the run (repeatable), to replay a failing game.
    #[arg(long = "game")]
    only: Vec<usize>,
    /// Time an answer may take past the manager's limit before it is a fault (ms).
    #[arg(long, default_value_t = 100)]
    tolerance_ms: u64,
    /// Process-scheduling slack added to every time check (ms).
    #[arg(long, default_value_t = 50)]
    slack_ms: u64,
    /// Memory allowed over max_memory (MB): none by default, since the protocol's limit is
    /// the whole process's.
    #[arg(long, default_value_t = 0)]
    mem_allowance_mb: u64,
    /// The least max_memory the engine plays within (MB). Below it the engine says so in
    /// an ERROR or MESSAGE and plays with its least tables, and is held to this instead.
    #[arg(long, default_value_t = 10)]
    least_memory_mb: u64,
    /// Play every game at one of these max_memory values (MB, repeatable; 0 = no limit),
    /// taken in turn by game index, instead of drawing one.
    #[arg(long = "max-memory", value_name = "MB")]
    max_memory_mb: Vec<u64>,
    /// Every engine keeps the position database FILE (`pbrain-wuzi --db FILE`, created if
    /// missing): one file for both engines of every game, as two brains of a tournament
    /// share one. The summary gives its counts after the run; a file that then does not
    /// open or read is a harness error.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Play every game with this opening (the board and rule made to allow it), to
    /// exercise one opening path.
    #[arg(long, value_enum)]
    opening: Option<plan::Forced>,
}

/// The run's settings every game reads.
pub struct Settings {
    /// The engine binary.
    pub engine: PathBuf,
    /// The output directory (also the engines' working directory).
    pub out: PathBuf,
    /// The run seed.
    pub seed: u64,
    /// Fast controls only.
    pub fast: bool,
    /// Time past the limit that is still no fault.
    pub tolerance: Duration,
    /// Scheduling slack added to every time check.
    pub slack: Duration,
    /// Bytes allowed over `max_memory`.
    pub mem_allowance: u64,
    /// The least `max_memory` (bytes) an engine is held to.
    pub least_memory: u64,
    /// The `max_memory` values (bytes) games take in turn; empty: drawn.
    pub memory: Vec<u64>,
    /// The engines' command-line arguments (`--db FILE`).
    pub engine_args: Vec<String>,
    /// The opening every game plays; `None`: drawn.
    pub opening: Option<plan::Forced>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            eprintln!("soak: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs the soak; returns the number of faults.
fn run(args: Args) -> Result<usize, String> {
    let engine = match args.engine.clone() {
        Some(p) => p,
        None => default_engine()?,
    };
    if !engine.is_file() {
        return Err(format!("no engine at {}", engine.display()));
    }
    let engine = engine.canonicalize().map_err(|e| e.to_string())?;
    std::fs::create_dir_all(args.out.join("stderr"))
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    let out = args.out.canonicalize().map_err(|e| e.to_string())?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    // The engines run in the output directory: the database's path is made absolute first.
    let db = match &args.db {
        Some(f) => Some(std::path::absolute(f).map_err(|e| format!("{}: {e}", f.display()))?),
        None => None,
    };
    let engine_args = db
        .iter()
        .flat_map(|f| ["--db".to_string(), f.display().to_string()])
        .collect();
    let settings = Settings {
        engine,
        out,
        seed,
        fast: args.fast,
        tolerance: Duration::from_millis(args.tolerance_ms),
        slack: Duration::from_millis(args.slack_ms),
        mem_allowance: args.mem_allowance_mb << 20,
        least_memory: args.least_memory_mb << 20,
        memory: args.max_memory_mb.iter().map(|mb| mb << 20).collect(),
        engine_args,
        opening: args.opening,
    };
    let base = baseline::measure(&settings.engine, &settings.out)?;
    let games: Vec<usize> = if args.only.is_empty() {
        (0..args.games).collect()
    } else {
        args.only.clone()
    };
    let header = header(&settings, &args, base, games.len());
    println!("{header}");
    let started = Instant::now();
    let (summary, harness_errors) = play_all(&settings, &games, args.jobs.max(1));
    let mut text = summary.render(&header);
    text += &format!("wall time: {:.0} s\n", started.elapsed().as_secs_f64());
    let mut harness_errors = harness_errors;
    if let Some(f) = &db {
        match db_counts(f) {
            Ok(line) => text += &line,
            Err(e) => harness_errors.push(e),
        }
    }
    for e in &harness_errors {
        text += &format!("HARNESS ERROR: {e}\n");
    }
    let path = settings.out.join("summary.txt");
    std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("\n{text}");
    if !harness_errors.is_empty() {
        return Err(format!(
            "{} game(s) could not be played",
            harness_errors.len()
        ));
    }
    Ok(summary.fault_count())
}

/// Plays `games` on `jobs` threads; prints a line per game and writes failure files.
fn play_all(settings: &Settings, games: &[usize], jobs: usize) -> (report::Summary, Vec<String>) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut summary = report::Summary::default();
    let mut errors = Vec::new();
    std::thread::scope(|s| {
        for _ in 0..jobs.min(games.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&g) = games.get(i) else { break };
                let mut plan = plan::Plan::draw(settings.seed, g, settings.fast, &settings.memory);
                if let Some(forced) = settings.opening {
                    plan.force(forced);
                }
                if tx.send((g, game::play(plan, settings))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (g, result) in rx {
            match result {
                Ok(r) => {
                    println!("{}", r.line());
                    for f in &r.faults {
                        println!("          {f}");
                    }
                    if !r.faults.is_empty() {
                        match report::write_failure(&settings.out, &r, &replay(settings, g)) {
                            Ok(p) => println!("          transcript: {}", p.display()),
                            Err(e) => errors.push(format!("game {g}: cannot write: {e}")),
                        }
                    }
                    summary.add(&r);
                }
                Err(e) => {
                    println!("game {g:03}: HARNESS ERROR: {e}");
                    errors.push(format!("game {g}: {e}"));
                }
            }
        }
    });
    (summary, errors)
}

/// The database's counts after the run, as a summary line; `Err` if it does not open or a
/// record does not read.
fn db_counts(file: &Path) -> Result<String, String> {
    let stats = wuzi::db::Db::open(file)
        .and_then(|db| db.stats())
        .map_err(|e| format!("the database after the run: {e}"))?;
    Ok(format!(
        "database {}: {} positions ({} proven, {} searched), {} games learned, {} bytes\n",
        file.display(),
        stats.positions,
        stats.proven,
        stats.searched,
        stats.games,
        stats.bytes
    ))
}

/// The run's settings as the summary's first lines.
fn header(s: &Settings, args: &Args, base: memory::Sample, games: usize) -> String {
    format!(
        "soak of {}{} ({games} games, seed {}, jobs {}{}{})\n\
         time checks: limit + tolerance {} ms + slack {} ms; exit within 1000 ms of END + slack\n\
         memory checks: peak <= max_memory (at least {}) + allowance {}; the engine after one \
         move with a 1 MB table: VmRSS {}, VmHWM {} (its peak since start-up)",
        s.engine.display(),
        s.engine_args
            .iter()
            .map(|a| format!(" {a}"))
            .collect::<String>(),
        s.seed,
        args.jobs.max(1),
        if s.fast { ", fast controls" } else { "" },
        s.opening.map_or(String::new(), |o| format!(
            ", every opening {}",
            forced_name(o)
        )),
        s.tolerance.as_millis(),
        s.slack.as_millis(),
        memory::mb(s.least_memory),
        memory::mb(s.mem_allowance),
        memory::mb(base.rss_kb * 1024),
        memory::mb(base.hwm_kb * 1024),
    )
}

/// The command that replays game `g`'s script.
fn replay(s: &Settings, g: usize) -> String {
    format!(
        "soak --seed {} --game {g}{}{} --tolerance-ms {} --slack-ms {} --mem-allowance-mb {} \
         --least-memory-mb {}{}{} --engine {} --out DIR",
        s.seed,
        if s.fast { " --fast" } else { "" },
        s.memory
            .iter()
            .map(|m| format!(" --max-memory {}", m >> 20))
            .collect::<String>(),
        s.tolerance.as_millis(),
        s.slack.as_millis(),
        s.mem_allowance >> 20,
        s.least_memory >> 20,
        s.engine_args
            .get(1)
            .map_or(String::new(), |f| format!(" --db {f}")),
        s.opening.map_or(String::new(), |o| format!(
            " --opening {}",
            clap::ValueEnum::to_possible_value(&o)
                .map_or(String::new(), |v| v.get_name().to_string())
        )),
        s.engine.display()
    )
}

/// The `--opening` value naming `o`.
fn forced_name(o: plan::Forced) -> String {
    clap::ValueEnum::to_possible_value(&o).map_or(String::new(), |v| v.get_name().to_string())
}

/// `pbrain-wuzi` beside this executable (target/release or target/debug).
fn default_engine() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    let path = dir.join(format!("pbrain-wuzi{}", std::env::consts::EXE_SUFFIX));
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "no engine at {}: build it (cargo build --release --bin pbrain-wuzi) or pass --engine",
            path.display()
        ))
    }
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
