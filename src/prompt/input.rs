//! Where the prompt reads the player's lines: a pipe or file as it comes ([`Plain`]), or a
//! terminal through a line editor with history ([`Editor`], the rustyline crate: arrow keys,
//! Ctrl-R, and Ctrl-C as a key).

use std::io::{self, BufRead, Write};

/// One read from the player.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A line, as bytes (not yet checked to be UTF-8).
    Line(Vec<u8>),
    /// Ctrl-C at the prompt.
    Interrupted,
    /// End of input.
    End,
}

/// A source of the player's lines.
pub trait Input {
    /// Shows `prompt` (through `out`, or the editor's own line) and reads one line.
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> io::Result<Read>;
}

/// Lines from a pipe or a file: the prompt goes to `out`, the line is read as it is.
pub struct Plain<R: BufRead>(pub R);

impl<R: BufRead> Input for Plain<R> {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> io::Result<Read> {
        write!(out, "{prompt}")?;
        out.flush()?;
        let mut bytes = Vec::new();
        if self.0.read_until(b'\n', &mut bytes)? == 0 {
            writeln!(out)?;
            return Ok(Read::End);
        }
        Ok(Read::Line(bytes))
    }
}

/// Lines from a terminal, edited with rustyline: cursor keys, history of the session's
/// lines (up and down arrows, Ctrl-R), Ctrl-C and Ctrl-D as keys.
pub struct Editor(rustyline::DefaultEditor);

impl Editor {
    /// A line editor on the terminal.
    pub fn new() -> io::Result<Editor> {
        rustyline::DefaultEditor::new()
            .map(Editor)
            .map_err(io::Error::other)
    }
}

impl Input for Editor {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> io::Result<Read> {
        // What the prompt wrote must be on the screen before the editor draws its line.
        out.flush()?;
        match self.0.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    // A history that cannot take the line only loses the recall of it.
                    let _ = self.0.add_history_entry(line.as_str());
                }
                Ok(Read::Line(line.into_bytes()))
            }
            Err(rustyline::error::ReadlineError::Interrupted) => Ok(Read::Interrupted),
            Err(rustyline::error::ReadlineError::Eof) => Ok(Read::End),
            Err(rustyline::error::ReadlineError::Io(e)) => Err(e),
            Err(e) => Err(io::Error::other(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_input_shows_the_prompt_and_reads_lines() {
        let mut input = Plain(&b"h8\n\xffx\nlast"[..]);
        let mut out = Vec::new();
        assert_eq!(
            input.read("> ", &mut out).unwrap(),
            Read::Line(b"h8\n".to_vec())
        );
        assert_eq!(
            input.read("> ", &mut out).unwrap(),
            Read::Line(b"\xffx\n".to_vec())
        );
        assert_eq!(
            input.read("> ", &mut out).unwrap(),
            Read::Line(b"last".to_vec())
        );
        assert_eq!(input.read("> ", &mut out).unwrap(), Read::End);
        assert_eq!(out, b"> > > > \n");
    }
}
