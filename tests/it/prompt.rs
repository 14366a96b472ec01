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
    run_bytes(script.as_bytes(), &[])
}

/// Runs `wuzi` with `input` on stdin and `env` set; checks that it exits well and that
/// stderr (a pipe) has no escape codes; returns stdout.
fn run_bytes(input: &[u8], env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wuzi"));
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start wuzi");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "exit status {}", out.status);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains('\x1b'), "escape codes on a pipe: {err:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// `out` with its lines joined by spaces: a message broken to fit 80 columns reads as one.
fn flat(out: String) -> String {
    out.replace('\n', " ")
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
        "99,1 is off the 15x15 board",
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
    assert!(
        out.contains("Five in a row (d8 e8 f8 g8 h8): you win!"),
        "{out}"
    );
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

/// The number of boards drawn in `out`.
fn boards(out: &str) -> usize {
    out.lines()
        .filter(|l| l.ends_with("a b c d e f g h i j k l m n o"))
        .count()
        / 2
}

/// One board at the start, then one a turn: after the engine's reply, not also after the
/// player's move.
#[test]
fn the_board_is_drawn_once_a_turn() {
    let out = run("level depth 2\nh8\nh9\n");
    let replies = out.matches("wuzi plays").count();
    assert!(replies >= 1, "{out}");
    assert_eq!(boards(&out), 1 + replies, "{out}");
}

/// Colour only when stdout wants it: never through a pipe, unless CLICOLOR_FORCE asks,
/// and never with NO_COLOR.
#[test]
fn colour_only_where_it_is_wanted() {
    let script = b"vary off\nlevel depth 2\nh8\n";
    assert!(!run_bytes(script, &[]).contains('\x1b'));
    let forced = run_bytes(script, &[("CLICOLOR_FORCE", "1")]);
    assert!(forced.contains("\x1b["), "{forced}");
    let refused = run_bytes(script, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!refused.contains('\x1b'), "{refused}");
}

/// The winning five is named, and with colour its five stones are in reverse video.
#[test]
fn the_winning_five_is_named_and_highlighted() {
    let file = temp("five-colour.txt");
    std::fs::write(&file, "Size: 15\n\nd8 a15 e8 o15 f8 a1 g8 o1\n").unwrap();
    let script = format!("vary off\nlevel depth 2\nload {file}\nh8\n");
    let out = run_bytes(script.as_bytes(), &[("CLICOLOR_FORCE", "1")]);
    assert!(out.contains("Five in a row (d8 e8 f8 g8 h8)"), "{out}");
    let row8 = out.lines().rfind(|l| l.starts_with(" 8 ")).unwrap();
    assert_eq!(row8.matches("\x1b[7m").count(), 5, "{row8:?}");
    let _ = std::fs::remove_file(&file);
}

/// Under renju, black's forbidden points are drawn as `*` while black is to move.
#[test]
fn renju_forbidden_points_are_marked() {
    let file = temp("renju-marks.txt");
    std::fs::write(
        &file,
        "Rule: renju\nSize: 15\nResult: *\n\nf8 a15 g8 o15 h10 a1 h9 o1\n",
    )
    .unwrap();
    let out = run(&format!("level depth 2\nload {file}\n"));
    let board = last_board(&out);
    // Row 8 (index 7): f8 and g8 black, h8 the double three.
    assert!(board[7].contains("X X * ."), "{}", board[7]);
    assert!(out.contains("* a point forbidden to black") || out.contains("renju"));
    let _ = std::fs::remove_file(&file);
}

/// The engine's judgement as the player reads it: a chance for the player, a forced reply
/// said to be forced, a forced win counted in the winner's moves.
#[test]
fn evaluations_speak_for_the_player() {
    let out = flat(run("level depth 2\nh8\nhint\n"));
    assert!(
        out.contains("(searched 2 plies): your chance about "),
        "{out}"
    );
    assert!(
        out.contains("Hint: ") && out.contains("your chance about"),
        "{out}"
    );
    assert!(!out.contains("eval"), "{out}");
    // Black's four d8-g8 is blocked at c8: h8 is the only reply.
    let file = temp("forced.txt");
    std::fs::write(&file, "Size: 15\n\nd8 c8 e8 o15 f8 a1\n").unwrap();
    let out = flat(run(&format!("level depth 2\nload {file}\ng8\n")));
    assert!(
        out.contains("wuzi plays h8, forced: the only move that does not lose at once."),
        "{out}"
    );
    assert!(!out.contains("depth 1"), "{out}");
    // White's open three h8-h10: after a black move far away, white makes an open four,
    // and its five comes on its next move.
    std::fs::write(&file, "Size: 15\n\na1 h8 a3 h9 a5 h10\n").unwrap();
    let out = flat(run(&format!("level depth 2\nload {file}\no15\n")));
    assert!(
        out.contains("It sees a forced win: its five comes in 1 more of its moves along"),
        "{out}"
    );
    let _ = std::fs::remove_file(&file);
}

/// One convention for points: the board's labels; `x,y` is read as Gomocup counts it and
/// echoed in the board's terms; spaces inside a move are fine; off-board points say so.
#[test]
fn coordinates_read_one_way_and_say_so() {
    let out = run("level depth 2\n h 8 \nundo\n7,7\nundo\n-1,3\n3,-1\n15,0\n-1,-1\nhelp\n");
    assert_eq!(out.matches("wuzi plays").count(), 2, "{out}");
    assert!(out.contains("7,7 is h8."), "{out}");
    assert!(out.contains("-1,3 is off the 15x15 board"), "{out}");
    assert!(out.contains("3,-1 is off the 15x15 board"), "{out}");
    assert!(out.contains("15,0 is off the 15x15 board"), "{out}");
    assert!(out.contains("Passing is not allowed"), "{out}");
    assert!(out.contains("0,0 is a15"), "{out}");
    assert!(!out.contains("unknown command"), "{out}");
}

/// Odd input gets a clear answer and the game goes on: bad UTF-8, a very long line (not
/// echoed back), a file that is not a record (the game kept), time 0.
#[test]
fn odd_input_is_answered_and_the_game_kept() {
    let file = temp("renju-kept.txt");
    std::fs::write(
        &file,
        "Rule: renju\nSize: 15\nResult: *\n\nf8 a15 g8 o15 h10 a1 h9 o1\n",
    )
    .unwrap();
    let long = "x".repeat(3000);
    let mut input = format!("vary off\nlevel depth 2\nload {file}\n").into_bytes();
    input.extend_from_slice(b"\xff\xfeh8\n");
    input.extend_from_slice(format!("{long}\nload /etc/passwd\ntime 0\nboard\n").as_bytes());
    let out = run_bytes(&input, &[]);
    assert!(out.contains("not UTF-8 text"), "{out}");
    assert!(out.contains("3000 characters long"), "{out}");
    assert!(!out.contains(&"x".repeat(100)), "the long line came back");
    assert!(
        out.contains("Cannot load /etc/passwd: not a game record"),
        "{out}"
    );
    assert!(
        out.contains("time wants a number of seconds above 0"),
        "{out}"
    );
    assert!(!out.contains("between 0 and"), "{out}");
    // The renju game is still there, its eight stones and its rule.
    assert_eq!(stones(&last_board(&out)), 8, "{out}");
    let status = out.lines().rev().find(|l| l.contains("you:")).unwrap();
    assert!(status.starts_with("renju 15x15, move 9"), "{status}");
    let _ = std::fs::remove_file(&file);
}

/// A match file as c-gomoku-cli writes it (`-sgf FILE`: games appended, `GM[4]`, the rule
/// as a Gomocup number, points as two letters from the top left, comments on each move).
const CLI_SGF: &str = "(;FF[4]GM[4]GN[1]EV[wuzi-a x wuzi-b]DT[2026.11.26 21:14:03]RO[1.1]RU[4]SZ[15]PB[wuzi-a]PW[wuzi-b]RE[W+1]TE[White win by five connection]\n;B[hh]C[opening move];W[ig]C[opening move];B[jf]C[opening move]\n;W[ge]C[212ms];B[ii]C[180ms])\n\n(;FF[4]GM[4]GN[2]EV[wuzi-b x wuzi-a]DT[2026.11.26 21:15:10]RO[1.2]RU[4]SZ[15]PB[wuzi-b]PW[wuzi-a]RE[B+1]TE[Black win by five connection]\n;B[hh]C[opening move];W[ig]C[opening move];B[jf]C[opening move])\n\n";

/// SGF: the prompt loads the games c-gomoku-cli saves (the first of a file's games, with
/// its rule), saves `.sgf` and loads it back; an SGF it cannot read is refused with the
/// reason and the game is kept.
#[test]
fn sgf_records_load_and_save() {
    let cli = temp("match.sgf");
    std::fs::write(&cli, CLI_SGF).unwrap();
    let saved = temp("saved.sgf");
    let bad = temp("go.sgf");
    std::fs::write(&bad, "(;FF[4]GM[1]SZ[19];B[dd];W[pp])").unwrap();
    // The loaded game has five moves, white to move: the engine (white) replies.
    let raw = run(&format!(
        "level depth 2\nload {cli}\nsave {saved}\nload {bad}\nboard\nnew\nload {saved}\nboard\n"
    ));
    let out = flat(raw.clone());
    assert!(
        out.contains(&format!(
            "Loaded 5 moves from {cli} (the first of its 2 games)."
        )),
        "{out}"
    );
    assert!(out.contains("renju 15x15, move 7"), "{out}");
    assert!(out.contains(&format!("Saved 6 moves to {saved}")), "{out}");
    assert!(
        out.contains(&format!(
            "Cannot load {bad}: not a gomoku record: GM[1] is Go (gomoku is GM[4])."
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("Loaded 6 moves from {saved}.")),
        "{out}"
    );
    assert_eq!(stones(&last_board(&raw)), 6);
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.starts_with("(;FF[4]GM[4]") && text.contains("SZ[15]RU[4]"),
        "{text}"
    );
    assert!(text.contains(";B[hh];W[ig];B[jf];W[ge];B[ii];W["), "{text}");
    let recs = wuzi::record::sgf::read(&text, wuzi::Rule::Freestyle).unwrap();
    assert_eq!(recs[0].moves.len(), 6);
    for f in [cli, saved, bad] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn review_names_the_games_blunder() {
    // White's a1 (move 6) leaves black's open three h8 i8 j8 standing; g8 and k8 stop it.
    let file = temp("review.txt");
    std::fs::write(
        &file,
        "Rule: freestyle\nSize: 15\nResult: *\n\nh8 a15 i8 o15 j8 a1 b2\n",
    )
    .unwrap();
    let out = run(&format!(
        "level depth 2\nreview\nload {file}\nreview 500\nreview 0\n"
    ));
    assert!(out.contains("No moves to review yet."), "{out}");
    let line6 = out
        .lines()
        .find(|l| l.trim_start().starts_with("6. white a1: blunder"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line6.contains("g8") && line6.contains("k8"), "{line6}");
    assert!(
        out.contains("first mistake: move 6, white a1 (blunder)"),
        "{out}"
    );
    assert!(out.contains("review wants milliseconds a solve"), "{out}");
    let _ = std::fs::remove_file(&file);
}

/// Every line the prompt prints fits an 80-column terminal: the help, the boards, the
/// engine's moves with their reports (its random pick among near-equal moves named too), a
/// hint, refusals that quote the input. On a pipe the prompt and the next answer share a
/// line (a terminal echoes the player's line between them): the prompt is left out here.
#[test]
fn every_line_fits_80_columns() {
    let long = "x".repeat(39);
    let out = run_raw(&format!(
        "help\ntime 0.2\nvary 300\nh8\nhint\nj10\nk11\nvary {long}\nload {long}/{long}\nundo\n"
    ));
    assert!(out.contains("wuzi plays") && out.contains("Hint:"), "{out}");
    let prompts = [
        "black (X) to move > ",
        "white (O) to move > ",
        "game over > ",
        "> ",
    ];
    for line in out.lines() {
        let mut text = line;
        while let Some(rest) = prompts.iter().find_map(|p| text.strip_prefix(p)) {
            text = rest;
        }
        let n = text.chars().count();
        assert!(n <= 80, "{n} columns: {text}");
    }
}
