//! Planning an elimination: the order in which cells are summed out and the
//! cells fixed beforehand (cutset conditioning) to keep every table small.
//!
//! The elimination runs along a path: cells are taken one at a time, and after
//! taking the set `A` of cells the running table is indexed by the *frontier*
//! of `A`: the cells of `A` that some fact not yet wholly inside `A` still
//! speaks of. Taking cell `v` then costs `4^|frontier(A) ∪ {v}|`.

use crate::grid::CellSet;

use super::remap::{Remap, rank};

/// One step of the path: take `cell`.
#[derive(Clone, Debug)]
pub(super) struct Step {
    pub cell: usize,
    /// The frontier before the step (the cells the incoming table is over)
    /// and `cell`: the cells the step enumerates.
    pub span: CellSet,
    /// The frontier after the step: cells the outgoing table is over.
    pub after: CellSet,
    /// Facts whose last cell is `cell`: checked at this step.
    pub facts: Vec<usize>,
    /// Numbers over `span` to numbers over the frontier before the step,
    /// the frontier after it and each checked fact's unfixed cells.
    pub to_before: Remap,
    pub to_after: Remap,
    pub to_facts: Vec<Remap>,
    /// Where `cell`'s colour sits in a number over `span`: `2 · rank`.
    pub shift: usize,
}

/// The cells fixed beforehand and the path through the rest.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    /// Cells to condition on: every colouring of them is run separately.
    pub cut: CellSet,
    pub steps: Vec<Step>,
    /// Per fact, numbers over its cells outside the fixed and cut ones to
    /// numbers over all its cells (fixed and cut cells read as red).
    pub spreads: Vec<Remap>,
}

/// Plans the elimination of facts over `cells` with the `fixed` ones known
/// and no step enumerating more than `width` cells.
pub(super) fn plan(cells: &[CellSet], fixed: CellSet, width: usize) -> Plan {
    let scopes: Vec<CellSet> = cells.iter().map(|s| s.minus(fixed)).collect();
    // Fix the cell whose removal leaves the cheapest problem until the rest
    // fits; when nothing fits yet, the cheapest problem without the limit.
    let mut cut = CellSet::EMPTY;
    let order = loop {
        let reduced: Vec<CellSet> = scopes.iter().map(|s| s.minus(cut)).collect();
        if let Some((_, order)) = best_order(&reduced, width) {
            break order;
        }
        let cells = union(&reduced);
        let without = |x: usize| -> Vec<CellSet> { reduced.iter().map(|s| s.without(x)).collect() };
        let fitting = cells
            .indices()
            .filter_map(|x| best_order(&without(x), width).map(|(cost, _)| (cost, x)))
            .min();
        let x = fitting.map(|(_, x)| x).unwrap_or_else(|| {
            cells
                .indices()
                .min_by_key(|&x| best_order(&without(x), usize::MAX).map(|(cost, _)| cost))
                .expect("a problem too wide has cells")
        });
        cut = cut.with(x);
    };
    let reduced: Vec<CellSet> = scopes.iter().map(|s| s.minus(cut)).collect();
    Plan {
        cut,
        steps: steps(&reduced, &order),
        spreads: reduced
            .iter()
            .zip(cells)
            .map(|(&s, &c)| Remap::new(s, c))
            .collect(),
    }
}

fn union(scopes: &[CellSet]) -> CellSet {
    scopes.iter().fold(CellSet::EMPTY, |u, &s| u.or(s))
}

/// The cells of `taken` that a fact not wholly taken still speaks of.
fn frontier(scopes: &[CellSet], taken: CellSet) -> CellSet {
    scopes
        .iter()
        .filter(|s| !s.minus(taken).is_empty())
        .fold(CellSet::EMPTY, |f, s| f.or(s.and(taken)))
}

/// The order of the facts' cells minimising the total work `Σ 4^|span|`
/// with every span at most `width` cells, and that work; `None` if no order
/// fits. Exact: dynamic programming over the subsets of cells taken (at most
/// 2^16 of them).
fn best_order(scopes: &[CellSet], width: usize) -> Option<(u64, Vec<usize>)> {
    let cells: Vec<usize> = union(scopes).indices().collect();
    let n = cells.len();
    // Scopes over compact bit positions 0..n.
    let compact: Vec<u32> = scopes
        .iter()
        .map(|s| {
            cells
                .iter()
                .enumerate()
                .filter(|&(_, &c)| s.contains(c))
                .fold(0, |m, (j, _)| m | 1 << j)
        })
        .collect();
    let subsets = 1usize << n;
    let frontier_len: Vec<u8> = (0..subsets as u32)
        .map(|taken| {
            let f = compact
                .iter()
                .filter(|&&s| s & !taken != 0)
                .fold(0, |f, &s| f | (s & taken));
            f.count_ones() as u8
        })
        .collect();
    let mut best = vec![u64::MAX; subsets];
    let mut last = vec![0u8; subsets];
    best[0] = 0;
    for taken in 1..subsets {
        let mut bits = taken;
        while bits != 0 {
            let v = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let before = taken ^ 1 << v;
            let span = frontier_len[before] as usize + 1;
            if best[before] == u64::MAX || span > width {
                continue;
            }
            let cost = best[before] + (1u64 << (2 * span));
            if cost < best[taken] {
                best[taken] = cost;
                last[taken] = v as u8;
            }
        }
    }
    let total = best[subsets - 1];
    if total == u64::MAX {
        return None;
    }
    let mut order = Vec::with_capacity(n);
    let mut taken = subsets - 1;
    while taken != 0 {
        let v = last[taken] as usize;
        order.push(cells[v]);
        taken ^= 1 << v;
    }
    order.reverse();
    Some((total, order))
}

/// The steps of taking the cells in `order`.
fn steps(scopes: &[CellSet], order: &[usize]) -> Vec<Step> {
    let mut taken = CellSet::EMPTY;
    let mut steps = Vec::with_capacity(order.len());
    for &cell in order {
        let before = frontier(scopes, taken);
        let span = before.with(cell);
        taken = taken.with(cell);
        let after = frontier(scopes, taken);
        let facts: Vec<usize> = (0..scopes.len())
            .filter(|&f| scopes[f].contains(cell) && scopes[f].minus(taken).is_empty())
            .collect();
        steps.push(Step {
            cell,
            span,
            after,
            to_before: Remap::new(span, before),
            to_after: Remap::new(span, after),
            to_facts: facts.iter().map(|&f| Remap::new(span, scopes[f])).collect(),
            facts,
            shift: 2 * rank(span, cell),
        });
    }
    steps
}
