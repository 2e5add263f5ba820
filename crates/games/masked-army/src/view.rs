//! What each viewer may know of a Masked Army board.

use serde::{Deserialize, Serialize};
use umpire_core::{Cell, PerSeat, Render, Seat};

use crate::colour::{self, SeatColour, mark};

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The advantage seat chooses who places first.
    #[serde(rename = "first")]
    ChooseFirst,
    Place,
    Over,
}

/// A viewer's picture of the match. Occupied cells are public, piece borders
/// are not; colours are shown for the last piece only, until the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// `first` (the advantage seat picks who starts), `place` or `over`.
    pub phase: Phase,
    pub advantage: Seat,
    /// Whose turn it is; `None` once the game is over.
    pub to_move: Option<Seat>,
    /// Nine rows, top first, nine characters each: `.` empty, `#` a piece
    /// whose colours are hidden, `1` / `2` a cell of P1's / P2's colour.
    pub board: Vec<String>,
    /// The last piece placed, with its colours.
    pub last: Option<LastPiece>,
    /// Pieces placed so far.
    pub pieces: u32,
    /// Army sizes per seat, largest first; shown at the end only.
    pub armies: Option<PerSeat<Vec<u32>>>,
    /// Each seat's colour, as the players chose it.
    #[serde(default = "colour::defaults")]
    pub colours: PerSeat<SeatColour>,
}

/// The latest piece: `by` placed its own colour on `mine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastPiece {
    pub by: Seat,
    pub mine: Cell,
    pub theirs: Cell,
}

impl Render for View {
    /// The view as a terminal board. P1's cells are `X`, P2's `O`, each in its
    /// seat's colour, so seats differ by mark as well as by colour.
    fn render(&self, colour: bool) -> String {
        let paint = |text: &str, code: &str| {
            if colour {
                format!("\x1b[{code}m{text}\x1b[0m")
            } else {
                text.to_string()
            }
        };
        let is_last = |col: usize, row: usize| {
            self.last
                .is_some_and(|l| [l.mine, l.theirs].contains(&Cell::new(col as u8, row as u8)))
        };
        let mut out = String::from("   A B C D E F G H I\n");
        for (row, line) in self.board.iter().enumerate() {
            out += &format!("{:>2} ", row + 1);
            for (col, c) in line.chars().enumerate() {
                let bold = if is_last(col, row) { "1;" } else { "" };
                let seat = |s: Seat| {
                    let code = format!("{bold}{}", self.colours[s].ansi());
                    paint(&mark(s).to_string(), &code)
                };
                out += &match c {
                    '1' => seat(Seat::P1),
                    '2' => seat(Seat::P2),
                    '#' => paint("#", "90"),
                    _ => paint("·", "2"),
                };
                out.push(' ');
            }
            out.push('\n');
        }
        out += &format!(
            "legend: {} (P1)  {} (P2)  # a piece whose colours are hidden  · empty",
            legend(self, Seat::P1),
            legend(self, Seat::P2)
        );
        out += if colour {
            "; the last piece in bold\n"
        } else {
            "\n"
        };
        if let Some(armies) = &self.armies {
            out += &format!("armies: P1 {:?}, P2 {:?}\n", armies.p1, armies.p2);
        }
        out
    }

    /// What `seat` decides now, with how to write it.
    fn prompt(&self, seat: Seat) -> Option<String> {
        if self.to_move != Some(seat) {
            return None;
        }
        Some(match self.phase {
            Phase::ChooseFirst => {
                "you have the advantage: choose who places first, `first P1` or `first P2`".into()
            }
            Phase::Place => format!(
                "your turn: place a piece, {} on one empty cell and {} on an empty cell beside it, written CELL CELL",
                colour_name(self, seat),
                colour_name(self, seat.other())
            ),
            Phase::Over => return None,
        })
    }

    /// The last piece in words, or who places first before any piece.
    fn last_event(&self) -> Option<String> {
        match (self.last, self.phase, self.to_move) {
            (Some(l), ..) => Some(format!(
                "{} placed {} on {} and {} on {}",
                l.by,
                colour_name(self, l.by),
                l.mine,
                colour_name(self, l.by.other()),
                l.theirs
            )),
            (None, Phase::Place, Some(first)) => Some(format!("{first} places first")),
            _ => None,
        }
    }
}

/// A seat's colour and mark in words, as the words say it: `red (X)`.
fn colour_name(view: &View, seat: Seat) -> String {
    format!("{} ({})", view.colours[seat].name(), mark(seat))
}

/// A seat's mark and colour, as the legend says it: `X red`.
fn legend(view: &View, seat: Seat) -> String {
    format!("{} {}", mark(seat), view.colours[seat].name())
}
