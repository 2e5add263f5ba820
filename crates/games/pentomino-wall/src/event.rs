//! The latest event of a match, as data in the views and in words for logs.

use serde::{Deserialize, Serialize};
use umpire_core::Seat;

use crate::notation::RoundEnd;
use crate::pieces::{Orientation, Piece, Pieces};
use crate::view::Sealed;
use crate::wall::Placed;
use crate::{DOUBLE_TURN, EXCHANGE};

/// The latest event: who, what, and whether the clock chose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Last {
    pub by: Seat,
    pub event: Event,
    /// The seat ran out of time and the umpire's default was played.
    #[serde(default)]
    pub timeout: bool,
}

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// The advantage seat named round 1's first drafter.
    First { first: Seat },
    /// A draft pick (two with a Double Turn); `rest` is what the other
    /// seat then took because a hand held six.
    Took {
        pieces: Pieces,
        double: bool,
        rest: Option<Pieces>,
    },
    /// A seat sealed its choice of the turn.
    Sealed,
    /// Both choices of the turn, revealed.
    Revealed { p1: Sealed, p2: Sealed },
    /// An Exchange: `took` the presented piece into the hand, `gave` a
    /// piece of the hand to be oriented by the opponent.
    Exchanged { gave: Piece, took: Piece },
    /// The presenter oriented the swapped-in piece.
    Oriented { orientation: Orientation },
    /// A piece placed, and the credits its extra steps cost.
    Placed { placed: Placed, paid: u32 },
    /// A round-end choice, the credits it gained its seat and those it
    /// paid the opponent.
    RoundEnd {
        choice: RoundEnd,
        gained: u32,
        paid: u32,
    },
}

fn credits(n: u32) -> String {
    format!("{n} credit{}", if n == 1 { "" } else { "s" })
}

impl Last {
    /// The event in words: `P1 placed T turned 90° at C4 (1 paid step: 1
    /// credit to P2)`.
    pub fn words(&self) -> String {
        let (by, other) = (self.by, self.by.other());
        let mut words = match self.event {
            Event::First { first } => format!("{by} named {first} to draft first"),
            Event::Took {
                pieces,
                double,
                rest,
            } => {
                let mut w = if double {
                    let mut each = pieces.iter();
                    let (a, b) = (each.next(), each.next());
                    format!(
                        "{by} took {} and {} with a Double Turn ({} to {other})",
                        a.map_or(String::new(), |p| p.to_string()),
                        b.map_or(String::new(), |p| p.to_string()),
                        credits(DOUBLE_TURN)
                    )
                } else {
                    format!("{by} took {pieces}")
                };
                if let Some(rest) = rest {
                    w += &format!("; {other} takes the rest of the pool ({})", rest.listed());
                }
                w
            }
            Event::Sealed => format!("{by} sealed its choice"),
            Event::Revealed { p1, p2 } => format!(
                "P1 presents {} and sets {} aside; P2 presents {} and sets {} aside",
                p1.present, p1.aside, p2.present, p2.aside
            ),
            Event::Exchanged { gave, took } => format!(
                "{by} exchanged {took} for {gave} ({} to {other}), who orients {gave}",
                credits(EXCHANGE)
            ),
            Event::Oriented { orientation } => format!(
                "{by} oriented {} for {other}: {}",
                orientation.piece,
                orientation.words()
            ),
            Event::Placed { placed, paid } => {
                let mut w = format!(
                    "{by} placed {} at {}",
                    placed.orientation.words(),
                    placed.at
                );
                if paid > 0 {
                    w += &format!(
                        " ({paid} paid step{}: {} to {other})",
                        if paid == 1 { "" } else { "s" },
                        credits(paid)
                    );
                }
                w
            }
            Event::RoundEnd {
                choice,
                gained,
                paid,
            } => {
                let mut w = format!("{by}: {choice}");
                if gained + paid > 0 {
                    w += &format!(
                        " (+{} to {by}, +{} to {other})",
                        credits(gained),
                        credits(paid)
                    );
                }
                w
            }
        };
        if self.timeout {
            words = format!("{by}'s time ran out; the umpire chose: {words}");
        }
        words
    }
}
