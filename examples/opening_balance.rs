//! How even and how varied the opening stages the engine plays are: for an opening rule,
//! one engine plays the whole stage on both sides `COUNT` times in a row (varying its play,
//! as the front ends do by default, and keeping its record of the openings it placed from
//! stage to stage, as it does from game to game), and a deeper search of its own judges
//! each final position. Prints how many score within 100, 200 and 400 of even (for the side to move)
//! and how many positions differ up to the board's symmetries. Node budgets only: every
//! run gives the same figures on every machine and build profile.
//!
//! `cargo run --example opening_balance -- RULE [COUNT] [DECIDE_NODES] [JUDGE_NODES]
//! [nobook] [GAME]`, e.g. `cargo run --release --example opening_balance -- "soosorv 8" 100`;
//! `nobook` leaves the opening book out of the decisions (`Config::opening_book`); GAME is
//! the game rule the stages are played under (`freestyle`, `standard`, `renju`, `caro`,
//! `caro-standard`; renju by default, the rule of the RIF opening rules).

use std::error::Error;
use wuzi::engine::opening::{Opening, OpeningRule};
use wuzi::engine::Config;
use wuzi::notation::format_h8;
use wuzi::symmetry::Sym;
use wuzi::{Engine, Level, Limits, Pos, Rule};

/// The engine's variety among near-balanced choices, in its evaluation's units.
const VARY: i32 = 60;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rule: OpeningRule = args.first().map_or("swap2", |s| s.as_str()).parse()?;
    let arg = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (count, decide_nodes, judge_nodes) = (arg(1, 20), arg(2, 20_000), arg(3, 400_000));
    let size = 15;
    let extra = args.get(4..).unwrap_or_default();
    let game = match extra.iter().find(|a| a.as_str() != "nobook") {
        Some(name) => Rule::parse(name).ok_or_else(|| format!("unknown game rule '{name}'"))?,
        None => Rule::Renju,
    };
    let decide = Limits {
        nodes: Some(decide_nodes),
        ..Limits::default()
    };
    let judge = Limits {
        nodes: Some(judge_nodes),
        ..Limits::default()
    };
    let mut scores = Vec::new();
    let mut seen: Vec<Vec<(usize, usize)>> = Vec::new();
    let config = Config {
        opening_book: !extra.iter().any(|a| a == "nobook"),
        ..Config::default()
    };
    let mut engine = Engine::with_config(size, game, config)?;
    engine.set_seed(1);
    engine.set_random_margin(Some(VARY));
    for seed in 0..count {
        engine.new_game(size, game)?;
        let mut stage = Opening::new(rule, size, game)?;
        while let Some(who) = stage.to_act() {
            let d = engine
                .opening_decision(&stage, &decide, &|| false)
                .ok_or("no decision")?;
            stage.apply(who, d.action)?;
        }
        let mut judge_engine = Engine::new(size, game)?;
        judge_engine.set_position(stage.stones())?;
        let score = judge_engine.think(Level::Full, &judge, &mut |_| {}).score;
        let key = canonical(stage.stones(), size);
        let new = !seen.contains(&key);
        if new {
            seen.push(key);
        }
        let moves: Vec<String> = stage.stones().iter().map(|&p| format_h8(p, size)).collect();
        println!(
            "{seed:>4} {:<24} score {score:>6}{}",
            moves.join(" "),
            if new { "" } else { "  (seen)" }
        );
        scores.push(score);
    }
    let within = |w: i32| scores.iter().filter(|s| s.abs() <= w).count();
    println!(
        "{rule} ({game}): {count} stages, within 100: {}, within 200: {}, within 400: {}, \
         distinct up to symmetry: {}",
        within(100),
        within(200),
        within(400),
        seen.len()
    );
    Ok(())
}

/// The stones (colour by order) in the least of their eight orientations.
fn canonical(stones: &[Pos], size: usize) -> Vec<(usize, usize)> {
    Sym::ALL
        .iter()
        .map(|s| {
            let mut key: Vec<(usize, usize)> = stones
                .iter()
                .enumerate()
                .map(|(i, &p)| (i % 2, s.apply(p, size).index()))
                .collect();
            key.sort();
            key
        })
        .min()
        .unwrap_or_default()
}
