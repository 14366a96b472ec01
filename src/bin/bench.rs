//! `bench`: searches the fixed position set to a fixed depth and prints nodes, time, nodes
//! per second and the node-count signature.
//!
//! Usage: `bench [--depth D] [--threads T] [--hash MB] [--set key=value]...` (`--set` takes
//! the search options of `pbrain-wuzi --set`; any of them changes the signature).

use std::time::Duration;
use wuzi::benchmark;
use wuzi::engine::Config;

fn main() {
    const USAGE: &str = "usage: bench [--depth D] [--threads T] [--hash MB] [--set key=value]...";
    let mut depth = 14;
    let mut config = Config {
        threads: 1,
        hash_mb: 16,
        ..Config::default()
    };
    let mut sets = Vec::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let val = args.get(i + 1).and_then(|v| v.parse::<usize>().ok());
        match (args[i].as_str(), val) {
            ("--depth", Some(v)) => depth = v as i32,
            ("--threads", Some(v)) => config.threads = v.max(1),
            ("--hash", Some(v)) => config.hash_mb = v.max(1),
            ("--set", _) => {
                let kv = args.get(i + 1).map_or("", |s| s.as_str());
                if let Err(e) = config.search.set_pair(kv) {
                    eprintln!("bench: {e}");
                    std::process::exit(2);
                }
                sets.push(kv.to_string());
            }
            ("-h" | "--help", _) => {
                println!("{USAGE}");
                return;
            }
            (a, _) => {
                eprintln!("bench: bad argument '{a}' (try --help)");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    println!(
        "wuzi bench: depth {depth}, {} thread(s), {} MB hash{}",
        config.threads,
        config.hash_mb,
        if sets.is_empty() {
            String::new()
        } else {
            format!(", options {}", sets.join(" "))
        }
    );
    println!(
        "{:>3} {:>12} {:>10} {:>12} {:>6} {:>7}",
        "#", "nodes", "ms", "nodes/s", "move", "score"
    );
    let results = benchmark::run(depth, &config, &mut |i, r| {
        println!(
            "{:>3} {:>12} {:>10} {:>12} {:>6} {:>7}",
            i + 1,
            r.nodes,
            r.time.as_millis(),
            (r.nodes as f64 / r.time.as_secs_f64().max(1e-9)) as u64,
            r.best.to_string(),
            r.score
        );
    });
    let nodes: u64 = results.iter().map(|r| r.nodes).sum();
    let time: Duration = results.iter().map(|r| r.time).sum();
    println!("total nodes : {nodes}");
    println!("total time  : {} ms", time.as_millis());
    println!(
        "nodes/s     : {}",
        (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
    );
    println!("signature   : {:016x}", benchmark::signature(&results));
}
