//! Drawing the board as text: columns `a..`, rows numbered from 1 at the bottom (so `h8` is
//! the centre of 15x15), `X` black, `O` white, the last move in parentheses.

use crate::board::Board;
use crate::types::{Color, Pos};

/// The board as lines of text (no colours or escape codes).
pub fn draw(board: &Board) -> String {
    let size = board.size();
    let letters: String = (0..size)
        .map(|x| format!(" {}", (b'a' + x as u8) as char))
        .collect();
    let mut s = format!("   {letters}\n");
    let last = board.last_move();
    for y in 0..size {
        let row = size - y;
        let mut line: Vec<char> = format!("{row:>2} ").chars().collect();
        for x in 0..size {
            let p = Pos::new(x, y);
            line.push(' ');
            line.push(match board.stone(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            });
        }
        line.push(' ');
        if !last.is_none() && last.y() == y {
            // Cell x sits at 4 + 2x; its neighbours are the separating spaces.
            let at = 4 + 2 * last.x();
            line[at - 1] = '(';
            line[at + 1] = ')';
        }
        let text: String = line.into_iter().collect();
        s += &format!("{text}{row}\n");
    }
    s += &format!("   {letters}\n");
    s
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
        let text = draw(&b);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 17);
        assert!(lines[0].starts_with("    a b c"));
        // Row 8 (y = 7) holds the black centre stone, row 1 the white corner stone.
        assert_eq!(lines[8], " 8  . . . . . . . X . . . . . . . 8");
        assert_eq!(lines[15], " 1 (O). . . . . . . . . . . . . . 1");
    }
}
