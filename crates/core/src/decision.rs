//! Decision points: what each seat must decide now, if anything.
//!
//! Each seat has its own pending decision (its kind and a step counter) or
//! none, so the two seats can face different decisions at once. A seat's
//! clock restarts whenever its own pending decision changes.
//!
//! ```
//! use umpire_core::{Decision, Pending, Seat, Seats};
//!
//! // Both seats bid at once; P1 has submitted, P2 has not.
//! let d = Decision::simultaneous(Seats::one(Seat::P2), "bid");
//! assert_eq!(d.seats(), Seats::one(Seat::P2));
//! assert_eq!(d.require(Seat::P1).unwrap_err().to_string(),
//!            "P1 has already submitted for this round");
//!
//! // Different decisions at once: P1 orients a piece while P2 places one.
//! let d = Decision::over()
//!     .with(Seat::P1, Pending::new("orient").step(3))
//!     .with(Seat::P2, Pending::new("place"));
//! assert_eq!(d.kind(Seat::P1), Some("orient"));
//! assert!(d.require(Seat::P2).is_ok());
//! ```

use std::fmt;

use serde::{Serialize, Serializer};

use crate::{AnyState, PerSeat, Seat, TurnError, Viewer};

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

/// One seat's pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Pending {
    /// What is being decided, in the game's words (`first`, `place`, `draft`…).
    pub kind: &'static str,
    /// Tells apart successive decisions of the same kind that the seat did
    /// not end by acting itself; the seat's clock restarts when it changes.
    pub step: u32,
    /// Part of a decision both seats make at once, each sealed from the other.
    pub simultaneous: bool,
}

impl Pending {
    pub const fn new(kind: &'static str) -> Pending {
        Pending {
            kind,
            step: 0,
            simultaneous: false,
        }
    }

    pub const fn step(self, step: u32) -> Pending {
        Pending { step, ..self }
    }

    pub const fn simultaneous(self) -> Pending {
        Pending {
            simultaneous: true,
            ..self
        }
    }
}

/// What the game waits for now: each seat's pending decision, or none.
/// Serialised as `{"seats": ["P1"], "P1": {"kind", "step", "simultaneous"}, "P2": null}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Decision {
    pub pending: PerSeat<Option<Pending>>,
}

impl Decision {
    /// One seat decides.
    pub fn one(seat: Seat, kind: &'static str) -> Decision {
        Decision::over().with(seat, Pending::new(kind))
    }

    /// Both seats decide at once; `pending` are those still to submit.
    pub fn simultaneous(pending: Seats, kind: &'static str) -> Decision {
        pending.iter().fold(Decision::over(), |d, seat| {
            d.with(seat, Pending::new(kind).simultaneous())
        })
    }

    /// Nobody acts any more: the game is over.
    pub fn over() -> Decision {
        Decision::default()
    }

    /// This decision with `seat` facing `pending`.
    pub fn with(mut self, seat: Seat, pending: Pending) -> Decision {
        self.pending[seat] = Some(pending);
        self
    }

    /// This decision with `seat` facing nothing.
    pub fn without(mut self, seat: Seat) -> Decision {
        self.pending[seat] = None;
        self
    }

    pub fn get(&self, seat: Seat) -> Option<Pending> {
        self.pending[seat]
    }

    /// The kind of decision `seat` faces, if any.
    pub fn kind(&self, seat: Seat) -> Option<&'static str> {
        self.pending[seat].map(|p| p.kind)
    }

    /// The seats that must act.
    pub fn seats(&self) -> Seats {
        Seat::BOTH
            .into_iter()
            .filter(|&s| self.pending[s].is_some())
            .fold(Seats::NONE, Seats::with)
    }

    pub fn is_over(&self) -> bool {
        self.seats().is_empty()
    }

    /// What `viewer` may know of `state`'s decisions; see [`Decision::seen`].
    pub fn seen_by(state: &dyn AnyState, viewer: Viewer) -> Decision {
        Decision::seen(state.decision(), state.public_decision(), viewer)
    }

    /// What `viewer` may know, given the real and the public decisions: the
    /// umpire sees the real ones, a seat its own real decision and the public
    /// picture of the other's, a spectator the public picture.
    pub fn seen(real: Decision, public: Decision, viewer: Viewer) -> Decision {
        match viewer {
            Viewer::Umpire => real,
            Viewer::Spectator => public,
            Viewer::Seat(seat) => public.with_pending(seat, real.pending[seat]),
        }
    }

    fn with_pending(mut self, seat: Seat, pending: Option<Pending>) -> Decision {
        self.pending[seat] = pending;
        self
    }

    /// Checks that `seat` may act now, with the reason if not.
    pub fn require(&self, seat: Seat) -> Result<Pending, TurnError> {
        if let Some(pending) = self.pending[seat] {
            return Ok(pending);
        }
        match self.pending[seat.other()] {
            None => Err(TurnError::GameOver),
            Some(other) if other.simultaneous => Err(TurnError::AlreadySubmitted { seat }),
            Some(_) => Err(TurnError::NotYourTurn {
                seat,
                waiting: self.seats().to_string(),
            }),
        }
    }
}

impl Serialize for Decision {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("seats", &self.seats())?;
        map.serialize_entry("P1", &self.pending.p1)?;
        map.serialize_entry("P2", &self.pending.p2)?;
        map.end()
    }
}
