//! The terminal prompt's command syntax: a line into a [`Cmd`], without a board.

use crate::engine::opening::OpeningRule;
use crate::engine::{random_margin, Level, MAX_RANDOM_MARGIN};
use crate::review::{DEFAULT_SOLVE_MS, MAX_SOLVE_MS};
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
    /// Start a new game under this rule, with this opening rule.
    Rule(Rule, OpeningRule),
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
    /// Show what the position database knows about the position.
    Db,
    /// Review the game so far with the threat solver, this many milliseconds a solve.
    Review(u64),
    /// List the commands.
    Help,
    /// Leave.
    Quit,
}

/// The help text, within [`super::text::WIDTH`] columns.
pub const HELP: &str = "\
commands:
  h8               play a move: column letter and row number, as the board is
                   labelled
  7,7              the same point as zero-based x,y, as Gomocup brains and .psq
                   files count: x from the left (a = 0), y from the TOP
                   (0,0 is a15 on 15x15, 7,7 is h8)
  undo             take back the engine's reply and your last move
  hint             ask the engine for a move for you
  new              new game with the same settings
  swap             change sides with the engine
  side black|white choose your colour (the engine moves first if it is black)
  level L          random | greedy | depth N | full
  rule R [O]       freestyle | standard | renju | caro, with an opening rule O:
                   swap | swap2 | swap-after-first | soosorv N | taraguchi N |
                   yamaguchi (starts a new game)
  size N           board size 5..22 (starts a new game)
  time S           seconds per engine move, more than 0 and at most 3600 (e.g. 1
                   or 0.5)
  vary N|off       pick at random among moves within N of the best (default 30)
  save FILE        save the game (.sgf: SGF; .psq: Piskvork; other names: wuzi's
                   text)
  load FILE        load a saved game (SGF, .psq or wuzi's text)
  board            show the board again
  db               what the position database (wuzi --db FILE) knows here
  review [MS]      where this game was decided: each blunder and missed win, by
                   the threat solver (MS milliseconds a solve, default 200)
  help             this text
In an opening stage (rule R O), answer what is asked: h8 places a stone; h8 3
places it and declares 3 fifth moves; black, white, swap or keep chooses a
colour; add h9 j7 adds swap2's white and black stones; offer a1 b2 ... offers
fifth moves; pick h7 takes one of the offered.
  quit             leave (so does end of input)
The board: X black, O white, (X) the last move, * a point forbidden to black
(renju). Chances are the engine's estimate for the side named; a forced win is
counted in the winner's own moves along the engine's line.";

/// The longest input line the prompt reads as a command, in characters; longer lines are
/// refused without being echoed (no command or file name needs more).
pub const MAX_LINE: usize = 300;

/// The most characters of the player's input quoted back in a message.
const MAX_QUOTE: usize = 40;

/// `s` quoted for a message: see [`clip`].
pub fn quote(s: &str) -> String {
    format!("'{}'", clip(s))
}

/// `s` cut after `MAX_QUOTE` characters (with `...`), control characters escaped.
pub fn clip(s: &str) -> String {
    clip_at(s, MAX_QUOTE)
}

/// `s` cut after `max` characters (with `...`), control characters escaped.
pub fn clip_at(s: &str, max: usize) -> String {
    let mut q = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == max {
            q.push_str("...");
            break;
        }
        if c.is_control() {
            q.extend(c.escape_default());
        } else {
            q.push(c);
        }
    }
    q
}

/// Parses a prompt line. `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Cmd>, String> {
    let line = line.trim();
    let Some(word) = line.split_whitespace().next() else {
        return Ok(None);
    };
    let arg = line[word.len()..].trim();
    // A move typed with spaces (` h 8 `, `7, 7`) is still a move; `h` alone is help.
    let squeezed: String = line.split_whitespace().collect();
    if !arg.is_empty() && looks_like_move(&squeezed) {
        return Ok(Some(Cmd::Move(squeezed)));
    }
    let cmd = match word.to_ascii_lowercase().as_str() {
        "undo" | "u" => Cmd::Undo,
        "hint" => Cmd::Hint,
        "new" => Cmd::New,
        "swap" => Cmd::Swap,
        "side" | "color" | "colour" => Cmd::Side(parse_color(arg)?),
        "level" => Cmd::Level(parse_level(arg)?),
        "rule" => parse_rule(arg)?,
        "size" => Cmd::Size(parse_size(arg)?),
        "time" => Cmd::Time(parse_time(arg)?),
        "vary" => Cmd::Vary(parse_vary(arg)?),
        "save" => Cmd::Save(need_file(arg, "save")?),
        "load" => Cmd::Load(need_file(arg, "load")?),
        "board" | "show" => Cmd::Board,
        "db" => Cmd::Db,
        "review" => Cmd::Review(parse_review_ms(arg)?),
        "help" | "?" | "h" => Cmd::Help,
        "quit" | "exit" | "q" => Cmd::Quit,
        _ if looks_like_move(line) => Cmd::Move(line.to_string()),
        _ => return Err(format!("unknown command {} (type help)", quote(word))),
    };
    Ok(Some(cmd))
}

/// A letter and a number (`h8`), or two numbers with a comma (`7,7`, `-1,3`).
fn looks_like_move(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() => {
            let rest = chars.as_str();
            !rest.is_empty() && rest.chars().all(|d| d.is_ascii_digit())
        }
        Some(c) if c.is_ascii_digit() || c == '-' => s.split_once(',').is_some_and(|(x, y)| {
            let num = |t: &str| {
                let t = t.strip_prefix('-').unwrap_or(t);
                !t.is_empty() && t.chars().all(|d| d.is_ascii_digit())
            };
            num(x) && num(y)
        }),
        _ => false,
    }
}

/// `renju`, `renju soosorv 8`, `freestyle swap2`: the game rule, then the opening rule
/// (none: the free opening).
fn parse_rule(s: &str) -> Result<Cmd, String> {
    let (word, rest) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
    let rule = Rule::parse(word).ok_or_else(|| {
        format!(
            "unknown rule {} (try: freestyle, standard, renju, caro; then an opening rule: \
             swap, swap2, swap-after-first, soosorv N, taraguchi N, yamaguchi)",
            quote(word)
        )
    })?;
    let opening = if rest.trim().is_empty() {
        OpeningRule::Free
    } else {
        OpeningRule::parse(rest).map_err(|e| e.to_string())?
    };
    Ok(Cmd::Rule(rule, opening))
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Ok(Color::Black),
        "white" | "w" | "o" => Ok(Color::White),
        _ => Err(format!("side wants black or white, not {}", quote(s))),
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
                _ => return Err(format!("depth must be 1 to 60, not {}", quote(n))),
            }
        }
        _ => {
            return Err(format!(
                "level wants random, greedy, depth N or full, not {}",
                quote(s)
            ))
        }
    };
    if words.next().is_some() {
        return Err(format!("too many words after level: {}", quote(s)));
    }
    Ok(level)
}

fn parse_size(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => Ok(n),
        _ => Err(format!(
            "size must be {MIN_SIZE} to {MAX_SIZE}, not {}",
            quote(s)
        )),
    }
}

/// The longest think the prompt allows, in seconds (an hour).
pub const MAX_SECONDS: f64 = 3600.0;

fn parse_time(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= MAX_SECONDS => Ok(t),
        Ok(t) if t <= 0.0 => Err(format!(
            "time wants a number of seconds above 0 (the engine needs some time to think; \
             e.g. time 0.1 for a quick game), not {}",
            quote(s)
        )),
        _ => Err(format!(
            "time wants a number of seconds above 0 and at most {MAX_SECONDS}, not {}",
            quote(s)
        )),
    }
}

fn parse_review_ms(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Ok(DEFAULT_SOLVE_MS);
    }
    match s.parse::<u64>() {
        Ok(ms) if (1..=MAX_SOLVE_MS).contains(&ms) => Ok(ms),
        _ => Err(format!(
            "review wants milliseconds a solve, 1 to {MAX_SOLVE_MS} (default {DEFAULT_SOLVE_MS}), not {}",
            quote(s)
        )),
    }
}

/// A random-choice margin: `off` (any case) or 0 for none, else 1 to
/// [`MAX_RANDOM_MARGIN`].
pub fn parse_vary(s: &str) -> Result<Option<i32>, String> {
    if s.eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    s.parse::<i64>()
        .ok()
        .and_then(|n| random_margin(n).ok())
        .ok_or_else(|| {
            format!(
                "vary wants a margin from 0 to {MAX_RANDOM_MARGIN} or off, not {}",
                quote(s)
            )
        })
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
        assert_eq!(
            parse("rule renju"),
            Ok(Some(Cmd::Rule(Rule::Renju, OpeningRule::Free)))
        );
        assert_eq!(
            parse("rule renju soosorv 8"),
            Ok(Some(Cmd::Rule(
                Rule::Renju,
                OpeningRule::Soosorv { max_fifths: 8 }
            )))
        );
        assert_eq!(
            parse("rule freestyle swap2"),
            Ok(Some(Cmd::Rule(Rule::Freestyle, OpeningRule::Swap2)))
        );
        assert!(parse("rule renju soosorv 99").is_err());
        assert_eq!(parse("size 19"), Ok(Some(Cmd::Size(19))));
        assert_eq!(parse("time 0.5"), Ok(Some(Cmd::Time(0.5))));
        assert_eq!(parse("vary 40"), Ok(Some(Cmd::Vary(Some(40)))));
        assert_eq!(parse("vary OFF"), Ok(Some(Cmd::Vary(None))));
        assert_eq!(parse("vary 0"), Ok(Some(Cmd::Vary(None))));
        assert_eq!(
            parse("save my game.txt"),
            Ok(Some(Cmd::Save("my game.txt".into())))
        );
        // Moves typed with spaces, and negative coordinates, are moves.
        assert_eq!(parse(" h 8 "), Ok(Some(Cmd::Move("h8".into()))));
        assert_eq!(parse("7 , 7"), Ok(Some(Cmd::Move("7,7".into()))));
        assert_eq!(parse("-1,3"), Ok(Some(Cmd::Move("-1,3".into()))));
        assert_eq!(parse("h"), Ok(Some(Cmd::Help)));
        assert_eq!(parse("hint"), Ok(Some(Cmd::Hint)));
        assert_eq!(parse("review"), Ok(Some(Cmd::Review(DEFAULT_SOLVE_MS))));
        assert_eq!(parse("review 50"), Ok(Some(Cmd::Review(50))));
        for bad in ["review 0", "review soon", "review 99999999"] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains("review wants milliseconds"), "{bad}: {e}");
        }
    }

    #[test]
    fn vary_takes_off_or_a_margin() {
        assert_eq!(parse_vary("off"), Ok(None));
        assert_eq!(parse_vary("OFF"), Ok(None));
        assert_eq!(parse_vary("0"), Ok(None));
        assert_eq!(parse_vary("1"), Ok(Some(1)));
        assert_eq!(parse_vary("300"), Ok(Some(MAX_RANDOM_MARGIN)));
        for bad in ["301", "-1", "", "x", "3.5"] {
            let e = parse_vary(bad).unwrap_err();
            assert!(
                e.contains("0 to 300") && e.contains(&format!("'{bad}'")),
                "{e}"
            );
        }
    }

    #[test]
    fn quotes_are_short() {
        let long = "x".repeat(3000);
        let e = parse(&long).unwrap_err();
        assert!(e.len() < 100, "{e}");
        assert!(quote("a\u{1}b").contains("\\u{1}"));
        let e = parse(&format!("vary {long}")).unwrap_err();
        assert!(e.len() < 120, "{e}");
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
