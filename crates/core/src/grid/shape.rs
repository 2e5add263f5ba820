//! The eight rotations and reflections of a square grid, and shapes (sets
//! of cells) moved by them: a piece turned and flipped, an outline put down
//! another way.
//!
//! ```
//! use umpire_core::grid::{Symmetry, normalize};
//!
//! // An L of three cells, turned a quarter clockwise: y grows downwards.
//! let l = [(0, 0), (0, 1), (1, 1)];
//! let turned: Vec<(i8, i8)> = l.iter().map(|&c| Symmetry::CLOCKWISE.apply(c)).collect();
//! assert_eq!(normalize(&turned), [(0, 0), (1, 0), (0, 1)]);
//! assert_eq!(Symmetry::CLOCKWISE.then(Symmetry::ANTICLOCKWISE), Symmetry::IDENTITY);
//! ```

/// A rotation or reflection as a matrix `[a, b, c, d]`: `(x, y)` goes to
/// `(a·x + b·y, c·x + d·y)`, with `x` growing rightwards and `y` downwards
/// (columns and rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry(pub [i8; 4]);

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry([1, 0, 0, 1]);
    /// A quarter turn clockwise, as seen on a board drawn with row 1 on top.
    pub const CLOCKWISE: Symmetry = Symmetry([0, -1, 1, 0]);
    pub const HALF_TURN: Symmetry = Symmetry([-1, 0, 0, -1]);
    pub const ANTICLOCKWISE: Symmetry = Symmetry([0, 1, -1, 0]);
    /// A mirror that swaps left and right.
    pub const LEFT_RIGHT: Symmetry = Symmetry([-1, 0, 0, 1]);
    /// A mirror that swaps top and bottom.
    pub const TOP_BOTTOM: Symmetry = Symmetry([1, 0, 0, -1]);
    /// A mirror in the diagonal from the top-left corner.
    pub const DIAGONAL: Symmetry = Symmetry([0, 1, 1, 0]);
    /// A mirror in the diagonal from the top-right corner.
    pub const ANTIDIAGONAL: Symmetry = Symmetry([0, -1, -1, 0]);

    /// All eight: the four turns (none, clockwise, half, anticlockwise),
    /// then the four mirrors.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::IDENTITY,
        Symmetry::CLOCKWISE,
        Symmetry::HALF_TURN,
        Symmetry::ANTICLOCKWISE,
        Symmetry::LEFT_RIGHT,
        Symmetry::TOP_BOTTOM,
        Symmetry::DIAGONAL,
        Symmetry::ANTIDIAGONAL,
    ];

    /// This one, then `next`.
    pub const fn then(self, next: Symmetry) -> Symmetry {
        let ([a, b, c, d], [e, f, g, h]) = (next.0, self.0);
        Symmetry([a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h])
    }

    /// Where it sends the point `(x, y)`.
    pub fn apply<T>(self, (x, y): (T, T)) -> (T, T)
    where
        T: Copy + From<i8> + std::ops::Mul<Output = T> + std::ops::Add<Output = T>,
    {
        let [a, b, c, d] = self.0.map(T::from);
        (a * x + b * y, c * x + d * y)
    }
}

/// `cells` moved so that their bounding box starts at `(0, 0)`, in reading
/// order (row by row): one shape, wherever it was.
pub fn normalize<T>(cells: &[(T, T)]) -> Vec<(T, T)>
where
    T: Copy + Ord + Default + std::ops::Sub<Output = T>,
{
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or_default();
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or_default();
    let mut out: Vec<(T, T)> = cells.iter().map(|&(x, y)| (x - min_x, y - min_y)).collect();
    out.sort_by_key(|&(x, y)| (y, x));
    out
}

/// A shape's cells from a picture: rows top to bottom separated by `/`,
/// `#` a cell of the shape, `.` none (`"#./##"` is an L of three), as
/// `(column, row)` offsets from its top-left corner, in reading order.
pub fn picture_cells(picture: &str) -> Vec<(i8, i8)> {
    let mut cells = Vec::new();
    for (y, row) in picture.split('/').enumerate() {
        for (x, c) in row.chars().enumerate() {
            if c == '#' {
                cells.push((x as i8, y as i8));
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_form_a_group_of_turns_and_mirrors() {
        for g in Symmetry::ALL {
            for h in Symmetry::ALL {
                assert!(Symmetry::ALL.contains(&g.then(h)), "{g:?} then {h:?}");
            }
            let inverse = Symmetry::ALL
                .iter()
                .filter(|&&h| g.then(h) == Symmetry::IDENTITY);
            assert_eq!(inverse.count(), 1, "{g:?}");
        }
        let c = Symmetry::CLOCKWISE;
        assert_eq!(c.then(c), Symmetry::HALF_TURN);
        assert_eq!(c.then(c).then(c), Symmetry::ANTICLOCKWISE);
        // Mirrored left-right, then turned: the other mirrors.
        let m = Symmetry::LEFT_RIGHT;
        assert_eq!(m.then(c), Symmetry::ANTIDIAGONAL);
        assert_eq!(m.then(c).then(c), Symmetry::TOP_BOTTOM);
        assert_eq!(m.then(c).then(c).then(c), Symmetry::DIAGONAL);
    }

    #[test]
    fn a_clockwise_turn_takes_the_top_to_the_right() {
        // The bar of a T along the top goes to the right side.
        let t = picture_cells("###/.#./.#.");
        let turned: Vec<(i8, i8)> = t.iter().map(|&p| Symmetry::CLOCKWISE.apply(p)).collect();
        assert_eq!(normalize(&turned), picture_cells("..#/###/..#"));
        let wide: Vec<(i32, i32)> = [(0, 0), (1, 0)]
            .map(|p| Symmetry::DIAGONAL.apply(p))
            .to_vec();
        assert_eq!(normalize(&wide), [(0, 0), (0, 1)]);
    }
}
