//! The text form of the records: JSON lines, one position a line (docs/db.md), so knowledge
//! can be read, shared and merged. Points are Gomocup `x,y` (zero-based, x the column) in
//! the canonical orientation of the exported position; an import canonicalises again, so a
//! line written by hand in any orientation lands on the same record.

use super::key::{decode_key, Canon};
use super::record::{Deep, Outcomes, Proven, Record};
use super::{Db, DbError};
use crate::notation::{parse_xy, NotationError};
use crate::types::{Color, Pos, Rule};
use serde::{Deserialize, Serialize};

/// One exported position.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Line {
    /// Board size.
    pub size: usize,
    /// Rule name (`freestyle`, `standard`, `renju`, `caro`, `caro-standard`).
    pub rule: String,
    /// `black` or `white`.
    pub to_move: String,
    /// Black stones.
    pub black: Vec<String>,
    /// White stones.
    pub white: Vec<String>,
    /// A proven result for the side to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proven: Option<LineProven>,
    /// The deepest search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deep: Option<LineDeep>,
    /// Game outcomes per move, for the side to move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<LineMove>,
}

/// A proof in a [`Line`].
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LineProven {
    /// The side to move wins (else it loses).
    pub win: bool,
    /// Plies to the five.
    pub distance: u16,
    /// The winning move, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
}

/// A search result in a [`Line`].
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LineDeep {
    /// Depth in plies.
    pub depth: u8,
    /// Score for the side to move.
    pub score: i32,
    /// Best move.
    pub best: String,
}

/// A move's game outcomes in a [`Line`].
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LineMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Games its mover won, drew and lost.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Last game through it (seconds since 1970, UTC).
    pub last: u64,
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The line of a stored position (`None` if the key is not one).
pub fn to_line(key: &[u8], rec: &Record) -> Option<Line> {
    let super::key::KeyParts {
        size,
        rule,
        to_move: side,
        stones,
    } = decode_key(key)?;
    let pick = |c: Color| -> Vec<String> {
        stones
            .iter()
            .filter(|s| s.1 == c)
            .map(|s| s.0.to_string())
            .collect()
    };
    Some(Line {
        size,
        rule: rule.name().to_string(),
        to_move: colour_name(side).to_string(),
        black: pick(Color::Black),
        white: pick(Color::White),
        proven: rec.proven.map(|p| LineProven {
            win: p.win,
            distance: p.distance,
            best: (!p.best.is_none()).then(|| p.best.to_string()),
        }),
        deep: rec.deep.map(|d| LineDeep {
            depth: d.depth,
            score: d.score,
            best: d.best.to_string(),
        }),
        moves: rec
            .moves
            .iter()
            .map(|o| LineMove {
                mv: o.mv.to_string(),
                wins: o.wins,
                draws: o.draws,
                losses: o.losses,
                last: o.last,
            })
            .collect(),
    })
}

/// Why a line of an export is not a position's record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// A rule name wuzi does not know.
    #[error("unknown rule '{0}'")]
    Rule(String),
    /// A board size wuzi does not play.
    #[error("unsupported size {0}")]
    Size(usize),
    /// `to_move` is neither `black` nor `white`.
    #[error("to_move is black or white, not '{0}'")]
    ToMove(String),
    /// A point that is not `x,y`.
    #[error(transparent)]
    Point(#[from] NotationError),
    /// A point off the board.
    #[error("{point} is off a {size}x{size} board")]
    OffBoard {
        /// The point as written.
        point: String,
        /// The board size.
        size: usize,
    },
    /// A stone on a pass, or two stones on one point.
    #[error("{0} is a pass or holds two stones")]
    Stone(String),
}

/// The key and record a line stands for (moves canonical), or why it is not one.
pub fn from_line(line: &Line) -> Result<(Vec<u8>, Record), LineError> {
    let rule = Rule::parse(&line.rule).ok_or_else(|| LineError::Rule(line.rule.clone()))?;
    let n = line.size;
    if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&n) {
        return Err(LineError::Size(n));
    }
    let side = match line.to_move.as_str() {
        "black" => Color::Black,
        "white" => Color::White,
        s => return Err(LineError::ToMove(s.into())),
    };
    let point = |s: &str| -> Result<Pos, LineError> {
        let p = parse_xy(s)?;
        if p.is_none() || p.on_board(n) {
            Ok(p)
        } else {
            Err(LineError::OffBoard {
                point: s.into(),
                size: n,
            })
        }
    };
    let mut stones = Vec::new();
    let mut seen = vec![false; crate::types::CELLS];
    for (list, c) in [(&line.black, Color::Black), (&line.white, Color::White)] {
        for s in list {
            let p = point(s)?;
            if p.is_none() || std::mem::replace(&mut seen[p.index()], true) {
                return Err(LineError::Stone(s.clone()));
            }
            stones.push((p, c));
        }
    }
    let canon = Canon::from_stones(n, rule, side, &stones);
    let mv = |s: &str| point(s).map(|p| canon.to_canonical(p));
    let mut rec = Record::default();
    if let Some(p) = &line.proven {
        rec.proven = Some(Proven {
            win: p.win,
            distance: p.distance,
            best: p.best.as_deref().map_or(Ok(Pos::NONE), mv)?,
        });
    }
    if let Some(d) = &line.deep {
        rec.deep = Some(Deep {
            depth: d.depth,
            score: d.score,
            best: mv(&d.best)?,
        });
    }
    for m in &line.moves {
        let o = rec.outcomes_mut(mv(&m.mv)?);
        o.wins = o.wins.saturating_add(m.wins);
        o.draws = o.draws.saturating_add(m.draws);
        o.losses = o.losses.saturating_add(m.losses);
        o.last = o.last.max(m.last);
    }
    Ok((canon.key, rec))
}

/// Adds `new` into `old`: proofs and searches as learning keeps them, outcomes summed.
pub fn merge(old: &mut Record, new: &Record) {
    if let Some(p) = new.proven {
        old.prove(p);
    }
    if let Some(d) = new.deep {
        old.deepen(d);
    }
    for m in &new.moves {
        let o: &mut Outcomes = old.outcomes_mut(m.mv);
        o.wins = o.wins.saturating_add(m.wins);
        o.draws = o.draws.saturating_add(m.draws);
        o.losses = o.losses.saturating_add(m.losses);
        o.last = o.last.max(m.last);
    }
}

/// Which records `prune` keeps.
#[derive(Copy, Clone, Debug)]
pub struct PruneRule {
    /// Keep positions with a proof.
    pub keep_proven: bool,
    /// Keep positions searched at least this deep.
    pub min_depth: u8,
    /// Keep positions with at least this many games...
    pub min_games: u32,
    /// ...the last of them at or after this time (seconds since 1970).
    pub since: u64,
}

impl PruneRule {
    fn keeps(&self, r: &Record) -> bool {
        let games: u64 = r
            .moves
            .iter()
            .map(|o| o.wins as u64 + o.draws as u64 + o.losses as u64)
            .sum();
        let last = r.moves.iter().map(|o| o.last).max().unwrap_or(0);
        (self.keep_proven && r.proven.is_some())
            || r.deep.is_some_and(|d| d.depth >= self.min_depth)
            || (games >= self.min_games as u64 && games > 0 && last >= self.since)
    }
}

impl Db {
    /// Writes every record as a JSON line to `out`; returns how many.
    pub fn export(&self, out: &mut dyn std::io::Write) -> Result<u64, DbError> {
        let mut n = 0;
        let mut failed: Option<std::io::Error> = None;
        self.store().for_each(|k, r| {
            if failed.is_some() {
                return;
            }
            if let Some(line) = to_line(k, r) {
                let text = serde_json::to_string(&line).unwrap_or_default();
                match writeln!(out, "{text}") {
                    Ok(()) => n += 1,
                    Err(e) => failed = Some(e),
                }
            }
        })?;
        match failed {
            Some(e) => Err(DbError::Io {
                path: "export".into(),
                reason: e.to_string(),
            }),
            None => Ok(n),
        }
    }

    /// Merges JSON lines (as [`Db::export`] writes them) into the database in one
    /// transaction; returns how many. A bad line aborts the import with its number and
    /// nothing is written.
    pub fn import(&self, text: &str) -> Result<u64, DbError> {
        let mut parsed = Vec::new();
        for (i, l) in text.lines().enumerate() {
            if l.trim().is_empty() {
                continue;
            }
            let bad = |reason: String| DbError::Import {
                line: i + 1,
                reason,
            };
            let line: Line = serde_json::from_str(l).map_err(|e| bad(e.to_string()))?;
            parsed.push(from_line(&line).map_err(|e| bad(e.to_string()))?);
        }
        self.store().write(|w| {
            for (k, r) in &parsed {
                w.update(k, |old| merge(old, r))?;
            }
            Ok(parsed.len() as u64)
        })
    }

    /// Removes the records `rule` does not keep; returns how many.
    pub fn prune(&self, rule: PruneRule) -> Result<u64, DbError> {
        self.store().write(|w| w.retain(|_, r| rule.keeps(r)))
    }
}
