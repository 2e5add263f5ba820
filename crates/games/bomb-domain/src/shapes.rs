//! Blast shapes as data. A shape is a picture centred on the piece: rows
//! top to bottom separated by `/`, `#` a covered cell, `.` an uncovered
//! one; width and height are odd and the centre is the piece's own cell.
//!
//! ```
//! use umpire_bomb_domain::Shapes;
//!
//! let shapes = Shapes::standard();
//! assert_eq!(shapes.picture(umpire_bomb_domain::Blast::Plus), "..#../..#../#####/..#../..#..");
//! let e = Shapes::new(["##/##", "#", "#", "#"]).unwrap_err();
//! assert_eq!(e, "square_blast `##/##` has no centre cell: its width and height must be odd");
//! ```

use std::fmt;
use std::sync::{Arc, OnceLock};

use umpire_core::Cell;

use crate::board::{CELLS, GRID, Kind, SIZE};

/// The rulings' shapes: Square = the 3×3 block around the piece.
pub const SQUARE: &str = "###/###/###";
/// The piece and 2 cells in each orthogonal direction.
pub const PLUS: &str = "..#../..#../#####/..#../..#..";
/// The piece and 2 cells along each diagonal.
pub const CROSS: &str = "#...#/.#.#./..#../.#.#./#...#";
/// The final blast: the piece and its orthogonal neighbours.
pub const FINAL: &str = ".#./###/.#.";

/// The largest picture: beyond 8 steps every cell is off a 9×9 board.
const MAX_SIDE: usize = 2 * (SIZE as usize - 1) + 1;

/// Which blast: one per kind of piece, and the final blast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blast {
    Square,
    Plus,
    Cross,
    Final,
}

impl Blast {
    pub const ALL: [Blast; 4] = [Blast::Square, Blast::Plus, Blast::Cross, Blast::Final];

    /// The config key that holds the shape.
    pub fn key(self) -> &'static str {
        match self {
            Blast::Square => "square_blast",
            Blast::Plus => "plus_blast",
            Blast::Cross => "cross_blast",
            Blast::Final => "final_blast",
        }
    }

    pub fn standard(self) -> &'static str {
        match self {
            Blast::Square => SQUARE,
            Blast::Plus => PLUS,
            Blast::Cross => CROSS,
            Blast::Final => FINAL,
        }
    }
}

impl From<Kind> for Blast {
    fn from(kind: Kind) -> Blast {
        match kind {
            Kind::Square => Blast::Square,
            Kind::Plus => Blast::Plus,
            Kind::Cross => Blast::Cross,
        }
    }
}

/// The four blast shapes, as pictures and as a cell mask for every centre.
#[derive(Clone)]
pub struct Shapes {
    pictures: [String; 4],
    masks: Box<[[u128; CELLS]; 4]>,
}

impl PartialEq for Shapes {
    fn eq(&self, other: &Shapes) -> bool {
        self.pictures == other.pictures
    }
}

impl Eq for Shapes {}

impl fmt::Debug for Shapes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Shapes").field(&self.pictures).finish()
    }
}

impl Shapes {
    /// The rulings' shapes.
    pub fn standard() -> Shapes {
        Shapes::new(Blast::ALL.map(Blast::standard)).expect("the standard shapes are valid")
    }

    /// The shapes of `pictures` (see [`Shapes::new`]), shared: the
    /// standard ones are built once per process.
    pub fn shared(pictures: [&str; 4]) -> Result<Arc<Shapes>, String> {
        static STANDARD: OnceLock<Arc<Shapes>> = OnceLock::new();
        let standard = Blast::ALL
            .iter()
            .zip(pictures)
            .all(|(b, p)| p.trim().is_empty() || p.trim() == b.standard());
        if standard {
            Ok(STANDARD
                .get_or_init(|| Arc::new(Shapes::standard()))
                .clone())
        } else {
            Shapes::new(pictures).map(Arc::new)
        }
    }

    /// Shapes from pictures in the order square, plus, cross, final; an
    /// empty picture means the standard one. The error says which picture
    /// is wrong and why.
    pub fn new(pictures: [&str; 4]) -> Result<Shapes, String> {
        let mut masks = Box::new([[0u128; CELLS]; 4]);
        let mut kept: [String; 4] = Default::default();
        for (i, blast) in Blast::ALL.into_iter().enumerate() {
            let text = match pictures[i].trim() {
                "" => blast.standard(),
                text => text,
            };
            let offsets =
                parse_picture(text).map_err(|e| format!("{} `{text}` {e}", blast.key()))?;
            for (index, mask) in masks[i].iter_mut().enumerate() {
                let centre = GRID.cell_at(index);
                *mask = offsets
                    .iter()
                    .filter_map(|&(dc, dr)| offset(centre, dc, dr))
                    .fold(0, |acc, c| acc | 1u128 << c.index(SIZE));
            }
            kept[i] = text.to_string();
        }
        Ok(Shapes {
            pictures: kept,
            masks,
        })
    }

    pub fn picture(&self, blast: Blast) -> &str {
        &self.pictures[blast as usize]
    }

    /// The cells `blast` covers around `centre`, off-board cells dropped.
    pub fn mask(&self, blast: Blast, centre: Cell) -> u128 {
        self.masks[blast as usize][centre.index(SIZE)]
    }

    pub fn of(&self, kind: Kind, centre: Cell) -> u128 {
        self.mask(kind.into(), centre)
    }
}

fn offset(cell: Cell, dc: i8, dr: i8) -> Option<Cell> {
    let (col, row) = (cell.col as i8 + dc, cell.row as i8 + dr);
    ((0..SIZE as i8).contains(&col) && (0..SIZE as i8).contains(&row))
        .then(|| Cell::new(col as u8, row as u8))
}

/// The covered offsets (column, row) from the centre of a picture.
fn parse_picture(text: &str) -> Result<Vec<(i8, i8)>, String> {
    let rows: Vec<&str> = text.split('/').map(str::trim).collect();
    if let Some(bad) = text.chars().find(|c| !matches!(c, '#' | '.' | '/' | ' ')) {
        return Err(format!(
            "has `{bad}`: a picture is rows of `#` (covered) and `.` separated by `/`"
        ));
    }
    if rows.iter().any(|r| r.is_empty()) {
        return Err("has an empty row: a picture is rows of `#` and `.` separated by `/`".into());
    }
    let width = rows[0].chars().count();
    if rows.iter().any(|r| r.chars().count() != width) {
        let lengths: Vec<String> = rows.iter().map(|r| r.chars().count().to_string()).collect();
        return Err(format!(
            "has rows of different lengths ({}): every row needs the same number of cells",
            lengths.join(", ")
        ));
    }
    let height = rows.len();
    if width % 2 == 0 || height % 2 == 0 {
        return Err("has no centre cell: its width and height must be odd".into());
    }
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(format!(
            "is {width}×{height}: at most {MAX_SIDE}×{MAX_SIDE}, as farther cells are always off the board"
        ));
    }
    let (cx, cy) = (width / 2, height / 2);
    if rows[cy].as_bytes()[cx] != b'#' {
        return Err("does not cover its centre: the piece's own cell must be `#`".into());
    }
    Ok(rows
        .iter()
        .enumerate()
        .flat_map(|(y, row)| {
            row.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'#')
                .map(move |(x, _)| (x as i8 - cx as i8, y as i8 - cy as i8))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(text: &str) -> Cell {
        Cell::parse(text, 9, 9).unwrap()
    }

    fn set(cells: &str) -> u128 {
        cells
            .split(' ')
            .map(|t| GRID.bit(c(t)))
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn standard_shapes_cover_nine_cells_in_the_middle() {
        let s = Shapes::standard();
        for blast in [Blast::Square, Blast::Plus, Blast::Cross] {
            assert_eq!(s.mask(blast, c("E5")).count_ones(), 9, "{blast:?}");
        }
        assert_eq!(
            s.mask(Blast::Plus, c("E5")),
            set("E3 E4 C5 D5 E5 F5 G5 E6 E7")
        );
        assert_eq!(
            s.mask(Blast::Cross, c("E5")),
            set("C3 G3 D4 F4 E5 D6 F6 C7 G7")
        );
        assert_eq!(s.mask(Blast::Final, c("E5")), set("E4 D5 E5 F5 E6"));
    }

    #[test]
    fn off_board_cells_are_dropped() {
        let s = Shapes::standard();
        assert_eq!(s.mask(Blast::Square, c("A1")), set("A1 B1 A2 B2"));
        assert_eq!(s.mask(Blast::Plus, c("A5")), set("A3 A4 A5 B5 C5 A6 A7"));
        assert_eq!(s.mask(Blast::Cross, c("I9")), set("G7 H8 I9"));
        assert_eq!(s.mask(Blast::Final, c("I1")), set("H1 I1 I2"));
    }

    #[test]
    fn bad_pictures_say_what_is_wrong() {
        let err = |p: &str| Shapes::new([p, "", "", ""]).unwrap_err();
        assert_eq!(
            err("##/#"),
            "square_blast `##/#` has rows of different lengths (2, 1): every row needs the same number of cells"
        );
        assert_eq!(
            err("#x#"),
            "square_blast `#x#` has `x`: a picture is rows of `#` (covered) and `.` separated by `/`"
        );
        assert_eq!(
            err("#.#"),
            "square_blast `#.#` does not cover its centre: the piece's own cell must be `#`"
        );
        assert!(err(&"#".repeat(19)).contains("at most 17×17"));
        assert!(err("/").contains("an empty row"));
        assert_eq!(Shapes::new(["", "", "", ""]).unwrap(), Shapes::standard());
    }
}
