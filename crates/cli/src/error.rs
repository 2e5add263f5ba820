//! Why a command failed, and the exit code that says so.

use std::process::ExitCode;

/// The exit codes, as `umpire --help` lists them (`umpire statement` has
/// its own: see its help).
pub const EXIT_CODES: &str = "Exit codes:
  0    done (a match played, quit or left; a record that replays)
  1    refused: a record that does not replay or is not a record, a bad
       config, an unknown game or bot
  2    usage: the command line itself is wrong
  3    a file that cannot be read or written (a missing record, a --record
       path that cannot be written)
  130  `umpire play` stopped by Ctrl-C (its record saved, marked unfinished)";

/// A failed command: what went wrong, in words, and its exit code.
#[derive(Debug)]
pub struct Error {
    pub code: u8,
    pub message: String,
}

impl Error {
    /// A file that cannot be read or written (exit 3).
    pub fn file(message: impl Into<String>) -> Error {
        Error {
            code: 3,
            message: message.into(),
        }
    }

    /// Prints the message and gives the exit code.
    pub fn report(self) -> ExitCode {
        if !self.message.is_empty() {
            eprintln!("error: {}", self.message);
        }
        ExitCode::from(self.code)
    }
}

/// Anything refused (exit 1).
impl From<String> for Error {
    fn from(message: String) -> Error {
        Error { code: 1, message }
    }
}
