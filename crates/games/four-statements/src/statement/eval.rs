//! Evaluation over colour bitmasks, truth tables, the validity check and
//! random statements.
//!
//! A colouring of the subset is four 16-bit masks, one per colour, each
//! inside the subset; every atom is a few shifts and popcounts on them.

use rand::{Rng, RngExt};

use super::{
    Adjacency, Atom, Comparison, Count, Invalid, Line, Literal, Position, Quantifier, Statement,
};
use crate::grid::{self, CellSet, Colour, Grid};

/// Cells with a column to their left / right.
const NOT_A: u16 = 0xEEEE;
const NOT_D: u16 = 0x7777;

/// Subsets up to this many cells are checked over their whole truth table.
const EXACT_CELLS: usize = 10;

fn orthogonal(m: u16) -> u16 {
    m << 4 | m >> 4 | (m << 1 & NOT_A) | (m >> 1 & NOT_D)
}

fn diagonal(m: u16) -> u16 {
    (m << 5 & NOT_A) | (m << 3 & NOT_D) | (m >> 3 & NOT_A) | (m >> 5 & NOT_D)
}

fn neighbours(m: u16, adjacency: Adjacency) -> u16 {
    match adjacency {
        Adjacency::Any => orthogonal(m) | diagonal(m),
        Adjacency::Orthogonal => orthogonal(m),
        Adjacency::Diagonal => diagonal(m),
    }
}

fn group_adjacency(orthogonal: bool) -> Adjacency {
    if orthogonal {
        Adjacency::Orthogonal
    } else {
        Adjacency::Any
    }
}

/// The connected part of `m` holding its lowest cell.
fn component(m: u16, adjacency: Adjacency) -> u16 {
    let mut reached = m & m.wrapping_neg();
    loop {
        let next = reached | (neighbours(reached, adjacency) & m);
        if next == reached {
            return reached;
        }
        reached = next;
    }
}

fn largest_group(mut m: u16, adjacency: Adjacency) -> u32 {
    let mut best = 0;
    while m != 0 {
        let c = component(m, adjacency);
        best = best.max(c.count_ones());
        m &= !c;
    }
    best
}

/// The four colour masks of `grid` over `subset`.
pub(super) fn masks_of(subset: CellSet, grid: Grid) -> [u16; 4] {
    let mut masks = [0u16; 4];
    for i in subset.indices() {
        masks[grid.get(i) as usize] |= 1 << i;
    }
    masks
}

/// What a subset gives every evaluation: its cells, 2×2 squares, rows and
/// columns, and the cells named by position.
pub(super) struct Frame {
    subset: u16,
    cells: Vec<u16>,
    squares: Vec<u16>,
    rows: Vec<u16>,
    columns: Vec<u16>,
    positions: [u16; 4],
}

impl Frame {
    pub(super) fn new(subset: CellSet) -> Frame {
        let s = subset.0;
        let cells: Vec<u16> = subset.indices().map(|i| 1 << i).collect();
        let mut squares = Vec::new();
        for r in 0..3 {
            for c in 0..3 {
                let sq = 0x33u16 << (r * 4 + c);
                if s & sq == sq {
                    squares.push(sq);
                }
            }
        }
        let rows = (0..4)
            .map(|r| 0xFu16 << (4 * r) & s)
            .filter(|&m| m != 0)
            .collect();
        let columns: Vec<u16> = (0..4)
            .map(|c| 0x1111u16 << c & s)
            .filter(|&m| m != 0)
            .collect();
        let lowest = |m: u16| m & m.wrapping_neg();
        let col_of = |c: usize| 0x1111u16 << c & s;
        let row_of = |r: usize| 0xFu16 << (4 * r) & s;
        let first_col = (0..4).map(col_of).find(|&m| m != 0).unwrap_or(0);
        let last_col = (0..4).rev().map(col_of).find(|&m| m != 0).unwrap_or(0);
        let first_row = (0..4).map(row_of).find(|&m| m != 0).unwrap_or(0);
        let last_row = (0..4).rev().map(row_of).find(|&m| m != 0).unwrap_or(0);
        Frame {
            subset: s,
            cells,
            squares,
            rows,
            columns,
            positions: [
                lowest(first_col),
                lowest(last_col),
                lowest(first_row),
                lowest(last_row),
            ],
        }
    }

    fn atom(&self, atom: &Atom, m: &[u16; 4]) -> bool {
        let n = |c: Colour| m[c as usize].count_ones();
        match *atom {
            Atom::Count { colour, count } => count.holds(n(colour)),
            Atom::Compare {
                left,
                comparison,
                right,
            } => match comparison {
                Comparison::More => n(left) > n(right),
                Comparison::Fewer => n(left) < n(right),
                Comparison::AsMany => n(left) == n(right),
            },
            Atom::Colours(count) => count.holds(m.iter().filter(|&&x| x != 0).count() as u32),
            Atom::Adjacent { a, b, adjacency } => {
                neighbours(m[a as usize], adjacency) & m[b as usize] != 0
            }
            Atom::SameColourNeighbours(adjacency) => {
                m.iter().any(|&x| neighbours(x, adjacency) & x != 0)
            }
            Atom::Square {
                quantifier,
                colour,
                count,
            } => {
                let x = m[colour as usize];
                let holds = |sq: &u16| count.holds((x & sq).count_ones());
                match quantifier {
                    Quantifier::Some => self.squares.iter().any(holds),
                    Quantifier::Every => !self.squares.is_empty() && self.squares.iter().all(holds),
                }
            }
            Atom::Largest {
                colour,
                orthogonal,
                count,
            } => {
                let adj = group_adjacency(orthogonal);
                let size = match colour {
                    Some(c) => largest_group(m[c as usize], adj),
                    None => m.iter().map(|&x| largest_group(x, adj)).max().unwrap_or(0),
                };
                count.holds(size)
            }
            Atom::Connected { colour, orthogonal } => {
                let x = m[colour as usize];
                x == 0 || component(x, group_adjacency(orthogonal)) == x
            }
            Atom::Lines {
                line,
                quantifier,
                colour,
                count,
            } => {
                let x = m[colour as usize];
                let lines = match line {
                    Line::Row => &self.rows,
                    Line::Column => &self.columns,
                };
                let holds = |l: &u16| count.holds((x & l).count_ones());
                match quantifier {
                    Quantifier::Some => lines.iter().any(holds),
                    Quantifier::Every => !lines.is_empty() && lines.iter().all(holds),
                }
            }
            Atom::Tile { position, colour } => {
                let p = self.positions[match position {
                    Position::Leftmost => 0,
                    Position::Rightmost => 1,
                    Position::Top => 2,
                    Position::Bottom => 3,
                }];
                p != 0 && m[colour as usize] & p != 0
            }
        }
    }

    fn literal(&self, l: &Literal, m: &[u16; 4]) -> bool {
        self.atom(&l.atom, m) != l.negated
    }

    /// The statement's truth on the colour masks `m` (inside the subset).
    pub(super) fn eval(&self, s: &Statement, m: &[u16; 4]) -> bool {
        if let [x] = s.any.as_slice() {
            if let [a] = x.as_slice() {
                return a.iter().all(|l| self.literal(l, m));
            }
        }
        s.any.iter().any(|x| {
            x.iter()
                .fold(false, |acc, a| acc ^ a.iter().all(|l| self.literal(l, m)))
        })
    }

    /// The colour masks of every colouring of `cells`, by number.
    fn all_masks(cells: &[u16]) -> Vec<[u16; 4]> {
        let mut out = vec![[0u16; 4]; 1 << (2 * cells.len())];
        for (k, m) in out.iter_mut().enumerate() {
            for (j, &bit) in cells.iter().enumerate() {
                m[(k >> (2 * j)) & 3] |= bit;
            }
        }
        out
    }

    /// The truth of colouring k at bit k.
    pub(super) fn truth_bits(&self, s: &Statement) -> Vec<u64> {
        let n = self.cells.len();
        let size = 1usize << (2 * n);
        let mut bits = vec![0u64; size.div_ceil(64)];
        // Colourings of the low cells and of the high cells, combined.
        let split = n.min(4);
        let low = Frame::all_masks(&self.cells[..split]);
        let high = Frame::all_masks(&self.cells[split..]);
        let shift = 2 * split;
        for (h, hm) in high.iter().enumerate() {
            for (l, lm) in low.iter().enumerate() {
                let m = [lm[0] | hm[0], lm[1] | hm[1], lm[2] | hm[2], lm[3] | hm[3]];
                if self.eval(s, &m) {
                    let k = h << shift | l;
                    bits[k / 64] |= 1 << (k % 64);
                }
            }
        }
        bits
    }

    fn cell(&self, j: usize) -> umpire_core::Cell {
        grid::cell(self.cells[j].trailing_zeros() as usize)
    }

    /// The 2×2 rule and the every-tile-matters rule.
    pub(super) fn check(&self, s: &Statement) -> Result<(), Invalid> {
        let squares = s.literals().any(|l| matches!(l.atom, Atom::Square { .. }));
        if squares {
            let covered = self.squares.iter().fold(0, |a, &b| a | b);
            if let Some(j) = (0..self.cells.len()).find(|&j| self.cells[j] & covered == 0) {
                return Err(Invalid::NotInSquare(self.cell(j)));
            }
        }
        if self.cells.is_empty() {
            return Ok(());
        }
        let symmetric = s.literals().all(|l| {
            matches!(
                l.atom,
                Atom::Count { .. } | Atom::Compare { .. } | Atom::Colours(_)
            )
        });
        // A witness for every cell proves validity; look for them cheaply
        // before the exact search.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(0x5EED);
        let unwitnessed = if symmetric {
            self.symmetric_unwitnessed(s)
        } else if self.sampled_unwitnessed(s, &mut rng, 100).is_none() {
            None
        } else if self.cells.len() <= EXACT_CELLS {
            self.exact_unwitnessed(s)
        } else {
            self.sampled_unwitnessed(s, &mut rng, 4000)
        };
        match unwitnessed {
            Some(j) => Err(Invalid::CellDoesNotMatter(self.cell(j))),
            None => Ok(()),
        }
    }

    /// The first cell whose colour never changes the truth, from the whole
    /// truth table.
    fn exact_unwitnessed(&self, s: &Statement) -> Option<usize> {
        let bits = self.truth_bits(s);
        let bit = |k: usize| bits[k / 64] >> (k % 64) & 1;
        let size = 1usize << (2 * self.cells.len());
        (0..self.cells.len()).find(|&j| {
            let step = 1usize << (2 * j);
            !(0..size).filter(|k| k >> (2 * j) & 3 == 0).any(|k| {
                let b = bit(k);
                bit(k + step) != b || bit(k + 2 * step) != b || bit(k + 3 * step) != b
            })
        })
    }

    /// For statements that depend only on how many tiles have each colour:
    /// all cells matter alike, so look for counts where recolouring one tile
    /// changes the truth.
    fn symmetric_unwitnessed(&self, s: &Statement) -> Option<usize> {
        let n = self.cells.len();
        let masks_for = |v: [usize; 4]| {
            let mut m = [0u16; 4];
            let mut j = 0;
            for (c, &k) in v.iter().enumerate() {
                for _ in 0..k {
                    m[c] |= self.cells[j];
                    j += 1;
                }
            }
            m
        };
        for r in 0..=n {
            for b in 0..=n - r {
                for g in 0..=n - r - b {
                    let v = [r, b, g, n - r - b - g];
                    let t = self.eval(s, &masks_for(v));
                    for x in 0..4 {
                        if v[x] == 0 {
                            continue;
                        }
                        for y in 0..4 {
                            if y != x {
                                let mut w = v;
                                w[x] -= 1;
                                w[y] += 1;
                                if self.eval(s, &masks_for(w)) != t {
                                    return None;
                                }
                            }
                        }
                    }
                }
            }
        }
        Some(0)
    }

    /// The first cell for which no witness was found among `tries` random
    /// colourings of the others (a witness proves the cell matters; not
    /// finding one is a strong hint it does not).
    pub(super) fn sampled_unwitnessed<R: Rng + ?Sized>(
        &self,
        s: &Statement,
        rng: &mut R,
        tries: usize,
    ) -> Option<usize> {
        (0..self.cells.len()).find(|&j| !self.witness(s, j, rng, tries))
    }

    fn witness<R: Rng + ?Sized>(&self, s: &Statement, j: usize, rng: &mut R, tries: usize) -> bool {
        let bit = self.cells[j];
        for t in 0..tries {
            let base = match t % 5 {
                3 => self.proper(bit, Adjacency::Orthogonal, rng),
                4 => self.proper(bit, Adjacency::Any, rng),
                mode => self.mixed(bit, mode, rng),
            };
            let mut first = None;
            for col in 0..4 {
                let mut mm = base;
                mm[col] |= bit;
                let v = self.eval(s, &mm);
                match first {
                    None => first = Some(v),
                    Some(f) if f != v => return true,
                    _ => {}
                }
            }
        }
        false
    }

    /// A random colouring of the cells but `skip`: uniform, dominated by
    /// one colour, or of mostly one or two colours.
    fn mixed<R: Rng + ?Sized>(&self, skip: u16, mode: usize, rng: &mut R) -> [u16; 4] {
        let weights: [u32; 4] = match mode {
            0 => [1, 1, 1, 1],
            1 => {
                let mut w = [1, 1, 1, 1];
                w[rng.random_range(0..4)] = 12;
                w
            }
            _ => {
                let mut w = [0, 0, 0, 0];
                w[rng.random_range(0..4)] = 3;
                w[rng.random_range(0..4)] += 1;
                w
            }
        };
        let total: u32 = weights.iter().sum();
        let mut m = [0u16; 4];
        for &c in &self.cells {
            if c == skip {
                continue;
            }
            let mut r = rng.random_range(0..total);
            let mut col = 0;
            while r >= weights[col] {
                r -= weights[col];
                col += 1;
            }
            m[col] |= c;
        }
        m
    }

    /// A random colouring of the cells but `skip` where neighbours differ
    /// when the greedy choice allows it.
    fn proper<R: Rng + ?Sized>(&self, skip: u16, adjacency: Adjacency, rng: &mut R) -> [u16; 4] {
        let mut m = [0u16; 4];
        for &c in &self.cells {
            if c == skip {
                continue;
            }
            let near = neighbours(c, adjacency);
            let free: Vec<usize> = (0..4).filter(|&k| m[k] & near == 0).collect();
            let col = if free.is_empty() {
                rng.random_range(0..4)
            } else {
                free[rng.random_range(0..free.len())]
            };
            m[col] |= c;
        }
        m
    }

    fn subset(&self) -> CellSet {
        CellSet(self.subset)
    }
}

use rand::SeedableRng;

fn colour<R: Rng + ?Sized>(rng: &mut R) -> Colour {
    Colour::from_index(rng.random_range(0..4u8))
}

fn count<R: Rng + ?Sized>(rng: &mut R, max: u8) -> Count {
    let k = rng.random_range(0..=max);
    match rng.random_range(0..3) {
        0 => Count::AtLeast(k),
        1 => Count::Exactly(k),
        _ => Count::AtMost(k),
    }
}

fn adjacency<R: Rng + ?Sized>(rng: &mut R) -> Adjacency {
    match rng.random_range(0..3) {
        0 => Adjacency::Any,
        1 => Adjacency::Orthogonal,
        _ => Adjacency::Diagonal,
    }
}

/// A random atom sized for `n` cells (`squares`: whether 2×2 atoms fit).
fn random_atom<R: Rng + ?Sized>(rng: &mut R, n: u8, squares: bool) -> Atom {
    let line = |rng: &mut R| {
        if rng.random_bool(0.5) {
            Line::Row
        } else {
            Line::Column
        }
    };
    let quantifier = |rng: &mut R| {
        if rng.random_bool(0.5) {
            Quantifier::Some
        } else {
            Quantifier::Every
        }
    };
    match rng.random_range(0..if squares { 10 } else { 9 }) {
        0 | 1 => Atom::Count {
            colour: colour(rng),
            count: count(rng, n.clamp(1, 4)),
        },
        2 => Atom::Compare {
            left: colour(rng),
            comparison: match rng.random_range(0..3) {
                0 => Comparison::More,
                1 => Comparison::Fewer,
                _ => Comparison::AsMany,
            },
            right: colour(rng),
        },
        3 => Atom::Colours(count(rng, 4)),
        4 => Atom::Adjacent {
            a: colour(rng),
            b: colour(rng),
            adjacency: adjacency(rng),
        },
        5 => Atom::SameColourNeighbours(adjacency(rng)),
        6 => Atom::Largest {
            colour: rng.random_bool(0.6).then(|| colour(rng)),
            orthogonal: rng.random_bool(0.3),
            count: count(rng, n.clamp(1, 4)),
        },
        7 => Atom::Connected {
            colour: colour(rng),
            orthogonal: rng.random_bool(0.4),
        },
        8 => Atom::Lines {
            line: line(rng),
            quantifier: quantifier(rng),
            colour: colour(rng),
            count: count(rng, 2),
        },
        _ => Atom::Square {
            quantifier: quantifier(rng),
            colour: colour(rng),
            count: count(rng, 3),
        },
    }
}

fn random_literal<R: Rng + ?Sized>(rng: &mut R, n: u8, squares: bool) -> Literal {
    Literal {
        negated: rng.random_bool(0.15),
        atom: random_atom(rng, n, squares),
    }
}

/// A random statement valid for `subset`: random atoms and combinations of
/// two, kept once a witness shows every cell matters (so it always passes
/// [`Statement::check`]); after a few hundred misses, "At least one tile is
/// red.", valid for every non-empty subset.
pub fn random<R: Rng + ?Sized>(subset: CellSet, rng: &mut R) -> Statement {
    let frame = Frame::new(subset);
    let n = subset.len() as u8;
    let squares =
        !frame.squares.is_empty() && frame.squares.iter().fold(0, |a, &b| a | b) == frame.subset;
    for _ in 0..300 {
        let first = random_literal(rng, n, squares);
        let s = match rng.random_range(0..10) {
            0..=5 => Statement::literal(first),
            6 | 7 => Statement {
                any: vec![vec![vec![first, random_literal(rng, n, squares)]]],
            },
            8 => Statement {
                any: vec![
                    vec![vec![first]],
                    vec![vec![random_literal(rng, n, squares)]],
                ],
            },
            _ => Statement {
                any: vec![vec![vec![first], vec![random_literal(rng, n, squares)]]],
            },
        };
        if s.words() > super::MAX_WORDS {
            continue;
        }
        if frame.sampled_unwitnessed(&s, rng, 24).is_none() {
            debug_assert_eq!(frame.subset(), subset);
            return s;
        }
    }
    Statement::from(Atom::Count {
        colour: Colour::Red,
        count: Count::AtLeast(1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn witnesses_found() {
        let sub = CellSet::parse("A1 B1 C1 A2 B2 C2 A3 B3").unwrap();
        let f = Frame::new(sub);
        for text in [
            "The largest red group has at least three tiles.",
            "No two orthogonally adjacent tiles share a colour.",
        ] {
            let s: Statement = text.parse().unwrap();
            let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
            assert!((0..8).all(|j| f.witness(&s, j, &mut rng, 100)), "{text}");
        }
    }
}
