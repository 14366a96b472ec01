//! What the brain prints about a search: a `MESSAGE` line of progress for every manager,
//! and for Yixin-Board, when it asks (`INFO show_detail`), the live lines it draws on its
//! board: `MESSAGE REALTIME ...` (the best move so far) and `INFO PV` blocks (each line's
//! depth, evaluation, win rate and moves; Yixin-Board tags the line's first point with its
//! win rate, or `W5` / `L4` for a proven result).

use crate::search::{mate_distance, Info};
use crate::types::Pos;

/// What a Yixin-Board GUI asked to see with `INFO show_detail N`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Detail {
    /// Bit 1: `MESSAGE REALTIME` lines.
    pub realtime: bool,
    /// Bit 2: `INFO PV` blocks.
    pub blocks: bool,
}

impl Detail {
    /// The bits of `show_detail` (other bits are ignored).
    pub fn from_mask(mask: i64) -> Detail {
        Detail {
            realtime: mask & 1 != 0,
            blocks: mask & 2 != 0,
        }
    }
}

/// A score as text: centi-stones, or `+M5` / `-M4` (plies) for a decided game.
pub fn score_text(score: i32) -> String {
    match mate_distance(score) {
        Some(m) if m >= 0 => format!("+M{m}"),
        Some(m) => format!("-M{}", -m),
        None => score.to_string(),
    }
}

/// Moves as Gomocup points separated by spaces.
pub fn moves_text(pv: &[Pos]) -> String {
    let words: Vec<String> = pv.iter().map(|p| p.to_string()).collect();
    words.join(" ")
}

/// The `MESSAGE` line of one finished iteration.
pub fn progress(info: &Info) -> String {
    format!(
        "MESSAGE depth {}-{} eval {} winrate {:.1}% nodes {} nps {} time {} pv {}",
        info.depth,
        info.seldepth,
        score_text(info.score),
        info.chance * 100.0,
        info.nodes,
        info.nps(),
        info.elapsed.as_millis(),
        moves_text(&info.pv)
    )
}

/// Every line a finished iteration prints under `detail`: the `MESSAGE` line, then the
/// realtime best move (`REFRESH` clears the GUI's marks of the last iteration), then the
/// iteration's `INFO PV` block.
pub fn iteration(info: &Info, detail: Detail) -> Vec<String> {
    let mut lines = vec![progress(info)];
    if let (true, Some(best)) = (detail.realtime, info.pv.first()) {
        lines.push("MESSAGE REALTIME REFRESH".into());
        lines.push(format!("MESSAGE REALTIME BEST {best}"));
        lines.push(format!("MESSAGE REALTIME PV {}", moves_text(&info.pv)));
    }
    if detail.blocks {
        lines.extend(pv_block(&Line {
            index: 0,
            count: 1,
            info,
        }));
    }
    lines
}

/// One line of a (multi-)PV report.
pub struct Line<'a> {
    /// Its rank, from 0.
    pub index: usize,
    /// How many lines the report has.
    pub count: usize,
    /// Its search figures and moves.
    pub info: &'a Info,
}

/// The `INFO PV` block of one line, as Yixin-Board reads it: `INFO PV i`, the keys, then
/// `INFO PV DONE`.
pub fn pv_block(line: &Line) -> Vec<String> {
    let info = line.info;
    vec![
        format!("INFO PV {}", line.index),
        format!("INFO NUMPV {}", line.count),
        format!("INFO DEPTH {}", info.depth),
        format!("INFO SELDEPTH {}", info.seldepth),
        format!("INFO NODES {}", info.nodes),
        format!("INFO TOTALNODES {}", info.nodes),
        format!("INFO TOTALTIME {}", info.elapsed.as_millis()),
        format!("INFO SPEED {}", info.nps()),
        format!("INFO EVAL {}", score_text(info.score)),
        format!("INFO WINRATE {:.4}", info.chance),
        format!("INFO BESTLINE {}", moves_text(&info.pv)),
        "INFO PV DONE".into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;
    use std::time::Duration;

    fn info(score: i32) -> Info {
        Info {
            depth: 9,
            seldepth: 14,
            score,
            nodes: 120_000,
            elapsed: Duration::from_millis(400),
            pv: vec![Pos::new(7, 7), Pos::new(8, 6)],
            chance: crate::search::win_chance(score, 1450.0),
        }
    }

    #[test]
    fn realtime_and_pv_blocks_as_yixin_board_reads_them() {
        let lines = iteration(&info(0), Detail::from_mask(3));
        assert_eq!(
            lines,
            [
                "MESSAGE depth 9-14 eval 0 winrate 50.0% nodes 120000 nps 300000 time 400 pv 7,7 8,6",
                "MESSAGE REALTIME REFRESH",
                "MESSAGE REALTIME BEST 7,7",
                "MESSAGE REALTIME PV 7,7 8,6",
                "INFO PV 0",
                "INFO NUMPV 1",
                "INFO DEPTH 9",
                "INFO SELDEPTH 14",
                "INFO NODES 120000",
                "INFO TOTALNODES 120000",
                "INFO TOTALTIME 400",
                "INFO SPEED 300000",
                "INFO EVAL 0",
                "INFO WINRATE 0.5000",
                "INFO BESTLINE 7,7 8,6",
                "INFO PV DONE",
            ]
        );
        assert_eq!(iteration(&info(0), Detail::default()).len(), 1);
        assert_eq!(iteration(&info(0), Detail::from_mask(1)).len(), 4);
        let won = iteration(&info(WIN - 5), Detail::from_mask(2));
        assert!(won.contains(&"INFO EVAL +M5".to_string()), "{won:?}");
        assert!(won.contains(&"INFO WINRATE 1.0000".to_string()), "{won:?}");
    }
}
