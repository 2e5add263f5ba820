//! How a match ended.
//!
//! ```
//! use umpire_core::{Outcome, Seat};
//!
//! let o = Outcome::forfeit(Seat::P2, "time", "P1 ran out of time; P2 wins".into());
//! assert_eq!((o.winner, o.decided_by.as_str()), (Some(Seat::P2), "time"));
//! ```

use serde::{Deserialize, Serialize};

use crate::{PerSeat, Seat};

/// The result of a finished match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Seat>,
    /// Each seat's final score in the game's main measure.
    pub scores: PerSeat<i64>,
    /// The step that decided it, in words: `score`, `second-largest group`,
    /// `last piece placed`, `time`, `resignation`…
    pub decided_by: String,
    /// A sentence that says who won and why.
    pub reason: String,
}

impl Outcome {
    /// A win that needs no scores (time, resignation).
    pub fn forfeit(winner: Seat, decided_by: &str, reason: String) -> Outcome {
        Outcome {
            winner: Some(winner),
            scores: PerSeat::default(),
            decided_by: decided_by.into(),
            reason,
        }
    }
}
