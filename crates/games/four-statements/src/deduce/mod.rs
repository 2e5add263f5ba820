//! The deduction engine: from all one seat knows, the exact number of grids
//! still possible and each cell's colour counts.
//!
//! Method: the known cells are substituted into the facts; the facts then
//! form a factor graph over the unknown cells, and counts are summed out cell
//! by cell along a path chosen to keep the running tables small (`plan`).
//! A forward and a backward pass give every cell's colour counts at once
//! (`run`). Problems too wide for one table (a fact over many unknown cells)
//! are split by fixing a few cells to each colouring in turn. Wrong guesses
//! are removed afterwards by subtraction: each distinct one that is
//! otherwise possible is exactly one grid.

mod plan;
mod remap;
mod run;

use rand::{Rng, RngExt};

use crate::grid::{CELLS, CellSet, Colour, Grid};
use crate::table::Table;

use plan::Plan;
use run::Run;

/// Widest span of cells one elimination step enumerates (`4^10` entries of
/// 8 bytes); wider problems are split by fixing cells.
pub const MAX_WIDTH: usize = 10;

/// All one seat knows of the grid.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Knowledge {
    /// Cells whose colour the seat knows (dealt or bought).
    pub known: [Option<Colour>; CELLS],
    /// Facts: each allows some colourings of its cells.
    pub facts: Vec<Table>,
    /// Whole grids known to be wrong (the seat's own wrong guesses).
    pub not: Vec<Grid>,
}

impl Knowledge {
    /// Whether `grid` has every known colour and every fact allows it
    /// (wrong guesses aside).
    pub fn consistent(&self, grid: Grid) -> bool {
        self.known
            .iter()
            .enumerate()
            .all(|(i, k)| k.is_none_or(|c| grid.get(i) == c))
            && self.facts.iter().all(|f| f.allows(grid))
    }

    /// Whether `grid` may still be the hidden grid.
    pub fn allows(&self, grid: Grid) -> bool {
        self.consistent(grid) && !self.not.contains(&grid)
    }

    /// The known cells and their colours (red elsewhere).
    fn fixed(&self) -> (CellSet, Grid) {
        self.known
            .iter()
            .enumerate()
            .fold((CellSet::EMPTY, Grid(0)), |(set, grid), (i, k)| match k {
                Some(c) => (set.with(i), grid.with(i, *c)),
                None => (set, grid),
            })
    }

    /// The distinct wrong guesses that are otherwise possible: each one
    /// removes exactly one grid.
    fn excluded(&self) -> Vec<Grid> {
        let mut not = self.not.clone();
        not.sort_unstable();
        not.dedup();
        not.retain(|&g| self.consistent(g));
        not
    }
}

/// The grids consistent with a [`Knowledge`]: how many, and how many of
/// them give each cell each colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Posterior {
    pub count: u64,
    /// `cells[i][c]`: possible grids where cell `i` has colour `c`.
    pub cells: [[u64; 4]; CELLS],
}

impl Posterior {
    /// No grid at all.
    pub const NONE: Posterior = Posterior {
        count: 0,
        cells: [[0; 4]; CELLS],
    };

    /// The chance that `cell` is `colour`, every possible grid equally
    /// likely; 0 when no grid is possible.
    pub fn probability(&self, cell: usize, colour: Colour) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.cells[cell][colour as usize] as f64 / self.count as f64
        }
    }

    /// The colour `cell` has in every possible grid, if any.
    pub fn certain_colour(&self, cell: usize) -> Option<Colour> {
        if self.count == 0 {
            return None;
        }
        Colour::ALL
            .into_iter()
            .find(|&c| self.cells[cell][c as usize] == self.count)
    }

    /// The one possible grid, when exactly one is.
    pub fn is_certain(&self) -> Option<Grid> {
        if self.count != 1 {
            return None;
        }
        (0..CELLS).try_fold(Grid(0), |g, i| self.certain_colour(i).map(|c| g.with(i, c)))
    }
}

/// The exact posterior.
pub fn posterior(knowledge: &Knowledge) -> Posterior {
    posterior_within(knowledge, MAX_WIDTH)
}

/// [`posterior`] with elimination steps of at most `width` cells (1–12):
/// smaller widths split the problem into more runs. For tests.
#[doc(hidden)]
pub fn posterior_within(knowledge: &Knowledge, width: usize) -> Posterior {
    assert!((1..=remap::MAX_FROM).contains(&width), "width 1–12");
    let (fixed, values) = knowledge.fixed();
    let plan = plan_for(knowledge, fixed, width);
    let mut post = Posterior::NONE;
    for (fixed, values) in branches(&plan, fixed, values) {
        if let Some(run) = Run::new(&plan, &knowledge.facts, fixed, values) {
            run.add_to(&plan, &mut post);
        }
    }
    for g in knowledge.excluded() {
        post.count -= 1;
        for (i, cell) in post.cells.iter_mut().enumerate() {
            cell[g.get(i) as usize] -= 1;
        }
    }
    post
}

/// The number of grids still possible: [`posterior`]'s count, without
/// the backward pass for each cell's colours.
pub fn count(knowledge: &Knowledge) -> u64 {
    let (fixed, values) = knowledge.fixed();
    let plan = plan_for(knowledge, fixed, MAX_WIDTH);
    let consistent: u64 = branches(&plan, fixed, values)
        .filter_map(|(fixed, values)| Run::new(&plan, &knowledge.facts, fixed, values))
        .map(|run| run.count)
        .sum();
    consistent - knowledge.excluded().len() as u64
}

fn plan_for(knowledge: &Knowledge, fixed: CellSet, width: usize) -> Plan {
    let cells: Vec<CellSet> = knowledge.facts.iter().map(Table::cells).collect();
    plan::plan(&cells, fixed, width)
}

/// Every colouring of the plan's cut cells added to the fixed ones.
fn branches(
    plan: &Plan,
    fixed: CellSet,
    values: Grid,
) -> impl Iterator<Item = (CellSet, Grid)> + '_ {
    let cut: Vec<usize> = plan.cut.indices().collect();
    (0..1usize << (2 * cut.len())).map(move |k| {
        let values = cut.iter().enumerate().fold(values, |g, (j, &i)| {
            g.with(i, Colour::from_index((k >> (2 * j)) as u8))
        });
        (fixed.or(plan.cut), values)
    })
}

/// The same by enumerating every grid consistent with the known cells: the
/// tests' oracle.
pub fn brute_force(knowledge: &Knowledge) -> Posterior {
    let (fixed, values) = knowledge.fixed();
    let unknown: Vec<usize> = CellSet::ALL.minus(fixed).indices().collect();
    // Colouring number over the unknown cells → grid bits, a byte of four
    // digits at a time.
    let mut spread = [[0u32; 256]; 4];
    for (c, chunk) in spread.iter_mut().enumerate() {
        for (byte, bits) in chunk.iter_mut().enumerate() {
            for d in 0..4 {
                if let Some(&i) = unknown.get(4 * c + d) {
                    *bits |= ((byte as u32 >> (2 * d)) & 3) << (2 * i);
                }
            }
        }
    }
    let mut post = Posterior::NONE;
    for k in 0..1u64 << (2 * unknown.len()) {
        let k = k as usize;
        let grid = Grid(
            values.0
                | spread[0][k & 255]
                | spread[1][(k >> 8) & 255]
                | spread[2][(k >> 16) & 255]
                | spread[3][(k >> 24) & 255],
        );
        if knowledge.allows(grid) {
            post.count += 1;
            for (i, cell) in post.cells.iter_mut().enumerate() {
                cell[grid.get(i) as usize] += 1;
            }
        }
    }
    post
}

/// A grid drawn uniformly from those still possible, if any.
pub fn sample<R: Rng + ?Sized>(knowledge: &Knowledge, rng: &mut R) -> Option<Grid> {
    Grids::new(knowledge).draw(rng)
}

/// `n` grids drawn uniformly and independently from those still possible
/// (none when no grid is): one count of the grids for all of them.
pub fn samples<R: Rng + ?Sized>(knowledge: &Knowledge, n: usize, rng: &mut R) -> Vec<Grid> {
    let grids = Grids::new(knowledge);
    (0..n).map_while(|_| grids.draw(rng)).collect()
}

/// [`sample`] with elimination steps of at most `width` cells. For tests.
#[doc(hidden)]
pub fn sample_within<R: Rng + ?Sized>(
    knowledge: &Knowledge,
    width: usize,
    rng: &mut R,
) -> Option<Grid> {
    Grids::within(knowledge, width).draw(rng)
}

/// The grids still possible, counted once for any number of uniform draws.
pub struct Grids {
    plan: Plan,
    facts: Vec<Table>,
    /// Each colouring of the plan's cut cells, and its grids' count.
    branches: Vec<((CellSet, Grid), u64)>,
    /// The run of the only branch (the usual case): draws need no new
    /// forward pass.
    single: Option<Run>,
    /// Wrong guesses that are otherwise possible.
    excluded: Vec<Grid>,
    total: u64,
}

impl Grids {
    pub fn new(knowledge: &Knowledge) -> Grids {
        Grids::within(knowledge, MAX_WIDTH)
    }

    /// With elimination steps of at most `width` cells (1–12).
    fn within(knowledge: &Knowledge, width: usize) -> Grids {
        assert!((1..=remap::MAX_FROM).contains(&width), "width 1–12");
        let (fixed, values) = knowledge.fixed();
        let plan = plan_for(knowledge, fixed, width);
        let facts = &knowledge.facts;
        let cuts: Vec<(CellSet, Grid)> = branches(&plan, fixed, values).collect();
        let mut single = None;
        let branches: Vec<((CellSet, Grid), u64)> = match cuts.as_slice() {
            [(f, v)] => {
                single = Run::new(&plan, facts, *f, *v);
                vec![((*f, *v), single.as_ref().map_or(0, |r| r.count))]
            }
            _ => cuts
                .iter()
                .map(|&(f, v)| ((f, v), Run::new(&plan, facts, f, v).map_or(0, |r| r.count)))
                .collect(),
        };
        let total = branches.iter().map(|(_, n)| n).sum();
        Grids {
            plan,
            facts: facts.clone(),
            branches,
            single,
            excluded: knowledge.excluded(),
            total,
        }
    }

    /// A grid drawn uniformly from those still possible, if any: uniform
    /// over the consistent grids, drawn again while a wrong guess (so the
    /// accepted draw is uniform over the rest).
    pub fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Grid> {
        if self.total == self.excluded.len() as u64 {
            return None;
        }
        loop {
            let grid = match &self.single {
                Some(run) => run.sample(&self.plan, rng),
                // Several branches: the drawn one's forward pass again.
                None => {
                    let mut r = rng.random_range(0..self.total);
                    let &((f, v), _) = self
                        .branches
                        .iter()
                        .find(|(_, n)| {
                            if r < *n {
                                return true;
                            }
                            r -= n;
                            false
                        })
                        .expect("counts add up to the total");
                    Run::new(&self.plan, &self.facts, f, v)
                        .expect("a branch with grids runs")
                        .sample(&self.plan, rng)
                }
            };
            if !self.excluded.contains(&grid) {
                return Some(grid);
            }
        }
    }
}
