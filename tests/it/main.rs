//! The integration tests, as one test crate: one module per subject. One crate links one
//! test binary instead of one per file, which was most of a clean `cargo test` build's time
//! after the library itself (14 links of the library with its debug information).
//!
//! `cargo test` runs the quick set; the long suites are `#[ignore = "long: ..."]` and run
//! with `cargo test --release -- --ignored` (see the README). One module alone:
//! `cargo test --test it engine::`.

mod bench_cli;
mod board_props;
mod cli;
mod common;
mod datagen;
mod db;
mod db_kill;
mod db_process;
mod engine;
mod golden;
mod net;
mod opengen_openings;
mod patterns;
mod probe;
mod prompt;
mod prompt_opening;
mod protocol;
mod protocol_lines;
mod protocol_openings;
mod protocol_yixin;
mod rules;
mod simd;
mod table_props;
mod terminal;
mod threats;
mod web;
mod web_limits;
mod web_opening;
