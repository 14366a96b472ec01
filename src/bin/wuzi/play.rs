//! `wuzi play` (and `wuzi` alone): play against the engine at a terminal prompt (or through
//! a pipe).

use std::io::IsTerminal;
use std::process::ExitCode;
use wuzi::prompt::input::{Editor, Input, Plain};
use wuzi::prompt::{Io, Prompt};

/// Play against the engine at a terminal prompt or through a pipe (the default).
///
/// Moves are typed as h8 or x,y; `help` at the prompt lists its commands. The rule, board
/// size, level and colours are set there too, not by flags.
#[derive(clap::Args, Default)]
pub struct Args {
    /// Learn from finished games in the position database FILE (created if missing; see
    /// docs/db.md); `db` at the prompt shows what it knows.
    #[arg(long, value_name = "FILE")]
    pub db: Option<std::path::PathBuf>,
    /// The evaluation: `default` (a built-in net where one plays, nets/README.md; the
    /// classical evaluation elsewhere), `classical`, or a net file (nets/).
    #[arg(long, value_name = "EVAL", value_parser = wuzi::eval::Evaluation::from_arg)]
    pub eval: Option<wuzi::eval::Evaluation>,
}

pub fn run(args: Args) -> ExitCode {
    let eval = args.eval.unwrap_or_default();
    let mut prompt = match Prompt::new() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("wuzi: {e}");
            return ExitCode::FAILURE;
        }
    };
    prompt.set_eval(eval);
    if let Some(path) = &args.db {
        match wuzi::db::Db::open(path) {
            Ok(db) => prompt.set_db(Some(db)),
            Err(e) => eprintln!("wuzi: database {e}; playing on without it"),
        }
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let err_tty = stderr.is_terminal();
    // Colour as clap decides it: on a terminal, unless NO_COLOR is set (or CLICOLOR_FORCE
    // asks for it anywhere). The stream passes the codes on, or strips any that slip by.
    let choice = anstream::AutoStream::choice(&stdout);
    let color = choice != anstream::ColorChoice::Never;
    let mut out = anstream::AutoStream::new(stdout.lock(), choice);
    let mut io = Io {
        out: &mut out,
        err: &mut stderr.lock(),
        err_tty,
        color,
    };
    // Ctrl-C during a think stops it (the engine plays its best move so far); a second
    // one quits. At the editor's prompt Ctrl-C is a key, which the prompt reads itself.
    let interrupt = prompt.interrupt();
    if let Err(e) = ctrlc::set_handler(move || {
        if interrupt.press() {
            std::process::exit(130);
        }
    }) {
        eprintln!("wuzi: Ctrl-C will quit at once: {e}");
    }
    // A line editor with history on a terminal; a pipe is read as it comes.
    let editor = (stdin.is_terminal() && std::io::stdout().is_terminal())
        .then(Editor::new)
        .and_then(Result::ok);
    let mut input: Box<dyn Input> = match editor {
        Some(e) => Box::new(e),
        None => Box::new(Plain(stdin.lock())),
    };
    match prompt.run(input.as_mut(), &mut io) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe on the other side is a normal way to leave.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wuzi: {e}");
            ExitCode::FAILURE
        }
    }
}
