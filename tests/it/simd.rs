//! The AVX2 kernels give bit-identical results to the scalar definitions, over thousands of
//! positions from random games under every rule and size, with the fitted and the hand-set
//! weights, and with other-side pattern weights that differ from the mover's; the row-order
//! candidates the search uses are the centre-out generator's set; the lean-move masks of
//! random lines; and the move picker's least-word scan.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use wuzi::board::{line_threats_x8, line_threats_x8_scalar, line_threats_x8_with};
use wuzi::eval::order::score_moves_with;
use wuzi::eval::term::{eval_term_scalar, eval_term_with};
use wuzi::eval::{EvalWeights, OrderWeights};
use wuzi::geometry::MARGIN;
use wuzi::movegen::list::{min_index, min_index_scalar, min_index_with};
use wuzi::movegen::{candidates_by_row, generate, GenKind, MoveList};
use wuzi::simd::{best, Kernel};
use wuzi::{Board, Rule};

#[test]
fn avx2_kernels_match_scalar() {
    if best() != Kernel::Avx2 {
        eprintln!("no AVX2 on this CPU: only the scalar path runs");
        return;
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut positions = 0;
    for game in 0..60 {
        let rule = Rule::ALL[game % Rule::ALL.len()];
        let size = [15, 19, 20, 22, 9][game % 5];
        let mut b = Board::new(size, rule);
        let mut list = MoveList::new();
        for _ in 0..(size * size / 2) {
            generate(&mut b, GenKind::Candidates, &mut list);
            if list.is_empty() {
                break;
            }
            // Fitted and hand-set weights: negative weights and both bytes of the i16
            // pattern weights are exercised.
            let orders = [OrderWeights::DEFAULT, OrderWeights::HAND];
            // The third set weighs the other side's patterns apart from the mover's, as
            // the search's white caution does.
            let mut uneven = EvalWeights::DEFAULT;
            for (q, p) in uneven.pattern_opp.iter_mut().zip(EvalWeights::HAND.pattern) {
                *q = p * 3 - 1;
            }
            let evals = [EvalWeights::DEFAULT, EvalWeights::HAND, uneven];
            for side in wuzi::Color::ALL {
                for (ow, ew) in orders.iter().cycle().zip(&evals) {
                    let mut a = list.clone();
                    let mut s = list.clone();
                    score_moves_with(Kernel::Avx2, &b, side, a.as_mut_slice(), ow);
                    score_moves_with(Kernel::Scalar, &b, side, s.as_mut_slice(), ow);
                    assert_eq!(a.as_slice(), s.as_slice(), "move scores differ");
                    assert_eq!(
                        eval_term_with(Kernel::Avx2, &b, side, ew),
                        eval_term_scalar(&b, side, ew)
                    );
                }
                // Every empty cell has one line pattern per direction.
                let empty = b.cells().iter().filter(|&&p| b.is_empty(p)).count();
                let patterns: u32 = b.pattern_counts()[side.index()]
                    .iter()
                    .map(|&c| c as u32)
                    .sum();
                assert_eq!(patterns as usize, 4 * empty);
            }
            // The row candidate kernel, and the search's row-order candidates: the same set
            // as the centre-out generator.
            for y in 0..size {
                assert_eq!(b.candidate_row(y), b.candidate_row_scalar(y), "row {y}");
            }
            let mut by_row = MoveList::new();
            candidates_by_row(&mut b, &mut by_row);
            let mut want: Vec<_> = list.iter().collect();
            want.sort();
            assert_eq!(by_row.iter().collect::<Vec<_>>(), want, "candidates by row");
            positions += 1;
            let p = list.as_slice()[(rng.next_u64() % list.len() as u64) as usize].pos;
            if b.makes_five(p, b.to_move()) {
                break;
            }
            b.make(p);
        }
    }
    assert!(positions > 1000, "{positions}");
}

/// The lean-mask kernels agree on random lines, under freestyle, standard and renju: each cell
/// own, blocked or empty, and everything off the line wall, as on the board.
#[test]
fn line_threats_x8_kernels_agree() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let (mut fives, mut fours) = (0, 0);
    for _ in 0..20_000 {
        let (mut own, mut blocked) = ([0u32; 8], [0u32; 8]);
        for k in 0..8 {
            let (a, b) = (rng.next_u32(), rng.next_u32());
            let len = 5 + rng.next_u32() % 18;
            let cells = ((1u32 << len) - 1) << MARGIN;
            own[k] = a & !b & cells;
            blocked[k] = (b & !a & cells) | !cells;
        }
        // Freestyle's masks, standard's (exactly five) or renju's (exactly five for black).
        let exact = [0, u32::MAX].map(|e| if rng.next_u32() % 2 == 0 { 0 } else { e });
        let want = line_threats_x8_scalar(&own, &blocked, exact);
        fives += want.0.iter().filter(|&&m| m != 0).count();
        fours += want.1.iter().filter(|&&m| m != 0).count();
        assert_eq!(line_threats_x8(&own, &blocked, exact), want);
        if best() == Kernel::Avx2 {
            assert_eq!(
                line_threats_x8_with(Kernel::Avx2, &own, &blocked, exact),
                want
            );
        }
    }
    // The draws make both kinds of mask often enough to test them.
    assert!(fives > 5_000 && fours > 20_000, "{fives} {fours}");
}

/// The move picker's scan: the first least word, by both kernels, on lists of every length
/// up to 120 (the vector path starts at eight words and leaves up to seven to the scalar
/// tail), with many ties (words from a small range) and with words whose top bit is set.
#[test]
fn min_index_kernels_agree() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    for round in 0..20_000 {
        let n = 1 + round % 120;
        let small = round % 3 == 0;
        let w: Vec<u64> = (0..n)
            .map(|_| {
                let x = rng.next_u64();
                if small {
                    (x % 5) | (x & 1 << 63)
                } else {
                    x
                }
            })
            .collect();
        let least = *w.iter().min().unwrap();
        let first = w.iter().position(|&x| x == least).unwrap();
        assert_eq!(min_index_scalar(&w), first, "{w:?}");
        assert_eq!(min_index(&w), first, "{w:?}");
        if best() == Kernel::Avx2 {
            assert_eq!(min_index_with(Kernel::Avx2, &w), first, "{w:?}");
        }
    }
}
