//! The prompt on a real terminal: `wuzi` in a tmux pane (a pseudo-terminal), driven by
//! keys. Checks the colour rendering, the one progress line that updates itself, Ctrl-C
//! stopping a think without quitting, the line editor's history, and Ctrl-C twice at the
//! prompt quitting. Skipped, with a note, where tmux is not installed.
//!
//! Nothing here is timed: every step waits (up to a generous limit) for the screen to show
//! what it should.

use std::process::Command;
use std::time::{Duration, Instant};

/// Longest wait for one screen change: a loaded machine is slow.
const WAIT: Duration = Duration::from_secs(60);

struct Pane {
    socket: String,
}

impl Pane {
    /// Starts `wuzi` in a new tmux server of its own; `None` without tmux.
    fn start() -> Option<Pane> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("tmux is not installed: the terminal test is skipped");
            return None;
        }
        let pane = Pane {
            socket: format!("wuzi-test-{}", std::process::id()),
        };
        let cmd = format!(
            "env -u NO_COLOR -u CLICOLOR_FORCE TERM=xterm-256color {} ; echo EXITED $? ; sleep 600",
            env!("CARGO_BIN_EXE_wuzi")
        );
        let ok = pane
            .tmux(&[
                "new-session",
                "-d",
                "-s",
                "t",
                "-x",
                "110",
                "-y",
                "50",
                &cmd,
            ])
            .status
            .success();
        assert!(ok, "tmux new-session failed");
        Some(pane)
    }

    fn tmux(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("run tmux")
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend(keys);
        assert!(self.tmux(&args).status.success());
    }

    /// The visible screen; with `escapes`, with its colour codes.
    fn screen(&self, escapes: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-t", "t"];
        if escapes {
            args.push("-e");
        }
        String::from_utf8_lossy(&self.tmux(&args).stdout).into_owned()
    }

    /// Everything the pane showed, scrolled-off lines included.
    fn history(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-S", "-", "-t", "t"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until `ok` holds of the screen; returns the screen.
    fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen(false);
            if ok(&s) {
                return s;
            }
            assert!(start.elapsed() < WAIT, "no {what} on the screen:\n{s}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

fn boards(text: &str) -> usize {
    text.lines()
        .filter(|l| l.ends_with("a b c d e f g h i j k l m n o"))
        .count()
        / 2
}

#[test]
fn ctrl_c_stops_a_think_and_the_editor_keeps_history() {
    let Some(p) = Pane::start() else { return };
    p.wait_for("prompt", |s| s.contains("black (X) to move >"));
    // A long think: Ctrl-C stops it, the engine plays its best move so far, the game goes on.
    p.keys(&["time 600", "Enter"]);
    p.wait_for("time set", |s| s.contains("600 s a move"));
    p.keys(&["h8", "Enter"]);
    let thinking = p.wait_for("progress", |s| s.contains("thinking: depth"));
    // One progress line, overwriting itself.
    assert_eq!(thinking.matches("thinking:").count(), 1, "{thinking}");
    assert!(thinking.contains("knodes/s"), "{thinking}");
    p.keys(&["C-c"]);
    let after = p.wait_for("the stopped move", |s| {
        s.contains("You stopped the search with Ctrl-C") && s.ends_with_prompt()
    });
    assert!(!after.contains("EXITED"), "{after}");
    assert!(after.contains("wuzi plays"), "{after}");
    assert!(
        !after.contains("thinking:"),
        "the progress line stayed:\n{after}"
    );
    // Colour on a terminal: the stones are drawn with escape codes.
    let coloured = p.screen(true);
    assert!(coloured.contains("\x1b["), "no colour:\n{coloured}");
    // History: the up arrow brings back the last line.
    p.keys(&["board", "Enter"]);
    let before = p.wait_for("the board again", |s| s.ends_with_prompt());
    let drawn = boards(&p.history());
    p.keys(&["Up"]);
    p.wait_for("the recalled line", |s| {
        s.trim_end().ends_with("black (X) to move > board")
    });
    p.keys(&["Enter"]);
    let start = Instant::now();
    while boards(&p.history()) == drawn {
        assert!(
            start.elapsed() < WAIT,
            "the recalled line did nothing:\n{before}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Ctrl-C twice at the prompt quits.
    p.keys(&["C-c"]);
    p.wait_for("the Ctrl-C note", |s| {
        s.contains("Ctrl-C again, or quit, to leave")
    });
    p.keys(&["C-c"]);
    p.wait_for("the exit", |s| s.contains("EXITED 0"));
}

trait EndsWithPrompt {
    fn ends_with_prompt(&self) -> bool;
}

impl EndsWithPrompt for str {
    /// The last non-blank line is the player's prompt.
    fn ends_with_prompt(&self) -> bool {
        self.lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.trim_end().ends_with("to move >"))
    }
}
