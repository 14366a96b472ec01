//! Builds the renju opening book (`books/renju15.tsv`, read by
//! [`wuzi::engine::opening::book`]): deep scores of five-stone positions that RIF's opening
//! rules (Soosorv-N, Taraguchi-N, Yamaguchi) end in. For each of the 26 canonical openings,
//! white's best 4th stones ([`FOURTHS`], by one search that scores every move); after each,
//! black's 5th moves (one of each symmetric set) that this search puts within
//! [`SHORTLIST`] of even, nearest first, at most [`FIFTHS_PER_FOURTH`]; each such position
//! is searched to `BOOK_NODES` nodes, and its score (for white, to move) is written. The
//! opening decisions then judge those positions by the deep score instead of a short
//! search's. Node budgets only: the same book on every machine.
//!
//! Lines already in `OUT` are kept and not searched again, so an interrupted run goes on
//! where it stopped.
//!
//! `cargo run --release --example opening_book -- OUT [BOOK_NODES]`, e.g.
//! `cargo run --release --example opening_book -- books/renju15.tsv 1000000`.

use std::collections::HashSet;
use std::error::Error;
use std::fs::OpenOptions;
use std::io::Write;
use wuzi::engine::opening::offers::keeping;
use wuzi::engine::opening::placed::key;
use wuzi::engine::opening::{book, Canonical};
use wuzi::notation::format_h8;
use wuzi::{Engine, Level, Limits, Pos, Rule};

/// White's 4th stones searched after each canonical opening, its best first.
const FOURTHS: usize = 6;
/// Nodes of the search that scores every 4th (or 5th) move.
const SCAN_NODES: u64 = 200_000;
/// 5th moves whose score by that search lies within this many centi-stones of even go on
/// to the deep search.
const SHORTLIST: i32 = 300;
/// The most 5th moves searched deep after one 4th stone, nearest even first.
const FIFTHS_PER_FOURTH: usize = 16;
/// Nodes of the deep search of a five-stone position, unless given.
const BOOK_NODES: u64 = 1_000_000;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args.first().ok_or("usage: opening_book OUT [BOOK_NODES]")?;
    let book_nodes: u64 = match args.get(1) {
        Some(s) => s.parse()?,
        None => BOOK_NODES,
    };
    let (size, rule) = (book::SIZE, Rule::Renju);
    let mut done: HashSet<Vec<u32>> = HashSet::new();
    if let Ok(text) = std::fs::read_to_string(out) {
        for entry in book::parse(&text)? {
            done.insert(key(size, &entry.0));
        }
    }
    let mut file = OpenOptions::new().create(true).append(true).open(out)?;
    if done.is_empty() {
        writeln!(file, "{}", book::HEADER)?;
        writeln!(
            file,
            "# made by `cargo run --release --example opening_book -- OUT {book_nodes}`: \
             {FOURTHS} 4th stones a canonical opening, 5th moves within {SHORTLIST} of even \
             by a search of {SCAN_NODES} nodes (at most {FIFTHS_PER_FOURTH}), each searched \
             to {book_nodes} nodes"
        )?;
    }
    let scan = Limits {
        nodes: Some(SCAN_NODES),
        ..Limits::default()
    };
    let deep = Limits {
        nodes: Some(book_nodes),
        ..Limits::default()
    };
    let mut engine = Engine::new(size, rule)?;
    for opening in Canonical::ALL {
        let three = opening.stones(size).to_vec();
        engine.new_game(size, rule)?;
        engine.set_position(&three)?;
        let mut fourths = engine.scored_root(&scan, &mut |_| {});
        fourths.sort_by_key(|&(p, s)| (std::cmp::Reverse(s), p.0));
        let fourths = distinct(size, &three, &fourths);
        for &(fourth, _) in fourths.iter().take(FOURTHS) {
            let four = with(&three, fourth);
            engine.new_game(size, rule)?;
            engine.set_position(&four)?;
            let fifths = engine.scored_root(&scan, &mut |_| {});
            let mut near: Vec<(Pos, i32)> = distinct(size, &four, &fifths)
                .into_iter()
                .filter(|&(_, s)| s.abs() <= SHORTLIST)
                .collect();
            near.sort_by_key(|&(p, s)| (s.abs(), p.0));
            for &(fifth, _) in near.iter().take(FIFTHS_PER_FOURTH) {
                let five = with(&four, fifth);
                if !done.insert(key(size, &five)) {
                    continue;
                }
                engine.new_game(size, rule)?;
                engine.set_position(&five)?;
                let score = engine.think(Level::Full, &deep, &mut |_| {}).score;
                let moves: Vec<String> = five.iter().map(|&p| format_h8(p, size)).collect();
                writeln!(file, "{}\t{score}", moves.join(" "))?;
                file.flush()?;
                println!("{} {} {score}", opening.name(), moves.join(" "));
            }
        }
    }
    Ok(())
}

/// `stones` followed by `p`.
fn with(stones: &[Pos], p: Pos) -> Vec<Pos> {
    stones.iter().copied().chain([p]).collect()
}

/// `moves` with one of each set that a symmetry keeping `stones` maps onto each other (the
/// first of each, in order).
fn distinct(size: usize, stones: &[Pos], moves: &[(Pos, i32)]) -> Vec<(Pos, i32)> {
    let syms = keeping(size, stones);
    let mut kept: Vec<(Pos, i32)> = Vec::new();
    for &(p, s) in moves {
        if !kept
            .iter()
            .any(|&(q, _)| syms.iter().any(|t| t.apply(p, size) == q))
        {
            kept.push((p, s));
        }
    }
    kept
}
