//! The 9×9 board as bitboards: bit `row * 9 + col` is a cell. Pieces by
//! seat and kind, pegs, and each cell's domain owner.

use serde::{Deserialize, Serialize};
use umpire_core::{Cell, PerSeat, Seat};

pub const SIZE: u8 = 9;
pub const CELLS: usize = 81;
pub const BOARD: u128 = (1u128 << CELLS) - 1;
const COL_A: u128 = cols(0, 0);
const COL_I: u128 = cols(8, 8);

/// Every cell of columns `from..=to`.
pub const fn cols(from: u8, to: u8) -> u128 {
    let mut mask = 0u128;
    let mut row = 0;
    while row < SIZE {
        let mut col = from;
        while col <= to {
            mask |= 1u128 << (row as usize * SIZE as usize + col as usize);
            col += 1;
        }
        row += 1;
    }
    mask
}

/// Every column's cells, by column.
const COLUMNS: [u128; SIZE as usize] = {
    let mut out = [0u128; SIZE as usize];
    let mut c = 0;
    while c < SIZE {
        out[c as usize] = cols(c, c);
        c += 1;
    }
    out
};

/// Every cell of column `col`.
pub fn col_mask(col: u8) -> u128 {
    COLUMNS[col as usize]
}

/// Every cell of row `row`.
pub const fn row_mask(row: u8) -> u128 {
    0x1ffu128 << (row as usize * SIZE as usize)
}

/// The DMO's starting domain (columns A–D) and the EC's (F–I).
pub const DMO_HALF: u128 = cols(0, 3);
pub const EC_HALF: u128 = cols(5, 8);

pub fn bit(cell: Cell) -> u128 {
    1u128 << cell.index(SIZE)
}

pub fn on_board(cell: Cell) -> bool {
    cell.col < SIZE && cell.row < SIZE
}

pub fn cell_at(index: usize) -> Cell {
    Cell::from_index(index, SIZE)
}

/// The cells of a set, in reading order.
pub fn cells(mut set: u128) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            cell_at(i)
        })
    })
}

/// The `n`-th set bit of `set` (0-based), which must exist.
pub fn nth_bit(set: u128, mut n: u32) -> usize {
    let low = set as u64;
    let (mut word, offset) = if n < low.count_ones() {
        (low, 0)
    } else {
        n -= low.count_ones();
        ((set >> 64) as u64, 64)
    };
    for _ in 0..n {
        word &= word - 1;
    }
    offset + word.trailing_zeros() as usize
}

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
        Dir::Up => set >> SIZE,
        Dir::Down => (set << SIZE) & BOARD,
        Dir::Left => (set & !COL_A) >> 1,
        Dir::Right => (set & !COL_I) << 1,
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
        BOARD & !self.occupied()
    }

    /// The kind of `seat`'s piece on `cell`, if any.
    pub fn kind_at(&self, seat: Seat, cell: Cell) -> Option<Kind> {
        let b = bit(cell);
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
        cells(self.placed[seat]).fold(0, |acc, c| acc | row_mask(c.row) | col_mask(c.col))
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
        assert_eq!(shift(bit(c("I1")), Dir::Right), 0);
        assert_eq!(shift(bit(c("A2")), Dir::Left), 0);
        assert_eq!(shift(bit(c("A9")), Dir::Down), 0);
        assert_eq!(shift(bit(c("A1")), Dir::Up), 0);
        assert_eq!(king(bit(c("A1"))).count_ones(), 4);
        assert_eq!(king(bit(c("E5"))).count_ones(), 9);
        assert_eq!(orthogonal(bit(c("I9"))), bit(c("H9")) | bit(c("I8")));
    }

    #[test]
    fn crowded_means_three_occupied_neighbours() {
        let occ = bit(c("D4")) | bit(c("F4")) | bit(c("E3"));
        assert_eq!(crowded(occ), bit(c("E4")));
        assert_eq!(crowded(occ | bit(c("E5"))), bit(c("E4")));
        assert_eq!(crowded(bit(c("A2")) | bit(c("B1"))), 0);
    }

    #[test]
    fn movers_need_a_clear_path() {
        let pieces = bit(c("A1")) | bit(c("C1"));
        let empty = BOARD & !pieces & !bit(c("E1"));
        let (from, to) = movers(pieces, empty, Dir::Right, 2);
        assert_eq!((from, to), (0, 0), "B1–C1 and D1–E1 are not clear");
        let (from, _) = movers(pieces, empty | bit(c("C1")), Dir::Right, 2);
        assert_eq!(from, bit(c("A1")));
        let (from, to) = movers(pieces, empty, Dir::Down, 4);
        assert_eq!((from, to), (pieces, bit(c("A5")) | bit(c("C5"))));
        assert_eq!(nth_bit(1 << 70 | 1 << 3, 1), 70);
    }
}
