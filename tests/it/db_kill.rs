//! The position database through crashes: a brain (`pbrain-wuzi --db FILE`) learns game
//! after game into one file and is killed with SIGKILL at a random moment (seeded), again
//! and again; after every kill the file must open, read whole, and hold every game whose
//! write the brain had answered for. The brain learns a game when the manager sends
//! `RESTART` and answers `OK` once the game's transaction is committed, so each `OK` read
//! is a game that must be in the file. A second process that finds the file held gets a
//! clear "in use" error, and the file stays whole.

use super::db::temp_dir;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use wuzi::db::{Canon, Db};
use wuzi::{Engine, GameStatus, Pos, Rule};

const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-wuzi");
const SIZE: usize = 15;

/// A position where black (to move) has an open four, with `extra` more black stones and as
/// many white ones, all drawn from `rng`: the brain's move makes five and ends the game.
fn winning_position(rng: &mut Xoshiro256PlusPlus) -> Vec<Pos> {
    let below = |rng: &mut Xoshiro256PlusPlus, n: u64| (rng.next_u64() % n) as i32;
    loop {
        let (dx, dy) = [(1, 0), (0, 1), (1, 1), (1, -1)][below(rng, 4) as usize];
        let (x0, y0) = (1 + below(rng, 13), 1 + below(rng, 13));
        let line: Vec<(i32, i32)> = (-1..5).map(|i| (x0 + i * dx, y0 + i * dy)).collect();
        if line
            .iter()
            .any(|&(x, y)| !(0..SIZE as i32).contains(&x) || !(0..SIZE as i32).contains(&y))
        {
            continue;
        }
        let four: Vec<Pos> = line[1..5]
            .iter()
            .map(|&(x, y)| Pos::new(x as usize, y as usize))
            .collect();
        let ends = [line[0], line[5]].map(|(x, y)| Pos::new(x as usize, y as usize));
        let mut black = four.clone();
        let extra = below(rng, 3) as usize;
        let mut white = Vec::new();
        while white.len() < black.len() + extra {
            let p = Pos::new(below(rng, 15) as usize, below(rng, 15) as usize);
            if black.contains(&p) || white.contains(&p) || ends.contains(&p) {
                continue;
            }
            if black.len() < four.len() + extra && white.len() >= black.len() {
                black.push(p);
            } else {
                white.push(p);
            }
        }
        let moves: Vec<Pos> = black
            .iter()
            .zip(&white)
            .flat_map(|(&b, &w)| [b, w])
            .collect();
        let mut e = Engine::new(SIZE, Rule::Freestyle).unwrap();
        if e.set_position(&moves).is_ok() && e.status() == GameStatus::Ongoing {
            return moves;
        }
    }
}

/// The key of the position of `moves` (black to move), as the file stores it.
fn key(moves: &[Pos]) -> Vec<u8> {
    let mut e = Engine::new(SIZE, Rule::Freestyle).unwrap();
    e.set_position(moves).unwrap();
    Canon::of(e.board()).key
}

/// Which of the games' positions (by key) the file knows as won in one, the game learned:
/// one access for them all.
fn learned(db: &Db, keys: &[Vec<u8>]) -> Vec<bool> {
    let keys: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
    db.store()
        .get(&keys)
        .expect("the file reads")
        .into_iter()
        .map(|r| {
            r.and_then(|r| r.proven)
                .is_some_and(|p| p.win && p.distance == 1)
        })
        .collect()
}

/// One brain's life: games sent one after another until it is killed `after` its start.
/// Returns the games it answered `OK` for (learned and committed) and the one it was
/// learning when killed, if any.
fn one_life(db: &Path, rng: &mut Xoshiro256PlusPlus, after: Duration) -> Vec<Vec<Pos>> {
    let mut child = Command::new(BRAIN)
        .args(["--eval", "classical", "--db", db.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the brain starts");
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if !line.starts_with("MESSAGE") && tx.send(line.trim().to_string()).is_err() {
                break;
            }
        }
    });
    let killed_at = Instant::now() + after;
    let mut committed = Vec::new();
    let mut send = |text: &str| {
        writeln!(stdin, "{text}")
            .and_then(|_| stdin.flush())
            .is_ok()
    };
    // Each answer is waited for until the kill (then the pipe closes and the reader ends).
    let answer = |rx: &mpsc::Receiver<String>| {
        let wait = killed_at.saturating_duration_since(Instant::now()) + Duration::from_secs(30);
        rx.recv_timeout(wait).ok()
    };
    let killer = {
        let pid = child.id();
        std::thread::spawn(move || {
            std::thread::sleep(after);
            // SAFETY: a plain kill(2) of our own child, still unreaped (waited for below).
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        })
    };
    'life: {
        if !send("START 15") || answer(&rx).as_deref() != Some("OK") {
            break 'life;
        }
        send("INFO max_node 300");
        send("INFO timeout_turn 600000");
        loop {
            let game = winning_position(rng);
            let mut ok = send("BOARD");
            for (i, p) in game.iter().enumerate() {
                // The brain (black, to move) owns the even moves.
                let own = if i % 2 == 0 { 1 } else { 2 };
                ok &= send(&format!("{},{},{own}", p.x(), p.y()));
            }
            if !(ok && send("DONE")) {
                break 'life;
            }
            match answer(&rx) {
                Some(m) if m.contains(',') => {}
                _ => break 'life,
            }
            if !send("RESTART") || answer(&rx).as_deref() != Some("OK") {
                break 'life;
            }
            committed.push(game);
        }
    }
    killer.join().unwrap();
    let _ = child.wait();
    let _ = reader.join();
    committed
}

/// `kills` lives of a brain on one file, each killed at a random moment 100 ms to
/// 100 + `longest` ms after its start (a game takes it about 150 ms, most of it the file's
/// syncs; the first, which makes the file, longer); after each, the file opens and holds every game answered for. Returns the games
/// answered for and the games the file counts.
fn kill_run(name: &str, seed: u64, kills: usize, longest: u64) -> (usize, u64) {
    let dir = temp_dir(name);
    let path = dir.join("killed.db");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut answered: Vec<Vec<u8>> = Vec::new();
    let mut counted = 0;
    for life in 0..kills {
        let after = Duration::from_millis(100 + rng.next_u64() % longest);
        answered.extend(one_life(&path, &mut rng, after).iter().map(|g| key(g)));
        if !path.exists() {
            continue;
        }
        let db = Db::open(&path)
            .unwrap_or_else(|e| panic!("life {life} (seed {seed}): the file does not open: {e}"));
        let stats = db
            .stats()
            .unwrap_or_else(|e| panic!("life {life} (seed {seed}): the file does not read: {e}"));
        for (i, there) in learned(&db, &answered).into_iter().enumerate() {
            assert!(
                there,
                "life {life} (seed {seed}): game {i}, answered for, is not in the file"
            );
        }
        // At most the game being written when the brain was killed is there unanswered.
        counted = stats.games;
        assert!(
            (answered.len() as u64..=answered.len() as u64 + life as u64 + 1).contains(&counted),
            "life {life}: {counted} games counted, {} answered for",
            answered.len()
        );
    }
    // A second process finding the file held gets a clear error, and the file stays whole.
    let held = redb::Database::create(&path).expect("this test holds the file");
    let out = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(["db", "stats", path.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("in use by another process"), "{err}");
    drop(held);
    let stats = Db::open(&path).unwrap().stats().unwrap();
    assert_eq!(stats.games, counted);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{kills} kills: {} games answered for, {counted} in the file",
        answered.len()
    );
    (answered.len(), counted)
}

#[test]
fn a_brain_killed_mid_write_keeps_every_game_it_answered_for() {
    let (answered, _) = kill_run("kill", 84, 20, 800);
    assert!(answered >= 10, "only {answered} games were written");
}

#[test]
#[ignore = "long: 200 kills, about 2 minutes"]
fn a_brain_killed_200_times_keeps_every_game_it_answered_for() {
    for seed in [1, 2] {
        kill_run(&format!("kill-long-{seed}"), seed, 100, 800);
    }
}
