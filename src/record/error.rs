//! Why a game record cannot be read or written.

use super::sgf::SgfError;
use crate::notation::NotationError;
use crate::types::Pos;

/// Why a game record cannot be read (in any format) or written (as a `.psq`).
// The error inside `Header` is not a `#[source]`: its message already holds it, and a
// report that follows sources would print it twice.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Text with neither a header line of wuzi's format nor a move.
    #[error("not a game record: no Rule, Size, Black, White or Result line and no moves")]
    NotARecord,
    /// A bad header line of wuzi's format.
    #[error("line {line}: {error}")]
    Header {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with the value.
        error: Box<RecordError>,
    },
    /// A `Rule` header that names no rule wuzi plays.
    #[error("unknown rule '{0}'")]
    Rule(String),
    /// A `Size` header that is not a supported board size.
    #[error("bad board size '{0}'")]
    Size(String),
    /// A `Result` header that is not `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[error("bad result '{0}'")]
    Result(String),
    /// A move that is not `h8` notation on the record's board.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A move off the board.
    #[error("move {number} ({point}) is off the board")]
    OffBoard {
        /// The move's number in the game, from 1.
        number: usize,
        /// The move.
        point: Pos,
    },
    /// A stone on a point that already holds one.
    #[error("move {number} ({point}) is on an occupied point")]
    Occupied {
        /// The move's number in the game, from 1.
        number: usize,
        /// The move in `h8` notation.
        point: String,
    },
    /// A `.psq` with no line.
    #[error("empty .psq")]
    PsqEmpty,
    /// A first line that is not `Piskvorky NxN, ...`.
    #[error("not a .psq header: '{0}'")]
    PsqHeader(String),
    /// A `.psq` board size without the `x`.
    #[error("bad .psq board size '{0}'")]
    PsqSize(String),
    /// A `.psq` board width that is not a number (as written, untrimmed).
    #[error("bad width '{0}'")]
    PsqWidth(String),
    /// A `.psq` board height that is not a number (as written, untrimmed).
    #[error("bad height '{0}'")]
    PsqHeight(String),
    /// A `.psq` board that is not square or not a supported size.
    #[error("unsupported .psq board {0}x{1}")]
    PsqBoard(usize, usize),
    /// A `.psq` move off the board (1-based coordinates, as written).
    #[error("move {x},{y} is off the {size}x{size} board")]
    PsqOffBoard {
        /// The column, from 1.
        x: usize,
        /// The row, from 1.
        y: usize,
        /// The board size.
        size: usize,
    },
    /// A pass, which a `.psq` cannot hold (the move's number, from 1).
    #[error("move {0} is a pass, which .psq cannot record")]
    PsqPass(usize),
    /// An SGF text that is not a gomoku game wuzi can load.
    #[error(transparent)]
    Sgf(#[from] SgfError),
}

impl RecordError {
    /// The error as the error of header line `line` (from 1).
    pub(super) fn at_line(self, line: usize) -> RecordError {
        RecordError::Header {
            line,
            error: Box::new(self),
        }
    }
}

// Front ends that report errors as text take these with `?`.
impl From<RecordError> for String {
    fn from(e: RecordError) -> String {
        e.to_string()
    }
}
