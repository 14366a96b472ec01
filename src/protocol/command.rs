//! Syntax of the Gomocup protocol: one line of text into a [`Command`], without a board.
//! Whether a command makes sense in the current game is the handler's business.

use crate::notation::parse_xy;
use crate::types::Pos;
use std::fmt;

/// One manager command, syntactically valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START N`: new square game.
    Start(i64),
    /// `RECTSTART W,H`.
    RectStart(i64, i64),
    /// `RESTART`: new game, same board.
    Restart,
    /// `BEGIN`: move first on the empty board.
    Begin,
    /// `TURN x,y`: the opponent's move (a pass is `-1,-1`).
    Turn(Pos),
    /// `BOARD`: stone lines follow, then `DONE`; then play.
    Board,
    /// `YXBOARD`: like `BOARD`, but no move is wanted.
    YxBoard,
    /// `SWAP2BOARD`: 0, 3 or 5 stones follow, then `DONE`.
    Swap2Board,
    /// `DONE`: ends a stone block.
    Done,
    /// A stone line inside a block: `x,y,field` (or `x,y` in a SWAP2BOARD block).
    Stone(Pos, Option<i64>),
    /// `INFO key value` (key lower-cased; value may be empty).
    Info(String, String),
    /// `END`.
    End,
    /// `ABOUT`.
    About,
    /// `TAKEBACK x,y`.
    Takeback(Pos),
    /// `PLAY x,y`: play this move (the answer to our `SUGGEST`).
    Play(Pos),
    /// `STOP` or `YXSTOP`: answer now.
    Stop,
    /// `YXSHOWFORBID`.
    ShowForbid,
    /// `YXHASHCLEAR`.
    HashClear,
    /// `YXNBEST N`.
    NBest(i64),
    /// `YXSHOWINFO`: Yixin-Board asks for the brain's limits.
    ShowInfo,
    /// `YXBLOCK`: points follow, then `DONE`; the search leaves them out.
    Block,
    /// `YXBLOCKUNDO`: points follow, then `DONE`; the search takes them back.
    BlockUndo,
    /// `YXBLOCKRESET`: the search leaves out no point.
    BlockReset,
    /// `YXBALANCEONE bias`: the move after which the game is closest to even.
    BalanceOne(i64),
    /// `YXBALANCETWO bias`: the two moves (ours, then the reply) after which it is.
    BalanceTwo(i64),
    /// `YXSEARCHDEFEND`: every move judged, to show which ones lose.
    SearchDefend,
    /// `YXSWAP2STEP1` to `3`: Yixin-Board's swap2 steps (1: place three stones; 2: choose
    /// after the three stones of the board; 3: choose after its five).
    Swap2Step(u8),
    /// `YXSOOSORVSTEP1` to `6` (with N for steps 4 and 5): Yixin-Board's Soosorv steps. Steps
    /// 2 to 6 open a block of `x,y` stones in the order placed, ended by `DONE`.
    SoosorvStep(u8, Option<u8>),
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// An empty line (ignored).
    Empty,
    /// A word we do not know: answer `UNKNOWN`.
    Unknown(String),
    /// A known command with bad arguments: answer `ERROR`.
    Malformed(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty line"),
            ParseError::Unknown(s) | ParseError::Malformed(s) => f.write_str(s),
        }
    }
}

fn malformed(s: impl Into<String>) -> ParseError {
    ParseError::Malformed(s.into())
}

fn int(s: &str, what: &str) -> Result<i64, ParseError> {
    s.trim()
        .parse()
        .map_err(|_| malformed(format!("bad {what} '{}'", s.trim())))
}

fn point(arg: &str, cmd: &str) -> Result<Pos, ParseError> {
    if arg.is_empty() {
        return Err(malformed(format!("{cmd} needs x,y")));
    }
    parse_xy(arg).map_err(|e| malformed(format!("{cmd}: {e}")))
}

fn no_args(cmd: Command, arg: &str, name: &str) -> Result<Command, ParseError> {
    if arg.is_empty() {
        Ok(cmd)
    } else {
        Err(malformed(format!("{name} takes no arguments")))
    }
}

/// Parses one line (any case, surrounding whitespace and CR ignored).
pub fn parse_line(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    if line.is_empty() {
        return Err(ParseError::Empty);
    }
    if line.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return parse_stone(line);
    }
    let (word, arg) = match line.split_once(char::is_whitespace) {
        Some((w, a)) => (w, a.trim()),
        None => (line, ""),
    };
    let upper = word.to_ascii_uppercase();
    match upper.as_str() {
        // Yixin-Board sends `START W H`, square or not.
        "START" => match arg.split_once(|c: char| c.is_whitespace() || c == ',') {
            Some((w, h)) => Ok(Command::RectStart(int(w, "width")?, int(h, "height")?)),
            None => Ok(Command::Start(int(arg, "board size")?)),
        },
        "RECTSTART" => {
            let (w, h) = arg
                .split_once(',')
                .ok_or_else(|| malformed("RECTSTART needs W,H"))?;
            Ok(Command::RectStart(int(w, "width")?, int(h, "height")?))
        }
        "RESTART" => no_args(Command::Restart, arg, "RESTART"),
        "BEGIN" => no_args(Command::Begin, arg, "BEGIN"),
        "TURN" => Ok(Command::Turn(point(arg, "TURN")?)),
        "BOARD" => Ok(Command::Board),
        "YXBOARD" => Ok(Command::YxBoard),
        "SWAP2BOARD" => Ok(Command::Swap2Board),
        "DONE" => Ok(Command::Done),
        "INFO" => parse_info(arg),
        "END" => Ok(Command::End),
        "ABOUT" => Ok(Command::About),
        "TAKEBACK" => Ok(Command::Takeback(point(arg, "TAKEBACK")?)),
        "PLAY" => Ok(Command::Play(point(arg, "PLAY")?)),
        "STOP" | "YXSTOP" => Ok(Command::Stop),
        "YXSHOWFORBID" => Ok(Command::ShowForbid),
        "YXHASHCLEAR" => Ok(Command::HashClear),
        "YXNBEST" => Ok(Command::NBest(int(arg, "count")?)),
        "YXSHOWINFO" => Ok(Command::ShowInfo),
        "YXBLOCK" => no_args(Command::Block, arg, "YXBLOCK"),
        "YXBLOCKUNDO" => no_args(Command::BlockUndo, arg, "YXBLOCKUNDO"),
        "YXBLOCKRESET" => Ok(Command::BlockReset),
        // The bias is optional (Yixin-Board sends 0 when none is given).
        "YXBALANCEONE" => Ok(Command::BalanceOne(bias(arg)?)),
        "YXBALANCETWO" => Ok(Command::BalanceTwo(bias(arg)?)),
        "YXSEARCHDEFEND" => Ok(Command::SearchDefend),
        _ if upper.starts_with("YXSWAP2STEP") => {
            let step = step_number(&upper["YXSWAP2STEP".len()..], 3, word)?;
            no_args(Command::Swap2Step(step), arg, word)
        }
        _ if upper.starts_with("YXSOOSORVSTEP") => {
            let step = step_number(&upper["YXSOOSORVSTEP".len()..], 6, word)?;
            let fifths = match (step, arg) {
                (4 | 5, "") => {
                    return Err(malformed(format!("{word} needs the number of fifth moves")))
                }
                (4 | 5, n) => Some(
                    n.parse::<u8>()
                        .map_err(|_| malformed(format!("bad number of fifth moves '{n}'")))?,
                ),
                (_, "") => None,
                _ => return Err(malformed(format!("{word} takes no arguments"))),
            };
            Ok(Command::SoosorvStep(step, fifths))
        }
        _ => Err(ParseError::Unknown(format!("unknown command '{word}'"))),
    }
}

/// The step number at the end of a step command's word: 1 to `last`.
fn step_number(digits: &str, last: u8, word: &str) -> Result<u8, ParseError> {
    match digits.parse::<u8>() {
        Ok(n) if (1..=last).contains(&n) => Ok(n),
        _ => Err(malformed(format!("{word}: steps run from 1 to {last}"))),
    }
}

fn bias(arg: &str) -> Result<i64, ParseError> {
    if arg.is_empty() {
        Ok(0)
    } else {
        int(arg, "balance bias")
    }
}

fn parse_info(arg: &str) -> Result<Command, ParseError> {
    if arg.is_empty() {
        return Err(malformed("INFO needs a key"));
    }
    let (key, value) = match arg.split_once(char::is_whitespace) {
        Some((k, v)) => (k, v.trim()),
        None => (arg, ""),
    };
    Ok(Command::Info(key.to_ascii_lowercase(), value.to_string()))
}

/// `x,y,field` or `x,y`.
fn parse_stone(line: &str) -> Result<Command, ParseError> {
    let parts: Vec<&str> = line.split(',').collect();
    match parts.as_slice() {
        [x, y] => Ok(Command::Stone(xy(x, y)?, None)),
        [x, y, f] => Ok(Command::Stone(xy(x, y)?, Some(int(f, "stone field")?))),
        _ => Err(malformed(format!("expected x,y,field but got '{line}'"))),
    }
}

fn xy(x: &str, y: &str) -> Result<Pos, ParseError> {
    let p = parse_xy(&format!("{},{}", x.trim(), y.trim())).map_err(malformed)?;
    if p.is_none() {
        return Err(malformed("a stone cannot be a pass"));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_in_any_case() {
        assert_eq!(parse_line("start 15\r"), Ok(Command::Start(15)));
        assert_eq!(parse_line("  TURN 7,8 "), Ok(Command::Turn(Pos::new(7, 8))));
        assert_eq!(parse_line("turn -1,-1"), Ok(Command::Turn(Pos::NONE)));
        assert_eq!(
            parse_line("RectStart 20,15"),
            Ok(Command::RectStart(20, 15))
        );
        assert_eq!(parse_line("yxstop"), Ok(Command::Stop));
        assert_eq!(parse_line("start 15 15"), Ok(Command::RectStart(15, 15)));
        assert_eq!(parse_line("yxbalancetwo 30"), Ok(Command::BalanceTwo(30)));
        assert_eq!(parse_line("yxbalanceone"), Ok(Command::BalanceOne(0)));
        assert_eq!(parse_line("yxblock"), Ok(Command::Block));
        assert_eq!(
            parse_line("INFO Timeout_Turn 1000"),
            Ok(Command::Info("timeout_turn".into(), "1000".into()))
        );
        assert_eq!(
            parse_line("INFO folder C:\\my games"),
            Ok(Command::Info("folder".into(), "C:\\my games".into()))
        );
    }

    #[test]
    fn parses_opening_steps() {
        assert_eq!(parse_line("yxswap2step1"), Ok(Command::Swap2Step(1)));
        assert_eq!(parse_line("YXSWAP2STEP3"), Ok(Command::Swap2Step(3)));
        assert_eq!(
            parse_line("yxsoosorvstep2"),
            Ok(Command::SoosorvStep(2, None))
        );
        assert_eq!(
            parse_line("yxsoosorvstep4 3"),
            Ok(Command::SoosorvStep(4, Some(3)))
        );
        for bad in [
            "yxswap2step4",
            "yxswap2step",
            "yxswap2step1 5",
            "yxsoosorvstep7",
            "yxsoosorvstep5",
            "yxsoosorvstep4 x",
            "yxsoosorvstep2 1",
        ] {
            assert!(
                matches!(parse_line(bad), Err(ParseError::Malformed(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn parses_stone_lines() {
        assert_eq!(
            parse_line("3,4,1"),
            Ok(Command::Stone(Pos::new(3, 4), Some(1)))
        );
        assert_eq!(parse_line("3, 4"), Ok(Command::Stone(Pos::new(3, 4), None)));
        assert!(matches!(parse_line("3,4,x"), Err(ParseError::Malformed(_))));
        assert!(matches!(
            parse_line("-1,-1,1"),
            Err(ParseError::Malformed(_))
        ));
        assert!(matches!(
            parse_line("1,2,3,4"),
            Err(ParseError::Malformed(_))
        ));
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(parse_line("   "), Err(ParseError::Empty));
        assert!(matches!(parse_line("FOO 1"), Err(ParseError::Unknown(_))));
        assert!(matches!(
            parse_line("START x"),
            Err(ParseError::Malformed(_))
        ));
        assert!(matches!(parse_line("TURN"), Err(ParseError::Malformed(_))));
        assert!(matches!(
            parse_line("TURN 99,3"),
            Err(ParseError::Malformed(_))
        ));
        assert!(matches!(
            parse_line("TURN 3"),
            Err(ParseError::Malformed(_))
        ));
        assert!(matches!(
            parse_line("BEGIN now"),
            Err(ParseError::Malformed(_))
        ));
        assert!(matches!(parse_line("INFO"), Err(ParseError::Malformed(_))));
        assert!(matches!(
            parse_line("START 99999999999999999999999"),
            Err(ParseError::Malformed(_))
        ));
    }
}
