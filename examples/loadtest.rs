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

use clap::Parser;
use serde_json::{json, Value};
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
            let page = Page {
                index: i,
                base: base.clone(),
                rng: Rng(args.seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                tally: tally.clone(),
                agent: agent(),
                id: String::new(),
                size: 15,
                rule: "freestyle",
                moves: Vec::new(),
                forbidden: Vec::new(),
                over: false,
                nodes: args.nodes,
                stop_within: Duration::from_millis(args.stop_ms),
                deadline,
            };
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

/// SplitMix64: the pages' draws.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// An answer: status, `Retry-After` if any, and the body as JSON (a string if not JSON).
struct Answer {
    status: u16,
    retry_after: Option<String>,
    body: Value,
}

/// One simulated page.
struct Page {
    index: usize,
    base: String,
    rng: Rng,
    tally: Arc<Tally>,
    agent: ureq::Agent,
    id: String,
    size: usize,
    rule: &'static str,
    /// The moves as the page sent them (h8), black first.
    moves: Vec<String>,
    /// Black's forbidden points as the server last said.
    forbidden: Vec<String>,
    over: bool,
    nodes: u64,
    stop_within: Duration,
    deadline: Instant,
}

/// What a page may do next.
#[derive(Copy, Clone, Debug)]
enum Action {
    Play,
    EngineMove,
    Hint,
    Analyse,
    DropSearch,
    Undo,
    Bad,
}

impl Page {
    fn run(mut self, actions: usize) {
        if !self.new_game() {
            return;
        }
        for _ in 0..actions {
            if Instant::now() > self.deadline {
                break;
            }
            if self.over {
                self.delete();
                if !self.new_game() {
                    return;
                }
            }
            let action = match self.rng.below(20) {
                0..=6 => Action::Play,
                7..=9 => Action::EngineMove,
                10 => Action::Hint,
                11 => Action::Analyse,
                12..=13 => Action::DropSearch,
                14 => Action::Undo,
                _ => Action::Bad,
            };
            self.act(action);
        }
        self.check_moves("at the end");
        // Most pages are closed with their game deleted; the others' games are let go idle.
        if self.rng.below(5) != 0 {
            self.delete();
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn answer(
        &self,
        what: &str,
        r: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Answer {
        self.tally.requests.fetch_add(1, Ordering::Relaxed);
        let mut r = match r {
            Ok(r) => r,
            Err(e) => {
                self.tally
                    .fail(self.index, format!("{what}: no answer ({e})"));
                self.tally.count(what, 0);
                return Answer {
                    status: 0,
                    retry_after: None,
                    body: Value::Null,
                };
            }
        };
        let status = r.status().as_u16();
        self.tally.count(what, status);
        let retry_after = r
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let text = r.body_mut().read_to_string().unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Answer {
            status,
            retry_after,
            body,
        }
    }

    /// Checks a refusal: `want` and a sentence; a 503 also needs `Retry-After`.
    fn refused(&self, what: &str, a: &Answer, want: u16) {
        let reason = a.body.get("error").and_then(Value::as_str).unwrap_or("");
        if a.status != want {
            self.tally.fail(
                self.index,
                format!("{what}: {} where {want} was due ({})", a.status, a.body),
            );
        } else if reason.is_empty() {
            self.tally
                .fail(self.index, format!("{what}: {want} without a reason"));
        }
    }

    /// A 503 for a full server: it must carry `Retry-After` and a reason. Returns whether
    /// the answer was one.
    fn busy(&self, what: &str, a: &Answer) -> bool {
        if a.status != 503 {
            return false;
        }
        self.tally.busy.fetch_add(1, Ordering::Relaxed);
        if a.retry_after.is_none() {
            self.tally
                .fail(self.index, format!("{what}: 503 without Retry-After"));
        }
        self.refused(what, a, 503);
        true
    }

    /// Takes in a state: the server's moves must be the page's.
    fn take(&mut self, what: &str, state: &Value) {
        let moves: Vec<String> = state["moves"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|m| m.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        if moves != self.moves {
            self.tally.fail(
                self.index,
                format!(
                    "{what}: the server's moves {:?} differ from the page's {:?}",
                    moves, self.moves
                ),
            );
            self.moves = moves;
        }
        self.forbidden = state["forbidden"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|m| m.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        self.over = state["status"].as_str() != Some("ongoing");
    }

    fn check_moves(&mut self, what: &str) {
        let a = self.answer(
            "show",
            self.agent
                .get(self.url(&format!("/api/games/{}", self.id)))
                .call(),
        );
        if a.status == 200 {
            self.take(what, &a.body);
        } else {
            self.tally.fail(
                self.index,
                format!("{what}: the game answered {}", a.status),
            );
        }
    }

    fn strength(&self) -> Value {
        json!({ "level": "depth", "depth": 4, "time": 5.0, "vary": 30, "nodes": self.nodes })
    }

    fn new_game(&mut self) -> bool {
        let rules = ["freestyle", "standard", "renju", "caro"];
        let sizes = [15, 15, 15, 19, 20, 9];
        self.rule = rules[self.rng.below(rules.len())];
        self.size = sizes[self.rng.below(sizes.len())];
        self.moves.clear();
        self.over = false;
        let body = json!({ "size": self.size, "rule": self.rule, "human": "both",
                           "strength": self.strength() });
        for _ in 0..20 {
            let a = self.answer(
                "create",
                self.agent.post(self.url("/api/games")).send_json(&body),
            );
            if a.status == 201 {
                self.id = a.body["id"].as_str().unwrap_or("").to_string();
                self.tally.games.fetch_add(1, Ordering::Relaxed);
                self.take("create", &a.body);
                return true;
            }
            if !self.busy("create", &a) {
                self.tally
                    .fail(self.index, format!("create: {} {}", a.status, a.body));
                return false;
            }
            self.wait_retry();
        }
        false
    }

    fn delete(&mut self) {
        let a = self.answer(
            "delete",
            self.agent
                .delete(self.url(&format!("/api/games/{}", self.id)))
                .call(),
        );
        if a.status != 204 {
            self.tally.fail(self.index, format!("delete: {}", a.status));
        }
    }

    /// Waits a little before trying a refused search again: less than `Retry-After`'s
    /// second, to keep the slots busy.
    fn wait_retry(&mut self) {
        std::thread::sleep(Duration::from_millis(50 + self.rng.below(250) as u64));
    }

    fn h8(&self, x: usize, y: usize) -> String {
        format!("{}{}", (b'a' + x as u8) as char, self.size - y)
    }

    /// An empty point near the centre (not forbidden for black).
    fn free_point(&mut self) -> Option<String> {
        let n = self.size;
        for _ in 0..200 {
            let r = (n / 3).max(2);
            let x = (n / 2 + self.rng.below(2 * r + 1))
                .saturating_sub(r)
                .min(n - 1);
            let y = (n / 2 + self.rng.below(2 * r + 1))
                .saturating_sub(r)
                .min(n - 1);
            let p = self.h8(x, y);
            if !self.moves.contains(&p) && !self.forbidden.contains(&p) {
                return Some(p);
            }
        }
        None
    }

    fn act(&mut self, action: Action) {
        let id = self.id.clone();
        match action {
            Action::Play => {
                let Some(p) = self.free_point() else {
                    self.over = true;
                    return;
                };
                let t = Instant::now();
                let a = self.answer(
                    "play",
                    self.agent
                        .post(self.url(&format!("/api/games/{id}/play")))
                        .send_json(json!({ "move": p })),
                );
                self.tally
                    .move_ms
                    .lock()
                    .unwrap()
                    .push(t.elapsed().as_secs_f64() * 1e3);
                if a.status == 200 {
                    self.moves.push(p);
                    self.take("play", &a.body);
                } else {
                    self.tally
                        .fail(self.index, format!("play {p}: {} {}", a.status, a.body));
                }
            }
            Action::EngineMove => self.search("think?job=move", "engine move", None),
            Action::Hint => self.search("think?job=hint", "hint", None),
            Action::Analyse => self.search("analyse?n=3", "analyse", Some(3)),
            Action::DropSearch => {
                let path = if self.rng.below(2) == 0 {
                    "analyse?n=2"
                } else {
                    "think?job=move"
                };
                self.search(path, "dropped search", Some(1));
            }
            Action::Undo => {
                let a = self.answer(
                    "undo",
                    self.agent
                        .post(self.url(&format!("/api/games/{id}/undo")))
                        .send_empty(),
                );
                if self.moves.is_empty() {
                    self.refused("undo with no moves", &a, 409);
                } else if a.status == 200 {
                    self.moves.pop();
                    self.take("undo", &a.body);
                } else {
                    self.tally
                        .fail(self.index, format!("undo: {} {}", a.status, a.body));
                }
            }
            Action::Bad => self.bad(),
        }
    }

    /// A search: read to `done`, or (`drop_after` events) drop the stream and check that
    /// the game stops thinking. An engine move read to the end is the page's move.
    fn search(&mut self, path: &str, what: &str, drop_after: Option<usize>) {
        let id = self.id.clone();
        for _ in 0..10 {
            let t = Instant::now();
            let r = self
                .agent
                .post(self.url(&format!("/api/games/{id}/{path}")))
                .send_empty();
            self.tally.requests.fetch_add(1, Ordering::Relaxed);
            let mut r = match r {
                Ok(r) => r,
                Err(e) => {
                    self.tally
                        .fail(self.index, format!("{what}: no answer ({e})"));
                    return;
                }
            };
            let status = r.status().as_u16();
            self.tally.count(what, status);
            if status != 200 {
                let retry_after = r
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                let text = r.body_mut().read_to_string().unwrap_or_default();
                let a = Answer {
                    status,
                    retry_after,
                    body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
                };
                if self.busy(what, &a) {
                    self.wait_retry();
                    continue;
                }
                self.tally
                    .fail(self.index, format!("{what}: {status} {}", a.body));
                return;
            }
            let mut reader = BufReader::new(r.body_mut().as_reader());
            let mut name = String::new();
            let mut events = 0;
            let mut done: Option<Value> = None;
            let mut line = String::new();
            loop {
                line.clear();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let l = line.trim_end();
                if let Some(n) = l.strip_prefix("event: ") {
                    name = n.to_string();
                } else if let Some(d) = l.strip_prefix("data: ") {
                    events += 1;
                    if events == 1 {
                        self.tally
                            .first_event_ms
                            .lock()
                            .unwrap()
                            .push(t.elapsed().as_secs_f64() * 1e3);
                    }
                    if name == "done" {
                        done = serde_json::from_str(d).ok();
                        break;
                    }
                    if name == "error" {
                        self.tally
                            .fail(self.index, format!("{what}: error event {d}"));
                        break;
                    }
                    if drop_after.is_some_and(|n| events >= n) {
                        break;
                    }
                }
            }
            if drop_after.is_some() && done.is_none() {
                // The connection goes with the reader, as a closed tab's does.
                drop(reader);
                drop(r);
                self.tally.dropped.fetch_add(1, Ordering::Relaxed);
                self.wait_stopped(what);
                return;
            }
            match done {
                Some(d) => {
                    if d["played"].as_bool() == Some(true) {
                        if let Some(m) = d["best"].as_str() {
                            self.moves.push(m.to_string());
                        }
                    }
                    self.take(what, &d["state"]);
                }
                None => self
                    .tally
                    .fail(self.index, format!("{what}: the stream ended without done")),
            }
            return;
        }
    }

    /// After a dropped search: the game must stop thinking within `stop_within`. A move
    /// search that ended before its reader left may have played its move: the page takes
    /// it as the browser would on reload.
    fn wait_stopped(&mut self, what: &str) {
        let t = Instant::now();
        let mut late = false;
        loop {
            let a = self.answer(
                "show",
                self.agent
                    .get(self.url(&format!("/api/games/{}", self.id)))
                    .call(),
            );
            if a.status != 200 {
                self.tally.fail(
                    self.index,
                    format!("{what}: the game answered {}", a.status),
                );
                return;
            }
            if a.body["thinking"].as_bool() != Some(true) {
                if late {
                    self.tally.fail(
                        self.index,
                        format!(
                            "{what}: stopped {} ms after its reader left",
                            t.elapsed().as_millis()
                        ),
                    );
                }
                self.tally
                    .stop_ms
                    .lock()
                    .unwrap()
                    .push(t.elapsed().as_secs_f64() * 1e3);
                let server: Vec<&str> = a.body["moves"]
                    .as_array()
                    .map(|m| m.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if server.len() == self.moves.len() + 1
                    && server[..self.moves.len()] == self.moves[..]
                {
                    self.moves.push(server[self.moves.len()].to_string());
                }
                self.take(what, &a.body);
                return;
            }
            if t.elapsed() > self.stop_within && !late {
                late = true;
                self.tally.fail(
                    self.index,
                    format!(
                        "{what}: still thinking {} ms after its reader left",
                        t.elapsed().as_millis()
                    ),
                );
            }
            if late && t.elapsed() > self.stop_within * 30 {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// A bad request drawn from a list, each with the status it must get; the game is
    /// unchanged after it.
    fn bad(&mut self) {
        let id = self.id.clone();
        let play = self.url(&format!("/api/games/{id}/play"));
        let (what, a, want) = match self.rng.below(11) {
            0 => (
                "bad move string",
                self.answer(
                    "bad",
                    self.agent.post(&play).send_json(json!({"move": "zz99"})),
                ),
                400,
            ),
            1 => (
                "unknown field",
                self.answer(
                    "bad",
                    self.agent.post(&play).send_json(json!({"mvoe": "h8"})),
                ),
                422,
            ),
            2 => (
                "broken JSON",
                self.answer(
                    "bad",
                    self.agent
                        .post(&play)
                        .header("Content-Type", "application/json")
                        .send("{\"move\": "),
                ),
                400,
            ),
            3 => (
                "not JSON",
                self.answer(
                    "bad",
                    self.agent
                        .post(&play)
                        .header("Content-Type", "text/plain")
                        .send("h8"),
                ),
                415,
            ),
            4 => (
                "no such game",
                self.answer(
                    "bad",
                    self.agent.get(self.url("/api/games/000000000000")).call(),
                ),
                404,
            ),
            5 => (
                "wrong method",
                self.answer("bad", self.agent.delete(&play).call()),
                405,
            ),
            6 => (
                "bad count",
                self.answer(
                    "bad",
                    self.agent
                        .post(self.url(&format!("/api/games/{id}/undo?count=x")))
                        .send_empty(),
                ),
                400,
            ),
            7 => (
                "too many n",
                self.answer(
                    "bad",
                    self.agent
                        .post(self.url(&format!("/api/games/{id}/analyse?n=99")))
                        .send_empty(),
                ),
                400,
            ),
            8 => {
                let big = format!("{{\"move\": \"{}\"}}", "h".repeat(70 * 1024));
                (
                    "body too large",
                    self.answer(
                        "bad",
                        self.agent
                            .post(&play)
                            .header("Content-Type", "application/json")
                            .send(big.as_bytes()),
                    ),
                    413,
                )
            }
            9 => (
                "board too large",
                self.answer(
                    "bad",
                    self.agent
                        .post(self.url("/api/games"))
                        .send_json(json!({"size": 99})),
                ),
                400,
            ),
            _ => match self.moves.first().cloned() {
                Some(p) if !self.over => (
                    "occupied point",
                    self.answer("bad", self.agent.post(&play).send_json(json!({"move": p}))),
                    422,
                ),
                _ => (
                    "off the board",
                    self.answer(
                        "bad",
                        self.agent.post(&play).send_json(json!({"move": "26,3"})),
                    ),
                    400,
                ),
            },
        };
        self.refused(what, &a, want);
        self.check_moves(what);
    }
}
