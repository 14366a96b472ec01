//! The engine's own memory floor, measured once per run: its resident size after one move
//! with the smallest table (`max_memory` 2 MB gives a 1 MB table), printed beside the
//! allowance that the `max_memory` checks add for the binary itself.

use crate::engine::{Process, Read};
use crate::memory::{self, Sample};
use crate::referee::parse_point;
use crate::transcript::Transcript;
use std::path::Path;
use std::time::{Duration, Instant};

/// Starts `engine` in `cwd`, has it play one move on 15x15 with a 2 MB limit and 200 ms,
/// and reads its memory before ending it.
pub fn measure(engine: &Path, cwd: &Path) -> Result<Sample, String> {
    let log = cwd.join("stderr").join("baseline.txt");
    let mut proc = Process::spawn(engine, &[], cwd, 'X', &log, false, Transcript::new())?;
    for line in [
        "START 15",
        "INFO max_memory 2097152",
        "INFO timeout_turn 200",
        "BEGIN",
    ] {
        proc.send(line)?;
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match proc.read(deadline) {
            Read::Line(_, t) if parse_point(&t).is_some() => break,
            Read::Line(..) => continue,
            Read::Eof => return Err(format!("the engine {}", proc.exit_text())),
            Read::Timeout => return Err("no move to BEGIN within 10 s".into()),
        }
    }
    let sample = memory::sample(proc.pid()).ok_or("cannot read /proc/PID/status")?;
    let _ = proc.send("END");
    proc.wait_exit(Duration::from_secs(1));
    proc.kill();
    if std::fs::metadata(&log).is_ok_and(|m| m.len() == 0) {
        let _ = std::fs::remove_file(&log);
    }
    Ok(sample)
}
