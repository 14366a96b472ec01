//! Searches for the page, streamed as server-sent events: the engine's move, a hint, or an
//! analysis that keeps thinking and lists the best N moves. The engine thinks on a blocking
//! thread (with its own search threads); this side forwards its progress, ticks at least
//! every [`TICK`] between iterations, and stops the search when the page stops listening.
//!
//! Events: `progress` ([`Progress`]), `nbest` ([`NBest`]), then one `done` ([`Done`]) or
//! `error` (`{"error": ...}`).

use super::error::ApiError;
use super::games::{lock, Games, Shared};
use super::json::{Done, Forced, NBest, Progress, Scored};
use super::session::Running;
use super::strength::Checked;
use crate::engine::opening::{Action, Opening};
use crate::engine::Engine;
use crate::notation::format_h8;
use crate::search::{mate_distance, win_chance, Info, Limits};
use crate::types::{Color, Pos};
use axum::response::sse::{Event, Sse};
use futures_util::stream::Stream;
use std::convert::Infallible;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::OwnedSemaphorePermit;

/// The longest wait between two progress events while a search runs. The engine reports
/// finished iterations only, which at depth come seconds apart; the page is promised one
/// at least every 250 ms.
pub const TICK: Duration = Duration::from_millis(200);

/// The first analysis round's time; each later one has twice the time, up to
/// [`LONGEST_ROUND`]. The table keeps what the earlier rounds found.
const FIRST_ROUND: Duration = Duration::from_millis(250);
const LONGEST_ROUND: Duration = Duration::from_secs(16);

/// The most messages of the search forwarded at one wake of the stream's side.
const MAX_BATCH: usize = 64;

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// The engine's move, played when found.
    Move,
    /// A move for the person, not played.
    Hint,
    /// The best `n` moves, round after round, until stopped or out of time.
    Analyse(usize),
}

/// What the blocking side sends.
enum Msg {
    Info(Info),
    NBest(Vec<(Pos, i32)>),
}

/// What the blocking side returns with the engine.
struct Found {
    best: Pos,
    score: i32,
    depth: i32,
    /// The engine's step, when the search was a decision of the opening stage.
    step: Option<Action>,
}

/// Starts a search on game `id`: 404 for no game, 409 if it is over or already searching,
/// 503 if every search slot is taken. The stream ends with the `done` event. While the
/// game's opening stage is under way, a [`Job::Move`] is the engine's step in it (for
/// whoever is to act), and the other jobs are refused (409).
pub fn start(
    games: &Arc<Games>,
    id: &str,
    job: Job,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let game = games.get(id)?;
    games.room_for_table(&game);
    let (engine, running, checked) = {
        let mut s = lock(&game);
        if s.running().is_some() {
            return Err(ApiError::conflict(
                "the engine is already thinking on this game",
            ));
        }
        if s.state().status != "ongoing" {
            return Err(ApiError::conflict(
                "the game is over: undo, or start a new one",
            ));
        }
        let stage = s.opening_under_way().cloned();
        if stage.is_some() && job != Job::Move {
            return Err(ApiError::conflict(
                "the opening stage is under way: the engine only takes its steps in it",
            ));
        }
        let slot = games.slot()?;
        let (engine, running) = s.lend()?;
        (engine, (running, slot, stage), s.checked().clone())
    };
    let (tx, rx) = unbounded_channel::<Event>();
    let analysis = Duration::from_secs_f64(games.analysis_seconds.max(0.1));
    tokio::spawn(drive(game, engine, job, checked, running, tx, analysis));
    Ok(event_stream(rx))
}

/// The page's stream of the events a job sends on `rx`; it ends when the job drops its
/// sender.
pub(super) fn event_stream(
    mut rx: UnboundedReceiver<Event>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    Sse::new(futures_util::stream::poll_fn(move |cx| {
        rx.poll_recv(cx).map(|e| e.map(Ok))
    }))
}

/// Runs the search on a blocking thread and forwards its progress until it ends, then gives
/// the engine back to the game (playing the move of a [`Job::Move`] unless nobody waits).
async fn drive(
    game: Shared,
    engine: Engine,
    job: Job,
    checked: Checked,
    (running, slot, stage): (Running, OwnedSemaphorePermit, Option<Opening>),
    tx: UnboundedSender<Event>,
    analysis: Duration,
) {
    let size = engine.board().size();
    let side = engine.board().to_move();
    let per_logit = engine.score_per_logit();
    let counter = engine.node_counter();
    let start = Instant::now();
    let (msg_tx, mut msg_rx) = unbounded_channel::<Msg>();
    let flags = running.clone();
    let mut work = tokio::task::spawn_blocking(move || {
        let mut engine = engine;
        let found = match stage {
            Some(stage) => opening_step(&mut engine, &stage, &checked, &flags),
            None => think(&mut engine, job, &checked, &flags, &msg_tx, analysis),
        };
        (engine, found)
    });
    let mut last = empty_progress();
    let mut tick = tokio::time::interval(TICK);
    let mut left = false;
    let mut rounds = 0;
    let mut forward = |msg: Msg, last: &mut Progress| match msg {
        Msg::Info(info) => {
            *last = progress(&info, size, side, start);
            event("progress", last)
        }
        Msg::NBest(list) => {
            rounds += 1;
            event(
                "nbest",
                &nbest(&list, (size, side, per_logit), start, rounds),
            )
        }
    };
    let result = loop {
        // A page that left is seen first, whatever the search sends meanwhile.
        tokio::select! {
            biased;
            _ = tx.closed(), if !left => {
                // The page went away: the search is for nobody.
                left = true;
                running.cancel.store(true, Ordering::SeqCst);
                running.stop.store(true, Ordering::SeqCst);
            }
            r = &mut work => break r,
            Some(msg) = msg_rx.recv() => {
                // What else is waiting goes out with it, the progress coalesced to the
                // latest: a search that reports faster than this side forwards cannot
                // queue without end, nor hold this loop from the page's leaving.
                let mut info = None;
                let mut next = Some(msg);
                for _ in 0..MAX_BATCH {
                    match next.take() {
                        Some(Msg::Info(i)) => info = Some(i),
                        Some(nb) => {
                            if let Some(i) = info.take() {
                                let _ = tx.send(forward(Msg::Info(i), &mut last));
                            }
                            let _ = tx.send(forward(nb, &mut last));
                        }
                        None => break,
                    }
                    next = msg_rx.try_recv().ok();
                }
                if let Some(i) = info {
                    let _ = tx.send(forward(Msg::Info(i), &mut last));
                }
                if let Some(msg) = next {
                    let _ = tx.send(forward(msg, &mut last));
                }
            }
            _ = tick.tick() => {
                last.elapsed_ms = start.elapsed().as_millis() as u64;
                // Nodes as the search counts them, between its iterations' reports.
                last.nodes = last.nodes.max(counter.load(Ordering::Relaxed));
                last.nps = (last.nodes as f64 / start.elapsed().as_secs_f64().max(1e-3)) as u64;
                let _ = tx.send(event("progress", &last));
            }
        }
    };
    while let Ok(msg) = msg_rx.try_recv() {
        let _ = tx.send(forward(msg, &mut last));
    }
    let cancelled = running.cancel.load(Ordering::SeqCst);
    let stopped = cancelled || running.halt.load(Ordering::SeqCst);
    let mut s = lock(&game);
    let mut step = None;
    let (found, played) = match result {
        Ok((engine, found)) => {
            s.give_back(engine);
            let played = match found.step.clone() {
                Some(action) if !cancelled => {
                    step = s.engine_opening_step(action).ok();
                    step.is_some()
                }
                Some(_) => false,
                None => {
                    let play = job == Job::Move && !cancelled && !found.best.is_none();
                    play && s.play_pos(found.best).is_ok()
                }
            };
            (found, played)
        }
        Err(_) => {
            // The search thread failed: the game is rebuilt from its moves.
            s.rebuild();
            let _ = tx.send(event(
                "error",
                &serde_json::json!({ "error": "the search failed; the game is kept" }),
            ));
            return;
        }
    };
    let done = Done {
        best: (!found.best.is_none()).then(|| format_h8(found.best, size)),
        score: found.score,
        score_text: score_text(found.score),
        depth: found.depth.max(last.depth),
        elapsed_ms: start.elapsed().as_millis() as u64,
        played,
        stopped,
        step,
        state: s.state(),
    };
    drop(s);
    drop(slot);
    let _ = tx.send(event("done", &done));
}

/// The blocking side of an opening step: the engine's decision at the stage's step, within
/// a move's limits; the page's stop ends its trying of candidates (the best so far is
/// taken).
fn opening_step(engine: &mut Engine, stage: &Opening, checked: &Checked, flags: &Running) -> Found {
    let halted = || flags.cancel.load(Ordering::SeqCst) || flags.halt.load(Ordering::SeqCst);
    flags.stop.store(false, Ordering::SeqCst);
    let decision = if flags.cancel.load(Ordering::SeqCst) {
        None
    } else {
        engine.opening_decision(stage, &checked.limits, &halted)
    };
    let best = match decision.as_ref().map(|d| &d.action) {
        Some(Action::Place(p) | Action::PlaceAndDeclare(p, _) | Action::Pick(p)) => *p,
        _ => Pos::NONE,
    };
    Found {
        best,
        score: decision.as_ref().map_or(0, |d| d.score),
        depth: 0,
        step: decision.map(|d| d.action),
    }
}

/// The blocking side: the search itself.
fn think(
    engine: &mut Engine,
    job: Job,
    checked: &Checked,
    flags: &Running,
    tx: &UnboundedSender<Msg>,
    analysis: Duration,
) -> Found {
    let halted = || flags.cancel.load(Ordering::SeqCst) || flags.halt.load(Ordering::SeqCst);
    let cancelled = || flags.cancel.load(Ordering::SeqCst);
    let mut on_info = |info: &Info| {
        let _ = tx.send(Msg::Info(info.clone()));
    };
    let nothing = Found {
        best: Pos::NONE,
        score: 0,
        depth: 0,
        step: None,
    };
    match job {
        Job::Move | Job::Hint => {
            // A stop raised for an earlier search that had already ended is lowered; a stop
            // raised for this one is seen in its flags (raised before `stop`).
            flags.stop.store(false, Ordering::SeqCst);
            if cancelled() {
                return nothing;
            }
            if halted() {
                flags.stop.store(true, Ordering::SeqCst);
            }
            let out = engine.think(checked.level, &checked.limits, &mut on_info);
            Found {
                best: out.best,
                score: out.score,
                depth: out.depth,
                step: None,
            }
        }
        Job::Analyse(n) => {
            let start = Instant::now();
            let mut round = FIRST_ROUND;
            let mut found = nothing;
            loop {
                flags.stop.store(false, Ordering::SeqCst);
                if halted() {
                    break;
                }
                let left = analysis.saturating_sub(start.elapsed());
                let time = round.min(left);
                let limits = Limits {
                    depth: None,
                    nodes: None,
                    soft_time: Some(time),
                    hard_time: Some(time),
                };
                let began = Instant::now();
                let list = engine.think_nbest(n, &limits, &mut on_info);
                // A round that proves its best move's result in under half its time has
                // nothing deeper to search: later rounds would repeat it at once, over and
                // over, so the analysis ends with it.
                let finished = began.elapsed() < time / 2
                    && list
                        .first()
                        .is_some_and(|&(_, s)| mate_distance(s).is_some());
                if let Some(&(best, score)) = list.first() {
                    found = Found {
                        best,
                        score,
                        depth: found.depth,
                        step: None,
                    };
                }
                let _ = tx.send(Msg::NBest(list));
                if start.elapsed() >= analysis || halted() || finished {
                    break;
                }
                round = (round * 2).min(LONGEST_ROUND);
            }
            found
        }
    }
}

/// A server-sent event `name` with `data` as its JSON.
pub(super) fn event<T: serde::Serialize>(name: &str, data: &T) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|_| Event::default().event(name).data("{}"))
}

fn empty_progress() -> Progress {
    Progress {
        depth: 0,
        seldepth: 0,
        score: 0,
        score_text: "+0".into(),
        black_win: 0.5,
        nodes: 0,
        nps: 0,
        elapsed_ms: 0,
        pv: Vec::new(),
        forced: None,
    }
}

/// `start`: when the job began (an analysis's rounds each start their own clock).
fn progress(info: &Info, size: usize, side: Color, start: Instant) -> Progress {
    let forced = mate_distance(info.score).map(|m| Forced {
        winner: if m >= 0 { side } else { !side }.to_string(),
        plies: m.abs(),
    });
    Progress {
        depth: info.depth,
        seldepth: info.seldepth,
        score: info.score,
        score_text: score_text(info.score),
        black_win: black_win(info.chance, side),
        nodes: info.nodes,
        nps: info.nps(),
        elapsed_ms: start.elapsed().as_millis() as u64,
        pv: info.pv.iter().map(|&p| format_h8(p, size)).collect(),
        forced,
    }
}

/// `view`: the board size, the side to move and the evaluation's score units per logit.
fn nbest(list: &[(Pos, i32)], view: (usize, Color, f64), start: Instant, round: u32) -> NBest {
    let (size, side, per_logit) = view;
    NBest {
        round,
        elapsed_ms: start.elapsed().as_millis() as u64,
        moves: list
            .iter()
            .map(|&(p, score)| Scored {
                point: format_h8(p, size),
                score,
                score_text: score_text(score),
                black_win: black_win(win_chance(score, per_logit), side),
            })
            .collect(),
    }
}

/// Black's chance to win, for the page's bar, from the chance `own` of `side`, the side to
/// move ([`win_chance`]).
pub fn black_win(own: f64, side: Color) -> f64 {
    if side == Color::Black {
        own
    } else {
        1.0 - own
    }
}

/// A score for a person, as the prompt writes it.
pub fn score_text(score: i32) -> String {
    match mate_distance(score) {
        Some(m) if m >= 0 => format!("win in {}", (m + 1) / 2),
        Some(m) => format!("loss in {}", (-m + 1) / 2),
        None => format!("{score:+}"),
    }
}
