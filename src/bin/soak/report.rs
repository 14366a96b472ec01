//! What a game found and what the run found: the per-game report, the summary over all
//! games (`summary.txt`), and the transcript of each failing game (`fail-NNN.txt`).

use crate::fault::{Fault, Kind};
use crate::memory::{mb, Watch};
use crate::plan::Plan;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;
use wuzi::Color;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Still being played.
    Unfinished,
    /// The referee saw a five.
    Five(Color),
    /// The board filled.
    FullBoard,
    /// The plan's move cap was reached.
    MoveCap,
    /// `END` was sent while an engine thought (by plan).
    EndMidSearch,
    /// A fatal fault stopped the game.
    Aborted,
}

impl Ending {
    /// The ending in words.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Unfinished => "unfinished",
            Ending::Five(Color::Black) => "five (black)",
            Ending::Five(Color::White) => "five (white)",
            Ending::FullBoard => "full board",
            Ending::MoveCap => "move cap",
            Ending::EndMidSearch => "END while thinking",
            Ending::Aborted => "aborted by a fault",
        }
    }
}

/// The answer furthest past its limit (negative: the one closest to it).
#[derive(Clone, Debug)]
pub struct Overrun {
    /// Milliseconds past the limit.
    pub over_ms: i64,
    /// How long the answer took.
    pub took_ms: u64,
    /// The limit it was held to.
    pub limit_ms: u64,
    /// Engine `A` or `B`.
    pub engine: char,
    /// Stones on the board when the move was asked.
    pub ply: usize,
    /// The game's index.
    pub game: usize,
}

impl Overrun {
    fn text(&self) -> String {
        format!(
            "{:+} ms (game {}, engine {}, ply {}: took {} ms of a {} ms limit)",
            self.over_ms, self.game, self.engine, self.ply, self.took_ms, self.limit_ms
        )
    }
}

/// What one game found.
pub struct GameReport {
    /// The game's index.
    pub game: usize,
    /// The plan in words.
    pub plan: String,
    /// Every fault, in order.
    pub faults: Vec<Fault>,
    /// How it ended.
    pub ending: Ending,
    /// Stones on the board at the end.
    pub plies: usize,
    /// Answers where a move was due, checked.
    pub answers: u32,
    /// The answer furthest past its limit: among the engines' first answers, and among
    /// the later ones.
    pub worst_overrun: [Option<Overrun>; 2],
    /// Each engine's memory, A then B.
    pub memory: Vec<Watch>,
    /// The engines' messages about the position database (`A: MESSAGE ...`).
    pub db_messages: Vec<String>,
    /// The least `time_left` under a game clock.
    pub least_time_left: Option<i64>,
    /// The slowest move after `STOP`.
    pub slowest_stop_ms: Option<u64>,
    /// The slowest exit after `END`.
    pub slowest_exit_ms: Option<u64>,
    /// The slowest `OK` to `START`.
    pub slowest_start_ms: u64,
    /// How often each protocol path was taken.
    pub events: BTreeMap<&'static str, u32>,
    /// Wall time of the game.
    pub duration: Duration,
    /// The transcript, kept for a failing game.
    pub transcript: Option<String>,
    /// The lines sent to A and to B, kept for a failing game.
    pub scripts: [Vec<String>; 2],
    /// The engines' stderr files that are not empty.
    pub stderr: Vec<PathBuf>,
}

impl GameReport {
    /// An empty report for the game of `plan`.
    pub fn new(plan: &Plan) -> GameReport {
        GameReport {
            game: plan.game,
            plan: plan.to_string(),
            faults: Vec::new(),
            ending: Ending::Unfinished,
            plies: 0,
            answers: 0,
            worst_overrun: [None, None],
            memory: Vec::new(),
            least_time_left: None,
            slowest_stop_ms: None,
            slowest_exit_ms: None,
            slowest_start_ms: 0,
            events: BTreeMap::new(),
            duration: Duration::ZERO,
            transcript: None,
            scripts: [Vec::new(), Vec::new()],
            stderr: Vec::new(),
            db_messages: Vec::new(),
        }
    }

    /// One progress line.
    pub fn line(&self) -> String {
        let faults = match self.faults.len() {
            0 => "ok".to_string(),
            n => {
                let kinds: Vec<&str> = self.faults.iter().map(|f| f.kind.name()).collect();
                format!("{n} FAULT(S): {}", kinds.join(", "))
            }
        };
        format!(
            "game {:03}: {} after {} plies, {:.1} s: {faults}\n          {}",
            self.game,
            self.ending.name(),
            self.plies,
            self.duration.as_secs_f64(),
            self.plan
        )
    }
}

/// The engines that ran under one `max_memory`.
#[derive(Default)]
struct LimitStats {
    /// The highest peak (bytes), and the game and engine.
    peak: u64,
    game: usize,
    engine: char,
    /// Engines (one per game and side) under this limit.
    engines: u32,
    /// Of those, the ones whose peak passed the limit itself (the allowance aside).
    over_limit: u32,
}

/// Totals over the run.
#[derive(Default)]
pub struct Summary {
    games: usize,
    faulty_games: Vec<usize>,
    faults: BTreeMap<Kind, Vec<String>>,
    endings: BTreeMap<&'static str, u32>,
    plies: usize,
    answers: u64,
    worst_overrun: [Option<Overrun>; 2],
    /// Per `max_memory` (bytes; 0 = none).
    peaks: BTreeMap<u64, LimitStats>,
    highest_start_rss_kb: u64,
    least_time_left: Option<(i64, usize)>,
    slowest_stop_ms: Option<(u64, usize)>,
    slowest_exit_ms: Option<u64>,
    slowest_start_ms: u64,
    events: BTreeMap<&'static str, u32>,
    time: Duration,
    /// The engines' messages about the database, with their games.
    db_messages: Vec<String>,
}

impl Summary {
    /// Adds one game.
    pub fn add(&mut self, r: &GameReport) {
        self.games += 1;
        if !r.faults.is_empty() {
            self.faulty_games.push(r.game);
        }
        for f in &r.faults {
            self.faults
                .entry(f.kind)
                .or_default()
                .push(format!("game {} {}", r.game, f.engine));
        }
        *self.endings.entry(r.ending.name()).or_insert(0) += 1;
        self.db_messages.extend(
            r.db_messages
                .iter()
                .map(|m| format!("game {:03} {m}", r.game)),
        );
        self.plies += r.plies;
        self.answers += r.answers as u64;
        for (mine, theirs) in self.worst_overrun.iter_mut().zip(&r.worst_overrun) {
            if let Some(o) = theirs {
                if mine.as_ref().is_none_or(|w| o.over_ms > w.over_ms) {
                    *mine = Some(o.clone());
                }
            }
        }
        for (i, w) in r.memory.iter().enumerate() {
            let label = if i == 0 { 'A' } else { 'B' };
            let e = self.peaks.entry(w.limit).or_default();
            e.engines += 1;
            e.over_limit += u32::from(w.limit > 0 && w.peak_bytes() > w.limit);
            if w.peak_bytes() > e.peak {
                (e.peak, e.game, e.engine) = (w.peak_bytes(), r.game, label);
            }
            self.highest_start_rss_kb = self.highest_start_rss_kb.max(w.start_rss_kb.unwrap_or(0));
        }
        if let Some(l) = r.least_time_left {
            if self.least_time_left.is_none_or(|(m, _)| l < m) {
                self.least_time_left = Some((l, r.game));
            }
        }
        if let Some(s) = r.slowest_stop_ms {
            if self.slowest_stop_ms.is_none_or(|(m, _)| s > m) {
                self.slowest_stop_ms = Some((s, r.game));
            }
        }
        if let Some(e) = r.slowest_exit_ms {
            self.slowest_exit_ms = Some(self.slowest_exit_ms.map_or(e, |m| m.max(e)));
        }
        self.slowest_start_ms = self.slowest_start_ms.max(r.slowest_start_ms);
        for (k, n) in &r.events {
            *self.events.entry(k).or_insert(0) += n;
        }
        self.time += r.duration;
    }

    /// Number of faults over all games.
    pub fn fault_count(&self) -> usize {
        self.faults.values().map(Vec::len).sum()
    }

    /// The summary text; `header` holds the run's settings.
    pub fn render(&self, header: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{header}");
        let _ = writeln!(
            s,
            "games: {} ({} with faults{}), {} plies, {} answers checked, {:.0} s of play",
            self.games,
            self.faulty_games.len(),
            list_games(&self.faulty_games),
            self.plies,
            self.answers,
            self.time.as_secs_f64()
        );
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let _ = writeln!(s, "endings: {}", endings.join(", "));
        let _ = writeln!(s, "faults: {}", self.fault_count());
        let _ = writeln!(
            s,
            "messages about the database (--db): {}",
            self.db_messages.len()
        );
        for m in self.db_messages.iter().take(10) {
            let _ = writeln!(s, "  {m}");
        }
        for (kind, at) in &self.faults {
            let _ = writeln!(s, "  {}: {} ({})", kind.name(), at.len(), at.join(", "));
        }
        let which = ["engines' first answers", "later answers"];
        for (which, o) in which.iter().zip(&self.worst_overrun) {
            let text = o.as_ref().map_or("none".into(), Overrun::text);
            let _ = writeln!(s, "worst time overrun, {which}: {text}");
        }
        let _ = writeln!(
            s,
            "peak memory (VmHWM, or the highest VmRSS sampled) by max_memory:"
        );
        for (&limit, l) in &self.peaks {
            let (lim, share) = if limit == 0 {
                ("no limit".to_string(), String::new())
            } else {
                let pct = 100.0 * l.peak as f64 / limit as f64;
                let over = format!("{} of {} engines", l.over_limit, l.engines);
                (
                    mb(limit),
                    format!(" = {pct:.0}% of it; {over} above the limit itself"),
                )
            };
            let (peak, game, e) = (mb(l.peak), l.game, l.engine);
            let _ = writeln!(
                s,
                "  {lim:>10}: highest peak {peak} (game {game} {e}){share}"
            );
        }
        let _ = writeln!(
            s,
            "highest resident size right after START: {}",
            mb(self.highest_start_rss_kb * 1024)
        );
        let _ = writeln!(
            s,
            "least time_left seen under a game clock: {}",
            self.least_time_left
                .map_or("no game clock".into(), |(l, g)| format!(
                    "{l} ms (game {g})"
                ))
        );
        let _ = writeln!(
            s,
            "slowest: START {} ms; move after STOP {}; exit after END {}",
            self.slowest_start_ms,
            self.slowest_stop_ms
                .map_or("-".into(), |(m, g)| format!("{m} ms (game {g})")),
            self.slowest_exit_ms
                .map_or("-".into(), |m| format!("{m} ms"))
        );
        let _ = writeln!(s, "protocol paths taken:");
        for (k, n) in &self.events {
            let _ = writeln!(s, "  {k}: {n}");
        }
        s
    }
}

fn list_games(games: &[usize]) -> String {
    if games.is_empty() {
        return String::new();
    }
    let g: Vec<String> = games.iter().map(|g| format!("{g:03}")).collect();
    format!(": {}", g.join(" "))
}

/// Writes `fail-NNN.txt` for a game with faults: the plan, the faults, how to replay it, the
/// engines' stderr, the lines sent to each engine, and the timed transcript.
pub fn write_failure(dir: &Path, r: &GameReport, replay: &str) -> std::io::Result<PathBuf> {
    let mut s = String::new();
    let _ = writeln!(s, "game {:03}: {}", r.game, r.plan);
    let _ = writeln!(s, "ending: {} after {} plies", r.ending.name(), r.plies);
    let _ = writeln!(
        s,
        "replay the game's script (engine timing varies): {replay}"
    );
    let _ = writeln!(s, "\nfaults:");
    for f in &r.faults {
        let _ = writeln!(s, "  {f}");
    }
    for path in &r.stderr {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let cut: String = text.chars().take(4000).collect();
        let _ = writeln!(s, "\nstderr {}:\n{cut}", path.display());
    }
    for (label, script) in ['A', 'B'].iter().zip(&r.scripts) {
        let _ = writeln!(
            s,
            "\nlines sent to engine {label} (feed them to pbrain-wuzi to replay its side):"
        );
        for l in script {
            let _ = writeln!(s, "  {l}");
        }
    }
    let _ = writeln!(
        s,
        "\ntranscript (ms since the game started; > sent, < received):"
    );
    s += r.transcript.as_deref().unwrap_or("");
    let path = dir.join(format!("fail-{:03}.txt", r.game));
    std::fs::write(&path, s)?;
    Ok(path)
}
