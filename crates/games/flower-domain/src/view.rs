//! What a viewer sees of a Flower Domain match: everything. Nothing in this
//! game is hidden, so every viewer gets the same view, and it holds every
//! fact of the state (a state is rebuilt from it exactly).

use serde::{Deserialize, Serialize};
use umpire_core::{Cell, PerSeat, Render, Seat};

use crate::FirstMove;
use crate::board::{ByColour, Colour};

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Both seats study the meadow until both are ready (3 minutes at most).
    Study,
    /// The advantage seat names the seat that drafts first.
    First,
    /// The colours are drafted, A B B A.
    Draft,
    /// Moves and passes.
    Play,
    Over,
}

/// The latest move or pass: by whom, in notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Last {
    pub by: Seat,
    pub action: String,
}

/// A viewer's picture of the match (the same for every viewer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub phase: Phase,
    /// The seat that names the first drafter.
    pub advantage: Seat,
    /// The first-move rule of this match.
    pub first_move: FirstMove,
    /// Ten rows, top first, ten characters each: `R`, `Y`, `G`, `B` for a
    /// flower (red diamond, yellow hexagon, green square, blue circle), `.`
    /// for none.
    pub meadow: Vec<String>,
    /// The garden, written the same way.
    pub garden: Vec<String>,
    /// Who controls each colour.
    pub owners: ByColour<Option<Seat>>,
    /// Which seats have ended their study of the meadow.
    pub ready: PerSeat<bool>,
    /// The seat that drafts first, once named.
    pub first_drafter: Option<Seat>,
    /// The colours picked so far, in order (the fourth is given, not picked).
    pub picks: Vec<Colour>,
    /// The seat to move, during play.
    pub to_move: Option<Seat>,
    /// Passes in a row (four end the game).
    pub passes: u8,
    /// The first-move rule the next move must follow, while the garden is empty.
    pub restriction: Option<FirstMove>,
    /// The latest move or pass.
    pub last: Option<Last>,
    /// The garden's regions per colour, largest first, each as its cells in
    /// reading order.
    pub regions: ByColour<Vec<Vec<Cell>>>,
    /// Each seat's score now: its colours' largest regions, summed.
    pub score: PerSeat<u32>,
}

fn paint(c: char, colour: bool) -> String {
    let (mark, code) = match c {
        'R' => ('◆', "31"),
        'Y' => ('⬢', "33"),
        'G' => ('■', "32"),
        'B' => ('●', "34"),
        _ => ('·', "2"),
    };
    if colour {
        format!("\x1b[{code}m{mark}\x1b[0m")
    } else {
        c.to_string()
    }
}

impl Render for View {
    /// The view as a terminal board: meadow and garden side by side. Without
    /// colours the letters `R Y G B` are shown; with colours, each colour's shape.
    fn render(&self, colour: bool) -> String {
        let letters = "A B C D E F G H I J";
        let mut out = format!("    meadow                  garden\n    {letters}     {letters}\n");
        for (row, (m, g)) in self.meadow.iter().zip(&self.garden).enumerate() {
            let line = |s: &str| {
                s.chars()
                    .map(|c| paint(c, colour))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            out += &format!("{:>3} {}  {:>3} {}\n", row + 1, line(m), row + 1, line(g));
        }
        out += if colour {
            "legend: ◆ red  ⬢ yellow  ■ green  ● blue  · empty\n"
        } else {
            "legend: R red  Y yellow  G green  B blue (flowers)  . empty\n"
        };
        let owned: Vec<String> = Colour::ALL
            .iter()
            .filter_map(|&c| self.owners[c].map(|s| format!("{c} {s}")))
            .collect();
        if !owned.is_empty() {
            out += &format!(
                "colours: {}; score P1 {} P2 {}\n",
                owned.join(", "),
                self.score.p1,
                self.score.p2
            );
        }
        out
    }

    /// What `seat` decides now, with how to write it.
    fn prompt(&self, seat: Seat) -> Option<String> {
        Some(match self.phase {
            Phase::Study if !self.ready[seat] => "study the meadow, then say `ready`".into(),
            Phase::First if self.advantage == seat => {
                "you have the advantage: name who drafts first, `first P1` or `first P2`".into()
            }
            Phase::Draft if drafter(self)? == seat => {
                let free: Vec<String> = Colour::ALL
                    .iter()
                    .filter(|&&c| self.owners[c].is_none())
                    .map(|c| format!("`{c}`"))
                    .collect();
                format!("draft a colour: {}", or_list(&free))
            }
            Phase::Play if self.to_move == Some(seat) => {
                let first = match self.restriction {
                    Some(FirstMove::Amended) => {
                        "; this first move takes exactly four flowers, one landing on E5, F5, E6 or F6"
                    }
                    Some(FirstMove::Original) => "; this first move takes exactly two flowers",
                    None => "",
                };
                format!(
                    "your move: 2–4 connected meadow flowers of different colours into empty garden cells as the same shape, written MEADOW-CELLS to GARDEN-CELLS, or `pass` (passes in a row: {}){first}",
                    self.passes
                )
            }
            _ => return None,
        })
    }

    /// The latest event in words: a move or pass, else the latest pick, the
    /// first drafter, or a seat ready to end the study.
    fn last_event(&self) -> Option<String> {
        if let Some(last) = &self.last {
            return Some(if last.action == "pass" {
                format!("{} passed", last.by)
            } else {
                format!("{} moved {}", last.by, last.action)
            });
        }
        if let Some(&pick) = self.picks.last() {
            let by = self.owners[pick]?;
            let given: Vec<String> = Colour::ALL
                .iter()
                .filter(|&&c| !self.picks.contains(&c))
                .filter_map(|&c| self.owners[c].map(|s| format!("; {c} goes to {s}")))
                .collect();
            return Some(format!("{by} drafted {pick}{}", given.concat()));
        }
        if let Some(first) = self.first_drafter {
            return Some(format!("{first} drafts first"));
        }
        let ready: Vec<String> = umpire_core::Seat::BOTH
            .iter()
            .filter(|&&s| self.ready[s])
            .map(|s| s.to_string())
            .collect();
        (!ready.is_empty()).then(|| format!("{} ended the study", ready.join(" and ")))
    }
}

/// The seat to pick next in the draft, A B B A.
fn drafter(view: &View) -> Option<Seat> {
    let a = view.first_drafter?;
    Some(if matches!(view.picks.len(), 1 | 2) {
        a.other()
    } else {
        a
    })
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
