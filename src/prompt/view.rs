//! Drawing the board as text: columns `a..`, rows numbered from 1 at the bottom (so `h8` is
//! the centre of 15x15), `X` black, `O` white, the last move in parentheses, renju's
//! forbidden points as `*`. With colour (a terminal), the stones are coloured, the last
//! move is bold and a winning five is shown in reverse video; without it the same board
//! reads in plain characters.

use crate::board::Board;
use crate::types::{Color, Pos};
use anstyle::{AnsiColor, Style};

/// What the board shows besides the stones.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// Points where black may not play (renju), drawn as `*`.
    pub forbidden: Vec<Pos>,
    /// A winning line, highlighted with colour.
    pub five: Vec<Pos>,
    /// Use colours and bold (only on a terminal that wants them).
    pub color: bool,
}

/// The character of a forbidden point.
pub const FORBIDDEN: char = '*';

const BLACK: Style = AnsiColor::BrightRed.on_default().bold();
const WHITE: Style = AnsiColor::BrightCyan.on_default().bold();
const EMPTY: Style = AnsiColor::BrightBlack.on_default();
const BAN: Style = AnsiColor::Red.on_default();
const LAST: Style = AnsiColor::Yellow.on_default().bold();
const FIVE: anstyle::Effects = anstyle::Effects::INVERT;

/// The board as lines of text.
pub fn draw(board: &Board, marks: &Marks) -> String {
    let size = board.size();
    let letters: String = (0..size)
        .map(|x| format!(" {}", (b'a' + x as u8) as char))
        .collect();
    let mut s = format!("   {letters}\n");
    let last = board.last_move();
    for y in 0..size {
        let row = size - y;
        s += &format!("{row:>2} ");
        for x in 0..size {
            let p = Pos::new(x, y);
            let is_last = p == last;
            // The separator before a cell holds its left parenthesis, the one after it
            // the right one; a mark never touches the row number (one more space there).
            let left = if is_last {
                '('
            } else if x > 0 && Pos::new(x - 1, y) == last {
                ')'
            } else {
                ' '
            };
            s += &paint(left, LAST, marks.color && left != ' ');
            let (c, style) = match board.stone(p) {
                Some(Color::Black) => ('X', BLACK),
                Some(Color::White) => ('O', WHITE),
                None if marks.forbidden.contains(&p) => (FORBIDDEN, BAN),
                None => ('.', EMPTY),
            };
            let style = if marks.five.contains(&p) {
                style | FIVE
            } else {
                style
            };
            s += &paint(c, style, marks.color);
        }
        let right = if last.y() == y && last.x() == size - 1 && !last.is_none() {
            ')'
        } else {
            ' '
        };
        s += &paint(right, LAST, marks.color && right != ' ');
        s += &format!(" {row}\n");
    }
    s += &format!("   {letters}\n");
    s
}

fn paint(c: char, style: Style, color: bool) -> String {
    if color {
        format!("{style}{c}{style:#}")
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn draws_stones_and_marks_the_last_move() {
        let mut b = Board::new(15, Rule::Freestyle);
        b.make(Pos::new(7, 7));
        b.make(Pos::new(0, 14));
        let text = draw(&b, &Marks::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 17);
        assert!(lines[0].starts_with("    a b c"));
        // Row 8 (y = 7) holds the black centre stone, row 1 the white corner stone.
        assert_eq!(lines[8], " 8  . . . . . . . X . . . . . . .  8");
        assert_eq!(lines[15], " 1 (O). . . . . . . . . . . . . .  1");
        assert!(!text.contains('\x1b'));
    }

    /// At the right edge the mark stands clear of the row number: `O) 1`, not `(O)1`.
    #[test]
    fn the_right_edge_mark_keeps_clear_of_the_row_number() {
        let mut b = Board::new(15, Rule::Freestyle);
        b.make(Pos::new(14, 14));
        let text = draw(&b, &Marks::default());
        assert!(text.lines().any(|l| l.ends_with(" .(X) 1")), "{text}");
    }

    #[test]
    fn forbidden_points_fives_and_colour() {
        let mut b = Board::new(15, Rule::Freestyle);
        for x in 0..5 {
            b.make(Pos::new(x, 7));
            if x < 4 {
                b.make(Pos::new(x, 0));
            }
        }
        let marks = Marks {
            forbidden: vec![Pos::new(10, 10)],
            five: (0..5).map(|x| Pos::new(x, 7)).collect(),
            color: false,
        };
        let plain = draw(&b, &marks);
        assert!(plain.lines().nth(11).unwrap().contains(". * ."), "{plain}");
        let coloured = draw(
            &b,
            &Marks {
                color: true,
                ..marks
            },
        );
        // The five's stones in reverse video, the others not.
        let five = format!("{}X{:#}", BLACK | FIVE, BLACK | FIVE);
        assert_eq!(coloured.matches(&five).count(), 5, "{coloured}");
        assert!(coloured.contains(&format!("{WHITE}O{WHITE:#}")));
        assert!(coloured.contains(&format!("{BAN}*{BAN:#}")));
        // Without the escape codes, the coloured board is the plain one.
        let mut stripped = String::new();
        let mut chars = coloured.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                chars.by_ref().find(|&c| c == 'm');
            } else {
                stripped.push(c);
            }
        }
        assert_eq!(stripped, plain);
    }
}
