//! `wuzi review`: where a game was decided. Reads a game record (SGF, Piskvork's `.psq` or
//! wuzi's text, as the prompt's `load` does) and prints, move by move as the solver checks
//! them, the blunders (a threat left standing that another move stops), the missed wins and
//! the first move of each side's lost stretch; then the game's first mistake.

use crate::rule_parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use wuzi::record::GameRecord;
use wuzi::review::{review_game, Report, ReviewLimits, DEFAULT_SOLVE_MS, MAX_SOLVE_MS};
use wuzi::Rule;

/// Find where a game was decided: the blunders, missed wins and lost stretches of a game
/// record, by the threat solver.
///
/// For each move: did the mover have a forced win (by fours, or fours and threes) that the
/// move let go? Did the opponent threaten one that the move left standing, while another
/// move was proven to stop it (a blunder), or when none could (the game was already lost)?
/// Each solve stops after --ms milliseconds; a threat the solver cannot find in that time
/// is not reported. The file is an SGF, a Piskvork .psq or wuzi's text record (the prompt's
/// `save` writes one).
#[derive(clap::Args)]
pub struct Args {
    /// The game record.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The rule of a record that names none (a .psq never does).
    #[arg(long, value_name = "R", default_value = "freestyle", ignore_case = true,
          value_parser = rule_parser())]
    rule: Rule,
    /// Time limit of each solve, in milliseconds.
    #[arg(long, value_name = "T", default_value_t = DEFAULT_SOLVE_MS,
          value_parser = clap::value_parser!(u64).range(1..=MAX_SOLVE_MS))]
    ms: u64,
    /// Review from this move number on (the moves before it are only played).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    from: u64,
    /// Print every move, those with nothing to note too.
    #[arg(long)]
    all: bool,
}

/// Runs the subcommand; an unreadable or bad record gives a message and exit 2.
pub fn run(args: Args) -> ExitCode {
    match review_command(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wuzi review: {e}");
            ExitCode::from(2)
        }
    }
}

fn review_command(a: &Args) -> Result<(), String> {
    let file = a.file.display();
    let text = std::fs::read_to_string(&a.file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let (rec, games) =
        GameRecord::read_any(&text, a.rule).map_err(|e| format!("cannot read {file}: {e}"))?;
    let of = if games > 1 {
        format!(" (the first of its {games} games)")
    } else {
        String::new()
    };
    println!(
        "{file}{of}: {} (black) against {} (white), {}, {}x{} {}, {} moves",
        rec.black,
        rec.white,
        rec.result.tag(),
        rec.size,
        rec.size,
        rec.rule.name(),
        rec.moves.len()
    );
    let mut report = Report::new(rec.size, a.all);
    let limits = ReviewLimits {
        first: a.from as usize,
        ..ReviewLimits::new(Duration::from_millis(a.ms))
    };
    review_game(rec.size, rec.rule, &rec.moves, &limits, &mut |m| {
        if let Some(line) = report.line(m) {
            println!("{line}");
        }
    })
    .map_err(|e| format!("{file}: {e}"))?;
    println!("{}", report.summary());
    Ok(())
}
