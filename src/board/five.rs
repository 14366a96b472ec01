//! The winning line of a finished game, for the front ends to highlight.

use super::Board;
use crate::types::{Color, Dir, Pos};

impl Board {
    /// The points of `winner`'s line of five or more, the one through the last move if
    /// there are several (empty if there is none, e.g. after a forbidden move). A scan of
    /// the whole board: for showing a finished game, not for the search.
    pub fn winning_line(&self, winner: Color) -> Vec<Pos> {
        winning_line(self, winner)
    }
}

fn winning_line(board: &Board, winner: Color) -> Vec<Pos> {
    let size = board.size() as isize;
    let own = |x: isize, y: isize| {
        (0..size).contains(&x)
            && (0..size).contains(&y)
            && board.stone(Pos::new(x as usize, y as usize)) == Some(winner)
    };
    let mut lines: Vec<Vec<Pos>> = Vec::new();
    for y in 0..size {
        for x in 0..size {
            for d in Dir::ALL {
                let (dx, dy) = d.step();
                // Only from the first stone of a run.
                if !own(x, y) || own(x - dx, y - dy) {
                    continue;
                }
                let run: Vec<Pos> = (0..)
                    .map(|i| (x + i * dx, y + i * dy))
                    .take_while(|&(a, b)| own(a, b))
                    .map(|(a, b)| Pos::new(a as usize, b as usize))
                    .collect();
                if run.len() >= 5 {
                    lines.push(run);
                }
            }
        }
    }
    let last = board.last_move();
    let pick = lines.iter().position(|l| l.contains(&last)).unwrap_or(0);
    lines.into_iter().nth(pick).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rule;

    #[test]
    fn finds_the_diagonal_five() {
        let mut b = Board::new(15, Rule::Freestyle);
        for i in 0..5 {
            b.make(Pos::new(3 + i, 3 + i));
            if i < 4 {
                b.make(Pos::new(0, i));
            }
        }
        let line = b.winning_line(Color::Black);
        assert_eq!(line.len(), 5);
        assert!(line.contains(&Pos::new(7, 7)));
        assert!(b.winning_line(Color::White).is_empty());
    }
}
