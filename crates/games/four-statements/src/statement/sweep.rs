//! Each atom as an automaton that reads the grid cell by cell (A1, B1, …,
//! D4) and keeps only what its truth still depends on: a count, the last
//! five cells (every neighbour of a cell lies within five places of it in
//! reading order), the groups still open. [`build`] turns it into the
//! atom's decision diagram, one level per subset cell.

use std::hash::Hash;

use hashbrown::HashMap;

use super::diagram::{Diagram, FALSE, Node, TRUE};
use super::eval::resolve;
use super::{Adjacency, Amount, Atom, Cmp, Colours, Line, Quantifier};

/// An automaton over the grid's cells in reading order.
trait Sweep {
    type State: Copy + Eq + Hash;
    fn start(&self) -> Self::State;
    /// The state after cell `i`, of `colour` (`None`: not in the subset).
    fn step(&self, s: Self::State, i: usize, colour: Option<u8>) -> Self::State;
    /// The truth once the grid is read.
    fn end(&self, s: Self::State) -> bool;
    /// The truth when it no longer depends on the `left` subset cells
    /// still to come.
    fn settled(&self, _s: Self::State, _left: u32) -> Option<bool> {
        None
    }
}

fn terminal(b: bool) -> Node {
    if b { TRUE } else { FALSE }
}

/// The diagram of a sweep, and-ed with `care` (a node of `d`): the sweep
/// follows only colourings `care` allows, so a statement that rules most
/// colourings out spares the dear atoms joined to it.
fn run<S: Sweep>(d: &mut Diagram, sweep: &S, care: Node) -> Node {
    type Memo<S> = HashMap<(u8, <S as Sweep>::State, Node), Node>;
    fn go<S: Sweep>(
        d: &mut Diagram,
        sweep: &S,
        memo: &mut Memo<S>,
        (i, level): (usize, u8),
        s: S::State,
        care: Node,
    ) -> Node {
        if care == FALSE {
            return FALSE;
        }
        let subset = d.subset.0;
        let left = (u32::from(subset) >> i).count_ones();
        match sweep.settled(s, left) {
            Some(true) => return care,
            Some(false) => return FALSE,
            None => {}
        }
        if i == 16 {
            return if sweep.end(s) { care } else { FALSE };
        }
        if let Some(&n) = memo.get(&(i as u8, s, care)) {
            return n;
        }
        if !d.spend() {
            return FALSE;
        }
        let n = if subset >> i & 1 == 1 {
            let mut kids = [FALSE; 4];
            for (c, k) in kids.iter_mut().enumerate() {
                let next = sweep.step(s, i, Some(c as u8));
                let care = d.kid(care, level, c);
                *k = go(d, sweep, memo, (i + 1, level + 1), next, care);
            }
            d.node(level, kids)
        } else {
            go(d, sweep, memo, (i + 1, level), sweep.step(s, i, None), care)
        };
        memo.insert((i as u8, s, care), n);
        n
    }
    let mut memo = HashMap::new();
    go(d, sweep, &mut memo, (0, 0), sweep.start(), care)
}

/// The counts 0–16 for which `amount` holds, of `n`, as bits.
fn holds(amount: Amount, n: u32) -> u32 {
    (0..=16)
        .filter(|&k| amount.holds(k, n))
        .fold(0, |m, k| m | 1 << k)
}

/// The bit all of `lo..=hi` share in `mask`, if they share one.
fn same(mask: u32, lo: u32, hi: u32) -> Option<bool> {
    let hi = hi.min(16);
    let span = ((1u64 << (hi + 1)) - (1u64 << lo)) as u32;
    match mask & span {
        0 => Some(false),
        m if m == span => Some(true),
        _ => None,
    }
}

/// The smallest count from which `mask` no longer changes.
fn cap(mask: u32) -> u8 {
    let top = mask >> 16 & 1;
    (0..=16u8)
        .rev()
        .find(|&k| mask >> k & 1 != top)
        .map_or(0, |k| k + 1)
}

fn has(set: u8, colour: Option<u8>) -> bool {
    colour.is_some_and(|c| set >> c & 1 == 1)
}

/// The earlier cells next to cell `i`, as distances back (1, 3, 4, 5).
fn back(i: usize, adjacency: Adjacency) -> impl Iterator<Item = usize> {
    let col = i % 4;
    let orthogonal = adjacency != Adjacency::Diagonal;
    let diagonal = adjacency != Adjacency::Orthogonal;
    [
        (1, orthogonal && col > 0),
        (3, diagonal && col < 3),
        (4, orthogonal),
        (5, diagonal && col > 0),
    ]
    .into_iter()
    .filter(move |&(d, ok)| ok && d <= i)
    .map(|(d, _)| d)
}

// ---------------------------------------------------------------- counts

struct Count {
    set: u8,
    holds: u32,
}

impl Sweep for Count {
    type State = u8;
    fn start(&self) -> u8 {
        0
    }
    fn step(&self, k: u8, _: usize, c: Option<u8>) -> u8 {
        k + u8::from(has(self.set, c))
    }
    fn end(&self, k: u8) -> bool {
        self.holds >> k & 1 == 1
    }
    fn settled(&self, k: u8, left: u32) -> Option<bool> {
        same(self.holds, k.into(), u32::from(k) + left)
    }
}

struct Compare {
    left: u8,
    right: u8,
    cmp: Cmp,
    factor: i32,
}

impl Compare {
    fn delta(&self, c: u8) -> i32 {
        i32::from(has(self.left, Some(c))) - self.factor * i32::from(has(self.right, Some(c)))
    }
}

impl Sweep for Compare {
    type State = i16;
    fn start(&self) -> i16 {
        0
    }
    fn step(&self, d: i16, _: usize, c: Option<u8>) -> i16 {
        d + c.map_or(0, |c| self.delta(c) as i16)
    }
    fn end(&self, d: i16) -> bool {
        self.cmp.holds(d.into(), 0)
    }
    fn settled(&self, d: i16, left: u32) -> Option<bool> {
        let steps = (0..4).map(|c| self.delta(c));
        let (lo, hi) = (steps.clone().min()?, steps.max()?);
        let d = i32::from(d);
        let (from, to) = (d + lo * left as i32, d + hi * left as i32);
        let first = self.cmp.holds(from, 0);
        (from..=to)
            .all(|x| self.cmp.holds(x, 0) == first)
            .then_some(first)
    }
}

struct ColourCount {
    holds: u32,
}

impl Sweep for ColourCount {
    type State = u8;
    fn start(&self) -> u8 {
        0
    }
    fn step(&self, seen: u8, _: usize, c: Option<u8>) -> u8 {
        seen | c.map_or(0, |c| 1 << c)
    }
    fn end(&self, seen: u8) -> bool {
        self.holds >> seen.count_ones() & 1 == 1
    }
}

struct Extreme {
    colour: usize,
    most: bool,
}

impl Sweep for Extreme {
    type State = [u8; 4];
    fn start(&self) -> [u8; 4] {
        [0; 4]
    }
    fn step(&self, mut k: [u8; 4], _: usize, c: Option<u8>) -> [u8; 4] {
        if let Some(c) = c {
            k[usize::from(c)] += 1;
        }
        k
    }
    fn end(&self, k: [u8; 4]) -> bool {
        (0..4).filter(|&c| c != self.colour).all(|c| {
            if self.most {
                k[self.colour] > k[c]
            } else {
                k[self.colour] < k[c]
            }
        })
    }
}

// ---------------------------------------------------------------- neighbours

/// The last five cells, each as a few bits, and a flag: the state of every
/// atom about neighbours.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Window {
    /// Cells i−4 … i after reading cell i (slot 4 the newest).
    cells: [u8; 5],
    flag: bool,
}

impl Window {
    const EMPTY: Window = Window {
        cells: [0; 5],
        flag: false,
    };

    /// The cell `d` places back from the one being read (before the shift).
    fn back(&self, d: usize) -> u8 {
        self.cells[5 - d]
    }

    /// Drops the oldest cell, adds `new`; returns the dropped one.
    fn shift(&mut self, new: u8) -> u8 {
        let old = self.cells[0];
        self.cells.copy_within(1.., 0);
        self.cells[4] = new;
        old
    }
}

/// Tiles of `of` and how many of their neighbours are of `near`. A window
/// cell is `of` (bit 7), `near` (bit 6) and its count of `near` neighbours
/// so far (low bits).
struct Touch {
    some: bool,
    of: u8,
    near: u8,
    adjacency: Adjacency,
    /// For each grid cell, the counts its amount allows (of its neighbours
    /// in the subset).
    holds: [u32; 16],
}

const OF: u8 = 0x80;
const NEAR: u8 = 0x40;
const COUNT: u8 = 0x0F;

impl Touch {
    /// The cell now complete (`at`, its window bits) settles the flag?
    fn judge(&self, flag: bool, at: usize, bits: u8) -> bool {
        if bits & OF == 0 {
            return flag;
        }
        let ok = self.holds[at] >> (bits & COUNT) & 1 == 1;
        if self.some { flag || ok } else { flag || !ok }
    }
}

impl Sweep for Touch {
    type State = Window;
    fn start(&self) -> Window {
        Window::EMPTY
    }
    fn step(&self, mut w: Window, i: usize, c: Option<u8>) -> Window {
        let of = has(self.of, c);
        let near = has(self.near, c);
        let mut new = if of { OF } else { 0 } | if near { NEAR } else { 0 };
        for d in back(i, self.adjacency) {
            let slot = 5 - d;
            if of && w.cells[slot] & NEAR != 0 {
                new += 1;
            }
            if near && w.cells[slot] & OF != 0 {
                w.cells[slot] += 1;
            }
        }
        let old = w.shift(new);
        if i >= 5 {
            w.flag = self.judge(w.flag, i - 5, old);
        }
        w
    }
    fn end(&self, w: Window) -> bool {
        let flag = (0..5).fold(w.flag, |f, k| self.judge(f, 11 + k, w.cells[k]));
        if self.some { flag } else { !flag }
    }
    fn settled(&self, w: Window, _: u32) -> Option<bool> {
        w.flag.then_some(self.some)
    }
}

/// Two neighbours of one colour: window cells hold colour + 1 (0: none).
struct Same {
    adjacency: Adjacency,
}

impl Sweep for Same {
    type State = Window;
    fn start(&self) -> Window {
        Window::EMPTY
    }
    fn step(&self, mut w: Window, i: usize, c: Option<u8>) -> Window {
        let v = c.map_or(0, |c| c + 1);
        if v != 0 && back(i, self.adjacency).any(|d| w.back(d) == v) {
            w.flag = true;
        }
        w.shift(v);
        w
    }
    fn end(&self, w: Window) -> bool {
        w.flag
    }
    fn settled(&self, w: Window, _: u32) -> Option<bool> {
        w.flag.then_some(true)
    }
}

/// 2×2 squares: window cells are 1 when of the colours; a square is
/// judged at its bottom-right cell.
struct Square {
    some: bool,
    set: u8,
    holds: u32,
    subset: u16,
}

impl Square {
    fn closes(&self, i: usize) -> bool {
        i >= 5 && i % 4 != 0 && {
            let sq = 0x33u16 << (i - 5);
            self.subset & sq == sq
        }
    }
}

impl Sweep for Square {
    type State = Window;
    fn start(&self) -> Window {
        Window::EMPTY
    }
    fn step(&self, mut w: Window, i: usize, c: Option<u8>) -> Window {
        let bit = u8::from(has(self.set, c));
        if self.closes(i) {
            let k = bit + w.back(1) + w.back(4) + w.back(5);
            let ok = self.holds >> k & 1 == 1;
            w.flag |= if self.some { ok } else { !ok };
        }
        w.shift(bit);
        w
    }
    fn end(&self, w: Window) -> bool {
        let any = (0..16).any(|i| self.closes(i));
        if self.some { w.flag } else { any && !w.flag }
    }
    fn settled(&self, w: Window, _: u32) -> Option<bool> {
        w.flag.then_some(self.some)
    }
}

/// Rows: the current row's count and a flag. Columns: each column's count.
struct Lines {
    line: Line,
    some: bool,
    set: u8,
    /// For each row or column, the counts its amount allows (0: it misses
    /// the subset).
    holds: [u32; 4],
    any: [bool; 4],
}

impl Lines {
    fn judge(&self, flag: bool, line: usize, k: u8) -> bool {
        if !self.any[line] {
            return flag;
        }
        let ok = self.holds[line] >> k & 1 == 1;
        flag || if self.some { ok } else { !ok }
    }
}

impl Sweep for Lines {
    /// Counts by column (rows use the first), and the flag.
    type State = ([u8; 4], bool);
    fn start(&self) -> Self::State {
        ([0; 4], false)
    }
    fn step(&self, (mut k, mut flag): Self::State, i: usize, c: Option<u8>) -> Self::State {
        let bit = u8::from(has(self.set, c));
        match self.line {
            Line::Row => {
                k[0] += bit;
                if i % 4 == 3 {
                    flag = self.judge(flag, i / 4, k[0]);
                    k[0] = 0;
                }
            }
            Line::Column => {
                k[i % 4] += bit;
                if i >= 12 {
                    flag = self.judge(flag, i % 4, k[i % 4]);
                    k[i % 4] = 0;
                }
            }
        }
        (k, flag)
    }
    fn end(&self, (_, flag): Self::State) -> bool {
        if self.some { flag } else { !flag }
    }
    fn settled(&self, (_, flag): Self::State, _: u32) -> Option<bool> {
        flag.then_some(self.some)
    }
}

// ---------------------------------------------------------------- groups

/// Groups of one colour (or of each colour): the open groups among the
/// last five cells, their sizes, and the largest size (or the number of
/// groups) closed so far, all capped where the amount stops changing.
struct Groups {
    /// Colours whose groups are tracked.
    tracked: u8,
    adjacency: Adjacency,
    /// After reading cell i, which of the window's cells (slot k is cell
    /// i−4+k) still have a neighbour to come in the subset: the others can
    /// join no one any more, and are let go.
    live: [u8; 16],
    /// Sizes (`largest`) or numbers of groups the amount allows.
    holds: u32,
    largest: bool,
    cap: u8,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Open {
    /// Colour + 1 of cells i−4 … i (0: untracked).
    colours: [u8; 5],
    /// Group label of each tracked cell.
    labels: [u8; 5],
    /// Size of each label's group (only when `largest`).
    sizes: [u8; 5],
    /// The largest closed group, or how many closed.
    closed: u8,
}

impl Groups {
    fn new(subset: u16, tracked: u8, orthogonal: bool, holds: u32, largest: bool) -> Groups {
        let adjacency = super::eval::group_adjacency(orthogonal);
        let live = std::array::from_fn(|i| {
            let later = subset & !((2u32 << i) - 1) as u16;
            (0..5)
                .filter(|&k| {
                    let cell = (i + k).checked_sub(4);
                    cell.is_some_and(|w| super::eval::neighbours(1 << w, adjacency) & later != 0)
                })
                .fold(0u8, |m, k| m | 1 << k)
        });
        Groups {
            tracked,
            adjacency,
            live,
            holds,
            largest,
            cap: cap(holds),
        }
    }

    fn close(&self, closed: u8, size: u8) -> u8 {
        if self.largest {
            closed.max(size)
        } else {
            (closed + 1).min(self.cap)
        }
    }

    /// The largest group so far (closed or open), or the groups closed:
    /// both only grow.
    fn reached(&self, o: &Open) -> u8 {
        if self.largest {
            (0..5)
                .filter(|&k| o.colours[k] != 0)
                .map(|k| o.sizes[usize::from(o.labels[k])])
                .fold(o.closed, u8::max)
        } else {
            o.closed
        }
    }
}

impl Sweep for Groups {
    type State = Open;
    fn start(&self) -> Open {
        Open {
            colours: [0; 5],
            labels: [0; 5],
            sizes: [0; 5],
            closed: 0,
        }
    }
    fn step(&self, o: Open, i: usize, c: Option<u8>) -> Open {
        let v = c
            .filter(|&c| self.tracked >> c & 1 == 1)
            .map_or(0, |c| c + 1);
        // Labels of the window's cells, and 5 for the new cell; sizes by label.
        let mut labels = [0u8; 6];
        labels[..5].copy_from_slice(&o.labels);
        labels[5] = 5;
        let mut sizes = [0u8; 6];
        sizes[..5].copy_from_slice(&o.sizes);
        sizes[5] = 1;
        if v != 0 {
            // The groups the new cell joins, as a set of labels.
            let mut merged = 0u8;
            for d in back(i, self.adjacency) {
                let l = labels[5 - d];
                if o.colours[5 - d] == v && merged >> l & 1 == 0 {
                    merged |= 1 << l;
                    sizes[5] = sizes[5].saturating_add(sizes[usize::from(l)]);
                }
            }
            sizes[5] = sizes[5].min(self.cap);
            for (label, &colour) in labels.iter_mut().zip(&o.colours) {
                if colour != 0 && merged >> *label & 1 == 1 {
                    *label = 5;
                }
            }
        }
        // Shift; cells that can join no one any more leave too, and a group
        // closes when none of its cells is left.
        let mut colours = [o.colours[1], o.colours[2], o.colours[3], o.colours[4], v];
        let raw = [labels[1], labels[2], labels[3], labels[4], 5];
        for (k, colour) in colours.iter_mut().enumerate() {
            if self.live[i] >> k & 1 == 0 {
                *colour = 0;
            }
        }
        let held = |l: u8| (0..5).any(|k| colours[k] != 0 && raw[k] == l);
        let was = (0..5).filter(|&k| o.colours[k] != 0).map(|k| labels[k]);
        let mut closed = o.closed;
        let mut seen = 0u8;
        for l in was.chain((v != 0).then_some(5)) {
            if seen >> l & 1 == 0 {
                seen |= 1 << l;
                if !held(l) {
                    closed = self.close(closed, sizes[usize::from(l)]);
                }
            }
        }
        let mut next = Open {
            colours,
            labels: [0; 5],
            sizes: [0; 5],
            closed,
        };
        let mut map = [u8::MAX; 6];
        let mut count = 0u8;
        for k in 0..5 {
            if colours[k] == 0 {
                continue;
            }
            let old = usize::from(raw[k]);
            if map[old] == u8::MAX {
                map[old] = count;
                if self.largest {
                    next.sizes[usize::from(count)] = sizes[old];
                }
                count += 1;
            }
            next.labels[k] = map[old];
        }
        next
    }
    fn end(&self, o: Open) -> bool {
        let mut closed = o.closed;
        let mut seen = [false; 5];
        for k in 0..5 {
            if o.colours[k] != 0 {
                let l = usize::from(o.labels[k]);
                if !seen[l] {
                    seen[l] = true;
                    closed = self.close(closed, o.sizes[l]);
                }
            }
        }
        self.holds >> closed & 1 == 1
    }
    fn settled(&self, o: Open, _: u32) -> Option<bool> {
        same(self.holds, self.reached(&o).into(), 16)
    }
}

/// The decision diagram of `atom` and `care` over `d`'s subset.
pub(super) fn build(d: &mut Diagram, atom: &Atom, care: Node) -> Node {
    let subset = d.subset.0;
    let n = d.cells.len() as u32;
    match *atom {
        Atom::Count { colours, amount } => run(
            d,
            &Count {
                set: colours.mask(),
                holds: holds(amount, n),
            },
            care,
        ),
        Atom::Compare {
            left,
            cmp,
            factor,
            right,
        } => run(
            d,
            &Compare {
                left: left.mask(),
                right: right.mask(),
                cmp,
                factor: factor.into(),
            },
            care,
        ),
        Atom::Colours(amount) => run(
            d,
            &ColourCount {
                holds: holds(amount, 4),
            },
            care,
        ),
        Atom::Extreme { colour, most } => run(
            d,
            &Extreme {
                colour: colour as usize,
                most,
            },
            care,
        ),
        Atom::Touch(t) => {
            let holds = std::array::from_fn(|i| {
                let around = super::eval::neighbours(1 << i, t.adjacency) & subset;
                holds(t.amount, around.count_ones())
            });
            run(
                d,
                &Touch {
                    some: t.quantifier == Quantifier::Some,
                    of: t.of.mask(),
                    near: t.near.mask(),
                    adjacency: t.adjacency,
                    holds,
                },
                care,
            )
        }
        Atom::SameNeighbours(adjacency) => run(d, &Same { adjacency }, care),
        Atom::Square {
            quantifier,
            colours,
            amount,
        } => run(
            d,
            &Square {
                some: quantifier == Quantifier::Some,
                set: colours.mask(),
                holds: holds(amount, 4),
                subset,
            },
            care,
        ),
        Atom::Lines {
            line,
            quantifier,
            colours,
            amount,
        } => {
            let mask = |k: usize| match line {
                Line::Row => 0xFu16 << (4 * k) & subset,
                Line::Column => 0x1111u16 << k & subset,
            };
            run(
                d,
                &Lines {
                    line,
                    some: quantifier == Quantifier::Some,
                    set: colours.mask(),
                    holds: std::array::from_fn(|k| holds(amount, mask(k).count_ones())),
                    any: std::array::from_fn(|k| mask(k) != 0),
                },
                care,
            )
        }
        Atom::Largest {
            colour,
            orthogonal,
            amount,
        } => {
            let tracked = colour.map_or(0b1111, |c| Colours::one(c).mask());
            let groups = Groups::new(subset, tracked, orthogonal, holds(amount, n), true);
            run(d, &groups, care)
        }
        Atom::Groups {
            colour,
            orthogonal,
            amount,
        } => {
            let tracked = Colours::one(colour).mask();
            let groups = Groups::new(subset, tracked, orthogonal, holds(amount, n), false);
            run(d, &groups, care)
        }
        Atom::Tile { position, colours } => {
            let (cell, _) = resolve(position, subset);
            match d.cells.iter().position(|&i| cell >> i & 1 == 1) {
                Some(level) => {
                    let kids = std::array::from_fn(|c| terminal(colours.mask() >> c & 1 == 1));
                    let tile = d.node(level as u8, kids);
                    d.and(tile, care)
                }
                None => FALSE,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_caps() {
        assert_eq!(holds(Amount::at_least(2), 8) & 0b111, 0b100);
        assert_eq!(same(0b1100, 2, 3), Some(true));
        assert_eq!(same(0b1100, 1, 3), None);
        assert_eq!(cap(holds(Amount::at_least(3), 8)), 3);
        assert_eq!(cap(holds(Amount::exactly(2), 8)), 3);
        assert_eq!(cap(holds(Amount::Odd(true), 8)), 16);
    }
}
