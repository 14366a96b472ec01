//! `wuzi features`: self-play shards into the trainer's input records
//! (`wuzi::datagen::features`).

use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use wuzi::datagen::{features, format, EXTENSION};

/// Turn self-play shards into the trainer's input: one record per searched position (the
/// line-pattern keys of every cell for the side to move, the best move, the score and the
/// game's result), in one file (docs/training.md).
#[derive(clap::Args)]
pub struct Args {
    /// The feature file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Shards (.wzd files), or directories of them.
    #[arg(required = true, value_name = "SHARDS")]
    inputs: Vec<PathBuf>,
}

/// Runs the subcommand: exit 0 when the file is written, 2 on an error.
pub fn run(args: Args) -> ExitCode {
    match write(&args) {
        Ok((games, records, bad)) => {
            outln!(
                "{records} positions from {games} games written to {}{}",
                args.out.display(),
                if bad > 0 {
                    format!(" ({bad} unreadable shards skipped)")
                } else {
                    String::new()
                }
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("wuzi features: {e}");
            ExitCode::from(2)
        }
    }
}

/// The shards named by `inputs`, directories read for their `.wzd` files, in name order.
fn shard_paths(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut paths = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let dir = std::fs::read_dir(input).map_err(|e| format!("{}: {e}", input.display()))?;
            let mut found: Vec<PathBuf> = dir
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == EXTENSION))
                .collect();
            found.sort();
            paths.extend(found);
        } else {
            paths.push(input.clone());
        }
    }
    if paths.is_empty() {
        return Err("no shard found".into());
    }
    Ok(paths)
}

/// Writes the file; returns games, records and shards skipped as unreadable. The records go
/// to a file beside it (`FILE.partial`) that replaces it only when complete: an error
/// leaves an older file of that name as it was, and removes the unfinished one.
fn write(args: &Args) -> Result<(usize, u32, usize), String> {
    let paths = shard_paths(&args.inputs)?;
    let mut partial = args.out.clone().into_os_string();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let done = write_shards(&partial, paths).and_then(|counts| {
        std::fs::rename(&partial, &args.out)
            .map(|()| counts)
            .map_err(|e| format!("{}: {e}", args.out.display()))
    });
    if done.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    done
}

/// Writes the records of `paths` to the file `out`, a shard at a time (a version-3 record
/// is 2.7 kB on 15x15: a million positions would not sit well in memory).
fn write_shards(out: &Path, paths: Vec<PathBuf>) -> Result<(usize, u32, usize), String> {
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    let mut file = std::io::BufWriter::new(std::fs::File::create(out).map_err(|e| io(out, e))?);
    // The header's size and count are written once known.
    file.write_all(&[0; features::HEADER_BYTES])
        .map_err(|e| io(out, e))?;
    let mut size = None;
    let mut body = Vec::new();
    let (mut games, mut records, mut bad) = (0, 0u32, 0);
    for path in paths {
        let shard = match std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|b| format::read_shard(&b).map_err(|e| e.to_string()))
        {
            Ok(g) => g,
            Err(e) => {
                eprintln!("wuzi features: {}: {e}; skipped", path.display());
                bad += 1;
                continue;
            }
        };
        for game in &shard {
            if *size.get_or_insert(game.size) != game.size {
                return Err(format!(
                    "{}: a {}x{} game among {}x{} ones: one file holds one board size",
                    path.display(),
                    game.size,
                    game.size,
                    size.unwrap_or(0),
                    size.unwrap_or(0)
                ));
            }
            records += features::write_game(game, &mut body) as u32;
            games += 1;
        }
        file.write_all(&body).map_err(|e| io(out, e))?;
        body.clear();
    }
    let size = size.ok_or("the shards hold no game")?;
    let mut file = file.into_inner().map_err(|e| io(out, e.into_error()))?;
    file.seek(std::io::SeekFrom::Start(0))
        .and_then(|_| file.write_all(&features::header(size, records)))
        .map_err(|e| io(out, e))?;
    Ok((games, records, bad))
}
