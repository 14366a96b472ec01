//! An engine's memory as a manager sees it: the resident set (`VmRSS`) and its peak
//! (`VmHWM`) from `/proc/PID/status`, held against `INFO max_memory`.
//!
//! The protocol makes `max_memory` the limit of the whole process, and Piskvork checks the
//! process's peak working set after every move, so the peak counts, even one reached before
//! the engine could read the limit. A limit below the least the engine plays within is held
//! at that least (the engine says it is too small and plays with its least tables); an
//! allowance over the limit can be given, none by default.

/// One reading of an engine's memory, in kB.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// Resident set now.
    pub rss_kb: u64,
    /// Peak resident set since the process started.
    pub hwm_kb: u64,
}

/// Reads `VmRSS` and `VmHWM` of process `pid` (`None` once it has gone).
pub fn sample(pid: u32) -> Option<Sample> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        line[name.len()..].split_whitespace().next()?.parse().ok()
    };
    Some(Sample {
        rss_kb: field("VmRSS:")?,
        hwm_kb: field("VmHWM:")?,
    })
}

/// What one engine's memory did during a game, against its limit.
#[derive(Clone, Debug, Default)]
pub struct Watch {
    /// `max_memory` in bytes (0 = none).
    pub limit: u64,
    /// The least limit the engine is held to: below it, it plays with its least tables.
    pub least: u64,
    /// Extra bytes allowed over the limit.
    pub allowance: u64,
    /// Highest `VmRSS` sampled.
    pub peak_rss_kb: u64,
    /// Last `VmHWM` read (the peak over the process's life).
    pub hwm_kb: u64,
    /// `VmRSS` right after `START` was answered.
    pub start_rss_kb: Option<u64>,
    /// Has an over-limit fault been reported (only the first is)?
    pub reported: bool,
}

impl Watch {
    /// A watch for a limit of `limit` bytes (at least `least`) plus `allowance`.
    pub fn new(limit: u64, least: u64, allowance: u64) -> Watch {
        Watch {
            limit,
            least,
            allowance,
            ..Watch::default()
        }
    }

    /// Takes a reading into account.
    pub fn observe(&mut self, s: Sample) {
        self.peak_rss_kb = self.peak_rss_kb.max(s.rss_kb);
        self.hwm_kb = self.hwm_kb.max(s.hwm_kb);
    }

    /// The peak in bytes (the larger of `VmHWM` and the sampled `VmRSS`).
    pub fn peak_bytes(&self) -> u64 {
        self.hwm_kb.max(self.peak_rss_kb) * 1024
    }

    /// The bytes the engine is held to (0 = no limit).
    pub fn held_to(&self) -> u64 {
        match self.limit {
            0 => 0,
            l => l.max(self.least),
        }
    }

    /// If the peak is over the limit (at least the least) plus allowance and this has not
    /// been reported yet, says so (once).
    pub fn breach(&mut self) -> Option<String> {
        let held = self.held_to();
        if held == 0 || self.reported || self.peak_bytes() <= held + self.allowance {
            return None;
        }
        self.reported = true;
        Some(format!(
            "peak resident {} (VmHWM {} kB, highest sampled VmRSS {} kB) over max_memory {}{} + \
             allowance {}",
            mb(self.peak_bytes()),
            self.hwm_kb,
            self.peak_rss_kb,
            mb(self.limit),
            if held > self.limit {
                format!(" (held to the least, {})", mb(held))
            } else {
                String::new()
            },
            mb(self.allowance)
        ))
    }
}

/// Bytes as MB with one decimal.
pub fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / (1 << 20) as f64)
}
