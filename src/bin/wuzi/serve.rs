//! `wuzi serve`: the board in a browser. Starts the local web server (`wuzi::web`) and
//! prints its address; `--open` also opens it in the system's browser.

use std::io::Write;
use std::process::ExitCode;
use wuzi::web::{Options, Server};

/// Play and analyse in a web browser: starts a local web server and prints its address.
///
/// The page (embedded in the binary, works offline) plays every rule and board size, shows
/// the engine's search live, lists the best moves in analysis mode, and loads and saves
/// game records.
#[derive(clap::Args)]
pub struct Args {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on; the default keeps the board on this machine.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the system's browser as well.
    #[arg(long)]
    open: bool,
    /// Most searches at once (more are refused with "busy"); default: the number of cores.
    /// Each open event stream is a search, so this also caps the open streams.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    max_searches: Option<u32>,
    /// Most games kept (one per page); a new one lets go of the one idle longest.
    #[arg(long, default_value_t = wuzi::web::limits::MAX_GAMES as u32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_games: u32,
    /// Most games whose engines keep their 64 MB hash table between searches; a search
    /// beyond them frees the table of the game that searched longest ago.
    #[arg(long, default_value_t = wuzi::web::limits::MAX_TABLES as u32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_tables: u32,
    /// A game unused (no request, no search) for this many seconds is let go.
    #[arg(long, value_name = "SECONDS", default_value_t = wuzi::web::limits::IDLE.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    idle_seconds: u64,
    /// The largest request body, in KB (413 above it).
    #[arg(long, value_name = "KB", default_value_t = (wuzi::web::limits::BODY_LIMIT / 1024) as u32,
          value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_body_kb: u32,
    /// The evaluation: `default` (a built-in net where one plays, nets/README.md; the
    /// classical evaluation elsewhere), `classical`, or a net file (nets/).
    #[arg(long, value_name = "EVAL", default_value = "default",
          value_parser = wuzi::eval::Evaluation::from_arg)]
    eval: wuzi::eval::Evaluation,
    /// Every game consults the position database FILE and learns from it when it ends
    /// (created if missing; see docs/db.md).
    #[arg(long, value_name = "FILE")]
    db: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    let eval = args.eval;
    let db = match args.db.as_deref().map(wuzi::db::Db::open) {
        None => None,
        Some(Ok(db)) => Some(db),
        Some(Err(e)) => {
            eprintln!("wuzi serve: database {e}; serving on without it");
            None
        }
    };
    let mut options = Options {
        host: args.host,
        port: args.port,
        eval,
        db,
        max_games: args.max_games as usize,
        idle: std::time::Duration::from_secs(args.idle_seconds),
        max_body: args.max_body_kb as usize * 1024,
        max_tables: args.max_tables as usize,
        ..Options::default()
    };
    if let Some(n) = args.max_searches {
        options.max_searches = n as usize;
    }
    let server = match Server::start(&options) {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "wuzi serve: cannot listen on {}:{}: {e}",
                options.host, options.port
            );
            return ExitCode::FAILURE;
        }
    };
    let url = server.url();
    // The address is for whoever watches: with stdout closed the board is served all the
    // same (`outln!` would end the command).
    let _ = writeln!(
        std::io::stdout(),
        "wuzi serves the board at {url} (Ctrl-C to stop)"
    );
    if args.open && !open_browser(&url) {
        eprintln!("wuzi serve: found no browser to open; open {url} yourself");
    }
    match server.wait() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wuzi serve: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Asks the system to open `url`: the desktop's opener where there is one. Returns whether
/// one started.
fn open_browser(url: &str) -> bool {
    let openers: &[(&str, &[&str])] = if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else if cfg!(windows) {
        &[("cmd", &["/C", "start", ""])]
    } else {
        &[
            ("xdg-open", &[]),
            ("sensible-browser", &[]),
            ("x-www-browser", &[]),
        ]
    };
    openers.iter().any(|(program, pre)| {
        std::process::Command::new(program)
            .args(*pre)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .is_ok()
    })
}
