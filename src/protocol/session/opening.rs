//! The Swap2 opening: the answer to `SWAP2BOARD` (the first three stones, or the choice
//! after three or five), from the engine's opening decisions on a swap2 stage rebuilt from
//! the stones (`engine::opening`).

use super::{Out, Session};
use crate::engine::opening::{Action, Opening, OpeningRule, Player};
use crate::search::Limits;
use crate::types::{Color, Pos};
use std::sync::atomic::Ordering;

impl Session {
    /// The swap2 stage after `moves`: the first player's three stones, then the second
    /// player's two, if there are five. Stones the rule refuses are an error.
    pub(super) fn swap2_stage(&self, moves: &[Pos]) -> Result<Opening, String> {
        let board = self.engine.board();
        let mut stage = Opening::new(OpeningRule::Swap2, board.size(), board.rule())
            .map_err(|e| format!("{e}; position unchanged"))?;
        for &p in &moves[..moves.len().min(3)] {
            act(&mut stage, Action::Place(p))?;
        }
        if let [.., w, b] = moves[..] {
            if moves.len() == 5 {
                act(&mut stage, Action::AddTwo(w, b))?;
            }
        }
        Ok(stage)
    }

    /// The engine's stones for the player to act, one decision each, until the stage holds
    /// `count` stones or waits for something else; the position is left on the stage's
    /// stones. Returns the stones placed.
    pub(super) fn place_stones(
        &mut self,
        stage: &mut Opening,
        count: usize,
        limits: &Limits,
    ) -> Vec<Pos> {
        let pending = self.pending_stops.clone();
        let stopped = move || pending.load(Ordering::SeqCst) > 0;
        let mut placed = Vec::new();
        while stage.stones().len() < count {
            let Some(d) = self.engine.opening_decision(stage, limits, &stopped) else {
                break;
            };
            let Action::Place(p) = d.action else { break };
            if act(stage, d.action).is_err() {
                break;
            }
            placed.push(p);
        }
        let _ = self.engine.set_position(stage.stones());
        placed
    }

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
        let mut stage = self.swap2_stage(&moves)?;
        self.engine
            .set_position(&moves)
            .map_err(|e| format!("{e}; position unchanged"))?;
        let limits = self.limits();
        let pending = self.pending_stops.clone();
        let stopped = move || pending.load(Ordering::SeqCst) > 0;
        if moves.is_empty() {
            let three = self.place_stones(&mut stage, 3, &limits);
            let three: Vec<String> = three.iter().map(Pos::to_string).collect();
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

/// Takes `action` from the player the stage waits for, or says why the stage refuses it.
pub(super) fn act(stage: &mut Opening, action: Action) -> Result<(), String> {
    let who = stage.to_act().unwrap_or(Player::First);
    stage
        .apply(who, action)
        .map_err(|e| format!("{e}; position unchanged"))
}
