//! Builds the renju opening book (`books/renju15.tsv`, read by
//! [`wuzi::engine::opening::book`]): scores of the four- and five-stone positions that RIF's
//! opening rules (Soosorv-N, Taraguchi-N, Yamaguchi) pass through and end in. For each of
//! the 26 canonical openings, one search of [`SCAN_NODES`] scores every 4th stone (each
//! four-stone position is written with black's score); after each of white's best
//! [`FOURTHS`] 4th stones, one such search scores every 5th move (one of each symmetric
//! set); the 5th moves it puts within [`SHORTLIST`] of even, nearest first, at most
//! [`FIFTHS_PER_FOURTH`], are each searched on their own to `BOOK_NODES` nodes, and every
//! five-stone position is written with white's score, the deep one where there is one.
//! Each line ends with the nodes of the search behind its score. The opening decisions
//! then judge those positions by these scores instead of their own short searches'. Node
//! budgets only: the same book on every machine.
//!
//! Lines already in `OUT` are kept and not searched again (a position with a scan's score
//! alone is still searched deep when shortlisted), so an interrupted run goes on where it
//! stopped.
//!
//! `cargo run --release --example opening_book -- OUT [BOOK_NODES]`, e.g.
//! `cargo run --release --example opening_book -- books/renju15.tsv 1000000`.
//!
//! With a third argument, `WITHIN` (centi-stones), the run deepens the book instead: every
//! five-stone position of `OUT` that a search of fewer than `BOOK_NODES` scored within
//! `WITHIN` of even is searched to `BOOK_NODES`, nearest even first, and written again (a
//! later line of a position overrides an earlier one). Those are the ends the opening
//! stages steer towards; a deeper score there is what keeps a stage's end near even by a
//! still deeper search. E.g. `... -- books/renju15.tsv 2000000 200`.
//!
//! `--offers OUT BOOK_NODES WITHIN [MAX]` deepens the ends black's offers reach: after each
//! four-stone position the book lists fifth moves after (counting, as the decisions do,
//! every five-stone position that follows it, whichever 4th stone it was written after:
//! `book::fifth_lines`), black's best `MAX` (10 unless given) by the book's scores, those
//! white may take of up to `MAX` offered, are searched to `BOOK_NODES` where a search of
//! fewer scored them within `WITHIN` of even; a deeper score reorders the list, so it goes
//! on until the best `MAX` hold none such. With PART and PARTS, only the four-stone
//! positions whose index modulo PARTS is PART, so that PARTS processes share the work
//! (each appends its lines to `OUT`). E.g. `... -- --offers books/renju15.tsv 4000000 400`.
//!
//! `--swap OUT [BOOK_NODES] [PART PARTS]` builds the swap book (`books/freestyle15-swap.tsv`)
//! instead: freestyle on 15x15, every opening of two stones that a varying engine places
//! under swap and swap2 (the 1st within `SWAP_FIRST_REACH` of the centre, the 2nd within
//! `SWAP_SECOND_REACH` of it; one of each symmetric set), one search of [`SCAN_NODES`]
//! scoring every 3rd stone within `SWAP_THIRD_REACH` of the 1st, and the 3rd stones within
//! [`SWAP_SHORTLIST`] of even by it, nearest first, at most [`THIRDS_PER_OPENING`], searched
//! to `BOOK_NODES`. With PART and PARTS, only the two-stone openings whose index modulo
//! PARTS is PART, so that PARTS processes share the work (their files are then joined).
//!
//! `--swap2 OUT [BOOK_NODES]` adds to the swap book the five-stone openings of swap2's
//! second choice: after each three-stone opening of `OUT` that the book scores within
//! `ADD_TWO_WINDOW` of even (where the second player adds two stones rather than choose a
//! colour), white's 4th stone is the best move of a search of `BOOK_NODES` (written with
//! black's score), one search of [`SCAN_NODES`] scores every black 5th within
//! `SWAP_THIRD_REACH` of the 1st stone, and those within [`SWAP_SHORTLIST`] of even, nearest
//! first, at most [`THIRDS_PER_OPENING`], are searched to `BOOK_NODES`. Nearest even
//! three-stone openings first; a run that stops goes on where it stopped (white's 4th is
//! searched again).

use std::collections::{HashMap, HashSet};
use std::error::Error;
use std::fs::OpenOptions;
use std::io::Write;
use wuzi::engine::opening::decide::{
    around, ADD_TWO_WINDOW, SWAP_FIRST_REACH, SWAP_SECOND_REACH, SWAP_THIRD_REACH,
};
use wuzi::engine::opening::offers::one_of_each;
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
/// The most fifth moves black offers under the rules the book serves (Taraguchi-10),
/// unless the `--offers` run is told otherwise.
const OFFERS_MAX: usize = 10;
/// Swap book: 3rd stones within this many centi-stones of even by the scan go on to the
/// deep search (the decisions keep candidates within 150 of even when they can).
const SWAP_SHORTLIST: i32 = 200;
/// Swap book: the most 3rd stones searched deep after one two-stone opening.
const THIRDS_PER_OPENING: usize = 12;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--swap") {
        return swap(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "--swap2") {
        return swap2(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "--offers") {
        return offers(&args[1..]);
    }
    let out = args.first().ok_or("usage: opening_book OUT [BOOK_NODES]")?;
    let book_nodes: u64 = match args.get(1) {
        Some(s) => s.parse()?,
        None => BOOK_NODES,
    };
    let (size, rule) = (book::SIZE, Rule::Renju);
    if let Some(within) = args.get(2) {
        return deepen(out, book_nodes, within.parse()?);
    }
    let mut done = written(out, size)?;
    let mut file = OpenOptions::new().create(true).append(true).open(out)?;
    if done.is_empty() {
        writeln!(file, "{}", book::HEADER)?;
        writeln!(
            file,
            "# made by `cargo run --release --example opening_book -- OUT {book_nodes}`: \
             every 4th stone and, after the {FOURTHS} best, every 5th move scored by a \
             search of {SCAN_NODES} nodes; 5th moves within {SHORTLIST} of even by it (at \
             most {FIFTHS_PER_FOURTH} a 4th stone) searched to {book_nodes} nodes"
        )?;
    }
    let (scan, deep) = (nodes(SCAN_NODES), nodes(book_nodes));
    let mut engine = Engine::new(size, rule)?;
    for opening in Canonical::ALL {
        let three = opening.stones(size).to_vec();
        engine.new_game(size, rule)?;
        engine.set_position(&three)?;
        let mut fourths = engine.scored_root(&scan, &mut |_| {});
        fourths.sort_by_key(|&(p, s)| (std::cmp::Reverse(s), p.0));
        let fourths = one_of_each(size, &three, &fourths);
        write_scan(&mut file, &mut done, size, &three, &fourths)?;
        for &(fourth, _) in fourths.iter().take(FOURTHS) {
            let four = with(&three, fourth);
            engine.new_game(size, rule)?;
            engine.set_position(&four)?;
            let fifths = one_of_each(size, &four, &engine.scored_root(&scan, &mut |_| {}));
            let near = nearest_even(&four, &fifths, SHORTLIST, FIFTHS_PER_FOURTH);
            for (five, score) in search_each(&mut engine, rule, &mut file, &mut done, near, &deep)?
            {
                println!("{} {} {score}", opening.name(), line(size, &five));
            }
            write_scan(&mut file, &mut done, size, &four, &fifths)?;
        }
    }
    Ok(())
}

/// The nodes behind each position the book `out` holds so far (none when it does not
/// exist yet).
fn written(out: &str, size: usize) -> Result<HashMap<Vec<u32>, u64>, Box<dyn Error>> {
    match std::fs::read_to_string(out) {
        Ok(text) => Ok(lines(&text, size)?.1),
        Err(_) => Ok(HashMap::new()),
    }
}

/// Each position of the book `out` with its latest line (a later line overrides an earlier
/// one), and the most nodes behind any of its lines.
fn read_book(out: &str, size: usize) -> Result<Lines, Box<dyn Error>> {
    lines(&std::fs::read_to_string(out)?, size)
}

/// A book's positions by key: each one's latest line (its stones, score and nodes), and
/// the most nodes behind any of its lines.
type Lines = (HashMap<Vec<u32>, book::Entry>, HashMap<Vec<u32>, u64>);

/// The [`Lines`] of a book's text.
fn lines(text: &str, size: usize) -> Result<Lines, Box<dyn Error>> {
    let mut latest = HashMap::new();
    let mut done: HashMap<Vec<u32>, u64> = HashMap::new();
    for (stones, score, n) in book::parse(text)? {
        let k = key(size, &stones);
        let seen = done.entry(k.clone()).or_default();
        *seen = (*seen).max(n);
        latest.insert(k, (stones, score, n));
    }
    Ok((latest, done))
}

/// Search limits of `n` nodes alone: the same result on every machine.
fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

/// Builds (or goes on with) the swap book: see the module's documentation.
fn swap(args: &[String]) -> Result<(), Box<dyn Error>> {
    let out = args
        .first()
        .ok_or("usage: opening_book --swap OUT [BOOK_NODES] [PART PARTS]")?;
    let book_nodes: u64 = match args.get(1) {
        Some(s) => s.parse()?,
        None => BOOK_NODES,
    };
    let part: usize = args.get(2).map_or(Ok(0), |s| s.parse())?;
    let parts: usize = args.get(3).map_or(Ok(1), |s| s.parse())?;
    let (size, rule) = (book::SIZE, Rule::Freestyle);
    let mut done = written(out, size)?;
    let mut file = OpenOptions::new().create(true).append(true).open(out)?;
    if done.is_empty() {
        writeln!(
            file,
            "# wuzi swap book, freestyle 15x15: the stones in order (black first), a tab, the \
             score of the side to move (centi-stones), a tab, the nodes of its search"
        )?;
        writeln!(
            file,
            "# made by `cargo run --release --example opening_book -- --swap OUT {book_nodes}`: \
             every 3rd stone scored by a search of {SCAN_NODES} nodes; those within \
             {SWAP_SHORTLIST} of even (at most {THIRDS_PER_OPENING} an opening) searched to \
             {book_nodes} nodes"
        )?;
    }
    let centre = Pos::new(size / 2, size / 2);
    // Every two-stone opening of the swap rules, one of each symmetric set (the centre
    // last, as the book was made).
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let mut twos: Vec<[Pos; 2]> = Vec::new();
    let firsts = around(size, centre, SWAP_FIRST_REACH, &[centre]);
    for first in firsts.into_iter().chain([centre]) {
        for second in around(size, first, SWAP_SECOND_REACH, &[first]) {
            if seen.insert(key(size, &[first, second])) {
                twos.push([first, second]);
            }
        }
    }
    eprintln!("{} two-stone openings", twos.len());
    let (scan, deep) = (nodes(SCAN_NODES), nodes(book_nodes));
    let mut engine = Engine::new(size, rule)?;
    for two in twos.iter().skip(part).step_by(parts.max(1)) {
        engine.new_game(size, rule)?;
        engine.set_position(two)?;
        let mut thirds = one_of_each(size, two, &engine.scored_root(&scan, &mut |_| {}));
        thirds.retain(|(p, _)| p.dist(two[0]) <= SWAP_THIRD_REACH);
        let near = nearest_even(two, &thirds, SWAP_SHORTLIST, THIRDS_PER_OPENING);
        for (three, score) in search_each(&mut engine, rule, &mut file, &mut done, near, &deep)? {
            println!("{} {score}", line(size, &three));
        }
        write_scan(&mut file, &mut done, size, two, &thirds)?;
    }
    Ok(())
}

/// Adds swap2's five-stone openings to the swap book: see the module's documentation.
fn swap2(args: &[String]) -> Result<(), Box<dyn Error>> {
    let out = args
        .first()
        .ok_or("usage: opening_book --swap2 OUT [BOOK_NODES]")?;
    let book_nodes: u64 = match args.get(1) {
        Some(s) => s.parse()?,
        None => BOOK_NODES,
    };
    let (size, rule) = (book::SIZE, Rule::Freestyle);
    let (latest, mut done) = read_book(out, size)?;
    let mut threes: Vec<Scored> = latest
        .into_values()
        .filter(|(stones, score, _)| stones.len() == 3 && score.abs() <= ADD_TWO_WINDOW)
        .map(|(stones, score, _)| (stones, score))
        .collect();
    threes.sort_by_key(|(stones, score)| (score.abs(), line(size, stones)));
    eprintln!(
        "{} three-stone openings within {ADD_TWO_WINDOW}",
        threes.len()
    );
    let mut file = OpenOptions::new().append(true).open(out)?;
    let (scan, deep) = (nodes(SCAN_NODES), nodes(book_nodes));
    let mut engine = Engine::new(size, rule)?;
    for (three, _) in threes {
        engine.new_game(size, rule)?;
        engine.set_position(&three)?;
        let white = engine.think(Level::Full, &deep, &mut |_| {});
        if white.best.is_none() {
            continue;
        }
        let four = with(&three, white.best);
        write(&mut file, &mut done, size, &four, -white.score, book_nodes)?;
        engine.new_game(size, rule)?;
        engine.set_position(&four)?;
        let mut fifths = one_of_each(size, &four, &engine.scored_root(&scan, &mut |_| {}));
        fifths.retain(|(p, _)| p.dist(three[0]) <= SWAP_THIRD_REACH);
        let near = nearest_even(&four, &fifths, SWAP_SHORTLIST, THIRDS_PER_OPENING);
        for (five, score) in search_each(&mut engine, rule, &mut file, &mut done, near, &deep)? {
            println!("{} {score}", line(size, &five));
        }
        write_scan(&mut file, &mut done, size, &four, &fifths)?;
    }
    Ok(())
}

/// Searches again, to `nodes`, every five-stone position of the book `out` whose latest
/// score lies within `within` of even and came from a search of fewer nodes, nearest even
/// first, appending each new score.
fn deepen(out: &str, nodes: u64, within: i32) -> Result<(), Box<dyn Error>> {
    let (size, rule) = (book::SIZE, Rule::Renju);
    let (latest, mut done) = read_book(out, size)?;
    let mut todo: Vec<(Vec<Pos>, i32)> = latest
        .into_values()
        .filter(|(stones, score, n)| {
            stones.len() == book::FINAL_STONES && score.abs() <= within && *n < nodes
        })
        .map(|(stones, score, _)| (stones, score))
        .collect();
    todo.sort_by_key(|(stones, score)| (score.abs(), line(size, stones)));
    eprintln!("{} positions to search to {nodes} nodes", todo.len());
    let mut file = OpenOptions::new().append(true).open(out)?;
    let deep = self::nodes(nodes);
    let mut engine = Engine::new(size, rule)?;
    for (stones, before) in todo {
        let searched = search_each(&mut engine, rule, &mut file, &mut done, vec![stones], &deep)?;
        for (stones, score) in searched {
            println!("{} {before} -> {score}", line(size, &stones));
        }
    }
    Ok(())
}

/// Deepens the ends a stage can reach by black's offers: after each four-stone position
/// the book lists fifth moves after, black's best `MAX` fifth moves by the book (those
/// white may take of up to `MAX` offered) that a search of fewer than `BOOK_NODES` scored
/// within `WITHIN` of even are searched to `BOOK_NODES`, again until the best `MAX` by the
/// new scores hold none such. See the module's documentation.
fn offers(args: &[String]) -> Result<(), Box<dyn Error>> {
    const USAGE: &str = "usage: opening_book --offers OUT BOOK_NODES WITHIN [MAX [PART PARTS]]";
    let out = args.first().ok_or(USAGE)?;
    let nodes: u64 = args.get(1).ok_or(USAGE)?.parse()?;
    let within: i32 = args.get(2).ok_or(USAGE)?.parse()?;
    let most: usize = args.get(3).map_or(Ok(OFFERS_MAX), |s| s.parse())?;
    let part: usize = args.get(4).map_or(Ok(0), |s| s.parse())?;
    let parts: usize = args.get(5).map_or(Ok(1), |s| s.parse())?;
    let (size, rule) = (book::SIZE, Rule::Renju);
    let text = std::fs::read_to_string(out)?;
    let (latest, mut done) = lines(&text, size)?;
    // Black's fifth moves after each four-stone position, as the book counts them: every
    // five-stone position that follows it, whichever 4th stone it was written after.
    let mut fours = book::fifth_lines(&text)?;
    fours.sort_by_key(|(four, _)| line(size, four));
    eprintln!(
        "{} four-stone positions with {} fifth moves",
        fours.len(),
        fours.iter().map(|(_, f)| f.len()).sum::<usize>()
    );
    let mut file = OpenOptions::new().append(true).open(out)?;
    let deep = self::nodes(nodes);
    let mut engine = Engine::new(size, rule)?;
    let mut scores: HashMap<Vec<u32>, i32> = latest
        .into_iter()
        .map(|(k, (_, score, _))| (k, score))
        .collect();
    let mut searched = 0;
    for (_, fifths) in fours.into_iter().skip(part).step_by(parts.max(1)) {
        loop {
            // Black's score after each fifth move, best first.
            let mut ranked: Vec<(i32, &Vec<Pos>)> = fifths
                .iter()
                .filter_map(|f| Some((-*scores.get(&key(size, f))?, f)))
                .collect();
            ranked.sort_by_key(|&(s, f)| (std::cmp::Reverse(s), line(size, f)));
            let todo: Vec<Vec<Pos>> = ranked
                .iter()
                .take(most)
                .filter(|&&(s, f)| {
                    s.abs() <= within && done.get(&key(size, f)).is_none_or(|&n| n < nodes)
                })
                .map(|&(_, f)| f.clone())
                .collect();
            if todo.is_empty() {
                break;
            }
            for (five, score) in search_each(&mut engine, rule, &mut file, &mut done, todo, &deep)?
            {
                let before = scores.insert(key(size, &five), score).unwrap_or(score);
                searched += 1;
                println!("{searched} {} {before} -> {score}", line(size, &five));
            }
        }
    }
    eprintln!("{searched} positions searched to {nodes} nodes");
    Ok(())
}

/// The positions after `stones` that the `most` of `moves` (each with the scan's score for
/// the side placing it) nearest even make, among those within `shortlist` of even.
fn nearest_even(
    stones: &[Pos],
    moves: &[(Pos, i32)],
    shortlist: i32,
    most: usize,
) -> Vec<Vec<Pos>> {
    let mut near: Vec<(Pos, i32)> = moves
        .iter()
        .copied()
        .filter(|&(_, s)| s.abs() <= shortlist)
        .collect();
    near.sort_by_key(|&(p, s)| (s.abs(), p.0));
    near.iter()
        .take(most)
        .map(|&(p, _)| with(stones, p))
        .collect()
}

/// A position (its stones in order) with the score of the side to move.
type Scored = (Vec<Pos>, i32);

/// Searches each of `positions` on its own, from a new game, within `deep` (a node
/// budget) and writes its score, unless a search of as many nodes gave it a line before;
/// returns the positions searched with their scores (of the side to move).
fn search_each(
    engine: &mut Engine,
    rule: Rule,
    file: &mut std::fs::File,
    done: &mut HashMap<Vec<u32>, u64>,
    positions: Vec<Vec<Pos>>,
    deep: &Limits,
) -> Result<Vec<Scored>, Box<dyn Error>> {
    let size = book::SIZE;
    let nodes = deep.nodes.unwrap_or(BOOK_NODES);
    let mut searched = Vec::new();
    for stones in positions {
        if done.get(&key(size, &stones)).is_some_and(|&n| n >= nodes) {
            continue;
        }
        engine.new_game(size, rule)?;
        engine.set_position(&stones)?;
        let score = engine.think(Level::Full, deep, &mut |_| {}).score;
        write(file, done, size, &stones, score, nodes)?;
        searched.push((stones, score));
    }
    Ok(searched)
}

/// Writes `stones` with `score` (of the side to move) found by a search of `nodes`, unless
/// a search of as many nodes or more gave the position a line before.
fn write(
    file: &mut std::fs::File,
    done: &mut HashMap<Vec<u32>, u64>,
    size: usize,
    stones: &[Pos],
    score: i32,
    nodes: u64,
) -> std::io::Result<()> {
    let seen = done.entry(key(size, stones)).or_default();
    if *seen >= nodes {
        return Ok(());
    }
    *seen = nodes;
    writeln!(file, "{}\t{score}\t{nodes}", line(size, stones))?;
    file.flush()
}

/// Writes the position after each of `moves` (each with the score of the side placing it,
/// by the scan of [`SCAN_NODES`]) after `stones`, with the score of the side to move
/// there: the negation of the placer's.
fn write_scan(
    file: &mut std::fs::File,
    done: &mut HashMap<Vec<u32>, u64>,
    size: usize,
    stones: &[Pos],
    moves: &[(Pos, i32)],
) -> std::io::Result<()> {
    for &(p, s) in moves {
        write(file, done, size, &with(stones, p), -s, SCAN_NODES)?;
    }
    Ok(())
}

/// The stones in `h8` notation, space-separated.
fn line(size: usize, stones: &[Pos]) -> String {
    let moves: Vec<String> = stones.iter().map(|&p| format_h8(p, size)).collect();
    moves.join(" ")
}

/// `stones` followed by `p`.
fn with(stones: &[Pos], p: Pos) -> Vec<Pos> {
    stones.iter().copied().chain([p]).collect()
}
