//! The command lines of the built `wuzi` and `pbrain-wuzi` binaries: help and version
//! answer, an unknown flag is refused with a message and a non-zero exit, `wuzi solve`
//! solves a position and refuses a bad one with exit code 2, `wuzi review` names a game's
//! blunder and refuses a bad record, `wuzi` with no subcommand still plays at the prompt
//! through a pipe, a subcommand whose reader has gone stops quietly (but `wuzi serve`, which
//! serves on).

use std::io::Write;
use std::process::{Command, Output, Stdio};

const WUZI: &str = env!("CARGO_BIN_EXE_wuzi");
const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-wuzi");

/// Runs `bin` with `args` and `input` on stdin (closed after it) until it exits.
fn run(bin: &str, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {bin}: {e}"));
    // A binary that refuses its arguments may exit before reading: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn help_answers_with_the_usage_and_exits_0() {
    for (bin, args, usage, names) in [
        (
            WUZI,
            &["--help"][..],
            "Usage: wuzi",
            &["play", "solve", "review"][..],
        ),
        (WUZI, &["-h"], "Usage: wuzi", &["play", "solve"]),
        (WUZI, &["help", "solve"], "Usage: wuzi solve", &["--vct"]),
        (WUZI, &["play", "--help"], "Usage: wuzi play", &[]),
        (
            WUZI,
            &["solve", "--help"],
            "Usage: wuzi solve",
            &["--vct", "--rule", "--size", "--ms", "--suite", "--engine"],
        ),
        (BRAIN, &["--help"], "Usage: pbrain-wuzi", &["--vary"]),
    ] {
        let out = run(bin, args, "");
        assert!(out.status.success(), "{args:?}: {}", out.status);
        let help = text(&out.stdout);
        assert!(help.contains(usage), "{args:?}: {help}");
        for name in names {
            assert!(help.contains(name), "{args:?} names {name}: {help}");
        }
    }
}

#[test]
fn version_names_the_binary_and_the_crate_version() {
    let version = env!("CARGO_PKG_VERSION");
    for (bin, args, want) in [
        (WUZI, &["--version"][..], format!("wuzi {version}")),
        (WUZI, &["-V"], format!("wuzi {version}")),
        (
            WUZI,
            &["solve", "--version"],
            format!("wuzi-solve {version}"),
        ),
        (BRAIN, &["--version"], format!("pbrain-wuzi {version}")),
    ] {
        let out = run(bin, args, "");
        assert!(out.status.success(), "{args:?}: {}", out.status);
        assert_eq!(text(&out.stdout).trim(), want, "{args:?}");
    }
}

#[test]
fn unknown_flags_and_subcommands_are_refused() {
    for (bin, args) in [
        (WUZI, &["--bogus"][..]),
        (WUZI, &["bogus"]),
        (WUZI, &["play", "--bogus"]),
        (WUZI, &["solve", "--bogus"]),
        (BRAIN, &["--bogus"]),
        (BRAIN, &["bogus"]),
    ] {
        // The input would start a game (or a brain's search) if the flag were ignored.
        let out = run(bin, args, "h8\nquit\nSTART 15\nBEGIN\nEND\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains("bogus"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
    }
}

/// A stdout whose reader has gone: one end of a socket pair, the other closed (writes
/// fail with a broken pipe, as into a pipe nobody reads).
#[cfg(unix)]
fn closed_stdout() -> Stdio {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
    drop(ours);
    Stdio::from(std::os::fd::OwnedFd::from(theirs))
}

#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_a_subcommand_quietly() {
    // The reader is gone before the command starts, as `| head` is once it has its lines:
    // the first line printed meets a broken pipe.
    let writer = closed_stdout();
    let out = Command::new(WUZI)
        .args(["solve", "--vct", "--nodes", "100"])
        .args(["--suite", "tests/data/freestyle_long_wins.tsv"])
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(err.is_empty(), "nothing to say on stderr: {err}");

    // Any other failure to write is named.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(WUZI)
        .args(["solve", "--vct", "7,7", "8,8"])
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write to standard output"), "{err}");
}

#[cfg(unix)]
#[test]
fn the_board_is_served_with_stdout_closed() {
    // A free port, given back before the server takes it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let writer = closed_stdout();
    let mut child = Command::new(WUZI)
        .args(["serve", "--port", &port.to_string()])
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut answer = String::new();
    for _ in 0..100 {
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            use std::io::Read;
            s.write_all(b"GET / HTTP/1.0\r\n\r\n").unwrap();
            let _ = s.read_to_string(&mut answer);
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the server ended");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        answer.starts_with("HTTP/1.0 200") || answer.starts_with("HTTP/1.1 200"),
        "{answer}"
    );
}

/// The winning line of a `VCF: win for ...: line` answer.
fn winning_line(out: &str) -> Vec<&str> {
    out.rsplit_once("): ")
        .map(|(_, line)| line.split_whitespace().collect())
        .unwrap_or_default()
}

#[test]
fn solve_finds_a_vcf_and_sees_none() {
    // Black's open three on column 7 (rows 7 to 9), white's beside it on column 8: black to
    // move makes an open four (7,6 or 7,10), white blocks one end, black fives at the other.
    let black = ["7,7", "8,7", "7,8", "8,8", "7,9", "8,9"];
    let out = run(WUZI, &[&["solve"][..], &black].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = text(&out.stdout);
    assert!(out.starts_with("VCF: win for black ("), "{out}");
    let line = winning_line(&out);
    assert_eq!(line.len(), 3, "four, block, five: {out}");
    assert!(["7,6", "7,10"].contains(&line[0]), "{out}");
    let ends = ["7,5", "7,6", "7,10", "7,11"];
    assert!(line.iter().all(|m| ends.contains(m)), "{out}");
    assert!(line[0] != line[2] && line[1] != line[2], "{out}");

    // The same position in run-together h8 notation (x = column letter, y = 15 - row).
    let out = run(WUZI, &["solve", "h8i8h7i7h6i6"], "");
    assert!(text(&out.stdout).starts_with("VCF: win for black ("));
    // Or one word a move.
    let out = run(WUZI, &["solve", "h8", "i8", "h7", "i7", "h6", "i6"], "");
    assert!(text(&out.stdout).starts_with("VCF: win for black ("));

    // After black's open four white has no VCF: every white four comes too late.
    let out = run(WUZI, &[&["solve"][..], &black, &["7,10"]].concat(), "");
    assert!(out.status.success());
    assert!(
        text(&out.stdout).starts_with("VCF: none ("),
        "{}",
        text(&out.stdout)
    );

    // --vct and --rule reach the solver.
    let out = run(
        WUZI,
        &[&["solve", "--vct", "--rule", "renju"][..], &black].concat(),
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("VCT: win for black ("));

    // A node budget: the solver stops there and leaves the answer unknown. The VCT of row
    // lfz_c01_100 of `tactics/freestyle_win.tsv` takes thousands of nodes.
    let row = crate::common::suite("tactics/freestyle_win.tsv")
        .into_iter()
        .find(|r| r.id == "lfz_c01_100")
        .expect("the row");
    let moves: Vec<String> = row.moves.iter().map(|p| p.to_string()).collect();
    let vct: Vec<&str> = moves.iter().map(String::as_str).collect();
    for (nodes, answer) in [
        ("5", "VCT: unknown, budget exhausted (6 nodes"),
        ("1000000", "VCT: win for black ("),
    ] {
        let out = run(
            WUZI,
            &[&["solve", "--vct", "--nodes", nodes][..], &vct].concat(),
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).starts_with(answer),
            "{}",
            text(&out.stdout)
        );
    }
}

#[test]
fn solve_refuses_a_bad_position_or_value_with_exit_2() {
    for (args, why) in [
        (&["7,7", "zz"][..], "bad move list"),
        (&["7,7", "h8h9"], "bad move list"),
        (&["7,7", "7,7"], "bad position"),
        (&["15,15"], "bad position"),
        (&["--size", "4", "2,2"], "--size"),
        (&["--size", "23"], "--size"),
        (&["--rule", "chess"], "--rule"),
        (&["--ms", "0"], "--ms"),
        (&["--ms", "soon"], "--ms"),
        (&["--nodes", "0"], "--nodes"),
        (&["--nodes", "9", "--ms", "9", "7,7"], "--nodes"),
        (&["--depth", "0"], "--depth"),
        (&["--engine", "7,7"], "--engine"),
        (&["--set", "leaf_vcf_nodes=0", "7,7"], "--set"), // refused with or without `tuning`
        (&["--eval", "classical", "7,7"], "--eval"),
        (&["--threads", "0"], "--threads"),
        (&["--threads", "65"], "--threads"),
        (&["--threads", "2", "7,7"], "--threads"),
        (
            &[
                "--engine",
                "--eval",
                "/nonexistent/net.wznet",
                "--suite",
                "tests/data/freestyle_long_wins.tsv",
            ],
            "/nonexistent/net.wznet",
        ),
        (
            &["--suite", "/nonexistent/suite.tsv"],
            "/nonexistent/suite.tsv",
        ),
    ] {
        let out = run(WUZI, &[&["solve"][..], args].concat(), "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
    }
}

#[test]
fn solve_engine_takes_an_evaluation() {
    // The engine on every 25th long win (three rows), with each evaluation: the summary
    // line counts the rows whatever the engine found.
    for eval in ["default", "classical", "nets/freestyle20-gen1.wznet"] {
        let out = run(
            WUZI,
            &[
                "solve",
                "--engine",
                "--nodes",
                "2000",
                "--eval",
                eval,
                "--every",
                "25",
                "--suite",
                "tests/data/freestyle_long_wins.tsv",
            ],
            "",
        );
        assert!(out.status.success(), "{eval}: {}", text(&out.stderr));
        let report = text(&out.stdout);
        assert!(report.contains(": 3 rows"), "{eval}: {report}");
    }
}

#[test]
fn solve_engine_searches_with_threads() {
    // Two search threads on every 25th long win (three rows): each row is counted and the
    // rows it proves are named with their choice.
    let out = run(
        WUZI,
        &[
            "solve",
            "--engine",
            "--threads",
            "2",
            "--nodes",
            "20000",
            "--choices",
            "--every",
            "25",
            "--suite",
            "tests/data/freestyle_long_wins.tsv",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains(": 3 rows"), "{report}");
    assert_eq!(report.lines().count(), 4, "{report}");
}

/// A game record in a fresh file of the test's temporary directory.
fn record_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn review_names_the_blunder_and_its_stops() {
    // Black's open three h8 i8 j8 is left standing by white's a1 (move 6): g8 and k8 stop
    // it; black then lets its win go with a15 (move 7).
    let path = record_file(
        "blunder.txt",
        "# wuzi game record\nRule: freestyle\nSize: 15\nBlack: A\nWhite: B\nResult: *\n\n\
         h8 a15 i8 o15 j8 a1 b2\n",
    );
    let out = run(WUZI, &["review", "--ms", "500", path.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let line6 = report
        .lines()
        .find(|l| l.trim_start().starts_with("6. white a1: blunder"))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(line6.contains("g8") && line6.contains("k8"), "{line6}");
    assert!(
        report.contains("7. black b2: missed a win by fours"),
        "{report}"
    );
    assert!(
        report.contains("first mistake: move 6, white a1 (blunder)"),
        "{report}"
    );
}

#[test]
fn review_takes_one_game_or_every_game_of_a_match_file() {
    // Two games as a match runner appends them: the blunder game above (A and B), then a
    // quiet one (C and D).
    let path = record_file(
        "match.sgf",
        "(;FF[4]GM[4]SZ[15]PB[A]PW[B]RE[B+1];B[hh];W[aa];B[ih];W[oa];B[jh];W[ao];B[bn])\n\
         (;FF[4]GM[4]SZ[15]PB[C]PW[D];B[hh];W[ii])\n",
    );
    let file = path.to_str().unwrap();
    // A runner's opening (its moves commented so) is not reviewed unless --from says.
    let opening = record_file(
        "opening.sgf",
        "(;FF[4]GM[4]SZ[15]PB[A]PW[B];B[hh]C[opening move];W[aa]C[opening move];B[ih]C[opening move];\
         W[oa]C[opening move];B[jh]C[opening move];W[ao]C[12ms];B[bn]C[9ms])\n",
    );
    let out = run(
        WUZI,
        &["review", "--ms", "500", opening.to_str().unwrap()],
        "",
    );
    let report = text(&out.stdout);
    assert!(report.contains("moves 1 to 5 are the opening"), "{report}");
    assert!(
        report.contains("first mistake: move 6, white a1 (blunder)"),
        "{report}"
    );
    let out = run(
        WUZI,
        &["review", "--from", "1", opening.to_str().unwrap()],
        "",
    );
    assert!(
        !text(&out.stdout).contains("are the opening"),
        "{}",
        text(&out.stdout)
    );
    let out = run(WUZI, &["review", "--ms", "500", "--game", "2", file], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("(game 2 of 2): C (black) against D (white)"),
        "{report}"
    );
    assert!(report.contains("no blunder or missed win"), "{report}");
    let out = run(WUZI, &["review", "--ms", "500", "--every-game", file], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("game 1: A (black) against B (white)"),
        "{report}"
    );
    assert!(
        report.contains("first mistake: move 6, white a1 (blunder)"),
        "{report}"
    );
    assert!(
        report.contains("game 2: C (black) against D (white)"),
        "{report}"
    );
    assert!(
        report.contains("2 games; first mistake by player: B 1; none found in 1"),
        "{report}"
    );
    for (args, why) in [
        (
            vec!["--game", "3", file],
            "holds 2 game(s): there is no game 3",
        ),
        (vec!["--game", "0", file], "--game"),
        (
            vec!["--game", "2", "--every-game", file],
            "cannot be used with",
        ),
    ] {
        let out = run(WUZI, &[&["review"][..], &args].concat(), "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}

#[test]
fn review_refuses_a_bad_record_with_exit_2() {
    let occupied = record_file(
        "occupied.txt",
        "# wuzi game record\nRule: freestyle\nSize: 15\n\nh8 h8\n",
    );
    let garbage = record_file("garbage.sgf", "(;GM[4]SZ[15];B[zz");
    for (args, why) in [
        (
            vec!["/nonexistent/game.sgf".to_string()],
            "cannot read /nonexistent/game.sgf",
        ),
        (vec![occupied.display().to_string()], "occupied"),
        (vec![garbage.display().to_string()], "cannot read"),
        (vec!["--ms".into(), "0".into(), "x".into()], "--ms"),
        (vec!["--from".into(), "0".into(), "x".into()], "--from"),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(WUZI, &[&["review"][..], &args].concat(), "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}

#[test]
fn wuzi_with_or_without_play_runs_the_prompt_game() {
    for args in [&[][..], &["play"]] {
        let out = run(WUZI, args, "vary off\nlevel depth 2\nh8\nquit\nh9\n");
        assert!(out.status.success(), "{args:?}: {}", out.status);
        let out = text(&out.stdout);
        assert!(out.contains("you play black (X)"), "{args:?}: {out}");
        assert_eq!(out.matches("wuzi plays").count(), 1, "{args:?}: {out}");
    }
}

/// `wuzi --eval` sets the prompt game's evaluation, named in its first line; a bad one is
/// refused (exit 2).
#[test]
fn the_prompt_game_takes_an_evaluation() {
    let input = "vary off\nlevel depth 2\nh8\nquit\n";
    let out = run(WUZI, &[], input);
    assert!(text(&out.stdout).contains("(net 8d7ea3df9ac89fd0): you play black"));
    let out = run(WUZI, &["play", "--eval", "classical"], input);
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("(classical): you play black"), "{stdout}");
    assert_eq!(stdout.matches("wuzi plays").count(), 1, "{stdout}");
    let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let out = run(WUZI, &["--eval", readme], input);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a wuzi net file"));
}

/// `pbrain-wuzi --eval FILE` plays with the learned evaluation and names the net in ABOUT; a
/// file that is not a net is refused with its name and the reason (exit 2).
#[test]
fn the_brain_takes_a_net_file_or_refuses_it() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/freestyle20-gen1.wznet");
    let out = run(BRAIN, &["--eval", net], "ABOUT\nSTART 15\nBEGIN\nEND\n");
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("net 0431ab93470e19c2"), "{stdout}");
    assert!(stdout.lines().any(|l| l == "7,7"), "{stdout}");
    let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let out = run(BRAIN, &["--eval", readme], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a wuzi net file"));
    // The default: the built-in nets on 15x15 and 20x20 freestyle, the classical
    // evaluation on 19x19; `--eval classical` everywhere.
    let out = run(BRAIN, &[], "ABOUT\nSTART 20\nABOUT\nSTART 19\nABOUT\nEND\n");
    let about: Vec<String> = text(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("name="))
        .map(str::to_string)
        .collect();
    assert_eq!(about.len(), 3, "{about:?}");
    assert!(about[0].contains("net 8d7ea3df9ac89fd0"), "{about:?}");
    assert!(about[1].contains("net a437a80f96fff3d0"), "{about:?}");
    assert!(about[2].contains("classical"), "{about:?}");
    let out = run(BRAIN, &["--eval", "classical"], "ABOUT\nEND\n");
    assert!(
        text(&out.stdout).contains("version=\"0.1.0 classical\""),
        "{out:?}"
    );
}

/// `wuzi datagen --eval` takes what the other commands take, and a file that is not a net
/// is refused before any game, with its reason.
#[test]
fn datagen_refuses_a_net_file_that_is_not_one() {
    let dir = std::env::temp_dir().join(format!("wuzi-datagen-eval-{}", std::process::id()));
    let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let d = dir.to_str().unwrap();
    let out = run(
        WUZI,
        &["datagen", "--out", d, "--games", "1", "--eval", readme],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(text(&out.stderr).contains("not a wuzi net file"), "{out:?}");
    assert!(!dir.exists(), "no shard directory for a refused run");
}

/// `wuzi datagen --shards` makes only the shards named, and refuses a range past the run's
/// shards or an empty one before any game.
#[test]
fn datagen_makes_the_shards_named() {
    let dir = std::env::temp_dir().join(format!("wuzi-datagen-shards-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let base = [
        "datagen",
        "--out",
        d,
        "--games",
        "3",
        "--shard-games",
        "1",
        "--size",
        "7",
        "--nodes",
        "100",
        "--seed",
        "4",
    ];
    let out = run(WUZI, &[&base[..], &["--shards", "2"]].concat(), "");
    assert!(out.status.success(), "{out:?}");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["freestyle7-n100-s4-00002.wzd"]);
    for bad in ["2..5", "3", "1..1", "x"] {
        let out = run(WUZI, &[&base[..], &["--shards", bad]].concat(), "");
        assert_eq!(out.status.code(), Some(2), "--shards {bad}: {out:?}");
        assert!(!text(&out.stderr).is_empty(), "--shards {bad}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `wuzi match` plays both colours of an opening between two configurations and prints
/// the pair as one JSON line; an opening past the file's end is refused. (A 9x9 opening:
/// a pair on 15x15 costs twice the time in the dev profile.)
#[test]
fn match_plays_a_pair_and_prints_one_line() {
    let dir = std::env::temp_dir().join(format!("wuzi-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("o9.tsv");
    std::fs::write(
        &suite,
        "# two 9x9 openings\nfirst\tfreestyle\t4,4\tW\topening\t-\t-\t\n\
         second\tfreestyle\t4,4 3,3\tB\topening\t-\t-\t\n",
    )
    .unwrap();
    let openings = suite.to_str().unwrap();
    let args = [
        "match",
        "--openings",
        openings,
        "--opening",
        "1",
        "--size",
        "9",
        "--nodes",
        "300",
        "--b-eval",
        "classical",
    ];
    let out = run(WUZI, &args, "");
    assert!(out.status.success(), "{out:?}");
    let line: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(line["opening"], "second");
    assert_eq!(
        (
            line["index"].as_u64(),
            line["rule"].as_str(),
            line["size"].as_u64()
        ),
        (Some(1), Some("freestyle"), Some(9))
    );
    let games = line["games"].as_array().unwrap();
    assert_eq!(
        (games[0]["a"].as_str(), games[1]["a"].as_str()),
        (Some("black"), Some("white"))
    );
    let mut points = 0.0;
    for g in games {
        let p = g["points"].as_f64().unwrap();
        assert!([0.0, 0.5, 1.0].contains(&p), "{g}");
        assert!(g["moves"].as_u64().unwrap() > 3, "{g}");
        assert!(
            ["five", "draw"].contains(&g["end"].as_str().unwrap()),
            "{g}"
        );
        points += p;
    }
    assert_eq!(line["a_points"].as_f64(), Some(points));
    // Node budgets make the pair the same again.
    assert_eq!(run(WUZI, &args, "").stdout, out.stdout);
    let out = run(
        WUZI,
        &["match", "--openings", openings, "--opening", "2"],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(text(&out.stderr).contains("no opening 2"), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openings_writes_a_suite_and_the_runners_offset_form() {
    let dir = std::env::temp_dir().join(format!("wuzi-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (suite, offsets) = (dir.join("o.tsv"), dir.join("o.txt"));
    let args = [
        "openings",
        "--count",
        "4",
        "--nodes",
        "1000",
        "--seed",
        "9",
        "--out",
        suite.to_str().unwrap(),
        "--offsets",
        offsets.to_str().unwrap(),
    ];
    let out = run(WUZI, &args, "");
    assert!(out.status.success(), "{out:?}");
    let rows = wuzi::suite::load_suite(&suite).unwrap();
    let lines: Vec<String> = std::fs::read_to_string(&offsets)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!((rows.len(), lines.len()), (4, 4));
    for (row, line) in rows.iter().zip(&lines) {
        assert_eq!(row.task, "opening");
        row.board().unwrap();
        // Each offset pair is the move less the centre (7, 7).
        let pairs: Vec<(i64, i64)> = line
            .split(", ")
            .map(|xy| {
                let (x, y) = xy.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let moves: Vec<(i64, i64)> = row
            .moves
            .iter()
            .map(|p| (p.x() as i64, p.y() as i64))
            .collect();
        let shifted: Vec<(i64, i64)> = pairs.iter().map(|(x, y)| (x + 7, y + 7)).collect();
        assert_eq!(moves, shifted);
    }
    // The same arguments, the same openings.
    let again = run(WUZI, &args, "");
    assert!(again.status.success());
    assert_eq!(
        std::fs::read_to_string(&offsets).unwrap(),
        lines.join("\n") + "\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
