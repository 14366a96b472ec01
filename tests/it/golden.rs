//! Golden tree walk: a perft-like count over the candidate generator, compared with
//! `tests/data/golden_walk.txt`. From each position every candidate move is played to a fixed
//! depth; a move that makes a five ends its branch (a terminal leaf). At every leaf the walk
//! folds in the Zobrist hash, both pattern scores and the number of four-or-better cells, so a
//! change to move generation, make/undo, the hash, the pattern tables, the threat classes or
//! the forbidden-point test changes the file.
//!
//! Regenerate with `WUZI_BLESS=1 cargo test --test it golden`, and justify the change in the
//! commit message: a performance change must leave the file as it is. The quick run checks
//! the walks to depth 2; the depth-3 walk is in the long run.

use wuzi::movegen::{generate, GenKind, MoveList};
use wuzi::notation::parse_move_list;
use wuzi::threat::Threat;
use wuzi::types::{Color, Rule};
use wuzi::Board;

/// Positions (size, rule, moves, depth). Provenance: the `rapfi_*` move lists are rows of
/// `tests/data/openings/rapfi_bench_positions.tsv` (dhbloo/rapfi `benchSet`), the
/// `renju_opening` row is `katagomo_renju5_25320` of `renju15_katagomo_openings50.tsv`; the
/// others were written for this test.
#[rustfmt::skip]
const POSITIONS: &[(&str, usize, Rule, &str, usize)] = &[
    ("centre", 15, Rule::Freestyle, "7,7", 3),
    ("rapfi_1", 15, Rule::Freestyle, "7,7 6,8 5,9 6,7 6,6", 2),
    ("rapfi_3", 15, Rule::Standard, "7,7 7,8 9,9 8,8 5,8", 2),
    ("rapfi_6", 15, Rule::Renju, "7,7 8,6 9,5 8,7 8,8 6,6", 2),
    ("rapfi_7", 15, Rule::Renju,
     "7,7 7,6 9,6 9,7 5,7 8,8 6,8 8,6 7,9 4,6 5,9 10,8 11,9 8,5 8,9 5,6 6,6 6,4 7,5 8,4 8,7", 2),
    ("rapfi_8", 15, Rule::Renju, "7,7 7,6 7,9 8,5 8,9 8,6 6,6 6,7 9,4 8,8", 2),
    ("renju_opening", 15, Rule::Renju, "10,8 10,7 11,7 10,6 12,5", 2),
    ("caro_edge", 9, Rule::Caro { exact: false }, "1,4 0,4 2,4 8,4 3,4 pass 4,4 pass 5,4", 2),
    ("caro_std", 10, Rule::Caro { exact: true }, "4,4 5,5 4,5 5,4 3,6 6,3", 2),
];

#[derive(Default)]
struct Tally {
    /// Positions visited, terminal fives included.
    nodes: u64,
    leaves: u64,
    wins: u64,
    hash_xor: u64,
    digest: u64,
}

fn walk(b: &mut Board, depth: usize, lists: &mut [MoveList], t: &mut Tally) {
    t.nodes += 1;
    if depth == 0 {
        t.leaves += 1;
        t.hash_xor ^= b.hash();
        let (bs, ws) = (
            wuzi::eval::pattern_score(b, Color::Black),
            wuzi::eval::pattern_score(b, Color::White),
        );
        let fours = b.count_at_least(Color::Black, Threat::Block4) as u64 * 1000
            + b.count_at_least(Color::White, Threat::Block4) as u64;
        let leaf = (bs as u64).wrapping_mul(1_000_003) ^ (ws as u64).wrapping_mul(1009) ^ fours;
        // FNV-1a style: order-dependent, every bit of the leaf reaches the low bits.
        t.digest = (t.digest ^ leaf).wrapping_mul(0x100_0000_01b3);
        return;
    }
    let (list, rest) = lists.split_first_mut().expect("a list per ply");
    generate(b, GenKind::Candidates, list);
    let side = b.to_move();
    for m in list.iter() {
        if b.makes_five(m, side) {
            t.nodes += 1;
            t.wins += 1;
            continue;
        }
        b.make(m);
        walk(b, depth - 1, rest, t);
        b.undo();
    }
}

fn line_of(name: &str, size: usize, rule: Rule, moves: &str, depth: usize) -> String {
    let mut b = Board::new(size, rule);
    b.play_all(&parse_move_list(moves).unwrap()).unwrap();
    let before = b.hash();
    let mut lists = vec![MoveList::new(); depth];
    let mut t = Tally::default();
    walk(&mut b, depth, &mut lists, &mut t);
    assert_eq!(
        b.hash(),
        before,
        "{name}: the walk must leave the position as it was"
    );
    format!(
        "{name} {} {size} {depth} nodes={} leaves={} wins={} hash_xor={:016x} digest={:016x}",
        rule.name(),
        t.nodes,
        t.leaves,
        t.wins,
        t.hash_xor,
        t.digest
    )
}

const HEADER: &str = "\
# Golden tree walk (tests/it/golden.rs). Each line: position, rule, size, depth, and over the
# walk of every candidate move to that depth (a five ends its branch): nodes, leaves,
# winning moves, XOR of leaf hashes, and a running digest of leaf pattern scores and
# four counts.
# Produced by `WUZI_BLESS=1 cargo test --test it golden` with the code of the commit that last
# changed this file. The file pins move generation, make/undo, hashing, pattern tables,
# threat classes and renju forbidden points: a change to it must be justified in its commit
# message (a functional change, never a performance one).
";

/// The walks to depth 2 (every rule, a few seconds in the dev profile) against their lines
/// of the file. `WUZI_BLESS=1` rewrites the whole file instead.
#[test]
fn golden_walk_matches_the_stored_file() {
    check_walks(|depth| depth <= 2);
}

/// The walk from the centre to depth 3: two thirds of the file's nodes.
#[test]
#[ignore = "long: the depth-3 walk, two thirds of the nodes of the file"]
fn golden_walk_to_depth_3_matches_the_stored_file() {
    check_walks(|depth| depth > 2);
}

/// Walks the positions whose depth `pick` accepts and compares each line with the line of
/// the same position in the stored file (or, with `WUZI_BLESS` set, walks every position
/// and writes the file).
fn check_walks(pick: fn(usize) -> bool) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden_walk.txt");
    if std::env::var_os("WUZI_BLESS").is_some() {
        let got: String = POSITIONS
            .iter()
            .map(|&(n, s, r, m, d)| line_of(n, s, r, m, d) + "\n")
            .collect();
        std::fs::write(path, format!("{HEADER}{got}")).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(path).expect("tests/data/golden_walk.txt");
    let stored: Vec<&str> = stored.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(stored.len(), POSITIONS.len(), "a line per position");
    let mut checked = 0;
    for &(n, s, r, m, d) in POSITIONS.iter().filter(|p| pick(p.4)) {
        let want = stored
            .iter()
            .find(|l| l.split(' ').next() == Some(n))
            .unwrap_or_else(|| panic!("{n}: no line in the file"));
        let got = line_of(n, s, r, m, d);
        assert_eq!(&got, want, "golden walk differs (see the file header)");
        checked += 1;
    }
    assert!(checked > 0);
}
