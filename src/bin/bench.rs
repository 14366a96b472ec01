//! `bench`: searches the fixed position set to a fixed depth and prints nodes, time, nodes
//! per second and the node-count signature.

use clap::Parser;
use std::time::Duration;
use wuzi::benchmark;
use wuzi::engine::Config;

/// `wuzi`'s standard output (`outln!`), shared with the bench: a closed stdout ends it
/// quietly with status 141, any other failure to write is named (status 1).
#[macro_use]
#[path = "wuzi/out.rs"]
mod out;

/// Depth of the default run: about a second of search on one thread.
const DEFAULT_DEPTH: i32 = 14;

/// Searches wuzi's fixed bench positions to a fixed depth and prints nodes, time, nodes per
/// second and a signature of the node counts. The signature is the same on every machine
/// with one thread (the default); with more threads it varies from run to run, since the
/// helpers share the table as timing allows.
#[derive(Parser)]
#[command(version, about, long_about)]
struct Args {
    /// Search depth in plies (each position is searched to exactly this depth).
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=20))]
    depth: i32,
    /// Search threads; the signature is reproducible only with one.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// The evaluation: `default` (a built-in net where one plays, nets/README.md; the
    /// classical evaluation elsewhere), `classical`, or a net file (a change changes the
    /// signature).
    #[arg(long, value_name = "EVAL", default_value = "default",
          value_parser = wuzi::eval::Evaluation::from_arg)]
    eval: wuzi::eval::Evaluation,
    /// A search parameter as key=value (built with the feature `tuning`); changes the
    /// signature.
    #[cfg(feature = "tuning")]
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
}

fn main() {
    let args = Args::parse();
    let mut config = Config {
        threads: args.threads as usize,
        hash_mb: args.hash as usize,
        ..Config::default()
    };
    config.eval = args.eval;
    // The bench positions are 15x15, freestyle, standard and renju: each evaluation once,
    // with the rules it plays (standard shares freestyle's built-in net, renju has its own).
    let mut evals: Vec<(String, Vec<&str>)> = Vec::new();
    for (rule, name) in [
        (wuzi::Rule::Freestyle, "freestyle"),
        (wuzi::Rule::Standard, "standard"),
        (wuzi::Rule::Renju, "renju"),
    ] {
        let eval = config.eval.describe(15, rule);
        match evals.iter_mut().find(|(e, _)| *e == eval) {
            Some((_, rules)) => rules.push(name),
            None => evals.push((eval, vec![name])),
        }
    }
    let eval = match evals.as_slice() {
        [(eval, _)] => eval.clone(),
        _ => evals
            .iter()
            .map(|(eval, rules)| format!("{eval} ({})", rules.join(", ")))
            .collect::<Vec<_>>()
            .join(", "),
    };
    #[cfg(feature = "tuning")]
    for kv in &args.sets {
        if let Err(e) = config.params.set_pair(kv) {
            eprintln!("bench: {e}");
            std::process::exit(2);
        }
    }
    #[cfg(feature = "tuning")]
    let options = if args.sets.is_empty() {
        String::new()
    } else {
        format!(", parameters {}", args.sets.join(" "))
    };
    #[cfg(not(feature = "tuning"))]
    let options = "";
    let depth = args.depth;
    outln!(
        "wuzi bench: depth {depth}, {} thread(s), {} MB hash, evaluation {eval}{options}",
        config.threads,
        config.hash_mb,
    );
    outln!(
        "{:>3} {:>12} {:>10} {:>12} {:>6} {:>7}",
        "#",
        "nodes",
        "ms",
        "nodes/s",
        "move",
        "score"
    );
    let results = benchmark::run(depth, &config, &mut |i, r| {
        outln!(
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
    outln!("total nodes : {nodes}");
    outln!("total time  : {} ms", time.as_millis());
    outln!(
        "nodes/s     : {}",
        (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
    );
    outln!("signature   : {:016x}", benchmark::signature(&results));
}
