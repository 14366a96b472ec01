//! The learned evaluation in the search (`Config::eval`): with a net (random weights here)
//! the engine still plays legal moves, takes a five and blocks one; its incremental inputs
//! are checked against a recomputation at every make and undo of the dev profile's search.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;
use wuzi::engine::{Config, Engine, GameStatus, Level};
use wuzi::eval::net::{file_from_floats, Network, WEIGHTS};
use wuzi::notation::parse_move_list;
use wuzi::{Limits, Pos, Rule};

fn random_net(seed: u64) -> Arc<Network> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let w: Vec<f32> = (0..WEIGHTS)
        .map(|_| rng.next_u32() as f32 / u32::MAX as f32 - 0.5)
        .collect();
    Arc::new(Network::from_bytes(&file_from_floats(&w)).expect("a net"))
}

fn engine(rule: Rule, moves: &str, seed: u64) -> Engine {
    let config = Config {
        eval: wuzi::eval::Evaluation::Net(random_net(seed)),
        ..Config::default()
    };
    let mut e = Engine::with_config(15, rule, config).expect("15x15");
    e.set_position(&parse_move_list(moves).expect("moves"))
        .expect("a position");
    e
}

fn think(e: &mut Engine) -> Pos {
    let limits = Limits {
        nodes: Some(1_500),
        ..Limits::default()
    };
    e.think(Level::Full, &limits, &mut |_| {}).best
}

#[test]
fn a_net_engine_takes_and_blocks_fives() {
    // Black 7,7..10,7: black to move takes the five; white to move blocks at 6,7 or 11,7.
    for seed in [1, 2, 3] {
        let mut e = engine(Rule::Freestyle, "7,7 7,8 8,7 8,8 9,7 9,8 10,7 0,0", seed);
        let p = think(&mut e);
        assert!(p == Pos::new(6, 7) || p == Pos::new(11, 7), "{p}");
        let mut e = engine(Rule::Freestyle, "7,7 7,8 8,7 8,8 9,7 9,8 10,7", seed);
        let p = think(&mut e);
        assert!(p == Pos::new(6, 7) || p == Pos::new(11, 7), "{p}");
    }
}

#[test]
fn a_net_engine_plays_legal_games() {
    for (rule, seed) in [
        (Rule::Freestyle, 1),
        (Rule::Renju, 1),
        (Rule::Freestyle, 2),
        (Rule::Renju, 2),
        (Rule::Freestyle, 3),
    ] {
        let mut e = engine(rule, "7,7", seed);
        for _ in 0..8 {
            let p = think(&mut e);
            match e.play(p) {
                Ok(GameStatus::Ongoing) => {}
                Ok(_) => break,
                Err(err) => panic!("{rule:?}: {p} refused: {err}"),
            }
        }
    }
}
