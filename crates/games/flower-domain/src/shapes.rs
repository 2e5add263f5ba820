//! The shapes a move can take, and every legal placement of a position,
//! listed once each or drawn uniformly without listing them.
//!
//! A move takes the flowers of one **fixed shape** (a polyomino of 2–4
//! cells in one orientation: 2 + 6 + 19 = 27 of them) at one place in the
//! meadow, and puts them down as an **image** of that shape: one of the
//! eight rotations/reflections, told apart by where each flower lands. Two
//! symmetries that send every flower to the same cell (two cells in a row
//! flipped along their length) are one image. A move is then (meadow shape, meadow
//! anchor, image, garden anchor), and each legal move has exactly one such
//! form: the meadow cells fix the shape and anchor, and since a move's
//! flowers all differ in colour, the garden colouring fixes the image and
//! its anchor. Anchors are the top-left corner of the shape's bounding box.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use rand::{Rng, RngExt};

use umpire_core::grid::{Symmetry, normalize, nth_bit};

use crate::board::{BOARD, CELLS, CENTRE, Flowers, SIZE};

/// One fixed shape: its cells as offsets from the bounding box's top-left
/// corner, in reading order (row by row), and where it fits on a board.
pub struct Shape {
    pub len: usize,
    /// Bit offsets of the cells from the anchor: `y * 10 + x`.
    pub offsets: [u32; 4],
    /// The anchors at which the shape lies wholly on the board.
    pub anchors: u128,
}

/// A way to put a shape down: flower `i` of the source shape lands on cell
/// `perm[i]` of the image shape.
pub struct Image {
    pub shape: usize,
    pub perm: [u8; 4],
}

pub struct Tables {
    pub shapes: Vec<Shape>,
    pub images: Vec<Vec<Image>>,
    /// For each shape, the (source shape, image) pairs that put flowers
    /// down in it.
    pub sources: Vec<Vec<(usize, usize)>>,
}

pub static TABLES: LazyLock<Tables> = LazyLock::new(build);

pub const SHAPES: usize = 27;

fn build() -> Tables {
    // Every fixed polyomino of 2–4 cells, grown cell by cell.
    let mut all: BTreeSet<(usize, Vec<(i32, i32)>)> = BTreeSet::new();
    let mut layer: BTreeSet<Vec<(i32, i32)>> = [vec![(0, 0)]].into();
    for size in 2..=4 {
        let mut next = BTreeSet::new();
        for cells in &layer {
            for &(x, y) in cells {
                for n in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                    if !cells.contains(&n) {
                        let mut grown = cells.clone();
                        grown.push(n);
                        next.insert(normalize(&grown));
                    }
                }
            }
        }
        all.extend(next.iter().map(|c| (size, c.clone())));
        layer = next;
    }
    let list: Vec<Vec<(i32, i32)>> = all.into_iter().map(|(_, c)| c).collect();
    assert_eq!(list.len(), SHAPES);
    let shapes: Vec<Shape> = list
        .iter()
        .map(|cells| {
            let w = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
            let h = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
            let anchors = BOARD.anchors(w as u8, h as u8);
            let mut offsets = [0; 4];
            for (i, &(x, y)) in cells.iter().enumerate() {
                offsets[i] = (y * SIZE as i32 + x) as u32;
            }
            Shape {
                len: cells.len(),
                offsets,
                anchors,
            }
        })
        .collect();
    let images = list
        .iter()
        .map(|cells| {
            let mut seen = BTreeSet::new();
            let mut images = Vec::new();
            for g in Symmetry::ALL {
                let moved: Vec<(i32, i32)> = cells.iter().map(|&c| g.apply(c)).collect();
                let target = normalize(&moved);
                let shape = list.iter().position(|s| *s == target).expect("a shape");
                // Where each source cell lands, as an index into the image.
                let (min_x, min_y) = (
                    moved.iter().map(|c| c.0).min().unwrap_or(0),
                    moved.iter().map(|c| c.1).min().unwrap_or(0),
                );
                let mut perm = [0u8; 4];
                for (i, &(x, y)) in moved.iter().enumerate() {
                    perm[i] = target
                        .iter()
                        .position(|&t| t == (x - min_x, y - min_y))
                        .expect("a cell") as u8;
                }
                if seen.insert((shape, perm)) {
                    images.push(Image { shape, perm });
                }
            }
            images
        })
        .collect::<Vec<Vec<Image>>>();
    let mut sources = vec![Vec::new(); SHAPES];
    for (s, ims) in images.iter().enumerate() {
        for (i, im) in ims.iter().enumerate() {
            sources[im.shape].push((s, i));
        }
    }
    Tables {
        shapes,
        images,
        sources,
    }
}

/// A move's cells as board indices (`row * 10 + col`): flower `from[i]`
/// goes to `to[i]`; `from` is in reading order (the canonical form).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub len: u8,
    pub from: [u8; 4],
    pub to: [u8; 4],
}

impl Placement {
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.len as usize).map(|i| (self.from[i] as usize, self.to[i] as usize))
    }
}

/// Which moves the rules allow now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// Any move of 2–4 flowers.
    Any,
    /// The amended first move: four flowers, covering a centre cell.
    FourInCentre,
    /// The original first move: two flowers.
    Two,
}

/// The placements of one position, by shape: where each shape can be
/// taken from the meadow and where it fits in the garden.
#[derive(Clone, Debug)]
pub struct MoveGen {
    /// Meadow anchors where a shape's cells hold flowers of different colours.
    pub take: [u128; SHAPES],
    /// Garden anchors where a shape lies on empty cells (and, for the
    /// amended first move, covers the centre).
    pub fit: [u128; SHAPES],
    /// Placements per meadow anchor of each shape: its images' garden anchors.
    per_take: [u64; SHAPES],
}

impl MoveGen {
    pub fn new(meadow: &Flowers, garden: &Flowers, allowed: Allowed) -> MoveGen {
        let t = &*TABLES;
        let present = meadow.occupied();
        let empty = BOARD.all & !garden.occupied();
        // Colours as two bit planes (red 00, yellow 01, green 10, blue 11):
        // two flowers differ where either plane differs.
        use crate::board::Colour;
        let lo = meadow.of(Colour::Yellow) | meadow.of(Colour::Blue);
        let hi = meadow.of(Colour::Green) | meadow.of(Colour::Blue);
        let mut take = [0u128; SHAPES];
        let mut fit = [0u128; SHAPES];
        for (s, shape) in t.shapes.iter().enumerate() {
            let ok_len = match allowed {
                Allowed::Any => true,
                Allowed::FourInCentre => shape.len == 4,
                Allowed::Two => shape.len == 2,
            };
            let offs = &shape.offsets[..shape.len];
            let mut f = shape.anchors;
            for &o in offs {
                f &= empty >> o;
            }
            if allowed == Allowed::FourInCentre {
                f &= offs.iter().fold(0, |acc, &o| acc | CENTRE >> o);
            }
            fit[s] = f;
            if !ok_len {
                continue;
            }
            let mut m = shape.anchors;
            for &o in offs {
                m &= present >> o;
            }
            for i in 0..offs.len() {
                for j in i + 1..offs.len() {
                    m &= (lo >> offs[i] ^ lo >> offs[j]) | (hi >> offs[i] ^ hi >> offs[j]);
                }
            }
            take[s] = m;
        }
        let fits = fit.map(|f| f.count_ones() as u64);
        let per_take =
            std::array::from_fn(|s| t.images[s].iter().map(|im| fits[im.shape]).sum::<u64>());
        MoveGen {
            take,
            fit,
            per_take,
        }
    }

    /// Garden anchors summed over the images of shape `s`.
    fn fits_of(&self, s: usize) -> u64 {
        self.per_take[s]
    }

    /// How many placements there are.
    pub fn count(&self) -> u64 {
        (0..SHAPES)
            .map(|s| self.take[s].count_ones() as u64 * self.fits_of(s))
            .sum()
    }

    /// How many placements each meadow shape has.
    pub fn weights(&self) -> [u64; SHAPES] {
        std::array::from_fn(|s| self.take[s].count_ones() as u64 * self.fits_of(s))
    }

    /// A placement drawn uniformly, without listing them; `None` if there is none.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Placement> {
        let weights = self.weights();
        let total: u64 = weights.iter().sum();
        if total == 0 {
            return None;
        }
        self.nth(rng.random_range(0..total), &weights)
    }

    /// The `n`-th placement in listing order, given each shape's count.
    pub fn nth(&self, mut n: u64, weights: &[u64; SHAPES]) -> Option<Placement> {
        let s = (0..SHAPES).find(|&s| {
            if n < weights[s] {
                true
            } else {
                n -= weights[s];
                false
            }
        })?;
        let per_take = self.fits_of(s);
        let a = nth_bit(self.take[s], (n / per_take) as u32) as u32;
        let mut rest = n % per_take;
        for (i, im) in TABLES.images[s].iter().enumerate() {
            let fits = self.fit[im.shape].count_ones() as u64;
            if rest < fits {
                let b = nth_bit(self.fit[im.shape], rest as u32) as u32;
                return Some(placement(s, a, i, b));
            }
            rest -= fits;
        }
        None
    }

    /// The `keep` placements of greatest worth, best first, each with its
    /// worth: the sum over its flowers of `worth[colour][garden cell]`
    /// (`colours`: each meadow cell's colour, as an index into `worth`).
    /// Equals are kept at random.
    ///
    /// A placement's worth depends only on the shape it lands in, the
    /// colour on each of that shape's cells and where it lands, so each
    /// such colouring is scored once at every garden anchor, however many
    /// meadow places and images give it: a few thousand sums where the
    /// placements number up to 10^5 or more.
    pub fn best<R: Rng + ?Sized>(
        &self,
        colours: &[u8; CELLS],
        worth: &[[f64; CELLS]; 4],
        keep: usize,
        rng: &mut R,
    ) -> Vec<(f64, Placement)> {
        let t = &*TABLES;
        let mut top = Top::new(keep);
        // The meadow places and images landing in one shape, by the
        // colours they put on its cells (two bits a cell), packed as
        // `colours << 24 | shape << 16 | anchor << 8 | image` to sort fast.
        let mut landing: Vec<u32> = Vec::new();
        for (target, to) in t.shapes.iter().enumerate() {
            let fits = self.fit[target];
            if fits == 0 {
                continue;
            }
            landing.clear();
            for &(s, i) in &t.sources[target] {
                let shape = &t.shapes[s];
                let perm = &t.images[s][i].perm;
                let mut takes = self.take[s];
                while takes != 0 {
                    let a = takes.trailing_zeros();
                    takes &= takes - 1;
                    let painted = (0..shape.len).fold(0u8, |p, k| {
                        p | colours[(a + shape.offsets[k]) as usize] << (2 * perm[k])
                    });
                    landing.push(u32::from(painted) << 24 | (s as u32) << 16 | a << 8 | i as u32);
                }
            }
            landing.sort_unstable();
            for same in landing.chunk_by(|x, y| x >> 24 == y >> 24) {
                let painted = same[0] >> 24;
                // Each cell's worth by anchor; a shape's missing cells add 0.
                let rows: [&[f64]; 4] = std::array::from_fn(|j| match j < to.len {
                    true => &worth[(painted >> (2 * j) & 3) as usize][to.offsets[j] as usize..],
                    false => &NOTHING[..],
                });
                let mut anchors = fits;
                while anchors != 0 {
                    let b = anchors.trailing_zeros() as usize;
                    anchors &= anchors - 1;
                    let value = rows[0][b] + rows[1][b] + rows[2][b] + rows[3][b];
                    for &e in same {
                        top.offer(value, rng, || {
                            let (s, a, i) = (e >> 16 & 0xff, e >> 8 & 0xff, e & 0xff);
                            placement(s as usize, a, i as usize, b as u32)
                        });
                    }
                }
            }
        }
        top.into_best()
    }

    /// Every placement once, lazily.
    pub fn iter(self) -> Placements {
        Placements {
            moves: self,
            shape: 0,
            takes: 0,
            anchor: 0,
            image: usize::MAX,
            fits: 0,
            started: false,
        }
    }
}

/// The worth of a cell a shape does not have.
static NOTHING: [f64; CELLS] = [0.0; CELLS];

/// The best so far of a fixed number, equals ordered by a random draw.
struct Top {
    keep: usize,
    best: Vec<((f64, u32), Placement)>,
}

impl Top {
    fn new(keep: usize) -> Top {
        Top {
            keep,
            best: Vec::with_capacity(keep + 1),
        }
    }

    /// Takes the placement `make` builds if its `value` gets in.
    fn offer<R: Rng + ?Sized>(
        &mut self,
        value: f64,
        rng: &mut R,
        make: impl FnOnce() -> Placement,
    ) {
        let full = self.best.len() >= self.keep;
        // A tie-break is drawn only for a placement that may get in.
        if self.keep == 0 || (full && value < self.best[self.keep - 1].0.0) {
            return;
        }
        let key = (value, rng.random::<u32>());
        if !full || key > self.best[self.keep - 1].0 {
            let at = self.best.partition_point(|(k, _)| *k > key);
            self.best.insert(at, (key, make()));
            self.best.truncate(self.keep);
        }
    }

    fn into_best(self) -> Vec<(f64, Placement)> {
        self.best.into_iter().map(|((v, _), p)| (v, p)).collect()
    }
}

/// Shape `s` taken at meadow anchor `a`, put down as image `i` at garden anchor `b`.
fn placement(s: usize, a: u32, i: usize, b: u32) -> Placement {
    let t = &*TABLES;
    let shape = &t.shapes[s];
    let image = &t.images[s][i];
    let target = &t.shapes[image.shape];
    let mut p = Placement {
        len: shape.len as u8,
        from: [0; 4],
        to: [0; 4],
    };
    for k in 0..shape.len {
        p.from[k] = (a + shape.offsets[k]) as u8;
        p.to[k] = (b + target.offsets[image.perm[k] as usize]) as u8;
    }
    p
}

/// The placements of a position, listed lazily: by meadow shape, meadow
/// anchor, image, garden anchor.
pub struct Placements {
    moves: MoveGen,
    shape: usize,
    takes: u128,
    anchor: u32,
    image: usize,
    fits: u128,
    started: bool,
}

impl Iterator for Placements {
    type Item = Placement;

    fn next(&mut self) -> Option<Placement> {
        let t = &*TABLES;
        loop {
            if self.fits != 0 {
                let b = self.fits.trailing_zeros();
                self.fits &= self.fits - 1;
                return Some(placement(self.shape, self.anchor, self.image, b));
            }
            if self.image != usize::MAX && self.image + 1 < t.images[self.shape].len() {
                self.image += 1;
                self.fits = self.moves.fit[t.images[self.shape][self.image].shape];
                continue;
            }
            if !self.started {
                self.started = true;
                self.takes = self.moves.take[0];
            } else if self.takes == 0 {
                self.shape += 1;
                if self.shape >= SHAPES {
                    return None;
                }
                self.takes = self.moves.take[self.shape];
                self.image = usize::MAX;
                continue;
            }
            if self.takes != 0 {
                self.anchor = self.takes.trailing_zeros();
                self.takes &= self.takes - 1;
                self.image = 0;
                self.fits = self.moves.fit[t.images[self.shape][0].shape];
            } else {
                self.image = usize::MAX;
            }
        }
    }
}

/// Whether some rotation or reflection followed by a shift sends each
/// `from[i]` to `to[i]` (cells as `(col, row)`).
pub fn congruent(from: &[(i32, i32)], to: &[(i32, i32)]) -> bool {
    let (Some(&f0), Some(&t0)) = (from.first(), to.first()) else {
        return false;
    };
    Symmetry::ALL.iter().any(|&g| {
        let g0 = g.apply(f0);
        let shift = (t0.0 - g0.0, t0.1 - g0.1);
        from.iter().zip(to).all(|(&f, &t)| {
            let m = g.apply(f);
            (m.0 + shift.0, m.1 + shift.1) == t
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_27_fixed_shapes_with_their_distinct_images() {
        let t = &*TABLES;
        let by_size = |n| t.shapes.iter().filter(|s| s.len == n).count();
        assert_eq!((by_size(2), by_size(3), by_size(4)), (2, 6, 19));
        // A straight line (2, 3 or 4 long, two turns each) lands 4 ways:
        // flipping it along its length moves no flower. Every other shape
        // lands 8 ways: even a square's symmetries move its flowers.
        let counts: Vec<usize> = t.images.iter().map(Vec::len).collect();
        assert_eq!(counts.iter().filter(|&&n| n == 4).count(), 6, "{counts:?}");
        assert!(counts.iter().all(|&n| n == 4 || n == 8), "{counts:?}");
    }

    #[test]
    fn congruence_allows_the_eight_symmetries_only() {
        let l = [(0, 0), (1, 0), (2, 0), (2, 1)];
        assert!(congruent(&l, &[(1, 2), (1, 1), (1, 0), (0, 0)]));
        assert!(congruent(&l, &[(1, 2), (1, 1), (1, 0), (2, 0)]));
        // The same cells, two flowers swapped: no symmetry does that.
        assert!(!congruent(&l, &[(1, 0), (0, 0), (2, 0), (2, 1)]));
        assert!(!congruent(&l, &[(0, 0), (1, 0), (2, 0), (0, 1)]));
    }
}
