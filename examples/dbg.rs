//! Thinks on one position and prints each iteration: `dbg RULE "MOVES" [MS]`.
use std::time::{Duration, Instant};
use wuzi::engine::{Engine, Level};
use wuzi::{Limits, Rule};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule = Rule::parse(&args[1]).unwrap();
    let moves = wuzi::notation::parse_move_list(&args[2]).unwrap();
    let ms: u64 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(1000);
    let mut e = Engine::new(15, rule).unwrap();
    e.set_position(&moves).unwrap();
    let lim = Limits {
        soft_time: Some(Duration::from_millis(ms * 6 / 10)),
        hard_time: Some(Duration::from_millis(ms)),
        ..Default::default()
    };
    let t = Instant::now();
    let o = e.think(Level::Full, &lim, &mut |i| {
        println!(
            "{:?} d{} sd{} {} {} {:?}",
            t.elapsed(),
            i.depth,
            i.seldepth,
            i.score,
            i.nodes,
            i.pv.iter().map(|p| p.to_string()).collect::<Vec<_>>()
        )
    });
    println!(
        "best {} score {} depth {} nodes {} {:?}",
        o.best, o.score, o.depth, o.nodes, o.elapsed
    );
}
