//! The fixed benchmark: a set of positions searched to a fixed depth on one thread. Its node
//! counts form a signature that is the same on every run and every machine (move ordering is
//! a total order and nothing depends on time), so any functional change shows up as a new
//! signature.

use crate::engine::{Config, Engine, Level};
use crate::notation::parse_move_list;
use crate::search::Limits;
use crate::types::{Pos, Rule};
use std::time::Duration;

/// The positions: `rule<TAB>moves` (0-based `x,y`, black first).
///
/// The first eight are the 15x15 positions of Rapfi's `bench` command (dhbloo/rapfi,
/// `Rapfi/command/benchmark.cpp`), as given in `../shared/data/openings/rapfi_bench_positions.tsv`.
/// The rest are Piskvork tournament openings from `freestyle15_piskvork_openings.tsv`
/// (plastovicka/Piskvork `openings.txt`) and a renju opening from
/// `renju15_katagomo_openings50.tsv` (hzyhhzy/KataGomo).
pub const POSITIONS: &str = "\
freestyle\t7,7 6,8 5,9 6,7 6,6
freestyle\t7,13 7,10 7,11 5,9
standard\t7,7 7,8 9,9 8,8 5,8
standard\t5,9 8,6 7,7
standard\t1,12 10,5 6,13 5,9
renju\t7,7 8,6 9,5 8,7 8,8 6,6
renju\t7,7 7,6 9,6 9,7 5,7 8,8 6,8 8,6 7,9 4,6 5,9 10,8 11,9 8,5 8,9 5,6 6,6 6,4 7,5 8,4 8,7
renju\t7,7 7,6 7,9 8,5 8,9 8,6 6,6 6,7 9,4 8,8
freestyle\t7,7 8,7 7,10
freestyle\t7,7 8,8 9,10
freestyle\t6,6 7,7 8,9 9,9 10,8
renju\t7,7 8,7 9,7
";

/// One benchmark position.
pub struct BenchPosition {
    /// The rule of the position.
    pub rule: Rule,
    /// The moves that lead to it, black first.
    pub moves: Vec<Pos>,
}

/// The parsed positions.
pub fn positions() -> Vec<BenchPosition> {
    POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (rule, moves) = l.split_once('\t').expect("bench line has a tab");
            BenchPosition {
                rule: Rule::parse(rule).expect("bench rule"),
                moves: parse_move_list(moves).expect("bench moves"),
            }
        })
        .collect()
}

/// The result for one position.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Nodes the search took.
    pub nodes: u64,
    /// Time the search took.
    pub time: Duration,
    /// The move it chose.
    pub best: Pos,
    /// Its score, for the side to move.
    pub score: i32,
}

/// Searches every position to `depth` with `config` (threads, hash size, search options),
/// calling `each` after each position. Each position starts from a cleared table so the
/// result does not depend on the order.
pub fn run(
    depth: i32,
    config: &Config,
    each: &mut dyn FnMut(usize, &BenchResult),
) -> Vec<BenchResult> {
    let mut out = Vec::new();
    for (i, pos) in positions().into_iter().enumerate() {
        let mut e = Engine::with_config(15, pos.rule, config.clone()).expect("15x15 is supported");
        e.set_position(&pos.moves).expect("bench position is legal");
        let o = e.think(Level::Depth(depth), &Limits::default(), &mut |_| {});
        let r = BenchResult {
            nodes: o.nodes,
            time: o.elapsed,
            best: o.best,
            score: o.score,
        };
        each(i, &r);
        out.push(r);
    }
    out
}

/// The signature of a run: an FNV-1a hash of the node counts and chosen moves.
pub fn signature(results: &[BenchResult]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for r in results {
        for v in [r.nodes, r.best.0 as u64] {
            for byte in v.to_le_bytes() {
                h ^= byte as u64;
                h = h.wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    h
}
