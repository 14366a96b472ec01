//! One engine as the manager sees it during a game: its process, what it has been told of
//! the game, its memory, and reading its answers past the chatter (`MESSAGE`, `DEBUG`,
//! `SUGGEST`), sampling its memory while it thinks.

use crate::engine::{Process, Read};
use crate::memory::{self, Watch};
use std::time::{Duration, Instant};

/// How often memory is sampled while waiting for an answer.
const SAMPLE_EVERY: Duration = Duration::from_millis(20);

/// What waiting for an answer found.
#[derive(Debug)]
pub enum Answer {
    /// A line that is not chatter, read at that instant.
    Line(Instant, String),
    /// The engine closed its output.
    Eof,
    /// Nothing but chatter before the deadline.
    Timeout,
}

/// One engine in a game.
pub struct Player {
    /// `A` or `B`.
    pub label: char,
    /// The process.
    pub proc: Process,
    /// The engine's position is the referee's first `n` moves (as a set of stones with
    /// colours; the order may differ after a `BOARD`). `None`: unknown, send a `BOARD`.
    pub known: Option<usize>,
    /// Its memory against the limit.
    pub mem: Watch,
    /// Has it been asked for a move yet?
    pub asked: bool,
    /// Has `END` been sent (or is the process gone)?
    pub done: bool,
    /// The `MESSAGE` lines that name the position database (`--db`): a file the engine
    /// could not use, or an access it skipped.
    pub db_messages: Vec<String>,
}

impl Player {
    /// A player around a started process.
    pub fn new(label: char, proc: Process, mem: Watch) -> Player {
        Player {
            label,
            proc,
            known: Some(0),
            mem,
            asked: false,
            done: false,
            db_messages: Vec::new(),
        }
    }

    /// Reads the next answer, skipping `MESSAGE` and `DEBUG` lines and empty lines (as
    /// Piskvork does) and answering `SUGGEST x,y` with `PLAY x,y`; waits until `deadline`.
    pub fn answer(&mut self, deadline: Instant) -> Answer {
        self.next_line(deadline, false)
    }

    /// [`Player::answer`], but with `MESSAGE` lines returned too when `messages`.
    fn next_line(&mut self, deadline: Instant, messages: bool) -> Answer {
        loop {
            let step = deadline.min(Instant::now() + SAMPLE_EVERY);
            match self.proc.read(step) {
                Read::Line(at, text) => {
                    if is_chatter(&text) {
                        self.note(&text);
                        if messages && is_message(&text) {
                            return Answer::Line(at, text);
                        }
                        continue;
                    }
                    if let Some(p) = suggestion(&text) {
                        if self.proc.send(&format!("PLAY {p}")).is_err() {
                            return Answer::Eof;
                        }
                        continue;
                    }
                    return Answer::Line(at, text);
                }
                Read::Eof => return Answer::Eof,
                Read::Timeout => {
                    self.sample_memory();
                    if Instant::now() >= deadline {
                        return Answer::Timeout;
                    }
                }
            }
        }
    }

    /// Reads an opening step's answer as Yixin-Board does: the `MESSAGE` lines that begin
    /// with `head` (such as `MESSAGE SWAP2 `), each without the head, until `complete`
    /// says they are all there. Other chatter is skipped; a line that is not chatter (an
    /// `ERROR`, say) ends the wait as `Err(Answer::Line)`. Waits until `deadline`.
    pub fn messages(
        &mut self,
        head: &str,
        deadline: Instant,
        complete: impl Fn(&[String]) -> bool,
    ) -> Result<(Instant, Vec<String>), Answer> {
        let mut got = Vec::new();
        loop {
            match self.next_line(deadline, true) {
                Answer::Line(at, text) if is_message(&text) => {
                    let upper = text.trim().to_ascii_uppercase();
                    if let Some(rest) = upper.strip_prefix(head) {
                        got.push(rest.trim().to_string());
                        if complete(&got) {
                            return Ok((at, got));
                        }
                    }
                }
                other => return Err(other),
            }
        }
    }

    /// Lines printed where no answer was due: whatever is waiting now, chatter aside.
    pub fn unsolicited(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Read::Line(_, text) = self.proc.read(Instant::now()) {
            if !is_chatter(&text) {
                out.push(text);
            } else {
                self.note(&text);
            }
        }
        out
    }

    /// Keeps a chatter line that names the database.
    fn note(&mut self, text: &str) {
        if text.to_ascii_lowercase().contains("database") {
            self.db_messages.push(text.trim().to_string());
        }
    }

    /// Reads the engine's memory now (nothing if the process has gone).
    pub fn sample_memory(&mut self) {
        if let Some(s) = memory::sample(self.proc.pid()) {
            self.mem.observe(s);
        }
    }
}

/// Lines a manager shows or logs but never takes for an answer.
fn is_chatter(text: &str) -> bool {
    let t = text.trim();
    let upper = t.get(..8).unwrap_or(t).to_ascii_uppercase();
    t.is_empty() || upper.starts_with("MESSAGE") || upper.starts_with("DEBUG")
}

/// Is the line a `MESSAGE`?
fn is_message(text: &str) -> bool {
    let t = text.trim();
    t.get(..8).unwrap_or(t).eq_ignore_ascii_case("MESSAGE ")
}

/// The point of a `SUGGEST x,y` line.
fn suggestion(text: &str) -> Option<&str> {
    let (word, rest) = text.split_once(' ')?;
    word.eq_ignore_ascii_case("SUGGEST").then(|| rest.trim())
}
