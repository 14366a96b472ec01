//! Criterion benches of the evaluation kernels, scalar against AVX2: move scoring over the
//! candidate lists of mid-game positions, the threat-count term of the evaluation, and the
//! lean-move masks of the VCF search (eight lines a call), the move picker's least-word
//! scan, and the learned evaluation (the built-in net): one full evaluation
//! from scratch, and one incremental update of a make and its undo. Each bench first checks
//! that both kernels agree.
//!
//! `cargo bench --bench eval`. For instruction counts of the net's update (repeatable on a
//! shared machine), `WUZI_BENCH_LOOPS=N` runs N rounds of one of the `net` group's loops
//! once and exits: `WUZI_BENCH_WHAT` is `search` (`make_undo_search`, the default), `ahead`
//! (`make_value_ahead`) or `alone` (`make_undo_alone`). `cargo bench --bench eval --no-run`,
//! then `WUZI_BENCH_LOOPS=50 valgrind --tool=callgrind target/release/deps/eval-<hash>`; the
//! difference from `WUZI_BENCH_LOOPS=0` over 50 rounds of 379 moves is one move's count.

use criterion::{criterion_group, Criterion, Throughput};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use wuzi::board::line_threats_x8_with;
use wuzi::eval::order::score_moves_with;
use wuzi::eval::term::eval_term_with;
use wuzi::movegen::list::min_index_with;
use wuzi::movegen::{generate, GenKind, MoveList};
use wuzi::notation::parse_move_list;
use wuzi::simd::{best, Kernel};
use wuzi::{Board, Rule};

/// Mid-game positions: rows of `../shared/data/tactics/freestyle_vcf.tsv` (lfz_c03_126,
/// lfz_c17_305) and `openings/rapfi_bench_positions.tsv` (rapfi_bench_7, renju).
const POSITIONS: &[(Rule, &str)] = &[
    (Rule::Freestyle, "6,3 5,4 3,5 7,4 5,5 4,5 7,5 11,5 8,6 9,6 7,7 10,6 10,7 11,7 7,8 3,8 9,9 5,8 4,10 9,8 6,11 4,9 7,11 7,10"),
    (Rule::Freestyle, "6,3 7,3 7,4 5,4 9,4 6,4 5,5 3,5 7,5 6,5 8,5 11,5 10,5 6,6 4,6 8,6 5,6 9,6 7,6 10,6 11,6 6,7 5,7 7,8 7,7 8,8 6,8 8,10 7,9"),
    (Rule::Renju, "7,7 7,6 9,6 9,7 5,7 8,8 6,8 8,6 7,9 4,6 5,9 10,8 11,9 8,5 8,9 5,6 6,6 6,4 7,5 8,4 8,7"),
];

fn setup() -> Vec<(Board, MoveList)> {
    POSITIONS
        .iter()
        .map(|(rule, moves)| {
            let mut b = Board::new(15, *rule);
            b.play_all(&parse_move_list(moves).unwrap()).unwrap();
            let mut list = MoveList::new();
            generate(&mut b, GenKind::Candidates, &mut list);
            (b, list)
        })
        .collect()
}

fn kernels() -> Vec<Kernel> {
    if best() == Kernel::Avx2 {
        vec![Kernel::Scalar, Kernel::Avx2]
    } else {
        vec![Kernel::Scalar]
    }
}

fn bench_score_moves(c: &mut Criterion) {
    let mut pos = setup();
    let total: usize = pos.iter().map(|(_, l)| l.len()).sum();
    for (b, l) in &mut pos {
        let mut a = l.clone();
        let mut s = l.clone();
        score_moves_with(
            best(),
            b,
            b.to_move(),
            a.as_mut_slice(),
            &Default::default(),
        );
        score_moves_with(
            Kernel::Scalar,
            b,
            b.to_move(),
            s.as_mut_slice(),
            &Default::default(),
        );
        assert_eq!(a.as_slice(), s.as_slice());
    }
    let mut g = c.benchmark_group("score_moves");
    g.throughput(Throughput::Elements(total as u64));
    for k in kernels() {
        g.bench_function(format!("{k:?}"), |bench| {
            bench.iter(|| {
                for (b, l) in &mut pos {
                    score_moves_with(k, b, b.to_move(), l.as_mut_slice(), &Default::default());
                    black_box(l.as_slice());
                }
            })
        });
    }
    g.finish();
}

fn bench_eval_term(c: &mut Criterion) {
    let pos = setup();
    let w = wuzi::eval::EvalWeights::default();
    for (b, _) in &pos {
        assert_eq!(
            eval_term_with(best(), b, b.to_move(), &w),
            eval_term_with(Kernel::Scalar, b, b.to_move(), &w)
        );
    }
    let mut g = c.benchmark_group("eval_term");
    g.throughput(Throughput::Elements(pos.len() as u64));
    for k in kernels() {
        g.bench_function(format!("{k:?}"), |bench| {
            bench.iter(|| {
                let mut s = 0;
                for (b, _) in &pos {
                    s += eval_term_with(k, black_box(b), b.to_move(), &w);
                }
                black_box(s)
            })
        });
    }
    g.finish();
}

/// 1,024 random sets of eight lines (each cell own, blocked or empty with odds 1:1:2; the
/// wall beyond a random length of 5 to 22 cells), as a lean make hands the kernel. Its cost
/// does not depend on the stones: it has no branches.
fn random_lines() -> Vec<([u32; 8], [u32; 8])> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    (0..1024)
        .map(|_| {
            let (mut own, mut blocked) = ([0u32; 8], [0u32; 8]);
            for k in 0..8 {
                let (a, b) = (rng.next_u32(), rng.next_u32());
                let cells = ((1u32 << (5 + rng.next_u32() % 18)) - 1) << 5;
                own[k] = a & !b & cells;
                blocked[k] = (b & !a & cells) | !cells;
            }
            (own, blocked)
        })
        .collect()
}

fn bench_lean_masks(c: &mut Criterion) {
    let sets = random_lines();
    for (o, b) in &sets {
        for exact in [[0, 0], [u32::MAX, u32::MAX], [u32::MAX, 0]] {
            assert_eq!(
                line_threats_x8_with(best(), o, b, exact),
                line_threats_x8_with(Kernel::Scalar, o, b, exact)
            );
        }
    }
    let mut g = c.benchmark_group("lean_masks");
    g.throughput(Throughput::Elements(sets.len() as u64));
    for k in kernels() {
        g.bench_function(format!("{k:?}"), |bench| {
            bench.iter(|| {
                let mut acc = 0u32;
                for (o, b) in &sets {
                    // Freestyle's masks (the other rules' cost the same: `exact` is a lane
                    // mask).
                    let (five, four) = line_threats_x8_with(k, black_box(o), black_box(b), [0, 0]);
                    acc ^= five[0] ^ four[7];
                }
                black_box(acc)
            })
        });
    }
    g.finish();
}

/// 1,024 random lists of 20 to 99 distinct sort words (a search node's candidate count),
/// scanned whole, as the picker's first pick does.
fn bench_min_index(c: &mut Criterion) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let lists: Vec<Vec<u64>> = (0..1024)
        .map(|_| {
            let n = 20 + (rng.next_u32() % 80) as usize;
            (0..n).map(|_| rng.next_u64()).collect()
        })
        .collect();
    for w in &lists {
        assert_eq!(min_index_with(best(), w), min_index_with(Kernel::Scalar, w));
    }
    let mut g = c.benchmark_group("min_index");
    g.throughput(Throughput::Elements(lists.len() as u64));
    for k in kernels() {
        g.bench_function(format!("{k:?}"), |bench| {
            bench.iter(|| {
                let mut acc = 0usize;
                for w in &lists {
                    acc ^= min_index_with(k, black_box(w));
                }
                black_box(acc)
            })
        });
    }
    g.finish();
}

/// The built-in net (the bench measures its shape; any weights cost the same).
const NET: &[u8] = wuzi::eval::choice::BUILTIN_NET;

/// The net's full evaluation (every empty cell's vector, the sum, the value layers) and one
/// make or undo's accumulator update (the cells within reach of the move along its lines,
/// both sides to move), against the classical evaluation's term above. The update is timed
/// twice: an undo that recomputes (`make_undo_update`) and the search's recorded make and
/// undo (`make_undo_search`); `make_undo_alone` is the board's own share of both, and
/// `make_value_ahead` a leaf's make, value and undo (the state left as it was).
fn bench_net(c: &mut Criterion) {
    use wuzi::eval::accumulator::Accumulator;
    use wuzi::eval::net::Network;
    let net = Network::from_bytes(NET).expect("a net file");
    let mut pos = setup();
    for (b, _) in &pos {
        let s = |k| net.value_logit(&net.board_sum(k, b));
        assert_eq!(s(best()).to_bits(), s(Kernel::Scalar).to_bits());
    }
    let mut g = c.benchmark_group("net");
    g.throughput(Throughput::Elements(pos.len() as u64));
    for k in kernels() {
        g.bench_function(format!("full_eval/{k:?}"), |bench| {
            bench.iter(|| {
                let mut z = 0.0;
                for (b, _) in &pos {
                    z += net.value_logit(&net.board_sum(k, black_box(b)));
                }
                black_box(z)
            })
        });
    }
    g.finish();
    // Make and undo every candidate of the positions, updating after each.
    let moves: usize = pos.iter().map(|(_, l)| l.len()).sum();
    let mut accs: Vec<Accumulator> = pos.iter().map(|(b, _)| Accumulator::new(&net, b)).collect();
    let mut g = c.benchmark_group("net");
    g.throughput(Throughput::Elements(2 * moves as u64));
    g.bench_function("make_undo_update", |bench| {
        bench.iter(|| {
            let mut changed = Vec::with_capacity(64);
            for ((b, list), acc) in pos.iter_mut().zip(accs.iter_mut()) {
                for p in list.iter() {
                    b.make(p);
                    acc.update(&net, b, p, b.last_changed());
                    changed.clear();
                    changed.extend(b.last_changed());
                    b.undo();
                    acc.update(&net, b, p, changed.iter().copied());
                }
            }
            black_box(accs[0].sum(wuzi::Color::Black)[0])
        })
    });
    // As the search does it when the child reads the net: the sync records what it changes
    // and the undo puts it back.
    g.bench_function("make_undo_search", |bench| {
        bench.iter(|| {
            for ((b, list), acc) in pos.iter_mut().zip(accs.iter_mut()) {
                for p in list.iter() {
                    b.make(p);
                    acc.sync(&net, b);
                    b.undo();
                    acc.undo(b);
                }
            }
            black_box(accs[0].sum(wuzi::Color::Black)[0])
        })
    });
    // A leaf's value: the make, the value one move ahead of the state (nothing changed in
    // it), the undo.
    g.bench_function("make_value_ahead", |bench| {
        bench.iter(|| {
            let mut z = 0.0;
            for ((b, list), acc) in pos.iter_mut().zip(accs.iter()) {
                for p in list.iter() {
                    b.make(p);
                    z += acc.value_logit_ahead(&net, b).expect("one move ahead");
                    b.undo();
                }
            }
            black_box(z)
        })
    });
    g.bench_function("make_undo_alone", |bench| {
        bench.iter(|| {
            for (b, list) in pos.iter_mut() {
                for p in list.iter() {
                    b.make(p);
                    b.undo();
                }
            }
            black_box(pos[0].0.hash())
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_score_moves,
    bench_eval_term,
    bench_lean_masks,
    bench_min_index,
    bench_net
);
/// One of the `net` group's loops, `rounds` times, without criterion
/// (`WUZI_BENCH_LOOPS`, the module's doc).
fn net_loops(rounds: usize, what: &str) {
    use wuzi::eval::accumulator::Accumulator;
    use wuzi::eval::net::Network;
    let net = Network::from_bytes(NET).expect("a net file");
    let mut pos = setup();
    let mut accs: Vec<Accumulator> = pos.iter().map(|(b, _)| Accumulator::new(&net, b)).collect();
    let mut z = 0.0;
    for _ in 0..rounds {
        for ((b, list), acc) in pos.iter_mut().zip(accs.iter_mut()) {
            for p in list.iter() {
                b.make(p);
                match what {
                    "ahead" => z += acc.value_logit_ahead(&net, b).expect("one move ahead"),
                    "alone" => {}
                    _ => acc.sync(&net, b),
                }
                b.undo();
                acc.undo(b);
            }
        }
    }
    black_box(z);
}

fn main() {
    if let Some(n) = std::env::var_os("WUZI_BENCH_LOOPS") {
        let n: usize = n
            .to_str()
            .and_then(|s| s.parse().ok())
            .expect("a loop count");
        net_loops(n, &std::env::var("WUZI_BENCH_WHAT").unwrap_or_default());
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
