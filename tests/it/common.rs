//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use wuzi::suite::{load_suite, SuiteRow};

/// `../shared/data` beside the repository.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
}

/// Loads a suite under `../shared/data`, e.g. `rules/five_check_alphagomoku.tsv`.
pub fn suite(rel: &str) -> Vec<SuiteRow> {
    let path = data_dir().join(rel);
    load_suite(&path).unwrap_or_else(|e| panic!("cannot load {}: {e}", path.display()))
}

/// Every `step`-th row, for sampled runs of the large suites.
pub fn sample(rows: Vec<SuiteRow>, step: usize) -> Vec<SuiteRow> {
    rows.into_iter().step_by(step.max(1)).collect()
}
