//! The net file reader, the kernels against their scalar twins, and value widths.

use super::*;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[test]
fn files_are_read_or_refused_with_a_reason() {
    let bytes = random_net(1);
    assert_eq!(bytes.len(), FILE_BYTES);
    let net = Network::from_bytes(&bytes).expect("a good file");
    assert_eq!(net.hash(), crate::zobrist::fnv1a(bytes.iter().copied()));
    assert_eq!(
        Network::from_bytes(b"WUZINET0").unwrap_err(),
        NetError::Magic
    );
    assert!(matches!(
        Network::from_bytes(&bytes[..bytes.len() - 8]),
        Err(NetError::Length { .. })
    ));
    let mut wrong = bytes.clone();
    wrong[12] = 64; // features
    assert!(matches!(
        Network::from_bytes(&wrong),
        Err(NetError::Shape { features: 64, .. })
    ));
    let mut wrong = bytes.clone();
    let n = wrong.len();
    wrong[n - 1] ^= 1;
    assert_eq!(Network::from_bytes(&wrong).unwrap_err(), NetError::Trailer);
    let mut wrong = bytes.clone();
    wrong[20..24].copy_from_slice(&f32::NAN.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&wrong),
        Err(NetError::Weight { index: 0, .. })
    ));
    wrong[20..24].copy_from_slice(&1000.0f32.to_le_bytes());
    assert!(Network::from_bytes(&wrong)
        .unwrap_err()
        .to_string()
        .contains("1000"));
}

/// The weights of a net file, in the file's order.
fn floats_of(file: &[u8]) -> Vec<f32> {
    file[20..file.len() - 4]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A version-1 file's floats with `h` hidden units: those of `base` (16 units), and
/// `h - 16` more whose output weight is zero.
fn widened(base: &[u8], h: usize) -> Vec<u8> {
    let floats = floats_of(base);
    let (e, rest) = floats.split_at(KEYS * FEATURES);
    let (w1, rest) = rest.split_at(HIDDEN * FEATURES);
    let (b1, rest) = rest.split_at(HIDDEN);
    let (w2, rest) = rest.split_at(HIDDEN);
    let extra = h - HIDDEN;
    let mut out = Vec::from(e);
    out.extend(w1);
    out.extend((0..extra * FEATURES).map(|k| (k % 7) as f32 * 0.1 - 0.3));
    out.extend(b1);
    out.extend((0..extra).map(|k| (k % 3) as f32 * 0.2));
    out.extend(w2);
    out.extend(std::iter::repeat_n(0.0, extra));
    out.extend(rest);
    file_of_width(&out, h)
}

#[test]
fn a_file_says_how_many_hidden_units_its_value_has() {
    let base = random_net(3);
    let wide = widened(&base, 48);
    assert_eq!(wide.len(), file_bytes(KEYS, 48));
    let (a, b) = (
        Network::from_bytes(&base).unwrap(),
        Network::from_bytes(&wide).expect("48 hidden units"),
    );
    // The extra units add nothing: the same value, bit for bit, on random boards.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for _ in 0..20 {
        let mut board = Board::new(15, crate::types::Rule::Freestyle);
        for _ in 0..(rng.next_u32() % 30) {
            let p = Pos::new(rng.next_u32() as usize % 15, rng.next_u32() as usize % 15);
            if board.is_empty(p) {
                board.make(p);
            }
        }
        assert_eq!(a.evaluate(&board).to_bits(), b.evaluate(&board).to_bits());
    }
    for h in [0u32, MAX_HIDDEN as u32 + 1] {
        let mut wrong = wide.clone();
        wrong[16..20].copy_from_slice(&h.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&wrong),
            Err(NetError::Shape { .. })
        ));
    }
    let mut wrong = base.clone();
    wrong[16..20].copy_from_slice(&48u32.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&wrong).unwrap_err(),
        NetError::Length {
            expected: file_bytes(KEYS, 48),
            got: FILE_BYTES
        }
    );
}

/// A version-6 file's weights from a version-1 file's: the same weights, with the
/// 2 [`PAIRS`] pair rows of the lanes `pairs(k)` (for `k` counted from the first pair lane)
/// after the key rows, and the window entries `window(code)` at the end.
fn v6_weights(
    v1: &[u8],
    pairs: impl Fn(usize) -> f32,
    window: impl Fn(usize) -> f32,
) -> Vec<f32> {
    let floats = floats_of(v1);
    let (e, rest) = floats.split_at(KEYS * FEATURES);
    let mut out = Vec::from(e);
    out.extend((0..2 * PAIRS * FEATURES).map(pairs));
    out.extend(rest);
    out.extend((0..WINDOW_CODES).map(window));
    out
}

/// The sum of the file's rows `rows` of the weights `w` (in the file's order), each lane
/// rounded to 1/[`QUANT`] as the loader rounds it: a cell's expected unclipped sum.
fn rows_sum(w: &[f32], rows: &[usize]) -> [i16; FEATURES] {
    let mut sum = [0i16; FEATURES];
    for &r in rows {
        for (x, &v) in sum.iter_mut().zip(&w[r * FEATURES..(r + 1) * FEATURES]) {
            *x += (v * QUANT as f32).round() as i16;
        }
    }
    sum
}

#[test]
fn a_pair_row_is_the_two_strongest_patterns_of_each_side() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    for _ in 0..100_000 {
        let keys = [0; 4].map(|_| (rng.next_u32() % KEYS as u32) as u8);
        let pair = |mut p: Vec<usize>| {
            p.sort_unstable_by(|a, b| b.cmp(a));
            p[0] * (p[0] + 1) / 2 + p[1]
        };
        let own = pair(keys.iter().map(|&k| k as usize / PATTERNS).collect());
        let other = pair(keys.iter().map(|&k| k as usize % PATTERNS).collect());
        assert_eq!(split_rows(keys), [KEYS + 1 + own, KEYS + 1 + PAIRS + other]);
    }
}

#[test]
fn a_version_6_file_adds_a_pair_row_per_side() {
    let v1 = random_net(7);
    let w = v6_weights(&v1, |k| (k % 11) as f32 / 16.0 - 0.3, |_| 0.0);
    let bytes = file_from_floats(&w);
    assert_eq!(&bytes[..8], b"WUZINET6");
    assert_eq!(bytes.len(), file_bytes(ROWS6, HIDDEN) + 4 * WINDOW_CODES);
    let net = Network::from_bytes(&bytes).expect("a version-6 file");
    assert_eq!(net.version(), 6);
    // Keys 5, 17, 40, 100: the side to move's patterns 0, 1, 3, 8 make the pair (8, 3), 39;
    // the other side's 5, 5, 4, 4 the pair (5, 5), 20. The file's rows 144 + 39 and
    // 144 + 78 + 20.
    let keys = [5, 17, 40, 100];
    assert_eq!(split_rows(keys), [KEYS + 1 + 39, KEYS + 1 + PAIRS + 20]);
    for me in Color::ALL {
        assert_eq!(
            net.cell_sum(Kernel::Scalar, keys, me),
            rows_sum(&w, &[5, 17, 40, 100, KEYS + 39, KEYS + PAIRS + 20])
        );
    }
    // Version 1's magic on a version-6 table is refused by its shape, and the reverse.
    let mut wrong = bytes.clone();
    wrong[..8].copy_from_slice(&MAGIC);
    assert!(matches!(
        Network::from_bytes(&wrong),
        Err(NetError::Shape { keys: 300, .. })
    ));
    let mut wrong = v1.clone();
    wrong[..8].copy_from_slice(&MAGIC6);
    assert!(matches!(
        Network::from_bytes(&wrong),
        Err(NetError::Shape { keys: 144, .. })
    ));
    // Six summed rows must fit i16: a weight of 90 is refused (five rows would hold it).
    let mut big = w.clone();
    big[0] = 90.0;
    assert!(matches!(
        Network::from_bytes(&file_from_floats(&big)),
        Err(NetError::Weight { index: 0, .. })
    ));
}

#[test]
fn a_version_6_file_adds_the_policys_window_term() {
    let v1 = random_net(9);
    let pairs = |k: usize| (k % 11) as f32 / 16.0 - 0.3;
    let window = |code: usize| (code % 97) as f32 / 64.0 - 0.7;
    let w = v6_weights(&v1, pairs, window);
    let bytes = file_from_floats(&w);
    let net = Network::from_bytes(&bytes).expect("a version-6 file");
    let zero = Network::from_bytes(&file_from_floats(&v6_weights(&v1, pairs, |_| 0.0)))
        .expect("a version-6 file");
    // Black 7,7 and 9,7, white 8,9; black to move at 8,7. Along the row: offsets -1 and +1
    // black (digits 3 and 4: 27 + 81), the rest empty; along the column: +2 white (digit 5,
    // 2 * 243); along the diagonals nothing within four steps.
    let mut board = Board::new(15, crate::types::Rule::Freestyle);
    for (x, y) in [(7, 7), (8, 9), (9, 7)] {
        board.make(Pos::new(x, y));
    }
    let p = Pos::new(8, 7);
    let codes = Dir::ALL.map(|d| board.window_code(p, Color::Black, d));
    assert_eq!(codes, [27 + 81, 2 * 243, 0, 0]);
    let units: i32 = codes
        .iter()
        .map(|&c| (window(c) * WINDOW_QUANT as f32).round() as i32)
        .sum();
    assert_eq!(
        net.window_logit(&board, p, Color::Black),
        units * QUANT * QUANT / WINDOW_QUANT
    );
    // The rest of the net is the same: the same cells, value and policy weights; a version-1
    // net has no window term.
    assert_eq!(net.evaluate(&board), zero.evaluate(&board));
    let cell = net.cell_at(Kernel::Scalar, &board, p, Color::Black);
    assert_eq!(net.policy(&cell), zero.policy(&cell));
    assert_eq!(zero.window_logit(&board, p, Color::Black), 0);
    let v1 = Network::from_bytes(&v1).expect("a version-1 file");
    assert_eq!(v1.window_logit(&board, p, Color::Black), 0);
    // Cut short: refused by its length.
    assert!(matches!(
        Network::from_bytes(&bytes[..bytes.len() - 8]),
        Err(NetError::Length { .. })
    ));
    // An entry beyond the i16 range of its units is refused, named by its index.
    let mut big = w.clone();
    let last = big.len() - 1;
    big[last] = 40.0;
    assert!(matches!(
        Network::from_bytes(&file_from_floats(&big)),
        Err(NetError::Weight { index, .. }) if index == last
    ));
}

#[test]
fn files_of_other_versions_are_refused() {
    // Versions 2 to 5 and 7: refused by their magic.
    for magic in [b"WUZINET2", b"WUZINET3", b"WUZINET4", b"WUZINET5", b"WUZINET7"] {
        let mut bytes = random_net(4);
        bytes[..8].copy_from_slice(magic);
        assert_eq!(Network::from_bytes(&bytes).unwrap_err(), NetError::Magic);
    }
}

/// A version-8 file holds version 6's pair rows twice: with black to move a cell adds the
/// first set, with white to move the second.
#[test]
fn a_version_8_file_has_pair_rows_for_each_colour_to_move() {
    let w: Vec<f32> = (0..WEIGHTS8)
        .map(|k| (k % 13) as f32 / 16.0 - 0.35)
        .collect();
    let bytes = file_from_floats(&w);
    assert_eq!(&bytes[..8], b"WUZINET8");
    assert_eq!(bytes.len(), file_bytes(ROWS8, HIDDEN) + 4 * WINDOW_CODES);
    let net = Network::from_bytes(&bytes).expect("a version-8 file");
    assert_eq!(net.version(), 8);
    // The pairs of keys 5, 17, 40, 100 (a_version_6_file_adds_a_pair_row_per_side): 39 for
    // the side to move, 20 for the other.
    let keys = [5, 17, 40, 100];
    let (own, other) = (KEYS + 39, KEYS + PAIRS + 20);
    assert_eq!(
        net.cell_sum(Kernel::Scalar, keys, Color::Black),
        rows_sum(&w, &[5, 17, 40, 100, own, other])
    );
    assert_eq!(
        net.cell_sum(Kernel::Scalar, keys, Color::White),
        rows_sum(&w, &[5, 17, 40, 100, own + 2 * PAIRS, other + 2 * PAIRS])
    );
    // A version-6 magic on a version-8 table is refused by its shape.
    let mut wrong = bytes.clone();
    wrong[..8].copy_from_slice(&MAGIC6);
    assert!(matches!(
        Network::from_bytes(&wrong),
        Err(NetError::Shape { keys: 456, .. })
    ));
}

#[test]
fn the_kernels_agree_on_every_key() {
    let kernel = crate::simd::best();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let nets = [
        random_net(2),
        random_net(3),
        random_net6(2),
        random_net6(3),
        random_net8(2),
    ];
    for net in nets {
        let net = Network::from_bytes(&net).expect("net");
        for _ in 0..20_000 {
            let me = Color::ALL[rng.next_u32() as usize % 2];
            // A stone's keys are all KEYS; an empty cell's are below it.
            let keys = if rng.next_u32() % 50 == 0 {
                [KEYS as u8; 4]
            } else {
                [0; 4].map(|_| (rng.next_u32() % KEYS as u32) as u8)
            };
            assert_eq!(
                net.cell(kernel, keys, me),
                net.cell(Kernel::Scalar, keys, me),
                "{keys:?}"
            );
            assert_eq!(
                net.cell_sum(kernel, keys, me),
                net.cell_sum(Kernel::Scalar, keys, me)
            );
            // A change of one key: the rows it loses and gains take the old sum to the sum of
            // the new keys (the accumulator's kernels apply them, tests in accumulator.rs).
            let d = rng.next_u32() as usize % 4;
            let mut new = keys;
            new[d] = (rng.next_u32() % KEYS as u32) as u8;
            if keys[0] == KEYS as u8 {
                continue;
            }
            let mut cell = net.cell_sum(kernel, keys, me);
            let (lose, gain) = net.changed_rows(keys, new, d, me);
            for (o, n) in lose.iter().zip(&gain) {
                for i in 0..FEATURES {
                    cell[i] = cell[i].wrapping_sub(o[i]).wrapping_add(n[i]);
                }
            }
            assert_eq!(cell, net.cell_sum(Kernel::Scalar, new, me));
        }
    }
}

/// The rows both sides' sums lose and gain at a change of one key, looked up once for both
/// ([`Network::changed_rows_both`]), are each side's own ([`Network::changed_rows`]): white's
/// keys being black's with their two patterns swapped.
#[test]
fn both_sides_changed_rows_are_each_sides_own() {
    let swap = |k: u8| (k as usize % PATTERNS * PATTERNS + k as usize / PATTERNS) as u8;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for net in [random_net(2), random_net6(2), random_net8(2)] {
        let net = Network::from_bytes(&net).expect("net");
        for _ in 0..20_000 {
            let black = [0; 4].map(|_| (rng.next_u32() % KEYS as u32) as u8);
            let d = rng.next_u32() as usize % 4;
            let mut black_new = black;
            black_new[d] = (rng.next_u32() % KEYS as u32) as u8;
            let old = [black, black.map(swap)];
            let new = [black_new, black_new.map(swap)];
            let both = net.changed_rows_both(old, new, d);
            for s in 0..2 {
                let (lose, gain) = net.changed_rows(old[s], new[s], d, Color::ALL[s]);
                assert_eq!((both[s].0, both[s].1), (lose, gain), "{old:?} {new:?} {d}");
            }
        }
    }
}

/// The value layers give the same bits with either kernel, at the fixed widths (16, 32, 64)
/// and at others, on random board sums as large as a full board makes them.
#[test]
fn the_value_kernels_agree_at_every_width() {
    let base = random_net(4);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    for h in [16, 24, 32, 48, 64, 200] {
        let bytes = if h == HIDDEN {
            base.clone()
        } else {
            widened(&base, h)
        };
        let net = Network::from_bytes(&bytes).expect("net");
        for _ in 0..2_000 {
            let sum = [0; FEATURES].map(|_| (rng.next_u32() % 200_001) as i32 - 100_000);
            let best = net.value_logit_with(crate::simd::best(), &sum);
            let scalar = net.value_logit_with(Kernel::Scalar, &sum);
            assert_eq!(best.to_bits(), scalar.to_bits(), "{h} units");
        }
    }
}

/// The integer rounding of scores gives what `round` and a clamp give: on halves, on the
/// floats next to them, beyond the clamp, at infinities and NaN, and on a sweep of floats.
#[test]
fn scores_round_as_round_does() {
    let reference = |x: f32, max: i32| (x.round() as i32).clamp(-max, max);
    let mut xs = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e30,
        -1e30,
        20_000.5,
        -20_000.5,
        20_001.0,
        f32::MAX,
        f32::MIN,
    ];
    for k in -50_000..50_000 {
        let half = k as f32 + 0.5;
        xs.extend([half, half.next_up(), half.next_down(), k as f32]);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..1_000_000 {
        // Random bit patterns, kept to finite floats below 2^20.
        let f = f32::from_bits(rng.next_u32());
        if f.is_finite() && f.abs() < 1_048_576.0 {
            xs.push(f);
        }
    }
    for &x in &xs {
        for max in [MAX_NET_SCORE, 100, 1] {
            assert_eq!(round_within(x, max), reference(x, max), "{x} within {max}");
        }
    }
}
