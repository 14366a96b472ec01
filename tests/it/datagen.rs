//! Self-play data generation (`wuzi::datagen`): the shards hold legal games whose results
//! are what the boards say, a rerun resumes (skips complete shards, redoes a damaged one),
//! a shard is the same for the same seed, and a part of a run makes the whole run's shards.

use std::path::PathBuf;
use wuzi::datagen::format::{read_shard, Game, Outcome};
use wuzi::datagen::opening::OpeningStyle;
use wuzi::datagen::selfplay::Settings;
use wuzi::datagen::Job;
use wuzi::engine::{Engine, GameStatus};
use wuzi::eval::Evaluation;
use wuzi::search::mate_distance;
use wuzi::types::Color;
use wuzi::Rule;

/// `games` games of `rule` on a `size` board at `nodes` a move, one game a shard, into a
/// fresh directory.
fn job(dir: &str, rule: Rule, size: usize, games: usize, nodes: u64) -> Job {
    let out = std::env::temp_dir().join(format!("wuzi-datagen-{dir}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    Job {
        settings: Settings {
            size,
            rule,
            nodes,
            openings: OpeningStyle::Centre,
        },
        games,
        shard_games: 1,
        workers: 2,
        seed: 9,
        out,
        eval: Evaluation::Default,
    }
}

fn shards(job: &Job) -> Vec<PathBuf> {
    (0..job.shards()).map(|k| job.shard_path(k)).collect()
}

/// Replays `game` on an engine: every move legal, and the recorded outcome the one the
/// board shows (a five, a forbidden move) or the one the last search proved.
fn check_game(game: &Game) {
    let mut engine = Engine::new(game.size, game.rule).expect("size");
    let mut status = GameStatus::Ongoing;
    for (i, ply) in game.plies.iter().enumerate() {
        assert_eq!(status, GameStatus::Ongoing, "ply {i} after the end");
        if i >= game.opening {
            assert!(!ply.best.is_none(), "searched ply {i} has a best move");
        }
        status = engine.play(ply.played).expect("a legal move");
    }
    match status {
        GameStatus::Five { winner } => assert_eq!(game.outcome, Outcome::won_by(winner)),
        GameStatus::Draw => assert_eq!(game.outcome, Outcome::Draw),
        GameStatus::Ongoing => {
            // Ended by a proven score: the last searched ply's side won or lost.
            let last = game.plies.last().expect("plies");
            let d = mate_distance(last.score as i32)
                .unwrap_or_else(|| panic!("no five and no proven score: {game:?}"));
            let mover = if (game.plies.len() - 1) % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let winner = if d > 0 { mover } else { !mover };
            assert_eq!(game.outcome, Outcome::won_by(winner));
        }
        other => panic!("unexpected end {other:?}"),
    }
}

/// Plays `games` games of each rule on a `size` board at `nodes` a move and checks every one.
fn check_run(size: usize, games: usize, nodes: u64) {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let dir = format!("{}-{size}-{games}", rule.name());
        let job = job(&dir, rule, size, games, nodes);
        let summary = job.run(&|_| {}).expect("a run");
        assert_eq!((summary.games, summary.shards_written), (games, games));
        let mut positions = 0;
        for path in shards(&job) {
            let games = read_shard(&std::fs::read(&path).expect("a shard")).expect("readable");
            assert_eq!(games.len(), 1);
            for game in &games {
                assert_eq!((game.size, game.rule), (size, rule));
                assert!(game.opening >= wuzi::datagen::opening::MIN_OPENING);
                check_game(game);
                positions += game.plies.len() - game.opening;
            }
        }
        assert_eq!(positions, summary.positions);
        let _ = std::fs::remove_dir_all(&job.out);
    }
}

/// One small game of each rule on 7x7 (the dev profile's searches are slow).
#[test]
fn shards_hold_legal_games_with_true_results() {
    check_run(7, 1, 100);
}

/// Sixty games of each rule on 15x15 at 1,500 nodes: a draw by a full board, adjudicated
/// wins and fives all occur.
#[test]
#[ignore = "long: run in release"]
fn many_games_hold_legal_moves_and_true_results() {
    check_run(15, 60, 1_500);
}

#[test]
fn a_rerun_resumes_and_gives_the_same_shards() {
    let job = job("resume", Rule::Freestyle, 7, 2, 100);
    job.run(&|_| {}).expect("a run");
    let [first, second] = &shards(&job)[..] else {
        panic!("two shards")
    };
    let (a, b) = (
        std::fs::read(first).unwrap(),
        std::fs::read(second).unwrap(),
    );
    // Nothing to do: both shards are complete.
    let again = job.run(&|_| panic!("no game is played")).expect("a rerun");
    assert_eq!((again.shards_skipped, again.shards_written), (2, 0));
    // A shard cut short (a killed writer) and a missing one are made again, the same.
    std::fs::write(first, &a[..a.len() - 3]).unwrap();
    std::fs::remove_file(second).unwrap();
    let again = job.run(&|_| {}).expect("a rerun");
    assert_eq!((again.shards_skipped, again.shards_written), (0, 2));
    assert_eq!(std::fs::read(first).unwrap(), a);
    assert_eq!(std::fs::read(second).unwrap(), b);
    let _ = std::fs::remove_dir_all(&job.out);
}

/// A part of a run (`Job::run_shards`, `wuzi datagen --shards`) makes the shards the whole
/// run makes under those numbers, and no other.
#[test]
fn a_part_of_a_run_makes_the_same_shards() {
    let whole = job("whole", Rule::Freestyle, 7, 3, 100);
    whole.run(&|_| {}).expect("a run");
    let mut part = job("part", Rule::Freestyle, 7, 3, 100);
    part.workers = 1;
    let summary = part.run_shards(1..2, &|_| {}).expect("a part");
    assert_eq!((summary.shards_written, summary.games), (1, 1));
    assert!(!part.shard_path(0).exists() && !part.shard_path(2).exists());
    assert_eq!(
        std::fs::read(part.shard_path(1)).unwrap(),
        std::fs::read(whole.shard_path(1)).unwrap()
    );
    // A range past the run's end is cut to it.
    let summary = part.run_shards(2..9, &|_| {}).expect("a part");
    assert_eq!(summary.shards_written, 1);
    let _ = std::fs::remove_dir_all(&whole.out);
    let _ = std::fs::remove_dir_all(&part.out);
}

/// The evaluation is the job's: on 15x15 freestyle the default (the built-in net) and the
/// classical evaluation play other games from the same seed.
#[test]
fn the_evaluation_is_the_jobs() {
    let net = job("eval-net", Rule::Freestyle, 15, 1, 2_000);
    let mut classical = job("eval-classical", Rule::Freestyle, 15, 1, 2_000);
    classical.eval = Evaluation::Classical;
    net.run(&|g| check_game(g)).expect("a run");
    classical.run(&|g| check_game(g)).expect("a run");
    let read = |j: &Job| std::fs::read(&shards(j)[0]).unwrap();
    assert_ne!(read(&net), read(&classical));
    let _ = std::fs::remove_dir_all(&net.out);
    let _ = std::fs::remove_dir_all(&classical.out);
}

/// A run of wide openings names its shards `-wide`, plays legal games from openings of
/// its own stone counts, and makes other games than the centre's from the same seed.
#[test]
fn wide_openings_make_shards_of_their_own() {
    use wuzi::datagen::opening::{WIDE_MAX_OPENING, WIDE_MIN_OPENING};
    let centre = job("openings-centre", Rule::Renju, 9, 2, 100);
    let mut wide = job("openings-wide", Rule::Renju, 9, 2, 100);
    wide.settings.openings = OpeningStyle::Wide;
    centre.run(&|g| check_game(g)).expect("a run");
    wide.run(&|g| check_game(g)).expect("a run");
    let name = |j: &Job| {
        j.shard_path(0)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };
    assert_eq!(name(&centre), "renju9-n100-s9-00000.wzd");
    assert_eq!(name(&wide), "renju9-wide-n100-s9-00000.wzd");
    for path in shards(&wide) {
        for game in read_shard(&std::fs::read(&path).unwrap()).unwrap() {
            assert!((WIDE_MIN_OPENING..=WIDE_MAX_OPENING).contains(&game.opening));
        }
    }
    let read = |j: &Job| std::fs::read(&shards(j)[0]).unwrap();
    assert_ne!(read(&centre), read(&wide));
    let _ = std::fs::remove_dir_all(&centre.out);
    let _ = std::fs::remove_dir_all(&wide.out);
}

#[test]
fn a_bad_setting_or_directory_is_an_error() {
    let mut bad = job("bad", Rule::Freestyle, 9, 1, 300);
    bad.settings.size = 40;
    assert!(bad.run(&|_| {}).is_err());
    let mut bad = job("bad-dir", Rule::Freestyle, 9, 1, 300);
    bad.out = PathBuf::from("/proc/no-such-place/shards");
    let e = bad.run(&|_| {}).expect_err("cannot create the directory");
    assert!(e.to_string().contains("/proc/no-such-place"), "{e}");
}

/// `wuzi features` turns the shards of a run into one record per searched position, skips
/// an unreadable shard with a message, and refuses a directory without shards. A run that
/// fails after it began writing leaves an older file of that name as it was, and no
/// unfinished file beside it.
#[test]
fn features_hold_one_record_per_searched_position() {
    use wuzi::datagen::features::{record_bytes, HEADER_BYTES, MAGIC};
    let job = job("features", Rule::Freestyle, 7, 2, 100);
    let summary = job.run(&|_| {}).expect("a run");
    std::fs::write(job.out.join("junk.wzd"), b"not a shard").unwrap();
    let out = job.out.join("all.wzf");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .arg("features")
        .arg("--out")
        .arg(&out)
        .arg(&job.out)
        .output()
        .expect("wuzi runs");
    assert!(run.status.success(), "{run:?}");
    assert!(String::from_utf8_lossy(&run.stderr).contains("junk.wzd"));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..8], &MAGIC);
    assert_eq!(bytes[8], 7, "board size");
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    assert_eq!(n, summary.positions);
    assert_eq!(bytes.len(), HEADER_BYTES + n * record_bytes(7));
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .arg("features")
        .arg("--out")
        .arg(&out)
        .arg(job.out.join("junk.wzd"))
        .output()
        .expect("wuzi runs");
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("no game"));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        bytes,
        "the older file is kept"
    );
    assert!(!job.out.join("all.wzf.partial").exists());
    let empty = job.out.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(["features", "--out"])
        .arg(job.out.join("none.wzf"))
        .arg(&empty)
        .output()
        .expect("wuzi runs");
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("no shard found"));
    let _ = std::fs::remove_dir_all(&job.out);
}
