//! The point notations (`wuzi::notation`) on arbitrary bytes. The first byte picks a board
//! size (`MIN_SIZE..=MAX_SIZE`), the next two a point on it; the rest, read as text
//! (invalid UTF-8 replaced), goes to every parser. Properties:
//!
//! - no parser panics (`parse_xy`, `parse_h8`, `parse_any`, `parse_move_list`,
//!   `parse_h8_run`);
//! - what they accept is a point they may give: `parse_h8` and `parse_h8_run` a point of
//!   the board, `parse_any` that or the pass, `parse_xy` and `parse_move_list` the pass or a
//!   point of the largest board;
//! - what `parse_h8` accepts, `format_h8` writes back in a form that parses to the same
//!   point, and `parse_xy` likewise reads back the `x,y` form (`Pos`'s `Display`);
//! - for the point from the bytes: `format_h8` then `parse_h8` (and `parse_any`) give it
//!   back, as do `Display` then `parse_xy`; the pass is `pass` and `-1,-1`; several points'
//!   `h8` forms run together read back through `parse_h8_run`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::notation::{format_h8, parse_any, parse_h8, parse_h8_run, parse_move_list, parse_xy};
use wuzi::types::{Pos, MAX_SIZE, MIN_SIZE};

fn on_any_board(p: Pos) -> bool {
    p.is_none() || p.on_board(MAX_SIZE)
}

fuzz_target!(|data: &[u8]| {
    let [s, x, y, rest @ ..] = data else {
        return;
    };
    let size = MIN_SIZE + *s as usize % (MAX_SIZE - MIN_SIZE + 1);
    let text = String::from_utf8_lossy(rest);

    // Arbitrary text.
    if let Ok(p) = parse_xy(&text) {
        assert!(on_any_board(p), "parse_xy gave {p:?}");
        assert_eq!(
            parse_xy(&p.to_string()).ok(),
            Some(p),
            "{p} back through parse_xy"
        );
    }
    if let Ok(p) = parse_h8(&text, size) {
        assert!(p.on_board(size), "parse_h8 gave {p:?} on {size}");
        let h8 = format_h8(p, size);
        assert_eq!(
            parse_h8(&h8, size).ok(),
            Some(p),
            "{h8} back through parse_h8"
        );
    }
    if let Ok(p) = parse_any(&text, size) {
        assert!(
            p.is_none() || p.on_board(size),
            "parse_any gave {p:?} on {size}"
        );
    }
    if let Ok(list) = parse_move_list(&text) {
        assert!(
            list.iter().all(|&p| on_any_board(p)),
            "parse_move_list gave {list:?}"
        );
    }
    if let Ok(list) = parse_h8_run(&text, size) {
        assert!(
            list.iter().all(|p| p.on_board(size)),
            "parse_h8_run gave {list:?}"
        );
    }

    // Points of the board.
    let p = Pos::new(*x as usize % size, *y as usize % size);
    let h8 = format_h8(p, size);
    assert_eq!(parse_h8(&h8, size).ok(), Some(p), "{p} as {h8} on {size}");
    assert_eq!(parse_any(&h8, size).ok(), Some(p), "{p} as {h8} on {size}");
    assert_eq!(
        parse_xy(&p.to_string()).ok(),
        Some(p),
        "{p} through parse_xy"
    );
    assert_eq!(
        parse_any(&p.to_string(), size).ok(),
        Some(p),
        "{p} through parse_any"
    );
    assert_eq!(format_h8(Pos::NONE, size), "pass");
    assert_eq!(parse_xy(&Pos::NONE.to_string()).ok(), Some(Pos::NONE));
    let points: Vec<Pos> = rest
        .chunks_exact(2)
        .take(16)
        .map(|c| Pos::new(c[0] as usize % size, c[1] as usize % size))
        .collect();
    let run: String = points.iter().map(|&q| format_h8(q, size)).collect();
    assert_eq!(
        parse_h8_run(&run, size).ok(),
        Some(points),
        "{run} on {size}"
    );
});
