//! Lists, for each row of a defence suite (a position, the move played in `non_answers`
//! that left the opponent's forced win standing), every move the review proves to stop
//! that win when each solve may take `MS` milliseconds: `suite_stops FILE MS`. Prints the
//! row's id, its listed answers and the proven stops as tab-separated `x,y` lists, and
//! the stops the row does not list. A row's answers are those of a review at some budget;
//! a larger one proves more of the stops (a solve that ran out proves nothing).
use std::time::Duration;
use wuzi::review::{review_game, Finding, ReviewLimits};
use wuzi::suite::{load_suite, PointSet};

fn list(ps: &[wuzi::Pos]) -> String {
    ps.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(ms)) = (args.get(1), args.get(2).and_then(|s| s.parse().ok())) else {
        eprintln!("usage: suite_stops FILE MS");
        std::process::exit(2);
    };
    let rows = load_suite(std::path::Path::new(path)).unwrap_or_else(|e| {
        eprintln!("suite_stops: {e}");
        std::process::exit(2)
    });
    for row in rows {
        let (PointSet::Points(answers), PointSet::Points(played)) =
            (&row.answers, &row.non_answers)
        else {
            eprintln!("{}: no listed answers or move played", row.id);
            continue;
        };
        let Some(&played) = played.first() else {
            eprintln!("{}: no move played", row.id);
            continue;
        };
        let mut moves = row.moves.clone();
        moves.push(played);
        let limits = ReviewLimits {
            first: moves.len(),
            ..ReviewLimits::new(Duration::from_millis(ms))
        };
        let reviews = match review_game(15, row.rule, &moves, &limits, &mut |_| {}) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{}: {e}", row.id);
                continue;
            }
        };
        let stops = match reviews.last().and_then(|r| r.finding.clone()) {
            Some(Finding::Blunder { stops, .. }) => stops,
            Some(f) => {
                println!("{}\t{}\t-\t({})", row.id, list(answers), f.tag());
                continue;
            }
            None => {
                println!("{}\t{}\t-\t(no finding)", row.id, list(answers));
                continue;
            }
        };
        let new: Vec<_> = stops
            .iter()
            .copied()
            .filter(|p| !answers.contains(p))
            .collect();
        println!(
            "{}\t{}\t{}\tnew: {}",
            row.id,
            list(answers),
            list(&stops),
            list(&new)
        );
    }
}
