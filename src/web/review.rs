//! A game review for the page ([`crate::review`]: where the game was decided, by the threat
//! solver), streamed as server-sent events: one `reviewed` event per move ([`Reviewed`]) as
//! the solver finishes it, then one `done` ([`ReviewDone`]) or `error`
//! (`{"error": ...}`). The review works on the game's moves, not its engine, so it runs
//! beside a search or after the game's end; it holds one of the server's search slots, runs
//! on a blocking thread, and stops when the page stops listening.

use super::error::ApiError;
use super::games::{lock, Games};
use super::json::{ReviewDone, Reviewed};
use super::search::{event, event_stream};
use crate::notation::format_h8;
use crate::review::{review_game, Finding, MoveReview, Report, ReviewLimits};
use crate::types::{Pos, Rule};
use axum::response::sse::{Event, Sse};
use futures_util::stream::Stream;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::sync::OwnedSemaphorePermit;

/// Starts a review of game `id`, each solve given at most `per_solve`: 404 for no game, 409
/// for a game without moves, 503 if every search slot is taken.
pub fn start(
    games: &Arc<Games>,
    id: &str,
    per_solve: Duration,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let game = games.get(id)?;
    let (size, rule, moves) = lock(&game).game();
    if moves.iter().all(|p| p.is_none()) {
        return Err(ApiError::conflict("no moves to review yet"));
    }
    let slot = games.slot()?;
    let (tx, rx) = unbounded_channel::<Event>();
    let job = Job {
        size,
        limits: ReviewLimits::new(per_solve),
        moves,
        rule,
    };
    tokio::spawn(drive(job, slot, tx));
    Ok(event_stream(rx))
}

/// What to review.
struct Job {
    size: usize,
    rule: Rule,
    moves: Vec<Pos>,
    limits: ReviewLimits,
}

/// Runs the review on a blocking thread and forwards each move's review until it ends.
async fn drive(mut job: Job, slot: OwnedSemaphorePermit, tx: UnboundedSender<Event>) {
    let start = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    job.limits.stop = Some(stop.clone());
    let played = job.moves.iter().filter(|p| !p.is_none()).count();
    let (msg_tx, mut msg_rx) = unbounded_channel::<Reviewed>();
    let mut work = tokio::task::spawn_blocking(move || {
        let mut report = Report::new(job.size, false);
        let size = job.size;
        let reviewed = review_game(job.size, job.rule, &job.moves, &job.limits, &mut |m| {
            let text = report.line(m);
            let _ = msg_tx.send(reviewed(m, text, size));
        });
        let first_mistake = report.first_mistake().map(|m| m.number);
        reviewed.map(|r| (r.len(), report.summary(), first_mistake))
    });
    let forward = |r: Reviewed| event("reviewed", &r);
    let mut left = false;
    let result = loop {
        tokio::select! {
            biased;
            Some(r) = msg_rx.recv() => { let _ = tx.send(forward(r)); }
            r = &mut work => break r,
            _ = tx.closed(), if !left => {
                // The page went away: the review is for nobody.
                left = true;
                stop.store(true, Ordering::SeqCst);
            }
        }
    };
    while let Ok(r) = msg_rx.try_recv() {
        let _ = tx.send(forward(r));
    }
    drop(slot);
    let error = |text: String| event("error", &serde_json::json!({ "error": text }));
    let _ = tx.send(match result {
        Ok(Ok((reviewed, summary, first_mistake))) => event(
            "done",
            &ReviewDone {
                summary,
                reviewed,
                moves: played,
                first_mistake,
                stopped: stop.load(Ordering::SeqCst),
                elapsed_ms: start.elapsed().as_millis() as u64,
            },
        ),
        Ok(Err(e)) => error(format!("cannot review this game: {e}")),
        Err(_) => error("the review failed".into()),
    });
}

/// The page's form of one move's review; `text` is the report's line for it, if shown.
fn reviewed(m: &MoveReview, text: Option<String>, size: usize) -> Reviewed {
    let points = |ps: &[Pos]| ps.iter().map(|&p| format_h8(p, size)).collect();
    Reviewed {
        number: m.number,
        mover: m.mover.to_string(),
        point: format_h8(m.played, size),
        kind: m.finding.as_ref().map(|f| f.tag().to_string()),
        text,
        line: m
            .finding
            .as_ref()
            .map_or_else(Vec::new, |f| points(f.line())),
        stops: match &m.finding {
            Some(Finding::Blunder { stops, .. }) => points(stops),
            _ => Vec::new(),
        },
    }
}
