//! A game's transcript: every line sent to and received from either engine, with the time
//! since the game started, and the manager's notes. Reader threads append received lines
//! as they arrive, so the order is the order of the pipes.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Which way a line went.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Way {
    Sent,
    Received,
    Note,
}

struct Entry {
    at: Duration,
    who: char,
    way: Way,
    text: String,
}

/// A shared, append-only log of one game (cheap to clone: the clones share it).
#[derive(Clone)]
pub struct Transcript {
    start: Instant,
    entries: Arc<Mutex<Vec<Entry>>>,
}

impl Transcript {
    /// An empty transcript whose clock starts now.
    pub fn new() -> Transcript {
        Transcript {
            start: Instant::now(),
            entries: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Logs a line sent to engine `who`, now.
    pub fn sent(&self, who: char, text: &str) {
        self.push(Instant::now(), who, Way::Sent, text);
    }

    /// Logs a line engine `who` printed, read at `at`.
    pub fn received(&self, who: char, at: Instant, text: &str) {
        self.push(at, who, Way::Received, text);
    }

    /// Logs a manager's note (a fault, a decision of the referee).
    pub fn note(&self, text: &str) {
        self.push(Instant::now(), '-', Way::Note, text);
    }

    /// The lines sent to engine `who`, in order: a script to replay against one engine.
    pub fn sent_to(&self, who: char) -> Vec<String> {
        self.lock()
            .iter()
            .filter(|e| e.way == Way::Sent && e.who == who)
            .map(|e| e.text.clone())
            .collect()
    }

    /// The whole transcript, one line per entry: `   12.345 A> TURN 7,7`, `A<` for a line
    /// received, `##` for a note; in time order.
    pub fn render(&self) -> String {
        let entries = self.lock();
        let mut order: Vec<&Entry> = entries.iter().collect();
        order.sort_by_key(|e| e.at);
        let mut out = String::new();
        for e in order {
            let tag = match e.way {
                Way::Sent => format!("{}>", e.who),
                Way::Received => format!("{}<", e.who),
                Way::Note => "##".to_string(),
            };
            let _ = writeln!(
                out,
                "{:>10.3} {tag} {}",
                e.at.as_secs_f64() * 1000.0,
                e.text
            );
        }
        out
    }

    fn push(&self, at: Instant, who: char, way: Way, text: &str) {
        let at = at.saturating_duration_since(self.start);
        self.lock().push(Entry {
            at,
            who,
            way,
            text: text.to_string(),
        });
    }

    /// The entries; a reader thread that panicked while holding the lock leaves them
    /// usable.
    fn lock(&self) -> MutexGuard<'_, Vec<Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}
