//! Scoring and the tiebreak chain.
//!
//! A seat's score is the size of each of its colours' largest garden region,
//! summed. On a tie the second-largest regions are added too, then the
//! third-largest, and so on (a colour with fewer regions adds 0). If the
//! scores are still equal once every region is counted, the seat that
//! controls blue wins.

use umpire_core::{Outcome, PerSeat, Seat};

use crate::board::{ByColour, Colour, Flowers, regions};

/// Each colour's garden regions, largest first.
pub fn garden_regions(garden: &Flowers) -> ByColour<Vec<u128>> {
    ByColour::from_fn(|c| regions(garden.of(c)))
}

/// What decided a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decider {
    /// Regions down to this depth counted (0 = the largest regions only).
    Depth(usize),
    /// Equal at every depth: the seat controlling blue won.
    Blue,
}

impl Decider {
    /// The step in words, for [`Outcome::decided_by`].
    pub fn words(self) -> String {
        match self {
            Decider::Depth(0) => "largest regions".into(),
            Decider::Depth(1) => "second-largest regions".into(),
            Decider::Depth(2) => "third-largest regions".into(),
            Decider::Depth(n) => format!("{}th-largest regions", n + 1),
            Decider::Blue => "blue".into(),
        }
    }
}

/// The winner, what decided it, and each seat's score at that step (every
/// region counted when blue decided), from each colour's region sizes
/// (largest first) and owners.
pub fn compare(
    sizes: &ByColour<Vec<u32>>,
    owners: &ByColour<Seat>,
) -> (Seat, Decider, PerSeat<i64>) {
    let depth = Colour::ALL
        .iter()
        .map(|&c| sizes[c].len())
        .max()
        .unwrap_or(0);
    let mut total = PerSeat::<i64>::default();
    for level in 0..depth.max(1) {
        for c in Colour::ALL {
            total[owners[c]] += sizes[c].get(level).copied().unwrap_or(0) as i64;
        }
        if total.p1 != total.p2 {
            let winner = if total.p1 > total.p2 {
                Seat::P1
            } else {
                Seat::P2
            };
            return (winner, Decider::Depth(level), total);
        }
    }
    (owners.blue, Decider::Blue, total)
}

/// The outcome of a finished game on `garden`.
pub fn outcome(garden: &Flowers, owners: &ByColour<Seat>) -> Outcome {
    let regions = garden_regions(garden);
    let sizes = ByColour::from_fn(|c| regions[c].iter().map(|r| r.count_ones()).collect());
    let (winner, decider, scores) = compare(&sizes, owners);
    let counted = match decider {
        Decider::Depth(d) => d + 1,
        Decider::Blue => usize::MAX,
    };
    // The regions that scored, seat by seat, in words: `red 5 and 2, blue 3`.
    let scored = |seat: Seat| {
        let parts: Vec<String> = Colour::ALL
            .iter()
            .filter(|&&c| owners[c] == seat)
            .map(|&c| {
                let list: Vec<String> = regions[c]
                    .iter()
                    .take(counted)
                    .map(|r| r.count_ones().to_string())
                    .collect();
                if list.is_empty() {
                    format!("no {c}")
                } else {
                    format!("{c} {}", list.join(" and "))
                }
            })
            .collect();
        parts.join(", ")
    };
    let loser = winner.other();
    let against = format!(
        "{winner}'s {} against {loser}'s {}",
        scored(winner),
        scored(loser)
    );
    let reason = match decider {
        Decider::Depth(0) => format!(
            "{winner}'s largest regions make {} to {loser}'s {}: {against}",
            scores[winner], scores[loser]
        ),
        Decider::Depth(d) => format!(
            "tied on the {}, {winner} leads {} to {} with the {} added: {against}",
            Decider::Depth(d - 1).words(),
            scores[winner],
            scores[loser],
            Decider::Depth(d).words()
        ),
        Decider::Blue => format!(
            "tied {} to {} with every region counted: {winner} controls blue and wins the tie",
            scores.p1, scores.p2
        ),
    };
    Outcome {
        winner: Some(winner),
        scores,
        decided_by: decider.words(),
        reason,
    }
}
