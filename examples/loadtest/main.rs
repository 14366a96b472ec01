//! `loadtest`: many simulated pages at once against a `wuzi serve` it starts on a free port
//! of 127.0.0.1, each over its own connection, as browsers are (docs/web.md, "Under load").
//!
//! ```text
//! cargo build --release --bin wuzi --example loadtest
//! target/release/examples/loadtest --pages 120 --actions 30 --seconds 120
//! ```
//!
//! Each page makes a game (a random rule and size), then, drawn from a seed per page, plays
//! moves, asks for the engine's move, for hints and analyses, opens searches and drops them
//! after their first event, takes moves back, and sends bad requests among the good ones
//! (each with the one status it must get). It checks that every answer is the success or
//! the refusal it should be (a 4xx with an `error` sentence, or 503 with `Retry-After` when
//! the search slots are full), that after every answer the server's moves equal the page's,
//! that a search nobody reads any more stops (the game is no longer thinking within
//! `--stop-ms`), and that the server's memory (VmRSS) and threads, read from
//! `/proc/PID/status` every 20 ms, stay under `--rss-mb` and `--threads`, then come back
//! down once the pages are gone and the idle games are let go. It prints requests a second,
//! the latency percentiles of moves and of searches' first events, and the peaks, and exits
//! 1 if anything was wrong (2 if it could not run). Bounded: `--pages` pages of `--actions`
//! actions each, and `--seconds` at most (the pages stop where they are).

mod page;

use clap::Parser;
use page::Page;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Load-test the web board: simulated pages against a `wuzi serve` on 127.0.0.1.
#[derive(Parser, Debug)]
struct Args {
    /// Pages at once (one thread and one connection each).
    #[arg(long, default_value_t = 120)]
    pages: usize,
    /// Actions per page (moves, searches, undos, bad requests).
    #[arg(long, default_value_t = 30)]
    actions: usize,
    /// Longest run of the pages, in seconds (they stop where they are).
    #[arg(long, default_value_t = 120)]
    seconds: u64,
    /// Seed of the pages' draws.
    #[arg(long, default_value_t = 84)]
    seed: u64,
    /// The `wuzi` binary (default: the one beside this example's directory).
    #[arg(long)]
    wuzi: Option<PathBuf>,
    /// The server's `--max-searches`.
    #[arg(long, default_value_t = 2)]
    max_searches: usize,
    /// The server's `--max-games` (default: as many as pages, so that no page loses its
    /// game to another's).
    #[arg(long)]
    max_games: Option<usize>,
    /// The server's `--max-tables`.
    #[arg(long, default_value_t = 16)]
    max_tables: usize,
    /// The server's `--idle-seconds`: games the pages leave are let go after it.
    #[arg(long, default_value_t = 5)]
    idle_seconds: u64,
    /// The node budget of the pages' searches (with depth 4): short searches, many of them.
    #[arg(long, default_value_t = 30_000)]
    nodes: u64,
    /// Bound on the server's resident memory, in MB (default: 64 for the server and the
    /// net, 64 a table of the kept ones and of the running searches, 64 a running search's
    /// solver table, 1 a game: docs/web.md).
    #[arg(long)]
    rss_mb: Option<u64>,
    /// Bound on the server's threads (default: the main and HTTP threads, and two a search
    /// slot: a running search's, and one of tokio's blocking pool between searches).
    #[arg(long)]
    threads: Option<u64>,
    /// Longest time for a search nobody reads any more to stop, in ms.
    #[arg(long, default_value_t = 2000)]
    stop_ms: u64,
    /// Memory the server may keep above its start, in MB, once the load is gone.
    #[arg(long, default_value_t = 64)]
    settle_mb: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("loadtest: {e}");
            ExitCode::from(2)
        }
    }
}

/// The server process, ended when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What every page adds to.
#[derive(Default)]
struct Tally {
    requests: AtomicU64,
    /// Answers by what was asked and what came: `("play", 200)`.
    statuses: Mutex<BTreeMap<(String, u16), u64>>,
    /// Everything wrong, one sentence each.
    failures: Mutex<Vec<String>>,
    move_ms: Mutex<Vec<f64>>,
    first_event_ms: Mutex<Vec<f64>>,
    stop_ms: Mutex<Vec<f64>>,
    games: AtomicU64,
    dropped: AtomicU64,
    busy: AtomicU64,
}

impl Tally {
    fn count(&self, what: &str, status: u16) {
        *self
            .statuses
            .lock()
            .unwrap()
            .entry((what.to_string(), status))
            .or_default() += 1;
    }

    fn fail(&self, page: usize, text: String) {
        let mut f = self.failures.lock().unwrap();
        if f.len() < 200 {
            f.push(format!("page {page}: {text}"));
        }
    }
}

/// One reading of the server's `/proc/PID/status`: VmRSS in kB and threads.
fn sample(pid: u32) -> Option<(u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
    };
    Some((field("VmRSS:")?, field("Threads:")?))
}

fn run(args: &Args) -> Result<bool, String> {
    let wuzi = match &args.wuzi {
        Some(p) => p.clone(),
        None => {
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            exe.parent()
                .and_then(|d| d.parent())
                .map(|d| d.join("wuzi"))
                .ok_or("no folder for wuzi")?
        }
    };
    let max_games = args.max_games.unwrap_or(args.pages.max(1));
    let (searches, tables) = (args.max_searches as u64, args.max_tables as u64);
    let rss_bound = args
        .rss_mb
        .unwrap_or(64 + 64 * (tables + searches) + 64 * searches + max_games as u64);
    let threads_bound = args.threads.unwrap_or(2 + 2 * searches);
    let mut child = Command::new(&wuzi)
        .args(["serve", "--port", "0"])
        .args(["--max-searches", &args.max_searches.to_string()])
        .args(["--max-games", &max_games.to_string()])
        .args(["--max-tables", &args.max_tables.to_string()])
        .args(["--idle-seconds", &args.idle_seconds.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", wuzi.display()))?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().ok_or("no stdout")?)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let server = Served(child);
    let pid = server.0.id();
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| format!("no address in '{}'", line.trim()))?
        .trim_end_matches('/')
        .to_string();
    std::thread::sleep(Duration::from_millis(200));
    let (rss_start, threads_start) = sample(pid).ok_or("cannot read the server's status")?;

    // The watcher: peaks of memory and threads until told to stop.
    let watching = Arc::new(AtomicBool::new(true));
    let peaks = Arc::new(Mutex::new((rss_start, threads_start)));
    let watcher = {
        let (watching, peaks) = (watching.clone(), peaks.clone());
        std::thread::spawn(move || {
            while watching.load(Ordering::SeqCst) {
                if let Some((rss, threads)) = sample(pid) {
                    let mut p = peaks.lock().unwrap();
                    *p = (p.0.max(rss), p.1.max(threads));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };

    let tally = Arc::new(Tally::default());
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let started = Instant::now();
    let pages: Vec<_> = (0..args.pages)
        .map(|i| {
            let page = Page::new(
                i,
                base.clone(),
                args.seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                tally.clone(),
                args.nodes,
                Duration::from_millis(args.stop_ms),
                deadline,
            );
            let actions = args_actions(i, args.actions);
            std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || page.run(actions))
        })
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot start a page: {e}"))?;
    for p in pages {
        if p.join().is_err() {
            tally.fail(usize::MAX, "a page panicked".into());
        }
    }
    let load_time = started.elapsed();

    // After: the idle games go, and the memory and threads come back down.
    let settle_by = Instant::now() + Duration::from_secs(args.idle_seconds * 2 + 15);
    let (mut rss_after, mut threads_after) = (u64::MAX, u64::MAX);
    while Instant::now() < settle_by {
        std::thread::sleep(Duration::from_millis(250));
        let Some((rss, threads)) = sample(pid) else {
            tally.fail(usize::MAX, "the server is gone".into());
            break;
        };
        (rss_after, threads_after) = (rss, threads);
        if rss <= rss_start + args.settle_mb * 1024 && threads <= threads_start + 1 {
            break;
        }
    }
    watching.store(false, Ordering::SeqCst);
    let _ = watcher.join();
    let (rss_peak, threads_peak) = *peaks.lock().unwrap();
    // Every game the pages left is gone: the last page's game id answers 404.
    let status_after = agent()
        .get(format!("{base}/api/games/none"))
        .call()
        .map(|r| r.status().as_u16())
        .unwrap_or(0);

    let t = &tally;
    let mut ok = true;
    let mut problems = t.failures.lock().unwrap().clone();
    if rss_peak > rss_bound * 1024 {
        problems.push(format!(
            "peak memory {} MB over the bound {rss_bound} MB",
            rss_peak / 1024
        ));
    }
    if threads_peak > threads_bound {
        problems.push(format!(
            "{threads_peak} threads, over the bound {threads_bound}"
        ));
    }
    if rss_after > rss_start + args.settle_mb * 1024 || threads_after > threads_start + 1 {
        problems.push(format!(
            "after the load: {} MB and {threads_after} threads, against {} MB and \
             {threads_start} at the start",
            rss_after / 1024,
            rss_start / 1024
        ));
    }
    if status_after != 404 {
        problems.push(format!("the server after the load answered {status_after}"));
    }
    let requests = t.requests.load(Ordering::SeqCst);
    println!(
        "loadtest: {} pages x {} actions against {} (--max-searches {} --max-games {max_games} \
         --max-tables {} --idle-seconds {}, searches depth 4 within {} nodes), seed {}",
        args.pages,
        args.actions,
        wuzi.display(),
        args.max_searches,
        args.max_tables,
        args.idle_seconds,
        args.nodes,
        args.seed
    );
    println!(
        "requests: {requests} in {:.1} s = {:.0} a second; games made {}; searches dropped \
         by their readers {}; refused busy (503 with Retry-After) {}",
        load_time.as_secs_f64(),
        requests as f64 / load_time.as_secs_f64().max(1e-3),
        t.games.load(Ordering::SeqCst),
        t.dropped.load(Ordering::SeqCst),
        t.busy.load(Ordering::SeqCst),
    );
    for (name, v) in [
        ("move (POST play)", &t.move_ms),
        ("first search event", &t.first_event_ms),
        ("search stopped after its reader left", &t.stop_ms),
    ] {
        println!("{name}: {}", percentiles(&mut v.lock().unwrap()));
    }
    println!(
        "server memory (VmRSS): {} MB at the start, peak {} MB (bound {}), {} MB after; \
         threads {threads_start}, peak {threads_peak} (bound {}), {threads_after} after",
        rss_start / 1024,
        rss_peak / 1024,
        rss_bound,
        rss_after / 1024,
        threads_bound
    );
    let statuses: Vec<String> = t
        .statuses
        .lock()
        .unwrap()
        .iter()
        .map(|((w, s), n)| format!("{w} {s}: {n}"))
        .collect();
    println!("answers: {}", statuses.join(", "));
    if !problems.is_empty() {
        ok = false;
        println!("PROBLEMS: {}", problems.len());
        for p in &problems {
            println!("  {p}");
        }
    } else {
        println!("no unexpected status, no game whose moves differ, every dropped search stopped");
    }
    Ok(ok)
}

/// Each page's count of actions (a few pages do fewer, as people leave early).
fn args_actions(page: usize, actions: usize) -> usize {
    if page % 10 == 9 {
        actions / 3
    } else {
        actions
    }
}

fn percentiles(v: &mut [f64]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    format!(
        "{} of them: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        v.len(),
        at(0.5),
        at(0.99),
        v[v.len() - 1]
    )
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}
