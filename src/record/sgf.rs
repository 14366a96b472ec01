//! SGF (FF\[4\]) game records of gomoku, `GM[4]`, as c-gomoku-cli and most gomoku tools
//! write them:
//!
//! ```text
//! (;FF[4]GM[4]SZ[15]RU[0]PB[wuzi-a]PW[wuzi-b]RE[B+1]
//! ;B[hh]C[opening move];W[ih];B[ii]C[120ms])
//! ```
//!
//! Points are two letters, column then row, `a` = 0, rows counted from the top (as the
//! Gomocup protocol counts `x,y`): `aa` is `a15` on 15x15. The syntax (escapes, collections,
//! variations) is the `sgf-parse` crate's; this module reads the gomoku meaning: the size
//! (`SZ`, square boards only), the rule (`RU`: a Gomocup rule number as c-gomoku-cli writes
//! it, or a rule name), the players (`PB`, `PW`), the result (`RE`), the game's comment
//! (`GC`), setup stones (`AB`, `AW`) and the moves of the main line (`B`, `W`; an empty
//! value is a pass).

use super::{GameRecord, GameResult};
use crate::engine::alternate;
use crate::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use sgf_parse::unknown_game::Prop;
use sgf_parse::{GameTree, SgfNode};

/// Why an SGF text is not a gomoku game wuzi can load.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    /// Not SGF syntax.
    #[error("not SGF: {0}")]
    Syntax(String),
    /// The text holds no game.
    #[error("no game in the SGF text")]
    NoGame,
    /// `GM` is missing or names another game.
    #[error("not a gomoku record: {0} (gomoku is GM[4])")]
    NotGomoku(String),
    /// `SZ` is not a supported square board.
    #[error("board size {0} is not supported (square boards of {MIN_SIZE} to {MAX_SIZE})")]
    Size(String),
    /// `RU` names no rule wuzi plays.
    #[error("unknown rule RU[{0}]")]
    Rule(String),
    /// A point that is not two letters on the board.
    #[error("move {number} ({text}) is not a point of the {size}x{size} board")]
    Point {
        /// The move's number in the game, from 1.
        number: usize,
        /// The point as written.
        text: String,
        /// The board size.
        size: usize,
    },
    /// A stone on a point that already holds one.
    #[error("move {0} ({1}) is on an occupied point")]
    Occupied(usize, String),
}

/// Reads every game of an SGF collection (a file may hold many, as c-gomoku-cli appends
/// them). `rule` is the rule of a game that names none.
pub fn read(text: &str, rule: Rule) -> Result<Vec<GameRecord>, SgfError> {
    let trees = sgf_parse::parse(text).map_err(|e| SgfError::Syntax(e.to_string()))?;
    if trees.is_empty() {
        return Err(SgfError::NoGame);
    }
    trees.iter().map(|t| read_tree(t, rule)).collect()
}

fn read_tree(tree: &GameTree, rule: Rule) -> Result<GameRecord, SgfError> {
    let root = match tree {
        GameTree::Unknown(node) => node,
        GameTree::GoGame(node) => {
            let gm = node
                .get_property("GM")
                .map_or("no GM property, which SGF reads as Go".to_string(), |p| {
                    format!("{p} is Go")
                });
            return Err(SgfError::NotGomoku(gm));
        }
    };
    let mut rec = GameRecord::new(rule, 15);
    if let Some(Prop::GM(gm)) = root.get_property("GM") {
        if *gm != 4 {
            return Err(SgfError::NotGomoku(format!("GM[{gm}]")));
        }
    }
    match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) if w == h && (MIN_SIZE..=MAX_SIZE).contains(&(*w as usize)) => {
            rec.size = *w as usize
        }
        Some(Prop::SZ((w, h))) if w == h => return Err(SgfError::Size(w.to_string())),
        Some(Prop::SZ((w, h))) => return Err(SgfError::Size(format!("{w}x{h}"))),
        Some(p) => return Err(SgfError::Size(p.to_string().chars().take(20).collect())),
        None => {}
    }
    if let Some(Prop::RU(ru)) = root.get_property("RU") {
        rec.rule = read_rule(&ru.text)?;
    }
    if let Some(Prop::PB(name)) = root.get_property("PB") {
        rec.black = super::one_line(&name.text);
    }
    if let Some(Prop::PW(name)) = root.get_property("PW") {
        rec.white = super::one_line(&name.text);
    }
    if let Some(Prop::RE(re)) = root.get_property("RE") {
        rec.result = read_result(&re.text);
    }
    if let Some(Prop::GC(gc)) = root.get_property("GC") {
        rec.comment = gc.text.clone();
    }
    (rec.moves, rec.opening) = read_moves(root, rec.size)?;
    rec.check_moves()
        .map_err(|_| occupied(&rec.moves, rec.size))?;
    Ok(rec)
}

/// A Gomocup rule number (`RU[4]`, as c-gomoku-cli writes) or a rule name (`RU[renju]`).
fn read_rule(text: &str) -> Result<Rule, SgfError> {
    let t = text.trim();
    t.parse::<u32>()
        .ok()
        .and_then(Rule::from_gomocup)
        .or_else(|| Rule::parse(t))
        .ok_or_else(|| SgfError::Rule(t.chars().take(20).collect()))
}

/// `B+...` black won, `W+...` white won, `0` or `Draw` a draw; anything else (`?`, `Void`)
/// unfinished.
fn read_result(text: &str) -> GameResult {
    let t = text.trim();
    if t.starts_with("B+") {
        GameResult::BlackWins
    } else if t.starts_with("W+") {
        GameResult::WhiteWins
    } else if t == "0" || t.eq_ignore_ascii_case("draw") {
        GameResult::Draw
    } else {
        GameResult::Unfinished
    }
}

/// The setup stones of the root (`AB`, `AW`) as alternating moves, then the moves of the
/// main line; a move by the side not to move is preceded by a pass of the other side. With
/// how many of them are the opening: the setup stones and the first moves commented
/// [`OPENING_COMMENT`].
fn read_moves(root: &SgfNode<Prop>, size: usize) -> Result<(Vec<Pos>, usize), SgfError> {
    let point = |text: &str, number: usize| -> Result<Pos, SgfError> {
        read_point(text, size).ok_or_else(|| SgfError::Point {
            number,
            text: text.chars().take(20).collect(),
            size,
        })
    };
    let setup = |key: &str, first: usize| -> Result<Vec<Pos>, SgfError> {
        let mut stones = Vec::new();
        if let Some(Prop::AB(s) | Prop::AW(s)) = root.get_property(key) {
            // A set has no order: sort by point, so that a file reads the same every time.
            let mut texts: Vec<&String> = s.iter().collect();
            texts.sort();
            for t in texts {
                stones.push(point(t, first + stones.len())?);
            }
        }
        Ok(stones)
    };
    let black = setup("AB", 1)?;
    let white = setup("AW", 1 + black.len())?;
    let first = root
        .main_variation()
        .find_map(|n| match n.get_move() {
            Some(Prop::W(_)) => Some(Color::White),
            Some(_) => Some(Color::Black),
            None => None,
        })
        .unwrap_or(Color::Black);
    let mut moves = if black.is_empty() && white.is_empty() {
        Vec::new()
    } else {
        alternate(&black, &white, first)
    };
    let mut opening = moves.len();
    let mut in_opening = true;
    for node in root.main_variation() {
        let (colour, text) = match node.get_move() {
            Some(Prop::B(t)) => (Color::Black, t),
            Some(Prop::W(t)) => (Color::White, t),
            _ => continue,
        };
        let to_move = if moves.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        if colour != to_move {
            moves.push(Pos::NONE);
        }
        let p = if text.is_empty() {
            Pos::NONE
        } else {
            point(text, moves.len() + 1)?
        };
        moves.push(p);
        in_opening &= matches!(node.get_property("C"),
            Some(Prop::C(c)) if c.text.trim().eq_ignore_ascii_case(OPENING_COMMENT));
        if in_opening {
            opening = moves.len();
        }
    }
    Ok((moves, opening))
}

/// The comment c-gomoku-cli gives the moves of its opening.
const OPENING_COMMENT: &str = "opening move";

/// Two letters `a`..: column, then row from the top.
fn read_point(text: &str, size: usize) -> Option<Pos> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let coord = |c: u8| c.is_ascii_lowercase().then(|| (c - b'a') as usize);
    let (x, y) = (coord(b[0])?, coord(b[1])?);
    (x < size && y < size).then(|| Pos::new(x, y))
}

fn occupied(moves: &[Pos], size: usize) -> SgfError {
    let mut seen = vec![false; crate::types::CELLS];
    for (i, &p) in moves.iter().enumerate() {
        if !p.is_none() && std::mem::replace(&mut seen[p.index()], true) {
            return SgfError::Occupied(i + 1, point_text(p, size));
        }
    }
    SgfError::Occupied(0, String::new())
}

fn point_text(p: Pos, _size: usize) -> String {
    if p.is_none() {
        return String::new();
    }
    let letter = |v: usize| (b'a' + v as u8) as char;
    format!("{}{}", letter(p.x()), letter(p.y()))
}

/// The record as one SGF game tree (`FF[4]GM[4]`, the rule as a Gomocup number in `RU`,
/// as c-gomoku-cli writes it), one move a node, passes as empty values.
pub fn write(rec: &GameRecord) -> String {
    let mut s = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[wuzi:{}]SZ[{}]RU[{}]PB[{}]PW[{}]",
        env!("CARGO_PKG_VERSION"),
        rec.size,
        gomocup_rule(rec.rule),
        escape(&rec.black),
        escape(&rec.white)
    );
    if !rec.comment.is_empty() {
        s += &format!("GC[{}]", escape(&rec.comment));
    }
    match rec.result {
        // c-gomoku-cli writes a won game as B+1 or W+1.
        GameResult::BlackWins => s += "RE[B+1]",
        GameResult::WhiteWins => s += "RE[W+1]",
        GameResult::Draw => s += "RE[0]",
        GameResult::Unfinished => {}
    }
    for (i, &p) in rec.moves.iter().enumerate() {
        if i % 10 == 0 {
            s.push('\n');
        }
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        s += &format!(";{colour}[{}]", point_text(p, rec.size));
        if i < rec.opening {
            s += &format!("C[{OPENING_COMMENT}]");
        }
    }
    s += ")\n";
    s
}

/// The Gomocup `INFO rule` number of a rule.
fn gomocup_rule(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
        Rule::Caro { exact: false } => 8,
        Rule::Caro { exact: true } => 9,
    }
}

/// SimpleText escapes: `\` and `]` take a backslash.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game as c-gomoku-cli writes it (src/game.cpp, export_sgf): game info, a newline,
    /// opening moves with a comment, then the engines' moves with their times.
    const CLI: &str = "(;FF[4]GM[4]GN[3]EV[wuzi-a x wuzi-b]DT[2026.11.26 21:14:03]RO[1.3]RU[0]SZ[15]PB[wuzi-a]PW[wuzi-b]RE[B+1]TE[Black win by five connection]\n;B[hh]C[opening move];W[ig]C[opening move];B[jf]C[opening move]\n;W[ge]C[212ms];B[ii]C[180ms];W[ij]C[201ms];B[gi]C[90ms];W[hi]C[77ms])\n\n";

    #[test]
    fn reads_what_c_gomoku_cli_writes() {
        let recs = read(CLI, Rule::Renju).expect("a record");
        assert_eq!(recs.len(), 1);
        let r = &recs[0];
        assert_eq!((r.size, r.rule), (15, Rule::Freestyle));
        assert_eq!((r.black.as_str(), r.white.as_str()), ("wuzi-a", "wuzi-b"));
        assert_eq!(r.result, GameResult::BlackWins);
        // hh is h8, the centre; ig is x 8, y 6: i9.
        assert_eq!(r.moves.len(), 8);
        assert_eq!(r.moves[0], Pos::new(7, 7));
        assert_eq!(r.moves[1], Pos::new(8, 6));
        assert_eq!(r.moves[7], Pos::new(7, 8));
        // The three commented moves are the runner's opening.
        assert_eq!(r.opening, 3);
        // A file of two games (the tool appends): both read.
        let two = format!("{CLI}{}", CLI.replace("RU[0]", "RU[4]"));
        let recs = read(&two, Rule::Freestyle).expect("two records");
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1].rule, Rule::Renju);
    }

    #[test]
    fn writes_and_reads_back() {
        let mut r = GameRecord::new(Rule::Renju, 15);
        r.black = "you [me]".into();
        r.white = "wuzi\\".into();
        r.result = GameResult::WhiteWins;
        r.moves = vec![Pos::new(7, 7), Pos::new(8, 8), Pos::NONE, Pos::new(0, 0)];
        let text = write(&r);
        assert!(text.starts_with("(;FF[4]GM[4]CA[UTF-8]AP[wuzi:"), "{text}");
        assert!(text.contains("RU[4]") && text.contains("RE[W+1]"), "{text}");
        assert!(text.contains(";B[hh];W[ii];B[];W[aa])"), "{text}");
        assert_eq!(read(&text, Rule::Freestyle), Ok(vec![r.clone()]));
        // An opening is written as c-gomoku-cli marks it, and read back.
        r.opening = 2;
        let text = write(&r);
        assert!(
            text.contains(";B[hh]C[opening move];W[ii]C[opening move];B[];W[aa])"),
            "{text}"
        );
        assert_eq!(read(&text, Rule::Freestyle), Ok(vec![r.clone()]));
        // The game's comment (an opening stage) is GC, escaped, and read back.
        r.comment = "Opening rule soosorv 8. wuzi offers [g8] i8.".into();
        let text = write(&r);
        assert!(
            text.contains("GC[Opening rule soosorv 8. wuzi offers [g8\\] i8.]"),
            "{text}"
        );
        assert_eq!(read(&text, Rule::Freestyle), Ok(vec![r]));
    }

    #[test]
    fn setup_stones_and_out_of_turn_moves() {
        // Two black and one white setup stones, then white moves.
        let text = "(;GM[4]SZ[15]AB[hh][ii]AW[hi];W[jj];B[kk];B[ll])";
        let r = &read(text, Rule::Freestyle).unwrap()[0];
        let (hh, ii, hi) = (Pos::new(7, 7), Pos::new(8, 8), Pos::new(7, 8));
        let (jj, kk, ll) = (Pos::new(9, 9), Pos::new(10, 10), Pos::new(11, 11));
        assert_eq!(r.moves, vec![hh, hi, ii, jj, kk, Pos::NONE, ll]);
        // The setup stones are the opening; a comment after an uncommented move is not.
        assert_eq!(r.opening, 3);
        let text = "(;GM[4]SZ[15];B[hh]C[opening move];W[ii];B[jj]C[opening move])";
        assert_eq!(read(text, Rule::Freestyle).unwrap()[0].opening, 1);
    }

    /// Every prefix of a real file, and each of its characters dropped in turn: an error
    /// or a record, never a panic.
    #[test]
    fn broken_texts_are_errors() {
        let chars: Vec<char> = CLI.chars().collect();
        for n in 0..chars.len() {
            let prefix: String = chars[..n].iter().collect();
            let _ = read(&prefix, Rule::Freestyle);
            let dropped: String = chars
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != n)
                .map(|(_, c)| c)
                .collect();
            if let Ok(recs) = read(&dropped, Rule::Freestyle) {
                for r in recs {
                    assert_eq!(read(&write(&r), Rule::Freestyle), Ok(vec![r]));
                }
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_load_with_the_reason() {
        let cases = [
            ("hello", "not SGF"),
            ("", "not SGF"),
            ("(;GM[1]SZ[19];B[dd])", "not a gomoku record: GM[1] is Go"),
            ("(;SZ[15];B[hh])", "no GM property"),
            ("(;GM[4]SZ[30];B[hh])", "board size 30"),
            ("(;GM[4]SZ[15:13];B[hh])", "board size 15x13"),
            ("(;GM[4]RU[chess];B[hh])", "unknown rule RU[chess]"),
            ("(;GM[4]SZ[15];B[hh];W[zz])", "move 2 (zz) is not a point"),
            (
                "(;GM[4]SZ[15];B[hh];W[hh])",
                "move 2 (hh) is on an occupied point",
            ),
        ];
        for (text, reason) in cases {
            let e = read(text, Rule::Freestyle).unwrap_err().to_string();
            assert!(e.contains(reason), "{text}: {e}");
        }
    }
}
