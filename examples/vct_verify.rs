//! Checks VCT claims against every defender reply at the first step (an experiment).
use std::time::{Duration, Instant};
use wuzi::search::solver::{Proof, SolveLimits, Solver};
use wuzi::suite::load_suite;

fn main() {
    let path = std::env::args().nth(1).unwrap();
    let step: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(20);
    let rows = load_suite(std::path::Path::new(&path)).unwrap();
    let lim = |ms| SolveLimits {
        depth: 10,
        deadline: Some(Instant::now() + Duration::from_millis(ms)),
        ..Default::default()
    };
    let (mut claims, mut bad, mut unknown) = (0, 0, 0);
    for row in rows.iter().step_by(step) {
        let mut b = row.board().unwrap();
        let mut s = Solver::new();
        let Proof::Win(line) = s.vct(&mut b, &lim(1000)) else {
            continue;
        };
        claims += 1;
        let m = line[0];
        b.make(m);
        let cells: Vec<_> = b.cells().to_vec();
        for r in cells {
            if !b.is_empty(r) || (b.to_move() == wuzi::Color::Black && b.is_forbidden(r)) {
                continue;
            }
            if b.makes_five(r, b.to_move()) {
                println!("{}: defender has a five at {r}", row.id);
                bad += 1;
                break;
            }
            b.make(r);
            let mut s2 = Solver::new();
            let p = s2.vct(&mut b, &lim(3000));
            b.undo();
            match p {
                Proof::Win(_) => {}
                Proof::NoWin => {
                    println!("{}: after {m}, reply {r} refutes", row.id);
                    bad += 1;
                    break;
                }
                Proof::Unknown => {
                    unknown += 1;
                    println!("{}: after {m}, reply {r} unknown", row.id);
                    break;
                }
            }
        }
    }
    println!("claims {claims}, refuted {bad}, unknown {unknown}");
}
