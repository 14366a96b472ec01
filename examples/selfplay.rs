//! In-process A/B match between two engine configurations over the Piskvork openings,
//! both colours per opening. Usage:
//! `selfplay MS_PER_MOVE [N_OPENINGS] [A-flags] -- [B-flags]` (`nN` instead of a time: N
//! nodes a move), flags: the search parameters as `key=value` (`leaf=N root=N ...`, the keys
//! of `search::Params`), `threads=N`, `soft=PERCENT`, `net=FILE` (the learned evaluation
//! from a net file instead of the classical one). Needs the feature `tuning`:
//! `cargo run --release --features tuning --example selfplay -- ...`.
use std::time::Duration;
use wuzi::engine::{Config, Engine, GameStatus, Level};
use wuzi::suite::load_suite;
use wuzi::{Color, Limits, Rule};

fn config(flags: &[String]) -> Config {
    let mut c = Config::default();
    for f in flags {
        let (k, v) = f.split_once('=').expect("flag k=v");
        if k == "net" {
            let bytes = std::fs::read(v).unwrap_or_else(|e| panic!("{v}: {e}"));
            let net =
                wuzi::eval::net::Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{v}: {e}"));
            c.net = Some(std::sync::Arc::new(net));
            continue;
        }
        let v: i64 = v.parse().expect("number");
        match k {
            "soft" => {} // read by `limits`
            "threads" => c.threads = v as usize,
            _ => c.params.set(k, v).unwrap_or_else(|e| panic!("{e}")),
        }
    }
    c
}

/// Per-move limits: `ms` hard (or `nodes`), soft at the `soft=` percentage (default 60).
fn limits(flags: &[String], ms: u64, nodes: Option<u64>) -> Limits {
    let soft = flags
        .iter()
        .find_map(|f| f.strip_prefix("soft="))
        .map_or(60, |v| v.parse::<u64>().expect("number"));
    Limits {
        soft_time: Some(Duration::from_millis(ms * soft / 100)),
        hard_time: Some(Duration::from_millis(ms)),
        nodes,
        ..Default::default()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `MS` per move, or `nN` for N nodes per move (independent of machine load).
    let (ms, nodes) = match args[0].strip_prefix('n') {
        Some(n) => (60_000, Some(n.parse::<u64>().unwrap())),
        None => (args[0].parse().unwrap(), None),
    };
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(40);
    let sep = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let a_flags = args[2.min(sep)..sep].to_vec();
    let b_flags = args.get(sep + 1..).map(|s| s.to_vec()).unwrap_or_default();
    let rows = load_suite(std::path::Path::new(
        "tests/data/openings/freestyle15_piskvork_openings.tsv",
    ))
    .unwrap();
    let (lim_a, lim_b) = (limits(&a_flags, ms, nodes), limits(&b_flags, ms, nodes));
    let (mut a_pts, mut games) = (0.0, 0);
    for row in rows.iter().take(n) {
        for a_is_black in [true, false] {
            let mut a = Engine::with_config(15, Rule::Freestyle, config(&a_flags)).unwrap();
            let mut b = Engine::with_config(15, Rule::Freestyle, config(&b_flags)).unwrap();
            a.set_position(&row.moves).unwrap();
            b.set_position(&row.moves).unwrap();
            let status = loop {
                let to_move = a.board().to_move();
                let a_turn = (to_move == Color::Black) == a_is_black;
                let (e, lim) = if a_turn {
                    (&mut a, &lim_a)
                } else {
                    (&mut b, &lim_b)
                };
                let o = e.think(Level::Full, lim, &mut |_| {});
                if o.best.is_none() {
                    break GameStatus::Draw;
                }
                let s1 = a.play(o.best).expect("legal");
                b.play(o.best).expect("legal");
                if s1 != GameStatus::Ongoing {
                    break s1;
                }
            };
            let a_color = if a_is_black {
                Color::Black
            } else {
                Color::White
            };
            let pts = match status {
                GameStatus::Five { winner } | GameStatus::Forbidden { winner } => {
                    if winner == a_color {
                        1.0
                    } else {
                        0.0
                    }
                }
                _ => 0.5,
            };
            a_pts += pts;
            games += 1;
            eprintln!(
                "{} A as {}: {pts} ({} moves) running {a_pts}/{games}",
                row.id,
                a_color,
                a.board().ply()
            );
        }
    }
    println!(
        "A {a_flags:?} vs B {b_flags:?}: {a_pts}/{games} = {:.1}%",
        100.0 * a_pts / games as f64
    );
}
