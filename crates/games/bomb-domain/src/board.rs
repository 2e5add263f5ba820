//! The 9×9 board as bitboards: bit `row * 9 + col` is a cell. Pieces by
//! seat and kind, pegs, and each cell's domain owner.

use serde::{Deserialize, Serialize};
use umpire_core::{Cell, PerSeat, Seat, grid};

pub const SIZE: u8 = 9;
pub const CELLS: usize = 81;
/// The board's geometry as core's bitboards.
pub const GRID: grid::Board = grid::Board::new(SIZE, SIZE);

/// The DMO's starting domain (columns A–D) and the EC's (F–I).
pub const DMO_HALF: u128 = GRID.cols(0, 3);
pub const EC_HALF: u128 = GRID.cols(5, 8);

/// A direction of straight movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    pub fn is_vertical(self) -> bool {
        matches!(self, Dir::Up | Dir::Down)
    }

    /// The two directions across this one's axis.
    pub fn across(self) -> [Dir; 2] {
        if self.is_vertical() {
            [Dir::Left, Dir::Right]
        } else {
            [Dir::Up, Dir::Down]
        }
    }

    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }
}

/// Every cell of `set` moved one step in `dir`; cells that would leave the
/// board are dropped.
pub fn shift(set: u128, dir: Dir) -> u128 {
    match dir {
        Dir::Up => GRID.up(set),
        Dir::Down => GRID.down(set),
        Dir::Left => GRID.left(set),
        Dir::Right => GRID.right(set),
    }
}

/// The cells orthogonally next to any cell of `set` (not `set` itself,
/// unless two of its cells are neighbours).
pub fn orthogonal(set: u128) -> u128 {
    Dir::ALL.iter().fold(0, |acc, &d| acc | shift(set, d))
}

/// Every cell within one king step of a cell of `set`, `set` included:
/// two cells lie in a common 2×2 block exactly when one is in the other's
/// king neighbourhood.
pub fn king(set: u128) -> u128 {
    let row = set | shift(set, Dir::Left) | shift(set, Dir::Right);
    row | shift(row, Dir::Up) | shift(row, Dir::Down)
}

/// Cells with at least three occupied orthogonal neighbours.
pub fn crowded(occupied: u128) -> u128 {
    let [a, b, c, d] = Dir::ALL.map(|dir| shift(occupied, dir));
    (a & b & (c | d)) | (c & d & (a | b))
}

/// The pieces of `pieces` that can move `len` cells in `dir` over empty
/// cells only, and where each lands, as two sets.
pub fn movers(pieces: u128, empty: u128, dir: Dir, len: u8) -> (u128, u128) {
    let mut front = pieces;
    for _ in 0..len {
        front = shift(front, dir) & empty;
    }
    let mut back = front;
    for _ in 0..len {
        back = shift(back, dir.opposite());
    }
    (back, front)
}

/// `cell` moved `len` steps in `dir`, if it stays on the board.
pub fn step(cell: Cell, dir: Dir, len: u8) -> Option<Cell> {
    let (col, row) = (cell.col as i16, cell.row as i16);
    let len = len as i16;
    let (col, row) = match dir {
        Dir::Up => (col, row - len),
        Dir::Down => (col, row + len),
        Dir::Left => (col - len, row),
        Dir::Right => (col + len, row),
    };
    ((0..SIZE as i16).contains(&col) && (0..SIZE as i16).contains(&row))
        .then(|| Cell::new(col as u8, row as u8))
}

/// The three kinds of piece. Their blast shapes are the config's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Square,
    Plus,
    Cross,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Square, Kind::Plus, Kind::Cross];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Square => "square",
            Kind::Plus => "plus",
            Kind::Cross => "cross",
        }
    }

    /// The short form in notation and the letter on the terminal board.
    pub fn letter(self) -> char {
        match self {
            Kind::Square => 'S',
            Kind::Plus => 'P',
            Kind::Cross => 'X',
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything on the board: pieces, pegs and domains.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Board {
    /// Each seat's pieces, by kind (`Kind as usize`).
    pub pieces: PerSeat<[u128; 3]>,
    /// Each seat's pegs: those placed with the peg step and those left by
    /// detonations.
    pub pegs: PerSeat<u128>,
    /// The pegs placed with the peg step (at most 9, each in its own row
    /// and column); a subset of `pegs`.
    pub placed: PerSeat<u128>,
    /// The cells of each seat's domain (disjoint).
    pub owner: PerSeat<u128>,
}

impl Board {
    /// The starting board: the DMO holds columns A–D, the EC F–I.
    pub fn start(dmo: Seat) -> Board {
        let mut owner = PerSeat::default();
        owner[dmo] = DMO_HALF;
        owner[dmo.other()] = EC_HALF;
        Board {
            owner,
            ..Board::default()
        }
    }

    pub fn own_pieces(&self, seat: Seat) -> u128 {
        let [a, b, c] = self.pieces[seat];
        a | b | c
    }

    pub fn all_pieces(&self) -> u128 {
        self.own_pieces(Seat::P1) | self.own_pieces(Seat::P2)
    }

    pub fn all_pegs(&self) -> u128 {
        self.pegs.p1 | self.pegs.p2
    }

    /// Cells holding a piece or a peg.
    pub fn occupied(&self) -> u128 {
        self.all_pieces() | self.all_pegs()
    }

    pub fn empty(&self) -> u128 {
        GRID.all & !self.occupied()
    }

    /// The kind of `seat`'s piece on `cell`, if any.
    pub fn kind_at(&self, seat: Seat, cell: Cell) -> Option<Kind> {
        let b = GRID.bit(cell);
        Kind::ALL
            .into_iter()
            .find(|&k| self.pieces[seat][k as usize] & b != 0)
    }

    /// The owner of the piece on `cell` and its kind.
    pub fn piece_at(&self, cell: Cell) -> Option<(Seat, Kind)> {
        Seat::BOTH
            .into_iter()
            .find_map(|s| self.kind_at(s, cell).map(|k| (s, k)))
    }

    /// Makes `set` part of `seat`'s domain.
    pub fn claim(&mut self, seat: Seat, set: u128) {
        self.owner[seat] |= set;
        self.owner[seat.other()] &= !set;
    }

    /// Moves `seat`'s `kind` from `from` to `to` and claims both cells.
    pub fn move_piece(&mut self, seat: Seat, kind: Kind, from: u128, to: u128) {
        let p = &mut self.pieces[seat][kind as usize];
        *p = (*p & !from) | to;
        self.claim(seat, from | to);
    }

    /// The rows and columns of `seat`'s placed pegs, as one set of cells.
    pub fn peg_lines(&self, seat: Seat) -> u128 {
        (GRID.cells_of(self.placed[seat])).fold(0, |acc, c| acc | GRID.row(c.row) | GRID.col(c.col))
    }

    /// Domain sizes per seat.
    pub fn counts(&self) -> PerSeat<u32> {
        self.owner.map(|o| o.count_ones())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(text: &str) -> Cell {
        Cell::parse(text, 9, 9).unwrap()
    }

    #[test]
    fn shifts_do_not_wrap_around_rows() {
        assert_eq!(shift(GRID.bit(c("I1")), Dir::Right), 0);
        assert_eq!(shift(GRID.bit(c("A2")), Dir::Left), 0);
        assert_eq!(shift(GRID.bit(c("A9")), Dir::Down), 0);
        assert_eq!(shift(GRID.bit(c("A1")), Dir::Up), 0);
        assert_eq!(king(GRID.bit(c("A1"))).count_ones(), 4);
        assert_eq!(king(GRID.bit(c("E5"))).count_ones(), 9);
        assert_eq!(
            orthogonal(GRID.bit(c("I9"))),
            GRID.bit(c("H9")) | GRID.bit(c("I8"))
        );
    }

    #[test]
    fn crowded_means_three_occupied_neighbours() {
        let occ = GRID.bit(c("D4")) | GRID.bit(c("F4")) | GRID.bit(c("E3"));
        assert_eq!(crowded(occ), GRID.bit(c("E4")));
        assert_eq!(crowded(occ | GRID.bit(c("E5"))), GRID.bit(c("E4")));
        assert_eq!(crowded(GRID.bit(c("A2")) | GRID.bit(c("B1"))), 0);
    }

    #[test]
    fn movers_need_a_clear_path() {
        let pieces = GRID.bit(c("A1")) | GRID.bit(c("C1"));
        let empty = GRID.all & !pieces & !GRID.bit(c("E1"));
        let (from, to) = movers(pieces, empty, Dir::Right, 2);
        assert_eq!((from, to), (0, 0), "B1–C1 and D1–E1 are not clear");
        let (from, _) = movers(pieces, empty | GRID.bit(c("C1")), Dir::Right, 2);
        assert_eq!(from, GRID.bit(c("A1")));
        let (from, to) = movers(pieces, empty, Dir::Down, 4);
        assert_eq!((from, to), (pieces, GRID.bit(c("A5")) | GRID.bit(c("C5"))));
    }
}
