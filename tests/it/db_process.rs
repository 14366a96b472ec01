//! The position database through the brain's processes (`pbrain-wuzi --db FILE`): the
//! acceptance test (a lost game replayed in a new process: the engine deviates, in the
//! game's orientation and mirrored), two brains writing one file at once, and files the
//! brain cannot use (corrupt, read-only, locked, in a missing folder): each gives a message
//! and the brain plays on.

use super::db::temp_dir;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};
use wuzi::db::key::Sym;
use wuzi::db::Db;
use wuzi::notation::parse_xy;
use wuzi::Pos;

const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-wuzi");

/// A game the brain (classical evaluation) lost as white at 1,000 nodes a move against
/// itself at depth 7 from the opening 7,7 8,6 6,8 (freestyle 15x15, found with the release
/// build; node budgets give the same searches in every build; found again whenever the
/// brain's searches at 1,000 nodes change). Black's move 25, 8,11, makes five.
const LOST: &str =
    "7,7 8,6 6,8 9,7 7,5 8,8 7,9 8,5 8,7 5,7 6,9 7,6 5,9 4,9 7,8 6,7 5,8 9,4 10,3 9,6 7,10 7,11 4,7 3,6 8,11";
/// The opening's length: the brain gets it as a BOARD and plays from move 4 on.
const OPENING: usize = 3;
/// The brain's node budget a move (`INFO max_node`): the same search in every run, and
/// short in the test profile (whose board rechecks itself after every move).
const NODES: u64 = 1000;

fn lost_game() -> Vec<Pos> {
    LOST.split(' ')
        .map(|t| parse_xy(t).expect("a point"))
        .collect()
}

/// A brain process and the lines it printed.
struct Brain {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    messages: Vec<String>,
}

impl Brain {
    fn start(args: &[&str], uid: Option<u32>) -> Brain {
        let mut cmd = Command::new(BRAIN);
        // The game below was played with the classical evaluation.
        cmd.args(["--eval", "classical"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(uid) = uid {
            use std::os::unix::process::CommandExt;
            cmd.uid(uid);
        }
        let mut child = cmd.spawn().expect("the brain starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut b = Brain {
            child,
            stdin,
            stdout,
            messages: Vec::new(),
        };
        b.send("START 15");
        assert_eq!(b.answer(), "OK");
        b.send("INFO timeout_turn 600000");
        b.send(&format!("INFO max_node {NODES}"));
        b
    }

    fn with_db(db: &Path) -> Brain {
        Brain::start(&["--db", db.to_str().unwrap()], None)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the brain reads");
        self.stdin.flush().unwrap();
    }

    /// The next line that is not a MESSAGE (those are kept).
    fn answer(&mut self) -> String {
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("the brain answers");
            assert!(n > 0, "the brain ended; messages: {:?}", self.messages);
            let line = line.trim().to_string();
            if line.starts_with("MESSAGE") {
                self.messages.push(line);
            } else {
                return line;
            }
        }
    }

    fn play(&mut self) -> Pos {
        let a = self.answer();
        parse_xy(&a).unwrap_or_else(|e| panic!("{a}: {e}; messages {:?}", self.messages))
    }

    /// The brain's move in the position of `moves` (given as a BOARD, side to move = the
    /// brain).
    fn board(&mut self, moves: &[Pos]) -> Pos {
        self.send("BOARD");
        let n = moves.len();
        for (i, p) in moves.iter().enumerate() {
            let own = if i % 2 == n % 2 { 1 } else { 2 };
            self.send(&format!("{},{},{own}", p.x(), p.y()));
        }
        self.send("DONE");
        self.play()
    }

    fn turn(&mut self, p: Pos) -> Pos {
        self.send(&format!("TURN {},{}", p.x(), p.y()));
        self.play()
    }

    fn end(mut self) -> Vec<String> {
        self.send("END");
        let _ = self.child.wait();
        self.messages
    }
}

/// Plays the lost game's black moves against the brain (white) from the opening; returns
/// the brain's moves until it first deviates from the game (its index), or `None`.
fn replay(brain: &mut Brain, game: &[Pos]) -> Option<(usize, Pos)> {
    let mut reply = brain.board(&game[..OPENING]);
    let mut i = OPENING;
    loop {
        if reply != game[i] {
            return Some((i, reply));
        }
        // Black's next move; the last one (the five) a manager never sends to the loser.
        if i + 2 >= game.len() {
            return None;
        }
        reply = brain.turn(game[i + 1]);
        i += 2;
    }
}

#[test]
fn a_lost_game_is_not_lost_the_same_way_again_nor_mirrored() {
    let dir = temp_dir("accept");
    let db = dir.join("memory.db");
    let game = lost_game();
    // 1. The brain loses the game, move for move; the manager then starts another.
    let mut brain = Brain::with_db(&db);
    assert_eq!(
        replay(&mut brain, &game),
        None,
        "the brain plays the lost game"
    );
    brain.send("RESTART");
    assert_eq!(brain.answer(), "OK");
    let notes = brain.end();
    assert!(notes.iter().all(|m| !m.contains("database")), "{notes:?}");
    let stats = Db::open(&db).unwrap().stats().unwrap();
    assert_eq!(stats.games, 1, "{stats:?}");
    assert!(stats.proven > 0, "{stats:?}");

    // 2. A new process with the same file and opening deviates, at or before its last move
    // of the lost game (index 23).
    let mut brain = Brain::with_db(&db);
    let (k, other) = replay(&mut brain, &game).expect("the brain deviates");
    brain.end();
    assert!(k < game.len() - 1 && k % 2 == 1, "white's move {k}");
    assert_ne!(other, game[k]);

    // 3. The same position under each symmetry: where the brain without the database plays
    // the game's move (mirrored; ties between equal moves break by position, so not under
    // every symmetry), the brain with it plays another.
    let mut mirrored = 0;
    for s in Sym::ALL {
        let turned: Vec<Pos> = game[..k].iter().map(|&p| s.apply(p, 15)).collect();
        let mut plain = Brain::start(&[], None);
        let same = plain.board(&turned) == s.apply(game[k], 15);
        plain.end();
        if !same {
            assert_ne!(s, Sym(0), "the brain's own move is the game's");
            continue;
        }
        mirrored += (s != Sym(0)) as usize;
        let mut learned = Brain::with_db(&db);
        let m = learned.board(&turned);
        learned.end();
        assert_ne!(m, s.apply(game[k], 15), "{s:?} with the database");
    }
    assert!(mirrored >= 1, "a mirrored position is tested");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_brains_write_one_file_at_once_and_nothing_is_lost() {
    let dir = temp_dir("two");
    let db = dir.join("shared.db");
    let game = lost_game();
    // White-to-move positions of the game; the second brain gets them turned a quarter, so
    // both write the same records.
    let ks: Vec<usize> = (OPENING..game.len() - 1).step_by(2).collect();
    let run = |s: Sym| {
        let db = db.clone();
        let game = game.clone();
        let ks = ks.clone();
        std::thread::spawn(move || {
            let mut b = Brain::with_db(&db);
            for &k in &ks {
                let turned: Vec<Pos> = game[..k].iter().map(|&p| s.apply(p, 15)).collect();
                b.board(&turned);
            }
            b.end()
        })
    };
    let (a, b) = (run(Sym(0)), run(Sym(5)));
    let (a, b) = (a.join().unwrap(), b.join().unwrap());
    for notes in [&a, &b] {
        assert!(notes.iter().all(|m| !m.contains("database")), "{notes:?}");
    }
    let db = Db::open(&db).expect("the file is whole");
    let stats = db.stats().expect("every record reads");
    assert_eq!(stats.searched, ks.len() as u64, "{stats:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Asserts the brain, started with `--db file`, says `want` about it and still plays.
fn plays_on_without(file: &Path, want: &str, uid: Option<u32>) {
    let mut b = Brain::start(&["--db", file.to_str().unwrap()], uid);
    b.send("BEGIN");
    let p = b.play();
    assert!(p.on_board(15));
    let notes = b.end();
    assert!(
        notes.iter().any(|m| m.contains(want)),
        "{}: {notes:?}",
        file.display()
    );
}

#[test]
fn a_corrupt_or_unreachable_file_is_reported_and_the_brain_plays_on() {
    let dir = temp_dir("bad");
    let junk = dir.join("junk.db");
    std::fs::write(&junk, vec![0x5au8; 10_000]).unwrap();
    plays_on_without(&junk, "not a readable position database", None);
    let missing = dir.join("no-such-folder").join("x.db");
    plays_on_without(&missing, "folder does not exist", None);
    // A read-only file: as root (who may write anyway) the brain runs as nobody.
    let ro = dir.join("ro.db");
    Db::open(&ro).unwrap();
    let mut perm = std::fs::metadata(&ro).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o444);
    std::fs::set_permissions(&ro, perm).unwrap();
    let root =
        std::fs::metadata("/proc/self").map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0);
    let uid = root.unwrap_or(false).then_some(65534);
    plays_on_without(&ro, "read-only", uid);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_another_process_holds_is_skipped_for_the_move() {
    let dir = temp_dir("locked");
    let path = dir.join("held.db");
    Db::open(&path).unwrap();
    let held = redb::Database::create(&path).expect("this test holds the file");
    plays_on_without(&path, "in use by another process", None);
    drop(held);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn db_without_a_file_keeps_wuzi_db_in_the_managers_folder() {
    let dir = temp_dir("folder");
    let mut b = Brain::start(&["--db"], None);
    b.send(&format!("INFO folder {}", dir.display()));
    b.send("BEGIN");
    b.play();
    let notes = b.end();
    assert!(notes.iter().all(|m| !m.contains("database")), "{notes:?}");
    let stats = Db::open(&dir.join(wuzi::protocol::DB_FILE))
        .unwrap()
        .stats();
    assert_eq!(
        stats.unwrap().searched,
        1,
        "BEGIN's search is written at END"
    );
    let mut b = Brain::start(&["--db"], None);
    b.send("BEGIN");
    b.play();
    let notes = b.end();
    assert!(
        notes.iter().any(|m| m.contains("no INFO folder")),
        "{notes:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_prompt_learns_with_db_and_shows_what_it_knows() {
    let dir = temp_dir("prompt");
    let db = dir.join("p.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(["--db", db.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Depth 2 keeps it short; the engine (white) answers h8, then db shows the position.
    let input = "level depth 2\nvary off\nh8\ndb\nquit\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Nothing is known") || text.contains("searched"),
        "{text}"
    );
    // The engine's search was written when the prompt quit.
    let stats = Db::open(&db).unwrap().stats().unwrap();
    assert_eq!(stats.searched, 1, "{stats:?}\n{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The peak resident size (`VmHWM`) of process `pid`, in kB.
fn peak_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmHWM")
}

/// The brain at the Gomocup limits with everything on (`--db`, the built-in net,
/// `max_memory` 350 MB) while another brain searches on the other core: `START` and each
/// `INFO` are answered within 100 ms, and its peak memory stays within the limit over a
/// game's first moves.
#[test]
fn the_brain_at_the_gomocup_limits_answers_at_once_and_stays_in_memory() {
    let dir = temp_dir("limits");
    let db = dir.join("limits.db");
    let spawn = |args: &[&str]| {
        let mut child = Command::new(BRAIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        (child, stdin, stdout)
    };
    let say = |w: &mut ChildStdin, line: &str| {
        writeln!(w, "{line}").unwrap();
        w.flush().unwrap();
    };
    let read = |r: &mut BufReader<ChildStdout>| loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "the brain ended");
        if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
            return line.trim().to_string();
        }
    };
    // The other engine: a long search of its own.
    let (mut other, mut other_in, mut other_out) = spawn(&[]);
    say(&mut other_in, "START 15");
    assert_eq!(read(&mut other_out), "OK");
    say(&mut other_in, "INFO timeout_turn 20000");
    say(&mut other_in, "BEGIN");
    std::thread::sleep(Duration::from_millis(200));

    let (mut brain, mut w, mut r) = spawn(&["--db", db.to_str().unwrap()]);
    let t = Instant::now();
    say(&mut w, "START 15");
    assert_eq!(read(&mut r), "OK");
    let start_ms = t.elapsed().as_millis();
    // INFO has no answer: each is followed by ABOUT, answered at once after it.
    let mut info_ms = 0;
    for info in [
        "INFO max_memory 367001600",
        "INFO timeout_match 180000",
        "INFO timeout_turn 300",
        "INFO time_left 180000",
        "INFO rule 0",
        "INFO game_type 1",
    ] {
        let t = Instant::now();
        say(&mut w, info);
        say(&mut w, "ABOUT");
        assert!(read(&mut r).starts_with("name="));
        info_ms = info_ms.max(t.elapsed().as_millis());
    }
    say(&mut w, "BEGIN");
    let mut reply = read(&mut r);
    for p in ["8,8", "6,6", "8,6", "9,9"] {
        parse_xy(&reply).unwrap_or_else(|e| panic!("{reply}: {e}"));
        say(&mut w, &format!("TURN {p}"));
        reply = read(&mut r);
    }
    let peak_mb = peak_kb(brain.id()) / 1024;
    say(&mut w, "END");
    let _ = brain.wait();
    let _ = other.kill();
    let _ = other.wait();
    eprintln!("START {start_ms} ms, INFO+ABOUT at most {info_ms} ms, peak {peak_mb} MB");
    assert!(start_ms <= 100, "START answered in {start_ms} ms");
    assert!(info_ms <= 100, "an INFO took {info_ms} ms");
    assert!(peak_mb <= 350, "peak {peak_mb} MB over max_memory 350 MB");
    assert!(Db::open(&db).unwrap().stats().unwrap().searched >= 1);
    let _ = std::fs::remove_dir_all(&dir);
}
