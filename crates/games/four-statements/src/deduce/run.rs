//! One elimination run along a [`Plan`]'s path, with every cut cell fixed:
//! a forward pass of counts, then either a backward pass for each cell's
//! colour counts or a backward draw of one grid.

use rand::{Rng, RngExt};

use crate::grid::{CELLS, CellSet, Colour, Grid};
use crate::table::Table;

use super::Posterior;
use super::plan::Plan;

/// The forward pass of one run along the plan it was made with (which its
/// methods are handed again).
pub(super) struct Run {
    /// Fixed cells (known and cut) and their colours (red elsewhere).
    fixed: CellSet,
    values: Grid,
    /// Unfixed cells no fact speaks of: any colour, ×4 each.
    free: CellSet,
    /// Each fact as an allowed/forbidden flag per colouring of its unfixed
    /// cells (empty for facts checked on fixed cells alone).
    allowed: Vec<Vec<bool>>,
    /// `forward[t]`: over the frontier before step `t`, the number of
    /// colourings of the cells taken so far that every checked fact allows.
    forward: Vec<Vec<u64>>,
    /// Grids possible (known, facts) with the fixed cells so coloured.
    pub count: u64,
}

impl Run {
    /// The forward pass with `fixed` cells coloured as in `values`; `None`
    /// when a fact already forbids them.
    pub fn new(plan: &Plan, facts: &[Table], fixed: CellSet, values: Grid) -> Option<Run> {
        let mut allowed = Vec::with_capacity(facts.len());
        let mut spoken = CellSet::EMPTY;
        for (fact, spread) in facts.iter().zip(&plan.spreads) {
            let scope = fact.cells().minus(fixed);
            spoken = spoken.or(scope);
            // The fixed cells' part of the colouring number, then each
            // colouring of the rest spread into the fact's numbering.
            let base = Table::local_index(fact.cells(), values);
            let flags: Vec<bool> = (0..1usize << (2 * scope.len()))
                .map(|k| fact.contains(base + spread.map(k)))
                .collect();
            if !flags.iter().any(|&a| a) {
                return None;
            }
            allowed.push(if scope.is_empty() { Vec::new() } else { flags });
        }
        let free = CellSet::ALL.minus(fixed).minus(spoken);
        let mut forward = Vec::with_capacity(plan.steps.len() + 1);
        forward.push(vec![1u64]);
        for step in &plan.steps {
            let prev = forward.last().expect("starts with one table");
            let mut next = vec![0u64; 1 << (2 * step.after.len())];
            for k in 0..1usize << (2 * step.span.len()) {
                let w = prev[step.to_before.map(k)];
                if w != 0 && allows(step, &allowed, k) {
                    next[step.to_after.map(k)] += w;
                }
            }
            forward.push(next);
        }
        let taken = forward.last().expect("starts with one table")[0];
        let count = taken << (2 * free.len());
        Some(Run {
            fixed,
            values,
            free,
            allowed,
            forward,
            count,
        })
    }

    /// Adds this run's grids to `post`, cell by cell: a backward pass counts
    /// the completions of each frontier colouring, and a step's cell colour
    /// counts are forward × allowed × backward over its span.
    pub fn add_to(&self, plan: &Plan, post: &mut Posterior) {
        if self.count == 0 {
            return;
        }
        post.count += self.count;
        let scale = 1u64 << (2 * self.free.len());
        for i in self.fixed.indices() {
            post.cells[i][self.values.get(i) as usize] += self.count;
        }
        for i in self.free.indices() {
            for c in 0..4 {
                post.cells[i][c] += self.count / 4;
            }
        }
        let mut backward = vec![1u64];
        for (t, step) in plan.steps.iter().enumerate().rev() {
            let prev = &self.forward[t];
            let mut before = vec![0u64; prev.len()];
            let mut colours = [0u64; 4];
            for k in 0..1usize << (2 * step.span.len()) {
                let b = backward[step.to_after.map(k)];
                if b != 0 && allows(step, &self.allowed, k) {
                    let p = step.to_before.map(k);
                    before[p] += b;
                    colours[(k >> step.shift) & 3] += prev[p] * b;
                }
            }
            debug_assert_eq!(colours.iter().sum::<u64>() * scale, self.count);
            for (c, n) in colours.into_iter().enumerate() {
                post.cells[step.cell][c] += n * scale;
            }
            backward = before;
        }
    }

    /// A grid drawn uniformly from this run's: each step, last first, picks
    /// its span's colouring among those matching the frontier already drawn,
    /// weighted by their forward counts. Requires `count > 0`.
    pub fn sample<R: Rng + ?Sized>(&self, plan: &Plan, rng: &mut R) -> Grid {
        let mut grid = self.values;
        for i in self.free.indices() {
            grid = grid.with(i, Colour::from_index(rng.random_range(0..4u8)));
        }
        let mut state = 0; // the drawn colouring of the frontier after step t
        for (t, step) in plan.steps.iter().enumerate().rev() {
            let prev = &self.forward[t];
            let mut r = rng.random_range(0..self.forward[t + 1][state]);
            let k = (0..1usize << (2 * step.span.len()))
                .find(|&k| {
                    if step.to_after.map(k) != state || !allows(step, &self.allowed, k) {
                        return false;
                    }
                    let w = prev[step.to_before.map(k)];
                    if r < w {
                        return true;
                    }
                    r -= w;
                    false
                })
                .expect("the weights add up to the forward count");
            grid = grid.with(step.cell, Colour::from_index(((k >> step.shift) & 3) as u8));
            state = step.to_before.map(k);
        }
        debug_assert!(
            (0..CELLS).all(|i| !self.fixed.contains(i) || grid.get(i) == self.values.get(i))
        );
        grid
    }
}

/// Whether every fact checked at `step` allows span colouring `k`.
#[inline]
fn allows(step: &super::plan::Step, allowed: &[Vec<bool>], k: usize) -> bool {
    step.facts
        .iter()
        .zip(&step.to_facts)
        .all(|(&f, to)| allowed[f][to.map(k)])
}
