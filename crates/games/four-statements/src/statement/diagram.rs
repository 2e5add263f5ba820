//! Decision diagrams of statements: exact, at every subset size.
//!
//! A statement's truth over the colourings of a subset is a function of its
//! n cells, each one of four colours. A reduced ordered decision diagram
//! (one level per cell, in reading order; four children per node, one per
//! colour; no node whose four children are equal; no two nodes alike) is
//! that function's one canonical form. So:
//!
//! - a cell matters to the statement exactly when some node asks its colour
//!   ([`Diagram::support`]): every-tile-matters, decided exactly;
//! - two statements mean the same on the subset exactly when their
//!   diagrams are one node: readings compared exactly.
//!
//! Each atom's diagram is built from a small automaton that reads the grid
//! cell by cell (`sweep`); atoms are then combined with `and`, `or` and the
//! rest. The widths stay small (a count, a window of five cells, a few
//! open groups), so a whole 16-tile subset takes milliseconds, where its
//! 4^16 colourings could not be listed.

use hashbrown::HashMap;

use super::sweep;
use super::{Atom, Statement};
use crate::grid::CellSet;

/// Steps one judgement may take building diagrams (states read and nodes
/// made): about 100 ms. A statement that needs more is refused as too
/// complex rather than left to hold the umpire up (see `Diagram::spend`).
pub(super) const BUDGET: usize = 150_000;

/// A node: `FALSE`, `TRUE`, or an index into the nodes.
pub(super) type Node = u32;
pub(super) const FALSE: Node = 0;
pub(super) const TRUE: Node = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Inner {
    /// The cell it asks about: its place among the subset's cells.
    level: u8,
    kids: [Node; 4],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Op {
    And,
    Or,
    Xor,
    Implies,
    Iff,
}

impl Op {
    fn on(self, a: bool, b: bool) -> bool {
        match self {
            Op::And => a && b,
            Op::Or => a || b,
            Op::Xor => a != b,
            Op::Implies => !a || b,
            Op::Iff => a == b,
        }
    }

    /// The answer when one side alone settles it.
    fn short(self, a: Node, b: Node) -> Option<Node> {
        match (self, a, b) {
            (Op::And, FALSE, _) | (Op::And, _, FALSE) => Some(FALSE),
            (Op::And, TRUE, x) | (Op::And, x, TRUE) => Some(x),
            (Op::Or, TRUE, _) | (Op::Or, _, TRUE) => Some(TRUE),
            (Op::Or, FALSE, x) | (Op::Or, x, FALSE) => Some(x),
            (Op::Implies, FALSE, _) | (Op::Implies, _, TRUE) => Some(TRUE),
            (Op::Implies, TRUE, x) => Some(x),
            (Op::Xor | Op::Iff, x, y) if x == y => Some(if self == Op::Iff { TRUE } else { FALSE }),
            _ => None,
        }
    }
}

/// The diagrams of one subset: every node shared, every result remembered.
pub(super) struct Diagram {
    pub(super) subset: CellSet,
    /// Grid index of each level's cell.
    pub(super) cells: Vec<usize>,
    nodes: Vec<Inner>,
    unique: HashMap<Inner, Node>,
    computed: HashMap<(Op, Node, Node), Node>,
    atoms: HashMap<Atom, Node>,
    /// Steps left of [`BUDGET`].
    left: usize,
}

impl Diagram {
    pub(super) fn new(subset: CellSet) -> Diagram {
        let terminal = Inner {
            level: u8::MAX,
            kids: [0; 4],
        };
        Diagram {
            subset,
            cells: subset.indices().collect(),
            nodes: vec![terminal, terminal],
            unique: HashMap::new(),
            computed: HashMap::new(),
            atoms: HashMap::new(),
            left: BUDGET,
        }
    }

    fn level(&self, n: Node) -> u8 {
        self.nodes[n as usize].level
    }

    /// Takes one step of the budget; false once it is spent (every
    /// diagram built after that is meaningless: check [`Diagram::spent`]).
    pub(super) fn spend(&mut self) -> bool {
        self.left = self.left.saturating_sub(1);
        self.left > 0
    }

    /// Whether the budget ran out: the diagrams built are not to be used.
    pub(super) fn spent(&self) -> bool {
        self.left == 0
    }

    /// The node asking `level` with these children, reduced.
    pub(super) fn node(&mut self, level: u8, kids: [Node; 4]) -> Node {
        if kids.iter().all(|&k| k == kids[0]) {
            return kids[0];
        }
        let inner = Inner { level, kids };
        if let Some(&n) = self.unique.get(&inner) {
            return n;
        }
        let n = self.nodes.len() as Node;
        self.nodes.push(inner);
        self.unique.insert(inner, n);
        n
    }

    fn apply(&mut self, op: Op, a: Node, b: Node) -> Node {
        if a <= TRUE && b <= TRUE {
            return if op.on(a == TRUE, b == TRUE) {
                TRUE
            } else {
                FALSE
            };
        }
        if let Some(n) = op.short(a, b) {
            return n;
        }
        if let Some(&n) = self.computed.get(&(op, a, b)) {
            return n;
        }
        if !self.spend() {
            return FALSE;
        }
        let level = self.level(a).min(self.level(b));
        let kid = |d: &Diagram, n: Node, c: usize| {
            if d.level(n) == level {
                d.nodes[n as usize].kids[c]
            } else {
                n
            }
        };
        let mut kids = [FALSE; 4];
        for (c, k) in kids.iter_mut().enumerate() {
            let (x, y) = (kid(self, a, c), kid(self, b, c));
            *k = self.apply(op, x, y);
        }
        let n = self.node(level, kids);
        self.computed.insert((op, a, b), n);
        n
    }

    fn not(&mut self, a: Node) -> Node {
        self.apply(Op::Xor, a, TRUE)
    }

    pub(super) fn and(&mut self, a: Node, b: Node) -> Node {
        self.apply(Op::And, a, b)
    }

    /// The child of `n` for colour `c` at `level` (`n` itself when it asks
    /// about a later cell).
    pub(super) fn kid(&self, n: Node, level: u8, c: usize) -> Node {
        if self.level(n) == level {
            self.nodes[n as usize].kids[c]
        } else {
            n
        }
    }

    /// The diagram of `atom`.
    fn atom(&mut self, atom: &Atom) -> Node {
        if let Some(&n) = self.atoms.get(atom) {
            return n;
        }
        let n = sweep::build(self, atom, TRUE);
        self.atoms.insert(*atom, n);
        n
    }

    /// The diagram of `atom` and `care`: a dear atom is built only where
    /// `care` holds, when `care` rules out nearly every colouring (else
    /// following `care` costs more than it spares).
    fn atom_within(&mut self, atom: &Atom, care: Node) -> Node {
        if care == TRUE || !atom.dear() || self.share(care) > 0.02 {
            let n = self.atom(atom);
            return self.and(n, care);
        }
        sweep::build(self, atom, care)
    }

    /// The share of all colourings for which `n` holds.
    fn share(&self, n: Node) -> f64 {
        fn go(d: &Diagram, n: Node, memo: &mut HashMap<Node, f64>) -> f64 {
            match n {
                FALSE => 0.0,
                TRUE => 1.0,
                _ => {
                    if let Some(&p) = memo.get(&n) {
                        return p;
                    }
                    let p = d.nodes[n as usize]
                        .kids
                        .iter()
                        .map(|&k| go(d, k, memo))
                        .sum::<f64>()
                        / 4.0;
                    memo.insert(n, p);
                    p
                }
            }
        }
        go(self, n, &mut HashMap::new())
    }

    /// The diagram of `s`, with the part at `forced.0` (by address) taken
    /// as the constant `forced.1`.
    pub(super) fn statement(&mut self, s: &Statement, forced: Option<(&Statement, bool)>) -> Node {
        if let Some((part, value)) = forced {
            if std::ptr::eq(part, s) {
                return if value { TRUE } else { FALSE };
            }
        }
        let of = |d: &mut Diagram, x: &Statement| d.statement(x, forced);
        match s {
            Statement::Atom(a) => self.atom(a),
            Statement::Not(x) => {
                let n = of(self, x);
                self.not(n)
            }
            Statement::And(v) | Statement::Or(v) => {
                let op = if matches!(s, Statement::And(_)) {
                    Op::And
                } else {
                    Op::Or
                };
                let settled = if op == Op::And { FALSE } else { TRUE };
                let mut acc = if op == Op::And { TRUE } else { FALSE };
                // The atoms that are dearest to build last: a part that
                // settles the rest spares them.
                let mut parts: Vec<&Statement> = v.iter().collect();
                parts.sort_by_key(|x| x.atoms().iter().any(|a| a.dear()));
                for x in parts {
                    if acc == settled {
                        break;
                    }
                    let forced_here = forced.is_some_and(|(p, _)| std::ptr::eq(p, x));
                    acc = match x {
                        // A dear atom is built only where the rest leaves
                        // it a say: where `acc` holds (and), or not (or).
                        Statement::Atom(a) if !forced_here && (op == Op::And || a.dear()) => {
                            if op == Op::And {
                                self.atom_within(a, acc)
                            } else {
                                let open = self.not(acc);
                                let n = self.atom_within(a, open);
                                self.apply(Op::Or, acc, n)
                            }
                        }
                        _ => {
                            let n = of(self, x);
                            self.apply(op, acc, n)
                        }
                    };
                }
                acc
            }
            Statement::Xor(a, b) | Statement::If(a, b) | Statement::Iff(a, b) => {
                let op = match s {
                    Statement::Xor(..) => Op::Xor,
                    Statement::If(..) => Op::Implies,
                    _ => Op::Iff,
                };
                let (x, y) = (of(self, a), of(self, b));
                self.apply(op, x, y)
            }
        }
    }

    /// The levels (cells, by place in the subset) that some node reachable
    /// from `root` asks about: the cells the function depends on.
    pub(super) fn support(&self, root: Node) -> u32 {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![root];
        let mut levels = 0u32;
        while let Some(n) = stack.pop() {
            if n <= TRUE || seen[n as usize] {
                continue;
            }
            seen[n as usize] = true;
            let inner = self.nodes[n as usize];
            levels |= 1 << inner.level;
            stack.extend(inner.kids);
        }
        levels
    }

    /// The truth of `root` on a colouring (colour of each level's cell).
    #[cfg(test)]
    pub(super) fn eval(&self, root: Node, colours: &[u8]) -> bool {
        let mut n = root;
        while n > TRUE {
            let inner = self.nodes[n as usize];
            n = inner.kids[usize::from(colours[usize::from(inner.level)])];
        }
        n == TRUE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use rand::{RngExt, SeedableRng};

    /// The diagram agrees with evaluation on every colouring of small
    /// subsets, for statements of every atom kind.
    #[test]
    fn diagrams_agree_with_evaluation() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for _ in 0..300 {
            let subset = crate::random_connected(rng.random_range(1..=6), &mut rng);
            let s = super::super::random::arbitrary(subset, &mut rng);
            let mut d = Diagram::new(subset);
            let root = d.statement(&s, None);
            let n = subset.len();
            for k in 0..1usize << (2 * n) {
                let colours: Vec<u8> = (0..n).map(|j| (k >> (2 * j) & 3) as u8).collect();
                let grid = d.cells.iter().zip(&colours).fold(Grid(0), |g, (&i, &c)| {
                    g.with(i, crate::grid::Colour::from_index(c))
                });
                assert_eq!(
                    d.eval(root, &colours),
                    s.eval(subset, grid),
                    "{s} on {subset}, colouring {grid}"
                );
            }
        }
    }
}
