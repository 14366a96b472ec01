//! Yixin-Board's opening steps: `YXSWAP2STEP1` to `3` and `YXSOOSORVSTEP1` to `6`. Each step
//! rebuilds the rule's stage from the stones so far (`engine::opening`), takes the engine's
//! decision at that step and prints it as Yixin-Board reads it: `MESSAGE SWAP2 ...` or
//! `MESSAGE SOOSORV ...` lines, points as `x y` (the order of `x,y`). A stage the stones do not
//! fit is an `ERROR` and changes nothing.

use super::opening::act;
use super::{Out, Session};
use crate::engine::opening::rule::SOOSORV_DEFAULT;
use crate::engine::opening::{Action, Decision, Opening, OpeningRule};
use crate::types::{Color, Pos};
use std::sync::atomic::Ordering;

/// `x y`: a point as the opening messages write it.
fn spaced(p: Pos) -> String {
    format!("{} {}", p.x(), p.y())
}

/// `Y` / `N` for Soosorv's swap answers, `YES` / `NO` for swap2's.
fn yes_no(yes: bool, long: bool) -> &'static str {
    match (yes, long) {
        (true, true) => "YES",
        (false, true) => "NO",
        (true, false) => "Y",
        (false, false) => "N",
    }
}

impl Session {
    /// The engine's decision at the stage's step, within the move's limits.
    fn step_decision(&mut self, stage: &Opening) -> Result<Decision, String> {
        let limits = self.limits();
        let pending = self.pending_stops.clone();
        let stopped = move || pending.load(Ordering::SeqCst) > 0;
        self.engine
            .opening_decision(stage, &limits, &stopped)
            .ok_or_else(|| "the opening stage is over".to_string())
    }

    /// `YXSWAP2STEP1`: three stones on an empty board (whatever the position was), as
    /// `MESSAGE SWAP2 MOVE1 x y` to `MOVE3`. `YXSWAP2STEP2`: after the board's three stones,
    /// `MESSAGE SWAP2 SWAP1 YES` (the brain takes black), `... NO` (it keeps white; a `BOARD`
    /// asks for its move next), or two more stones as `MOVE4` and `MOVE5`. `YXSWAP2STEP3`:
    /// after the board's five stones, `MESSAGE SWAP2 SWAP2 YES` (black) or `NO` (white).
    pub(super) fn swap2_step(&mut self, step: u8, out: Out) -> Result<(), String> {
        let mut moves: Vec<Pos> = match step {
            1 => Vec::new(),
            _ => self.engine.board().moves().to_vec(),
        };
        // A board whose fields make the brain the side with more stones ends in a pass.
        while moves.last().is_some_and(|p| p.is_none()) {
            moves.pop();
        }
        let want = [0, 3, 5][step as usize - 1];
        if moves.len() != want || moves.iter().any(|p| p.is_none()) {
            return Err(format!(
                "YXSWAP2STEP{step} needs a board of {want} stones (one colour after the \
                 other), not {}",
                moves.len()
            ));
        }
        let mut stage = self.swap2_stage(&moves)?;
        if step == 1 {
            let limits = self.limits();
            let three = self.place_stones(&mut stage, 3, &limits);
            for (i, &p) in three.iter().enumerate() {
                out(&format!("MESSAGE SWAP2 MOVE{} {}", i + 1, spaced(p)));
            }
            return Ok(());
        }
        let decision = self.step_decision(&stage)?;
        let _ = self.engine.set_position(&moves);
        match decision.action {
            Action::AddTwo(w, b) => {
                let _ = self.engine.set_position(&[moves, vec![w, b]].concat());
                out(&format!("MESSAGE SWAP2 MOVE4 {}", spaced(w)));
                out(&format!("MESSAGE SWAP2 MOVE5 {}", spaced(b)));
            }
            Action::Choose(c) => {
                self.own = Some(c);
                let which = if step == 2 { 1 } else { 2 };
                let yes = yes_no(c == Color::Black, true);
                out(&format!("MESSAGE SWAP2 SWAP{which} {yes}"));
            }
            other => return Err(format!("no answer to swap2 from {other:?}")),
        }
        Ok(())
    }

    /// Yixin-Board's Soosorv-8 steps, with the stones of the block in the order placed:
    /// 1 (no stones): a canonical opening, as `MESSAGE SOOSORV MOVE1 x y` to `MOVE3`;
    /// 2 (three stones, the brain white): `MESSAGE SOOSORV SWAP1 Y` (it takes black) or `N`;
    /// 3 (three stones, the brain white): the 4th stone and the number of fifth moves,
    /// `MESSAGE SOOSORV MOVE4 x y n`;
    /// 4 N (four stones, the brain black): `MESSAGE SOOSORV SWAP2 Y` (it takes white) or `N`;
    /// 5 N (four stones, the brain black): N fifth moves, `MESSAGE SOOSORV MOVE5 x y` each,
    /// then `MESSAGE SOOSORV MOVE5 DONE`;
    /// 6 (four stones and the offered fifth moves, the brain white): its pick,
    /// `MESSAGE SOOSORV MOVE5 C x y`; a `BOARD` asks for its 6th move next.
    pub(super) fn soosorv_step(
        &mut self,
        step: u8,
        fifths: Option<u8>,
        stones: &[Pos],
        out: Out,
    ) -> Result<(), String> {
        let want = match step {
            1 => "no stones",
            2 | 3 => "3 stones",
            4 | 5 => "4 stones",
            _ => "4 stones and the fifth moves offered",
        };
        let fits = match step {
            1 => stones.is_empty(),
            2 | 3 => stones.len() == 3,
            4 | 5 => stones.len() == 4,
            _ => stones.len() > 4,
        };
        if !fits {
            return Err(format!(
                "YXSOOSORVSTEP{step} takes {want}, not {}; position unchanged",
                stones.len()
            ));
        }
        let mut stage = self.soosorv_stage(step, fifths, stones)?;
        if step == 1 {
            let limits = self.limits();
            let three = self.place_stones(&mut stage, 3, &limits);
            for (i, &p) in three.iter().enumerate() {
                out(&format!("MESSAGE SOOSORV MOVE{} {}", i + 1, spaced(p)));
            }
            return Ok(());
        }
        let decision = self.step_decision(&stage)?;
        let placed = &stones[..stones.len().min(4)];
        let _ = self.engine.set_position(placed);
        match (step, decision.action) {
            (2, Action::Choose(c)) => {
                self.own = Some(c);
                out(&format!(
                    "MESSAGE SOOSORV SWAP1 {}",
                    yes_no(c == Color::Black, false)
                ));
            }
            (3, Action::PlaceAndDeclare(p, n)) => {
                let _ = self.engine.set_position(&[placed, &[p]].concat());
                self.own = Some(Color::White);
                out(&format!("MESSAGE SOOSORV MOVE4 {} {n}", spaced(p)));
            }
            (4, Action::Choose(c)) => {
                self.own = Some(c);
                out(&format!(
                    "MESSAGE SOOSORV SWAP2 {}",
                    yes_no(c == Color::White, false)
                ));
            }
            (5, Action::Offer(list)) => {
                self.own = Some(Color::Black);
                for p in list {
                    out(&format!("MESSAGE SOOSORV MOVE5 {}", spaced(p)));
                }
                out("MESSAGE SOOSORV MOVE5 DONE");
            }
            (6, Action::Pick(p)) => {
                let _ = self.engine.set_position(&[placed, &[p]].concat());
                self.own = Some(Color::White);
                out(&format!("MESSAGE SOOSORV MOVE5 C {}", spaced(p)));
            }
            (_, other) => return Err(format!("no Soosorv answer from {other:?}")),
        }
        Ok(())
    }

    /// The Soosorv-8 stage at `step` from its stones: the canonical opening; from step 3 on,
    /// the white player kept white; from step 4, the 4th stone with `fifths` declared (at
    /// step 6, as many as are offered); from step 5, the black player kept black; at step
    /// 6, the fifth moves offered.
    fn soosorv_stage(
        &self,
        step: u8,
        fifths: Option<u8>,
        stones: &[Pos],
    ) -> Result<Opening, String> {
        let board = self.engine.board();
        let rule = OpeningRule::Soosorv {
            max_fifths: SOOSORV_DEFAULT,
        };
        let mut stage = Opening::new(rule, board.size(), board.rule())
            .map_err(|e| format!("{e}; position unchanged"))?;
        for &p in stones.iter().take(3) {
            act(&mut stage, Action::Place(p))?;
        }
        if step >= 3 {
            act(&mut stage, Action::Choose(Color::White))?;
        }
        if step >= 4 {
            let offered = stones.len() - 4;
            let n = fifths.unwrap_or(u8::try_from(offered).unwrap_or(u8::MAX));
            act(&mut stage, Action::PlaceAndDeclare(stones[3], n))?;
        }
        if step >= 5 {
            act(&mut stage, Action::Choose(Color::Black))?;
        }
        if step == 6 {
            act(&mut stage, Action::Offer(stones[4..].to_vec()))?;
        }
        Ok(stage)
    }
}
