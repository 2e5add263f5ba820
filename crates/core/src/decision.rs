//! Decision points: who must act now, and whether both act at once.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::{Seat, TurnError};

/// A set of seats (at most both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seats(u8);

impl Seats {
    pub const NONE: Seats = Seats(0);
    pub const BOTH: Seats = Seats(0b11);

    pub const fn one(seat: Seat) -> Seats {
        Seats(1 << seat as u8)
    }

    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat as u8) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn with(self, seat: Seat) -> Seats {
        Seats(self.0 | 1 << seat as u8)
    }

    pub fn without(self, seat: Seat) -> Seats {
        Seats(self.0 & !(1 << seat as u8))
    }

    pub fn iter(self) -> impl Iterator<Item = Seat> {
        Seat::BOTH.into_iter().filter(move |&s| self.contains(s))
    }
}

impl fmt::Display for Seats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.contains(Seat::P1), self.contains(Seat::P2)) {
            (true, true) => f.write_str("P1 and P2"),
            (true, false) => f.write_str("P1"),
            (false, true) => f.write_str("P2"),
            (false, false) => f.write_str("nobody"),
        }
    }
}

impl Serialize for Seats {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// What the game waits for now. In a simultaneous decision both seats submit
/// without seeing the other's submission; the game holds the first until the
/// second is in, and `seats` shrinks to the seat still to submit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// Seats that must still act; empty once the game is over.
    pub seats: Seats,
    /// Whether both seats decide at once.
    pub simultaneous: bool,
    /// What is being decided, in the game's words (`first`, `place`, `draft`…).
    pub kind: &'static str,
}

impl Decision {
    /// One seat decides.
    pub fn one(seat: Seat, kind: &'static str) -> Decision {
        Decision {
            seats: Seats::one(seat),
            simultaneous: false,
            kind,
        }
    }

    /// Both seats decide at once; `pending` are those still to submit.
    pub fn simultaneous(pending: Seats, kind: &'static str) -> Decision {
        Decision {
            seats: pending,
            simultaneous: true,
            kind,
        }
    }

    /// Nobody acts any more: the game is over.
    pub fn over() -> Decision {
        Decision {
            seats: Seats::NONE,
            simultaneous: false,
            kind: "over",
        }
    }

    pub fn is_over(&self) -> bool {
        self.seats.is_empty()
    }

    /// Checks that `seat` may act now, with the reason if not.
    pub fn require(&self, seat: Seat) -> Result<(), TurnError> {
        if self.is_over() {
            Err(TurnError::GameOver)
        } else if self.seats.contains(seat) {
            Ok(())
        } else if self.simultaneous {
            Err(TurnError::AlreadySubmitted { seat })
        } else {
            Err(TurnError::NotYourTurn {
                seat,
                waiting: self.seats.to_string(),
            })
        }
    }
}
