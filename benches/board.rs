//! Criterion benches of the board layer: make+undo, candidate generation, pattern lookup and
//! the renju forbidden-point test. Every bench checks its result before timing it, so a fast
//! but wrong change cannot win.
//!
//! `cargo bench --bench board` runs them all. For instruction counts (repeatable on a shared
//! machine), `WUZI_BENCH_LOOPS=N` runs N rounds of the make+undo loop once and exits
//! (`WUZI_BENCH_WHAT=candidates` or `forbidden` for those loops instead):
//! `cargo bench --bench board --no-run`, then
//! `WUZI_BENCH_LOOPS=200 valgrind --tool=callgrind target/release/deps/board-<hash>`.

use criterion::{criterion_group, Criterion, Throughput};
use std::hint::black_box;
use wuzi::movegen::{generate, GenKind, MoveList};
use wuzi::notation::parse_move_list;
use wuzi::pattern::{self, LineRule};
use wuzi::threat::Threat;
use wuzi::types::{Color, Dir, Pos, Rule};
use wuzi::Board;

/// Mid-game 15x15 positions (21-29 stones), rows of `../shared/data` (moves `x,y`, black
/// first): `tactics/freestyle_vcf.tsv` lfz_c03_126, lfz_c17_305, lfz_c22_500;
/// `tactics/standard_vcf.tsv` lfz_c17_273; `tactics/renju_vcf.tsv` lfz_c17_296, lfz_c22_10;
/// `openings/rapfi_bench_positions.tsv` rapfi_bench_7 (renju).
#[rustfmt::skip]
const MIDGAME: &[(Rule, &str)] = &[
    (Rule::Freestyle, "6,3 5,4 3,5 7,4 5,5 4,5 7,5 11,5 8,6 9,6 7,7 10,6 10,7 11,7 7,8 3,8 9,9 5,8 4,10 9,8 6,11 4,9 7,11 7,10"),
    (Rule::Freestyle, "6,3 7,3 7,4 5,4 9,4 6,4 5,5 3,5 7,5 6,5 8,5 11,5 10,5 6,6 4,6 8,6 5,6 9,6 7,6 10,6 11,6 6,7 5,7 7,8 7,7 8,8 6,8 8,10 7,9"),
    (Rule::Freestyle, "7,1 6,1 7,2 8,2 7,3 9,3 8,3 8,4 5,4 10,4 9,4 8,5 11,4 9,5 6,5 5,6 10,5 10,6 7,6 11,6 8,6 8,7 9,6 8,8 7,7 8,9 7,9"),
    (Rule::Standard, "10,5 6,6 5,7 9,6 6,7 3,7 7,7 8,7 8,8 6,8 5,9 7,8 7,9 10,8 9,9 6,9 5,10 8,9 6,10 4,10 8,10 5,11 7,11 8,12"),
    (Rule::Renju, "10,2 9,1 10,4 7,3 6,5 9,3 8,5 7,4 9,5 8,4 7,6 9,4 9,6 7,5 5,7 5,6 6,7 6,6 7,7 4,7 10,7 8,7 7,8 5,8 4,9 6,8 6,9 7,10"),
    (Rule::Renju, "10,1 9,3 10,2 10,3 11,2 11,3 7,3 8,4 8,3 9,5 9,4 10,5 6,5 4,6 7,5 10,6 11,5 4,7 5,6 7,7 6,6 5,8 8,6 8,8 12,6 5,9 9,7"),
    (Rule::Renju, "7,7 7,6 9,6 9,7 5,7 8,8 6,8 8,6 7,9 4,6 5,9 10,8 11,9 8,5 8,9 5,6 6,6 6,4 7,5 8,4 8,7"),
];

/// Candidate moves over all of [`MIDGAME`]: the make+undo and generation benches check it.
const MIDGAME_CANDIDATES: usize = 845;

/// Renju positions with their complete forbidden maps (black to move), rows of
/// `../shared/data/rules/renju_forbidden_mintaka.tsv` (junghyun397/mintaka tests):
/// basic_forbidden_moves_1, multiple_nested_double_three_5, recursive_double_three_7.
#[rustfmt::skip]
const FORBIDDEN: &[(&str, &str)] = &[
    ("10,0 4,5 10,1 pass 4,2 pass 10,2 pass 2,3 pass 4,3 pass 9,3 pass 11,3 pass 12,3 pass 13,3 pass 14,3 pass 1,4 pass 4,4 pass 10,4 pass 0,5 pass 3,7 pass 4,7 pass 6,7 pass 7,7 pass 8,7 pass 9,10 pass 12,10 pass 1,11 pass 10,11 pass 1,12 pass 3,12 pass 10,12 pass 3,13 pass",
     "4,1 5,7 10,10"),
    ("7,3 5,5 12,4 12,5 13,5 2,6 3,6 7,6 6,6 11,6 8,6 4,7 9,6 5,7 10,6 8,7 12,6 1,8 3,7 12,9 7,7 4,10 4,8 pass 5,8 pass 9,8 pass 6,9 pass 10,9 pass 11,9 pass",
     "9,5 9,7 6,8 10,8"),
    ("6,6 6,5 7,6 7,5 5,7 4,7 6,7 9,7 7,7 4,8 8,7 9,8 5,8 6,10 6,8 7,10 7,8 pass 8,8 pass 6,9 pass 7,9 pass",
     "5,6 8,6 5,9 8,9"),
];

fn board(rule: Rule, moves: &str) -> Board {
    let mut b = Board::new(15, rule);
    b.play_all(&parse_move_list(moves).unwrap()).unwrap();
    b
}

/// Each mid-game position with its candidate moves.
fn midgame() -> Vec<(Board, Vec<Pos>)> {
    let mut list = MoveList::new();
    MIDGAME
        .iter()
        .map(|&(rule, moves)| {
            let mut b = board(rule, moves);
            generate(&mut b, GenKind::Candidates, &mut list);
            let ms = list.iter().collect();
            (b, ms)
        })
        .collect()
}

/// Plays and takes back every candidate of every position once.
#[inline(never)]
fn make_undo_round(set: &mut [(Board, Vec<Pos>)]) {
    for (b, ms) in set.iter_mut() {
        for &m in ms.iter() {
            b.make(m);
            b.undo();
        }
    }
}

fn counts(b: &Board) -> Vec<u16> {
    Color::ALL
        .into_iter()
        .flat_map(|c| Threat::ALL.into_iter().map(move |t| b.count(c, t)))
        .collect()
}

fn bench_make_undo(c: &mut Criterion) {
    let mut set = midgame();
    let total: usize = set.iter().map(|(_, ms)| ms.len()).sum();
    assert_eq!(total, MIDGAME_CANDIDATES, "candidate count changed");
    for (b, ms) in set.iter_mut() {
        let (hash, cs, score) = (
            b.hash(),
            counts(b),
            wuzi::eval::pattern_score(b, Color::Black),
        );
        for &m in ms.iter() {
            b.make(m);
            b.undo();
            assert_eq!((b.hash(), counts(b)), (hash, cs.clone()));
            assert_eq!(wuzi::eval::pattern_score(b, Color::Black), score);
        }
    }
    let mut g = c.benchmark_group("board");
    g.throughput(Throughput::Elements(total as u64));
    g.bench_function("make_undo", |bn| {
        bn.iter(|| make_undo_round(black_box(&mut set)))
    });
    g.finish();
}

fn bench_candidates(c: &mut Criterion) {
    let mut set = midgame();
    let mut list = MoveList::new();
    let mut count = |set: &mut [(Board, Vec<Pos>)]| {
        let mut n = 0;
        for (b, _) in set.iter_mut() {
            generate(b, GenKind::Candidates, &mut list);
            n += list.len();
        }
        n
    };
    assert_eq!(count(&mut set), MIDGAME_CANDIDATES);
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(set.len() as u64));
    g.bench_function("candidates", |bn| bn.iter(|| count(black_box(&mut set))));
    g.finish();
}

/// Every empty cell, direction and side of the mid-game positions, through the board's
/// public window and the table lookup (the path the pattern tests and tools use).
fn bench_pattern_lookup(c: &mut Criterion) {
    let set = midgame();
    let mut probes = Vec::new();
    for (b, _) in &set {
        for &p in b.cells().iter().filter(|&&p| b.is_empty(p)) {
            probes.push(p);
        }
    }
    let lookups = |set: &[(Board, Vec<Pos>)], check: bool| {
        let mut sum = 0u32;
        for (b, _) in set {
            let caro = matches!(b.rule(), Rule::Caro { .. });
            for side in Color::ALL {
                let table = pattern::table(LineRule::of(b.rule(), side));
                for &p in b.cells().iter().filter(|&&p| b.is_empty(p)) {
                    for d in Dir::ALL {
                        let pt = pattern::lookup(table, b.window(p, d, side), caro);
                        if check {
                            assert_eq!(pt, b.pattern(p, side, d));
                        }
                        sum += pt as u32;
                    }
                }
            }
        }
        sum
    };
    lookups(&set, true);
    let mut g = c.benchmark_group("pattern");
    g.throughput(Throughput::Elements(probes.len() as u64 * 8));
    g.bench_function("window_lookup", |bn| {
        bn.iter(|| lookups(black_box(&set), false))
    });
    g.finish();
}

fn bench_forbidden(c: &mut Criterion) {
    let mut set: Vec<(Board, Vec<Pos>)> = FORBIDDEN
        .iter()
        .map(|&(moves, answers)| {
            let mut want = parse_move_list(answers).unwrap();
            want.sort();
            (board(Rule::Renju, moves), want)
        })
        .collect();
    let mut empties = 0;
    for (b, want) in set.iter_mut() {
        let mut got: Vec<Pos> = b
            .forbidden_map()
            .iter_ones()
            .map(|i| Pos(i as u16))
            .collect();
        got.sort();
        assert_eq!(&got, want);
        empties += b.cells().iter().filter(|&&p| b.is_empty(p)).count();
    }
    let mut g = c.benchmark_group("forbidden");
    g.throughput(Throughput::Elements(empties as u64));
    g.bench_function("map", |bn| {
        bn.iter(|| {
            let mut n = 0;
            for (b, _) in black_box(&mut set).iter_mut() {
                n += b.forbidden_map().count_ones();
            }
            n
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_make_undo,
    bench_candidates,
    bench_pattern_lookup,
    bench_forbidden
);

fn main() {
    if let Some(n) = std::env::var_os("WUZI_BENCH_LOOPS") {
        let n: usize = n
            .to_str()
            .and_then(|s| s.parse().ok())
            .expect("a loop count");
        let mut set = midgame();
        let what = std::env::var("WUZI_BENCH_WHAT").unwrap_or_default();
        let mut list = MoveList::new();
        let mut forbidden: Vec<Board> = FORBIDDEN
            .iter()
            .map(|&(m, _)| board(Rule::Renju, m))
            .collect();
        for _ in 0..n {
            match what.as_str() {
                "candidates" => {
                    for (b, _) in set.iter_mut() {
                        generate(black_box(b), GenKind::Candidates, &mut list);
                    }
                }
                "forbidden" => {
                    for b in forbidden.iter_mut() {
                        black_box(black_box(&mut *b).forbidden_map());
                    }
                }
                _ => make_undo_round(black_box(&mut set)),
            }
        }
        println!(
            "{n} rounds of {}",
            if what.is_empty() { "make_undo" } else { &what }
        );
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
