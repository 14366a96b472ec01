//! One game's settings, drawn from its seed before play: board, rule, clock, memory,
//! threads, how the opening reaches the engines, and whether the game ends by `END` while
//! an engine thinks. Events during play (TAKEBACK, RESTART, STOP, ...) are drawn as the game
//! goes, in [`crate::game`].

use crate::clock::Clock;
use crate::dice::Dice;
use std::fmt;
use wuzi::Rule;

/// `max_memory` values in bytes (0 = no limit) with their weights: a few MB up to the
/// tournament's 350 MB.
const MEMORY: [(u32, u64); 8] = [
    (15, 0),
    (10, 4 << 20),
    (10, 8 << 20),
    (8, 16 << 20),
    (8, 32 << 20),
    (8, 64 << 20),
    (8, 128 << 20),
    (33, 350 << 20),
];

/// How the first moves reach the engines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// Empty board: black's engine gets `BEGIN`.
    Begin,
    /// One stone placed by the manager: white's engine gets `TURN x,y` first.
    Turn,
    /// This many random stones: each engine gets the position as a `BOARD` block.
    Board(usize),
    /// The Swap2 opening through `SWAP2BOARD` (not under renju).
    Swap2,
    /// The Swap2 opening through Yixin-Board's `YXSWAP2STEP1` to `3` (not under renju).
    YxSwap2,
    /// Renju's Soosorv-8 opening through `YXSOOSORVSTEP1` to `6` (renju on 15x15).
    YxSoosorv,
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opening::Begin => f.write_str("BEGIN"),
            Opening::Turn => f.write_str("one stone, then TURN"),
            Opening::Board(n) => write!(f, "BOARD with {n} stones"),
            Opening::Swap2 => f.write_str("SWAP2BOARD"),
            Opening::YxSwap2 => f.write_str("YXSWAP2STEP"),
            Opening::YxSoosorv => f.write_str("YXSOOSORVSTEP"),
        }
    }
}

/// An opening every game of a run plays (`soak --opening`), to exercise one path.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Forced {
    /// Swap2 through `SWAP2BOARD` (freestyle where the drawn rule is renju).
    Swap2board,
    /// Swap2 through `YXSWAP2STEP1` to `3` (freestyle where the drawn rule is renju).
    Yxswap2,
    /// Soosorv-8 through `YXSOOSORVSTEP1` to `6` (renju on 15x15 in every game).
    Yxsoosorv,
}

/// Everything about a game decided before it starts.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The game's index in the run.
    pub game: usize,
    /// Board side.
    pub size: usize,
    /// The `INFO rule` value sent.
    pub rule_mask: u32,
    /// The rule the referee judges by (from the mask, as the brain reads it).
    pub rule: Rule,
    /// Time control.
    pub clock: Clock,
    /// `INFO max_memory` in bytes; 0 = no limit.
    pub max_memory: u64,
    /// `INFO thread_num` of engines A and B.
    pub threads: [u32; 2],
    /// Send the `INFO` settings before `START` instead of after its `OK`.
    pub info_before_start: bool,
    /// Send `INFO` keys in upper case (the protocol says to accept either).
    pub upper_keys: bool,
    /// End lines with CR LF (as Piskvork does) rather than LF.
    pub crlf: bool,
    /// How the opening reaches the engines.
    pub opening: Opening,
    /// Does engine A play black (before any Swap2 choice)?
    pub a_black: bool,
    /// Most plies before the game is stopped as a draw.
    pub move_cap: usize,
    /// If set, at the first move request at or after this ply, `END` is sent while the
    /// engine thinks, and the game ends there.
    pub end_mid_search_at: Option<usize>,
}

impl Plan {
    /// Draws game `game` of a run with `seed`; `fast` keeps to fast time controls and
    /// shorter games (for the test). `memory`, if not empty, gives `max_memory`: its values
    /// in turn by game index (the draw is still made, so that the rest is the same game).
    pub fn draw(seed: u64, game: usize, fast: bool, memory: &[u64]) -> Plan {
        let mut d = Dice::for_game(seed, game, 0);
        // Fast runs (the test, often a debug build) favour small boards, which search and
        // check faster.
        let (weights, largest) = if fast {
            ([(40, 0), (0, 1), (10, 2), (50, 3)], 13)
        } else {
            ([(45, 0), (12, 1), (18, 2), (25, 3)], 22)
        };
        let size = match d.weighted(&weights) {
            0 => 15,
            1 => 19,
            2 => 20,
            // Any other supported size, odd ones and the smallest, 5, included (and the
            // largest, 22, in full runs).
            _ => loop {
                let s = d.range(5, largest) as usize;
                if ![15, 19, 20].contains(&s) {
                    break s;
                }
            },
        };
        let mut rule_mask = if size == 15 {
            d.weighted(&[(30, 0), (25, 1), (25, 4), (10, 8), (10, 9)])
        } else {
            d.weighted(&[(40, 0), (30, 1), (15, 8), (15, 9)])
        };
        // The continuous-game bit does not change a single game's rule; sent now and then.
        if d.chance(0.05) {
            rule_mask |= 2;
        }
        let rule = Rule::from_gomocup(rule_mask).unwrap_or(Rule::Freestyle);
        let clock = Clock::draw(&mut d, fast);
        let drawn = d.weighted(&MEMORY);
        let max_memory = memory
            .get(game % memory.len().max(1))
            .copied()
            .unwrap_or(drawn);
        let threads = [d.range(1, 2) as u32, d.range(1, 2) as u32];
        let cells = size * size;
        let opening = match d.weighted(&[(35, 0), (15, 1), (40, 2), (10, 3)]) {
            0 => Opening::Begin,
            1 => Opening::Turn,
            3 if rule != Rule::Renju && d.chance(0.5) => Opening::Swap2,
            3 if rule != Rule::Renju => Opening::YxSwap2,
            3 if size == 15 => Opening::YxSoosorv,
            _ => Opening::Board(d.range(2, 8.min(cells as u64 / 4)) as usize),
        };
        let cap_hi = if fast { 16 } else { 100 };
        let move_cap = cap_hi.min(cells);
        let end_mid_search_at = d
            .chance(0.06)
            .then(|| d.range(2, move_cap as u64 - 1) as usize);
        Plan {
            game,
            size,
            rule_mask,
            rule,
            clock,
            max_memory,
            threads,
            info_before_start: d.chance(0.2),
            upper_keys: d.chance(0.05),
            crlf: d.chance(0.5),
            opening,
            a_black: d.chance(0.5),
            move_cap,
            end_mid_search_at,
        }
    }

    /// Plays the game with the `forced` opening, on a board and under a rule that allow it;
    /// the rest of the plan stays as drawn.
    pub fn force(&mut self, forced: Forced) {
        let keep_bits = self.rule_mask & 2;
        match forced {
            Forced::Swap2board | Forced::Yxswap2 => {
                if self.rule == Rule::Renju {
                    self.rule_mask = keep_bits;
                    self.rule = Rule::Freestyle;
                }
                self.opening = if forced == Forced::Swap2board {
                    Opening::Swap2
                } else {
                    Opening::YxSwap2
                };
            }
            Forced::Yxsoosorv => {
                self.size = 15;
                self.move_cap = self.move_cap.max(6);
                self.rule_mask = 4 | keep_bits;
                self.rule = Rule::Renju;
                self.opening = Opening::YxSoosorv;
            }
        }
    }

    /// The `INFO` lines announcing the game's settings to engine `p` (0 = A, 1 = B), in an
    /// order drawn from `dice`.
    pub fn info_lines(&self, p: usize, dice: &mut Dice) -> Vec<String> {
        let mut kv: Vec<(&str, String)> = self.clock.settings();
        kv.push(("max_memory", self.max_memory.to_string()));
        kv.push(("game_type", "1".into()));
        kv.push(("rule", self.rule_mask.to_string()));
        kv.push(("thread_num", self.threads[p].to_string()));
        dice.shuffle(&mut kv);
        kv.into_iter().map(|(k, v)| self.info(k, &v)).collect()
    }

    /// One `INFO key value` line, the key in the case this game uses.
    pub fn info(&self, key: &str, value: &str) -> String {
        let key = if self.upper_keys {
            key.to_ascii_uppercase()
        } else {
            key.to_string()
        };
        format!("INFO {key} {value}")
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mem = match self.max_memory {
            0 => "no memory limit".to_string(),
            m => format!("max_memory {} MB", m >> 20),
        };
        write!(
            f,
            "{0}x{0} {1} (rule {2}), {3}, {mem}, threads A {4} B {5}, opening {6}, A plays {7}, \
             cap {8} plies{9}{10}{11}{12}",
            self.size,
            self.rule,
            self.rule_mask,
            self.clock,
            self.threads[0],
            self.threads[1],
            self.opening,
            if self.a_black { "black" } else { "white" },
            self.move_cap,
            match self.end_mid_search_at {
                Some(p) => format!(", END mid-search from ply {p}"),
                None => String::new(),
            },
            if self.info_before_start {
                ", INFO before START"
            } else {
                ""
            },
            if self.upper_keys {
                ", upper-case INFO keys"
            } else {
                ""
            },
            if self.crlf { ", CR LF" } else { ", LF" },
        )
    }
}
