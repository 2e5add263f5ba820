//! `umpire serve` as a child process, for the load test and the tests:
//! found by the address it prints first, killed when dropped.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use crate::procfs;

/// A running server.
pub struct Served {
    pub child: Child,
    pub addr: SocketAddr,
    /// A directory of its own, removed once it is gone.
    scratch: Option<PathBuf>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(dir) = &self.scratch {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl Served {
    /// Runs `command` (an `umpire serve …` command line; `--addr
    /// 127.0.0.1:0` picks a free port) and reads where it listens from the
    /// first line it prints.
    pub fn start(mut command: Command) -> Result<Served, String> {
        let child = command
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        let mut served = Served {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            scratch: None,
        };
        let stdout = served.child.stdout.take().ok_or("no server stdout")?;
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        served.addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("the server did not say where it listens: `{}`", line.trim()))?;
        Ok(served)
    }

    /// The same server, removing `dir` once it is gone.
    pub fn removing(mut self, dir: PathBuf) -> Served {
        self.scratch = Some(dir);
        self
    }

    /// Its peak resident memory (VmHWM), in bytes.
    pub fn peak_memory(&self) -> Option<u64> {
        procfs::peak_rss_kib(self.child.id()).map(|kib| kib * 1024)
    }
}
