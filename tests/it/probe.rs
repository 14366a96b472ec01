//! What a move would leave, told without making it (`Board::after`, `Board::hash_after`),
//! against the board after the move is made: over random games of
//! every rule but caro on several sizes, for every empty cell near the stones, with random
//! weights. The AVX2 kernel of `after` (where the CPU has it) must equal the scalar one.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use wuzi::board::{After, CountWeights};
use wuzi::threat::Threat;
use wuzi::types::{Color, Pos, Rule};
use wuzi::Board;

/// The weighted sum of a board's counts, and its deciding counts, as `After` reports them.
fn observed(b: &Board, w: &CountWeights) -> (i32, [u16; 2], [u16; 2], [u16; 2]) {
    let (counts, pcounts) = (b.threat_counts(), b.pattern_counts());
    let mut sum = 0;
    for side in 0..2 {
        let classes = w.class[side].iter().zip(&counts[side]);
        let patterns = w.pattern[side].iter().zip(&pcounts[side]);
        sum += classes.map(|(&k, &n)| k * n as i32).sum::<i32>();
        sum += patterns.map(|(&k, &n)| k * n as i32).sum::<i32>();
    }
    let of = |c: Color, t: Threat| b.count(c, t);
    let four = |c: Color| b.count_at_least(c, Threat::Block4) as u16;
    (
        sum,
        Color::ALL.map(|c| of(c, Threat::Five)),
        Color::ALL.map(|c| of(c, Threat::Flex4)),
        Color::ALL.map(four),
    )
}

fn random_weights(rng: &mut Xoshiro256PlusPlus) -> CountWeights {
    let mut w = CountWeights::default();
    for side in 0..2 {
        for k in 0..16 {
            w.class[side][k] = (rng.next_u32() % 2001) as i32 - 1000;
            w.pattern[side][k] = (rng.next_u32() % 401) as i32 - 200;
        }
    }
    w
}

/// One game on each rule and size (15, 19, 9), probing every sixth position.
#[test]
fn probes_match_the_made_move() {
    let probed = probe_games(1, 6);
    assert!(probed > 1_000, "only {probed} probes");
}

/// Two games on each rule and size, probing every third position.
#[test]
#[ignore = "long: twice the games, twice the probes a game"]
fn probes_match_the_made_move_in_more_games() {
    let probed = probe_games(2, 3);
    assert!(probed > 5_000, "only {probed} probes");
}

/// Plays `games` random games on each rule and size; at every `every`-th ply probes each
/// near empty cell against the board after the move is made. Returns the number of probes.
fn probe_games(games: usize, every: usize) -> usize {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20_261_125);
    let mut probed = 0;
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for size in [15, 19, 9] {
            for _game in 0..games {
                let mut b = Board::new(size, rule);
                let w = random_weights(&mut rng);
                for ply in 0..size * size / 3 {
                    let before = observed(&b, &w);
                    let near: Vec<Pos> = b
                        .cells()
                        .iter()
                        .copied()
                        .filter(|&p| b.is_empty(p) && (b.is_near(p) || b.stone_count() == 0))
                        .collect();
                    if near.is_empty() {
                        break;
                    }
                    // Not every position: the debug build rechecks the whole board per make.
                    for &p in near.iter().filter(|_| ply % every == 0) {
                        let a = b.after(p, &w);
                        assert_eq!(a, b.after_scalar(p, &w), "{rule:?} {size} {p}: kernels");
                        let hash = b.hash_after(p);
                        b.make(p);
                        let (sum, fives, flex4, fours) = observed(&b, &w);
                        let made = After {
                            change: sum - before.0,
                            fives,
                            flex4,
                            fours,
                        };
                        assert_eq!(a, made, "{rule:?} {size} {p}: after");
                        assert_eq!(hash, b.hash());
                        b.undo();
                        probed += 1;
                    }
                    // Play on: a random near cell (a five ends the game).
                    let p = near[rng.next_u32() as usize % near.len()];
                    if b.makes_five(p, b.to_move()) {
                        break;
                    }
                    b.make(p);
                }
            }
        }
    }
    probed
}
