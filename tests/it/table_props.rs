//! Properties of the pattern tables that the board's fast paths rely on.

use wuzi::pattern::{table, LineRule, KEYS3};
use wuzi::types::{Color, Rule};

/// Freestyle (and renju white) patterns never depend on the window's edge cells, offsets -5
/// and +5: a five through the centre lies within -4..=4 and a longer run wins too. Make
/// relies on it to skip the cells five away from a new stone under freestyle.
#[test]
fn freestyle_patterns_ignore_the_window_edges() {
    let t = table(LineRule::of(Rule::Freestyle, Color::Black));
    let (low, high) = (1, 3usize.pow(9)); // base-3 place values of offsets -5 and +5
    for key in 0..KEYS3 {
        let base = key - key % 3 - (key / high) * high;
        for a in 0..3 {
            for b in 0..3 {
                assert_eq!(t[key], t[base + a * low + b * high], "key {key}");
            }
        }
    }
}
