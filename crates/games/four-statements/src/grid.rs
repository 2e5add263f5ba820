//! The 4×4 grid: colours, cell sets and whole colourings.
//!
//! Cells are numbered row by row: index `row * 4 + col`, so `A1` is 0, `D1`
//! is 3 and `D4` is 15. A [`CellSet`] is a 16-bit mask over those indices and
//! a [`Grid`] packs one colour into two bits per cell.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use umpire_core::{Cell, ParseError};

/// Columns and rows of the grid.
pub const SIZE: u8 = 4;
/// Cells of the grid.
pub const CELLS: usize = 16;

/// A cell's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Red = 0,
    Blue = 1,
    Green = 2,
    Yellow = 3,
}

impl Colour {
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Green, Colour::Yellow];

    pub const fn from_index(i: u8) -> Colour {
        Colour::ALL[(i & 3) as usize]
    }

    /// `R`, `B`, `G` or `Y`.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Blue => 'B',
            Colour::Green => 'G',
            Colour::Yellow => 'Y',
        }
    }

    /// `red`, `blue`, `green` or `yellow`.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Green => "green",
            Colour::Yellow => "yellow",
        }
    }

    /// The colour of a letter (either case).
    pub fn from_letter(c: char) -> Option<Colour> {
        match c.to_ascii_uppercase() {
            'R' => Some(Colour::Red),
            'B' => Some(Colour::Blue),
            'G' => Some(Colour::Green),
            'Y' => Some(Colour::Yellow),
            _ => None,
        }
    }

    /// The colour named by a word (either case).
    pub fn from_name(word: &str) -> Option<Colour> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(word))
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The cell with grid index `i` (0–15).
pub const fn cell(i: usize) -> Cell {
    Cell::from_index(i, SIZE)
}

/// The grid index of `cell`, which must lie on the grid.
pub const fn index(cell: Cell) -> usize {
    cell.index(SIZE)
}

/// A set of grid cells: bit `row * 4 + col`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellSet(pub u16);

impl CellSet {
    pub const EMPTY: CellSet = CellSet(0);
    pub const ALL: CellSet = CellSet(u16::MAX);

    pub const fn single(i: usize) -> CellSet {
        CellSet(1 << i)
    }

    pub fn from_cells(cells: impl IntoIterator<Item = Cell>) -> CellSet {
        cells
            .into_iter()
            .fold(CellSet::EMPTY, |s, c| s.with(index(c)))
    }

    pub const fn contains(self, i: usize) -> bool {
        self.0 & (1 << i) != 0
    }

    #[must_use]
    pub const fn with(self, i: usize) -> CellSet {
        CellSet(self.0 | 1 << i)
    }

    #[must_use]
    pub const fn without(self, i: usize) -> CellSet {
        CellSet(self.0 & !(1 << i))
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[must_use]
    pub const fn and(self, other: CellSet) -> CellSet {
        CellSet(self.0 & other.0)
    }

    #[must_use]
    pub const fn or(self, other: CellSet) -> CellSet {
        CellSet(self.0 | other.0)
    }

    #[must_use]
    pub const fn minus(self, other: CellSet) -> CellSet {
        CellSet(self.0 & !other.0)
    }

    /// Grid indices in the set, ascending.
    pub fn indices(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                i
            })
        })
    }

    /// Cells in the set, in reading order (A1, B1, …, D4).
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        self.indices().map(cell)
    }

    /// The cells sharing a side with some cell of the set, outside it.
    #[must_use]
    pub fn orthogonal_border(self) -> CellSet {
        const NOT_A: u16 = 0xEEEE; // cells with a column to their left
        const NOT_D: u16 = 0x7777; // cells with a column to their right
        let s = self.0;
        let grown = s | s << 4 | s >> 4 | (s << 1 & NOT_A) | (s >> 1 & NOT_D);
        CellSet(grown & !s)
    }

    /// Whether every cell can reach every other by orthogonal steps inside
    /// the set (the empty set is not connected).
    pub fn is_connected(self) -> bool {
        let Some(start) = self.indices().next() else {
            return false;
        };
        let mut reached = CellSet::single(start);
        loop {
            let next = reached.or(reached.orthogonal_border().and(self));
            if next == reached {
                return reached == self;
            }
            reached = next;
        }
    }

    /// Parses cells such as `A1 B1 A2` (spaces, `-` or `,` between), each on
    /// the 4×4 grid, none twice.
    pub fn parse(text: &str) -> Result<CellSet, ParseError> {
        let mut set = CellSet::EMPTY;
        for c in umpire_core::grid::parse_cells(text, SIZE, SIZE)? {
            if set.contains(index(c)) {
                return Err(ParseError::new(format!("{c} is named twice")));
            }
            set = set.with(index(c));
        }
        Ok(set)
    }
}

impl fmt::Display for CellSet {
    /// `A1 B1 A2`, in reading order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, c) in self.cells().enumerate() {
            if n > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl Serialize for CellSet {
    /// A list of cells: `["A1", "B1"]`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.cells())
    }
}

impl<'de> Deserialize<'de> for CellSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CellSet, D::Error> {
        let cells = Vec::<Cell>::deserialize(d)?;
        let mut set = CellSet::EMPTY;
        for c in cells {
            if c.col >= SIZE || c.row >= SIZE {
                return Err(serde::de::Error::custom(format!("{c} is off the 4×4 grid")));
            }
            set = set.with(index(c));
        }
        Ok(set)
    }
}

/// A whole colouring of the grid: two bits per cell, cell `i` at bits
/// `2i` and `2i + 1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid(pub u32);

impl Grid {
    pub const fn get(self, i: usize) -> Colour {
        Colour::from_index((self.0 >> (2 * i)) as u8)
    }

    #[must_use]
    pub const fn with(self, i: usize, colour: Colour) -> Grid {
        Grid(self.0 & !(3 << (2 * i)) | (colour as u32) << (2 * i))
    }

    /// How many cells of `cells` are `colour`.
    pub fn count(self, cells: CellSet, colour: Colour) -> usize {
        cells.indices().filter(|&i| self.get(i) == colour).count()
    }

    /// Reads 16 letters of `R B G Y` (either case, spaces ignored) in
    /// reading order: A1…D1, then A2…D2, and so on.
    pub fn parse(text: &str) -> Result<Grid, ParseError> {
        let mut grid = Grid(0);
        let mut n = 0;
        for (at, c) in text.chars().enumerate() {
            if c.is_whitespace() {
                continue;
            }
            let Some(colour) = Colour::from_letter(c) else {
                return Err(ParseError::new(format!(
                    "`{c}` is not a colour: a layout is 16 letters of R, B, G and Y"
                ))
                .at(at)
                .expected(["R", "B", "G", "Y"]));
            };
            if n == CELLS {
                return Err(ParseError::new(format!(
                    "more than {CELLS} colours: a layout names each of the 16 cells once"
                ))
                .at(at));
            }
            grid = grid.with(n, colour);
            n += 1;
        }
        if n < CELLS {
            return Err(ParseError::new(format!(
                "{n} colours: a layout names each of the 16 cells, A1…D1 then A2…D4"
            )));
        }
        Ok(grid)
    }
}

impl fmt::Display for Grid {
    /// 16 letters in reading order, e.g. `RRBGYGBRBBRYGYRG`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (0..CELLS).try_for_each(|i| write!(f, "{}", self.get(i).letter()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_sets() {
        let s = CellSet::parse("A1 b1, A2").unwrap();
        assert_eq!(s.to_string(), "A1 B1 A2");
        assert_eq!(s.len(), 3);
        assert!(s.is_connected());
        assert!(!CellSet::parse("A1 C1").unwrap().is_connected());
        // D1 and A2 are neighbours by index but not on the grid.
        assert!(!CellSet::parse("D1 A2").unwrap().is_connected());
        assert!(CellSet::parse("A1 A1").is_err());
        assert!(CellSet::parse("E1").is_err());
    }

    #[test]
    fn grids_read_and_print() {
        let g = Grid::parse("RRBG YGBR BBRY GYRG").unwrap();
        assert_eq!(g.to_string(), "RRBGYGBRBBRYGYRG");
        assert_eq!(g.get(3), Colour::Green);
        assert_eq!(g.count(CellSet::ALL, Colour::Red), 5);
        assert!(Grid::parse("RRB").is_err());
        assert!(Grid::parse("RRBGYGBRBBRYGYRGX").is_err());
    }
}
