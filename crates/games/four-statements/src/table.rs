//! Sets of colourings of a few cells: what a statement's truth, or a fact a
//! seat learned, allows of the cells it speaks of.
//!
//! A colouring of the cells `c_0 < c_1 < … < c_{n-1}` of a [`CellSet`] (in
//! reading order) is numbered `k = Σ colour(c_j) · 4^j`, so a table over n
//! cells has `4^n` bits.

use crate::grid::{CellSet, Colour, Grid};

/// A set of colourings of `cells`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Table {
    cells: CellSet,
    bits: Vec<u64>,
}

impl Table {
    /// No colouring of `cells`.
    pub fn none(cells: CellSet) -> Table {
        let n = 1usize << (2 * cells.len());
        Table {
            cells,
            bits: vec![0; n.div_ceil(64)],
        }
    }

    /// Every colouring of `cells`.
    pub fn all(cells: CellSet) -> Table {
        let mut t = Table::none(cells);
        (0..t.size()).for_each(|k| t.insert(k));
        t
    }

    /// The colourings of `cells` for which `f` holds; `f` is given a grid
    /// with those cells coloured and every other cell red.
    pub fn from_fn(cells: CellSet, mut f: impl FnMut(Grid) -> bool) -> Table {
        let mut t = Table::none(cells);
        for k in 0..t.size() {
            if f(Table::grid_of(cells, k)) {
                t.insert(k);
            }
        }
        t
    }

    /// The colourings numbered by the set bits of `bits` (`4^n` of them, in
    /// words of 64).
    pub(crate) fn from_bits(cells: CellSet, bits: Vec<u64>) -> Table {
        let t = Table { cells, bits };
        debug_assert_eq!(t.bits.len(), t.size().div_ceil(64));
        t
    }

    pub fn cells(&self) -> CellSet {
        self.cells
    }

    /// Colourings of the cells: `4^n`.
    pub fn size(&self) -> usize {
        1 << (2 * self.cells.len())
    }

    pub fn contains(&self, k: usize) -> bool {
        self.bits[k / 64] & (1 << (k % 64)) != 0
    }

    pub fn insert(&mut self, k: usize) {
        self.bits[k / 64] |= 1 << (k % 64);
    }

    /// Whether `grid`'s colouring of the cells is in the set.
    pub fn allows(&self, grid: Grid) -> bool {
        self.contains(Table::local_index(self.cells, grid))
    }

    /// Colourings in the set.
    pub fn count(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The colourings in both sets (over the same cells).
    #[must_use]
    pub fn and(&self, other: &Table) -> Table {
        assert_eq!(self.cells, other.cells, "tables over different cells");
        Table {
            cells: self.cells,
            bits: self
                .bits
                .iter()
                .zip(&other.bits)
                .map(|(a, b)| a & b)
                .collect(),
        }
    }

    /// The colourings of `cells` in exactly `n` of `sets` (all over
    /// `cells`); with no sets, all of them when `n` is 0. Counted 64
    /// colourings at a time, in bit-sliced counters.
    pub fn exactly(cells: CellSet, n: usize, sets: &[Table]) -> Table {
        let mut t = Table::none(cells);
        let size = t.size();
        for (w, word) in t.bits.iter_mut().enumerate() {
            // counters[b]: bit b of each colouring's count so far.
            let mut counters = [0u64; 8];
            for set in sets {
                let mut carry = set.bits[w];
                for c in &mut counters {
                    let next = *c & carry;
                    *c ^= carry;
                    carry = next;
                }
            }
            *word = counters
                .iter()
                .enumerate()
                .fold(!0, |m, (b, c)| m & if n >> b & 1 == 1 { *c } else { !*c });
        }
        if size < 64 {
            t.bits[0] &= (1u64 << size) - 1;
        }
        t
    }

    /// The colourings not in the set.
    #[must_use]
    pub fn not(&self) -> Table {
        let mut t = self.clone();
        for w in &mut t.bits {
            *w = !*w;
        }
        let size = self.size();
        if size < 64 {
            t.bits[0] &= (1u64 << size) - 1;
        }
        t
    }

    /// The number of `grid`'s colouring of `cells`.
    pub fn local_index(cells: CellSet, grid: Grid) -> usize {
        cells
            .indices()
            .enumerate()
            .map(|(j, i)| (grid.get(i) as usize) << (2 * j))
            .sum()
    }

    /// Colouring `k` of `cells` on an otherwise red grid.
    pub fn grid_of(cells: CellSet, k: usize) -> Grid {
        cells.indices().enumerate().fold(Grid(0), |g, (j, i)| {
            g.with(i, Colour::from_index((k >> (2 * j)) as u8))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_round_trips() {
        let cells = CellSet::parse("B1 A2 C3").unwrap();
        let t = Table::from_fn(cells, |g| g.get(4) == Colour::Green);
        assert_eq!(t.size(), 64);
        assert_eq!(t.count(), 16);
        assert_eq!(t.not().count(), 48);
        for k in 0..64 {
            assert_eq!(Table::local_index(cells, Table::grid_of(cells, k)), k);
        }
    }

    #[test]
    fn exactly_counts_membership() {
        let cells = CellSet::parse("A1 B1 C1 D1").unwrap();
        let sets: Vec<Table> = (0..4)
            .map(|c| {
                Table::from_fn(cells, |g| {
                    (0..4).filter(|&i| g.get(i) as usize == c).count() >= 2
                })
            })
            .collect();
        for n in 0..=5 {
            let t = Table::exactly(cells, n, &sets);
            for k in 0..t.size() {
                let inside = sets.iter().filter(|s| s.contains(k)).count();
                assert_eq!(t.contains(k), inside == n, "n {n}, colouring {k}");
            }
        }
        assert_eq!(Table::exactly(cells, 0, &[]).count(), 256);
        assert_eq!(Table::exactly(cells, 1, &[]).count(), 0);
    }
}
