//! A seat's wall as bitboards (bit `row * 10 + col`), where pieces may go,
//! and how a wall scores.
//!
//! ```
//! use umpire_core::Cell;
//! use umpire_pentomino_wall::{Placed, Wall};
//!
//! // An X in the middle of an otherwise empty wall: 85 cells unpainted.
//! let wall = Wall::from_placements([Placed::new("X".parse().unwrap(), Cell::new(3, 3))]).unwrap();
//! assert_eq!(wall.rows()[4], "...XXX....");
//! let score = wall.score(0);
//! assert_eq!((score.square, score.unpainted, score.total), (1, 85, 1 - 170));
//! ```

use serde::{Deserialize, Serialize};
use umpire_core::Cell;
use umpire_core::grid::bits;

use crate::pieces::{CELLS, GRID, HEIGHT, Orientation, Piece, WIDTH};

const LEFT: u128 = GRID.col(0);
const RIGHT: u128 = GRID.col(WIDTH - 1);
const TOP: u128 = GRID.row(0);
const BOTTOM: u128 = GRID.row(HEIGHT - 1);
/// The cells along the wall's edges.
pub const BORDER: u128 = LEFT | RIGHT | TOP | BOTTOM;

/// A piece on a wall: its orientation and the top-left cell of its
/// bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placed {
    #[serde(rename = "piece")]
    pub orientation: Orientation,
    pub at: Cell,
}

impl Placed {
    pub fn new(orientation: Orientation, at: Cell) -> Placed {
        Placed { orientation, at }
    }

    /// Whether the piece lies wholly on the wall.
    pub fn fits(&self) -> bool {
        let (w, h) = self.orientation.size();
        GRID.contains(self.at) && self.at.col + w <= WIDTH && self.at.row + h <= HEIGHT
    }

    /// Its cells (for a piece that fits).
    pub fn mask(&self) -> u128 {
        self.orientation.shape().mask << self.at.index(WIDTH)
    }
}

/// One seat's wall: the pieces placed, in order, and the paint they left.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wall {
    placed: Vec<Placed>,
    painted: u128,
    /// Cells painted more than once.
    black: u128,
}

/// A wall's score, term by term.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// The edge of the largest fully painted square.
    pub square: u8,
    /// Points of the clearly defined, surrounded pieces.
    pub pieces: u32,
    pub credits: u32,
    pub unpainted: u32,
    /// `square + pieces + credits - 2 × unpainted`.
    pub total: i64,
    /// Each placed piece's points, in placing order.
    pub piece_points: Vec<u8>,
}

impl Wall {
    /// A wall with these pieces painted in order, with no placing rule
    /// checked but that each lies on the wall.
    pub fn from_placements(placed: impl IntoIterator<Item = Placed>) -> Result<Wall, String> {
        let mut wall = Wall::default();
        for p in placed {
            if !p.fits() {
                return Err(format!("{} at {} leaves the wall", p.orientation, p.at));
            }
            wall.paint(p);
        }
        Ok(wall)
    }

    pub fn placed(&self) -> &[Placed] {
        &self.placed
    }

    pub fn painted(&self) -> u128 {
        self.painted
    }

    pub fn black(&self) -> u128 {
        self.black
    }

    /// This wall with one more piece (that fits) painted, to weigh a move.
    pub fn with(&self, p: Placed) -> Wall {
        let mut wall = self.clone();
        wall.paint(p);
        wall
    }

    /// Paints a piece that fits; overlaps turn black.
    pub(crate) fn paint(&mut self, p: Placed) {
        let mask = p.mask();
        self.black |= self.painted & mask;
        self.painted |= mask;
        self.placed.push(p);
    }

    /// The cells a new piece must cover or touch: the border for a wall's
    /// first piece, the paint and its neighbours after that.
    pub fn reach(&self) -> u128 {
        if self.painted == 0 {
            BORDER
        } else {
            GRID.grow(self.painted)
        }
    }

    /// The anchors at which `o` may be placed: on the wall, and covering a
    /// cell of [`Wall::reach`].
    pub fn anchors(&self, o: Orientation) -> u128 {
        let shape = o.shape();
        let reach = self.reach();
        let touching = bits(shape.mask).fold(0, |t, i| t | reach >> i);
        touching & shape.anchors
    }

    pub fn unpainted(&self) -> u32 {
        unpainted(self.painted)
    }

    /// The edge of the largest square whose every cell is painted.
    pub fn largest_square(&self) -> u8 {
        largest_square(self.painted)
    }

    /// Each placed piece's points: 3 minus the wall edges it touches, if it
    /// has no black cell, touches no cell of its own colour outside itself
    /// and every neighbour on the wall is painted; else 0.
    pub fn piece_points(&self) -> Vec<u8> {
        self.points().collect()
    }

    fn points(&self) -> impl Iterator<Item = u8> + '_ {
        points(self.placed.iter().copied(), self.painted, self.black)
    }

    /// The wall's score with `credits`.
    pub fn score(&self, credits: u32) -> Score {
        let piece_points = self.piece_points();
        let square = self.largest_square();
        let pieces: u32 = piece_points.iter().map(|&p| u32::from(p)).sum();
        let unpainted = self.unpainted();
        Score {
            square,
            pieces,
            credits,
            unpainted,
            total: i64::from(square) + i64::from(pieces) + i64::from(credits)
                - 2 * i64::from(unpainted),
            piece_points,
        }
    }

    /// The running score only: the total of [`Wall::score`].
    pub fn total(&self, credits: u32) -> i64 {
        running(self.placed.iter().copied(), self.painted, self.black) + i64::from(credits)
    }

    /// The wall's running score kept piece by piece, to weigh placements
    /// on it (the bots weigh every placement).
    pub fn tally(&self) -> Tally<'_> {
        let colour = colours(self.placed.iter().copied());
        let pieces: Vec<(u128, u8)> = self
            .placed
            .iter()
            .map(|&p| {
                let kind = colour[p.orientation.piece.index()];
                let points = piece_points(p, kind, self.painted, self.black);
                (GRID.grow(p.mask()), points)
            })
            .collect();
        let sum = pieces.iter().map(|&(_, p)| i64::from(p)).sum();
        Tally {
            wall: self,
            colour,
            pieces,
            sum,
        }
    }

    /// Nine rows of ten characters, top first: a piece's letter where one
    /// piece painted the cell, `#` where paint overlapped (black), `.`
    /// unpainted.
    pub fn rows(&self) -> Vec<String> {
        let mut letters = [b'.'; CELLS];
        for p in &self.placed {
            let mut mask = p.mask();
            while mask != 0 {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                letters[i] = if self.black >> i & 1 == 1 {
                    b'#'
                } else {
                    p.orientation.piece.letter() as u8
                };
            }
        }
        letters
            .chunks(WIDTH as usize)
            .map(|row| String::from_utf8_lossy(row).into_owned())
            .collect()
    }

    /// The piece whose colour a cell shows, if one piece alone painted it.
    pub fn colour_at(&self, cell: Cell) -> Option<Piece> {
        if !GRID.contains(cell) || self.black & GRID.bit(cell) != 0 {
            return None;
        }
        self.placed
            .iter()
            .find(|p| p.mask() & GRID.bit(cell) != 0)
            .map(|p| p.orientation.piece)
    }
}

/// Cells `painted` leaves unpainted.
fn unpainted(painted: u128) -> u32 {
    (GRID.all & !painted).count_ones()
}

/// The edge of the largest square of `painted` cells.
fn largest_square(painted: u128) -> u8 {
    // Top-left cells of k×k painted squares, for k = 1, 2, …
    let mut tops = painted;
    let mut k = 0;
    while tops != 0 {
        k += 1;
        tops &= GRID.left(tops) & GRID.up(tops) & GRID.left(GRID.up(tops));
    }
    k
}

/// The running score, credits aside, of the pieces `placed` that left
/// `painted` and `black`.
fn running(placed: impl Iterator<Item = Placed> + Clone, painted: u128, black: u128) -> i64 {
    let pieces: i64 = points(placed, painted, black).map(i64::from).sum();
    i64::from(largest_square(painted)) + pieces - 2 * i64::from(unpainted(painted))
}

/// Each of the pieces `placed`'s points (see [`Wall::piece_points`]).
fn points(
    placed: impl Iterator<Item = Placed> + Clone,
    painted: u128,
    black: u128,
) -> impl Iterator<Item = u8> {
    let colour = colours(placed.clone());
    placed.map(move |p| piece_points(p, colour[p.orientation.piece.index()], painted, black))
}

/// The cells of each kind of piece among `placed`.
fn colours(placed: impl Iterator<Item = Placed>) -> [u128; 12] {
    let mut colour = [0u128; 12];
    for p in placed {
        colour[p.orientation.piece.index()] |= p.mask();
    }
    colour
}

/// The points of one piece `p` of a wall, where `colour` holds the cells
/// of every piece of its kind.
fn piece_points(p: Placed, colour: u128, painted: u128, black: u128) -> u8 {
    let mask = p.mask();
    let around = GRID.around(mask);
    let same = colour & painted & !black & !mask;
    if mask & black != 0 || around & !painted != 0 || around & same != 0 {
        return 0;
    }
    let edges = [TOP, BOTTOM, LEFT, RIGHT]
        .iter()
        .filter(|&&e| mask & e != 0)
        .count();
    3u8.saturating_sub(edges as u8)
}

/// A wall's running score kept piece by piece ([`Wall::tally`]): a new
/// piece changes the points of the pieces it covers or touches alone.
pub struct Tally<'a> {
    wall: &'a Wall,
    /// The cells of each kind of piece.
    colour: [u128; 12],
    /// Each placed piece's cells with their neighbours, and its points.
    pieces: Vec<(u128, u8)>,
    sum: i64,
}

impl Tally<'_> {
    pub fn wall(&self) -> &Wall {
        self.wall
    }

    /// The running score (no credits) were `p` painted too: the total of
    /// `wall.with(p)`, without building that wall.
    pub fn total_with(&self, p: Placed) -> i64 {
        let mask = p.mask();
        let painted = self.wall.painted | mask;
        let black = self.wall.black | (self.wall.painted & mask);
        let kind = p.orientation.piece.index();
        let colour = |q: Placed| {
            let k = q.orientation.piece.index();
            self.colour[k] | if k == kind { mask } else { 0 }
        };
        let mut sum = self.sum + i64::from(piece_points(p, colour(p), painted, black));
        for (&q, &(near, before)) in self.wall.placed.iter().zip(&self.pieces) {
            if near & mask != 0 {
                sum += i64::from(piece_points(q, colour(q), painted, black)) - i64::from(before);
            }
        }
        i64::from(largest_square(painted)) + sum - 2 * i64::from(unpainted(painted))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(o: &str, at: &str) -> Placed {
        Placed::new(o.parse().unwrap(), Cell::parse(at, 10, 9).unwrap())
    }

    #[test]
    fn squares_do_not_wrap_rows() {
        // J1–J5 and A2–A6 would make 2×2 squares if rows wrapped.
        let wall = Wall::from_placements([placed("I90", "J1"), placed("I90", "A2")]).unwrap();
        assert_eq!(wall.largest_square(), 1);
        let rows = Wall::from_placements([placed("I", "A1"), placed("I", "A2")]).unwrap();
        assert_eq!(rows.largest_square(), 2);
        assert_eq!(Wall::default().largest_square(), 0);
    }

    #[test]
    fn a_placement_weighed_in_place_scores_as_the_wall_built_with_it() {
        use rand::RngExt;
        let mut rng = umpire_core::seeded_rng(7);
        let orientations: Vec<Orientation> =
            Piece::ALL.iter().flat_map(|p| p.orientations()).collect();
        let (mut scored, mut spoilt) = (0, 0);
        for _ in 0..100 {
            // Walls filled mostly without overlaps, so that pieces score.
            let mut wall = Wall::default();
            for _ in 0..18 {
                let o = orientations[rng.random_range(0..orientations.len())];
                let at = |i| Placed::new(o, Cell::from_index(i, WIDTH));
                let anchors: Vec<usize> = bits(wall.anchors(o)).collect();
                for &i in &anchors {
                    let built = wall.with(at(i));
                    assert_eq!(
                        wall.tally().total_with(at(i)),
                        built.total(0),
                        "{:?}",
                        at(i)
                    );
                    scored += built.points().filter(|&p| p > 0).count();
                    spoilt += usize::from(built.black != 0);
                }
                let clean: Vec<usize> = anchors
                    .iter()
                    .copied()
                    .filter(|&i| at(i).mask() & wall.painted == 0)
                    .collect();
                let pick = if clean.is_empty() { &anchors } else { &clean };
                if let Some(&i) = pick.get(rng.random_range(0..pick.len().max(1))) {
                    wall.paint(at(i));
                }
            }
        }
        // The walls weighed had scoring pieces and black cells.
        assert!(scored > 100 && spoilt > 1000, "{scored} {spoilt}");
    }

    #[test]
    fn anchors_cover_or_touch_the_paint() {
        let wall = Wall::from_placements([placed("X", "A1")]).unwrap();
        // X at A1 covers B1 A2 B2 C2 B3; an X must come within one cell.
        let anchors = wall.anchors("X".parse().unwrap());
        assert_ne!(anchors & GRID.bit(Cell::new(2, 1)), 0, "C2");
        assert_eq!(anchors & GRID.bit(Cell::new(4, 0)), 0, "E1 is too far");
        // The first piece of a wall: anywhere touching the border.
        let empty = Wall::default().anchors("X".parse().unwrap());
        assert_eq!(empty.count_ones(), 8 * 7 - 6 * 5);
    }
}
