//! Truth on a colouring, as a few shifts and popcounts.
//!
//! A colouring of the subset is four 16-bit masks, one per colour, each
//! inside the subset ([`masks_of`]). A [`Frame`] holds what the subset gives
//! every evaluation: its cells, 2×2 squares, rows and columns.

use std::cell::RefCell;
use std::collections::HashMap;

use super::{Adjacency, Atom, Colours, Line, Position, Quantifier, Side, Statement};
use crate::grid::{CellSet, Grid};
use crate::table::Table;

/// Cells with a column to their left / right.
const NOT_A: u16 = 0xEEEE;
const NOT_D: u16 = 0x7777;

pub(super) fn orthogonal(m: u16) -> u16 {
    m << 4 | m >> 4 | (m << 1 & NOT_A) | (m >> 1 & NOT_D)
}

pub(super) fn diagonal(m: u16) -> u16 {
    (m << 5 & NOT_A) | (m << 3 & NOT_D) | (m >> 3 & NOT_A) | (m >> 5 & NOT_D)
}

/// The cells next to those of `m` (never `m`'s own, for one cell).
pub(super) fn neighbours(m: u16, adjacency: Adjacency) -> u16 {
    match adjacency {
        Adjacency::Any => orthogonal(m) | diagonal(m),
        Adjacency::Orthogonal => orthogonal(m),
        Adjacency::Diagonal => diagonal(m),
    }
}

pub(super) fn group_adjacency(orthogonal: bool) -> Adjacency {
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

/// The sizes of the connected parts of `m`.
fn components(mut m: u16, adjacency: Adjacency) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = component(m, adjacency);
            m &= !c;
            c.count_ones()
        })
    })
}

/// The four colour masks of `grid` over `subset`.
pub(super) fn masks_of(subset: CellSet, grid: Grid) -> [u16; 4] {
    let mut masks = [0u16; 4];
    for i in subset.indices() {
        masks[grid.get(i) as usize] |= 1 << i;
    }
    masks
}

fn union(m: &[u16; 4], c: Colours) -> u16 {
    c.iter().fold(0, |acc, c| acc | m[c as usize])
}

/// The cell a position names in `subset`, and whether it is the only
/// candidate (an unsettled position among several picks the first).
pub(super) fn resolve(p: Position, subset: u16) -> (u16, bool) {
    let column = |c: usize| 0x1111u16 << c & subset;
    let row = |r: usize| 0xFu16 << (4 * r) & subset;
    let extreme = |side: Side, within: u16| -> u16 {
        let lines: Vec<u16> = match side {
            Side::Left => (0..4).map(column).collect(),
            Side::Right => (0..4).rev().map(column).collect(),
            Side::Top => (0..4).map(row).collect(),
            Side::Bottom => (0..4).rev().map(row).collect(),
        };
        lines
            .into_iter()
            .map(|l| l & within)
            .find(|&l| l != 0)
            .unwrap_or(0)
    };
    let mut cells = extreme(p.first, subset);
    if let Some(then) = p.then {
        cells = extreme(then, cells);
    }
    (cells & cells.wrapping_neg(), cells.count_ones() <= 1)
}

/// What a subset gives every evaluation.
pub(super) struct Frame {
    pub(super) subset: u16,
    pub(super) cells: Vec<u16>,
    pub(super) squares: Vec<u16>,
    rows: Vec<u16>,
    columns: Vec<u16>,
}

impl Frame {
    pub(super) fn new(subset: CellSet) -> Frame {
        let s = subset.0;
        let mut squares = Vec::new();
        for r in 0..3 {
            for c in 0..3 {
                let sq = 0x33u16 << (r * 4 + c);
                if s & sq == sq {
                    squares.push(sq);
                }
            }
        }
        Frame {
            subset: s,
            cells: subset.indices().map(|i| 1 << i).collect(),
            squares,
            rows: (0..4)
                .map(|r| 0xFu16 << (4 * r) & s)
                .filter(|&m| m != 0)
                .collect(),
            columns: (0..4)
                .map(|c| 0x1111u16 << c & s)
                .filter(|&m| m != 0)
                .collect(),
        }
    }

    /// The cells lying in some 2×2 square inside the subset.
    pub(super) fn in_squares(&self) -> u16 {
        self.squares.iter().fold(0, |a, &b| a | b)
    }

    fn quantified(q: Quantifier, mut sets: impl Iterator<Item = bool>, any: bool) -> bool {
        match q {
            Quantifier::Some => sets.any(|b| b),
            Quantifier::Every => any && sets.all(|b| b),
        }
    }

    pub(super) fn atom(&self, atom: &Atom, m: &[u16; 4]) -> bool {
        let n = self.cells.len() as u32;
        match *atom {
            Atom::Count { colours, amount } => amount.holds(union(m, colours).count_ones(), n),
            Atom::Compare {
                left,
                cmp,
                factor,
                right,
            } => cmp.holds(
                union(m, left).count_ones() as i32,
                i32::from(factor) * union(m, right).count_ones() as i32,
            ),
            Atom::Colours(amount) => amount.holds(m.iter().filter(|&&x| x != 0).count() as u32, 4),
            Atom::Extreme { colour, most } => {
                let k = m[colour as usize].count_ones();
                (0..4).filter(|&c| c != colour as usize).all(|c| {
                    let other = m[c].count_ones();
                    if most { k > other } else { k < other }
                })
            }
            Atom::Touch(t) => {
                let (of, near) = (union(m, t.of), union(m, t.near));
                let holds = (0..16).filter(|i| of >> i & 1 == 1).map(|i| {
                    let around = neighbours(1 << i, t.adjacency) & self.subset;
                    t.amount
                        .holds((around & near).count_ones(), around.count_ones())
                });
                match t.quantifier {
                    Quantifier::Some => holds.into_iter().any(|b| b),
                    Quantifier::Every => holds.into_iter().all(|b| b),
                }
            }
            Atom::SameNeighbours(adjacency) => m.iter().any(|&x| neighbours(x, adjacency) & x != 0),
            Atom::Square {
                quantifier,
                colours,
                amount,
            } => {
                let x = union(m, colours);
                let holds = self
                    .squares
                    .iter()
                    .map(|sq| amount.holds((x & sq).count_ones(), 4));
                Frame::quantified(quantifier, holds, !self.squares.is_empty())
            }
            Atom::Lines {
                line,
                quantifier,
                colours,
                amount,
            } => {
                let x = union(m, colours);
                let lines = match line {
                    Line::Row => &self.rows,
                    Line::Column => &self.columns,
                };
                let holds = lines
                    .iter()
                    .map(|l| amount.holds((x & l).count_ones(), l.count_ones()));
                Frame::quantified(quantifier, holds, !lines.is_empty())
            }
            Atom::Largest {
                colour,
                orthogonal,
                amount,
            } => {
                let adj = group_adjacency(orthogonal);
                let size = match colour {
                    Some(c) => components(m[c as usize], adj).max().unwrap_or(0),
                    None => m
                        .iter()
                        .flat_map(|&x| components(x, adj))
                        .max()
                        .unwrap_or(0),
                };
                amount.holds(size, n)
            }
            Atom::Groups {
                colour,
                orthogonal,
                amount,
            } => {
                let groups = components(m[colour as usize], group_adjacency(orthogonal)).count();
                amount.holds(groups as u32, n)
            }
            Atom::Tile { position, colours } => {
                let (cell, _) = resolve(position, self.subset);
                cell != 0 && union(m, colours) & cell != 0
            }
        }
    }

    /// The statement's truth on the colour masks `m` (inside the subset).
    pub(super) fn eval(&self, s: &Statement, m: &[u16; 4]) -> bool {
        self.eval_forcing(s, m, None)
    }

    /// [`Frame::eval`] with the part at `forced.0` (by address) taken as
    /// `forced.1`: what the statement says with that part replaced.
    pub(super) fn eval_forcing(
        &self,
        s: &Statement,
        m: &[u16; 4],
        forced: Option<(&Statement, bool)>,
    ) -> bool {
        if let Some((part, value)) = forced {
            if std::ptr::eq(part, s) {
                return value;
            }
        }
        let e = |x: &Statement| self.eval_forcing(x, m, forced);
        match s {
            Statement::Atom(a) => self.atom(a, m),
            Statement::Not(x) => !e(x),
            Statement::And(v) => v.iter().all(e),
            Statement::Or(v) => v.iter().any(e),
            Statement::Xor(a, b) => e(a) != e(b),
            Statement::If(a, b) => !e(a) || e(b),
            Statement::Iff(a, b) => e(a) == e(b),
        }
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
    fn truth_bits(&self, s: &Statement) -> Vec<u64> {
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
}

/// See [`Statement::table`].
pub(super) fn table(s: &Statement, subset: CellSet) -> Table {
    thread_local! {
        static TABLES: RefCell<HashMap<(Statement, CellSet), Table>> =
            RefCell::new(HashMap::new());
    }
    /// Tables kept before the memo starts afresh (at most 128 KiB each).
    const KEPT: usize = 256;
    let key = (s.clone(), subset);
    if let Some(t) = TABLES.with_borrow(|m| m.get(&key).cloned()) {
        return t;
    }
    let t = Table::from_bits(subset, Frame::new(subset).truth_bits(s));
    TABLES.with_borrow_mut(|m| {
        if m.len() >= KEPT {
            m.clear();
        }
        m.insert(key, t.clone());
    });
    t
}
