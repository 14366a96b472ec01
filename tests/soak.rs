//! The soak harness in short: a dozen games of the brain against itself through the Gomocup
//! protocol at fast controls (timeout_turn 50-200 ms, short game clocks, any board size),
//! with the rare paths (TAKEBACK, RESTART, STOP, END while thinking, illegal manager moves,
//! SWAP2BOARD, memory limits) and Yixin-Board's opening steps, and the manager finds no
//! fault. The full soak is `cargo run --release --bin soak -- --games 100 --out DIR`.

use std::path::PathBuf;
use std::process::Command;

/// A fresh output directory under the system's temporary directory, one per run (`name`
/// tells the runs of one test process apart).
fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-soak-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Time an answer may take past its limit. A debug build's engine recomputes its whole
/// board state after every make and undo (a few thousand nodes per second instead of about
/// two million), so it cannot keep a 50 ms turn: there the test judges form, legality,
/// protocol paths, memory and exits, and leaves time to the release soak.
fn tolerance_ms() -> &'static str {
    if cfg!(debug_assertions) {
        "30000"
    } else {
        "100"
    }
}

/// Games played at once. Only one engine of a game thinks at a time, so three games keep two
/// cores busy; a release build, whose times are judged, plays one at a time so that no
/// engine waits for a core.
fn jobs() -> &'static str {
    if cfg!(debug_assertions) {
        "3"
    } else {
        "1"
    }
}

/// One soak at a time: in a release build, whose times are judged, two soaks at once would
/// make engines wait for a core.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs the soak with `args` at fast controls into a fresh directory; asserts it found no
/// fault and returns its summary.
fn soak(args: &[&str]) -> String {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = out_dir(&args.join("-").replace("--", ""));
    let run = Command::new(env!("CARGO_BIN_EXE_soak"))
        .args(args)
        .args(["--fast", "--jobs", jobs(), "--tolerance-ms", tolerance_ms()])
        .arg("--engine")
        .arg(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .arg("--out")
        .arg(&out)
        .output()
        .expect("the soak binary runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap_or_default();
    // On failure, show the first failing game's transcript head as well.
    let first_failure = std::fs::read_dir(&out)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("fail-"))
        })
        .min()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map(|t| t.lines().take(40).collect::<Vec<_>>().join("\n"))
        .unwrap_or_default();
    assert!(
        run.status.success(),
        "soak exited with {}:\n{stdout}\n{stderr}\n{first_failure}",
        run.status
    );
    assert!(summary.contains("\nfaults: 0\n"), "{summary}");
    let _ = std::fs::remove_dir_all(&out);
    summary
}

#[test]
fn a_dozen_fast_games_through_the_protocol_have_no_fault() {
    let summary = soak(&["--games", "12", "--seed", "32"]);
    assert!(summary.contains("games: 12 "), "{summary}");
}

/// Yixin-Board's opening steps, every one answered in full and held to its rule by the
/// soak's referee (the library's opening stage): Soosorv-8 under renju, and swap2.
#[test]
fn yixin_opening_steps_through_the_protocol_have_no_fault() {
    let summary = soak(&["--games", "2", "--seed", "5", "--opening", "yxsoosorv"]);
    for step in 1..=6 {
        assert!(
            summary.contains(&format!("YXSOOSORVSTEP{step}: 2\n")),
            "{summary}"
        );
    }
    let summary = soak(&["--games", "2", "--seed", "5", "--opening", "yxswap2"]);
    assert!(summary.contains("YXSWAP2STEP1: 2\n"), "{summary}");
    assert!(summary.contains("YXSWAP2STEP2: 2\n"), "{summary}");
}
