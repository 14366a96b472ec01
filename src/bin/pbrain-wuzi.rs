//! `pbrain-wuzi`: the Gomocup brain. Reads manager commands on stdin, answers on stdout.
//!
//! A reader thread owns stdin so that `STOP`, `YXSTOP` and `END` reach a running search: it
//! raises the engine's stop flag at once and queues every line for the main thread, which
//! runs the [`Session`] and prints its answers, flushing after every line.

use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::Duration;
use wuzi::engine::{clock_seed, parse_random_margin};
use wuzi::protocol::{Flow, Options, Session};

/// How long `END` may wait for the main thread before the process exits anyway (the
/// protocol allows about a second).
const END_GRACE: Duration = Duration::from_millis(700);

/// Settings from the command line: `--set key=value` (the names of `search::Options::set`),
/// for matches between configurations, and `--vary N` (a random choice among moves within N
/// of the best, seeded from the clock), for play against people.
fn options_from_args() -> Result<Options, String> {
    const USAGE: &str = "usage: pbrain-wuzi [--set key=value]... [--vary N]";
    let mut opts = Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--set" => {
                let kv = args.next().ok_or("--set needs key=value")?;
                opts.search.set_pair(&kv)?;
            }
            "--vary" => {
                let n = args.next().ok_or("--vary needs a margin")?;
                opts.random_margin = parse_random_margin(&n).map_err(|e| format!("--vary {e}"))?;
                opts.seed = clock_seed();
            }
            _ => return Err(format!("unknown argument '{a}' ({USAGE})")),
        }
    }
    Ok(opts)
}

fn main() {
    let opts = options_from_args().unwrap_or_else(|e| {
        eprintln!("pbrain-wuzi: {e}");
        std::process::exit(2);
    });
    let mut session = Session::new(opts);
    let stop = session.stop_flag();
    let pending = session.pending_stops();
    let (tx, rx) = mpsc::channel::<String>();
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
            if tx.send(line).is_err() || is_end {
                break;
            }
        }
        // END or end of input: make sure the process goes away promptly even if the main
        // thread is busy.
        pending.fetch_add(1, Ordering::SeqCst);
        stop.store(true, Ordering::SeqCst);
        let _ = tx.send("END".to_string());
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
    while let Ok(line) = rx.recv() {
        if session.handle_line(&line, &mut print) == Flow::Quit {
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
