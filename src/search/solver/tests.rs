//! The threat solver against positions with known answers.

use super::lines::legal_flex4;
use super::*;
use crate::movegen::five_defences;
use crate::threat::Threat;
use crate::types::Color;

fn caro(moves: &str, size: usize) -> Board {
    let moves = crate::notation::parse_move_list(moves).expect("moves");
    let mut b = Board::new(size, crate::types::Rule::Caro { exact: false });
    b.play_all(&moves).expect("position");
    b
}

fn vcf(b: &mut Board) -> Proof {
    Solver::new().vcf(b, &SolveLimits::default())
}

fn vct(b: &mut Board) -> Proof {
    Solver::new().vct(b, &SolveLimits::default())
}

/// Plays a proven line out on `b`: every defender reply of it is legal and the last move
/// makes the attacker's five.
fn assert_line_ends_in_five(b: &mut Board, line: &[Pos]) {
    let attacker = b.to_move();
    let last = *line.last().expect("a line");
    for &p in &line[..line.len() - 1] {
        if p.is_none() {
            b.make_pass();
        } else {
            assert!(b.is_empty(p), "{p:?} is empty");
            assert!(
                !(b.rule().forbids(b.to_move()) && b.is_forbidden(p)),
                "{p:?} is legal"
            );
            b.make(p);
        }
    }
    assert_eq!(b.to_move(), attacker);
    assert!(
        b.makes_five(last, attacker),
        "the line ends with a five at {last:?}"
    );
}

/// Renju, 20x20, white to move: white's four 9,13 makes an open four (five points 9,9 and
/// 9,14) where 9,9 is an overline for black. The VCF on lean moves once wrote black's reply
/// on 9,9, having asked the full board (stale in lean mode) whether it was forbidden (found
/// by the fuzz target `solver`: `fuzz/regressions/solver/renju-lean-double-five-reply`).
#[test]
fn renju_lean_vcf_never_blocks_on_a_forbidden_point() {
    let moves = "10,10 7,10 10,13 8,14 7,7 6,16 10,4 13,7 8,12 12,7 11,12 7,8 12,8 7,9 8,7 \
                 9,12 4,14 9,11 8,8 8,11 10,7 13,13 8,9 11,9 11,10 11,8 10,12 12,9 7,11 \
                 12,11 12,12 10,6 9,6 16,10 19,7 1,14 6,18 1,13 7,18 1,12 8,18 18,11 1,11 \
                 17,17 17,16";
    let moves = crate::notation::parse_move_list(moves).expect("moves");
    let mut b = Board::new(20, crate::types::Rule::Renju);
    b.play_all(&moves).expect("position");
    assert_eq!(b.to_move(), Color::White);
    for lean in [true, false] {
        let Proof::Win(line) = Solver::new().vcf_with(&mut b, &SolveLimits::default(), lean) else {
            panic!("white wins by fours (lean {lean})");
        };
        assert_line_ends_in_five(&mut b.clone(), &line);
    }
}

/// Caro: after black's four 3..6,7 (closed at 2,7 by white), white stops the five at
/// 7,7 or just beyond it at 8,7 (the five 3..7,7 would be closed at both ends). The
/// solver once tried only 7,7 and claimed a VCF that 8,7 refutes (found by the fuzz
/// target `solver`: `fuzz/regressions/solver/caro-vcf-misses-the-far-end-block`).
#[test]
fn caro_fours_are_blocked_beyond_the_far_end_too() {
    let mut b = caro(
        "3,7 2,7 4,7 10,3 5,7 0,14 5,4 2,14 6,5 4,14 9,8 14,14 8,5 12,14 9,4 5,6",
        15,
    );
    assert!(!matches!(vcf(&mut b), Proof::Win(_)));
    b.make(Pos::new(6, 7));
    let mut blocks = MoveList::default();
    five_defences(&mut b, &mut blocks);
    assert!(blocks.contains(Pos::new(7, 7)) && blocks.contains(Pos::new(8, 7)));
    b.make(Pos::new(8, 7));
    assert_eq!(b.count(Color::Black, Threat::Five), 0, "8,7 stops the five");
}

/// Caro: two five points on one line are one four when a stone on one of them closes the
/// other (docs/fuzzing.md, bug 4). Each position once gave a false VCF (and a VCT).
#[test]
fn caro_two_five_points_that_one_stone_closes_are_no_win() {
    // 6,7..9,7 with white at 11,7: white's 5,7 closes 6..10,7. (Black's real win is
    // the open four 5..8,7, which no stone closes.)
    let mut b = caro("6,7 11,7 7,7 0,0 8,7 14,14", 15);
    assert!(matches!(vcf(&mut b), Proof::Win(l) if l[0] == Pos::new(5, 7)));
    b.make(Pos::new(9, 7));
    let mut blocks = MoveList::default();
    five_defences(&mut b, &mut blocks);
    assert!(blocks.contains(Pos::new(5, 7)));
    b.make(Pos::new(5, 7));
    assert_eq!(
        b.count(Color::Black, Threat::Five),
        0,
        "5,7 closes both fives"
    );
    // 6,5..6,8 with white at 6,10: white's 6,4 closes 6,5..6,9.
    let mut b = caro("6,6 6,10 6,7 0,0 6,8 14,14", 15);
    assert_eq!(vcf(&mut b), Proof::NoWin);
    assert!(!matches!(vct(&mut b), Proof::Win(l) if l[0] == Pos::new(6, 5) && l.len() == 1));
    b.make(Pos::new(6, 5));
    assert!(legal_flex4(&mut b, Color::Black).is_none());
    b.make(Pos::new(6, 4));
    assert_eq!(
        b.count(Color::Black, Threat::Five),
        0,
        "6,4 closes both fives"
    );
}

/// An open four under caro still wins, and its line is played out to the five.
#[test]
fn caro_open_fours_still_win_to_the_five() {
    let mut b = caro("5,7 0,0 6,7 0,14 7,7 14,0", 15);
    let Proof::Win(line) = vcf(&mut b) else {
        panic!("an open three makes an open four")
    };
    assert_line_ends_in_five(&mut b.clone(), &line);
    let Proof::Win(line) = vct(&mut b) else {
        panic!("VCT")
    };
    assert_line_ends_in_five(&mut b, &line);
}

/// A VCT line ends with the five, not with the straight four before it (bug 1).
#[test]
fn vct_lines_end_with_the_five() {
    let moves = crate::notation::parse_move_list("9,9 9,8 8,9 10,8 10,9 9,10").expect("moves");
    let mut b = Board::new(19, crate::types::Rule::Renju);
    b.play_all(&moves).expect("position");
    let Proof::Win(line) = vct(&mut b) else {
        panic!("black wins")
    };
    assert_eq!(line.len(), 3, "four, reply, five: {line:?}");
    assert_line_ends_in_five(&mut b, &line);
}

/// A solver whose tables are limited keeps its VCT table within its share of the memory
/// over many calls: the map never holds more than its entries, never reallocates past
/// them, and those entries' map, with the half-size one it grew from, fits the bytes left
/// beside the VCF table. An unlimited solver holds more from the same calls.
#[test]
fn vct_table_stays_within_its_limit() {
    let moves =
        crate::notation::parse_move_list("7,7 8,8 6,8 8,6 7,9 7,10 8,9 5,7 6,9").expect("moves");
    let mut board = Board::new(15, crate::types::Rule::Freestyle);
    board.play_all(&moves).expect("position");
    let limits = SolveLimits {
        depth: 10,
        nodes: 5_000,
        ..SolveLimits::default()
    };
    let empty: Vec<_> = board
        .cells()
        .iter()
        .copied()
        .filter(|&p| board.is_empty(p))
        .take(24)
        .collect();
    // The most entries and the largest capacity seen after a call.
    let run = |solver: &mut Solver, board: &mut Board| {
        let (mut most, mut room) = (0, 0);
        for &p in &empty {
            board.make(p);
            solver.vct_depth_first(board, &limits);
            board.undo();
            most = most.max(solver.table_len());
            room = room.max(solver.vct_tt.capacity());
        }
        (most, room)
    };
    // Depth-first calls: no proof-number table shares the bytes (its share:
    // `proof_number_table_takes_its_share`).
    let bytes = VCF_TABLE_BYTES + 6_000;
    let mut limited = Solver::new();
    limited.table_bytes = Some(bytes);
    let cap = limited.table_entries(false);
    assert_eq!(cap, 112, "6,000 bytes: 128 buckets, 7/8 of them");
    let buckets = (cap * 8 / 7).next_power_of_two();
    assert!(3 * buckets / 2 * VCT_BUCKET_BYTES <= bytes - VCF_TABLE_BYTES);
    let (most, room) = run(&mut limited, &mut board);
    assert!(most <= cap, "{most} entries, cap {cap}");
    assert!(room <= cap, "capacity {room}, cap {cap}");
    let mut free = Solver::new();
    let (free, _) = run(&mut free, &mut board);
    assert!(free > cap, "the test reaches the cap: {free}");
}

/// The proof-number table takes a quarter of a solver's memory (a power of two of slots,
/// within its bounds), and the VCT map's room shrinks by as much: the three tables fit the
/// limit together. A depth-first call leaves the map all the room.
#[test]
fn proof_number_table_takes_its_share() {
    for mb in [1, 8, 64, 1024] {
        let mut s = Solver::new();
        s.limit_table(mb);
        let pn = s.pn_slots() * table::PN_SLOT_BYTES;
        assert!(pn <= (mb << 20) / 4, "{mb} MB: {pn} bytes");
        let map = 3 * (s.table_entries(true) * 8 / 7).next_power_of_two() / 2 * VCT_BUCKET_BYTES;
        assert!(VCF_TABLE_BYTES + pn + map <= mb << 20, "{mb} MB");
        assert!(s.table_entries(false) >= s.table_entries(true), "{mb} MB");
    }
    let mut s = Solver::new();
    s.limit_table(64);
    assert_eq!(s.pn_slots() * table::PN_SLOT_BYTES, 16 << 20);
}

/// Lowering a solver's memory gives back a VCT table larger than the new bound.
#[test]
fn a_lower_limit_frees_a_larger_vct_table() {
    let mut solver = Solver::new();
    solver.vct_tt.reserve(100_000);
    solver.limit_table(1);
    assert!(solver.vct_tt.capacity() <= solver.table_entries(false));
}

/// The VCF table gives back what was stored under a key, nothing for a key it never
/// saw, and the newer of two keys that share a slot.
#[test]
fn vcf_table_stores_and_overwrites() {
    let mut t = VcfTable::default();
    assert!(t.get(42).is_none(), "no slots before ready");
    t.ready();
    let (a, b) = (0x1234_5678_9ab0_0001u64, 0x0fed_cba9_8760_0001u64);
    assert_eq!(VcfTable::slot(a), VcfTable::slot(b));
    assert!(t.get(a).is_none());
    t.insert(
        a,
        Entry {
            win: true,
            depth: 7,
        },
    );
    let e = t.get(a).expect("stored");
    assert!(e.win && e.depth == 7);
    assert!(t.get(b).is_none(), "another key of the same slot");
    t.insert(
        b,
        Entry {
            win: false,
            depth: 200,
        },
    );
    let e = t.get(b).expect("stored");
    assert!(!e.win && e.depth == 200);
    assert!(t.get(a).is_none(), "overwritten");
    t.clear();
    assert!(t.get(b).is_none());
}

/// A VCT search that finds no win without meeting its depth limit ends its deepening: black's
/// three, blocked at one end, makes one four and no more, so the first iterations search
/// the whole tree and the answer comes in a few nodes, not in one iteration per depth up
/// to the limit (962 nodes before). The answer holds at every depth: a later solve of the
/// same position takes it from the table at once. (Wins that need the deeper iterations:
/// the suites of `tests/it/threats.rs`.)
#[test]
fn a_vct_search_without_depth_cuts_stops_deepening() {
    let moves = crate::notation::parse_move_list("7,7 0,0 8,7 0,14 9,7 6,7").unwrap();
    let mut b = Board::new(15, crate::types::Rule::Freestyle);
    b.play_all(&moves).unwrap();
    let mut s = Solver::new();
    assert_eq!(s.vct(&mut b, &SolveLimits::default()), Proof::NoWin);
    assert!(s.nodes() < 50, "{} nodes", s.nodes());
    assert_eq!(s.vct(&mut b, &SolveLimits::default()), Proof::NoWin);
    assert!(s.nodes() <= 2, "{} nodes", s.nodes());
}

/// The proof-number search and the depth-first one answer alike wherever both settle: over
/// random games of each rule (random moves near the stones), at every position where the
/// side to move has an open three or a four to make and neither side a five to complete,
/// the two never contradict each other, and every line of the proof-number search is
/// played out to the attacker's five. Both search the same tree (the same moves and leaf
/// checks), without and with a depth limit.
#[test]
fn proof_number_search_agrees_with_the_depth_first_one() {
    use crate::types::Rule;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(20_261_201);
    let lim = SolveLimits {
        nodes: 20_000,
        ..SolveLimits::default()
    };
    let mut list = MoveList::new();
    let (mut compared, mut wins) = (0, 0);
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        // Debug builds recheck the board after every move: fewer games there (two a rule
        // took about three minutes).
        for _game in 0..if cfg!(debug_assertions) { 1 } else { 6 } {
            let mut b = Board::new(15, rule);
            for _ply in 0..50 {
                let me = b.to_move();
                if b.count(me, Threat::Five) == 0
                    && b.count(!me, Threat::Five) == 0
                    && b.count_at_least(me, Threat::Flex3) > 0
                {
                    let dfs = Solver::new().vct_depth_first(&mut b, &lim);
                    let mut pns = Solver::new();
                    pns.start(&lim, true);
                    let mut line = Vec::new();
                    let r = pns.vct_pns(&mut b, &mut line);
                    let here = format!("{rule:?} {:?}", b.moves());
                    match (&dfs, &r) {
                        (Proof::Win(_), Ok(false)) | (Proof::NoWin, Ok(true)) => {
                            panic!(
                                "{here}: depth-first {dfs:?}, proof-number {:?}",
                                r.is_ok_and(|w| w)
                            )
                        }
                        _ => {}
                    }
                    if let Ok(true) = r {
                        assert_line_ends_in_five(&mut b.clone(), &line);
                        wins += 1;
                    }
                    compared += 1;
                }
                // A random legal move near the stones.
                crate::movegen::generate(&mut b, crate::movegen::GenKind::Candidates, &mut list);
                if list.is_empty() {
                    break;
                }
                let p = list.as_slice()[rng.next_u32() as usize % list.len()].pos;
                if b.makes_five(p, b.to_move()) {
                    break;
                }
                b.make(p);
            }
        }
    }
    assert!(
        compared >= 30 && wins >= 10,
        "{compared} positions, {wins} wins"
    );
}
