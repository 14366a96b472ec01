//! The subcommands' standard output. `println!` panics when stdout's reader has gone
//! (`wuzi solve --suite FILE | head`); [`line`] ends the command quietly instead, with the
//! status a shell gives a process ended by a closed pipe (128 + SIGPIPE), and says what
//! failed when stdout cannot be written for any other reason (a full disk).
//!
//! Everything a subcommand prints goes through the `outln!` macro below, which calls
//! [`line`], but `wuzi serve`'s address line: a server serves on without its stdout. The
//! `bench` binary prints through them too (it includes this file).

/// `println!` for everything a subcommand prints: a closed stdout ends the command quietly
/// ([`line()`]) instead of panicking. The including crate declares this module
/// `#[macro_use] mod out;` at its root, before the modules that print.
macro_rules! outln {
    () => {
        $crate::out::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}

use std::fmt;
use std::io::{self, ErrorKind, Write};
use std::process;

/// The exit status after stdout's reader went away: 128 + SIGPIPE (13), as a shell reports
/// a process the signal ended.
pub const CLOSED_PIPE_STATUS: i32 = 141;

/// Writes one line to stdout, or ends the process (see the module's doc).
pub fn line(args: fmt::Arguments) {
    let mut out = io::stdout().lock();
    let written = writeln!(out, "{args}").and_then(|()| out.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::BrokenPipe => process::exit(CLOSED_PIPE_STATUS),
        Err(e) => {
            eprintln!(
                "{}: cannot write to standard output: {e}",
                env!("CARGO_BIN_NAME")
            );
            process::exit(1)
        }
    }
}
