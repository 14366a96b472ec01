//! `review`: the game so far, through the solver.

use super::{Io, Prompt};
use crate::review::{review_game, Report, ReviewLimits};
use std::io;
use std::time::Duration;

impl Prompt {
    /// Reviews the game so far (`crate::review`): its blunders and missed wins, as the
    /// solver finds them, then the first mistake.
    pub(super) fn review(&mut self, ms: u64, io: &mut Io) -> io::Result<Result<(), String>> {
        let b = self.engine.board();
        let (size, rule, moves) = (b.size(), b.rule(), b.moves().to_vec());
        if moves.is_empty() {
            return Ok(Err("No moves to review yet.".into()));
        }
        say!(
            io,
            "Reviewing {} moves, up to {ms} ms a solve.",
            moves.len()
        )?;
        let mut report = Report::new(size, false);
        let mut written = Ok(());
        let limits = ReviewLimits::new(Duration::from_millis(ms));
        let reviewed = review_game(size, rule, &moves, &limits, &mut |m| {
            if let (Some(line), Ok(())) = (report.line(m), &written) {
                written = say!(io, "{line}");
            }
        });
        written?;
        if let Err(e) = reviewed {
            return Ok(Err(format!("Cannot review this game: {e}.")));
        }
        say!(io, "{}", report.summary())?;
        Ok(Ok(()))
    }
}
