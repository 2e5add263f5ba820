//! What a load test reports, as text and as JSON.

use std::collections::BTreeMap;
use std::fmt;

#[derive(serde::Serialize)]
pub struct Report {
    /// The game played.
    pub game: String,
    /// Concurrent matches.
    pub concurrent: usize,
    /// Matches in all (`concurrent` times the repeats).
    pub matches: usize,
    pub finished: u64,
    pub actions: u64,
    pub errors: u64,
    pub seconds: f64,
    pub actions_per_second: f64,
    /// `act` to `accepted`.
    pub accepted: Latency,
    /// `act` to the mover's own next `state`.
    pub own_state: Latency,
    /// `act` to the opponent's next `state`.
    pub opponent_state: Latency,
    /// With `nodes`: the same three for the clients connected to the node
    /// that runs their match, and for those relayed to it.
    pub direct: Option<[Latency; 3]>,
    pub relayed: Option<[Latency; 3]>,
    /// The server's CPU time (user + system) per 1,000 accepted actions
    /// while the matches played.
    pub cpu_seconds_per_1000_actions: Option<f64>,
    /// The same, per kind of server thread (`tokio-rt-worker`,
    /// `umpire-store`, …), for the threads alive at both ends of the run.
    pub cpu_by_thread: BTreeMap<String, f64>,
    /// PostgreSQL's own CPU time (every process of this machine named
    /// `postgres`) per 1,000 accepted actions, when the store is PostgreSQL.
    pub store_cpu_seconds_per_1000_actions: Option<f64>,
    pub peak_rss_kib: Option<u64>,
    /// Bot-against-bot matches kept playing at once (`--bot-matches`).
    pub bot_matches: usize,
    /// Of those, how many finished during the run.
    pub bot_matches_finished: u64,
}

/// One latency's distribution, in milliseconds.
#[derive(serde::Serialize, Default, Clone, Copy)]
pub struct Latency {
    pub samples: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Latency {
    /// From round trips in microseconds.
    pub(crate) fn of(mut micros: Vec<u32>) -> Latency {
        micros.sort_unstable();
        let pick = |q: f64| {
            if micros.is_empty() {
                0.0
            } else {
                let i = ((micros.len() as f64 * q).ceil() as usize).clamp(1, micros.len()) - 1;
                micros[i] as f64 / 1000.0
            }
        };
        Latency {
            samples: micros.len(),
            p50_ms: pick(0.50),
            p99_ms: pick(0.99),
            max_ms: pick(1.0),
        }
    }
}

impl fmt::Display for Latency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.p50_ms, self.p99_ms, self.max_ms
        )
    }
}

impl Report {
    /// Every match finished without a single error.
    pub fn ok(&self) -> bool {
        self.errors == 0 && self.finished == self.matches as u64
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "matches:      {} finished of {} ({} at once, {} WebSocket clients)",
            self.finished,
            self.matches,
            self.concurrent,
            self.concurrent * 2
        )?;
        writeln!(
            f,
            "actions:      {} in {:.1} s = {:.0} actions/s",
            self.actions,
            self.seconds,
            self.actions as f64 / self.seconds.max(1e-9)
        )?;
        writeln!(f, "act -> accepted:        {}", self.accepted)?;
        writeln!(f, "act -> own state:       {}", self.own_state)?;
        writeln!(f, "act -> opponent state:  {}", self.opponent_state)?;
        for (route, latencies) in [("direct", &self.direct), ("relayed", &self.relayed)] {
            if let Some([accepted, own, opponent]) = latencies {
                writeln!(
                    f,
                    "  {route} clients: accepted {accepted}; own state {own}; opponent state {opponent}"
                )?;
            }
        }
        writeln!(f, "errors:       {}", self.errors)?;
        if self.bot_matches > 0 {
            writeln!(
                f,
                "bot matches:  {} at once beside them, {} finished",
                self.bot_matches, self.bot_matches_finished
            )?;
        }
        match self.cpu_seconds_per_1000_actions {
            Some(s) => {
                let threads: Vec<String> = (self.cpu_by_thread.iter())
                    .map(|(name, s)| format!("{name} {:.1}", s * 1000.0))
                    .collect();
                writeln!(
                    f,
                    "server CPU:   {:.1} ms per 1,000 actions ({:.1} µs an action; {})",
                    s * 1000.0,
                    s * 1000.0,
                    threads.join(", ")
                )?
            }
            None => writeln!(f, "server CPU:   unknown (give --pid)")?,
        }
        if let Some(s) = self.store_cpu_seconds_per_1000_actions {
            writeln!(
                f,
                "PostgreSQL CPU: {:.1} ms per 1,000 actions ({:.1} µs an action)",
                s * 1000.0,
                s * 1000.0
            )?;
        }
        match self.peak_rss_kib {
            Some(kib) => write!(
                f,
                "server peak resident memory: {:.1} MB (VmHWM)",
                kib as f64 / 1024.0
            ),
            None => write!(f, "server peak resident memory: unknown (give --pid)"),
        }
    }
}
