//! What counts as an engine fault, and one recorded fault.

use std::fmt;

/// A kind of engine misbehaviour. Each is a fault; the fatal ones end the game (the
/// engine's state can no longer be trusted).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The process exited, or closed its output or input, while the game needed it.
    Crash,
    /// An answer not of the form the command wants (`x,y`, `OK`, three moves, `SWAP`).
    Malformed,
    /// A well-formed move off the board, on a stone, or forbidden for black under renju.
    Illegal,
    /// `ERROR` or `UNKNOWN` where a move or `OK` was due.
    ErrorAnswer,
    /// No answer at all within the limit plus a long grace.
    NoAnswer,
    /// A move later than the manager's limit plus tolerance and slack.
    TimeOverrun,
    /// A move later than tolerance plus slack after `STOP` or `YXSTOP`.
    SlowStop,
    /// The peak resident size was over `max_memory` plus allowance before the engine had
    /// been asked for its first move.
    MemoryStartup,
    /// The peak resident size went over `max_memory` plus allowance during play.
    Memory,
    /// Still running 1 s (plus slack) after `END`.
    NoExit,
    /// The manager's illegal move (occupied or off the board) was not rejected with `ERROR`.
    AcceptedIllegal,
    /// A line other than `MESSAGE`/`DEBUG` where no answer was due.
    Unsolicited,
    /// A wrong answer to a query (`ABOUT`, `YXSHOWFORBID`).
    WrongAnswer,
}

impl Kind {
    /// The kind's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Crash => "crash",
            Kind::Malformed => "malformed-answer",
            Kind::Illegal => "illegal-move",
            Kind::ErrorAnswer => "error-where-answer-due",
            Kind::NoAnswer => "no-answer",
            Kind::TimeOverrun => "time-overrun",
            Kind::SlowStop => "slow-stop",
            Kind::MemoryStartup => "memory-over-limit-at-startup",
            Kind::Memory => "memory-over-limit",
            Kind::NoExit => "no-exit-after-end",
            Kind::AcceptedIllegal => "illegal-manager-move-not-rejected",
            Kind::Unsolicited => "unsolicited-output",
            Kind::WrongAnswer => "wrong-answer",
        }
    }

    /// Does the game stop here?
    pub fn fatal(self) -> bool {
        matches!(
            self,
            Kind::Crash
                | Kind::Malformed
                | Kind::Illegal
                | Kind::ErrorAnswer
                | Kind::NoAnswer
                | Kind::AcceptedIllegal
        )
    }
}

/// One fault of one engine.
#[derive(Clone, Debug)]
pub struct Fault {
    /// What went wrong.
    pub kind: Kind,
    /// Engine `A` or `B`.
    pub engine: char,
    /// Stones on the board when it happened.
    pub ply: usize,
    /// The particulars: the command, the answer, the times.
    pub detail: String,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: engine {} at ply {}: {}",
            self.kind.name(),
            self.engine,
            self.ply,
            self.detail
        )
    }
}
