//! Who wins: the score, then the tiebreak chain of the rulings.
//!
//! ```
//! use umpire_core::{PerSeat, Seat};
//! use umpire_pentomino_wall::{Decider, Score, compare};
//!
//! let score = |total, unpainted| Score { total, unpainted, ..Score::default() };
//! let scores = PerSeat::new(score(10, 3), score(10, 4));
//! assert_eq!(compare(&scores, &[]), (Some(Seat::P1), Decider::Unpainted));
//! ```

use std::cmp::Ordering;

use umpire_core::{Outcome, PerSeat, Seat};

use crate::wall::Score;

/// The step of the chain that decided a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decider {
    /// The higher score.
    Score,
    /// Fewer unpainted cells.
    Unpainted,
    /// More credits.
    Credits,
    /// The larger painted square.
    Square,
    /// The first seat whose running score reached this threshold (0, −10,
    /// −20, …: the highest either seat ever reached).
    Threshold(i64),
    /// Nothing told the seats apart.
    Draw,
}

impl Decider {
    /// The step in words, as an outcome's `decided_by`.
    pub fn words(self) -> String {
        match self {
            Decider::Score => "score".into(),
            Decider::Unpainted => "fewer unpainted cells".into(),
            Decider::Credits => "more credits".into(),
            Decider::Square => "larger square".into(),
            Decider::Threshold(t) => format!("first to reach {t}"),
            Decider::Draw => "draw".into(),
        }
    }
}

/// The better of two values, by `order` (which seat's is better), if any.
fn better(p1: i64, p2: i64, higher: bool) -> Option<Seat> {
    match (p1.cmp(&p2), higher) {
        (Ordering::Equal, _) => None,
        (Ordering::Greater, true) | (Ordering::Less, false) => Some(Seat::P1),
        _ => Some(Seat::P2),
    }
}

/// The highest threshold (0, −10, −20, …) that either running score ever
/// reached, and the turn (an index into `history`) where one first did.
pub fn threshold(history: &[PerSeat<i64>]) -> Option<(i64, usize)> {
    let best = history.iter().map(|s| s.p1.max(s.p2)).max()?;
    let t = (best.div_euclid(10) * 10).min(0);
    let turn = history.iter().position(|s| s.p1 >= t || s.p2 >= t)?;
    Some((t, turn))
}

/// A step of the chain: its name, the value compared, and whether higher wins.
type Step = (Decider, fn(&Score) -> i64, bool);

/// The winner (`None` for a draw) and the step that decided it, from the
/// final scores and the running scores after every turn.
pub fn compare(scores: &PerSeat<Score>, history: &[PerSeat<i64>]) -> (Option<Seat>, Decider) {
    let steps: [Step; 4] = [
        (Decider::Score, |s| s.total, true),
        (Decider::Unpainted, |s| i64::from(s.unpainted), false),
        (Decider::Credits, |s| i64::from(s.credits), true),
        (Decider::Square, |s| i64::from(s.square), true),
    ];
    for (decider, value, higher) in steps {
        if let Some(seat) = better(value(&scores.p1), value(&scores.p2), higher) {
            return (Some(seat), decider);
        }
    }
    let Some((t, turn)) = threshold(history) else {
        return (None, Decider::Draw);
    };
    let at = history[turn];
    let reached = |s: i64| s >= t;
    match (reached(at.p1), reached(at.p2)) {
        (true, false) => (Some(Seat::P1), Decider::Threshold(t)),
        (false, true) => (Some(Seat::P2), Decider::Threshold(t)),
        // Both at the same turn: the higher score then.
        _ => match better(at.p1, at.p2, true) {
            Some(seat) => (Some(seat), Decider::Threshold(t)),
            None => (None, Decider::Draw),
        },
    }
}

/// Round and turn (from 1) of a turn's index in the running scores.
fn round_turn(index: usize) -> (usize, usize) {
    (index / 3 + 1, index % 3 + 1)
}

/// The outcome of a finished match.
pub fn outcome(scores: &PerSeat<Score>, history: &[PerSeat<i64>]) -> Outcome {
    let (winner, decider) = compare(scores, history);
    let totals = scores.map(|s| s.total);
    // Who won, and by the step that decided, in a sentence: the table of
    // terms on the end screen gives the rest.
    let reason = match (winner, decider) {
        (Some(w), Decider::Score) => {
            let l = w.other();
            format!("{w} scores {} to {l}'s {}", totals[w], totals[l])
        }
        (Some(w), Decider::Unpainted) => {
            let l = w.other();
            format!(
                "the scores tie at {}; {w} leaves {} cells unpainted to {l}'s {}",
                totals[w], scores[w].unpainted, scores[l].unpainted
            )
        }
        (Some(w), Decider::Credits) => {
            let l = w.other();
            format!(
                "the scores and unpainted cells tie; {w} has {} credits to {l}'s {}",
                scores[w].credits, scores[l].credits
            )
        }
        (Some(w), Decider::Square) => {
            let l = w.other();
            format!(
                "the scores, unpainted cells and credits tie; {w}'s largest square has edge {} to {l}'s {}",
                scores[w].square, scores[l].square
            )
        }
        (Some(w), Decider::Threshold(t)) => {
            let (round, turn) = threshold(history).map_or((0, 0), |(_, i)| round_turn(i));
            format!(
                "scores, unpainted cells, credits and squares all tie, and {w}'s running score reached {t} first (round {round}, turn {turn})"
            )
        }
        (_, _) => format!("a draw: every tiebreak ties at {}", totals.p1),
    };
    Outcome {
        winner,
        scores: totals,
        decided_by: decider.words(),
        reason,
    }
}
