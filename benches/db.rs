//! Criterion benches of the position database (src/db): the canonical key of a position
//! (eight symmetries), the root probe a search makes before it starts (the position and
//! every candidate move's child, one read transaction, the file opened and closed), one
//! search's write-back and one game's learning (a write transaction each, committed to
//! disk). The file holds the positions of 200 games learned before timing, and each bench
//! first checks that the database answers what it was taught.
//!
//! `cargo bench --bench db`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use wuzi::db::{Canon, Db, GameEnd};
use wuzi::notation::parse_move_list;
use wuzi::{Board, Color, Pos, Rule};

/// A lost game of the brain (tests/it/db_process.rs): 21 moves, black's last a five.
const GAME: &str =
    "7,7 8,8 6,8 8,6 7,9 8,7 8,9 6,9 5,7 4,6 7,8 7,10 5,8 8,5 8,4 7,5 5,6 5,5 6,7 4,5 9,10";

/// The game under symmetry `s` shifted by `d` cells (`d` in 0..4: distinct games).
fn variant(moves: &[Pos], s: u8, d: usize) -> Vec<Pos> {
    moves
        .iter()
        .map(|&p| wuzi::db::key::Sym(s).apply(Pos::new(p.x() + d, p.y() + d), 15))
        .collect()
}

fn setup() -> (std::path::PathBuf, Db, Vec<Pos>) {
    let dir = std::env::temp_dir().join(format!("wuzi-db-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = Db::open(&dir.join("bench.db")).unwrap();
    let game = parse_move_list(GAME).unwrap();
    for i in 0..200 {
        let g = variant(&game, (i % 8) as u8, (i / 8) % 4);
        // Black won the game, in every orientation.
        let end = GameEnd::Won(Color::Black);
        db.learn_game(15, Rule::Freestyle, &g, end, i as u64, &[])
            .unwrap();
    }
    (dir, db, game)
}

fn bench_db(c: &mut Criterion) {
    let (dir, db, game) = setup();
    // White to move at its 8th move: the game taught a penalty there.
    let mut board = Board::new(15, Rule::Freestyle);
    board.play_all(&game[..15]).unwrap();
    let advice = db.advice(&mut board).unwrap();
    assert!(
        !advice.penalties.is_empty(),
        "the probe finds what the games taught"
    );
    let positions = db.stats().unwrap().positions;
    let mut g = c.benchmark_group("db");
    g.bench_function("canonical key", |b| {
        b.iter(|| black_box(Canon::of(black_box(&board))))
    });
    g.bench_function(format!("root probe ({positions} positions)"), |b| {
        b.iter(|| black_box(db.advice(&mut board).unwrap()))
    });
    g.bench_function("search write-back alone", |b| {
        b.iter(|| db.store_search(&board, Pos::new(7, 6), 25, 9).unwrap())
    });
    let note = Db::note_search(&board, Pos::new(7, 6), 25, 9).unwrap();
    g.bench_function("a move's access (write-back and probe)", |b| {
        b.iter(|| black_box(db.advise(&mut board, std::slice::from_ref(&note)).unwrap()))
    });
    g.bench_function("learn a 21-move game", |b| {
        b.iter(|| {
            db.learn_game(
                15,
                Rule::Freestyle,
                &game,
                GameEnd::Won(Color::Black),
                0,
                &[],
            )
            .unwrap()
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench_db);
criterion_main!(benches);
