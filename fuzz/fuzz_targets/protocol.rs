//! Fuzz target: arbitrary bytes, split into lines, fed to the Gomocup protocol handler
//! (parser + session) with searches capped at depth 2. Properties: no panic; every answer is
//! a single line of a known kind.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::protocol::{Flow, Options, Session};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new(Options {
        depth_cap: Some(2),
        hash_cap_mb: 1,
        threads_cap: 1,
        write_records: false,
        ..Options::default()
    });
    // Bound the work per input: a few dozen commands are plenty to reach any state.
    for line in text.split(['\n', '\r']).take(64) {
        let (answers, flow) = session.answer(line);
        for a in &answers {
            assert!(
                wuzi::protocol::is_well_formed_answer(a),
                "'{line}' gave '{a}'"
            );
        }
        if flow == Flow::Quit {
            break;
        }
    }
});
