//! Front end: the Gomocup (Piskvork) brain protocol, with the Yixin-Board extensions.
//!
//! [`command`] turns a line into a [`Command`] without looking at any board; [`Session`]
//! checks it against the game and answers through a callback. The `pbrain-wuzi` binary only
//! adds the stdin reader thread and stdout.

pub mod command;
pub mod report;
pub mod session;
pub mod setup;

pub use command::{parse_line, Command, ParseError};
pub use session::{DbChoice, Flow, Options, Session, DB_FILE};

/// Is `answer` one well-formed line of what a brain may print: `OK`, `SWAP`, `ERROR ...`,
/// `UNKNOWN ...`, `MESSAGE ...`, `INFO ...` (Yixin-Board's PV blocks), the ABOUT line, `FORBID ....`, or one or more `x,y` points
/// (coordinates below 22)? The protocol tests and the fuzz target hold every answer to it.
pub fn is_well_formed_answer(answer: &str) -> bool {
    let is_move = |t: &str| {
        t.split_once(',').is_some_and(|(x, y)| {
            x.parse::<usize>().is_ok_and(|x| x < 22) && y.parse::<usize>().is_ok_and(|y| y < 22)
        })
    };
    !answer.contains(['\n', '\r'])
        && (answer == "OK"
            || answer == "SWAP"
            || answer.starts_with("ERROR ")
            || answer.starts_with("UNKNOWN ")
            || answer.starts_with("MESSAGE ")
            || answer.starts_with("INFO ")
            || answer.starts_with("name=\"wuzi\"")
            || (answer.starts_with("FORBID ") && answer.ends_with('.'))
            || answer.split(' ').all(is_move))
}
