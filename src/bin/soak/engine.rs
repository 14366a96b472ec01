//! One engine process as a manager drives it: stdin and stdout pipes, stderr to a file, a
//! reader thread that timestamps every line the engine prints, and reads with deadlines.
//! Nothing here panics on what the engine does: a dead pipe is an error value.

use crate::transcript::Transcript;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What a read with a deadline found.
#[derive(Debug)]
pub enum Read {
    /// A line (without its line ending), read at that instant.
    Line(Instant, String),
    /// The engine closed its output (it exited, or will).
    Eof,
    /// Nothing before the deadline.
    Timeout,
}

/// A running engine.
pub struct Process {
    label: char,
    child: Child,
    stdin: ChildStdin,
    /// Lines from the reader thread; `None` marks the end of output.
    lines: Receiver<(Instant, Option<String>)>,
    eof: bool,
    eol: &'static str,
    transcript: Transcript,
    status: Option<ExitStatus>,
}

impl Process {
    /// Starts `path` with `args` in the working directory `cwd` (not the binary's, as under
    /// a real manager), its stderr going to the file `stderr`. Lines sent end with CR LF if
    /// `crlf`.
    pub fn spawn(
        path: &Path,
        args: &[String],
        cwd: &Path,
        label: char,
        stderr: &Path,
        crlf: bool,
        transcript: Transcript,
    ) -> Result<Process, String> {
        let err = File::create(stderr).map_err(|e| format!("{}: {e}", stderr.display()))?;
        let mut child = Command::new(path)
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(err))
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the engine's pipes were not set up".into());
        };
        let (tx, rx) = mpsc::channel();
        let log = transcript.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send((Instant::now(), None));
                        break;
                    }
                    Ok(_) => {
                        let at = Instant::now();
                        let text = String::from_utf8_lossy(&buf);
                        let text = text.trim_end_matches(['\n', '\r']).to_string();
                        log.received(label, at, &text);
                        if tx.send((at, Some(text))).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process {
            label,
            child,
            stdin,
            lines: rx,
            eof: false,
            eol: if crlf { "\r\n" } else { "\n" },
            transcript,
            status: None,
        })
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (logged first) and flushes. Returns the instant the line was handed
    /// to the pipe, or why it could not be (the engine is gone).
    pub fn send(&mut self, line: &str) -> Result<Instant, String> {
        self.transcript.sent(self.label, line);
        let mut bytes = Vec::with_capacity(line.len() + 2);
        bytes.extend_from_slice(line.as_bytes());
        bytes.extend_from_slice(self.eol.as_bytes());
        self.stdin
            .write_all(&bytes)
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("writing '{line}' failed: {e}"))?;
        Ok(Instant::now())
    }

    /// The next line the engine printed, waiting until `deadline` at most.
    pub fn read(&mut self, deadline: Instant) -> Read {
        if self.eof {
            return Read::Eof;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((at, Some(text))) => Read::Line(at, text),
            Ok((_, None)) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Read::Eof
            }
            Err(RecvTimeoutError::Timeout) => Read::Timeout,
        }
    }

    /// Waits up to `within` for the process to exit; returns how long it took.
    pub fn wait_exit(&mut self, within: Duration) -> Option<Duration> {
        let start = Instant::now();
        loop {
            if self.exited() {
                return Some(start.elapsed());
            }
            if start.elapsed() >= within {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Has the process exited (reaping it if so)?
    pub fn exited(&mut self) -> bool {
        if self.status.is_none() {
            if let Ok(Some(s)) = self.child.try_wait() {
                self.status = Some(s);
            }
        }
        self.status.is_some()
    }

    /// How the process ended, in words (or that it still runs).
    pub fn exit_text(&mut self) -> String {
        self.exited();
        match self.status {
            None => "still running".into(),
            Some(s) => match (s.code(), s.signal()) {
                (Some(c), _) => format!("exited with code {c}"),
                (None, Some(sig)) => format!("killed by signal {sig}"),
                _ => format!("ended ({s})"),
            },
        }
    }

    /// Kills the process if it still runs, and reaps it.
    pub fn kill(&mut self) {
        if !self.exited() {
            let _ = self.child.kill();
            if let Ok(s) = self.child.wait() {
                self.status = Some(s);
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}
