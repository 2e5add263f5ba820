//! What the load clients count as they play: finished matches, actions,
//! errors and latencies, and when each seat last acted.

use std::sync::atomic::AtomicU64;
use std::time::Instant;

#[derive(Default)]
pub struct Tally {
    pub finished: AtomicU64,
    pub actions: AtomicU64,
    pub errors: AtomicU64,
    /// Microseconds from `act` to `accepted`, to the mover's own state and
    /// to the opponent's state.
    pub latencies: std::sync::Mutex<[Vec<u32>; 3]>,
    /// The same, of direct clients (0) and relayed ones (1).
    pub routes: std::sync::Mutex<[[Vec<u32>; 3]; 2]>,
}

pub const ACCEPTED: usize = 0;
pub const OWN_STATE: usize = 1;
pub const OPPONENT_STATE: usize = 2;

/// When each seat of one match last sent `act`, in microseconds since the
/// run's epoch (0: nothing outstanding), so the opponent's client can time
/// its own new state from the mover's act.
pub struct Sent {
    pub epoch: Instant,
    pub at: [AtomicU64; 2],
}

impl Sent {
    pub fn now(&self) -> u64 {
        (self.epoch.elapsed().as_micros() as u64).max(1)
    }
}
