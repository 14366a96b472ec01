//! The manager's settings: `INFO key value` (clock, limits, memory, threads, rule,
//! folder, what Yixin-Board wants to see).

use super::super::report::Detail;
use super::Session;
use crate::types::Rule;
use std::path::PathBuf;

impl Session {
    pub(super) fn info(&mut self, key: &str, value: &str) -> Result<(), String> {
        let num = || -> Result<i64, String> {
            value
                .trim()
                .parse::<i64>()
                .map_err(|_| format!("INFO {key}: bad number '{value}'"))
        };
        match key {
            "timeout_turn" => self.tc.turn_ms = Some(num()?),
            "timeout_match" => self.tc.match_ms = Some(num()?),
            "time_left" => self.tc.left_ms = Some(num()?),
            "max_memory" => {
                self.max_memory = Some(num()?).filter(|&m| m > 0).map(|m| m as u64);
                self.apply_memory()?;
            }
            "hash_size" => {
                self.hash_kb = Some(num()?).filter(|&k| k > 0).map(|k| k as u64);
                self.apply_memory()?;
            }
            "thread_num" => {
                let n = num()?.clamp(1, self.opts.threads_cap.max(1) as i64);
                self.threads = n as usize;
                self.apply_memory()?;
            }
            "max_node" => self.max_nodes = Some(num()?).filter(|&n| n > 0).map(|n| n as u64),
            "max_depth" => {
                self.max_depth = Some(num()?)
                    .filter(|&d| d > 0)
                    .map(|d| d.min(i32::MAX as i64) as i32)
            }
            "rule" => self.set_rule(num()?)?,
            "show_detail" => self.detail = Detail::from_mask(num()?),
            "folder" => {
                self.folder = Some(value.trim())
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            }
            // Accepted and not needed: game_type, caution_factor, pondering, evaluate, and
            // any key we do not know (the protocol says to ignore those silently).
            _ => {}
        }
        Ok(())
    }

    pub(super) fn set_rule(&mut self, mask: i64) -> Result<(), String> {
        let rule = u32::try_from(mask)
            .ok()
            .and_then(Rule::from_gomocup)
            .ok_or_else(|| format!("INFO rule {mask} is not supported"))?;
        // The stones stay; only the rule that judges them changes.
        self.engine.set_rule(rule);
        Ok(())
    }
}
