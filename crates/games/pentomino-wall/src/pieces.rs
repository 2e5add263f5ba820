//! The twelve pentominoes, their orientations and what it costs to turn one
//! orientation into another.
//!
//! An orientation is named by the piece's letter, then optionally `m`
//! (mirrored left-right first), then optionally a clockwise quarter-turn
//! count `90`, `180` or `270`. Names that give the same cells are the same
//! orientation, written with the first of `T T90 T180 T270 Tm Tm90 Tm180
//! Tm270` that fits.
//!
//! ```
//! use umpire_pentomino_wall::{Orientation, Piece};
//!
//! let t: Orientation = "Tm".parse().unwrap();
//! assert_eq!(t.to_string(), "T"); // T is its own mirror image
//! assert_eq!(Piece::X.orientations().count(), 1);
//! assert_eq!(Piece::F.orientations().count(), 8);
//! // A quarter turn anticlockwise is three clockwise ones, or a mirror and
//! // a diagonal flip: three steps either way.
//! let l: Orientation = "L".parse().unwrap();
//! assert_eq!(l.steps_to("L270".parse().unwrap(), false), 3);
//! assert_eq!(l.steps_to("L270".parse().unwrap(), true), 1);
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use umpire_core::ParseError;
use umpire_core::grid::{Board, Symmetry, normalize, picture_cells};

/// Columns of a wall (A–J).
pub const WIDTH: u8 = 10;
/// Rows of a wall (1–9).
pub const HEIGHT: u8 = 9;
/// Cells of a wall.
pub const CELLS: usize = WIDTH as usize * HEIGHT as usize;
/// A wall as core's bitboards: bit `row * 10 + col` is a cell.
pub const GRID: Board = Board::new(WIDTH, HEIGHT);

/// One of the twelve pentominoes, in the order F I L N P T U V W X Y Z.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    F,
    I,
    L,
    N,
    P,
    T,
    U,
    V,
    W,
    X,
    Y,
    Z,
}

/// Each piece's shape in its base orientation (rows top to bottom, `#`
/// painted), its colour's name and a hex code for drawing it.
const SHAPES: [(&str, &str, &str); 12] = [
    (".##/##./.#.", "lavender", "#b39ddb"),
    ("#####", "orange", "#fb8c00"),
    ("#./#./#./##", "green", "#43a047"),
    (".#/.#/##/#.", "brown", "#8d6e63"),
    ("##/##/#.", "red", "#e53935"),
    ("###/.#./.#.", "pink", "#f06292"),
    ("#.#/###", "lime", "#c0ca33"),
    ("#../#../###", "yellow", "#fdd835"),
    ("#../##./.##", "teal", "#26a69a"),
    (".#./###/.#.", "blue", "#1e88e5"),
    (".#/##/.#/.#", "navy", "#3949ab"),
    ("##./.#./.##", "tan", "#d2b48c"),
];

impl Piece {
    pub const ALL: [Piece; 12] = [
        Piece::F,
        Piece::I,
        Piece::L,
        Piece::N,
        Piece::P,
        Piece::T,
        Piece::U,
        Piece::V,
        Piece::W,
        Piece::X,
        Piece::Y,
        Piece::Z,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        b"FILNPTUVWXYZ"[self.index()] as char
    }

    /// The piece of a letter, case-insensitive.
    pub fn from_letter(c: char) -> Option<Piece> {
        let upper = c.to_ascii_uppercase();
        Piece::ALL.into_iter().find(|p| p.letter() == upper)
    }

    /// The base orientation, rows top to bottom: `#` painted, `.` not.
    pub fn base(self) -> &'static str {
        SHAPES[self.index()].0
    }

    /// The colour's name (`pink` for T).
    pub fn colour(self) -> &'static str {
        SHAPES[self.index()].1
    }

    /// The colour as `#rrggbb`.
    pub fn hex(self) -> &'static str {
        SHAPES[self.index()].2
    }

    /// The piece's distinct orientations, in name order.
    pub fn orientations(self) -> impl Iterator<Item = Orientation> {
        TABLES.distinct[self.index()]
            .iter()
            .map(move |&sym| Orientation { piece: self, sym })
    }

    /// How many distinct orientations the piece has (1, 2, 4 or 8).
    pub fn orientation_count(self) -> usize {
        // F I L N P T U V W X Y Z; a unit test checks them against the shapes.
        [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4][self.index()]
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Piece {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Piece, D::Error> {
        let text = String::deserialize(d)?;
        let mut chars = text.chars();
        match (chars.next().and_then(Piece::from_letter), chars.next()) {
            (Some(p), None) => Ok(p),
            _ => Err(serde::de::Error::custom(format!(
                "`{text}` is not a pentomino letter"
            ))),
        }
    }
}

/// A set of pieces, written as their letters in order (`FLPX`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pieces(u16);

impl Pieces {
    pub const NONE: Pieces = Pieces(0);
    pub const ALL: Pieces = Pieces((1 << 12) - 1);

    pub fn one(piece: Piece) -> Pieces {
        Pieces(1 << piece.index())
    }

    pub fn contains(self, piece: Piece) -> bool {
        self.0 & (1 << piece.index()) != 0
    }

    pub fn with(self, piece: Piece) -> Pieces {
        Pieces(self.0 | 1 << piece.index())
    }

    pub fn without(self, piece: Piece) -> Pieces {
        Pieces(self.0 & !(1 << piece.index()))
    }

    pub fn union(self, other: Pieces) -> Pieces {
        Pieces(self.0 | other.0)
    }

    pub fn minus(self, other: Pieces) -> Pieces {
        Pieces(self.0 & !other.0)
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The pieces in letter order.
    pub fn iter(self) -> impl Iterator<Item = Piece> {
        Piece::ALL.into_iter().filter(move |&p| self.contains(p))
    }

    /// The `n`-th piece in letter order.
    pub fn nth(self, n: usize) -> Option<Piece> {
        self.iter().nth(n)
    }

    /// The letters, comma-separated (`F, L, P`), for messages.
    pub fn listed(self) -> String {
        let letters: Vec<String> = self.iter().map(|p| p.to_string()).collect();
        letters.join(", ")
    }
}

impl FromIterator<Piece> for Pieces {
    fn from_iter<T: IntoIterator<Item = Piece>>(iter: T) -> Pieces {
        iter.into_iter().fold(Pieces::NONE, Pieces::with)
    }
}

impl fmt::Display for Pieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.iter().try_for_each(|p| write!(f, "{p}"))
    }
}

impl Serialize for Pieces {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Pieces {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pieces, D::Error> {
        let text = String::deserialize(d)?;
        text.chars()
            .map(|c| {
                Piece::from_letter(c).ok_or_else(|| {
                    serde::de::Error::custom(format!("`{c}` is not a pentomino letter"))
                })
            })
            .collect()
    }
}

/// The suffixes of the eight orientation names, in name order.
pub const SUFFIXES: [&str; 8] = ["", "90", "180", "270", "m", "m90", "m180", "m270"];

/// A piece in one of its orientations (always the first name that fits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Orientation {
    pub piece: Piece,
    /// Index into [`SUFFIXES`], the first that gives these cells.
    sym: u8,
}

impl Orientation {
    /// `piece` mirrored (if `sym >= 4`) then turned `sym % 4` quarter turns
    /// clockwise, under its first name.
    pub fn new(piece: Piece, sym: u8) -> Orientation {
        Orientation {
            piece,
            sym: TABLES.canonical[piece.index()][sym as usize % 8],
        }
    }

    /// The piece in its base orientation.
    pub fn base(piece: Piece) -> Orientation {
        Orientation { piece, sym: 0 }
    }

    pub fn sym(self) -> u8 {
        self.sym
    }

    pub(crate) fn shape(self) -> &'static Shape {
        &TABLES.shapes[self.piece.index()][self.sym as usize]
    }

    /// The cells as `(column, row)` offsets from the top-left corner of the
    /// bounding box, in reading order.
    pub fn cells(self) -> [(u8, u8); 5] {
        self.shape().cells
    }

    /// Width and height of the bounding box.
    pub fn size(self) -> (u8, u8) {
        (self.shape().width, self.shape().height)
    }

    /// The fewest re-orientation steps (a quarter turn clockwise, a
    /// left-right or a top-bottom mirror; with `anticlockwise`, a quarter
    /// turn anticlockwise as well) that turn these cells into `other`'s.
    /// `u8::MAX` for another piece.
    pub fn steps_to(self, other: Orientation, anticlockwise: bool) -> u8 {
        if self.piece != other.piece {
            return u8::MAX;
        }
        TABLES.cost[usize::from(anticlockwise)][self.piece.index()][self.sym as usize]
            [other.sym as usize]
    }

    /// The shape drawn as rows, top to bottom (`#` painted, `.` not).
    pub fn rows(self) -> Vec<String> {
        let s = self.shape();
        (0..s.height)
            .map(|y| {
                (0..s.width)
                    .map(|x| if s.cells.contains(&(x, y)) { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }
}

impl Orientation {
    /// The orientation in words: `T`, `T turned 90°`, `T mirrored and
    /// turned 90°` (mirrored first, then turned clockwise, as the notation
    /// reads).
    pub fn words(&self) -> String {
        let turned = match self.sym % 4 {
            0 => String::new(),
            q => format!("turned {}°", u32::from(q) * 90),
        };
        match (self.sym >= 4, turned.is_empty()) {
            (true, true) => format!("{} mirrored", self.piece),
            (true, false) => format!("{} mirrored and {turned}", self.piece),
            (false, true) => self.piece.to_string(),
            (false, false) => format!("{} {turned}", self.piece),
        }
    }
}

impl fmt::Display for Orientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.piece, SUFFIXES[self.sym as usize])
    }
}

impl FromStr for Orientation {
    type Err = ParseError;

    /// `T`, `t90`, `Tm`, `TM270`: case-insensitive.
    fn from_str(text: &str) -> Result<Orientation, ParseError> {
        let trimmed = text.trim();
        let lead = text.len() - text.trim_start().len();
        let mut chars = trimmed.chars();
        let Some(piece) = chars.next().and_then(Piece::from_letter) else {
            return Err(ParseError::new(format!(
                "`{trimmed}` is not a piece: the pieces are F I L N P T U V W X Y Z"
            ))
            .at(lead)
            .expected(["a piece letter like T"]));
        };
        let rest = chars.as_str().to_ascii_lowercase();
        match SUFFIXES.iter().position(|&s| s == rest) {
            Some(sym) => Ok(Orientation::new(piece, sym as u8)),
            None => {
                let suggestion = match rest.as_str() {
                    "0" | "360" => Some(String::new()),
                    "-90" => Some("270".into()),
                    _ => None,
                };
                let e = ParseError::new(format!(
                    "`{trimmed}` is not an orientation: a piece letter, then `m` to mirror, then 90, 180 or 270 (like T, T90, Tm, Tm270)"
                ))
                .at(lead + 1)
                .expected(SUFFIXES.iter().skip(1).map(|s| format!("{piece}{s}")));
                Err(match suggestion {
                    Some(s) => e.suggest(format!("{piece}{s}")),
                    None => e,
                })
            }
        }
    }
}

impl Serialize for Orientation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Orientation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Orientation, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// One orientation's cells and where it fits on a wall.
pub(crate) struct Shape {
    pub cells: [(u8, u8); 5],
    pub width: u8,
    pub height: u8,
    /// The cells at anchor A1, bit `row * 10 + col`.
    pub mask: u128,
    /// The anchors (top-left of the bounding box) at which it lies on the wall.
    pub anchors: u128,
}

/// The symmetry of name `sym`: mirror first (if `sym >= 4`), then turn.
fn symmetry(sym: usize) -> Symmetry {
    let mut m = if sym >= 4 {
        Symmetry::LEFT_RIGHT
    } else {
        Symmetry::IDENTITY
    };
    for _ in 0..sym % 4 {
        m = m.then(Symmetry::CLOCKWISE);
    }
    m
}

/// A piece's cells in orientation `sym`, moved to the top-left corner.
fn cells_in(piece: Piece, sym: usize) -> Vec<(u8, u8)> {
    let turned: Vec<(i8, i8)> = picture_cells(piece.base())
        .into_iter()
        .map(|c| symmetry(sym).apply(c))
        .collect();
    normalize(&turned)
        .into_iter()
        .map(|(x, y)| (x as u8, y as u8))
        .collect()
}

struct Tables {
    shapes: Vec<[Shape; 8]>,
    /// The first name of each name's cells.
    canonical: [[u8; 8]; 12],
    /// The first names, one per distinct orientation.
    distinct: [Vec<u8>; 12],
    /// Steps from one orientation to another: `[anticlockwise][piece][from][to]`.
    cost: [[[[u8; 8]; 8]; 12]; 2],
}

static TABLES: LazyLock<Tables> = LazyLock::new(build);

/// The length of each of the eight symmetries as a word in the steps.
fn word_lengths(anticlockwise: bool) -> Vec<(Symmetry, u8)> {
    let mut steps = vec![
        Symmetry::CLOCKWISE,
        Symmetry::LEFT_RIGHT,
        Symmetry::TOP_BOTTOM,
    ];
    if anticlockwise {
        steps.push(Symmetry::ANTICLOCKWISE);
    }
    let mut found = vec![(Symmetry::IDENTITY, 0u8)];
    let mut i = 0;
    while i < found.len() {
        let (g, n) = found[i];
        for &s in &steps {
            let next = g.then(s);
            if !found.iter().any(|&(h, _)| h == next) {
                found.push((next, n + 1));
            }
        }
        i += 1;
    }
    found
}

fn build() -> Tables {
    let mut shapes = Vec::new();
    let mut canonical = [[0u8; 8]; 12];
    let mut distinct: [Vec<u8>; 12] = Default::default();
    let mut cells_of: Vec<Vec<Vec<(u8, u8)>>> = Vec::new();
    for piece in Piece::ALL {
        let all: Vec<Vec<(u8, u8)>> = (0..8).map(|sym| cells_in(piece, sym)).collect();
        let p = piece.index();
        for sym in 0..8 {
            let first = all.iter().position(|c| *c == all[sym]).unwrap_or(sym);
            canonical[p][sym] = first as u8;
            if first == sym {
                distinct[p].push(sym as u8);
            }
        }
        shapes.push(std::array::from_fn(|sym| shape(&all[sym])));
        cells_of.push(all);
    }
    let mut cost = [[[[0u8; 8]; 8]; 12]; 2];
    for (mode, table) in cost.iter_mut().enumerate() {
        let words = word_lengths(mode == 1);
        for (p, rows) in table.iter_mut().enumerate() {
            for (from, row) in rows.iter_mut().enumerate() {
                for (to, cost) in row.iter_mut().enumerate() {
                    // The fewest steps of any symmetry that takes `from`'s
                    // cells onto `to`'s.
                    *cost = words
                        .iter()
                        .filter(|&&(g, _)| {
                            let moved = symmetry(from).then(g);
                            let sym = (0..8).find(|&k| symmetry(k) == moved).unwrap_or(0);
                            cells_of[p][sym] == cells_of[p][to]
                        })
                        .map(|&(_, n)| n)
                        .min()
                        .unwrap_or(u8::MAX);
                }
            }
        }
    }
    Tables {
        shapes,
        canonical,
        distinct,
        cost,
    }
}

fn shape(cells: &[(u8, u8)]) -> Shape {
    let width = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
    let height = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
    Shape {
        cells: std::array::from_fn(|i| cells[i]),
        width,
        height,
        mask: GRID.mask(cells.iter().copied()),
        anchors: GRID.anchors(width, height),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_orientation_in_words_says_the_mirror_then_the_turn() {
        let words = |name: &str| name.parse::<Orientation>().expect("a name").words();
        assert_eq!(words("L"), "L");
        assert_eq!(words("L90"), "L turned 90°");
        assert_eq!(words("Lm"), "L mirrored");
        assert_eq!(words("Lm270"), "L mirrored and turned 270°");
        // X looks the same every way: its first name, in words.
        assert_eq!(words("Xm90"), "X");
    }

    #[test]
    fn the_twelve_pieces_have_63_orientations() {
        let counts: Vec<usize> = Piece::ALL
            .iter()
            .map(|p| p.orientations().count())
            .collect();
        // F I L N P T U V W X Y Z
        assert_eq!(counts, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
        assert_eq!(counts.iter().sum::<usize>(), 63);
        for p in Piece::ALL {
            assert_eq!(p.orientation_count(), counts[p.index()], "{p}");
        }
        for p in Piece::ALL {
            assert_eq!(picture_cells(p.base()).len(), 5, "{p}");
        }
    }

    #[test]
    fn names_follow_the_rulings() {
        let rows = |s: &str| s.parse::<Orientation>().unwrap().rows().join("/");
        assert_eq!(rows("T"), "###/.#./.#.");
        // A quarter turn clockwise: the bar of the T goes to the right.
        assert_eq!(rows("T90"), "..#/###/..#");
        assert_eq!(rows("L"), "#./#./#./##");
        assert_eq!(rows("Lm"), ".#/.#/.#/##");
        // Mirror first, then turn.
        assert_eq!(rows("Lm90"), "#.../####");
        assert_eq!(rows("L90"), "####/#...");
        assert_eq!("Z180".parse::<Orientation>().unwrap().to_string(), "Z");
        assert_eq!("im270".parse::<Orientation>().unwrap().to_string(), "I90");
        assert_eq!("Xm90".parse::<Orientation>().unwrap().to_string(), "X");
        assert_eq!("Um".parse::<Orientation>().unwrap().to_string(), "U");
    }
}
