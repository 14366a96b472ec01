//! Stone blocks: the stones of a `BOARD`, `YXBOARD`, `SWAP2BOARD`, `YXSOOSORVSTEP2` to `6`,
//! `YXBLOCK` or `YXBLOCKUNDO` block, read line by line and applied at `DONE`.

use super::super::command::{Command, ParseError};
use super::super::setup::{moves_from_stones, Owner};
use super::{printable, Out, Session};
use crate::types::Pos;

/// The stones of a `BOARD`, `YXBOARD` or `SWAP2BOARD` block being read.
pub(super) struct Block {
    kind: Command,
    stones: Vec<(Pos, Option<i64>)>,
    /// The first bad stone line, reported at `DONE`.
    error: Option<String>,
}

impl Block {
    /// An empty block of the command that opens it.
    pub(super) fn new(kind: Command) -> Block {
        Block {
            kind,
            stones: Vec::new(),
            error: None,
        }
    }
}

impl Session {
    /// A line inside a stone block. Returns the parse result when the line is a command
    /// that ends the block early (the block is dropped with an error).
    pub(super) fn block_line(
        &mut self,
        parsed: Result<Command, ParseError>,
        line: &str,
        out: Out,
    ) -> Option<Result<Command, ParseError>> {
        let block = self.block.as_mut()?;
        match parsed {
            Ok(Command::Stone(p, f)) => block.stones.push((p, f)),
            Ok(Command::Done) => {
                if let Some(b) = self.block.take() {
                    if let Err(m) = self.finish_block(b, out) {
                        out(&format!("ERROR {}", printable(&m)));
                    }
                }
            }
            Err(ParseError::Empty) => {}
            Err(ParseError::Malformed(m)) if line.trim_start().starts_with(is_stone_start) => {
                block.error.get_or_insert(m);
            }
            other => {
                self.block = None;
                out("ERROR stone block ended without DONE; position unchanged");
                return Some(other);
            }
        }
        None
    }

    pub(super) fn finish_block(&mut self, block: Block, out: Out) -> Result<(), String> {
        if let Some(e) = block.error {
            return Err(format!("bad stone line: {e}; position unchanged"));
        }
        for &(p, _) in &block.stones {
            let size = self.engine.board().size();
            if !p.on_board(size) {
                return Err(format!("stone {p} is off the {size}x{size} board"));
            }
        }
        if block.kind == Command::Swap2Board {
            return self.swap2(&block.stones, out);
        }
        if let Command::SoosorvStep(step, fifths) = block.kind {
            let stones: Vec<Pos> = block.stones.iter().map(|s| s.0).collect();
            return self.soosorv_step(step, fifths, &stones, out);
        }
        if matches!(block.kind, Command::Block | Command::BlockUndo) {
            let mut excluded = self.engine.excluded().to_vec();
            for &(p, _) in &block.stones {
                excluded.retain(|&q| q != p);
                if block.kind == Command::Block {
                    excluded.push(p);
                }
            }
            self.engine.set_excluded(excluded);
            return Ok(());
        }
        let mut stones = Vec::with_capacity(block.stones.len());
        for &(p, f) in &block.stones {
            let owner = f.and_then(Owner::from_field).ok_or_else(|| {
                format!("stone {p} needs a field 1 (own), 2 (opponent) or 3 (marker)")
            })?;
            stones.push((p, owner));
        }
        let moves = moves_from_stones(&stones);
        self.engine
            .set_stones(&moves)
            .map_err(|e| format!("{e}; position unchanged"))?;
        self.own = Some(self.engine.board().to_move());
        if block.kind == Command::Board {
            self.reply_move(out)?;
        }
        Ok(())
    }
}

fn is_stone_start(c: char) -> bool {
    c.is_ascii_digit() || c == '-'
}
