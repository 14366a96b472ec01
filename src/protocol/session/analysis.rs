//! The Yixin-Board analysis commands: `YXNBEST` (the N best moves), `YXBALANCEONE` and
//! `YXBALANCETWO` (the move or pair of moves that leaves the game closest to even) and
//! `YXSEARCHDEFEND` (every move judged, the losing ones marked). They answer with points as
//! a move would be answered, and play nothing: Yixin-Board sends the position before each.
//! Their results also go out as `INFO PV` blocks, one a move, which Yixin-Board draws as
//! win rates (or W/L with a count) on the moves' points.

use super::super::report::{self, Line};
use super::{Out, Session};
use crate::engine::GameStatus;
use crate::search::tt::MATE_BOUND;
use crate::search::Info;
use crate::types::Pos;

/// Moves with their scores.
type Scored = Vec<(Pos, i32)>;

/// The most moves `YXNBEST` lists.
const MAX_NBEST: i64 = 400;

impl Session {
    /// Runs `search` with the session's progress reporter, and returns its result with the
    /// last iteration's figures (for the depth of the lines it reports).
    fn analyse<T>(
        &mut self,
        out: Out,
        search: impl FnOnce(
            &mut crate::engine::Engine,
            &crate::search::Limits,
            &mut dyn FnMut(&Info),
        ) -> T,
    ) -> Result<(T, Option<Info>), String> {
        if self.engine.status() != GameStatus::Ongoing {
            return Err("the game is over".into());
        }
        let limits = self.limits();
        let mut last = None;
        let mut report = self.reporter(&mut *out);
        let mut on_info = |info: &Info| {
            last = Some(info.clone());
            report(info);
        };
        let result = search(&mut self.engine, &limits, &mut on_info);
        Ok((result, last))
    }

    /// `INFO PV` blocks for scored moves, each line one move deep, with the figures of the
    /// search's last iteration.
    fn scored_blocks(&self, list: &[(Pos, i32)], last: &Option<Info>, out: Out) {
        for (i, &(p, score)) in list.iter().enumerate() {
            let info = Info {
                score,
                pv: vec![p],
                chance: self.engine.win_chance(score),
                ..last.clone().unwrap_or_else(empty_info)
            };
            for l in report::pv_block(&Line {
                index: i,
                count: list.len(),
                info: &info,
            }) {
                out(&l);
            }
        }
    }

    pub(super) fn nbest(&mut self, n: i64, out: Out) -> Result<(), String> {
        if n < 1 {
            return Err(format!("YXNBEST needs a positive count, not {n}"));
        }
        let count = n.min(MAX_NBEST) as usize;
        let (list, last) = self.analyse(out, |e, limits, on_info| {
            e.think_nbest(count, limits, on_info)
        })?;
        let Some(&(best, _)) = list.first() else {
            return Err(self.no_move_reason());
        };
        for (i, (p, score)) in list.iter().enumerate() {
            out(&format!(
                "MESSAGE NBEST {} {p} eval {} winrate {:.1}%",
                i + 1,
                report::score_text(*score),
                self.engine.win_chance(*score) * 100.0
            ));
        }
        self.scored_blocks(&list, &last, out);
        if self.detail.realtime {
            out(&format!("MESSAGE REALTIME BEST {best}"));
        }
        // The best move is answered but not played: YXNBEST is an analysis command.
        out(&best.to_string());
        Ok(())
    }

    pub(super) fn balance_one(&mut self, bias: i64, out: Out) -> Result<(), String> {
        let bias = clamp_bias(bias);
        let (found, _) = self.analyse(out, |e, limits, on_info| {
            e.think_balance_one(bias, limits, on_info)
        })?;
        let Some((p, score)) = found else {
            return Err(self.no_move_reason());
        };
        out(&format!(
            "MESSAGE BALANCE {p} leaves the opponent to move at eval {} (for the side that played it)",
            report::score_text(score)
        ));
        out(&p.to_string());
        Ok(())
    }

    pub(super) fn balance_two(&mut self, bias: i64, out: Out) -> Result<(), String> {
        let bias = clamp_bias(bias);
        let (found, _) = self.analyse(out, |e, limits, on_info| {
            e.think_balance_two(bias, limits, on_info)
        })?;
        let Some((a, b, score)) = found else {
            return Err(self.no_move_reason());
        };
        out(&format!(
            "MESSAGE BALANCE {a} {b} leave the side to move at eval {}",
            report::score_text(score)
        ));
        out(&format!("{a} {b}"));
        Ok(())
    }

    /// Every root move judged: the ones that hold and the ones proven to lose (marked
    /// `REALTIME LOSE`), these last including the moves the root left out before or
    /// between its iterations because the opponent's VCF or VCT beats each. The `INFO PV`
    /// blocks are for the scored moves (at most [`MAX_NBEST`]).
    pub(super) fn search_defend(&mut self, out: Out) -> Result<(), String> {
        let ((list, dropped), last) =
            self.analyse(out, |e, limits, on_info| e.think_defend(limits, on_info))?;
        let Some(&(best, _)) = list.first() else {
            return Err(self.no_move_reason());
        };
        let (lost, held): (Scored, Scored) = list.iter().partition(|(_, s)| *s <= -MATE_BOUND);
        let mut lost: Vec<Pos> = lost.iter().map(|&(p, _)| p).collect();
        lost.extend(dropped);
        for p in &lost {
            out(&format!("MESSAGE REALTIME LOSE {p}"));
        }
        let held: Vec<Pos> = held.iter().map(|&(p, _)| p).collect();
        out(&format!(
            "MESSAGE DEFEND {} moves hold: {}; {} lose: {}",
            held.len(),
            report::moves_text(&held),
            lost.len(),
            report::moves_text(&lost)
        ));
        let shown = &list[..list.len().min(MAX_NBEST as usize)];
        self.scored_blocks(shown, &last, out);
        out(&best.to_string());
        Ok(())
    }
}

/// Biases beyond a decided game's scores mean nothing.
fn clamp_bias(bias: i64) -> i32 {
    bias.clamp(-(MATE_BOUND as i64 - 1), MATE_BOUND as i64 - 1) as i32
}

fn empty_info() -> Info {
    Info {
        depth: 0,
        seldepth: 0,
        score: 0,
        nodes: 0,
        elapsed: std::time::Duration::ZERO,
        pv: Vec::new(),
        chance: 0.5,
    }
}
