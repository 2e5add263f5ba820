//! Colours and the two 10×10 boards as bitboards (core's [`Board`]: bit
//! `row * 10 + col` is a cell), one bit set per colour.

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};
use umpire_core::{Board, Cell};

pub const SIZE: u8 = 10;
pub const CELLS: usize = 100;
pub const BOARD: Board = Board::new(SIZE, SIZE);
/// E5, F5, E6 and F6: the four centre cells the amended first move covers.
pub const CENTRE: u128 = 1 << 44 | 1 << 45 | 1 << 54 | 1 << 55;

/// A flower colour. Each goes with a shape, so colour-blind players can
/// tell them apart: red diamond, yellow hexagon, green square, blue circle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Red,
    Yellow,
    Green,
    Blue,
}

impl Colour {
    /// In the rulebook's order, which is also the order of the default pick.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Yellow, Colour::Green, Colour::Blue];

    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
            Colour::Blue => "blue",
        }
    }

    /// The letter of the `meadow` config and of the views' rows.
    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Yellow => 'Y',
            Colour::Green => 'G',
            Colour::Blue => 'B',
        }
    }

    pub fn from_letter(c: char) -> Option<Colour> {
        match c.to_ascii_uppercase() {
            'R' => Some(Colour::Red),
            'Y' => Some(Colour::Yellow),
            'G' => Some(Colour::Green),
            'B' => Some(Colour::Blue),
            _ => None,
        }
    }

    /// The shape drawn for this colour.
    pub fn shape(self) -> &'static str {
        match self {
            Colour::Red => "diamond",
            Colour::Yellow => "hexagon",
            Colour::Green => "square",
            Colour::Blue => "circle",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per colour, serialised as `{"red": …, "yellow": …, "green": …, "blue": …}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ByColour<T> {
    pub red: T,
    pub yellow: T,
    pub green: T,
    pub blue: T,
}

impl<T> ByColour<T> {
    pub fn from_fn(mut f: impl FnMut(Colour) -> T) -> Self {
        ByColour {
            red: f(Colour::Red),
            yellow: f(Colour::Yellow),
            green: f(Colour::Green),
            blue: f(Colour::Blue),
        }
    }
}

impl<T> Index<Colour> for ByColour<T> {
    type Output = T;
    fn index(&self, colour: Colour) -> &T {
        match colour {
            Colour::Red => &self.red,
            Colour::Yellow => &self.yellow,
            Colour::Green => &self.green,
            Colour::Blue => &self.blue,
        }
    }
}

impl<T> IndexMut<Colour> for ByColour<T> {
    fn index_mut(&mut self, colour: Colour) -> &mut T {
        match colour {
            Colour::Red => &mut self.red,
            Colour::Yellow => &mut self.yellow,
            Colour::Green => &mut self.green,
            Colour::Blue => &mut self.blue,
        }
    }
}

/// A board of flowers: the meadow or the garden.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flowers {
    cells: ByColour<u128>,
}

impl Flowers {
    /// The cells holding a flower of `colour`.
    pub fn of(&self, colour: Colour) -> u128 {
        self.cells[colour]
    }

    /// The cells holding any flower.
    pub fn occupied(&self) -> u128 {
        self.cells.red | self.cells.yellow | self.cells.green | self.cells.blue
    }

    pub fn colour_at(&self, cell: Cell) -> Option<Colour> {
        if !BOARD.contains(cell) {
            return None;
        }
        self.colour_at_index(cell.index(SIZE))
    }

    pub fn colour_at_index(&self, index: usize) -> Option<Colour> {
        let b = 1u128 << index;
        Colour::ALL.into_iter().find(|&c| self.cells[c] & b != 0)
    }

    pub fn put(&mut self, index: usize, colour: Colour) {
        self.cells[colour] |= 1u128 << index;
    }

    pub fn take(&mut self, index: usize) {
        let keep = !(1u128 << index);
        for c in Colour::ALL {
            self.cells[c] &= keep;
        }
    }

    /// Ten rows, top first: `R`, `Y`, `G`, `B` for a flower, `.` for none.
    pub fn rows(&self) -> Vec<String> {
        (0..SIZE as usize)
            .map(|row| {
                (0..SIZE as usize)
                    .map(
                        |col| match self.colour_at_index(row * SIZE as usize + col) {
                            Some(c) => c.letter(),
                            None => '.',
                        },
                    )
                    .collect()
            })
            .collect()
    }

    /// Reads 100 letters (`R Y G B`, any case; `.` for an empty cell when
    /// `empty_allowed`), A1…J1, then A2…J2 and so on; whitespace is skipped.
    pub fn parse(text: &str, empty_allowed: bool) -> Result<Flowers, String> {
        let mut flowers = Flowers::default();
        let mut n = 0;
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            if n < CELLS {
                match Colour::from_letter(c) {
                    Some(colour) => flowers.put(n, colour),
                    None if c == '.' && empty_allowed => {}
                    None => {
                        return Err(format!(
                            "`{c}` at {} is not a flower: use R, Y, G or B",
                            BOARD.cell_at(n)
                        ));
                    }
                }
            }
            n += 1;
        }
        if n != CELLS {
            return Err(format!(
                "it has {n} letters, not 100 (ten rows of ten, A1…J1 first)"
            ));
        }
        Ok(flowers)
    }
}

/// The orthogonally connected groups of `cells`, largest first; groups of
/// one size in reading order of their first cell.
pub fn regions(cells: u128) -> Vec<u128> {
    let mut found: Vec<u128> = BOARD.groups(cells).collect();
    // Found in reading order of first cells; a stable sort keeps that order.
    found.sort_by_key(|g| std::cmp::Reverse(g.count_ones()));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_come_largest_first() {
        let bit = |col, row| BOARD.bit(Cell::new(col, row));
        let row: u128 = (0..10).map(|c| bit(c, 4)).sum();
        let sizes: Vec<u32> = regions(bit(9, 0) | row | bit(4, 5) | bit(0, 9))
            .iter()
            .map(|r| r.count_ones())
            .collect();
        assert_eq!(sizes, vec![11, 1, 1]);
    }

    #[test]
    fn centre_is_e5_f5_e6_f6() {
        assert_eq!(
            BOARD
                .cells_of(CENTRE)
                .map(|c| c.to_string())
                .collect::<Vec<_>>(),
            ["E5", "F5", "E6", "F6"]
        );
    }

    #[test]
    fn boards_read_and_print_rows() {
        let text = "RYGB".repeat(25);
        let f = Flowers::parse(&text, false).unwrap();
        assert_eq!(f.rows()[0], "RYGBRYGBRY");
        assert_eq!(f.colour_at(Cell::new(1, 1)), Some(Colour::Blue));
        assert!(Flowers::parse(&text[1..], false).is_err());
        assert!(Flowers::parse(&text.replace('R', "."), false).is_err());
        assert!(Flowers::parse(&text.replace('R', "."), true).is_ok());
    }
}
