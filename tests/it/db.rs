//! The position database (src/db): canonical keys against brute force over the eight
//! symmetries, records surviving a reopen, learning from a lost game so that the engine
//! deviates (in the game's orientation and mirrored), export and import, and files that
//! cannot be used (corrupt, not a database).

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Debug;
use std::path::PathBuf;
use wuzi::db::key::{decode_key, Sym};
use wuzi::db::{Canon, Db, DbError, GameEnd};
use wuzi::search::tt::MATE_BOUND;
use wuzi::search::WIN;
use wuzi::{Color, Engine, Level, Limits, Pos, Rule};

/// A fresh folder under the system's temp dir for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-db-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp folder");
    dir
}

fn random_stones(rng: &mut Xoshiro256PlusPlus, n: usize, count: usize) -> Vec<(Pos, Color)> {
    let mut stones: Vec<(Pos, Color)> = Vec::new();
    while stones.len() < count {
        let p = Pos::new(rng.next_u64() as usize % n, rng.next_u64() as usize % n);
        if stones.iter().all(|s| s.0 != p) {
            stones.push((p, Color::ALL[stones.len() % 2]));
        }
    }
    stones
}

fn image(stones: &[(Pos, Color)], s: Sym, n: usize) -> Vec<(Pos, Color)> {
    stones.iter().map(|&(p, c)| (s.apply(p, n), c)).collect()
}

fn sorted(mut v: Vec<(Pos, Color)>) -> Vec<(u16, usize)> {
    v.sort_by_key(|s| s.0 .0);
    v.into_iter().map(|(p, c)| (p.0, c.index())).collect()
}

#[test]
fn all_eight_images_of_a_position_share_its_key_and_map_moves_back() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(35);
    for round in 0..300 {
        let n = [5, 6, 15, 20, 22][round % 5];
        let count = (rng.next_u64() as usize % (n * n / 3)).max(round % 3);
        let stones = random_stones(&mut rng, n, count);
        let rule = Rule::ALL[round % Rule::ALL.len()];
        let side = Color::ALL[round % 2];
        let base = Canon::from_stones(n, rule, side, &stones);
        // The key is one of the eight images, and no image is smaller.
        let k = decode_key(&base.key).expect("a key reads back");
        assert_eq!((k.size, k.rule, k.to_move), (n, rule, side));
        let back = k.stones;
        assert!(Sym::ALL
            .iter()
            .any(|&t| sorted(image(&stones, t, n)) == sorted(back.clone())));
        let moves: Vec<Pos> = (0..8)
            .map(|_| Pos::new(rng.next_u64() as usize % n, rng.next_u64() as usize % n))
            .collect();
        for t in Sym::ALL {
            let turned = image(&stones, t, n);
            let c = Canon::from_stones(n, rule, side, &turned);
            assert_eq!(c.key, base.key, "round {round}, symmetry {t:?}");
            for &m in &moves {
                let tm = t.apply(m, n);
                // The same move seen from either orientation is one canonical move...
                assert_eq!(c.to_canonical(tm), base.to_canonical(m), "round {round}");
                // ...and it maps back to a move equivalent to it in that orientation.
                let back = c.from_canonical(c.to_canonical(tm));
                assert_eq!(c.to_canonical(back), c.to_canonical(tm));
                if stones.len() > 4 && !symmetric(&stones, n) {
                    assert_eq!(back, tm, "round {round}: the move maps back exactly");
                }
            }
        }
        // The other side to move, another rule or size is another key.
        let other = Canon::from_stones(n, rule, !side, &stones);
        assert_ne!(other.key, base.key);
    }
}

/// Is the position its own image under a symmetry other than the identity?
fn symmetric(stones: &[(Pos, Color)], n: usize) -> bool {
    Sym::ALL[1..]
        .iter()
        .any(|&t| sorted(image(stones, t, n)) == sorted(stones.to_vec()))
}

#[test]
fn a_symmetric_position_makes_mirror_moves_one_move() {
    // The empty board: all eight images of a point are one move.
    let c = Canon::from_stones(15, Rule::Freestyle, Color::Black, &[]);
    let m = c.to_canonical(Pos::new(3, 5));
    for t in Sym::ALL {
        assert_eq!(c.to_canonical(t.apply(Pos::new(3, 5), 15)), m);
    }
}

/// A game the brain lost as white (classical evaluation, 1,000 nodes a move, against
/// itself at depth 7; `db_process` replays a later one of the same kind, as the search
/// changes). Only its moves matter here.
const LOST: &str = "7,7 8,6 6,8 6,6 5,7 8,7 7,9 8,10 5,6 7,6 3,5 4,6 5,8 10,6 9,6 5,9 5,5 5,4 6,5 8,9 8,8 4,5 7,8 4,8 9,8";

/// A game `db_process` replayed with an earlier search: the damage test's flips were
/// measured on the file it writes (one of them once made redb ask for 8 TB).
const LOST_EARLIER: &str = "7,7 8,6 6,8 6,6 5,7 8,7 7,9 8,10 5,6 7,6 5,8 5,9 3,8 9,6 10,6 8,8 8,9 8,4 8,5 4,8 6,5 4,7 5,5 5,4 7,5 4,5 9,5";

/// The moves of [`LOST`].
fn lost_moves() -> Vec<Pos> {
    moves_of(LOST)
}

/// The moves of a game written as `x,y` points.
fn moves_of(game: &str) -> Vec<Pos> {
    game.split(' ')
        .map(|t| wuzi::notation::parse_xy(t).unwrap())
        .collect()
}

/// One line of the import form (docs/db.md) for a 15x15 freestyle position: `to_move`,
/// the stones (lists of `x,y` strings) and `fields`, the record's JSON fields.
fn import_line(to_move: &str, black: &impl Debug, white: &impl Debug, fields: &str) -> String {
    format!(
        "{{\"size\":15,\"rule\":\"freestyle\",\"to_move\":\"{to_move}\",\"black\":{black:?},\"white\":{white:?},{fields}}}\n"
    )
}

fn engine_with(db: &Db, size: usize, rule: Rule) -> Engine {
    let mut e = Engine::new(size, rule).expect("a supported size");
    e.set_db(Some(db.clone()));
    e
}

#[test]
fn what_a_game_and_a_search_teach_survives_a_reopen() {
    let dir = temp_dir("reopen");
    let path = dir.join("k.db");
    let db = Db::open(&path).expect("a new database");
    // Black wins with a row on the top line; white plays below.
    let moves: Vec<Pos> = (0..9)
        .map(|i| {
            if i % 2 == 0 {
                Pos::new(3 + i / 2, 0)
            } else {
                Pos::new(3 + i / 2, 5)
            }
        })
        .collect();
    let learned = db
        .learn_game(
            15,
            Rule::Freestyle,
            &moves,
            GameEnd::Won(Color::Black),
            7,
            &[],
        )
        .expect("written");
    assert_eq!(learned.positions, 9);
    // Black's last move won at once; white's before it lost to it; black's before that
    // made the open four that wins (white had no five point: not forced, no proof there).
    assert!(learned.proofs >= 2, "{learned:?}");
    drop(db);
    let db = Db::open(&path).expect("reopened");
    let stats = db.stats().expect("stats");
    assert_eq!((stats.games, stats.positions), (1, 9), "{stats:?}");
    // The position before the five, mirrored left to right: black wins in one.
    let mut e = engine_with(&db, 15, Rule::Freestyle);
    let mirrored: Vec<Pos> = moves[..8].iter().map(|&p| Sym(1).apply(p, 15)).collect();
    e.set_position(&mirrored).expect("legal");
    let known = e.db_known().expect("known");
    let proof = known.proven.expect("proven");
    assert!(proof.win && proof.distance == 1, "{proof:?}");
    let five = Sym(1).apply(moves[8], 15);
    assert_eq!(proof.best, five, "the move maps back to the mirrored board");
    assert_eq!(known.moves[0].mv, five);
    assert_eq!(known.moves[0].wins, 1);
    // A search's result is stored for its root (with the next access, or when the front
    // end says the game is over).
    let out = e.think(Level::Depth(2), &Limits::default(), &mut |_| {});
    assert_eq!(out.best, five);
    assert_eq!(
        e.learn_game(),
        None,
        "the game goes on: nothing to learn yet"
    );
    let known = e.db_known().expect("known");
    assert_eq!(known.deep.map(|d| d.best), Some(five));
}

#[test]
fn a_fresh_proof_of_a_loss_wins_over_the_database() {
    // Black has an open three on row 7; white to move must stop it. The database (filled
    // by hand) claims that every stop loses: the engine still stops it, because a fresh
    // search proves that every other move loses.
    let dir = temp_dir("lies");
    let db = Db::open(&dir.join("lies.db")).expect("a new database");
    let black = ["6,7", "7,7", "8,7"];
    let white = ["0,0", "14,14"];
    let stops = [
        Pos::new(5, 7),
        Pos::new(9, 7),
        Pos::new(4, 7),
        Pos::new(10, 7),
    ];
    let mut lines = String::new();
    for stop in stops {
        let white: Vec<String> = white
            .iter()
            .map(|s| s.to_string())
            .chain([stop.to_string()])
            .collect();
        lines += &import_line(
            "black",
            &black,
            &white,
            "\"proven\":{\"win\":true,\"distance\":5}",
        );
    }
    assert_eq!(db.import(&lines).expect("imported"), 4);
    let moves: Vec<Pos> = [
        Pos::new(6, 7),
        Pos::new(0, 0),
        Pos::new(7, 7),
        Pos::new(14, 14),
        Pos::new(8, 7),
    ]
    .to_vec();
    let mut e = engine_with(&db, 15, Rule::Freestyle);
    e.set_position(&moves).unwrap();
    let advice = e.db_known().expect("known").advice;
    assert_eq!(advice.penalties.len(), 4, "{advice:?}");
    let out = e.think(Level::Depth(4), &Limits::default(), &mut |_| {});
    assert!(stops.contains(&out.best), "{}", out.best);
    assert!(
        out.score > -MATE_BOUND,
        "a penalised stop is not a proven loss"
    );
    assert!(e.take_db_notes().is_empty());
}

/// A move that won its games gets a bonus (`db::learn::OUTCOME_STEP` a game, at most
/// `OUTCOME_CAP`): where the search alone plays another move it finds nearly as good, the
/// engine plays the move that won again.
#[test]
fn a_move_that_won_is_played_again_over_a_near_equal_one() {
    use wuzi::db::learn::OUTCOME_CAP;
    let dir = temp_dir("bonus");
    let db = Db::open(&dir.join("bonus.db")).expect("a new database");
    let moves = wuzi::notation::parse_move_list("7,7 8,8 6,9").unwrap();
    let search = |e: &mut Engine| e.think(Level::Depth(4), &Limits::default(), &mut |_| {});
    let mut e = engine_with(&db, 15, Rule::Freestyle);
    e.set_position(&moves).unwrap();
    let first = search(&mut e);
    // The search's second choice, and that it is within the bonus of the first.
    e.set_excluded(vec![first.best]);
    let second = search(&mut e);
    e.set_excluded(Vec::new());
    assert_ne!(first.best, second.best);
    assert!(
        first.score - second.score < OUTCOME_CAP,
        "{} against {}",
        first.score,
        second.score
    );
    let stones = |c: usize| {
        moves
            .iter()
            .skip(c)
            .step_by(2)
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
    };
    let won = format!(
        "\"moves\":[{{\"move\":\"{}\",\"wins\":5,\"draws\":0,\"losses\":0,\"last\":1764200000}}]",
        second.best
    );
    let line = import_line("white", &stones(0), &stones(1), &won);
    assert_eq!(db.import(&line).expect("imported"), 1);
    let advice = e.db_known().expect("known").advice;
    assert_eq!(advice.penalties, vec![(second.best, -OUTCOME_CAP)]);
    assert_eq!(search(&mut e).best, second.best);
}

#[test]
fn a_proven_win_in_the_database_is_played_unless_a_fresh_search_refutes_it() {
    let dir = temp_dir("wins");
    let db = Db::open(&dir.join("wins.db")).expect("a new database");
    let line = |black: &[&str], white: &[&str], best: &str, distance: u16| {
        let proven =
            format!("\"proven\":{{\"win\":true,\"distance\":{distance},\"best\":\"{best}\"}}");
        import_line("white", &black, &white, &proven)
    };
    // A quiet position, where a 4-ply search sees no win: the stored one is played, with
    // its score.
    let quiet = line(&["7,7", "9,8"], &["8,7"], "6,6", 21);
    // Black has a four (white blocks its left end): the stored "win" elsewhere loses to the
    // five at once, which the search proves, so white blocks.
    let four = line(
        &["5,7", "6,7", "7,7", "8,7"],
        &["4,7", "0,0", "14,14"],
        "3,3",
        9,
    );
    assert_eq!(db.import(&(quiet + &four)).expect("imported"), 2);
    let xy = |s: &str| wuzi::notation::parse_xy(s).unwrap();

    let mut e = engine_with(&db, 15, Rule::Freestyle);
    e.set_position(&[xy("7,7"), xy("8,7"), xy("9,8")]).unwrap();
    let advice = e.db_known().expect("known").advice;
    assert_eq!(advice.win, Some((xy("6,6"), 21)), "{advice:?}");
    assert_eq!(advice.first, Some(xy("6,6")));
    let out = e.think(Level::Depth(4), &Limits::default(), &mut |_| {});
    assert_eq!((out.best, out.score), (xy("6,6"), WIN - 21));
    // Without the database the same search finds no win.
    let mut plain = Engine::new(15, Rule::Freestyle).unwrap();
    plain
        .set_position(&[xy("7,7"), xy("8,7"), xy("9,8")])
        .unwrap();
    let out = plain.think(Level::Depth(4), &Limits::default(), &mut |_| {});
    assert!(out.score < MATE_BOUND, "{}", out.score);

    let mut e = engine_with(&db, 15, Rule::Freestyle);
    let moves = ["5,7", "4,7", "6,7", "0,0", "7,7", "14,14", "8,7"];
    e.set_position(&moves.map(xy)).unwrap();
    assert_eq!(
        e.db_known().expect("known").advice.win,
        Some((xy("3,3"), 9))
    );
    let out = e.think(Level::Depth(4), &Limits::default(), &mut |_| {});
    assert_eq!(out.best, xy("9,7"), "the four is blocked");
}

#[test]
fn export_and_import_carry_every_record() {
    let dir = temp_dir("export");
    let a = Db::open(&dir.join("a.db")).unwrap();
    let moves = lost_moves();
    a.learn_game(
        15,
        Rule::Freestyle,
        &moves,
        GameEnd::Won(Color::Black),
        99,
        &[],
    )
    .unwrap();
    let mut text = Vec::new();
    let n = a.export(&mut text).unwrap();
    assert_eq!(n, a.stats().unwrap().positions);
    let text = String::from_utf8(text).unwrap();
    // Twice into another file: outcomes add up, proofs stay.
    let b = Db::open(&dir.join("b.db")).unwrap();
    assert_eq!(b.import(&text).unwrap(), n);
    assert_eq!(b.import(&text).unwrap(), n);
    let mut again = Vec::new();
    b.export(&mut again).unwrap();
    let again = String::from_utf8(again).unwrap();
    assert_eq!(again.lines().count(), text.lines().count());
    assert!(again.contains("\"wins\":2") && text.contains("\"wins\":1"));
    // A bad line names itself and nothing is written.
    let before = b.stats().unwrap();
    let bad = format!("{}\n{{\"size\":99}}\n", text.lines().next().unwrap());
    match b.import(&bad) {
        Err(DbError::Import { line: 2, .. }) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(b.stats().unwrap().positions, before.positions);
    // Pruning keeps proofs and drops the rest when asked to keep only those.
    let rule = wuzi::db::export::PruneRule {
        keep_proven: true,
        min_depth: u8::MAX,
        min_games: u32::MAX,
        since: 0,
    };
    let removed = b.prune(rule).unwrap();
    let after = b.stats().unwrap();
    assert_eq!(after.positions, after.proven);
    assert_eq!(removed + after.positions, before.positions);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_file_is_an_error_not_a_crash() {
    let dir = temp_dir("damaged");
    let junk = dir.join("junk.db");
    std::fs::write(&junk, b"this is not a database at all, just some words").unwrap();
    match Db::open(&junk) {
        Err(e @ DbError::Corrupt { .. }) => assert!(e.to_string().contains("junk.db"), "{e}"),
        other => panic!("{other:?}"),
    }
    // A real database cut in half.
    let path = dir.join("cut.db");
    let db = Db::open(&path).unwrap();
    let moves = lost_moves();
    db.learn_game(
        15,
        Rule::Freestyle,
        &moves,
        GameEnd::Won(Color::Black),
        1,
        &[],
    )
    .unwrap();
    drop(db);
    let bytes = std::fs::read(&path).unwrap();
    for cut in [bytes.len() / 2, 4096, 100, 20] {
        std::fs::write(&path, &bytes[..cut]).unwrap();
        match Db::open(&path).and_then(|d| d.stats()) {
            Err(e @ DbError::Corrupt { .. }) => assert!(e.to_string().contains("cut.db"), "{e}"),
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
    // The engine with a file that fails later drops it with a note and plays on.
    let missing = dir.join("gone").join("x.db");
    assert!(matches!(Db::open(&missing), Err(DbError::Io { .. })));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two brains of one game sharing the file both learn it when the manager ends it: the
/// second is told it was just learned, and nothing counts twice. The same moves learned
/// again later (a line repeated) count again.
#[test]
fn the_same_game_learned_twice_at_once_counts_once() {
    let dir = temp_dir("twice");
    let db = Db::open(&dir.join("t.db")).expect("a new database");
    let moves: Vec<Pos> = (0..9)
        .map(|i| Pos::new(3 + i / 2, if i % 2 == 0 { 0 } else { 5 }))
        .collect();
    let end = GameEnd::Won(Color::Black);
    let learn = |now| {
        db.learn_game(15, Rule::Freestyle, &moves, end, now, &[])
            .expect("written")
    };
    let first = learn(1_000);
    assert!(!first.repeated && first.positions == 9, "{first:?}");
    let second = learn(1_002);
    assert!(second.repeated && second.positions == 0, "{second:?}");
    assert_eq!(db.stats().unwrap().games, 1);
    let later = learn(1_000 + 10 * wuzi::db::learn::SAME_GAME_SECONDS);
    assert!(!later.repeated && later.positions == 9, "{later:?}");
    assert_eq!(db.stats().unwrap().games, 2);
    // Another game at once is another game.
    let mut other = moves.clone();
    other[8] = Pos::new(7, 1);
    let o = db
        .learn_game(15, Rule::Freestyle, &other, GameEnd::Draw, 1_000, &[])
        .unwrap();
    assert!(!o.repeated);
    let _ = std::fs::remove_dir_all(&dir);
}

/// redb 2.6 asserts on some damage inside a file instead of reporting it; the database turns
/// that into an error (on which an engine drops the file and plays on, as for any damage).
#[test]
fn a_file_damaged_inside_is_an_error_not_a_crash() {
    // Two games' files: in the second's, before reads were checked against the file's
    // length (db/backend.rs), one flip made redb ask for 8 TB and the failed allocation
    // aborted the process; another panicked while a table was open, and the table's drop
    // panicked again during the unwinding, which also aborts.
    for (name, game) in [("old", LOST), ("new", LOST_EARLIER)] {
        let errors = damage_file(name, &moves_of(game));
        // Some damage is reported (seed 1: 15 of 300 on the old game's file, 22 on the
        // new one's, at the time of writing); most flips hit bytes no read needs.
        assert!(errors > 0, "{name}");
    }
}

/// Learns `moves` into a fresh file, then flips 4 random bits of the bytes the game wrote,
/// 300 times, each time opening the file, counting it and learning the game again: no
/// access may crash, and every error names the file. Returns the errors.
fn damage_file(name: &str, moves: &[Pos]) -> usize {
    let dir = temp_dir(&format!("flip-{name}"));
    let path = dir.join("f.db");
    let db = Db::open(&path).unwrap();
    let end = GameEnd::Won(Color::Black);
    db.learn_game(15, Rule::Freestyle, moves, end, 1, &[])
        .unwrap();
    drop(db);
    let bytes = std::fs::read(&path).unwrap();
    // The bytes a game wrote: those that differ from an empty database's.
    let empty_path = dir.join("e.db");
    drop(Db::open(&empty_path).unwrap());
    let empty = std::fs::read(&empty_path).unwrap();
    let live: Vec<usize> = (0..bytes.len())
        .filter(|&i| i >= empty.len() || bytes[i] != empty[i])
        .collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let (mut crashes, mut errors) = (0, 0);
    for _ in 0..300 {
        let mut b = bytes.clone();
        for _ in 0..4 {
            let i = live[(rng.next_u64() as usize) % live.len()];
            b[i] ^= 1 << (rng.next_u64() % 8);
        }
        std::fs::write(&path, &b).unwrap();
        let access = std::panic::catch_unwind(|| {
            let d = Db::open(&path)?;
            d.stats()?;
            d.learn_game(15, Rule::Freestyle, moves, end, 2, &[])
        });
        match access {
            Err(_) => crashes += 1,
            Ok(Err(e)) => {
                assert!(e.to_string().contains("f.db"), "{e}");
                errors += 1;
            }
            Ok(Ok(_)) => {}
        }
    }
    assert_eq!(crashes, 0, "{name}: {errors} errors");
    let _ = std::fs::remove_dir_all(&dir);
    errors
}
