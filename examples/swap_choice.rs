//! Whether the engine's swap2 colour choices are right: the engine places a swap2 opening
//! (varying among near-balanced ones, a seed a game), the engine as second player takes the
//! colour it prefers, and the game is played out by the engine on both sides at a fixed
//! time a move. The side it chose should score at least half: prints the chosen side's
//! score with its Elo and a 95% interval.
//!
//! `cargo run --release --example swap_choice -- [GAMES] [MS_A_MOVE] [RULE] [FIRST]`, e.g.
//! `cargo run --release --example swap_choice -- 400 100 freestyle`. Game `k` plays with
//! seed `k + 1`; FIRST (0 by default) numbers the first game, so that two processes can
//! share a run (`200 100 freestyle 0` and `200 100 freestyle 200` play the games of one
//! run of 400) and their per-game lines be added up.

use std::error::Error;
use std::time::Duration;
use wuzi::engine::opening::{Action, Opening, OpeningRule};
use wuzi::{Engine, GameStatus, Level, Limits, Rule};

/// The engine's variety among near-balanced openings, in its evaluation's units.
const VARY: i32 = 60;
/// Nodes of each search behind an opening decision.
const DECIDE_NODES: u64 = 20_000;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(40);
    let ms: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let rule = args
        .get(2)
        .and_then(|s| Rule::parse(s))
        .unwrap_or(Rule::Freestyle);
    let first: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let size = 15;
    let decide = Limits {
        nodes: Some(DECIDE_NODES),
        ..Limits::default()
    };
    let play = Limits {
        soft_time: Some(Duration::from_millis(ms / 2)),
        hard_time: Some(Duration::from_millis(ms)),
        ..Limits::default()
    };
    let (mut points, mut squares) = (0.0f64, 0.0f64);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for seed in first..first + games {
        let mut engine = Engine::new(size, rule)?;
        engine.set_hash_mb(16);
        engine.set_seed(seed + 1);
        engine.set_random_margin(Some(VARY));
        let mut stage = Opening::new(OpeningRule::Swap2, size, rule)?;
        let mut chosen = None;
        while let Some(who) = stage.to_act() {
            let d = engine
                .opening_decision(&stage, &decide, &|| false)
                .ok_or("no decision")?;
            if let Action::Choose(c) = d.action {
                chosen = Some(c);
            }
            stage.apply(who, d.action)?;
        }
        let chosen = chosen.ok_or("no colour chosen")?;
        engine.set_random_margin(None);
        engine.set_position(stage.stones())?;
        let mut status = engine.status();
        while status == GameStatus::Ongoing {
            let out = engine.think(Level::Full, &play, &mut |_| {});
            if out.best.is_none() {
                status = GameStatus::Draw;
                break;
            }
            status = engine.play(out.best)?;
        }
        let score = match status {
            GameStatus::Five { winner } | GameStatus::Forbidden { winner } if winner == chosen => {
                wins += 1;
                1.0
            }
            GameStatus::Draw | GameStatus::Ongoing => {
                draws += 1;
                0.5
            }
            _ => {
                losses += 1;
                0.0
            }
        };
        points += score;
        squares += score * score;
        println!(
            "{seed:>4} chose {chosen} after {} stones: {score}",
            stage.stones().len()
        );
    }
    let n = games as f64;
    let mean = points / n;
    let sd = ((squares / n - mean * mean).max(0.0) / n).sqrt();
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    println!(
        "{rule} swap2, {games} games at {ms} ms a move: the chosen side +{wins} ={draws} -{losses}, \
         score {:.1}%, Elo {:+.0} (95%: {:+.0} to {:+.0})",
        100.0 * mean,
        elo(mean),
        elo(mean - 1.96 * sd),
        elo(mean + 1.96 * sd)
    );
    Ok(())
}
