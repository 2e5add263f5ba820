//! The rules a statement keeps for its subset, decided exactly:
//!
//! - **every tile matters**: for each tile, some colouring of the others
//!   lets its colour change the truth;
//! - **every part matters**: no part could be replaced by "true" or by
//!   "false" without changing what the statement says ("there are at least
//!   zero colours and …" says nothing with its first part);
//! - **two-by-two**: a statement about 2×2 squares needs every tile in a
//!   2×2 square inside the subset;
//! - a position names one tile ("the leftmost tile" among two is a
//!   question), and parts nest at most two deep.
//!
//! Random colourings prove most statements valid at once (a colouring in
//! which a tile's colour changes the truth is a proof that it matters);
//! whatever they leave open is settled by the statement's decision diagram
//! (`diagram`), which is exact at every subset size.

use rand::{Rng, RngExt, SeedableRng};

use super::diagram::{Diagram, Node, TRUE};
use super::eval::{Frame, neighbours, resolve};
use super::{Adjacency, Ambiguity, Atom, Invalid, Position, Side, Statement};
use crate::grid::{self, CellSet};

/// Parts may nest this deep ("A and either B or C or both" is two).
pub const MAX_DEPTH: usize = 2;
/// Random colourings tried per tile before the exact decision.
const TRIES: usize = 48;

/// See [`Statement::check`].
pub(super) fn check(s: &Statement, subset: CellSet) -> Result<(), Invalid> {
    decide(s, subset)
}

fn decide(s: &Statement, subset: CellSet) -> Result<(), Invalid> {
    structure(s, subset)?;
    let frame = Frame::new(subset);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(0x5EED);
    let mut exact = Exact {
        s,
        diagram: Diagram::new(subset),
        root: None,
    };
    // Every tile matters.
    let open: Vec<usize> = (0..frame.cells.len())
        .filter(|&j| !witness(&frame, s, j, &mut rng, TRIES))
        .collect();
    if !open.is_empty() {
        let root = exact.root()?;
        let support = exact.diagram.support(root);
        if let Some(&j) = open.iter().find(|&&j| support >> j & 1 == 0) {
            return Err(Invalid::CellDoesNotMatter(grid::cell(
                exact.diagram.cells[j],
            )));
        }
    }
    // Every part matters.
    for part in s.weighed_parts() {
        let needed = |value: bool, exact: &mut Exact, rng: &mut _| -> Result<bool, Invalid> {
            if differs(&frame, s, part, value, rng) {
                return Ok(true);
            }
            exact.differs(part, value)
        };
        if !needed(true, &mut exact, &mut rng)? || !needed(false, &mut exact, &mut rng)? {
            return Err(Invalid::NeedlessPart(
                part.to_string().trim_end_matches('.').to_string(),
            ));
        }
    }
    Ok(())
}

/// The exact side of [`decide`]: the statement's diagram, built when first
/// needed, and what it says of its parts.
struct Exact<'a> {
    s: &'a Statement,
    diagram: Diagram,
    root: Option<Node>,
}

impl Exact<'_> {
    /// The statement's diagram, or [`Invalid::Unsettled`] when it costs too
    /// much to build.
    fn root(&mut self) -> Result<Node, Invalid> {
        let root = match self.root {
            Some(r) => r,
            None => *self.root.insert(self.diagram.statement(self.s, None)),
        };
        if self.diagram.spent() {
            return Err(Invalid::Unsettled);
        }
        Ok(root)
    }

    /// Whether taking `part` as `value` changes what the statement says (a
    /// part that is itself always true or always false settles it at once).
    fn differs(&mut self, part: &Statement, value: bool) -> Result<bool, Invalid> {
        let alone = self.diagram.statement(part, None);
        if alone <= TRUE && !self.diagram.spent() {
            return Ok(false);
        }
        let root = self.root()?;
        let replaced = self.diagram.statement(self.s, Some((part, value)));
        if self.diagram.spent() {
            return Err(Invalid::Unsettled);
        }
        Ok(replaced != root)
    }
}

/// What can be told without colourings: positions settle, parts nest
/// little, 2×2 statements fit the subset.
fn structure(s: &Statement, subset: CellSet) -> Result<(), Invalid> {
    let readings = settle_positions(s, subset);
    if readings.len() > 1 {
        return Err(Invalid::Ambiguous(Ambiguity {
            readings: readings.iter().map(ToString::to_string).collect(),
        }));
    }
    if s.depth() > MAX_DEPTH {
        return Err(Invalid::TooComplex);
    }
    if s.atoms().iter().any(|a| a.squares()) {
        let covered = Frame::new(subset).in_squares();
        if let Some(i) = subset.indices().find(|&i| covered >> i & 1 == 0) {
            return Err(Invalid::NotInSquare(grid::cell(i)));
        }
    }
    Ok(())
}

/// The statement with each position that names more than one tile of the
/// subset ("the leftmost tile" of a 2×2 block) made definite each way it
/// can be ("the top tile of the leftmost column", "the bottom tile …");
/// just the statement when every position names one tile.
pub(super) fn settle_positions(s: &Statement, subset: CellSet) -> Vec<Statement> {
    let open = s.atoms().into_iter().find_map(|a| match *a {
        Atom::Tile { position, colours } if !resolve(position, subset.0).1 => {
            Some((position, colours))
        }
        _ => None,
    });
    let Some((position, colours)) = open else {
        return vec![s.clone()];
    };
    let across = match position.first {
        Side::Left | Side::Right => [Side::Top, Side::Bottom],
        Side::Top | Side::Bottom => [Side::Left, Side::Right],
    };
    across
        .into_iter()
        .flat_map(|then| {
            let settled = Atom::Tile {
                position: Position {
                    first: position.first,
                    then: Some(then),
                },
                colours,
            };
            settle_positions(&replace(s, position, settled), subset)
        })
        .collect()
}

/// `s` with each tile atom at `position` made `with`.
fn replace(s: &Statement, position: Position, with: Atom) -> Statement {
    let r = |x: &Statement| replace(x, position, with);
    match s {
        Statement::Atom(Atom::Tile { position: p, .. }) if *p == position => with.into(),
        Statement::Atom(a) => (*a).into(),
        Statement::Not(x) => Statement::Not(Box::new(r(x))),
        Statement::And(v) => Statement::And(v.iter().map(r).collect()),
        Statement::Or(v) => Statement::Or(v.iter().map(r).collect()),
        Statement::Xor(a, b) => Statement::xor(r(a), r(b)),
        Statement::If(a, b) => Statement::implies(r(a), r(b)),
        Statement::Iff(a, b) => Statement::iff(r(a), r(b)),
    }
}

/// Whether two statements mean the same on `subset`: a colouring where
/// they differ says no at once; else their diagrams decide (or
/// [`Invalid::Unsettled`], when they cost too much to build).
pub(super) fn same_meaning(a: &Statement, b: &Statement, subset: CellSet) -> Result<bool, Invalid> {
    if a == b {
        return Ok(true);
    }
    let frame = Frame::new(subset);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(0xD1FF);
    for t in 0..400 {
        let m = colouring(&frame, 0, t, &mut rng);
        if frame.eval(a, &m) != frame.eval(b, &m) {
            return Ok(false);
        }
    }
    let mut d = Diagram::new(subset);
    let same = d.statement(a, None) == d.statement(b, None);
    if d.spent() {
        return Err(Invalid::Unsettled);
    }
    Ok(same)
}

/// A colouring where `s` and `s` with `part` taken as `value` differ.
fn differs<R: Rng + ?Sized>(
    frame: &Frame,
    s: &Statement,
    part: &Statement,
    value: bool,
    rng: &mut R,
) -> bool {
    (0..TRIES * 4).any(|t| {
        let m = colouring(frame, 0, t, rng);
        frame.eval(s, &m) != frame.eval_forcing(s, &m, Some((part, value)))
    })
}

/// Whether, among `tries` colourings of the other cells, one lets cell
/// `j`'s colour change the truth (a proof that it matters).
fn witness<R: Rng + ?Sized>(
    frame: &Frame,
    s: &Statement,
    j: usize,
    rng: &mut R,
    tries: usize,
) -> bool {
    let bit = frame.cells[j];
    (0..tries).any(|t| {
        let base = colouring(frame, bit, t, rng);
        let mut first = None;
        (0..4).any(|col| {
            let mut m = base;
            m[col] |= bit;
            let v = frame.eval(s, &m);
            *first.get_or_insert(v) != v
        })
    })
}

/// The `t`-th random colouring of the cells but `skip`: uniform, one colour
/// dominating, two colours, or neighbours kept apart (statements about
/// neighbours need such colourings to show anything).
fn colouring<R: Rng + ?Sized>(frame: &Frame, skip: u16, t: usize, rng: &mut R) -> [u16; 4] {
    match t % 5 {
        3 => proper(frame, skip, Adjacency::Orthogonal, rng),
        4 => proper(frame, skip, Adjacency::Any, rng),
        mode => mixed(frame, skip, mode, rng),
    }
}

fn mixed<R: Rng + ?Sized>(frame: &Frame, skip: u16, mode: usize, rng: &mut R) -> [u16; 4] {
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
    for &c in frame.cells.iter().filter(|&&c| c != skip) {
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

fn proper<R: Rng + ?Sized>(
    frame: &Frame,
    skip: u16,
    adjacency: Adjacency,
    rng: &mut R,
) -> [u16; 4] {
    let mut m = [0u16; 4];
    for &c in frame.cells.iter().filter(|&&c| c != skip) {
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

/// Whether random colourings alone prove `s` valid for `subset` (never
/// true for an invalid one): how random statements are kept cheaply.
pub(super) fn proven<R: Rng + ?Sized>(s: &Statement, subset: CellSet, rng: &mut R) -> bool {
    if structure(s, subset).is_err() {
        return false;
    }
    let frame = Frame::new(subset);
    (0..frame.cells.len()).all(|j| witness(&frame, s, j, rng, 24))
        && s.weighed_parts()
            .into_iter()
            .all(|p| differs(&frame, s, p, true, rng) && differs(&frame, s, p, false, rng))
}
