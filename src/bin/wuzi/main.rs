//! `wuzi`: the engine's command line. With no subcommand it plays at the prompt (`play`);
//! `solve` runs the threat-space solver; `serve` the board in a browser; `datagen` makes
//! self-play training data and `features` the trainer's input from it; `openings` makes
//! balanced openings for matches and `match` plays one game pair between two engine
//! configurations from one of them; `db` looks after the position database; `review` finds
//! where a recorded game was decided. Each subcommand lives in its own file beside this
//! one, as an `Args` struct (its flags) and a `run` function (its work).
//!
//! Adding a subcommand: a file `NAME.rs` here with `pub struct Args` (`#[derive(clap::Args)]`,
//! its doc comment is the help text) and `pub fn run(args: Args) -> ExitCode`, then a
//! `mod NAME;`, a variant of [`Command`] and an arm in `main`.

#[macro_use]
mod out;

mod datagen;
mod db;
mod features;
mod r#match;
mod openings;
mod play;
mod review;
mod serve;
mod solve;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use wuzi::Rule;

/// A Gomoku and Renju engine: freestyle, standard, renju and caro rules.
///
/// With no subcommand, wuzi plays a game at the prompt, as `wuzi play` does.
#[derive(Parser)]
#[command(
    name = "wuzi",
    version,
    propagate_version = true,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The prompt's flags without `play` (`wuzi --db FILE`).
    #[command(flatten)]
    play: play::Args,
}

/// The subcommands. Each one's help is the doc comment of its `Args`, in its own file.
#[derive(Subcommand)]
enum Command {
    Play(play::Args),
    Solve(solve::Args),
    Serve(serve::Args),
    Datagen(datagen::Args),
    Features(features::Args),
    Openings(openings::Args),
    Match(r#match::Args),
    Db(db::Args),
    Review(review::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Play(cli.play)) {
        Command::Play(args) => play::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Datagen(args) => datagen::run(args),
        Command::Features(args) => features::run(args),
        Command::Openings(args) => openings::run(args),
        Command::Match(args) => r#match::run(args),
        Command::Db(args) => db::run(args),
        Command::Review(args) => review::run(args),
    }
}

/// The `--rule` value of the subcommands: rule names as the prompt and the data files spell
/// them, checked by clap (which lists them in the help and in its error).
fn rule_parser() -> impl TypedValueParser<Value = Rule> {
    PossibleValuesParser::new(Rule::ALL.map(Rule::name))
        .try_map(|s| Rule::parse(&s).ok_or_else(|| format!("unknown rule '{s}'")))
}
