//! The position database's own readers on arbitrary bytes: the record decoder (redb keeps
//! the bytes, wuzi reads them back), the key decoder, and the JSON lines of
//! `wuzi db import`. Properties:
//!
//! - none of them panics;
//! - a record that decodes encodes and decodes back to itself;
//! - an import line that is accepted gives a key that decodes, and exports (`to_line`) to a
//!   line that imports back to the same key and record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::db::export::{from_line, to_line, Line};
use wuzi::db::key::decode_key;
use wuzi::db::Record;

fuzz_target!(|data: &[u8]| {
    if let Some(r) = Record::decode(data) {
        let bytes = r.encode();
        assert_eq!(Record::decode(&bytes), Some(r), "record round trip");
    }
    let _ = decode_key(data);
    let text = String::from_utf8_lossy(data);
    for l in text.lines() {
        let Ok(line) = serde_json::from_str::<Line>(l) else {
            continue;
        };
        if let Ok((key, rec)) = from_line(&line) {
            assert!(decode_key(&key).is_some(), "the key of {l}");
            let back = to_line(&key, &rec).expect("an imported key exports");
            let again = from_line(&back).expect("an exported line imports");
            assert_eq!(again, (key, rec), "{l} -> {back:?}");
        }
    }
});
