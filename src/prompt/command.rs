//! The terminal prompt's command syntax: a line into a [`Cmd`], without a board.

use crate::engine::{parse_random_margin, Level};
use crate::types::{Color, Rule, MAX_SIZE, MIN_SIZE};

/// One prompt command.
#[derive(Clone, Debug, PartialEq)]
pub enum Cmd {
    /// A move in `h8` or `x,y` notation (checked against the board later).
    Move(String),
    /// Take back the last move of each side.
    Undo,
    /// Suggest a move for the player.
    Hint,
    /// Start a new game with the same settings.
    New,
    /// Change sides with the engine.
    Swap,
    /// Play this colour.
    Side(Color),
    /// Set the engine's strength.
    Level(Level),
    /// Start a new game under this rule.
    Rule(Rule),
    /// Start a new game on a board of this size.
    Size(usize),
    /// Seconds per engine move.
    Time(f64),
    /// Choose at random among moves within this many evaluation units of the best (`None`:
    /// always the best).
    Vary(Option<i32>),
    /// Write the game to this file.
    Save(String),
    /// Read a game from this file.
    Load(String),
    /// Show the board.
    Board,
    /// List the commands.
    Help,
    /// Leave.
    Quit,
}

/// The help text.
pub const HELP: &str = "\
commands:
  h8 or 7,7        play a move (column letter + row number, or zero-based x,y)
  undo             take back the engine's reply and your last move
  hint             ask the engine for a move for you
  new              new game with the same settings
  swap             change sides with the engine
  side black|white choose your colour (the engine moves first if it is black)
  level L          random | greedy | depth N | full
  rule R           freestyle | standard | renju | caro (starts a new game)
  size N           board size 5..22 (starts a new game)
  time S           seconds per engine move (e.g. 1 or 0.5)
  vary N|off       pick at random among moves within N of the best (default 30)
  save FILE        save the game (a .psq name writes Piskvork format)
  load FILE        load a saved game (wuzi record or .psq)
  board            show the board again
  help             this text
  quit             leave (so does end of input)";

/// Parses a prompt line. `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Cmd>, String> {
    let line = line.trim();
    let Some(word) = line.split_whitespace().next() else {
        return Ok(None);
    };
    let arg = line[word.len()..].trim();
    let cmd = match word.to_ascii_lowercase().as_str() {
        "undo" | "u" => Cmd::Undo,
        "hint" => Cmd::Hint,
        "new" => Cmd::New,
        "swap" => Cmd::Swap,
        "side" | "color" | "colour" => Cmd::Side(parse_color(arg)?),
        "level" => Cmd::Level(parse_level(arg)?),
        "rule" => Cmd::Rule(Rule::parse(arg).ok_or_else(|| {
            format!("unknown rule '{arg}' (try: freestyle, standard, renju, caro)")
        })?),
        "size" => Cmd::Size(parse_size(arg)?),
        "time" => Cmd::Time(parse_time(arg)?),
        "vary" => Cmd::Vary(parse_vary(arg)?),
        "save" => Cmd::Save(need_file(arg, "save")?),
        "load" => Cmd::Load(need_file(arg, "load")?),
        "board" | "show" => Cmd::Board,
        "help" | "?" | "h" => Cmd::Help,
        "quit" | "exit" | "q" => Cmd::Quit,
        _ if looks_like_move(line) => Cmd::Move(line.to_string()),
        _ => return Err(format!("unknown command '{word}' (type help)")),
    };
    Ok(Some(cmd))
}

fn looks_like_move(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() => chars.next().is_some_and(|d| d.is_ascii_digit()),
        Some(c) if c.is_ascii_digit() => s.contains(','),
        _ => false,
    }
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Ok(Color::Black),
        "white" | "w" | "o" => Ok(Color::White),
        _ => Err(format!("side wants black or white, not '{s}'")),
    }
}

fn parse_level(s: &str) -> Result<Level, String> {
    let mut words = s.split_whitespace();
    let level = match words.next().map(str::to_ascii_lowercase).as_deref() {
        Some("random") => Level::Random,
        Some("greedy") => Level::Greedy,
        Some("full") => Level::Full,
        Some("depth") => {
            let n = words
                .next()
                .ok_or("level depth wants a number, e.g. level depth 6")?;
            match n.parse::<i32>() {
                Ok(d) if (1..=60).contains(&d) => Level::Depth(d),
                _ => return Err(format!("depth must be 1 to 60, not '{n}'")),
            }
        }
        _ => {
            return Err(format!(
                "level wants random, greedy, depth N or full, not '{s}'"
            ))
        }
    };
    if words.next().is_some() {
        return Err(format!("too many words after level: '{s}'"));
    }
    Ok(level)
}

fn parse_size(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => Ok(n),
        _ => Err(format!("size must be {MIN_SIZE} to {MAX_SIZE}, not '{s}'")),
    }
}

fn parse_time(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 3600.0 => Ok(t),
        _ => Err(format!("time wants seconds between 0 and 3600, not '{s}'")),
    }
}

fn parse_vary(s: &str) -> Result<Option<i32>, String> {
    parse_random_margin(s).map_err(|e| format!("vary {e}"))
}

fn need_file(s: &str, cmd: &str) -> Result<String, String> {
    if s.is_empty() {
        Err(format!("{cmd} wants a file name"))
    } else {
        Ok(s.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("h8"), Ok(Some(Cmd::Move("h8".into()))));
        assert_eq!(parse("7,7"), Ok(Some(Cmd::Move("7,7".into()))));
        assert_eq!(parse("UNDO"), Ok(Some(Cmd::Undo)));
        assert_eq!(
            parse("level depth 4"),
            Ok(Some(Cmd::Level(Level::Depth(4))))
        );
        assert_eq!(parse("level full"), Ok(Some(Cmd::Level(Level::Full))));
        assert_eq!(parse("side white"), Ok(Some(Cmd::Side(Color::White))));
        assert_eq!(parse("rule renju"), Ok(Some(Cmd::Rule(Rule::Renju))));
        assert_eq!(parse("size 19"), Ok(Some(Cmd::Size(19))));
        assert_eq!(parse("time 0.5"), Ok(Some(Cmd::Time(0.5))));
        assert_eq!(parse("vary 40"), Ok(Some(Cmd::Vary(Some(40)))));
        assert_eq!(parse("vary OFF"), Ok(Some(Cmd::Vary(None))));
        assert_eq!(parse("vary 0"), Ok(Some(Cmd::Vary(None))));
        assert_eq!(
            parse("save my game.txt"),
            Ok(Some(Cmd::Save("my game.txt".into())))
        );
    }

    #[test]
    fn rejects_bad_input_with_a_reason() {
        for bad in [
            "jump",
            "level depth",
            "level depth 0",
            "level hard",
            "level depth 3 4",
            "rule chess",
            "size 30",
            "size -1",
            "time 0",
            "time NaN",
            "vary",
            "vary -5",
            "vary 301",
            "vary lots",
            "side green",
            "save",
            "!!",
        ] {
            let e = parse(bad).unwrap_err();
            assert!(!e.is_empty() && !e.contains('\n'), "{bad}: {e}");
        }
    }
}
