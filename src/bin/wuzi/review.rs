//! `wuzi review`: where a game was decided. Reads a game record (SGF, Piskvork's `.psq` or
//! wuzi's text, as the prompt's `load` does) and prints, move by move as the solver checks
//! them, the blunders (a threat left standing that another move stops), the missed wins and
//! the first move of each side's lost stretch; then the game's first mistake. Of a file of
//! many games (a match runner's SGF), one game (`--game N`) or each in turn
//! (`--every-game`, with a count of whose move was each game's first mistake).

use crate::rule_parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use wuzi::record::GameRecord;
use wuzi::review::{review_game, Report, ReviewLimits, DEFAULT_SOLVE_MS, MAX_SOLVE_MS};
use wuzi::{Color, Rule};

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
    /// Review from this move number on (the moves before it are only played). By default
    /// the first move after the opening a match runner set up (c-gomoku-cli marks those
    /// moves in its SGF), else move 1.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    from: Option<u64>,
    /// Print every move, those with nothing to note too.
    #[arg(long)]
    all: bool,
    /// Of a file of many games (a match runner's SGF), review game N (from 1).
    #[arg(long, value_name = "N", default_value_t = 1, conflicts_with = "every_game",
          value_parser = clap::value_parser!(u64).range(1..))]
    game: u64,
    /// Review every game of the file, each under its own heading, then count whose move
    /// was each game's first mistake.
    #[arg(long)]
    every_game: bool,
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
    let games =
        GameRecord::read_all(&text, a.rule).map_err(|e| format!("cannot read {file}: {e}"))?;
    if !a.every_game {
        let n = a.game as usize;
        let rec = games
            .get(n - 1)
            .ok_or_else(|| format!("{file} holds {} game(s): there is no game {n}", games.len()))?;
        let of = match (games.len(), n) {
            (1, _) => String::new(),
            (k, 1) => format!(" (the first of its {k} games)"),
            (k, n) => format!(" (game {n} of {k})"),
        };
        review_one(a, rec, &format!("{file}{of}"))?;
        return Ok(());
    }
    // Whose move was each game's first mistake (by player name), and games with none.
    let mut first: Vec<(String, usize)> = Vec::new();
    let mut clean = 0;
    for (k, rec) in games.iter().enumerate() {
        if k > 0 {
            outln!();
        }
        match review_one(a, rec, &format!("{file} game {}", k + 1))? {
            Some(name) => match first.iter_mut().find(|(n, _)| *n == name) {
                Some((_, c)) => *c += 1,
                None => first.push((name, 1)),
            },
            None => clean += 1,
        }
    }
    let counts: Vec<String> = first.iter().map(|(n, c)| format!("{n} {c}")).collect();
    outln!(
        "\n{} games; first mistake by player: {}; none found in {clean}",
        games.len(),
        if counts.is_empty() {
            "none".to_string()
        } else {
            counts.join(", ")
        }
    );
    Ok(())
}

/// Reviews one game under the heading `label`, printing its report; returns the name of
/// the player who made its first mistake, if any.
fn review_one(a: &Args, rec: &GameRecord, label: &str) -> Result<Option<String>, String> {
    outln!(
        "{label}: {} (black) against {} (white), {}, {}x{} {}, {} moves",
        rec.black,
        rec.white,
        rec.result.tag(),
        rec.size,
        rec.size,
        rec.rule.name(),
        rec.moves.len()
    );
    let from = match a.from {
        Some(n) => n as usize,
        None => {
            if rec.opening > 0 {
                outln!(
                    "moves 1 to {} are the opening the runner set up: not reviewed",
                    rec.opening
                );
            }
            rec.opening + 1
        }
    };
    let mut report = Report::new(rec.size, a.all);
    let limits = ReviewLimits {
        first: from,
        ..ReviewLimits::new(Duration::from_millis(a.ms))
    };
    review_game(rec.size, rec.rule, &rec.moves, &limits, &mut |m| {
        if let Some(line) = report.line(m) {
            outln!("{line}");
        }
    })
    .map_err(|e| format!("{label}: {e}"))?;
    outln!("{}", report.summary());
    Ok(report.first_mistake().map(|m| match m.mover {
        Color::Black => rec.black.clone(),
        Color::White => rec.white.clone(),
    }))
}
