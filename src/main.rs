//! `wuzi`: play against the engine at a terminal prompt (or through a pipe).

use std::io::IsTerminal;
use wuzi::prompt::{Io, Prompt};

fn main() {
    let mut prompt = match Prompt::new() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("wuzi: {e}");
            std::process::exit(1);
        }
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let err_tty = stderr.is_terminal();
    let mut io = Io {
        out: &mut stdout.lock(),
        err: &mut stderr.lock(),
        err_tty,
    };
    if let Err(e) = prompt.run(&mut stdin.lock(), &mut io) {
        // A closed pipe on the other side is a normal way to leave.
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("wuzi: {e}");
            std::process::exit(1);
        }
    }
}
