//! The 9×9 board as bitboards: bit `row * 9 + col` is a cell.

use umpire_core::Cell;

pub const SIZE: u8 = 9;
pub const CELLS: usize = 81;
pub const BOARD: u128 = (1u128 << CELLS) - 1;
/// Every cell but those in column I: a cell whose right neighbour is on the board.
const NOT_LAST_COL: u128 = BOARD & !col_mask(8);
const NOT_FIRST_COL: u128 = BOARD & !col_mask(0);

const fn col_mask(col: u8) -> u128 {
    let mut mask = 0u128;
    let mut row = 0;
    while row < SIZE {
        mask |= 1u128 << (row as usize * SIZE as usize + col as usize);
        row += 1;
    }
    mask
}

pub fn bit(cell: Cell) -> u128 {
    1u128 << cell.index(SIZE)
}

pub fn on_board(cell: Cell) -> bool {
    cell.col < SIZE && cell.row < SIZE
}

/// Cells whose right neighbour is also empty (horizontal domino spots).
pub fn horizontal_spots(empty: u128) -> u128 {
    empty & (empty >> 1) & NOT_LAST_COL
}

/// Cells whose lower neighbour is also empty (vertical domino spots).
pub fn vertical_spots(empty: u128) -> u128 {
    empty & (empty >> SIZE)
}

/// The cells orthogonally next to any cell of `set`, and `set` itself.
fn grow(set: u128) -> u128 {
    (set | (set << 1) & NOT_FIRST_COL | (set >> 1) & NOT_LAST_COL | set << SIZE | set >> SIZE)
        & BOARD
}

/// Sizes of the orthogonally connected groups of `cells`, largest first.
pub fn group_sizes(mut cells: u128) -> Vec<u32> {
    let mut sizes = Vec::new();
    while cells != 0 {
        let mut group = cells & cells.wrapping_neg();
        loop {
            let next = grow(group) & cells;
            if next == group {
                break;
            }
            group = next;
        }
        sizes.push(group.count_ones());
        cells &= !group;
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
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

pub fn cell_at(index: usize) -> Cell {
    Cell::from_index(index, SIZE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_do_not_wrap_around_rows() {
        // I1 and A2 are consecutive bits but not neighbours.
        let cells = bit(Cell::new(8, 0)) | bit(Cell::new(0, 1));
        assert_eq!(group_sizes(cells), vec![1, 1]);
        let row: u128 = (0..9).map(|c| bit(Cell::new(c, 4))).sum();
        assert_eq!(group_sizes(row | bit(Cell::new(4, 5))), vec![10]);
    }

    #[test]
    fn spots_stay_on_the_board() {
        assert_eq!(horizontal_spots(BOARD).count_ones(), 72);
        assert_eq!(vertical_spots(BOARD).count_ones(), 72);
        assert_eq!(nth_bit(1 << 70 | 1 << 3, 1), 70);
    }
}
