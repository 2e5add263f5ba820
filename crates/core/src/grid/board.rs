//! A rectangular board of at most 128 cells as a bitboard: bit
//! `row * width + col` is a cell, so a set of cells is one `u128`. What
//! every board game here asks of its board: a cell's bit and back, rows
//! and columns, the orthogonal neighbours of a set, connected groups and
//! their sizes, and where a shape's bounding box fits.
//!
//! ```
//! use umpire_core::grid::{Board, Cell};
//!
//! const BOARD: Board = Board::new(9, 9);
//! let a1 = BOARD.bit(Cell::new(0, 0));
//! // I1 and A2 are neighbouring bits, not neighbouring cells.
//! let apart = BOARD.bit(Cell::new(8, 0)) | BOARD.bit(Cell::new(0, 1));
//! assert_eq!(BOARD.groups(apart).count(), 2);
//! assert_eq!(BOARD.around(a1), BOARD.bit(Cell::new(1, 0)) | BOARD.bit(Cell::new(0, 1)));
//! ```

use super::Cell;

/// A board's size and the masks its bitboard operations need; a `const`
/// of each game, so that they fold into constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub width: u8,
    pub height: u8,
    /// Every cell.
    pub all: u128,
    /// Every cell of the first column.
    first_col: u128,
    /// Every cell but the first column's: where a cell moved right may land.
    not_first_col: u128,
    /// Every cell but the last column's: where a cell moved left may land.
    not_last_col: u128,
}

impl Board {
    /// A board `width` columns by `height` rows (1 to 128 cells).
    pub const fn new(width: u8, height: u8) -> Board {
        let cells = width as usize * height as usize;
        assert!(cells > 0 && cells <= 128, "a board has 1 to 128 cells");
        let all = u128::MAX >> (128 - cells);
        let mut first_col = 0;
        let mut row = 0;
        while row < height as usize {
            first_col |= 1 << (row * width as usize);
            row += 1;
        }
        Board {
            width,
            height,
            all,
            first_col,
            not_first_col: all & !first_col,
            not_last_col: all & !(first_col << (width - 1)),
        }
    }

    /// How many cells it has.
    #[inline]
    pub const fn cells(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The bit of a cell, which must be on the board.
    #[inline]
    pub const fn bit(self, cell: Cell) -> u128 {
        1 << cell.index(self.width)
    }

    /// The bit of a cell, or none for a cell off the board.
    #[inline]
    pub const fn bit_if_on(self, cell: Cell) -> u128 {
        if self.contains(cell) {
            self.bit(cell)
        } else {
            0
        }
    }

    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        cell.col < self.width && cell.row < self.height
    }

    /// The cell of bit `index`.
    #[inline]
    pub const fn cell_at(self, index: usize) -> Cell {
        Cell::from_index(index, self.width)
    }

    /// Every cell of columns `from..=to`.
    pub const fn cols(self, from: u8, to: u8) -> u128 {
        let mut mask = 0;
        let mut col = from;
        while col <= to {
            mask |= self.col(col);
            col += 1;
        }
        mask
    }

    /// Every cell of column `col`.
    #[inline]
    pub const fn col(self, col: u8) -> u128 {
        self.first_col << col
    }

    /// Every cell of row `row`.
    #[inline]
    pub const fn row(self, row: u8) -> u128 {
        (u128::MAX >> (128 - self.width as usize)) << (row as usize * self.width as usize)
    }

    /// `set` moved one column right, one column left, one row down and one
    /// row up; what leaves the board is dropped.
    #[inline]
    pub const fn right(self, set: u128) -> u128 {
        (set << 1) & self.not_first_col
    }

    #[inline]
    pub const fn left(self, set: u128) -> u128 {
        (set >> 1) & self.not_last_col
    }

    #[inline]
    pub const fn down(self, set: u128) -> u128 {
        (set << self.width) & self.all
    }

    #[inline]
    pub const fn up(self, set: u128) -> u128 {
        set >> self.width
    }

    /// `set` and every cell orthogonally next to one of its cells.
    #[inline]
    pub const fn grow(self, set: u128) -> u128 {
        set | self.right(set) | self.left(set) | self.down(set) | self.up(set)
    }

    /// The cells orthogonally next to `set`, outside it.
    #[inline]
    pub const fn around(self, set: u128) -> u128 {
        self.grow(set) & !set
    }

    /// The bits of the cells orthogonally next to bit `index`.
    #[inline]
    pub fn neighbours(self, index: usize) -> impl Iterator<Item = usize> {
        bits(self.around(1 << index))
    }

    /// The cells of `cells` connected to `seed` (a subset of them) by
    /// orthogonal steps within `cells`.
    #[inline]
    pub fn group(self, cells: u128, seed: u128) -> u128 {
        let mut group = seed & cells;
        loop {
            let next = self.grow(group) & cells;
            if next == group {
                return group;
            }
            group = next;
        }
    }

    /// The orthogonally connected groups of `cells`, in reading order of
    /// their first cells.
    #[inline]
    pub fn groups(self, mut cells: u128) -> impl Iterator<Item = u128> {
        std::iter::from_fn(move || {
            (cells != 0).then(|| {
                let group = self.group(cells, cells & cells.wrapping_neg());
                cells &= !group;
                group
            })
        })
    }

    /// The cells of `set`, in reading order.
    #[inline]
    pub fn cells_of(self, set: u128) -> impl Iterator<Item = Cell> {
        bits(set).map(move |i| self.cell_at(i))
    }

    /// Where a `width` × `height` box lies wholly on the board: the cells
    /// that can be its top-left corner.
    pub const fn anchors(self, width: u8, height: u8) -> u128 {
        if width == 0 || height == 0 || width > self.width || height > self.height {
            return 0;
        }
        let mut anchors = 0;
        let mut row = 0;
        while row + height <= self.height {
            anchors |= self.row(row) & self.cols(0, self.width - width);
            row += 1;
        }
        anchors
    }

    /// The cells at `(column, row)` offsets from A1, which must be on the board.
    pub fn mask(self, offsets: impl IntoIterator<Item = (u8, u8)>) -> u128 {
        offsets
            .into_iter()
            .fold(0, |m, (col, row)| m | self.bit(Cell::new(col, row)))
    }
}

/// The bits set in `set`, lowest first.
#[inline]
pub fn bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// The `n`-th set bit of `set` (0-based, lowest first), which must exist:
/// a uniform draw among a set's cells without listing them.
#[inline]
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

/// The connected groups of a set of cells, labelled: each cell's group and
/// each group's size, so that what a new cell would join is read at once.
#[derive(Clone, Debug)]
pub struct Groups {
    board: Board,
    label: [u8; 128],
    sizes: Vec<u32>,
}

const NONE: u8 = u8::MAX;

impl Groups {
    /// The groups of `cells`, numbered in reading order of their first cells.
    pub fn of(board: Board, cells: u128) -> Groups {
        Groups::from_groups(board, board.groups(cells))
    }

    /// Groups already found (disjoint), numbered in the order given.
    pub fn from_groups(board: Board, groups: impl IntoIterator<Item = u128>) -> Groups {
        let mut labelled = Groups {
            board,
            label: [NONE; 128],
            sizes: Vec::new(),
        };
        for (id, group) in groups.into_iter().enumerate() {
            for i in bits(group) {
                labelled.label[i] = id as u8;
            }
            labelled.sizes.push(group.count_ones());
        }
        labelled
    }

    /// The sizes of the groups, by number.
    #[inline]
    pub fn sizes(&self) -> &[u32] {
        &self.sizes
    }

    /// The distinct groups orthogonally next to bit `index`, by number.
    #[inline]
    pub fn next_to(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        let mut seen = [NONE; 4];
        self.board
            .neighbours(index)
            .enumerate()
            .filter_map(move |(k, n)| {
                let l = self.label[n];
                (l != NONE && !seen.contains(&l)).then(|| {
                    seen[k] = l;
                    l as usize
                })
            })
    }

    /// The size of the group a new cell at bit `index` would be part of:
    /// itself and every group next to it.
    #[inline]
    pub fn joined(&self, index: usize) -> u32 {
        1 + self.next_to(index).map(|g| self.sizes[g]).sum::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NINE: Board = Board::new(9, 9);
    const WALL: Board = Board::new(10, 9);

    fn cells(board: Board, names: &str) -> u128 {
        let cells = crate::grid::parse_cells(names, board.width, board.height).unwrap();
        cells.into_iter().map(|c| board.bit(c)).sum()
    }

    #[test]
    fn masks_cover_the_board_and_its_edges() {
        assert_eq!(NINE.all.count_ones(), 81);
        assert_eq!(Board::new(16, 8).all, u128::MAX);
        assert_eq!(WALL.col(9), cells(WALL, "J1 J2 J3 J4 J5 J6 J7 J8 J9"));
        assert_eq!(WALL.row(8), cells(WALL, "A9 B9 C9 D9 E9 F9 G9 H9 I9 J9"));
        assert_eq!(NINE.cols(0, 3).count_ones(), 36);
        assert_eq!(NINE.bit_if_on(Cell::new(9, 0)), 0);
        assert_eq!(NINE.cell_at(80), Cell::new(8, 8));
    }

    #[test]
    fn neighbours_do_not_wrap_around_rows_or_leave_the_board() {
        for board in [NINE, WALL, Board::new(4, 4)] {
            for i in 0..board.cells() {
                let cell = board.cell_at(i);
                let expected: Vec<usize> = (0..board.cells())
                    .filter(|&j| board.cell_at(j).is_orthogonal_to(cell))
                    .collect();
                let found: Vec<usize> = board.neighbours(i).collect();
                assert_eq!(
                    found, expected,
                    "{cell} on {}×{}",
                    board.width, board.height
                );
            }
            assert_eq!(board.grow(board.all), board.all);
        }
    }

    #[test]
    fn groups_are_connected_and_apart() {
        let row = cells(NINE, "A5 B5 C5 D5 E5 F5 G5 H5 I5");
        let set = row | cells(NINE, "E6 I1 A2 C9");
        let sizes: Vec<u32> = NINE.groups(set).map(u128::count_ones).collect();
        assert_eq!(sizes, [1, 1, 10, 1]);
        let groups = Groups::of(NINE, set);
        assert_eq!(groups.sizes(), [1, 1, 10, 1]);
        // E4 touches the row; B1 touches nothing.
        let at = |name| Cell::parse(name, 9, 9).unwrap().index(9);
        assert_eq!(groups.joined(at("E4")), 11);
        assert_eq!(groups.joined(at("B1")), 1);
        // A1 touches A2, and H1 touches I1: each counted once.
        assert_eq!(groups.next_to(at("A1")).count(), 1);
        assert_eq!(groups.joined(at("C8")), 2);
    }

    #[test]
    fn anchors_keep_a_box_on_the_board() {
        // A 3×2 box on a 10×9 wall: 8 columns by 8 rows of corners.
        let anchors = WALL.anchors(3, 2);
        assert_eq!(anchors.count_ones(), 64);
        assert!(anchors & WALL.col(8) == 0 && anchors & WALL.row(8) == 0);
        assert_eq!(WALL.anchors(10, 9), 1);
        assert_eq!(WALL.anchors(11, 1), 0);
        assert_eq!(WALL.mask([(0, 0), (1, 0), (0, 1)]), cells(WALL, "A1 B1 A2"));
    }

    #[test]
    fn bits_are_listed_and_drawn_in_order() {
        let set = 1 << 3 | 1 << 64 | 1 << 70 | 1 << 127;
        assert_eq!(bits(set).collect::<Vec<_>>(), [3, 64, 70, 127]);
        for (n, i) in bits(set).enumerate() {
            assert_eq!(nth_bit(set, n as u32), i);
        }
        let names: Vec<String> = NINE
            .cells_of(cells(NINE, "C3 A1"))
            .map(|c| c.to_string())
            .collect();
        assert_eq!(names, ["A1", "C3"]);
    }
}
