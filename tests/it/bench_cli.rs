//! The bench binary's command line: `--set` reaches the search, and a bad argument is an
//! error with a message and exit code 2, not a panic.

use std::process::Command;

fn bench(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(args)
        .output()
        .expect("bench runs")
}

#[cfg(feature = "tuning")]
fn signature(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("signature   : "))
        .expect("a signature line")
        .to_string()
}

#[cfg(feature = "tuning")]
#[test]
fn set_changes_the_search_and_is_echoed() {
    // Shallow, and the root threat search given no nodes: debug builds recheck every move.
    let plain = bench(&["--depth", "2", "--set", "root_threat_nodes=0"]);
    assert!(plain.status.success());
    let again = bench(&["--depth", "2", "--set", "root_threat_nodes=0"]);
    assert_eq!(
        signature(&plain),
        signature(&again),
        "the signature is reproducible"
    );
    // No leaf threat check: a different tree, so a different signature.
    let set = bench(&[
        "--depth",
        "2",
        "--set",
        "root_threat_nodes=0",
        "--set",
        "leaf_vcf_nodes=0",
    ]);
    assert!(set.status.success());
    assert!(String::from_utf8_lossy(&set.stdout)
        .contains("parameters root_threat_nodes=0 leaf_vcf_nodes=0"));
    assert_ne!(signature(&plain), signature(&set));
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    for args in [
        &["--set", "nosuch=1"][..],
        &["--set", "leaf_vcf_nodes=x"],
        &["--set", "leaf_vcf_nodes=-1"],
        &["--set"],
        &["--frobnicate", "1"],
        &["--depth", "0"],
        &["--depth", "1000"],
        &["--depth", "x"],
        &["--threads", "0"],
        &["--hash", "0"],
    ] {
        let out = bench(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("bench: ") || err.starts_with("error: "),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: no search ran");
    }
}

#[test]
fn help_names_the_signature_rule_and_version_answers() {
    let help = bench(&["--help"]);
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(
        text.contains("--depth") && text.contains("only with one"),
        "{text}"
    );
    let version = bench(&["--version"]);
    assert!(version.status.success());
    assert!(String::from_utf8_lossy(&version.stdout).contains(env!("CARGO_PKG_VERSION")));
}

/// The first line `bench` prints with `args`, its stdout then closed (as by `bench | head -1`),
/// and how it ended.
fn first_line(args: &[&str]) -> (String, std::process::Output) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bench runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The pipe is closed here; the next line bench writes fails.
    (first, child.wait_with_output().unwrap())
}

/// `bench | head -1`: a reader that stops early ends the run quietly (status 141, as a
/// shell reports a closed pipe and as `wuzi`'s subcommands end; nothing on stderr). The
/// header names the evaluation.
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let (first, out) = first_line(&["--depth", "2", "--eval", "classical"]);
    assert!(first.starts_with("wuzi bench:"), "{first}");
    assert!(first.contains("evaluation classical"), "{first}");
    assert_eq!(out.status.code(), Some(141), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    let (first, _) = first_line(&["--depth", "2"]);
    assert!(first.contains("evaluation net "), "{first}");
    // Standard shares freestyle's built-in net; renju has its own.
    assert!(first.contains(" (freestyle, standard), net "), "{first}");
    assert!(first.contains(" (renju)"), "{first}");
}

/// `--eval` with a file that is not a net is refused (exit 2).
#[test]
fn a_file_that_is_not_a_net_is_refused() {
    let out = bench(&["--depth", "1", "--eval", "Cargo.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a wuzi net file"));
}

#[test]
fn a_full_stdout_is_named() {
    // A failure to write other than a closed pipe: status 1 and a message.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(["--depth", "1"])
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("bench runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("bench: cannot write to standard output"),
        "{err}"
    );
}
