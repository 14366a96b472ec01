//! `wuzi db`: the position database's counts, export, import and pruning (docs/db.md).

use clap::Subcommand;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use wuzi::db::export::PruneRule;
use wuzi::db::Db;

/// Look after a position database (the file of `--db`): counts, export and import of its
/// records as JSON lines, pruning (docs/db.md).
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand)]
enum Action {
    /// Counts: positions, proven, searched, games, file size.
    Stats {
        /// The database file.
        file: PathBuf,
    },
    /// Every record as one JSON line (to stdout, or --out).
    Export {
        /// The database file.
        file: PathBuf,
        /// Write to this file instead of stdout.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Merge JSON lines (as export writes them) into the database: outcomes add up, a
    /// shorter proof and a deeper search replace the stored ones.
    Import {
        /// The database file (created if missing).
        file: PathBuf,
        /// The lines to read (`-`: stdin).
        input: PathBuf,
    },
    /// Remove positions that teach little: kept are those with a proof, a search at least
    /// --min-depth deep, or at least --min-games games the last within --days days.
    Prune {
        /// The database file.
        file: PathBuf,
        /// Keep positions played in at least this many games.
        #[arg(long, default_value_t = 2)]
        min_games: u32,
        /// ...whose last game is at most this many days old (0: any age).
        #[arg(long, default_value_t = 0)]
        days: u64,
        /// Keep positions searched at least this deep.
        #[arg(long, default_value_t = 12)]
        min_depth: u8,
        /// Remove proven positions too, unless another rule keeps them.
        #[arg(long)]
        drop_proven: bool,
    },
}

/// Runs the subcommand: exit 0 on success, 2 on an error (with its message).
pub fn run(args: Args) -> ExitCode {
    match act(args.action) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wuzi db: {e}");
            ExitCode::from(2)
        }
    }
}

fn act(action: Action) -> Result<(), String> {
    let open = |file: &PathBuf| Db::open(file).map_err(|e| e.to_string());
    match action {
        Action::Stats { file } => {
            if !file.exists() {
                return Err(format!("{}: no such file", file.display()));
            }
            let s = open(&file)?.stats().map_err(|e| e.to_string())?;
            outln!(
                "positions {}\nproven {}\nsearched {}\ngames {}\nbytes {}",
                s.positions,
                s.proven,
                s.searched,
                s.games,
                s.bytes
            );
        }
        Action::Export { file, out } => {
            if !file.exists() {
                return Err(format!("{}: no such file", file.display()));
            }
            let db = open(&file)?;
            let n = match out {
                Some(path) => {
                    let f = std::fs::File::create(&path)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    let mut w = std::io::BufWriter::new(f);
                    let n = db.export(&mut w).map_err(|e| e.to_string())?;
                    w.flush().map_err(|e| format!("{}: {e}", path.display()))?;
                    n
                }
                None => {
                    let stdout = std::io::stdout();
                    let mut w = std::io::BufWriter::new(stdout.lock());
                    let n = db.export(&mut w).map_err(|e| e.to_string())?;
                    w.flush().map_err(|e| e.to_string())?;
                    n
                }
            };
            eprintln!("{n} positions exported");
        }
        Action::Import { file, input } => {
            let mut text = String::new();
            if input.as_os_str() == "-" {
                std::io::stdin()
                    .read_to_string(&mut text)
                    .map_err(|e| format!("stdin: {e}"))?;
            } else {
                text = std::fs::read_to_string(&input)
                    .map_err(|e| format!("{}: {e}", input.display()))?;
            }
            let n = open(&file)?
                .import(&text)
                .map_err(|e| format!("{}: {e}", input.display()))?;
            outln!("{n} positions imported");
        }
        Action::Prune {
            file,
            min_games,
            days,
            min_depth,
            drop_proven,
        } => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let rule = PruneRule {
                keep_proven: !drop_proven,
                min_depth,
                min_games,
                since: if days == 0 {
                    0
                } else {
                    now.saturating_sub(days * 86_400)
                },
            };
            let n = open(&file)?.prune(rule).map_err(|e| e.to_string())?;
            outln!("{n} positions removed");
        }
    }
    Ok(())
}
