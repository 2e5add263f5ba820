//! What every client's socket shares, whether this node holds it for a
//! match of its own or relays it to the node that runs the match: the
//! limits on its messages, its pings, and its number.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Messages longer than this get an error; the connection stays open.
pub const MAX_MESSAGE: usize = 16 * 1024;
/// Messages per second a client may send (and the burst it may save up):
/// past it the server reads the client's messages more slowly. Nothing is
/// refused, so a fast bot is slowed down, never cut off, and a flood costs
/// the server no more than this many messages a second.
pub const RATE: f64 = 100.0;
/// The server pings each client this often.
pub const PING_EVERY: Duration = Duration::from_secs(30);
/// A client heard nothing from (not even a pong) this long is dropped.
pub const IDLE_LIMIT: Duration = Duration::from_secs(75);
/// How often a client's silence is checked against [`IDLE_LIMIT`].
pub const IDLE_CHECK: Duration = Duration::from_secs(5);

/// Connection numbers start at a random point, so that a node restarted
/// under the same name does not reuse the numbers other nodes still relay
/// under (below 2^53, which a browser's numbers hold exactly).
static NEXT_CONN: std::sync::LazyLock<AtomicU64> =
    std::sync::LazyLock::new(|| AtomicU64::new(u64::from(rand::random::<u32>()) << 20));

/// A new connection's number, unique in this process (and, almost surely,
/// among the processes of a service).
pub fn next_conn() -> u64 {
    NEXT_CONN.fetch_add(1, Ordering::Relaxed)
}

/// A token bucket: `RATE` messages a second, bursts up to `RATE`.
pub struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    pub fn new() -> Bucket {
        Bucket {
            tokens: RATE,
            at: Instant::now(),
        }
    }

    /// Takes a token, first waiting for one if the bucket is empty.
    pub async fn take(&mut self) {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * RATE;
        self.tokens = (self.tokens + refill).min(RATE);
        self.at = now;
        if self.tokens < 1.0 {
            let wait = Duration::from_secs_f64((1.0 - self.tokens) / RATE);
            tokio::time::sleep(wait).await;
            self.tokens = 1.0;
            self.at = Instant::now();
        }
        self.tokens -= 1.0;
    }
}
