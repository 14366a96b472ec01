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

/// A version-1 file's floats with `h` hidden units: those of `base` (16 units), and
/// `h - 16` more whose output weight is zero.
fn widened(base: &[u8], h: usize) -> Vec<u8> {
    let floats: Vec<f32> = base[20..base.len() - 4]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
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
    assert_eq!(wide.len(), file_bytes(48));
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
            expected: file_bytes(48),
            got: FILE_BYTES
        }
    );
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
    for net in [random_net(2), random_net(3)] {
        let net = Network::from_bytes(&net).expect("net");
        for _ in 0..20_000 {
            let keys = [0; 4].map(|_| (rng.next_u32() % (KEYS as u32 + 2)) as u8);
            assert_eq!(
                net.cell(kernel, keys),
                net.cell(Kernel::Scalar, keys),
                "{keys:?}"
            );
            assert_eq!(
                net.cell_sum(kernel, keys),
                net.cell_sum(Kernel::Scalar, keys)
            );
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
