//! The game-record parsers (`wuzi::record`) on arbitrary bytes. The first byte picks the rule
//! handed to `GameRecord::from_psq` (a `.psq` does not hold it); the rest, read as text
//! (invalid UTF-8 replaced), goes to both parsers. Properties:
//!
//! - neither `GameRecord::parse` nor `GameRecord::from_psq` panics;
//! - whatever parses is a valid record: a size from `MIN_SIZE` to `MAX_SIZE`, every move on
//!   the board (or a pass, in the text form) and no point played twice;
//! - text round trip: a parsed record's `to_text` parses again to the same record, and
//!   writing that gives the same text;
//! - `.psq` round trip: a record read by `from_psq` writes (`to_psq`) and reads back to the
//!   same record;
//! - across formats: a text record without passes written as `.psq` reads back with the
//!   same size and moves (names and result are not all representable there), and one with a
//!   pass is refused by `to_psq`;
//! - SGF: `record::sgf::read` does not panic, every game it reads is valid, and each writes
//!   (`to_sgf`) and reads back to the same record; a text record written as SGF reads back
//!   to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::record::{sgf, GameRecord};
use wuzi::types::{Rule, MAX_SIZE, MIN_SIZE};

fn check_valid(r: &GameRecord, passes: bool) {
    assert!((MIN_SIZE..=MAX_SIZE).contains(&r.size), "size {}", r.size);
    let mut seen = Vec::new();
    for &p in &r.moves {
        if p.is_none() {
            assert!(passes, "a pass in a .psq record");
            continue;
        }
        assert!(p.on_board(r.size), "move {p} off the {0}x{0} board", r.size);
        assert!(!seen.contains(&p), "{p} played twice");
        seen.push(p);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&r, rest)) = data.split_first() else {
        return;
    };
    let rule = Rule::ALL[r as usize % Rule::ALL.len()];
    let text = String::from_utf8_lossy(rest);

    if let Ok(rec) = GameRecord::parse(&text) {
        check_valid(&rec, true);
        let written = rec.to_text();
        let back = GameRecord::parse(&written)
            .unwrap_or_else(|e| panic!("{rec:?} wrote\n{written}\nwhich does not parse: {e}"));
        assert_eq!(back, rec, "text round trip of\n{written}");
        assert_eq!(back.to_text(), written, "the text writer is not stable");
        let has_pass = rec.moves.iter().any(|p| p.is_none());
        match rec.to_psq(&[]) {
            Ok(psq) => {
                assert!(!has_pass, "a pass written to .psq");
                let back = GameRecord::from_psq(&psq, rec.rule)
                    .unwrap_or_else(|e| panic!("{rec:?} wrote\n{psq}\nwhich does not read: {e}"));
                assert_eq!(
                    (back.rule, back.size, &back.moves),
                    (rec.rule, rec.size, &rec.moves),
                    "text record through .psq:\n{psq}"
                );
            }
            Err(_) => assert!(has_pass, "{rec:?} refused by to_psq"),
        }
        let written = rec.to_sgf();
        let back = sgf::read(&written, rule)
            .unwrap_or_else(|e| panic!("{rec:?} wrote\n{written}\nwhich does not read: {e}"));
        assert_eq!(back, vec![rec], "text record through SGF:\n{written}");
    }

    if let Ok(games) = sgf::read(&text, rule) {
        for rec in games {
            check_valid(&rec, true);
            let written = rec.to_sgf();
            let back = sgf::read(&written, rule)
                .unwrap_or_else(|e| panic!("{rec:?} wrote\n{written}\nwhich does not read: {e}"));
            assert_eq!(back, vec![rec], "SGF round trip of\n{written}");
        }
    }

    if let Ok(rec) = GameRecord::from_psq(&text, rule) {
        check_valid(&rec, false);
        assert_eq!(rec.rule, rule);
        let times: Vec<u64> = rest.iter().map(|&b| b as u64 * 37).collect();
        let written = rec
            .to_psq(&times)
            .unwrap_or_else(|e| panic!("{rec:?} refused by to_psq: {e}"));
        let back = GameRecord::from_psq(&written, rule)
            .unwrap_or_else(|e| panic!("{rec:?} wrote\n{written}\nwhich does not read: {e}"));
        assert_eq!(back, rec, ".psq round trip of\n{written}");
    }
});
