//! How long a bot may think, and a switch to stop it early.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A bot's thinking budget: a deadline, and a stop switch shared with
/// whoever runs the bot (the server flips it when the bot is replaced, the
/// match ends or the seat's decision moves on).
///
/// ```
/// use std::time::Duration;
/// use umpire_core::Think;
///
/// let think = Think::for_at_most(Duration::from_secs(5));
/// assert!(!think.should_stop());
/// think.stop();
/// assert!(think.should_stop());
/// ```
#[derive(Clone, Debug)]
pub struct Think {
    deadline: Instant,
    stopped: Arc<AtomicBool>,
}

impl Think {
    /// Until `deadline`.
    pub fn until(deadline: Instant) -> Think {
        Think {
            deadline,
            stopped: Arc::default(),
        }
    }

    /// For `budget` from now.
    pub fn for_at_most(budget: Duration) -> Think {
        Think::until(Instant::now() + budget)
    }

    /// No limit but the stop switch (for tests and the arena's fixed-work bots).
    pub fn unlimited() -> Think {
        Think::for_at_most(Duration::from_secs(365 * 24 * 3600))
    }

    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Asks the bot to stop thinking; every clone sees it.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// Whether the bot should answer now.
    pub fn should_stop(&self) -> bool {
        self.stopped.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }
}
