//! The Swap2 opening: the answer to `SWAP2BOARD` (the first three stones, or the choice
//! after three or five), from the policy of `protocol::swap2`.

use super::super::swap2::{decide, opening_three, Swap2Choice};
use super::{Out, Session};
use crate::types::{Color, Pos};
use std::sync::atomic::Ordering;

impl Session {
    /// Answers a `SWAP2BOARD` block: three opening stones for none, `SWAP` or a move for
    /// three or five.
    pub(super) fn swap2(&mut self, stones: &[(Pos, Option<i64>)], out: Out) -> Result<(), String> {
        let moves: Vec<Pos> = stones.iter().map(|s| s.0).collect();
        if ![0, 3, 5].contains(&moves.len()) {
            return Err(format!(
                "SWAP2BOARD takes 0, 3 or 5 stones, not {}",
                moves.len()
            ));
        }
        self.engine
            .set_position(&moves)
            .map_err(|e| format!("{e}; position unchanged"))?;
        let limits = self.limits();
        if moves.is_empty() {
            let pending = self.pending_stops.clone();
            let stopped = move || pending.load(Ordering::SeqCst) > 0;
            let [a, b, c] = opening_three(&mut self.engine, &limits, &stopped);
            out(&format!("{a} {b} {c}"));
            return Ok(());
        }
        match decide(&mut self.engine, &limits) {
            Swap2Choice::Swap => {
                self.own = Some(Color::Black);
                out("SWAP");
            }
            Swap2Choice::Move(p) => {
                self.play_own(p)?;
                out(&p.to_string());
            }
        }
        Ok(())
    }
}
