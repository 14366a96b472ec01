//! `pbrain-wuzi`: the Gomocup brain. Reads manager commands on stdin, answers on stdout.
//!
//! A reader thread owns stdin so that `STOP`, `YXSTOP` and `END` reach a running search: it
//! raises the engine's stop flag at once and queues every line for the main thread, which
//! runs the [`Session`] and prints its answers, flushing after every line.

use clap::Parser;
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use wuzi::engine::{clock_seed, random_margin, MAX_RANDOM_MARGIN};
use wuzi::protocol::{DbChoice, Flow, Options, Session};

/// How long `END` may wait for the main thread before the process exits anyway (the
/// protocol allows about a second).
const END_GRACE: Duration = Duration::from_millis(700);

/// The Gomocup brain of wuzi: reads manager commands on stdin and answers on stdout.
///
/// The managers (Piskvork, c-gomoku-cli and others) start it with no arguments and speak
/// the Gomocup protocol (START, BEGIN, TURN, BOARD, INFO, END...). The flags are for
/// matches between configurations and for play against people.
#[derive(Parser)]
#[command(name = "pbrain-wuzi", version)]
struct Args {
    /// A search parameter as key=value (repeatable; built with the feature `tuning`), for
    /// matches between configurations.
    #[cfg(feature = "tuning")]
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Choose at random among moves within N centi-stones of the best (0 or off: never),
    /// seeded from the clock, for play against people.
    #[arg(long, value_name = "N", value_parser = margin)]
    vary: Option<Margin>,
    /// The evaluation: `default` (a built-in net where one plays, nets/README.md; the
    /// classical evaluation elsewhere), `classical`, or a net file (nets/);
    /// ABOUT names a net by its hash.
    #[arg(long, value_name = "EVAL", default_value = "default",
          value_parser = wuzi::eval::Evaluation::from_arg)]
    eval: wuzi::eval::Evaluation,
    /// Learn from finished games in the position database FILE (created if missing; see
    /// docs/db.md). Without FILE: wuzi.db in the folder the manager names (INFO folder).
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    db: Option<Option<std::path::PathBuf>>,
}

/// A `--vary` margin (`None`: off).
#[derive(Clone, Copy)]
struct Margin(Option<i32>);

/// Reads `--vary`: `0` or `off` (any case) for none, or 1 to [`MAX_RANDOM_MARGIN`].
fn margin(s: &str) -> Result<Margin, String> {
    if s.eq_ignore_ascii_case("off") {
        return Ok(Margin(None));
    }
    s.parse::<i64>()
        .ok()
        .and_then(|n| random_margin(n).ok())
        .map(Margin)
        .ok_or_else(|| format!("wants a margin from 0 to {MAX_RANDOM_MARGIN} or off, not '{s}'"))
}

/// The session's settings from the command line: `--set key=value` (the keys of
/// `search::Params::set`, feature `tuning`), `--eval` and `--vary N`.
fn options_from_args(args: &Args) -> Result<Options, String> {
    let mut opts = Options {
        eval: args.eval.clone(),
        ..Options::default()
    };
    #[cfg(feature = "tuning")]
    for kv in &args.sets {
        opts.params.set_pair(kv).map_err(|e| e.to_string())?;
    }
    opts.db = match &args.db {
        None => DbChoice::Off,
        Some(None) => DbChoice::Folder,
        Some(Some(p)) => DbChoice::File(p.clone()),
    };
    if let Some(Margin(m)) = args.vary {
        opts.random_margin = m;
        opts.seed = clock_seed();
    }
    Ok(opts)
}

fn main() {
    let opts = options_from_args(&Args::parse()).unwrap_or_else(|e| {
        eprintln!("pbrain-wuzi: {e}");
        std::process::exit(2);
    });
    let mut session = Session::new(opts);
    let stop = session.stop_flag();
    let pending = session.pending_stops();
    // Each line with the time it arrived: a turn's clock runs from then.
    let (tx, rx) = mpsc::channel::<(String, Instant)>();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        while let Some(line) = next_line(&mut lock) {
            let word = line.split_whitespace().next().unwrap_or("");
            let word = word.to_ascii_uppercase();
            let is_end = word == "END";
            if is_end || word == "STOP" || word == "YXSTOP" {
                // Count before queueing: the session uncounts when it handles the line.
                pending.fetch_add(1, Ordering::SeqCst);
                stop.store(true, Ordering::SeqCst);
            }
            if tx.send((line, Instant::now())).is_err() || is_end {
                break;
            }
        }
        // END or end of input: make sure the process goes away promptly even if the main
        // thread is busy.
        pending.fetch_add(1, Ordering::SeqCst);
        stop.store(true, Ordering::SeqCst);
        let _ = tx.send(("END".to_string(), Instant::now()));
        std::thread::sleep(END_GRACE);
        std::process::exit(0);
    });

    let stdout = std::io::stdout();
    let mut print = |s: &str| {
        let mut out = stdout.lock();
        // A closed stdout means the manager is gone; nothing useful is left to do.
        if writeln!(out, "{s}").and_then(|_| out.flush()).is_err() {
            std::process::exit(0);
        }
    };
    while let Ok((line, received)) = rx.recv() {
        if session.handle_line_at(&line, received, &mut print) == Flow::Quit {
            break;
        }
    }
}

/// The next line of `r`, ended by LF, CR or end of input (CR LF gives an extra empty line,
/// which the session ignores). Invalid UTF-8 is replaced, not fatal. `None` at the end.
fn next_line(r: &mut dyn BufRead) -> Option<String> {
    let mut line = Vec::new();
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buf.is_empty() {
            return (!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned());
        }
        match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                line.extend_from_slice(&buf[..i]);
                r.consume(i + 1);
                return Some(String::from_utf8_lossy(&line).into_owned());
            }
            None => {
                let n = buf.len();
                line.extend_from_slice(buf);
                r.consume(n);
            }
        }
    }
}
