//! What a viewer sees of a Pentomino Wall match: every public fact, so that
//! a whole state can be rebuilt from a view. The only secret is a seat's
//! sealed choice of the turn (the piece it presents and the piece it sets
//! aside) until both seats have made theirs.

use serde::{Deserialize, Serialize};
use umpire_core::{PerSeat, Render, Seat};

use crate::event::Last;
use crate::notation::RoundEnd;
use crate::pieces::{Orientation, Piece, Pieces};
use crate::wall::{Placed, Score};
use crate::{Action, DOUBLE_TURN, EXCHANGE, FREE_STEPS, HAND, QuarterTurns, ROUNDS, TURNS};

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The advantage seat names who drafts first in round 1.
    First,
    /// The seats take pieces from the pool in turn.
    Draft,
    /// Both seats seal a piece to present and a piece to set aside.
    Present,
    /// Both seats place the piece presented to them (with Exchanges).
    Place,
    /// Both seats say what becomes of their set-aside pieces.
    RoundEnd,
    Over,
}

/// A seat's sealed choice of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sealed {
    /// The piece presented to the opponent, as oriented.
    pub present: Orientation,
    /// The piece set aside for the rest of the round.
    pub aside: Piece,
}

/// A piece a seat kept at consecutive round ends, and how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    pub piece: Piece,
    pub rounds: u8,
}

/// One seat's wall: the pieces in placing order, and the paint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WallView {
    pub placed: Vec<Placed>,
    /// Nine rows of ten, top first: a piece's letter where one piece
    /// painted the cell (its colour), `#` black (painted more than once),
    /// `.` unpainted.
    pub rows: Vec<String>,
}

/// A viewer's picture of the match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub advantage: Seat,
    pub quarter_turns: QuarterTurns,
    pub phase: Phase,
    /// The round, 1–6.
    pub round: u8,
    /// The turn of the round, 1–3, during turns and at the round's end; 0
    /// before the first turn of a round.
    pub turn: u8,
    /// Who drafts first in round 1, once named.
    pub first_drafter: Option<Seat>,
    /// The seat to pick, during the draft.
    pub drafter: Option<Seat>,
    /// Draft turns taken in the match so far.
    pub picks: u32,
    pub pool: Pieces,
    /// Each seat's hand; a sealed choice stays in it until both are in.
    pub hands: PerSeat<Pieces>,
    /// The pieces each seat set aside this round.
    pub aside: PerSeat<Pieces>,
    pub credits: PerSeat<u32>,
    /// Which seats have sealed their choice this turn.
    pub submitted: PerSeat<bool>,
    /// Sealed choices: a seat sees its own, the umpire both.
    pub sealed: PerSeat<Option<Sealed>>,
    /// The piece presented to each seat this turn, as presented.
    pub presented: PerSeat<Option<Orientation>>,
    /// The piece each seat has to place now, as it lies (after an
    /// Exchange, as the presenter oriented it); `None` once placed or
    /// while waiting for that orientation.
    pub to_place: PerSeat<Option<Orientation>>,
    /// The hand piece each seat gave in an Exchange this turn.
    pub exchanged: PerSeat<Option<Piece>>,
    /// Whether a seat that must both place and orient orients first.
    pub orients_first: PerSeat<bool>,
    /// Which seats have placed this turn.
    pub placed: PerSeat<bool>,
    pub walls: PerSeat<WallView>,
    /// Pieces each seat kept at the latest round ends in a row.
    pub kept: PerSeat<Vec<Kept>>,
    /// Round-end choices made.
    pub choices: PerSeat<Option<RoundEnd>>,
    /// The pieces that start each seat's next hand, as chosen so far.
    pub carry: PerSeat<Pieces>,
    /// Each seat's score now, term by term.
    pub scores: PerSeat<Score>,
    /// The running scores after every turn, once both seats placed.
    pub history: Vec<PerSeat<i64>>,
    /// The latest event in words.
    pub last: Option<Last>,
}

impl Serialize for RoundEnd {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RoundEnd {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RoundEnd, D::Error> {
        let text = String::deserialize(d)?;
        match text.parse::<Action>() {
            Ok(Action::RoundEnd(r)) => Ok(r),
            _ => Err(serde::de::Error::custom(format!(
                "`{text}` is not a round-end choice"
            ))),
        }
    }
}

/// ANSI 256-colour codes of the twelve colours, F to Z.
const ANSI: [u8; 12] = [183, 208, 34, 137, 160, 205, 148, 226, 37, 33, 61, 180];

fn paint(c: char, colour: bool) -> String {
    if !colour {
        return c.to_string();
    }
    match (c, Piece::from_letter(c)) {
        ('#', _) => "\x1b[97;40m#\x1b[0m".into(),
        (_, Some(p)) => format!("\x1b[30;48;5;{}m{c}\x1b[0m", ANSI[p.index()]),
        _ => "\x1b[2m·\x1b[0m".into(),
    }
}

impl Render for View {
    /// The view as text: both walls side by side, hands, pool, credits,
    /// scores and what is being decided.
    fn render(&self, colour: bool) -> String {
        let letters = "A B C D E F G H I J";
        let mut out =
            format!("    P1's wall                P2's wall\n    {letters}      {letters}\n");
        let rows = |s: Seat| self.walls[s].rows.clone();
        for (row, (a, b)) in rows(Seat::P1).iter().zip(rows(Seat::P2)).enumerate() {
            let line = |s: &str| {
                s.chars()
                    .map(|c| paint(c, colour))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            out += &format!("{:>3} {}   {:>3} {}\n", row + 1, line(a), row + 1, line(&b));
        }
        out += &format!(
            "legend: a letter is that piece's colour, # black (overlap), {} unpainted\n",
            if colour { "·" } else { "." }
        );
        for seat in Seat::BOTH {
            let s = &self.scores[seat];
            out += &format!(
                "{seat}: hand {}, aside {}, credits {}; score {} (square {}, pieces {}, unpainted {})",
                or_dash(self.hands[seat]),
                or_dash(self.aside[seat]),
                self.credits[seat],
                s.total,
                s.square,
                s.pieces,
                s.unpainted
            );
            match (self.sealed[seat], self.submitted[seat]) {
                (Some(c), _) => {
                    out += &format!("; sealed: present {} aside {}", c.present, c.aside)
                }
                (None, true) => out += "; sealed its choice",
                _ => {}
            }
            out.push('\n');
        }
        if !self.pool.is_empty() {
            out += &format!("pool: {}\n", self.pool);
        }
        if self.phase != Phase::Over {
            out += &format!("round {} of {ROUNDS}", self.round);
            if self.turn > 0 {
                out += &format!(", turn {} of {TURNS}", self.turn);
            }
            out.push('\n');
        }
        out
    }

    /// What `seat` decides now, with how to write it.
    fn prompt(&self, seat: Seat) -> Option<String> {
        let other = seat.other();
        let (hand, credits) = (self.hands[seat], self.credits[seat]);
        Some(match self.phase {
            Phase::First if self.advantage == seat => {
                "you have the advantage: name who drafts first in round 1, `first P1` or `first P2`"
                    .into()
            }
            Phase::Draft if self.drafter == Some(seat) => {
                let mut line = format!("draft: take PIECE from the pool ({})", self.pool.listed());
                if credits >= DOUBLE_TURN && self.pool.len() >= 2 && hand.len() + 2 <= HAND {
                    line += &format!(
                        ", or take PIECE PIECE for a Double Turn ({DOUBLE_TURN} credits; you have {credits})"
                    );
                }
                line
            }
            Phase::Present if !self.submitted[seat] => format!(
                "present a piece of your hand ({}) to {other}, turned as you like, and set another aside, sealed: present ORIENTATION aside PIECE",
                hand.listed()
            ),
            Phase::Place => {
                let has_piece = !self.placed[seat] && self.to_place[seat].is_some();
                let owes_orient = !self.placed[other]
                    && self.to_place[other].is_none()
                    && self.exchanged[other].is_some();
                let mut parts = Vec::new();
                if let (Some(o), true) = (self.to_place[seat], has_piece) {
                    let mut part = format!(
                        "place {o} on your wall, turned as you like ({FREE_STEPS} steps free, then 1 credit a step), written place ORIENTATION at CELL (the top-left cell of its box)"
                    );
                    if self.exchanged[seat].is_none() && !hand.is_empty() && credits >= EXCHANGE {
                        part += &format!(
                            ", or first exchange PIECE of your hand for it ({EXCHANGE} credits; you have {credits})"
                        );
                    }
                    parts.push(part);
                }
                if let (Some(piece), true) = (self.exchanged[other], owes_orient) {
                    parts.push(format!(
                        "orient {piece} for {other}, e.g. `orient {}`",
                        Orientation::base(piece)
                    ));
                }
                match parts.len() {
                    0 => return None,
                    1 => parts.remove(0),
                    _ => format!(
                        "{}; before or after that, as you like: {}",
                        parts[0], parts[1]
                    ),
                }
            }
            Phase::RoundEnd if self.choices[seat].is_none() => format!(
                "for each set-aside piece ({}) say give (+1 credit), return or keep, e.g. `return {}`",
                self.aside[seat].listed(),
                self.aside[seat]
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            _ => return None,
        })
    }

    fn last_event(&self) -> Option<String> {
        self.last.map(|l| l.words())
    }
}

fn or_dash(p: Pieces) -> String {
    if p.is_empty() {
        "-".into()
    } else {
        p.to_string()
    }
}
