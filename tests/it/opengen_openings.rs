//! The balanced openings made with Rapfi's `opengen` for the matches against other engines
//! (`tests/data/openings/*_rapfi_opengen_*.offset.txt`, c-gomoku-cli's offset form): each
//! opening is a legal game under its league's rule, and no position is in a league's sets
//! twice (its tuning sets and its confirmation set).

use crate::common::project_data_dir;
use std::collections::HashSet;
use wuzi::suite::load_offset_openings;
use wuzi::symmetry::Sym;
use wuzi::types::{Color, Pos, Rule};
use wuzi::Board;

/// One league's sets: board size, rule and the files under `tests/data`, the tuning sets
/// (as many as were made) and the confirmation set.
struct League {
    size: usize,
    rule: Rule,
    tune: &'static [&'static str],
    confirm: &'static str,
}

const LEAGUES: [League; 3] = [
    League {
        size: 15,
        rule: Rule::Renju,
        tune: &[
            "openings/renju15_rapfi_opengen_tune.offset.txt",
            "openings/renju15_rapfi_opengen_tune2.offset.txt",
        ],
        confirm: "openings/renju15_rapfi_opengen_confirm.offset.txt",
    },
    League {
        size: 15,
        rule: Rule::Standard,
        tune: &[
            "openings/standard15_rapfi_opengen_tune.offset.txt",
            "openings/standard15_rapfi_opengen_tune2.offset.txt",
        ],
        confirm: "openings/standard15_rapfi_opengen_confirm.offset.txt",
    },
    League {
        size: 20,
        rule: Rule::Freestyle,
        tune: &["openings/freestyle20_rapfi_opengen_tune.offset.txt"],
        confirm: "openings/freestyle20_rapfi_opengen_confirm.offset.txt",
    },
];

/// The fewest openings a set of one league holds (each half of a few hundred).
const MIN_OPENINGS: usize = 100;

/// Reads a file of openings in the offset form with the library's reader.
fn load_offsets(rel: &str, size: usize, rule: Rule) -> Vec<Vec<Pos>> {
    let path = project_data_dir().join(rel);
    load_offset_openings(&path, size, rule)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|row| row.moves)
        .collect()
}

/// Plays an opening move by move: no point twice, no five for either side (under the
/// league's rule) and, in renju, no black stone on a point forbidden when it was played.
/// The error names the first move that breaks one of these.
fn check_opening(moves: &[Pos], size: usize, rule: Rule) -> Result<(), String> {
    let mut b = Board::new(size, rule);
    for (k, &p) in moves.iter().enumerate() {
        let side = b.to_move();
        if !b.is_empty(p) {
            return Err(format!("move {} at {p} is occupied", k + 1));
        }
        if b.makes_five(p, side) {
            return Err(format!("move {} at {p} makes a five", k + 1));
        }
        if side == Color::Black && b.is_forbidden(p) {
            return Err(format!("black's move {} at {p} is forbidden", k + 1));
        }
        b.make(p);
    }
    Ok(())
}

/// The position of an opening under each board symmetry, as its sorted black and white
/// stones; the smallest one names the position whatever the symmetry.
fn canonical(moves: &[Pos], size: usize) -> Vec<u16> {
    Sym::ALL
        .iter()
        .map(|&s| {
            let mut black: Vec<u16> = moves
                .iter()
                .step_by(2)
                .map(|&p| s.apply(p, size).0)
                .collect();
            let mut white: Vec<u16> = moves
                .iter()
                .skip(1)
                .step_by(2)
                .map(|&p| s.apply(p, size).0)
                .collect();
            black.sort_unstable();
            white.sort_unstable();
            black.push(u16::MAX);
            black.extend(white);
            black
        })
        .min()
        .unwrap()
}

#[test]
fn opengen_openings_are_legal_games_of_their_rule() {
    for league in &LEAGUES {
        for &rel in league.tune.iter().chain([&league.confirm]) {
            let openings = load_offsets(rel, league.size, league.rule);
            assert!(
                openings.len() >= MIN_OPENINGS,
                "{rel}: {} openings",
                openings.len()
            );
            for (i, moves) in openings.iter().enumerate() {
                if let Err(e) = check_opening(moves, league.size, league.rule) {
                    panic!("{rel}:{}: {e}", i + 1);
                }
            }
        }
    }
}

#[test]
fn opengen_sets_of_a_league_share_no_position() {
    for league in &LEAGUES {
        let mut seen = HashSet::new();
        for &rel in league.tune.iter().chain([&league.confirm]) {
            let set = load_offsets(rel, league.size, league.rule);
            for (i, moves) in set.iter().enumerate() {
                assert!(
                    seen.insert(canonical(moves, league.size)),
                    "{rel}:{}: the position is in the sets twice",
                    i + 1
                );
            }
        }
    }
}

/// The checks catch what they are for: a black stone on a forbidden point in renju only,
/// and a five under any rule.
#[test]
fn opening_check_rejects_a_forbidden_point_and_a_five() {
    let p = |x, y| Pos::new(x, y);
    // Black's fifth stone at 7,7 makes open threes along row 7 (5,7 6,7 7,7) and column 7
    // (7,5 7,6 7,7): a double three; white's stones stand in the corners.
    let double_three = [
        p(5, 7),
        p(0, 0),
        p(6, 7),
        p(14, 0),
        p(7, 5),
        p(0, 14),
        p(7, 6),
        p(14, 14),
        p(7, 7),
    ];
    let err = check_opening(&double_three, 15, Rule::Renju).unwrap_err();
    assert!(err.contains("move 9 at 7,7 is forbidden"), "{err}");
    assert_eq!(check_opening(&double_three, 15, Rule::Freestyle), Ok(()));
    // Black's five on row 3.
    let five = [
        p(3, 3),
        p(0, 0),
        p(4, 3),
        p(14, 0),
        p(5, 3),
        p(0, 14),
        p(6, 3),
        p(14, 14),
        p(7, 3),
    ];
    let err = check_opening(&five, 15, Rule::Freestyle).unwrap_err();
    assert!(err.contains("move 9 at 7,3 makes a five"), "{err}");
    assert_eq!(check_opening(&five[..8], 15, Rule::Renju), Ok(()));
    let twice = [p(3, 3), p(3, 3)];
    assert!(check_opening(&twice, 15, Rule::Standard).is_err());
}
