//! `wuzi review`: where a game was decided. Reads a game record (SGF, Piskvork's `.psq` or
//! wuzi's text, as the prompt's `load` does) and prints, move by move as the solver checks
//! them, the blunders (a threat left standing that another move stops), the missed wins and
//! the first move of each side's lost stretch; then the game's first mistake.

use crate::rule_parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use wuzi::notation::format_h8;
use wuzi::record::GameRecord;
use wuzi::review::{review_game, Finding, MoveReview};
use wuzi::types::Pos;
use wuzi::{Color, Rule};

/// The longest time `--ms` gives one solve: a minute (a review solves a few times a move,
/// and many times where a threat must be stopped).
const MAX_MS: u64 = 60_000;
/// Most points of a line or of a list of stops printed.
const SHOWN: usize = 12;

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
    #[arg(long, value_name = "T", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(1..=MAX_MS))]
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
    let size = rec.size;
    // The first move of each side's stretch of lost positions is shown, not the rest.
    let mut lost = [false; 2];
    let reviews = review_game(
        size,
        rec.rule,
        &rec.moves,
        a.from as usize,
        Duration::from_millis(a.ms),
        &mut |m| {
            let side = m.mover.index();
            let show = match m.finding {
                Some(Finding::AlreadyLost { .. }) => !std::mem::replace(&mut lost[side], true),
                Some(_) => {
                    lost[side] = false;
                    true
                }
                None => {
                    lost[side] = false;
                    a.all
                }
            };
            if show {
                println!("{}", describe(m, size));
            }
        },
    )
    .map_err(|e| format!("{file}: {e}"))?;
    match reviews.iter().find(|m| m.is_mistake()) {
        Some(m) => println!(
            "first mistake: move {}, {} {} ({})",
            m.number,
            colour(m.mover),
            format_h8(m.played, size),
            kind(m)
        ),
        None => println!("no blunder or missed win within the solver's reach"),
    }
    Ok(())
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn kind(m: &MoveReview) -> &'static str {
    match m.finding {
        Some(Finding::MissedWin { by_fours: true, .. }) => "missed a win by fours",
        Some(Finding::MissedWin { .. }) => "missed a win by threats",
        Some(Finding::Blunder { .. }) => "blunder",
        Some(Finding::AlreadyLost { .. }) => "already lost",
        None => "nothing to note",
    }
}

/// Points in h8 notation, at most [`SHOWN`] of them.
fn points(ps: &[Pos], size: usize) -> String {
    let mut s: Vec<String> = ps.iter().take(SHOWN).map(|&p| format_h8(p, size)).collect();
    if ps.len() > SHOWN {
        s.push(format!("... ({} in all)", ps.len()));
    }
    s.join(" ")
}

/// One reviewed move as a line: number, mover, point, and what was found.
fn describe(m: &MoveReview, size: usize) -> String {
    let head = format!(
        "{:>4}. {} {}: {}",
        m.number,
        colour(m.mover),
        format_h8(m.played, size),
        kind(m)
    );
    let other = colour(!m.mover);
    match &m.finding {
        None => head,
        Some(Finding::MissedWin { line, .. }) => format!("{head}: {}", points(line, size)),
        Some(Finding::Blunder { line, stops }) => format!(
            "{head}: {other} wins by {}; {} move(s) would have stopped it: {}",
            points(line, size),
            stops.len(),
            points(stops, size)
        ),
        Some(Finding::AlreadyLost { line }) => {
            format!(
                "{head}: {other} wins by {}, and no move stops it",
                points(line, size)
            )
        }
    }
}
