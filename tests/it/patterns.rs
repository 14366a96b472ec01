//! The line-pattern tables against the slow reference, over the whole key space.

use wuzi::pattern::reference::{classify, Cell};

use wuzi::pattern::{lookup, table, LineRule, Window, KEYS3, TABLE_PAD};
use wuzi::types::{Color, Rule};

fn cells_of(w: Window) -> Vec<Cell> {
    (0..11)
        .map(|i| {
            let b = 1u32 << i;
            if w.own & b != 0 {
                Cell::Own
            } else if w.opp & b != 0 {
                Cell::Opp
            } else if w.wall & b != 0 {
                Cell::Wall
            } else {
                Cell::Empty
            }
        })
        .collect()
}

#[test]
fn base3_tables_match_reference_on_every_key() {
    for lr in [
        LineRule::of(Rule::Freestyle, Color::Black),
        LineRule::of(Rule::Standard, Color::Black),
        LineRule::of(Rule::Renju, Color::Black),
    ] {
        let t = table(lr);
        assert_eq!(t.len(), KEYS3 + TABLE_PAD);
        assert!(t[KEYS3..].iter().all(|&b| b == 0), "padding");
        for k in 0..KEYS3 {
            let w = Window::from_key3(k);
            assert_eq!(w.key3(), k);
            let want = classify(&cells_of(w), 5, lr);
            assert_eq!(
                lookup(t, w, false),
                want,
                "{lr:?} key {k} cells {:?}",
                cells_of(w)
            );
        }
    }
}

/// All caro windows that can occur on a board: wall cells only as a run from either end.
fn caro_windows() -> Vec<Window> {
    let mut out = Vec::new();
    // Each half is 5 cells; `walls` outermost cells are wall, the rest own/empty/opp.
    let mut halves = Vec::new();
    for walls in 0..=5usize {
        let free = 5 - walls;
        for code in 0..3usize.pow(free as u32) {
            let mut c = code;
            let mut cells = vec![Cell::Wall; walls];
            for _ in 0..free {
                cells.push([Cell::Empty, Cell::Own, Cell::Opp][c % 3]);
                c /= 3;
            }
            halves.push(cells); // outermost first
        }
    }
    for left in &halves {
        for right in &halves {
            let mut w = Window {
                own: 0,
                opp: 0,
                wall: 0,
            };
            for (i, c) in left.iter().enumerate() {
                set(&mut w, i, *c);
            }
            for (i, c) in right.iter().enumerate() {
                set(&mut w, 10 - i, *c);
            }
            out.push(w);
        }
    }
    out
}

fn set(w: &mut Window, bit: usize, c: Cell) {
    match c {
        Cell::Own => w.own |= 1 << bit,
        Cell::Opp => w.opp |= 1 << bit,
        Cell::Wall => w.wall |= 1 << bit,
        Cell::Empty => {}
    }
}

#[test]
fn caro_tables_match_reference_on_every_reachable_key() {
    let windows = caro_windows();
    assert_eq!(windows.len(), 364 * 364);
    for exact in [false, true] {
        let lr = LineRule::of(Rule::Caro { exact }, Color::White);
        let t = table(lr);
        for &w in &windows {
            assert_eq!(Window::from_key4(w.key4()), w);
            let want = classify(&cells_of(w), 5, lr);
            assert_eq!(lookup(t, w, true), want, "{lr:?} cells {:?}", cells_of(w));
        }
    }
}

#[test]
fn renju_white_uses_the_freestyle_table() {
    assert_eq!(
        table(LineRule::of(Rule::Renju, Color::White)).as_ptr(),
        table(LineRule::of(Rule::Freestyle, Color::Black)).as_ptr()
    );
}

#[test]
fn known_shapes() {
    use wuzi::pattern::Pattern::*;
    use Cell::{Empty as E, Opp as O, Own as X, Wall as W};
    let free = LineRule::of(Rule::Freestyle, Color::Black);
    let renju = LineRule::of(Rule::Renju, Color::Black);
    let caro = LineRule::of(Rule::Caro { exact: false }, Color::Black);
    let cases: &[(&[Cell], LineRule, wuzi::pattern::Pattern)] = &[
        (&[E, E, E, X, X, E, X, X, E, E, E], free, Five),
        (&[E, E, X, X, X, E, X, X, E, E, E], free, Five),
        (&[E, E, X, X, X, E, X, X, E, E, E], renju, Overline),
        (&[E, E, E, E, X, E, X, X, E, E, E], free, F4),
        (&[E, E, E, O, X, E, X, X, E, E, E], free, B4),
        (&[E, E, E, E, X, E, X, E, E, E, E], free, F3),
        (&[E, X, E, X, X, E, E, X, E, X, E], renju, DoubleFour),
        (&[E, X, E, X, X, E, E, X, E, X, E], free, F4),
        (&[O, O, X, X, X, E, O, E, E, E, E], free, Dead),
        (&[E, E, E, E, E, E, E, E, E, E, E], free, F1),
        (&[W, W, W, W, W, E, X, X, X, E, O], free, B4),
        (&[E, E, E, O, X, E, X, X, X, O, E], free, Five),
        (&[E, E, E, O, X, E, X, X, X, O, E], caro, Dead),
        (&[W, W, W, W, X, E, X, X, X, O, E], caro, Five),
    ];
    for (cells, lr, want) in cases {
        assert_eq!(classify(cells, 5, *lr), *want, "{cells:?} {lr:?}");
    }
}
