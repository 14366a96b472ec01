//! What the database knows about one position, and its bytes on disk. Moves are in the
//! key's canonical orientation ([`super::key::Canon`]); every field is from the view of the
//! side to move in the position. Decoding never trusts the bytes: a damaged value reads as
//! `None`.

use crate::types::Pos;

/// The first byte of every stored value: the layout below. A reader refuses other versions.
pub const FORMAT: u8 = 1;

/// A forced result proven by a search or the threat solver, or derived from a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Proven {
    /// The side to move wins (else it loses whatever it plays).
    pub win: bool,
    /// Plies to the five.
    pub distance: u16,
    /// The winning move (canonical); `Pos::NONE` for a loss or when not known.
    pub best: Pos,
}

/// The deepest search result of the position as a root.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Deep {
    /// The search's depth in plies.
    pub depth: u8,
    /// Its score for the side to move (centi-stones; mate scores as the search gives them).
    pub score: i32,
    /// Its best move (canonical).
    pub best: Pos,
}

/// How games went after one move from the position, for the side that played it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// The move (canonical).
    pub mv: Pos,
    /// Games the mover won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the mover lost.
    pub losses: u32,
    /// When a game last went through this move (seconds since 1970, UTC).
    pub last: u64,
}

/// Everything known about a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// A proven result, if one is known.
    pub proven: Option<Proven>,
    /// The deepest search result stored.
    pub deep: Option<Deep>,
    /// Game outcomes per move played from here.
    pub moves: Vec<Outcomes>,
}

impl Record {
    /// The outcomes of `mv` (canonical), created if new.
    pub fn outcomes_mut(&mut self, mv: Pos) -> &mut Outcomes {
        let i = match self.moves.iter().position(|o| o.mv == mv) {
            Some(i) => i,
            None => {
                self.moves.push(Outcomes {
                    mv,
                    ..Outcomes::default()
                });
                self.moves.len() - 1
            }
        };
        &mut self.moves[i]
    }

    /// The outcomes of `mv` (canonical), if a game played it.
    pub fn outcomes(&self, mv: Pos) -> Option<&Outcomes> {
        self.moves.iter().find(|o| o.mv == mv)
    }

    /// Keeps a proof: a new one replaces an old one of the other sign (a later proof from a
    /// fuller search) or a longer one of the same sign.
    pub fn prove(&mut self, p: Proven) {
        match self.proven {
            Some(old) if old.win == p.win && old.distance <= p.distance => {}
            _ => self.proven = Some(p),
        }
    }

    /// Keeps a search result if it is at least as deep as the stored one.
    pub fn deepen(&mut self, d: Deep) {
        if self.deep.is_none_or(|old| d.depth >= old.depth) {
            self.deep = Some(d);
        }
    }

    /// The value's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(16 + 22 * self.moves.len());
        b.push(FORMAT);
        b.push(self.proven.is_some() as u8 | (self.deep.is_some() as u8) << 1);
        if let Some(p) = self.proven {
            b.push(p.win as u8);
            b.extend_from_slice(&p.distance.to_le_bytes());
            b.extend_from_slice(&p.best.0.to_le_bytes());
        }
        if let Some(d) = self.deep {
            b.push(d.depth);
            b.extend_from_slice(&d.score.to_le_bytes());
            b.extend_from_slice(&d.best.0.to_le_bytes());
        }
        let n = self.moves.len().min(u16::MAX as usize);
        b.extend_from_slice(&(n as u16).to_le_bytes());
        for o in &self.moves[..n] {
            b.extend_from_slice(&o.mv.0.to_le_bytes());
            b.extend_from_slice(&o.wins.to_le_bytes());
            b.extend_from_slice(&o.draws.to_le_bytes());
            b.extend_from_slice(&o.losses.to_le_bytes());
            b.extend_from_slice(&o.last.to_le_bytes());
        }
        b
    }

    /// Reads a value; `None` if the bytes are not one this version wrote.
    pub fn decode(bytes: &[u8]) -> Option<Record> {
        let mut r = Reader(bytes);
        if r.u8()? != FORMAT {
            return None;
        }
        let flags = r.u8()?;
        if flags & !3 != 0 {
            return None;
        }
        let proven = if flags & 1 != 0 {
            let win = match r.u8()? {
                0 => false,
                1 => true,
                _ => return None,
            };
            Some(Proven {
                win,
                distance: r.u16()?,
                best: Pos(r.u16()?),
            })
        } else {
            None
        };
        let deep = if flags & 2 != 0 {
            Some(Deep {
                depth: r.u8()?,
                score: i32::from_le_bytes(r.take()?),
                best: Pos(r.u16()?),
            })
        } else {
            None
        };
        let n = r.u16()? as usize;
        let mut moves = Vec::with_capacity(n.min(r.0.len() / 22));
        for _ in 0..n {
            moves.push(Outcomes {
                mv: Pos(r.u16()?),
                wins: u32::from_le_bytes(r.take()?),
                draws: u32::from_le_bytes(r.take()?),
                losses: u32::from_le_bytes(r.take()?),
                last: u64::from_le_bytes(r.take()?),
            });
        }
        r.0.is_empty().then_some(Record {
            proven,
            deep,
            moves,
        })
    }
}

/// Reads little-endian fields off the front of a slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|b| b[0])
    }
    fn u16(&mut self) -> Option<u16> {
        self.take().map(u16::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        let mut r = Record {
            proven: Some(Proven {
                win: true,
                distance: 7,
                best: Pos::new(3, 4),
            }),
            deep: Some(Deep {
                depth: 12,
                score: -345,
                best: Pos::new(5, 5),
            }),
            moves: Vec::new(),
        };
        let o = r.outcomes_mut(Pos::new(1, 2));
        o.losses = 2;
        o.last = 1_700_000_000;
        r.outcomes_mut(Pos::new(2, 2)).wins = 1;
        r
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let r = sample();
        assert_eq!(Record::decode(&r.encode()), Some(r));
        let empty = Record::default();
        assert_eq!(Record::decode(&empty.encode()), Some(empty));
    }

    #[test]
    fn damaged_bytes_read_as_nothing() {
        let bytes = sample().encode();
        for cut in 0..bytes.len() {
            assert_eq!(Record::decode(&bytes[..cut]), None, "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(Record::decode(&longer), None);
        let mut version = bytes;
        version[0] = FORMAT + 1;
        assert_eq!(Record::decode(&version), None);
    }

    #[test]
    fn a_shorter_proof_or_a_deeper_search_replaces_the_old() {
        let mut r = Record::default();
        let p = |win, distance| Proven {
            win,
            distance,
            best: Pos::NONE,
        };
        r.prove(p(true, 9));
        r.prove(p(true, 11));
        assert_eq!(r.proven, Some(p(true, 9)));
        r.prove(p(true, 5));
        assert_eq!(r.proven, Some(p(true, 5)));
        r.prove(p(false, 8));
        assert_eq!(r.proven, Some(p(false, 8)));
        let d = |depth| Deep {
            depth,
            score: 0,
            best: Pos::NONE,
        };
        r.deepen(d(8));
        r.deepen(d(6));
        assert_eq!(r.deep, Some(d(8)));
    }
}
