//! Net files on arbitrary bytes (seed the corpus with `nets/*.wznet`, and give
//! `-max_len` above their size, so that mutations keep the length a net must have).
//! Properties:
//!
//! - `Network::from_bytes` refuses what is not a net with an error and never panics;
//! - a net it accepts evaluates a game of a few moves on 15x15 without panicking, its
//!   incremental accumulator equal to a fresh one after every move, and its score within
//!   the net's bounds (huge finite weights may overflow the float layers to an infinite or
//!   undefined logit; the score clamps it), and the policy (with a version-6 net's window
//!   term) of every empty cell computes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::eval::accumulator::Accumulator;
use wuzi::eval::net::{score_of_logit, Network, MAX_NET_SCORE, SCORE_PER_LOGIT};
use wuzi::types::{Pos, Rule};
use wuzi::Board;

fuzz_target!(|data: &[u8]| {
    let Ok(net) = Network::from_bytes(data) else {
        return;
    };
    let mut board = Board::new(15, Rule::Freestyle);
    let mut acc = Accumulator::new(&net, &board);
    for (x, y) in [(7, 7), (8, 8), (6, 8), (8, 6), (7, 9), (9, 7)] {
        board.make(Pos::new(x, y));
        let changed: Vec<Pos> = board.last_changed().collect();
        acc.update(&net, &board, Pos::new(x, y), changed);
        acc.assert_matches(&net, &board);
        let score = score_of_logit(acc.value_logit(&net, &board), SCORE_PER_LOGIT);
        assert!(score.abs() <= MAX_NET_SCORE, "score {score}");
        let me = board.to_move();
        for &p in board.cells() {
            if board.is_empty(p) {
                let logit = net.policy(&acc.cell(me, p)) + net.window_logit(&board, p, me);
                std::hint::black_box(logit);
            }
        }
    }
});
