//! The engine's moves: its think with progress on `err`, its move with what it means for
//! the player, and `hint`.

use super::text::{level_text, pv_text, WIDTH};
use super::verdict::{self, ordinal, Verdict};
use super::{Io, Prompt};
use crate::engine::{GameStatus, Level};
use crate::notation::format_h8;
use crate::search::{Info, Limits, Outcome};
use crate::types::Color;
use std::io;
use std::sync::atomic::Ordering;
use std::time::Duration;

impl Prompt {
    pub(super) fn limits(&self) -> Limits {
        let hard = Duration::from_secs_f64(self.seconds);
        Limits {
            depth: None,
            nodes: None,
            soft_time: Some(hard / 2),
            hard_time: Some(hard),
        }
    }

    /// Thinks for the side to move, showing progress on `err`.
    pub(super) fn think(&mut self, io: &mut Io) -> io::Result<Outcome> {
        let limits = self.limits();
        let size = self.size();
        let mover = self.engine.board().to_move();
        let (err, tty) = (&mut *io.err, io.err_tty);
        let mut report = |info: &Info| {
            let line = progress_line(info, mover, size);
            // Progress is a courtesy: a closed stderr must not stop the game.
            let _ = if tty {
                write!(err, "\r{line}\x1b[K").and_then(|_| err.flush())
            } else {
                writeln!(err, "{line}")
            };
        };
        let thinking = self.interrupt.thinking.clone();
        thinking.store(true, Ordering::SeqCst);
        let out = self.engine.think(self.level, &limits, &mut report);
        thinking.store(false, Ordering::SeqCst);
        if tty {
            let _ = write!(io.err, "\r\x1b[K");
        }
        self.db_notes(io)?;
        Ok(out)
    }

    /// Was the last think stopped by Ctrl-C?
    pub(super) fn stopped(&self) -> bool {
        self.interrupt.presses.load(Ordering::SeqCst) > 0
    }

    /// If it is the engine's move, makes it.
    pub(super) fn engine_turn(&mut self, io: &mut Io) -> io::Result<()> {
        if self.engine.status() != GameStatus::Ongoing
            || self.engine.board().to_move() == self.human
        {
            return Ok(());
        }
        let mover = self.engine.board().to_move();
        let out = self.think(io)?;
        if out.best.is_none() || self.engine.play(out.best).is_err() {
            say!(io, "The engine finds no move.")?;
            return Ok(());
        }
        self.show(io)?;
        let n = self.size();
        let mut text = format!("wuzi plays {}", format_h8(out.best, n));
        if self.engine.status() == GameStatus::Ongoing {
            text += &self.judgement(&out, mover);
        }
        say!(io, "{text}.")?;
        if self.stopped() {
            say!(io, "(You stopped the search with Ctrl-C: that was its best move so far. Ctrl-C again quits.)"
            )?;
        }
        self.announce(io)?;
        Ok(())
    }

    /// What the engine's move means for the player, after `wuzi plays x`: forced, a chance,
    /// or a forced win counted in the winner's moves; and whether a random pick among
    /// near-equal moves chose it.
    pub(super) fn judgement(&self, out: &Outcome, mover: Color) -> String {
        if out.forced {
            return ", forced: the only move that does not lose at once".into();
        }
        if matches!(self.level, Level::Random | Level::Greedy) {
            return format!(" ({} level, no search)", level_text(self.level));
        }
        let n = self.size();
        let line = pv_text(&out.pv, n);
        let mut text = match Verdict::of(
            out.score,
            self.engine.win_chance(out.score),
            mover,
            self.human,
        ) {
            Verdict::Chance { percent, .. } => {
                format!(
                    " (searched {} plies): your chance about {percent}%",
                    out.depth
                )
            }
            Verdict::Win { winner, moves } if winner == mover => format!(
                ". It sees a forced win: its five comes in {} more of its moves along {line}",
                moves - 1
            ),
            Verdict::Win { moves, .. } => format!(
                ". It sees a forced win for you: your five can come on your {} move from here",
                ordinal(moves)
            ),
        };
        if let Some((best, score)) = out.instead_of {
            let own = self.engine.win_chance(score);
            let percent = verdict::chance(score, own, mover, self.human).unwrap_or(50);
            text += &format!(
                ". A random pick among its near-equal moves (vary {}): its best was {} (your chance about {percent}%)",
                self.engine.config().random_margin.unwrap_or(0),
                format_h8(best, n)
            );
        }
        text
    }

    pub(super) fn hint(&mut self, io: &mut Io) -> io::Result<Result<(), String>> {
        if self.engine.status() != GameStatus::Ongoing {
            return Ok(Err("The game is over.".into()));
        }
        let mover = self.engine.board().to_move();
        let mut out = self.think(io)?;
        // A hint gives the search's best move, not the engine's random pick.
        if let Some((best, score)) = out.instead_of.take() {
            out.best = best;
            out.score = score;
            out.pv = vec![best];
        }
        if out.best.is_none() {
            return Ok(Err("No move left.".into()));
        }
        let n = self.size();
        let best = format_h8(out.best, n);
        let text = if out.forced {
            format!("Hint: {best}, forced: the only move that does not lose at once.")
        } else if matches!(self.level, Level::Random | Level::Greedy) {
            format!(
                "Hint: {best} ({} level, no search).",
                level_text(self.level)
            )
        } else {
            let line = pv_text(&out.pv, n);
            match Verdict::of(out.score, self.engine.win_chance(out.score), mover, mover) {
                Verdict::Chance { side, percent } if side == self.human => {
                    format!("Hint: {best}: your chance about {percent}%, along {line}.")
                }
                Verdict::Chance { percent, .. } => {
                    format!("Hint: {best}: {mover}'s chance about {percent}%, along {line}.")
                }
                Verdict::Win { winner, moves } if winner == mover => format!(
                    "Hint: {best}, a forced win: five on the {} move of {mover}, this one counted, along {line}.",
                    ordinal(moves)
                ),
                Verdict::Win { winner, moves } => format!(
                    "Hint: {best}; {winner} has a forced win all the same: five on its {} move along {line}.",
                    ordinal(moves)
                ),
            }
        };
        say!(io, "{text}")?;
        if self.stopped() {
            say!(
                io,
                "(You stopped the search with Ctrl-C: that was its best move so far.)"
            )?;
        }
        Ok(Ok(()))
    }
}

/// One line of search progress: depth, the thinker's chance (or forced win), time, speed
/// and the principal variation.
fn progress_line(info: &Info, mover: Color, size: usize) -> String {
    let judged = match Verdict::of(info.score, info.chance, mover, mover) {
        Verdict::Chance { side, percent } => format!("{side} {percent}%"),
        Verdict::Win { winner, moves } => format!("{winner} wins, five in {moves}"),
    };
    let line = format!(
        "thinking: depth {:>2}  {judged}  {:.1} s  {} knodes/s  {}",
        info.depth,
        info.elapsed.as_secs_f64(),
        info.nps() / 1000,
        pv_text(&info.pv, size)
    );
    // One line that overwrites itself on a terminal: the variation is cut to the width.
    if line.chars().count() <= WIDTH {
        return line;
    }
    let cut = line
        .char_indices()
        .nth(WIDTH - 4)
        .map_or(line.len(), |(b, _)| b);
    let at = line[..cut].rfind(' ').unwrap_or(cut);
    format!("{} ...", &line[..at])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;
    use crate::types::Pos;

    fn outcome(best: Pos, score: i32) -> Outcome {
        Outcome {
            best,
            score,
            depth: 9,
            nodes: 1000,
            elapsed: Duration::from_millis(100),
            pv: vec![best],
            root_scores: Vec::new(),
            forced: false,
            instead_of: None,
            dropped: Vec::new(),
        }
    }

    /// The engine's move as the player reads it: the random pick among near-equal moves
    /// named with the search's best, a forced reply said to be forced, a proven win counted
    /// in the winner's moves. The engine is white, the player black.
    #[test]
    fn judgements_of_the_engines_move() {
        let p = Prompt::new().unwrap();
        let (f8, i7) = (Pos::new(5, 7), Pos::new(8, 8));
        let mut out = outcome(i7, 20);
        out.instead_of = Some((f8, 40));
        let text = p.judgement(&out, Color::White);
        // The chance reads the score on the scale of the evaluation searched with: the
        // built-in net on 15x15 freestyle, 400 a unit of logit (20: 51.2% for white).
        assert!(text.contains("your chance about 49%"), "{text}");
        assert!(
            text.ends_with(
                "A random pick among its near-equal moves (vary 30): its best was f8 (your chance about 48%)"
            ),
            "{text}"
        );
        let mut forced = outcome(f8, 0);
        forced.forced = true;
        assert_eq!(
            p.judgement(&forced, Color::White),
            ", forced: the only move that does not lose at once"
        );
        let won = outcome(f8, WIN - 5);
        let text = p.judgement(&won, Color::White);
        assert!(
            text.contains("its five comes in 2 more of its moves along f8"),
            "{text}"
        );
        let lost = outcome(f8, -(WIN - 4));
        let text = p.judgement(&lost, Color::White);
        assert!(
            text.contains("your five can come on your 2nd move"),
            "{text}"
        );
    }
}
