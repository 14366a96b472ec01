//! Fuzz target: arbitrary bytes, split into lines, fed to the Gomocup protocol handler
//! (parser + session) with searches capped at depth 2. Properties: no panic; every answer is
//! a single line of a known kind.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::protocol::{Flow, Options, Session};

fn well_formed(answer: &str) -> bool {
    let is_move = |t: &str| {
        t.split_once(',').is_some_and(|(x, y)| {
            x.parse::<usize>().is_ok_and(|x| x < 22) && y.parse::<usize>().is_ok_and(|y| y < 22)
        })
    };
    !answer.contains(['\n', '\r'])
        && (answer == "OK"
            || answer == "SWAP"
            || answer.starts_with("ERROR ")
            || answer.starts_with("UNKNOWN ")
            || answer.starts_with("MESSAGE ")
            || answer.starts_with("name=\"wuzi\"")
            || (answer.starts_with("FORBID ") && answer.ends_with('.'))
            || answer.split(' ').all(is_move))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new(Options {
        depth_cap: Some(2),
        hash_cap_mb: 1,
        threads_cap: 1,
        write_records: false,
    });
    // Bound the work per input: a few dozen commands are plenty to reach any state.
    for line in text.split(['\n', '\r']).take(64) {
        let (answers, flow) = session.answer(line);
        for a in &answers {
            assert!(well_formed(a), "'{line}' gave '{a}'");
        }
        if flow == Flow::Quit {
            break;
        }
    }
});
