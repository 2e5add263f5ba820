//! Drawing Masked Army boards from what a viewer sees and a seat remembers.
//!
//! Every piece is a domino with one cell of each colour, so a board real
//! play could produce splits its occupied cells into red–blue dominoes, with
//! the last piece among them as shown. A sample draws such a split at random
//! (a random tiling of the occupied cells, each domino turned at random
//! unless a remembered colour fixes it).

use std::collections::HashSet;

use rand::{Rng, RngExt};
use umpire_core::grid::bits;
use umpire_core::{PerSeat, Seat};

use crate::board::{BOARD, SIZE};
use crate::view::View;

/// The colours a seat remembers, cell by cell: a bit set per colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    pub known: PerSeat<u128>,
}

impl Memory {
    /// Remembers every colour the view shows.
    pub fn remember(&mut self, view: &View) {
        for (row, line) in view.board.iter().take(SIZE as usize).enumerate() {
            for (col, c) in line.chars().enumerate().take(SIZE as usize) {
                let cell = 1u128 << (row * SIZE as usize + col);
                match c {
                    '1' => {
                        (self.known.p1, self.known.p2) =
                            (self.known.p1 | cell, self.known.p2 & !cell)
                    }
                    '2' => {
                        (self.known.p2, self.known.p1) =
                            (self.known.p2 | cell, self.known.p1 & !cell)
                    }
                    '.' => {
                        (self.known.p1, self.known.p2) =
                            (self.known.p1 & !cell, self.known.p2 & !cell)
                    }
                    _ => {}
                }
            }
        }
    }

    /// Forgets each remembered cell with probability `p` (for bots that
    /// remember like people do).
    pub fn forget<R: Rng + ?Sized>(&mut self, p: f64, rng: &mut R) {
        for seat in Seat::BOTH {
            for i in bits(self.known[seat]) {
                if rng.random_bool(p) {
                    self.known[seat] &= !(1 << i);
                }
            }
        }
    }
}

/// Each seat's cells on a board drawn from `view` and `memory`.
pub fn colours<R: Rng + ?Sized>(view: &View, memory: &Memory, rng: &mut R) -> PerSeat<u128> {
    let mut occupied = 0u128;
    let mut known = memory.known;
    for (row, line) in view.board.iter().take(SIZE as usize).enumerate() {
        for (col, c) in line.chars().enumerate().take(SIZE as usize) {
            let cell = 1u128 << (row * SIZE as usize + col);
            match c {
                '.' => continue,
                '1' => known.p1 |= cell,
                '2' => known.p2 |= cell,
                _ => {}
            }
            occupied |= cell;
        }
    }
    known.p1 &= occupied;
    known.p2 &= occupied & !known.p1;
    let mut colours = PerSeat::default();
    let mut rest = occupied;
    if let Some(last) = view
        .last
        .filter(|l| BOARD.contains(l.mine) && BOARD.contains(l.theirs))
    {
        colours[last.by] |= BOARD.bit(last.mine);
        colours[last.by.other()] |= BOARD.bit(last.theirs);
        rest &= !(BOARD.bit(last.mine) | BOARD.bit(last.theirs));
    }
    let mut tiling = Tiling {
        known,
        dead: HashSet::new(),
    };
    match tiling.tile(rest, rng) {
        Some(dominoes) => {
            for (a, b) in dominoes {
                let (red, blue) = tiling.orient(a, b, rng);
                colours.p1 |= red;
                colours.p2 |= blue;
            }
        }
        // A view no real game shows (never from a live match): keep what
        // is known and colour the rest at random.
        None => {
            for cell in bits(rest).map(|i| 1 << i) {
                let seat = if known.p1 & cell != 0 || (known.p2 & cell == 0 && rng.random()) {
                    Seat::P1
                } else {
                    Seat::P2
                };
                colours[seat] |= cell;
            }
        }
    }
    colours
}

/// A depth-first search for a random tiling by dominoes whose two cells may
/// take different colours. Sets of cells already found untileable are
/// remembered, so the search stays polynomial on any board.
struct Tiling {
    known: PerSeat<u128>,
    dead: HashSet<u128>,
}

impl Tiling {
    /// Whether the two cells may be one piece: not both known as one colour.
    fn may_pair(&self, a: u128, b: u128) -> bool {
        let both = a | b;
        (self.known.p1 & both).count_ones() < 2 && (self.known.p2 & both).count_ones() < 2
    }

    fn tile<R: Rng + ?Sized>(&mut self, rest: u128, rng: &mut R) -> Option<Vec<(u128, u128)>> {
        if rest == 0 {
            return Some(Vec::new());
        }
        if self.dead.contains(&rest) {
            return None;
        }
        // The first cell in reading order pairs with its right or lower
        // neighbour: every cell before it is already covered.
        let a = rest & rest.wrapping_neg();
        let mut partners = Vec::with_capacity(2);
        for b in [BOARD.right(a), BOARD.down(a)] {
            if rest & b != 0 {
                partners.push(b);
            }
        }
        if partners.len() == 2 && rng.random() {
            partners.swap(0, 1);
        }
        for b in partners {
            if !self.may_pair(a, b) {
                continue;
            }
            if let Some(mut dominoes) = self.tile(rest & !(a | b), rng) {
                dominoes.push((a, b));
                return Some(dominoes);
            }
        }
        self.dead.insert(rest);
        None
    }

    /// Which cell of the domino is red (P1's) and which blue: as remembered,
    /// or at random.
    fn orient<R: Rng + ?Sized>(&self, a: u128, b: u128, rng: &mut R) -> (u128, u128) {
        let a_red = if self.known.p1 & a != 0 || self.known.p2 & b != 0 {
            true
        } else if self.known.p2 & a != 0 || self.known.p1 & b != 0 {
            false
        } else {
            rng.random()
        };
        if a_red { (a, b) } else { (b, a) }
    }
}
