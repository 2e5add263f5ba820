//! The 9×9 board as bitboards (core's [`Board`]: bit `row * 9 + col` is a
//! cell), and the domino spots on it.

use umpire_core::Board;

pub const SIZE: u8 = 9;
pub const BOARD: Board = Board::new(SIZE, SIZE);

/// Cells whose right neighbour is also empty (horizontal domino spots).
pub fn horizontal_spots(empty: u128) -> u128 {
    empty & BOARD.left(empty)
}

/// Cells whose lower neighbour is also empty (vertical domino spots).
pub fn vertical_spots(empty: u128) -> u128 {
    empty & BOARD.up(empty)
}

/// Sizes of the orthogonally connected groups of `cells`, largest first.
pub fn group_sizes(cells: u128) -> Vec<u32> {
    let mut sizes: Vec<u32> = BOARD.groups(cells).map(u128::count_ones).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spots_stay_on_the_board() {
        assert_eq!(horizontal_spots(BOARD.all).count_ones(), 72);
        assert_eq!(vertical_spots(BOARD.all).count_ones(), 72);
    }
}
