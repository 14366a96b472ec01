//! A whole game through the library's API alone: three scripted opening moves, then the
//! engine plays both sides until a five, a forbidden point or a full board. Node budgets
//! make every run the same game on every machine.
//!
//! It needs none of the front ends: `cargo run --example game --no-default-features`.

use std::error::Error;
use wuzi::notation::format_h8;
use wuzi::{Engine, GameStatus, Level, Limits, Pos, Rule};

fn main() -> Result<(), Box<dyn Error>> {
    let size = 15;
    let mut engine = Engine::new(size, Rule::Renju)?;
    // A scripted opening (the center and two stones beside it), checked as any move is.
    for p in [Pos::new(7, 7), Pos::new(8, 6), Pos::new(8, 8)] {
        engine.play(p)?;
    }
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let mut status = engine.status();
    while status == GameStatus::Ongoing {
        let mover = engine.board().to_move();
        let outcome = engine.think(Level::Full, &limits, &mut |_| {});
        if outcome.best.is_none() {
            println!("{mover} has no legal move");
            break;
        }
        status = engine.play(outcome.best)?;
        println!(
            "{:>3}. {mover} {:<4} score {}",
            engine.board().ply(),
            format_h8(outcome.best, size),
            outcome.score
        );
    }
    let moves: Vec<String> = engine
        .board()
        .moves()
        .iter()
        .map(|&p| format_h8(p, size))
        .collect();
    println!("{}", moves.join(" "));
    match status {
        GameStatus::Five { winner } => println!("{winner} wins with five in a row"),
        GameStatus::Forbidden { winner } => {
            println!("black played a forbidden point: {winner} wins")
        }
        GameStatus::Draw => println!("the board is full: a draw"),
        GameStatus::Ongoing => println!("the game stopped unfinished"),
    }
    Ok(())
}
