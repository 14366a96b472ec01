//! Win and forbidden-point detection against `tests/data/rules` and the `five` rows of
//! the tactical suites: positions and answers nobody on this project wrote.

use crate::common::suite;
use wuzi::suite::{PointSet, SuiteRow};
use wuzi::types::{Color, Pos};
use wuzi::Board;

fn points(s: &PointSet) -> Vec<Pos> {
    match s {
        PointSet::Points(v) => v.clone(),
        _ => Vec::new(),
    }
}

#[test]
fn renju_forbidden_maps_are_complete() {
    let rows = suite("rules/renju_forbidden_mintaka.tsv");
    assert_eq!(rows.len(), 12);
    for row in rows {
        let mut b = row.board().unwrap();
        let map = b.forbidden_map();
        let mut got: Vec<Pos> = map.iter_ones().map(|i| Pos(i as u16)).collect();
        got.sort();
        let mut want = points(&row.answers);
        want.sort();
        assert_eq!(got, want, "{}: forbidden map", row.id);
    }
}

#[test]
fn renju_forbidden_checks() {
    let rows = suite("rules/renju_forbidden_alphagomoku.tsv");
    assert_eq!(rows.len(), 24);
    for row in rows {
        let mut b = row.board().unwrap();
        for p in points(&row.answers) {
            assert!(b.is_forbidden(p), "{}: {p} must be forbidden", row.id);
        }
        for p in points(&row.non_answers) {
            assert!(!b.is_forbidden(p), "{}: {p} must be legal", row.id);
        }
    }
}

/// Checks `five_check` rows: black's stone on each answer makes a five, on each non-answer
/// it does not. Returns how many points were checked.
fn check_fives(rows: &[SuiteRow]) -> usize {
    let mut checked = 0;
    for row in rows {
        let b = row.board().unwrap();
        for p in points(&row.answers) {
            assert!(b.makes_five(p, Color::Black), "{}: {p} must win", row.id);
            checked += 1;
        }
        for p in points(&row.non_answers) {
            assert!(
                !b.makes_five(p, Color::Black),
                "{}: {p} must not win",
                row.id
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn five_checks() {
    let rows = suite("rules/five_check_alphagomoku.tsv");
    assert_eq!(rows.len(), 9);
    check_fives(&rows);
}

/// Caro's win check on AlphaGomoku's caro positions (`tests/data/caro_five_check_alphagomoku.tsv`):
/// a five closed at both ends by the opponent does not win, the board's edge closes
/// nothing, a run of six open at one end wins under caro and never under caro with exact
/// five. (The file's note gives the one point of the source left out, where its rule and
/// wuzi's part.)
#[test]
fn caro_five_checks() {
    let path = crate::common::project_data_dir().join("caro_five_check_alphagomoku.tsv");
    let rows = wuzi::suite::load_suite(&path).unwrap();
    assert_eq!(rows.len(), 6);
    for row in &rows {
        assert!(row.board().unwrap().rule().is_caro(), "{}", row.id);
    }
    assert_eq!(check_fives(&rows), 33);
}

/// Every `five` row of the tactical suites: the set of points where the side to move makes
/// a five is exactly the answer set.
#[test]
fn five_rows_of_the_tactical_suites() {
    let mut checked = 0;
    for file in [
        "tactics/freestyle_vcf.tsv",
        "tactics/standard_vcf.tsv",
        "tactics/renju_vcf.tsv",
        "tactics/freestyle_win.tsv",
        "tactics/renju_win.tsv",
    ] {
        for row in suite(file).into_iter().filter(|r| r.task == "five") {
            let b = row.board().unwrap();
            let side = b.to_move();
            let mut got: Vec<Pos> = b
                .cells()
                .iter()
                .copied()
                .filter(|&p| b.is_empty(p) && b.makes_five(p, side))
                .collect();
            got.sort();
            let mut want = points(&row.answers);
            want.sort();
            assert_eq!(got, want, "{file} {}", row.id);
            checked += 1;
        }
    }
    assert!(checked > 0);
}

/// Every suite position loads onto a board (debug builds recheck the state on every move).
#[test]
fn every_suite_position_loads() {
    for file in [
        "tactics/freestyle_vcf.tsv",
        "tactics/freestyle_no_vcf.tsv",
        "tactics/freestyle_defend_vcf.tsv",
        "tactics/renju_defend_vcf.tsv",
        "tactics/standard_vcf.tsv",
        "tactics/renju_vcf.tsv",
        "openings/rapfi_bench_positions.tsv",
        "openings/freestyle15_piskvork_openings.tsv",
        "openings/renju15_katagomo_openings50.tsv",
    ] {
        for row in suite(file).into_iter().step_by(7) {
            row.board()
                .unwrap_or_else(|e| panic!("{file} {}: {e}", row.id));
        }
    }
}

/// The 572 five-cell windows of a 15x15 board, counted through the line representation:
/// a window fits where five consecutive bits of a line mask miss the wall.
#[test]
fn the_572_windows_of_15x15() {
    let b = Board::new(15, wuzi::Rule::Freestyle);
    let g = b.geometry();
    let mut n = 0;
    for d in 0..4 {
        for l in 0..wuzi::geometry::LINES {
            for shift in 0..32 - 5 {
                if (g.wall[d][l] >> shift) & 0x1F == 0 {
                    n += 1;
                }
            }
        }
    }
    assert_eq!(n, 572);
    let b19 = Board::new(19, wuzi::Rule::Freestyle);
    let g = b19.geometry();
    let n19: usize = (0..4)
        .flat_map(|d| (0..wuzi::geometry::LINES).map(move |l| (d, l)))
        .map(|(d, l)| (g.len[d][l] as usize).saturating_sub(4))
        .sum();
    // rows and columns 2 * 19 * 15, each diagonal direction 2 * (1 + .. + 14) + 15
    assert_eq!(n19, 2 * 19 * 15 + 2 * (2 * (1..=14).sum::<usize>() + 15));
}
