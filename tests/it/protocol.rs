//! The Gomocup brain as a manager sees it: the built `pbrain-wuzi` binary driven through
//! pipes. Searches are kept short with `INFO timeout_turn` / `INFO max_depth`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Generous: a loaded CI machine is slow, and no test measures speed.
const WAIT: Duration = Duration::from_secs(20);

impl Brain {
    fn spawn() -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pbrain-wuzi");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, s: &str) {
        // Managers end lines with CR LF.
        write!(self.stdin, "{s}\r\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line that is not a MESSAGE/DEBUG line.
    fn answer_within(&mut self, wait: Duration) -> String {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l)
                    if ["MESSAGE", "DEBUG", "INFO"]
                        .iter()
                        .any(|w| l.starts_with(w)) =>
                {
                    continue
                }
                Ok(l) => return l,
                Err(RecvTimeoutError::Timeout) => panic!("no answer within {wait:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the brain exited"),
            }
        }
    }

    fn answer(&mut self) -> String {
        self.answer_within(WAIT)
    }

    /// Sends `cmd` and checks that nothing but MESSAGE lines come back for a moment.
    fn send_quiet(&mut self, cmd: &str) {
        self.send(cmd);
        self.send("ABOUT");
        let a = self.answer();
        assert!(a.starts_with("name=\"wuzi\""), "'{cmd}' answered '{a}'");
    }

    fn start(rule: u32, size: usize) -> Brain {
        let mut b = Brain::spawn();
        b.send("INFO timeout_turn 300");
        b.send("INFO max_depth 4");
        b.send(&format!("INFO rule {rule}"));
        b.send(&format!("START {size}"));
        assert_eq!(b.answer(), "OK");
        b
    }

    /// Sends END and checks that the process is gone within `limit`.
    fn end_within(mut self, limit: Duration) {
        let t = Instant::now();
        self.send("END");
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(
                t.elapsed() < limit,
                "still running {:?} after END",
                t.elapsed()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

fn point(s: &str) -> (usize, usize) {
    let (x, y) = s
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: '{s}'"));
    (
        x.parse().unwrap_or_else(|_| panic!("bad x in '{s}'")),
        y.parse().unwrap_or_else(|_| panic!("bad y in '{s}'")),
    )
}

#[test]
fn about_and_a_short_game() {
    let mut b = Brain::start(0, 15);
    b.send("ABOUT");
    let about = b.answer();
    assert!(about.contains("name=\"wuzi\"") && about.contains("author=\"wuzi developers\""));
    let mut taken = vec![];
    b.send("BEGIN");
    taken.push(point(&b.answer()));
    // The opponent plays along the top edge: never where the brain already played. Four
    // replies: the brain's fifth stone may already make five, ending the game.
    for x in 0..4 {
        let mine = (x * 2, 0);
        assert!(!taken.contains(&mine));
        taken.push(mine);
        b.send(&format!("TURN {},{}", mine.0, mine.1));
        let reply = point(&b.answer());
        assert!(reply.0 < 15 && reply.1 < 15);
        assert!(!taken.contains(&reply), "{reply:?} is occupied");
        taken.push(reply);
    }
    b.end_within(Duration::from_secs(2));
}

#[test]
fn bad_input_keeps_the_brain_and_the_game() {
    let mut b = Brain::spawn();
    b.send("TURN 1,1");
    assert!(b.answer().starts_with("ERROR"), "TURN before START");
    for bad in [
        "START 4",
        "START 23",
        "START x",
        "START -3",
        "RECTSTART 20,15",
    ] {
        b.send(bad);
        assert!(b.answer().starts_with("ERROR"), "{bad}");
    }
    b.send("INFO max_depth 3");
    b.send("rectstart 15,15");
    assert_eq!(b.answer(), "OK");
    b.send("hello world");
    assert!(b.answer().starts_with("UNKNOWN"));
    b.send("\u{7f}\u{1}garbage,,,");
    assert!(b.answer().starts_with("UNKNOWN"));
    b.send("TURN 7,7");
    let first = point(&b.answer());
    for bad in [
        "TURN",
        "TURN a,b",
        "TURN 7",
        "TURN 15,3",
        "TURN 99999999999999999999,1",
        "TURN 7,7",
        "TAKEBACK 0,14",
        "YXNBEST 0",
    ] {
        b.send(bad);
        let a = b.answer();
        assert!(a.starts_with("ERROR"), "'{bad}' answered '{a}'");
    }
    // The point the brain took is still taken, and play goes on.
    b.send(&format!("TURN {},{}", first.0, first.1));
    assert!(b.answer().starts_with("ERROR"));
    b.send("TURN 0,0");
    let second = point(&b.answer());
    assert!(second != first && second != (7, 7) && second != (0, 0));
    b.send_quiet("INFO some_future_key 12");
    // A bad INFO value is shown to the user, never answered with ERROR: a manager would
    // take that for the answer to its next command.
    b.send_quiet("INFO timeout_turn soon");
    b.send_quiet("INFO rule 77");
    b.end_within(Duration::from_secs(2));
}

#[test]
fn board_in_any_order_and_the_side_to_move() {
    // Own stones: four in a row on row 7 (open at 2,7 and 7,7); the opponent's elsewhere.
    let own = ["3,7,1", "4,7,1", "5,7,1", "6,7,1"];
    let opp = ["0,0,2", "14,14,2", "0,14,2", "14,0,2"];
    for order in 0..3 {
        let mut lines: Vec<&str> = own.iter().chain(opp.iter()).copied().collect();
        match order {
            0 => lines.reverse(),
            1 => lines.sort_by_key(|l| l.chars().rev().collect::<String>()),
            _ => {}
        }
        let mut b = Brain::start(0, 15);
        b.send("BOARD");
        for l in &lines {
            b.send(l);
        }
        b.send("DONE");
        let m = b.answer();
        assert!(m == "2,7" || m == "7,7", "order {order}: {m} does not win");
        b.end_within(Duration::from_secs(2));
    }
    // The opponent has one stone more (the brain is white) and a four: it must be blocked.
    let mut b = Brain::start(0, 15);
    b.send("BOARD");
    for l in [
        "3,3,2", "4,4,2", "5,5,2", "6,6,2", "2,2,1", "14,0,2", "0,14,1",
    ] {
        b.send(l);
    }
    b.send("DONE");
    assert_eq!(b.answer(), "7,7");
    b.end_within(Duration::from_secs(2));
}

#[test]
fn bad_board_blocks_leave_the_position_alone() {
    let mut b = Brain::start(0, 15);
    b.send("BOARD");
    b.send("7,7,2");
    b.send("DONE");
    let first = b.answer();
    for block in [
        vec!["1,1,1", "1,1,2"],
        vec!["1,1,7"],
        vec!["1,1"],
        vec!["20,1,1"],
        vec!["1,x,1"],
        vec!["2,2,1", "-1,-1,2"],
    ] {
        b.send("BOARD");
        for l in &block {
            b.send(l);
        }
        b.send("DONE");
        let a = b.answer();
        assert!(a.starts_with("ERROR"), "{block:?} answered {a}");
    }
    // Still the old position: the stone the brain played is there.
    b.send(&format!("TURN {first}"));
    assert!(b.answer().starts_with("ERROR"));
    b.end_within(Duration::from_secs(2));
}

#[test]
fn takeback_removes_a_stone() {
    let mut b = Brain::start(0, 15);
    b.send("TURN 7,7");
    let reply = b.answer();
    b.send(&format!("TAKEBACK {reply}"));
    assert_eq!(b.answer(), "OK");
    b.send("TAKEBACK 7,7");
    assert_eq!(b.answer(), "OK");
    b.send("TAKEBACK 7,7");
    assert!(b.answer().starts_with("ERROR"));
    // Both points are free again: each is accepted as the opponent's move on the empty
    // board (the engine may answer on the other one, so each is tried alone).
    b.send("TURN 7,7");
    let first = b.answer();
    assert!(point(&first) != (7, 7), "{first}");
    b.send(&format!("TAKEBACK {first}"));
    assert_eq!(b.answer(), "OK");
    b.send("TAKEBACK 7,7");
    assert_eq!(b.answer(), "OK");
    b.send(&format!("TURN {reply}"));
    let again = b.answer();
    assert!(point(&again) != point(&reply), "{again}");
    b.end_within(Duration::from_secs(2));
}

#[test]
fn swap2_board() {
    let mut b = Brain::start(0, 15);
    b.send("SWAP2BOARD");
    b.send("DONE");
    let three: Vec<(usize, usize)> = b.answer().split(' ').map(point).collect();
    assert_eq!(three.len(), 3);
    assert!(three[0] != three[1] && three[1] != three[2] && three[0] != three[2]);
    for stones in [
        vec!["7,7", "8,8", "6,8"],
        vec!["7,7", "8,8", "6,8", "9,9", "5,9"],
    ] {
        b.send("SWAP2BOARD");
        for s in &stones {
            b.send(s);
        }
        b.send("DONE");
        let a = b.answer();
        if a != "SWAP" {
            assert!(!stones.contains(&a.as_str()), "{a} is occupied");
            point(&a);
        }
    }
    b.send("SWAP2BOARD");
    b.send("7,7");
    b.send("DONE");
    assert!(b.answer().starts_with("ERROR"));
    b.end_within(Duration::from_secs(2));
}

/// The position of `a_lost_renju_black_still_plays_a_legal_move` (tests/it/engine.rs) through
/// the brain: black's only block is forbidden, and the brain still answers a legal move.
#[test]
fn a_lost_renju_black_answers_a_move_not_an_error() {
    let mut b = Brain::start(4, 15);
    b.send("BOARD");
    let black = [
        "7,2", "9,2", "7,3", "7,4", "10,4", "9,1", "5,1", "7,5", "8,5",
    ];
    let white = [
        "8,2", "6,1", "9,3", "7,1", "8,1", "4,1", "8,3", "7,6", "8,0",
    ];
    for (own, opp) in black.iter().zip(&white) {
        b.send(&format!("{own},1"));
        b.send(&format!("{opp},2"));
    }
    b.send("DONE");
    let a = b.answer();
    let p = point(&a);
    let taken: Vec<(usize, usize)> = black.iter().chain(&white).map(|s| point(s)).collect();
    assert!(p.0 < 15 && p.1 < 15 && !taken.contains(&p), "answered {a}");
    assert_ne!(p, (8, 4), "8,4 is forbidden for black");
    b.end_within(Duration::from_secs(2));
}

/// The end of a renju game wuzi played as black against Rapfi 0.43 (c-gomoku-cli, 20 s a
/// game, 2026-12-04): one empty point is left, 6,13, and it is an overline for black. The
/// brain says so and plays it, since the protocol has no pass; an ERROR there read to
/// the manager as a loss on time.
#[test]
fn renju_black_with_only_forbidden_points_plays_one() {
    let rows = [
        "ooooxooooxxxoxo",
        "ooxxxxooxoxoooo",
        "oxoooxoxxooxxxx",
        "xoxooxooxxoxoox",
        "oxxoxoxxoxxoxxo",
        "xxoxoxoooxoxxox",
        "xxooooxxoxxooxo",
        "xoxxxoooxooxooo",
        "oxxxoxoxoooxooo",
        "xoxoooxxxooxxxx",
        "xxxoxooooxxooxx",
        "oxooxooxxxoooox",
        "xxoxxoxooxoxxxo",
        "oxxoox.xxxxoxox",
        "xooxxxxoooxxxxo",
    ];
    let mut b = Brain::start(4, 15);
    b.send("BOARD");
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match c {
                'x' => b.send(&format!("{x},{y},1")),
                'o' => b.send(&format!("{x},{y},2")),
                _ => {}
            }
        }
    }
    b.send("DONE");
    assert_eq!(b.answer(), "6,13");
    b.end_within(Duration::from_secs(2));
}

#[test]
fn renju_forbidden_points_are_shown() {
    let mut b = Brain::start(4, 15);
    // Black (the brain, equal counts) has 5,7 6,7 and 7,5 7,6: 7,7 is a double three.
    b.send("YXBOARD");
    for l in [
        "5,7,1", "6,7,1", "7,5,1", "7,6,1", "0,0,2", "14,14,2", "0,14,2", "14,0,2",
    ] {
        b.send(l);
    }
    b.send("DONE");
    b.send("YXSHOWFORBID");
    let f = b.answer();
    assert!(f.starts_with("FORBID ") && f.ends_with('.'), "{f}");
    assert!(f.contains("0707"), "{f}");
    // Coordinates come in 4-digit groups.
    assert_eq!((f.len() - "FORBID .".len()) % 4, 0, "{f}");
    // And the brain itself does not play there.
    b.send("BOARD");
    for l in [
        "5,7,1", "6,7,1", "7,5,1", "7,6,1", "0,0,2", "14,14,2", "0,14,2", "14,0,2",
    ] {
        b.send(l);
    }
    b.send("DONE");
    assert_ne!(b.answer(), "7,7");
    b.end_within(Duration::from_secs(2));

    let mut b = Brain::start(0, 15);
    b.send("YXSHOWFORBID");
    assert_eq!(b.answer(), "FORBID .");
    b.end_within(Duration::from_secs(2));
}

fn start_long_think() -> Brain {
    let mut b = Brain::spawn();
    b.send("INFO timeout_turn 60000");
    b.send("INFO timeout_match 600000");
    b.send("INFO time_left 600000");
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("BOARD");
    for l in [
        "7,7,2", "8,8,1", "8,6,2", "6,8,1", "9,7,2", "7,9,1", "6,6,2",
    ] {
        b.send(l);
    }
    b.send("DONE");
    std::thread::sleep(Duration::from_millis(300));
    b
}

#[test]
fn stop_makes_a_long_think_answer_at_once() {
    let mut b = start_long_think();
    let t = Instant::now();
    b.send("YXSTOP");
    point(&b.answer_within(Duration::from_secs(3)));
    assert!(t.elapsed() < Duration::from_secs(3));
    b.end_within(Duration::from_secs(2));
}

/// A `STOP` in the same write as the command that starts a search (as a manager that stops
/// at once sends it) stops that search: it is not lost when the search starts after the
/// reader has seen it. The turn allows a minute.
#[test]
fn a_stop_sent_with_the_move_is_not_lost() {
    let mut b = Brain::spawn();
    b.send("INFO timeout_turn 60000");
    b.send("INFO timeout_match 600000");
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    for (cmd, stop) in [
        ("BEGIN", "STOP"),
        ("TURN 8,8", "YXSTOP"),
        ("TURN 6,6", "STOP"),
    ] {
        let t = Instant::now();
        write!(b.stdin, "{cmd}\r\n{stop}\r\n").unwrap();
        b.stdin.flush().unwrap();
        point(&b.answer_within(Duration::from_secs(10)));
        // Served at once: a few milliseconds in release, tens in a debug build (whose first
        // iteration alone takes about half a second, where a lost stop used to be seen).
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "'{cmd}' then '{stop}': {:?}",
            t.elapsed()
        );
    }
    // The stops were served: the next move thinks normally (a depth-limited search).
    b.send("INFO max_depth 2");
    b.send("TURN 0,0");
    point(&b.answer());
    b.end_within(Duration::from_secs(2));
}

/// Peak resident memory of the brain (kB), from `/proc`.
#[cfg(target_os = "linux")]
fn peak_rss_kb(b: &Brain) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", b.child.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Code pages a debug build keeps resident beyond a release build's. In eight runs each of
/// the game below at 8 MB, the test profile's brain had 4.4 to 4.6 MB of file-backed
/// resident memory and the release brain 3.4 to 3.6 MB (peaks 8.0 to 8.1 MB against 6.8 to
/// 7.2 MB), so the debug brain came within 0.2 MB of the smallest limit and crossed it now
/// and then on a loaded machine. A release build (`cargo test --release`, and the soak's
/// brains) is held to the limit itself.
const DEBUG_CODE_KB: u64 = if cfg!(debug_assertions) { 1024 } else { 0 };

/// Under `INFO max_memory` (sent before or after START, with one or two threads) the peak
/// resident memory of the whole process stays within the limit through several searches
/// (plus [`DEBUG_CODE_KB`] in a debug build); the table is not allocated before the limit
/// is known.
#[cfg(target_os = "linux")]
#[test]
fn peak_memory_stays_within_max_memory() {
    for (mb, threads, before_start) in [(8, 1, true), (8, 2, false), (32, 2, true), (350, 1, false)]
    {
        let mut b = Brain::spawn();
        let limit = format!("INFO max_memory {}", mb << 20);
        if before_start {
            b.send(&limit);
        }
        b.send(&format!("INFO thread_num {threads}"));
        b.send("INFO timeout_turn 200");
        b.send("START 15");
        assert_eq!(b.answer(), "OK");
        if !before_start {
            b.send(&limit);
        }
        b.send("BEGIN");
        point(&b.answer());
        // Far from the brain's stones, so never taken.
        for mv in ["0,0", "14,14", "0,14", "14,0"] {
            b.send(&format!("TURN {mv}"));
            point(&b.answer());
        }
        let peak = peak_rss_kb(&b);
        assert!(
            peak <= (mb << 10) + DEBUG_CODE_KB,
            "{mb} MB, {threads} threads: peak {peak} kB"
        );
        b.end_within(Duration::from_secs(2));
    }
}

/// A limit below what the engine needs is said in a MESSAGE (INFO gets no answer), and the
/// game goes on.
#[test]
fn a_memory_limit_too_small_is_a_message_and_play_goes_on() {
    let mut b = Brain::start(0, 15);
    b.send("INFO max_memory 3000000");
    b.send("BEGIN");
    let mut said = false;
    let deadline = Instant::now() + WAIT;
    let answer = loop {
        let l = b
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("an answer");
        if l.starts_with("MESSAGE max_memory 2 MB is below") {
            said = true;
        } else if !l.starts_with("MESSAGE") && !l.starts_with("INFO") {
            break l;
        }
    };
    assert!(said, "the limit is said to be too small");
    point(&answer);
    b.end_within(Duration::from_secs(2));
}

/// TAKEBACK of a stone given in a BOARD block, not the last move: the other stones keep
/// their colours, the lifted stone's side is to move, and the opponent's move there plays
/// on (it once flipped every later stone's colour and answered that white had five).
#[test]
fn takeback_after_board_keeps_the_colours() {
    let mut b = Brain::start(0, 15);
    b.send("BOARD");
    for l in [
        "2,7,2", "3,7,1", "10,10,2", "4,7,1", "12,10,2", "5,7,1", "10,12,2", "6,7,1", "12,12,2",
        "11,9,1", "7,7,2",
    ] {
        b.send(l);
    }
    b.send("DONE");
    let mine = b.answer();
    point(&mine);
    b.send(&format!("TAKEBACK {mine}"));
    assert_eq!(b.answer(), "OK");
    b.send("TAKEBACK 12,12");
    assert_eq!(b.answer(), "OK");
    b.send("TURN 12,12");
    point(&b.answer());
    b.end_within(Duration::from_secs(2));
}

/// A BOARD block is judged as a position, not move by move in the order given: under exact
/// five a black six on row 7 given stone by stone is no five, and the game goes on.
#[test]
fn board_stones_in_any_order_make_no_false_five() {
    let mut b = Brain::start(1, 15);
    b.send("BOARD");
    for l in [
        "3,7,1", "0,0,2", "4,7,1", "14,0,2", "5,7,1", "0,14,2", "6,7,1", "14,14,2", "7,7,1",
        "2,2,2", "8,7,1", "12,12,2",
    ] {
        b.send(l);
    }
    b.send("DONE");
    point(&b.answer());
    b.end_within(Duration::from_secs(2));
}

#[test]
fn end_during_a_think_exits_promptly() {
    start_long_think().end_within(Duration::from_millis(1500));
}

#[test]
fn nbest_lists_moves_without_playing() {
    let mut b = Brain::start(0, 15);
    b.send("BOARD");
    for l in ["7,7,2", "8,8,1", "8,6,2"] {
        b.send(l);
    }
    b.send("DONE");
    let m = b.answer();
    b.send(&format!("TAKEBACK {m}"));
    assert_eq!(b.answer(), "OK");
    b.send("YXNBEST 3");
    let mut nbest = vec![];
    let best = loop {
        let l = b.lines.recv_timeout(WAIT).unwrap();
        if let Some(rest) = l.strip_prefix("MESSAGE NBEST ") {
            nbest.push(rest.split(' ').nth(1).unwrap().to_string());
        } else if !l.starts_with("MESSAGE") && !l.starts_with("INFO") {
            break l;
        }
    };
    assert_eq!(nbest.len(), 3, "{nbest:?}");
    assert_eq!(nbest[0], best);
    assert!(nbest[0] != nbest[1] && nbest[1] != nbest[2] && nbest[0] != nbest[2]);
    for p in &nbest {
        assert!(!["7,7", "8,8", "8,6"].contains(&p.as_str()));
    }
    // Not played: the opponent may take the point.
    b.send(&format!("TURN {best}"));
    assert_ne!(b.answer(), best);
    b.end_within(Duration::from_secs(2));
}

#[test]
fn lone_cr_and_lf_line_ends() {
    let mut b = Brain::spawn();
    write!(b.stdin, "INFO max_depth 2\rSTART 15\nBEGIN\r").unwrap();
    b.stdin.flush().unwrap();
    assert_eq!(b.answer(), "OK");
    point(&b.answer());
    b.end_within(Duration::from_secs(2));
}

#[test]
fn games_are_saved_under_the_folder() {
    let dir = std::env::temp_dir().join(format!("wuzi-proto-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut b = Brain::start(0, 15);
    b.send(&format!("INFO folder {}", dir.display()));
    b.send("TURN 7,7");
    point(&b.answer());
    b.send("RESTART");
    assert_eq!(b.answer(), "OK");
    b.end_within(Duration::from_secs(2));
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(files.len(), 1);
    let text = std::fs::read_to_string(files[0].path()).unwrap();
    let rec = wuzi::record::GameRecord::parse(&text).unwrap();
    assert_eq!(rec.moves.len(), 2);
    assert_eq!(rec.moves[0], wuzi::Pos::new(7, 7));
    assert_eq!(
        (rec.black.as_str(), rec.white.as_str()),
        ("opponent", "wuzi")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--set key=value` sets a search option and `--vary N` the random choice; a bad one stops
/// the brain at once with a message and exit code 2, before any protocol line.
#[test]
fn search_settings_on_the_command_line() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                let mut stdin = c.stdin.take().unwrap();
                let _ = stdin.write_all(b"START 15\nINFO timeout_turn 200\nBEGIN\nEND\n");
                drop(stdin);
                c.wait_with_output()
            })
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    #[cfg(feature = "tuning")]
    {
        let (code, out, _) = run(&["--set", "narrow_score=0", "--set", "leaf_vcf_nodes=100"]);
        assert_eq!(code, Some(0));
        assert!(out.lines().any(|l| l == "7,7"), "{out}");
    }
    // `--vary N`: a random choice among near-equal moves; still one legal move.
    let (code, out, _) = run(&["--vary", "30"]);
    assert_eq!(code, Some(0));
    let is_move = |l: &str| {
        l.split_once(',')
            .is_some_and(|(x, y)| [x, y].iter().all(|v| v.parse::<u8>().is_ok_and(|v| v < 15)))
    };
    assert_eq!(out.lines().filter(|l| is_move(l)).count(), 1, "{out}");
    // `--set` is a flag of tuning builds only; elsewhere it is unknown.
    for bad in [
        &["--set", "bogus=1"][..],
        &["--set", "narrow_score"],
        &["--set", "narrow_score=x"],
        &["--vary"],
        &["--vary", "-1"],
        &["--vary", "5000"],
        &["--vary", "some"],
        &["-x"],
    ] {
        let (code, out, err) = run(bad);
        assert_eq!(code, Some(2), "{bad:?}");
        assert!(out.is_empty(), "{bad:?}: {out}");
        // Ours for a bad search setting, clap's for a bad or unknown flag.
        assert!(
            err.starts_with("pbrain-wuzi: ") || err.starts_with("error: "),
            "{bad:?}: {err}"
        );
    }
}
