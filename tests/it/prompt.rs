//! The terminal prompt driven through a pipe: the built `wuzi` binary with a script on
//! stdin. Engine moves are kept fast with `level depth 2` / `time 0.1`.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `wuzi` with `script` on stdin until end of input, the engine always playing its best
/// move (`vary off`: a random reply could take a cell a script plays next); returns stdout.
fn run(script: &str) -> String {
    run_raw(&format!("vary off\n{script}"))
}

/// Runs `wuzi` with `script` on stdin as it is.
fn run_raw(script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start wuzi");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "exit status {}", out.status);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains('\x1b'), "escape codes on a pipe: {err:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn temp(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("wuzi-prompt-{}-{name}", std::process::id()))
        .display()
        .to_string()
}

/// The rows of the last 15x15 board drawn in `out` (top first).
fn last_board(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    let edges: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].ends_with("a b c d e f g h i j k l m n o"))
        .collect();
    assert!(edges.len() >= 2, "no board in {out}");
    let (top, bottom) = (edges[edges.len() - 2], edges[edges.len() - 1]);
    assert_eq!(bottom - top, 16);
    lines[top + 1..bottom]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn stones(board: &[String]) -> usize {
    board
        .iter()
        .map(|l| l.chars().filter(|&c| c == 'X' || c == 'O').count())
        .sum()
}

#[test]
fn a_scripted_game_with_engine_replies() {
    let out = run("level depth 2\nh8\nb2\n13,1\nquit\nh9\n");
    // Every accepted move gets a reply (the engine may have taken one of ours first).
    let accepted = 3 - out.matches("already taken").count();
    assert_eq!(out.matches("wuzi plays").count(), accepted, "{out}");
    assert_eq!(stones(&last_board(&out)), 2 * accepted);
    assert!(out.contains("you: black (X)"));
}

#[test]
fn bad_input_gets_a_reason_and_the_prompt_again() {
    let out = run("level depth 2\nfoo\nz99\nh8\nh8\n99,1\nsize 99\nlevel hard\nrule chess\nload /nonexistent/file\n");
    for reason in [
        "unknown command 'foo'",
        "'z99' is off the 15x15 board",
        "h8 is already taken",
        "off every supported board",
        "size must be 5 to 22",
        "level wants",
        "unknown rule",
        "Cannot read /nonexistent/file",
    ] {
        assert!(out.contains(reason), "no '{reason}' in {out}");
    }
    // One engine reply only (to h8), and the game still has its two stones.
    assert_eq!(out.matches("wuzi plays").count(), 1);
    assert_eq!(stones(&last_board(&out)), 2);
}

#[test]
fn undo_takes_back_the_reply_and_the_move() {
    let out = run("level depth 2\nh8\nundo\n");
    assert_eq!(stones(&last_board(&out)), 0);
    assert!(run("undo\n").contains("Nothing to undo"));
}

#[test]
fn engine_moves_first_when_it_is_black() {
    let out = run("level depth 2\nside white\n");
    assert_eq!(out.matches("wuzi plays").count(), 1);
    assert!(out.contains("You play white"));
    // Black, then white again: the engine is to move both times.
    let out = run("level greedy\nswap\nswap\n");
    assert_eq!(out.matches("wuzi plays").count(), 2, "{out}");
}

#[test]
fn save_and_load_round_trip() {
    let txt = temp("game.txt");
    let psq = temp("game.psq");
    let script = format!(
        "level depth 2\nh8\nj10\nsave {txt}\nsave {psq}\nnew\nload {txt}\nboard\nnew\nload {psq}\nboard\n"
    );
    let out = run(&script);
    assert!(out.contains(&format!("Saved 4 moves to {txt}")), "{out}");
    assert!(out.contains(&format!("Loaded 4 moves from {txt}")), "{out}");
    assert!(out.contains(&format!("Loaded 4 moves from {psq}")), "{out}");
    assert_eq!(stones(&last_board(&out)), 4);
    let text = std::fs::read_to_string(&txt).unwrap();
    let rec = wuzi::record::GameRecord::parse(&text).unwrap();
    assert_eq!(rec.moves.len(), 4);
    assert_eq!(rec.moves[0], wuzi::Pos::new(7, 7));
    assert!(std::fs::read_to_string(&psq)
        .unwrap()
        .starts_with("Piskvorky 15x15, 11:11, 0\n8,8,"));
    let _ = std::fs::remove_file(&txt);
    let _ = std::fs::remove_file(&psq);
}

#[test]
fn renju_forbidden_move_is_refused_with_its_reason() {
    // Black to move with 5,7 6,7 7,5 7,6: h8 (7,7) is a double three.
    let file = temp("renju.txt");
    std::fs::write(
        &file,
        "Rule: renju\nSize: 15\nResult: *\n\nf8 a15 g8 o15 h10 a1 h9 o1\n",
    )
    .unwrap();
    let out = run(&format!("level depth 2\nload {file}\nh8\n"));
    assert!(
        out.contains("h8 is forbidden for black under renju"),
        "{out}"
    );
    assert_eq!(stones(&last_board(&out)), 8);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_five_is_announced() {
    let file = temp("five.txt");
    std::fs::write(&file, "Size: 15\n\nd8 a15 e8 o15 f8 a1 g8 o1\n").unwrap();
    let out = run(&format!("level depth 2\nload {file}\nh8\nh7\n"));
    assert!(out.contains("Five in a row: you win!"), "{out}");
    assert!(out.contains("The game is over"), "{out}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn end_of_input_quits_cleanly() {
    let out = run("");
    assert!(out.contains("Type help"));
    let out = run("help\n");
    assert!(out.contains("undo") && out.contains("level L") && out.contains("save FILE"));
}

/// The engine varies among near-equal moves by default (shown on the status line); `vary N`
/// and `vary off` change that, and a bad margin is refused with its reason.
#[test]
fn vary_sets_the_random_choice() {
    let out = run_raw("level depth 2\nvary 50\nvary lots\nh8\nvary off\nboard\n");
    assert!(out.contains("engine: full, vary 30"), "{out}");
    assert!(
        out.contains("The engine picks at random among moves within 50 of the best."),
        "{out}"
    );
    assert!(
        out.contains("vary wants a margin from 0 to 300 or off, not 'lots'"),
        "{out}"
    );
    assert!(out.contains("engine: depth 2, vary 50"), "{out}");
    assert!(
        out.contains("The engine always plays its best move."),
        "{out}"
    );
    let last_status = out.lines().rev().find(|l| l.contains("engine:")).unwrap();
    assert!(last_status.ends_with("engine: depth 2"), "{out}");
    assert_eq!(out.matches("wuzi plays").count(), 1, "{out}");
}
