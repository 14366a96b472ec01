//! One move request: the clock line before it, the command, now and then a `STOP`/`YXSTOP`
//! or an `END` while the engine thinks, and the checks on the answer: in time by the
//! manager's rule, not an `ERROR`, and the engine's memory within its limit.

use crate::clock::Clock;
use crate::fault::Kind;
use crate::game::{Abort, Game};
use crate::player::Answer;
use crate::report::{Ending, Overrun};
use std::time::{Duration, Instant};

/// How long past its limit (and the tolerance) an engine may stay silent before it is taken
/// for hung and the game stops.
pub const HUNG_AFTER: Duration = Duration::from_secs(5);

/// Something sent while the engine thinks.
enum Interrupt {
    None,
    /// `STOP` or `YXSTOP` after this many ms: the move must follow within the tolerance.
    Stop {
        after_ms: u64,
        word: &'static str,
    },
    /// `END` after this many ms: the process must exit within a second; the game ends.
    End {
        after_ms: u64,
    },
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

impl Game<'_> {
    /// Asks engine `p` for a move (or any answer that is due now, such as Swap2's) with
    /// `lines`, and returns the answer's text. `None` when the game ended by `END` while the
    /// engine thought. Time overruns and memory are recorded here; an `ERROR` or `UNKNOWN`
    /// answer, silence and a crash stop the game.
    pub fn request(&mut self, p: usize, lines: &[String]) -> Result<Option<String>, Abort> {
        let first = self.before_request(p)?;
        let limit_ms = self.clock.limit_ms(p);
        let interrupt = self.interrupt(limit_ms);
        let what = lines.first().cloned().unwrap_or_default();
        let sent = self.send_all(p, lines)?;
        let grace = self.settings.tolerance + self.settings.slack;
        let mut stop_sent = None;
        let mut early = None;
        match interrupt {
            Interrupt::None => {}
            Interrupt::End { after_ms } => {
                self.end_while_thinking(p, sent + ms(after_ms));
                return Ok(None);
            }
            Interrupt::Stop { after_ms, word } => match self.players[p].answer(sent + ms(after_ms))
            {
                Answer::Timeout => {
                    stop_sent = Some(self.send(p, word)?);
                    self.count(word);
                }
                other => {
                    self.count("STOP planned, answer came first");
                    early = Some(other);
                }
            },
        }
        let answer = match early {
            Some(a) => a,
            None => self.players[p].answer(sent + ms(limit_ms) + grace + HUNG_AFTER),
        };
        let (at, text) = match answer {
            Answer::Line(at, text) => (at, text),
            Answer::Eof => {
                return Err(self.crash(p, &format!("waiting for the answer to '{what}'")))
            }
            Answer::Timeout => {
                let waited = ms(limit_ms) + grace + HUNG_AFTER;
                self.fault(
                    p,
                    Kind::NoAnswer,
                    format!(
                        "no answer to '{what}' within {} ms (limit {limit_ms} ms)",
                        waited.as_millis()
                    ),
                )?;
                return Err(Abort);
            }
        };
        let after_stop = stop_sent.map(|s| at.saturating_duration_since(s));
        self.answered(
            p,
            &what,
            at.saturating_duration_since(sent),
            limit_ms,
            first,
            after_stop,
        )?;
        let upper = text.to_ascii_uppercase();
        if upper.starts_with("ERROR") || upper.starts_with("UNKNOWN") {
            self.fault(
                p,
                Kind::ErrorAnswer,
                format!("answered '{text}' to '{what}' where a move was due"),
            )?;
            return Err(Abort);
        }
        Ok(Some(text))
    }

    /// What comes before anything engine `p` must answer in its time: the lines it printed
    /// unasked are faults, the clock's `time_left` is sent, and its memory is checked
    /// before its first answer. Returns whether this is its first.
    pub fn before_request(&mut self, p: usize) -> Result<bool, Abort> {
        for l in self.players[p].unsolicited() {
            self.fault(p, Kind::Unsolicited, format!("printed '{l}' between moves"))?;
        }
        if let Some(left) = self.clock.time_left_value(p) {
            let line = self.plan.info("time_left", &left.to_string());
            self.send(p, &line)?;
        }
        let first = !self.players[p].asked;
        if first {
            // A peak over the limit already now was reached before the first move.
            self.check_memory(p);
            self.players[p].asked = true;
        }
        Ok(first)
    }

    /// Draws what to send while the engine thinks: the plan's `END`, once, at or after its
    /// ply; else now and then a `STOP` while a long enough search is surely still running.
    fn interrupt(&mut self, limit_ms: u64) -> Interrupt {
        if let Some(at) = self.plan.end_mid_search_at {
            if !self.ended_mid_search && self.referee.len() >= at {
                self.ended_mid_search = true;
                let after_ms = self.dice.range(5, (limit_ms / 3).clamp(10, 400));
                return Interrupt::End { after_ms };
            }
        }
        // Under `timeout_turn 0` the engine answers at once: nothing to stop.
        let thinks = !matches!(self.plan.clock, Clock::MatchOnly { .. });
        if thinks && limit_ms >= 100 && self.dice.chance(0.06) {
            let span = limit_ms.min(600);
            let after_ms = self.dice.range(span / 10, span / 2);
            let word = self.dice.pick(&["STOP", "YXSTOP"]);
            return Interrupt::Stop { after_ms, word };
        }
        Interrupt::None
    }

    /// Books an answer of engine `p` to `what`: holds the `took` it took to the manager's
    /// limit plus tolerance and slack, and one after `STOP` (`after_stop`) to the tolerance
    /// and slack alone; charges it to the clock, checks the memory and counts the answer.
    /// The worst overrun is kept apart for an engine's first answer (`first`), which may
    /// pay for start-up work such as allocating its table.
    pub fn answered(
        &mut self,
        p: usize,
        what: &str,
        took: Duration,
        limit_ms: u64,
        first: bool,
        after_stop: Option<Duration>,
    ) -> Result<(), Abort> {
        let took_ms = took.as_millis() as u64;
        let over_ms = took_ms as i64 - limit_ms as i64;
        let (tol, slack) = (
            self.settings.tolerance.as_millis(),
            self.settings.slack.as_millis(),
        );
        let grace_ms = (tol + slack) as i64;
        let worst = &mut self.rec.worst_overrun[usize::from(!first)];
        if worst.as_ref().is_none_or(|w| over_ms > w.over_ms) {
            *worst = Some(Overrun {
                over_ms,
                took_ms,
                limit_ms,
                engine: self.players[p].label,
                ply: self.referee.len(),
                game: self.plan.game,
            });
        }
        if over_ms > grace_ms {
            self.fault(
                p,
                Kind::TimeOverrun,
                format!(
                    "'{what}' answered after {took_ms} ms: limit {limit_ms} ms + tolerance \
                     {tol} ms + slack {slack} ms"
                ),
            )?;
        }
        if let Some(s) = after_stop {
            let s_ms = s.as_millis() as u64;
            self.rec.slowest_stop_ms = Some(self.rec.slowest_stop_ms.map_or(s_ms, |m| m.max(s_ms)));
            if s_ms as i64 > grace_ms {
                self.fault(
                    p,
                    Kind::SlowStop,
                    format!("the move came {s_ms} ms after STOP (tolerance {tol} ms + slack {slack} ms)"),
                )?;
            }
        }
        self.clock.charge(p, took_ms);
        self.check_memory(p);
        self.rec.answers += 1;
        Ok(())
    }

    /// `END` to engine `p` at `when`, while it thinks (unless it answered first); it must
    /// exit within a second, and the game ends here.
    fn end_while_thinking(&mut self, p: usize, when: Instant) {
        match self.players[p].answer(when) {
            Answer::Timeout => self.count("END while thinking"),
            Answer::Line(..) => self.count("END after a quick answer"),
            Answer::Eof => {
                let _ = self.crash(p, "thinking, before END was sent");
                self.rec.ending = Ending::Aborted;
                return;
            }
        }
        self.end(p);
        self.rec.ending = Ending::EndMidSearch;
    }
}
