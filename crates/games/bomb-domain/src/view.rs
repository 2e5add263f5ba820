//! What each viewer may know of a Bomb Domain match: everything but the
//! other seat's sealed placement of the open round.

use serde::{Deserialize, Serialize};
use umpire_core::{Cell, PerSeat, Render, Seat, Viewer};

use crate::board::{GRID, SIZE};
use crate::{Blast, BombDomain, Kind, Motion, PEGS, Phase, Placement, ROUNDS, Sealed, TURNS, Turn};

/// A viewer's picture of the match. Everything is public but a sealed
/// placement, which only its seat (and the umpire) sees until both are in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// `first`, `place`, `turns` or `over`.
    pub phase: Phase,
    /// The DMO (advantage seat): started with columns A–D; the other seat,
    /// the EC, with F–I.
    pub dmo: Seat,
    pub shapes: ShapePictures,
    /// Nine rows, top first, nine characters each: the domain owner of each
    /// cell, `1` (P1), `2` (P2) or `.` (nobody).
    pub domain: Vec<String>,
    /// Each seat's pieces on the board (at the end: where they stood when
    /// they exploded in the final blast).
    pub pieces: PerSeat<PieceCells>,
    /// Pegs placed with the peg step (these count toward the 9).
    pub pegs: PerSeat<Vec<Cell>>,
    /// Pegs left by detonated pieces.
    pub blast_pegs: PerSeat<Vec<Cell>>,
    /// Pegs each seat may still place.
    pub pegs_left: PerSeat<u32>,
    /// The DMO handed the starter choice to the EC.
    pub deferred: bool,
    /// The seat that chose the starter (the tie goes to the other).
    pub chooser: Option<Seat>,
    /// The seat that takes the first turn.
    pub starter: Option<Seat>,
    /// The open placement round, 1–7 (0 before placement, 7 after).
    pub round: u8,
    /// Sets (one square, one plus, one cross) each seat has still to place.
    pub in_hand: u8,
    /// Sets each seat lost to the clock.
    pub lost: PerSeat<u8>,
    /// Each seat's part of the open round.
    pub sealed: PerSeat<SealedView>,
    /// Turns taken, of 50 (25 a seat).
    pub turn: u8,
    /// Whose turn it is.
    pub to_move: Option<Seat>,
    /// The piece the turn just before moved diagonally: no peg next to it.
    pub diagonal: Option<Cell>,
    /// Cells of each seat's domain.
    pub cells: PerSeat<u32>,
    /// The latest event.
    pub last: Option<Event>,
}

/// The blast shapes as pictures (see [`crate::Shapes`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapePictures {
    pub square: String,
    pub plus: String,
    pub cross: String,
    #[serde(rename = "final")]
    pub final_blast: String,
}

/// One seat's pieces by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceCells {
    pub square: Vec<Cell>,
    pub plus: Vec<Cell>,
    pub cross: Vec<Cell>,
}

impl PieceCells {
    pub fn of(&self, kind: Kind) -> &[Cell] {
        match kind {
            Kind::Square => &self.square,
            Kind::Plus => &self.plus,
            Kind::Cross => &self.cross,
        }
    }
}

/// A seat's part of the open placement round, as one viewer sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SealedView {
    /// Not submitted yet (or no round open).
    #[default]
    Waiting,
    /// Submitted; what is hidden from this viewer.
    Submitted,
    /// The seat's time ran out: its pieces of this round are lost.
    Missed,
    /// Submitted, and this viewer may see it.
    Placed(Placement),
}

/// The latest event, public to all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// `by` chose who takes the first turn (`lapsed`: its time ran out and
    /// the umpire chose `by` itself).
    First { by: Seat, first: Seat, lapsed: bool },
    /// The DMO handed the starter choice to the EC.
    Defer { by: Seat },
    /// A placement round landed; `None` for a seat whose pieces were lost.
    Round {
        round: u8,
        placed: PerSeat<Option<Placement>>,
    },
    /// A turn (`turn` of 50) was played, or skipped when `action` is `None`.
    Turn {
        seat: Seat,
        turn: u8,
        action: Option<Turn>,
    },
}

fn rows(set: u128, other: u128) -> Vec<String> {
    (0..SIZE)
        .map(|row| {
            (0..SIZE)
                .map(|col| {
                    let b = GRID.bit(Cell::new(col, row));
                    if set & b != 0 {
                        '1'
                    } else if other & b != 0 {
                        '2'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

/// The view of `game` for `viewer`.
pub fn build(game: &BombDomain, viewer: Viewer) -> View {
    let b = &game.board;
    let over = game.phase == Phase::Over;
    let sees = |s: Seat| over || viewer == Viewer::Umpire || viewer == Viewer::Seat(s);
    let list = |set: u128| GRID.cells_of(set).collect::<Vec<_>>();
    View {
        phase: game.phase,
        dmo: game.dmo,
        shapes: ShapePictures {
            square: game.shapes.picture(Blast::Square).into(),
            plus: game.shapes.picture(Blast::Plus).into(),
            cross: game.shapes.picture(Blast::Cross).into(),
            final_blast: game.shapes.picture(Blast::Final).into(),
        },
        domain: rows(b.owner.p1, b.owner.p2),
        pieces: PerSeat::from_fn(|s| PieceCells {
            square: list(b.pieces[s][Kind::Square as usize]),
            plus: list(b.pieces[s][Kind::Plus as usize]),
            cross: list(b.pieces[s][Kind::Cross as usize]),
        }),
        pegs: PerSeat::from_fn(|s| list(b.placed[s])),
        blast_pegs: PerSeat::from_fn(|s| list(b.pegs[s] & !b.placed[s])),
        pegs_left: PerSeat::from_fn(|s| PEGS.saturating_sub(b.placed[s].count_ones())),
        deferred: game.deferred,
        chooser: game.chooser,
        starter: game.starter,
        round: game.round,
        in_hand: ROUNDS - game.landed_rounds(),
        lost: game.lost,
        sealed: PerSeat::from_fn(|s| match game.sealed[s] {
            Sealed::Waiting => SealedView::Waiting,
            Sealed::Missed => SealedView::Missed,
            Sealed::Placed(p) if sees(s) => SealedView::Placed(p),
            Sealed::Placed(_) => SealedView::Submitted,
        }),
        turn: game.turn,
        to_move: game.to_move(),
        diagonal: game.diagonal,
        cells: b.counts(),
        last: game.last,
    }
}

impl Render for View {
    /// The view as a terminal board, within 80 columns. Each cell is two
    /// characters: its domain (`1`, `2`, `·` for nobody) and what stands on it
    /// (P1's pieces `S P X`, P2's `s p x`, a placed peg `o`, a peg a blast left
    /// `*`, nothing `·`).
    fn render(&self, colour: bool) -> String {
        let paint = |text: String, code: &str| {
            if colour && !code.is_empty() {
                format!("\x1b[{code}m{text}\x1b[0m")
            } else {
                text
            }
        };
        let mut on: Vec<Vec<char>> = vec![vec!['·'; SIZE as usize]; SIZE as usize];
        for seat in Seat::BOTH {
            for kind in Kind::ALL {
                let letter = kind.letter();
                let letter = if seat == Seat::P1 {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                };
                for c in self.pieces[seat].of(kind) {
                    put(&mut on, *c, letter);
                }
            }
            for c in &self.pegs[seat] {
                put(&mut on, *c, 'o');
            }
            for c in &self.blast_pegs[seat] {
                put(&mut on, *c, '*');
            }
        }
        let mut out = String::from("    A  B  C  D  E  F  G  H  I\n");
        for (row, line) in self.domain.iter().take(SIZE as usize).enumerate() {
            out += &format!("{:>2} ", row + 1);
            for (col, d) in line.chars().take(SIZE as usize).enumerate() {
                let (mark, code) = match d {
                    '1' => ('1', "31"),
                    '2' => ('2', "34"),
                    _ => ('·', "2"),
                };
                out += " ";
                out += &paint(format!("{mark}{}", on[row][col]), code);
            }
            out.push('\n');
        }
        out += "legend: a cell is its domain (1 = P1's, 2 = P2's, · = nobody's), then\n";
        out += "        what stands on it: S P X = P1's square, plus, cross; s p x = P2's;\n";
        out += "        o = a peg, * = a peg a blast left (a peg's cell is its owner's)\n";
        let pieces = |s: Seat| {
            Kind::ALL
                .iter()
                .map(|&k| self.pieces[s].of(k).len())
                .sum::<usize>()
        };
        out += &format!(
            "cells: P1 {}, P2 {} · pieces: P1 {}, P2 {} · pegs left: P1 {}, P2 {}\n",
            self.cells.p1,
            self.cells.p2,
            pieces(Seat::P1),
            pieces(Seat::P2),
            self.pegs_left.p1,
            self.pegs_left.p2
        );
        let ec = self.dmo.other();
        out += &format!("DMO (A–D): {} · EC (F–I): {ec}", self.dmo);
        if let (Some(first), Some(by)) = (self.starter, self.chooser) {
            out += &format!(" · first turn: {first}, chosen by {by}");
        }
        out.push('\n');
        if self.phase == Phase::Over {
            out += "the game is over: the final blast has gone off\n";
        }
        out
    }

    /// What `seat` decides now, with how to write it.
    fn prompt(&self, seat: Seat) -> Option<String> {
        let ec = self.dmo.other();
        Some(match self.phase {
            Phase::First if self.deferred && seat == ec => format!(
                "{} (DMO) handed you the choice: who takes the first turn, `first P1` or `first P2`",
                self.dmo
            ),
            Phase::First if !self.deferred && seat == self.dmo => format!(
                "you are the DMO: choose who takes the first turn, `first P1` or `first P2`, or `defer` to hand the choice to {ec} (EC)"
            ),
            Phase::Place if self.sealed[seat] == SealedView::Waiting => {
                let own = (self.round % 2 == 1) == (seat == self.dmo);
                format!(
                    "placement round {} of {ROUNDS}: one square, one plus and one cross on empty cells of {} (columns {}), none on a cell with 3 or more occupied neighbours and no two in one 2×2 block; written square CELL, plus CELL, cross CELL",
                    self.round,
                    if self.round % 2 == 1 {
                        "your own starting domain"
                    } else {
                        "your opponent's starting domain"
                    },
                    if own { "A–D" } else { "F–I" }
                )
            }
            Phase::Turns if self.to_move == Some(seat) => {
                let mut line = format!(
                    "your turn {} of {}: in this order and each optional, move FROM-TO FROM-TO (one piece vertically, another horizontally, as far) or diagonal FROM-TO, then peg CELL, then detonate CELL, joined by semicolons; or `pass`",
                    self.turn / 2 + 1,
                    TURNS / 2
                );
                if let Some(d) = self.diagonal {
                    line += &format!("; no peg next to {d} this turn: it moved diagonally");
                }
                line
            }
            _ => return None,
        })
    }

    /// The latest event in words, as `view` shows it: a sealed placement in
    /// full only to a viewer the view shows it to (its seat, the umpire).
    fn last_event(&self) -> Option<String> {
        if let Some(sealed) = sealed_event(self) {
            return Some(sealed);
        }
        Some(match self.last? {
            Event::First { by, first, lapsed } if lapsed => {
                format!("{by}'s starter choice lapsed: {first} takes the first turn")
            }
            Event::First { by, first, .. } => format!("{by} chose {first} to take the first turn"),
            Event::Defer { by } => format!("{by} deferred the starter choice to {}", by.other()),
            Event::Round { round, placed } => {
                let part = |s: Seat| match placed[s] {
                    Some(p) => format!("{s} {p}"),
                    None => format!("{s} lost its pieces to the clock"),
                };
                format!("round {round}: {}; {}", part(Seat::P1), part(Seat::P2))
            }
            Event::Turn {
                seat, action: None, ..
            } => format!("{seat}'s turn was skipped: no time left"),
            Event::Turn {
                seat,
                action: Some(t),
                ..
            } => turn_in_words(seat, &t),
        })
    }
}

fn put(on: &mut [Vec<char>], c: Cell, mark: char) {
    if let Some(cell) = on
        .get_mut(c.row as usize)
        .and_then(|r| r.get_mut(c.col as usize))
    {
        *cell = mark;
    }
}

/// During a placement round, the one seat whose part is in (submitted or
/// missed) while the other's is not: the latest event.
fn sealed_event(view: &View) -> Option<String> {
    if view.phase != Phase::Place {
        return None;
    }
    let mut done = Seat::BOTH
        .into_iter()
        .filter(|&s| view.sealed[s] != SealedView::Waiting);
    let (seat, None) = (done.next()?, done.next()) else {
        return None;
    };
    let round = view.round;
    Some(match view.sealed[seat] {
        SealedView::Placed(p) => {
            format!("{seat} submitted, sealed: {p} (round {round})")
        }
        SealedView::Missed => {
            format!("{seat} missed round {round}: its square, plus and cross are lost")
        }
        _ => format!("{seat} submitted its round {round} placement, sealed until both are in"),
    })
}

fn turn_in_words(seat: Seat, t: &Turn) -> String {
    let mut parts = Vec::new();
    match t.motion {
        Some(Motion::Pair(a, b)) => parts.push(format!("moved {a} and {b}")),
        Some(Motion::Diagonal(s)) => parts.push(format!("stepped {s} diagonally")),
        None => {}
    }
    if let Some(p) = t.peg {
        parts.push(format!("pegged {p}"));
    }
    if let Some(d) = t.detonate {
        parts.push(format!("detonated {d}"));
    }
    if parts.is_empty() {
        format!("{seat} passed")
    } else {
        format!("{seat} {}", parts.join(", "))
    }
}

/// The cells of a view's lists that lie on the board, as a set.
pub(crate) fn set_of(cells: &[Cell]) -> u128 {
    cells.iter().fold(0, |acc, &c| acc | GRID.bit_if_on(c))
}
