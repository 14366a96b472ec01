//! The net file reader, the kernels against their scalar twins, and value widths.

use super::*;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use crate::eval::accumulator::Accumulator;

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

/// A version-4 (`rows` = [`PAIRS`]²) or version-5 (2 [`PAIRS`]) file's weights from a
/// version-1 file's: the same weights, with `rows` pair rows of the lanes `pairs(k)` (for
/// `k` counted from the first pair lane) after the key rows.
fn pair_weights(v1: &[u8], rows: usize, pairs: impl Fn(usize) -> f32) -> Vec<f32> {
    let floats = floats_of(v1);
    let (e, rest) = floats.split_at(KEYS * FEATURES);
    let mut out = Vec::from(e);
    out.extend((0..rows * FEATURES).map(pairs));
    out.extend(rest);
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

/// A version-4 file's bytes from a version-1 file's: the same weights, with the pair rows
/// `pairs` after the key rows.
fn with_pairs(v1: &[u8], pairs: impl Fn(usize) -> f32) -> Vec<u8> {
    file_from_floats(&pair_weights(v1, PAIRS * PAIRS, pairs))
}

/// Random boards of 0 to 59 stones.
fn random_boards(seed: u64, n: usize) -> Vec<Board> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut board = Board::new(15, crate::types::Rule::Freestyle);
            for _ in 0..(rng.next_u32() % 60) {
                let p = Pos::new(rng.next_u32() as usize % 15, rng.next_u32() as usize % 15);
                if board.is_empty(p) {
                    board.make(p);
                }
            }
            board
        })
        .collect()
}

#[test]
fn a_version_4_file_adds_the_pair_rows() {
    let v1 = random_net(6);
    let zero = with_pairs(&v1, |_| 0.0);
    assert_eq!(&zero[..8], b"WUZINET4");
    assert_eq!(zero.len(), file_bytes(ROWS4, HIDDEN));
    let (a, b) = (
        Network::from_bytes(&v1).unwrap(),
        Network::from_bytes(&zero).expect("a version-4 file"),
    );
    assert_eq!((a.version(), b.version()), (1, 4));
    // Pair rows of zeros add nothing: the same values and policies as version 1.
    let kernel = crate::simd::best();
    let boards = random_boards(9, 30);
    for board in &boards {
        assert_eq!(a.evaluate(board).to_bits(), b.evaluate(board).to_bits());
        for &p in board.cells() {
            let me = board.to_move();
            assert_eq!(a.cell_at(kernel, board, p, me), b.cell_at(kernel, board, p, me));
        }
    }
    // With pair rows, a cell's sum is its four key rows and its pair row (the rows of the
    // file: the keys, then the pairs, the side to move's major).
    let w = pair_weights(&v1, PAIRS * PAIRS, |k| (k % 13) as f32 / 16.0 - 0.375);
    let bytes = file_from_floats(&w);
    let c = Network::from_bytes(&bytes).unwrap();
    let keys = [5, 17, 40, 100];
    // Patterns (key / 12) 0, 1, 3, 8: the pair (8, 3), 8 * 9 / 2 + 3 = 39; the other
    // side's (key % 12) 5, 5, 4, 4: the pair (5, 5), 20. The file's row 144 + 39 * 78 + 20.
    assert_eq!(pair_row(keys), KEYS + 1 + 3062);
    assert_eq!(
        c.cell_sum(Kernel::Scalar, keys),
        rows_sum(&w, &[5, 17, 40, 100, 3206])
    );
    // A version-1 magic on a version-4 table, or the reverse, is refused by its shape.
    let mut wrong = bytes.clone();
    wrong[..8].copy_from_slice(&MAGIC);
    assert!(matches!(
        Network::from_bytes(&wrong),
        Err(NetError::Shape { keys: 6228, .. })
    ));
    let mut wrong = v1.clone();
    wrong[..8].copy_from_slice(&MAGIC4);
    assert!(matches!(
        Network::from_bytes(&wrong),
        Err(NetError::Shape { keys: 144, .. })
    ));
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
        assert_eq!(pair_row(keys), KEYS + 1 + own * PAIRS + other);
    }
}

#[test]
fn a_version_5_file_adds_a_pair_row_per_side() {
    let v1 = random_net(7);
    let w = pair_weights(&v1, 2 * PAIRS, |k| (k % 11) as f32 / 16.0 - 0.3);
    let bytes = file_from_floats(&w);
    assert_eq!(&bytes[..8], b"WUZINET5");
    assert_eq!(bytes.len(), file_bytes(ROWS5, HIDDEN));
    let net = Network::from_bytes(&bytes).expect("a version-5 file");
    assert_eq!(net.version(), 5);
    // Keys 5, 17, 40, 100: the side to move's patterns 0, 1, 3, 8 make the pair (8, 3), 39;
    // the other side's 5, 5, 4, 4 the pair (5, 5), 20. The file's rows 144 + 39 and
    // 144 + 78 + 20.
    let keys = [5, 17, 40, 100];
    assert_eq!(split_rows(keys), [KEYS + 1 + 39, KEYS + 1 + PAIRS + 20]);
    assert_eq!(
        net.cell_sum(Kernel::Scalar, keys),
        rows_sum(&w, &[5, 17, 40, 100, KEYS + 39, KEYS + PAIRS + 20])
    );
    // Every cell's rows: its two pairs, whatever its keys.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    for _ in 0..10_000 {
        let keys = [0; 4].map(|_| (rng.next_u32() % KEYS as u32) as u8);
        let joint = pair_row(keys) - KEYS - 1;
        assert_eq!(
            split_rows(keys),
            [KEYS + 1 + joint / PAIRS, KEYS + 1 + PAIRS + joint % PAIRS]
        );
    }
    // Another version's magic on a version-5 table is refused by its shape.
    for magic in [MAGIC, MAGIC4] {
        let mut wrong = bytes.clone();
        wrong[..8].copy_from_slice(&magic);
        assert!(matches!(
            Network::from_bytes(&wrong),
            Err(NetError::Shape { keys: 300, .. })
        ));
    }
    // Six summed rows must fit i16: a weight of 90 is refused in version 5 (it was read in
    // version 4, with five).
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
    let mut w = pair_weights(&v1, 2 * PAIRS, |k| (k % 11) as f32 / 16.0 - 0.3);
    let v5 = Network::from_bytes(&file_from_floats(&w)).expect("a version-5 file");
    let window = |code: usize| (code % 97) as f32 / 64.0 - 0.7;
    w.extend((0..WINDOW_CODES).map(window));
    let bytes = file_from_floats(&w);
    assert_eq!(&bytes[..8], b"WUZINET6");
    assert_eq!(bytes.len(), file_bytes(ROWS5, HIDDEN) + 4 * WINDOW_CODES);
    let net = Network::from_bytes(&bytes).expect("a version-6 file");
    assert_eq!(net.version(), 6);
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
    // The rest of the net is version 5's: the same cells, value and policy weights.
    assert_eq!(net.evaluate(&board), v5.evaluate(&board));
    let cell = net.cell_at(Kernel::Scalar, &board, p, Color::Black);
    assert_eq!(net.policy(&cell), v5.policy(&cell));
    assert_eq!(v5.window_logit(&board, p, Color::Black), 0);
    // Cut short: refused by its length; a version-5 magic on it: by its length too.
    assert_refused_by_length(&bytes, MAGIC5);
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
fn a_version_7_file_convolves_the_policys_input() {
    let v1 = random_net(11);
    let mut w = pair_weights(&v1, 2 * PAIRS, |k| (k % 13) as f32 / 16.0 - 0.35);
    w.extend((0..WINDOW_CODES).map(|c| (c % 89) as f32 / 64.0 - 0.6));
    let v6 = Network::from_bytes(&file_from_floats(&w)).expect("a version-6 file");
    // A file whose lanes each have `kernel(lane, tap)` and `bias(lane)`.
    let file = |kernel: &dyn Fn(usize, usize) -> f32, bias: &dyn Fn(usize) -> f32| {
        let mut w7 = w.clone();
        for i in 0..FEATURES {
            w7.extend((0..CONV_TAPS).map(|t| kernel(i, t)));
        }
        w7.extend((0..FEATURES).map(bias));
        w7
    };
    let mut board = Board::new(15, crate::types::Rule::Freestyle);
    for (x, y) in [(7, 7), (8, 9), (9, 7), (6, 8), (0, 3), (1, 4)] {
        board.make(Pos::new(x, y));
    }
    let me = board.to_move();
    let empty: Vec<Pos> = board.cells().iter().copied().filter(|&p| board.is_empty(p)).collect();
    // The identity: the policy's input is the cell's vector, and the net is version 6's.
    let centre = |_: usize, t: usize| if t == CONV_TAPS / 2 { 1.0 } else { 0.0 };
    let bytes = file_from_floats(&file(&centre, &|_| 0.0));
    assert_eq!(&bytes[..8], b"WUZINET7");
    assert_eq!(
        bytes.len(),
        file_bytes(ROWS5, HIDDEN) + 4 * WINDOW_CODES + 4 * (CONV_TAPS + 1) * FEATURES
    );
    let net = Network::from_bytes(&bytes).expect("a version-7 file");
    assert_eq!((net.version(), net.convolves(), v6.convolves()), (7, true, false));
    let acc = Accumulator::new(&net, &board);
    let acc6 = Accumulator::new(&v6, &board);
    assert_eq!(net.evaluate(&board), v6.evaluate(&board));
    for &p in &empty {
        assert_eq!(acc.policy_input(&net, &board, me, p), acc.cell(me, p));
        assert_eq!(acc6.policy_input(&v6, &board, me, p), acc6.cell(me, p));
        assert_eq!(net.window_logit(&board, p, me), v6.window_logit(&board, p, me));
    }
    // Tap 3 (the middle row's first cell): the input is the vector of the cell at x - 1,
    // zero on the first column.
    let left = |_: usize, t: usize| if t == 3 { 1.0 } else { 0.0 };
    let net = Network::from_bytes(&file_from_floats(&file(&left, &|_| 0.0))).expect("a file");
    let acc = Accumulator::new(&net, &board);
    for &p in &empty {
        let want = if p.x() == 0 {
            [0; FEATURES]
        } else {
            acc.cell(me, Pos::new(p.x() - 1, p.y()))
        };
        assert_eq!(acc.policy_input(&net, &board, me, p), want, "{p:?}");
    }
    // Any kernel and bias the units hold exactly: within a unit (1/64, the rounding down) of
    // the convolution in floats.
    let kernel = |i: usize, t: usize| ((i * 7 + t * 5) % 17) as f32 / 8.0 - 0.875;
    let bias = |i: usize| (i % 5) as f32 / 16.0 - 0.25;
    let net = Network::from_bytes(&file_from_floats(&file(&kernel, &bias))).expect("a file");
    let acc = Accumulator::new(&net, &board);
    let mut lanes_inside = 0;
    for &p in &empty {
        let got = acc.policy_input(&net, &board, me, p);
        for i in 0..FEATURES {
            let mut y = bias(i);
            for t in 0..CONV_TAPS {
                let (qx, qy) = (p.x() as isize + t as isize % 3 - 1, p.y() as isize + t as isize / 3 - 1);
                if (0..15).contains(&qx) && (0..15).contains(&qy) {
                    let a = acc.cell(me, Pos::new(qx as usize, qy as usize))[i];
                    y += a as f32 / QUANT as f32 * kernel(i, t);
                }
            }
            let want = y.clamp(0.0, 1.0) * QUANT as f32;
            assert!((got[i] as f32 - want).abs() <= 1.0 + 1e-3, "{p:?} lane {i}: {} against {want}", got[i]);
            lanes_inside += usize::from(want > 0.5 && want < QUANT as f32 - 0.5);
        }
    }
    assert!(lanes_inside > 100, "the test should reach the unclipped range: {lanes_inside}");
    // A kernel weight beyond i16 at 1/64, or a bias beyond 1,000, is refused by its index;
    // cut short, or with version 6's magic, by its length.
    let mut big = file(&centre, &|_| 0.0);
    let at = w.len() + 5;
    big[at] = 600.0;
    assert!(matches!(
        Network::from_bytes(&file_from_floats(&big)),
        Err(NetError::Weight { index, .. }) if index == at
    ));
    let mut big = file(&centre, &|_| 0.0);
    let last = big.len() - 1;
    big[last] = 2000.0;
    assert!(matches!(
        Network::from_bytes(&file_from_floats(&big)),
        Err(NetError::Weight { index, .. }) if index == last
    ));
    assert_refused_by_length(&bytes, MAGIC6);
}

/// The file `bytes` cut short, and under the magic of the version before it, are both
/// refused by their length.
fn assert_refused_by_length(bytes: &[u8], magic_before: [u8; 8]) {
    assert!(matches!(
        Network::from_bytes(&bytes[..bytes.len() - 8]),
        Err(NetError::Length { .. })
    ));
    let mut wrong = bytes.to_vec();
    wrong[..8].copy_from_slice(&magic_before);
    assert!(matches!(
        Network::from_bytes(&wrong),
        Err(NetError::Length { .. })
    ));
}

#[test]
fn files_of_other_versions_are_refused() {
    // The window nets (versions 2 and 3) were dropped: their files are refused by name.
    for magic in [b"WUZINET2", b"WUZINET3"] {
        let mut bytes = random_net(4);
        bytes[..8].copy_from_slice(magic);
        assert_eq!(Network::from_bytes(&bytes).unwrap_err(), NetError::Magic);
    }
}

#[test]
fn the_kernels_agree_on_every_key() {
    let kernel = crate::simd::best();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let nets = [
        random_net(2),
        random_net(3),
        random_net4(2),
        random_net4(3),
        random_net5(2),
        random_net5(3),
    ];
    for net in nets {
        let net = Network::from_bytes(&net).expect("net");
        for _ in 0..20_000 {
            // A stone's keys are all KEYS; an empty cell's are below it.
            let keys = if rng.next_u32() % 50 == 0 {
                [KEYS as u8; 4]
            } else {
                [0; 4].map(|_| (rng.next_u32() % KEYS as u32) as u8)
            };
            assert_eq!(
                net.cell(kernel, keys),
                net.cell(Kernel::Scalar, keys),
                "{keys:?}"
            );
            assert_eq!(
                net.cell_sum(kernel, keys),
                net.cell_sum(Kernel::Scalar, keys)
            );
            // A change of one key: both kernels, and the same as summing the new keys.
            let d = rng.next_u32() as usize % 4;
            let mut new = keys;
            new[d] = (rng.next_u32() % KEYS as u32) as u8;
            if keys[0] == KEYS as u8 {
                continue;
            }
            let mut sums = [[0i32; FEATURES]; 2];
            let mut cells = [net.cell_sum(Kernel::Scalar, keys); 2];
            for (k, kernel) in [Kernel::Scalar, kernel].into_iter().enumerate() {
                net.change(kernel, &mut cells[k], &mut sums[k], keys, new, d);
            }
            assert_eq!(cells[0], cells[1]);
            assert_eq!(sums[0], sums[1]);
            assert_eq!(cells[0], net.cell_sum(Kernel::Scalar, new));
            let (a, b) = (clip(&net.cell_sum(Kernel::Scalar, keys)), clip(&cells[0]));
            let delta: [i32; FEATURES] = std::array::from_fn(|i| b[i] as i32 - a[i] as i32);
            assert_eq!(sums[0], delta);
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

/// The convolution gives the same bits with either kernel: random kernels over the whole
/// range a file may hold, random biases, and random cell sums (clipped inside, so negative
/// and large sums too), with enough small weights that most lanes land inside the clip.
#[test]
fn the_convolution_kernels_agree() {
    let kernel = crate::simd::best();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let mut draw = |range: u32| (rng.next_u32() % (2 * range + 1)) as i32 - range as i32;
    let mut inside = 0;
    for round in 0..20_000 {
        // Full-range weights in one round of four; otherwise up to 1.0 (64 units).
        let (w, b) = if round % 4 == 0 {
            (i16::MAX as u32 - QUANT as u32, (CONV_BIAS_LIMIT * (QUANT * QUANT) as f32) as u32)
        } else {
            (QUANT as u32, (QUANT * QUANT) as u32)
        };
        let conv = Conv {
            kernel: [[0; FEATURES]; CONV_TAPS].map(|row| row.map(|_| draw(w) as i16)),
            bias: [0; FEATURES].map(|_| draw(b)),
        };
        let cells: [[i16; FEATURES]; CONV_TAPS] =
            std::array::from_fn(|_| [0; FEATURES].map(|_| draw(2 * QUANT as u32) as i16 + 32));
        let sums = std::array::from_fn(|t| &cells[t]);
        let got = kernels::convolve(kernel, &conv, sums);
        assert_eq!(got, kernels::convolve_scalar(&conv, sums), "round {round}");
        inside += got.iter().filter(|&&x| 0 < x && x < QUANT as i16).count();
    }
    assert!(inside > 100_000, "the test should reach the unclipped range: {inside}");
}
