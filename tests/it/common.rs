//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use wuzi::suite::{load_suite, SuiteRow};

/// The folder of the test positions: `tests/data` of this repository, which holds every
/// file the tests read (`tests/data/README.md` gives their sources), or the folder named by
/// the environment variable `WUZI_DATA` if it is set, e.g. `WUZI_DATA=../shared/data` to
/// run the suites from the shared data set.
pub fn data_dir() -> PathBuf {
    match std::env::var_os("WUZI_DATA") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => project_data_dir(),
    }
}

/// `tests/data` of this repository, for the files this project made (the shared data set
/// does not have them).
pub fn project_data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Loads a suite under [`data_dir`], e.g. `rules/five_check_alphagomoku.tsv`.
pub fn suite(rel: &str) -> Vec<SuiteRow> {
    let path = data_dir().join(rel);
    load_suite(&path).unwrap_or_else(|e| panic!("cannot load {}: {e}", path.display()))
}

/// Every `step`-th row, for sampled runs of the large suites.
pub fn sample(rows: Vec<SuiteRow>, step: usize) -> Vec<SuiteRow> {
    rows.into_iter().step_by(step.max(1)).collect()
}
