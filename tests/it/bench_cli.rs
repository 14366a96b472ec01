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
    // Shallow and without the root threat search: debug builds recheck every move.
    let plain = bench(&["--depth", "2", "--set", "root=0"]);
    assert!(plain.status.success());
    let again = bench(&["--depth", "2", "--set", "root=0"]);
    assert_eq!(
        signature(&plain),
        signature(&again),
        "the signature is reproducible"
    );
    // No leaf threat check: a different tree, so a different signature.
    let set = bench(&["--depth", "2", "--set", "root=0", "--set", "leaf=0"]);
    assert!(set.status.success());
    assert!(String::from_utf8_lossy(&set.stdout).contains("parameters root=0 leaf=0"));
    assert_ne!(signature(&plain), signature(&set));
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    for args in [
        &["--set", "nosuch=1"][..],
        &["--set", "leaf=x"],
        &["--set", "leaf=-1"],
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
