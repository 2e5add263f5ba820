//! Seats and viewers.
//!
//! ```
//! use umpire_core::{PerSeat, Seat, Viewer};
//!
//! let mut points = PerSeat::new(3, 5);
//! points[Seat::P1] += 4;
//! assert_eq!(serde_json::to_string(&points).unwrap(), r#"{"P1":7,"P2":5}"#);
//! assert_eq!(Seat::P1.other(), Seat::P2);
//! assert_eq!("spectator".parse::<Viewer>().unwrap(), Viewer::Spectator);
//! assert!("P3".parse::<Seat>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::ParseError;

/// One of the two players' places at the table.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Seat {
    #[default]
    P1,
    P2,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::P1, Seat::P2];

    pub fn other(self) -> Seat {
        match self {
            Seat::P1 => Seat::P2,
            Seat::P2 => Seat::P1,
        }
    }

    /// 0 for P1, 1 for P2: an index into per-seat arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// `P1` or `P2`.
    pub fn as_str(self) -> &'static str {
        match self {
            Seat::P1 => "P1",
            Seat::P2 => "P2",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Seat {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s.trim().to_ascii_uppercase().as_str() {
            "P1" => Ok(Seat::P1),
            "P2" => Ok(Seat::P2),
            _ => Err(ParseError::new(format!(
                "expected a seat, P1 or P2, got `{}`",
                s.trim()
            ))),
        }
    }
}

/// A pair of values, one per seat, serialised as `{"P1": …, "P2": …}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PerSeat<T> {
    #[serde(rename = "P1")]
    pub p1: T,
    #[serde(rename = "P2")]
    pub p2: T,
}

impl<T> PerSeat<T> {
    pub fn new(p1: T, p2: T) -> Self {
        PerSeat { p1, p2 }
    }

    pub fn from_fn(mut f: impl FnMut(Seat) -> T) -> Self {
        PerSeat {
            p1: f(Seat::P1),
            p2: f(Seat::P2),
        }
    }

    pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> PerSeat<U> {
        PerSeat {
            p1: f(&self.p1),
            p2: f(&self.p2),
        }
    }
}

impl<T> std::ops::Index<Seat> for PerSeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        match seat {
            Seat::P1 => &self.p1,
            Seat::P2 => &self.p2,
        }
    }
}

impl<T> std::ops::IndexMut<Seat> for PerSeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        match seat {
            Seat::P1 => &mut self.p1,
            Seat::P2 => &mut self.p2,
        }
    }
}

/// Who is looking at a match: each gets only what the rules let them know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    /// A player: sees their own secrets and the public state.
    Seat(Seat),
    /// Anyone watching: sees only the public state.
    Spectator,
    /// The umpire: sees everything.
    Umpire,
}

impl Viewer {
    pub const ALL: [Viewer; 4] = [
        Viewer::Seat(Seat::P1),
        Viewer::Seat(Seat::P2),
        Viewer::Spectator,
        Viewer::Umpire,
    ];

    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Viewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Viewer::Seat(s) => s.fmt(f),
            Viewer::Spectator => f.write_str("spectator"),
            Viewer::Umpire => f.write_str("umpire"),
        }
    }
}

impl FromStr for Viewer {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "spectator" => Ok(Viewer::Spectator),
            "umpire" => Ok(Viewer::Umpire),
            _ => s.parse().map(Viewer::Seat).map_err(|_| {
                ParseError::new(format!(
                    "expected a viewer (P1, P2, spectator or umpire), got `{}`",
                    s.trim()
                ))
            }),
        }
    }
}
