//! The Swap2 opening: the answer to `SWAP2BOARD` (the first three stones, or the choice
//! after three or five), from the engine's opening decisions on a swap2 stage rebuilt from
//! the stones (`engine::opening`).

use super::{Out, Session};
use crate::engine::opening::{Action, Opening, OpeningRule, Player};
use crate::types::{Color, Pos};
use std::sync::atomic::Ordering;

impl Session {
    /// Answers a `SWAP2BOARD` block: three opening stones for none, `SWAP` (the brain takes
    /// black) or white's move for three or five.
    pub(super) fn swap2(&mut self, stones: &[(Pos, Option<i64>)], out: Out) -> Result<(), String> {
        let moves: Vec<Pos> = stones.iter().map(|s| s.0).collect();
        if ![0, 3, 5].contains(&moves.len()) {
            return Err(format!(
                "SWAP2BOARD takes 0, 3 or 5 stones, not {}",
                moves.len()
            ));
        }
        // The stage is rebuilt (and the stones checked) before the position changes.
        let board = self.engine.board();
        let mut stage = Opening::new(OpeningRule::Swap2, board.size(), board.rule())
            .map_err(|e| format!("{e}; position unchanged"))?;
        // The stones so far: three of the first player's, then the second player's two.
        for &p in &moves[..moves.len().min(3)] {
            stage
                .apply(Player::First, Action::Place(p))
                .map_err(|e| format!("{e}; position unchanged"))?;
        }
        if let [.., w, b] = moves[..] {
            if moves.len() == 5 {
                stage
                    .apply(Player::Second, Action::AddTwo(w, b))
                    .map_err(|e| format!("{e}; position unchanged"))?;
            }
        }
        self.engine
            .set_position(&moves)
            .map_err(|e| format!("{e}; position unchanged"))?;
        let limits = self.limits();
        let pending = self.pending_stops.clone();
        let stopped = move || pending.load(Ordering::SeqCst) > 0;
        if moves.is_empty() {
            let mut three = Vec::new();
            while let Some(d) = self.engine.opening_decision(&stage, &limits, &stopped) {
                let Action::Place(p) = d.action else { break };
                if stage.apply(Player::First, d.action).is_err() {
                    break;
                }
                three.push(p.to_string());
                if three.len() == 3 {
                    break;
                }
            }
            let _ = self.engine.set_position(stage.stones());
            out(&three.join(" "));
            return Ok(());
        }
        let decision = self
            .engine
            .opening_decision(&stage, &limits, &stopped)
            .ok_or("the swap2 stage is over")?;
        let _ = self.engine.set_position(stage.stones());
        match (decision.action, decision.next) {
            (Action::Choose(Color::White), Some(p)) => {
                self.play_own(p)?;
                out(&p.to_string());
            }
            _ => {
                self.own = Some(Color::Black);
                out("SWAP");
            }
        }
        Ok(())
    }
}
