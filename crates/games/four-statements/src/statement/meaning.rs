//! The meaning of a statement: atoms (one claim each about the subset's
//! tiles) joined by connectives, in one shape per meaning.

use super::{Evaluator, Invalid, eval, print, validity};
use crate::grid::{CellSet, Colour, Grid};
use crate::table::Table;

/// A set of colours, as one phrase names them: "red", "red or blue".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Colours(u8);

impl Colours {
    pub const ALL: Colours = Colours(0b1111);

    pub const fn one(c: Colour) -> Colours {
        Colours(1 << c as u8)
    }

    /// The set of the four bits of `mask` (red is bit 0); `None` if empty.
    pub fn from_mask(mask: u8) -> Option<Colours> {
        (mask & 0b1111 != 0).then_some(Colours(mask & 0b1111))
    }

    pub const fn mask(self) -> u8 {
        self.0
    }

    #[must_use]
    pub const fn with(self, c: Colour) -> Colours {
        Colours(self.0 | 1 << c as u8)
    }

    pub const fn contains(self, c: Colour) -> bool {
        self.0 & (1 << c as u8) != 0
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The one colour, if the set has one.
    pub fn single(self) -> Option<Colour> {
        (self.len() == 1).then(|| Colour::from_index(self.0.trailing_zeros() as u8))
    }

    /// Its colours, red first.
    pub fn iter(self) -> impl Iterator<Item = Colour> {
        Colour::ALL.into_iter().filter(move |&c| self.contains(c))
    }
}

/// How two numbers compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Less,
    AtMost,
    Equal,
    Differ,
    AtLeast,
    More,
}

impl Cmp {
    pub fn holds(self, a: i32, b: i32) -> bool {
        match self {
            Cmp::Less => a < b,
            Cmp::AtMost => a <= b,
            Cmp::Equal => a == b,
            Cmp::Differ => a != b,
            Cmp::AtLeast => a >= b,
            Cmp::More => a > b,
        }
    }

    /// The comparison that holds exactly when this one does not.
    pub fn negated(self) -> Cmp {
        match self {
            Cmp::Less => Cmp::AtLeast,
            Cmp::AtMost => Cmp::More,
            Cmp::Equal => Cmp::Differ,
            Cmp::Differ => Cmp::Equal,
            Cmp::AtLeast => Cmp::Less,
            Cmp::More => Cmp::AtMost,
        }
    }
}

/// How many of some tiles (of the subset, a row, a square, a tile's
/// neighbours): "at least two", "all", "more than half", "an odd number".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Amount {
    /// From `min` to `max`, both included; `max: None` has no upper bound.
    /// "Two" alone means at least two, "no" means exactly zero.
    Range { min: u8, max: Option<u8> },
    /// Every one of them.
    All,
    /// Compared with half of them: `Half(Cmp::More)` is "more than half".
    Half(Cmp),
    /// An odd (`true`) or even number.
    Odd(bool),
}

impl Amount {
    pub const fn at_least(n: u8) -> Amount {
        Amount::Range { min: n, max: None }
    }

    pub const fn at_most(n: u8) -> Amount {
        Amount::Range {
            min: 0,
            max: Some(n),
        }
    }

    pub const fn exactly(n: u8) -> Amount {
        Amount::Range {
            min: n,
            max: Some(n),
        }
    }

    pub const NONE: Amount = Amount::exactly(0);
    pub const SOME: Amount = Amount::at_least(1);

    /// Whether `k` of `n` is this many.
    pub fn holds(self, k: u32, n: u32) -> bool {
        match self {
            Amount::Range { min, max } => k >= u32::from(min) && max.is_none_or(|m| k <= m.into()),
            Amount::All => k == n,
            Amount::Half(cmp) => cmp.holds(2 * k as i32, n as i32),
            Amount::Odd(odd) => (k % 2 == 1) == odd,
        }
    }

    /// The amount that holds exactly when this one does not, when there is
    /// one ("at least two" and "at most one").
    pub fn negated(self) -> Option<Amount> {
        match self {
            Amount::Range { min, max: None } if min > 0 => Some(Amount::at_most(min - 1)),
            Amount::Range {
                min: 0,
                max: Some(m),
            } if m < u8::MAX => Some(Amount::at_least(m + 1)),
            Amount::Half(cmp) => Some(Amount::Half(cmp.negated())),
            Amount::Odd(odd) => Some(Amount::Odd(!odd)),
            _ => None,
        }
    }

    /// The same amount with "all" and "half" of `n` as plain numbers.
    pub fn of(self, n: u8) -> Amount {
        match self {
            Amount::All => Amount::exactly(n),
            Amount::Half(cmp) => {
                let (lo, hi) = (n / 2, n.div_ceil(2));
                match cmp {
                    Cmp::Less => Amount::at_most(hi.saturating_sub(1)),
                    Cmp::AtMost => Amount::at_most(lo),
                    Cmp::AtLeast => Amount::at_least(hi),
                    Cmp::More => Amount::at_least(lo + 1),
                    Cmp::Equal | Cmp::Differ => self,
                }
            }
            other => other,
        }
    }
}

/// Which neighbours count: "adjacent" (the eight around, diagonals
/// included, as the rulebook says), "orthogonally adjacent" (sharing a side)
/// or "diagonally adjacent" (sharing only a corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Adjacency {
    Any,
    Orthogonal,
    Diagonal,
}

/// "Some" (there is one) or "every".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    Some,
    Every,
}

/// Rows or columns of the subset (only those it meets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    Row,
    Column,
}

/// A side of the subset, for naming one tile by its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Left,
    Right,
    Top,
    Bottom,
}

impl Side {
    /// Whether the two sides lie along different axes.
    pub fn crosses(self, other: Side) -> bool {
        matches!(self, Side::Left | Side::Right) != matches!(other, Side::Left | Side::Right)
    }
}

/// One tile named by its position: the `first` side's extreme tiles
/// ("the leftmost tile"), then, among those, the `then` side's ("the top
/// tile of the leftmost column"). It speaks of one tile only, so it is
/// valid only with other parts that speak of the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub first: Side,
    pub then: Option<Side>,
}

/// Tiles of `of` and how many of their neighbours are of `near`: "every
/// red tile is adjacent to a blue tile".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Touching {
    pub quantifier: Quantifier,
    pub of: Colours,
    pub near: Colours,
    pub adjacency: Adjacency,
    pub amount: Amount,
}

/// One claim about the subset's tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// "At least two tiles are red", "all tiles are red or blue", "an odd
    /// number of tiles are blue".
    Count { colours: Colours, amount: Amount },
    /// "More tiles are red than blue", "twice as many": the `left` count
    /// compared with `factor` times the `right` count.
    Compare {
        left: Colours,
        cmp: Cmp,
        factor: u8,
        right: Colours,
    },
    /// "Exactly three colours appear": how many of the four colours have a
    /// tile.
    Colours(Amount),
    /// "More tiles are red than any other colour" (`most`), or fewer.
    Extreme { colour: Colour, most: bool },
    /// "A red tile is adjacent to a blue tile", "every red tile is adjacent
    /// to a blue tile", "some red tile is adjacent to two blue tiles": tiles
    /// of `of` and how many of their neighbours are of `near`.
    Touch(Touching),
    /// "Two adjacent tiles share a colour."
    SameNeighbours(Adjacency),
    /// "Some 2x2 square has a red tile" (squares whose four tiles are all
    /// in the subset).
    Square {
        quantifier: Quantifier,
        colours: Colours,
        amount: Amount,
    },
    /// "Every row has a red tile."
    Lines {
        line: Line,
        quantifier: Quantifier,
        colours: Colours,
        amount: Amount,
    },
    /// "The largest red group has at least three tiles" (`colour: None`:
    /// the largest group of any one colour). A group is a largest set of
    /// same-coloured tiles joined through adjacent ones (diagonals included
    /// unless `orthogonal`).
    Largest {
        colour: Option<Colour>,
        orthogonal: bool,
        amount: Amount,
    },
    /// "The red tiles form two groups"; "all red tiles are connected" is at
    /// most one group.
    Groups {
        colour: Colour,
        orthogonal: bool,
        amount: Amount,
    },
    /// "The leftmost tile is red."
    Tile {
        position: Position,
        colours: Colours,
    },
}

impl Atom {
    /// Whether it speaks of 2×2 squares (the `two-by-two` rule).
    pub fn squares(&self) -> bool {
        matches!(self, Atom::Square { .. })
    }

    /// Whether its decision diagram is dear to build on a large subset (the
    /// largest group of any colour follows every colour's groups at once).
    pub(super) fn dear(&self) -> bool {
        matches!(self, Atom::Largest { colour: None, .. })
    }

    /// The same claim in the one form the printer and the parser share:
    /// an upper bound past the most there can be is no bound ("between
    /// three and four colours" is "at least three"), and "at least" the
    /// most is "exactly" ("a square with four red tiles").
    fn normal(self) -> Atom {
        let bound = |amount: Amount, most: u8| match amount {
            Amount::Range { min, .. } if min >= most => Amount::exactly(most),
            Amount::Range { min, max: Some(m) } if m >= most => Amount::at_least(min),
            other => other,
        };
        let mut atom = self;
        match &mut atom {
            Atom::Colours(amount) | Atom::Square { amount, .. } => *amount = bound(amount.of(4), 4),
            Atom::Touch(t) => t.amount = bound(t.amount, 8),
            _ => {}
        }
        atom
    }
}

/// The meaning of a statement: atoms joined by connectives.
///
/// Built through [`Statement::not`], [`Statement::and`] and the like,
/// which keep one shape for one meaning where English has one sentence for
/// it: no double negation, `and` and `or` flat, a negated atom folded into
/// the atom when it has a negative form of the same kind ("not at least
/// two" is "at most one").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Statement {
    Atom(Atom),
    Not(Box<Statement>),
    And(Vec<Statement>),
    Or(Vec<Statement>),
    /// Exactly one of the two: "either A or B but not both".
    Xor(Box<Statement>, Box<Statement>),
    /// "If A then B".
    If(Box<Statement>, Box<Statement>),
    /// "A if and only if B".
    Iff(Box<Statement>, Box<Statement>),
}

impl From<Atom> for Statement {
    fn from(atom: Atom) -> Statement {
        Statement::Atom(atom.normal())
    }
}

impl Statement {
    /// The negation, folded into the atom where it has a form of its own.
    #[must_use]
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Statement {
        match self {
            Statement::Not(s) => *s,
            Statement::Atom(a) => match negated_atom(a) {
                Some(n) => n.into(),
                None => Statement::Not(Box::new(Statement::Atom(a))),
            },
            Statement::Xor(a, b) => Statement::Iff(a, b),
            Statement::Iff(a, b) => Statement::Xor(a, b),
            Statement::If(a, b) => Statement::and(vec![*a, b.not()]),
            other => Statement::Not(Box::new(other)),
        }
    }

    /// All of `parts` (one part is itself; nested `and`s are flattened).
    pub fn and(parts: Vec<Statement>) -> Statement {
        Statement::joined(parts, true)
    }

    /// Any of `parts` (inclusive).
    pub fn or(parts: Vec<Statement>) -> Statement {
        Statement::joined(parts, false)
    }

    fn joined(parts: Vec<Statement>, and: bool) -> Statement {
        let mut flat = Vec::new();
        for p in parts {
            match p {
                Statement::And(inner) if and => flat.extend(inner),
                Statement::Or(inner) if !and => flat.extend(inner),
                other => flat.push(other),
            }
        }
        // Simple parts first: the printer then puts the one open-ended
        // part ("both …", "if …") last, where it cannot swallow the rest.
        flat.sort_by_key(|p| p.depth() > 0);
        if flat.len() == 1 {
            return flat.pop().expect("one part");
        }
        if and {
            Statement::And(flat)
        } else {
            Statement::Or(flat)
        }
    }

    pub fn xor(a: Statement, b: Statement) -> Statement {
        Statement::Xor(Box::new(a), Box::new(b))
    }

    pub fn implies(a: Statement, b: Statement) -> Statement {
        Statement::If(Box::new(a), Box::new(b))
    }

    pub fn iff(a: Statement, b: Statement) -> Statement {
        Statement::Iff(Box::new(a), Box::new(b))
    }

    /// Its direct parts.
    pub fn parts(&self) -> Vec<&Statement> {
        match self {
            Statement::Atom(_) => Vec::new(),
            Statement::Not(s) => vec![s],
            Statement::And(v) | Statement::Or(v) => v.iter().collect(),
            Statement::Xor(a, b) | Statement::If(a, b) | Statement::Iff(a, b) => vec![a, b],
        }
    }

    /// The parts the every-part-matters rule weighs: every part but the
    /// whole, an atom under "not" weighed with its "not".
    pub fn weighed_parts(&self) -> Vec<&Statement> {
        fn walk<'a>(s: &'a Statement, out: &mut Vec<&'a Statement>) {
            for p in s.parts() {
                out.push(p);
                if !matches!(p, Statement::Not(_)) {
                    walk(p, out);
                }
            }
        }
        let mut out = Vec::new();
        if !matches!(self, Statement::Not(x) if matches!(**x, Statement::Atom(_))) {
            walk(self, &mut out);
        }
        out
    }

    /// Every atom, left to right.
    pub fn atoms(&self) -> Vec<&Atom> {
        match self {
            Statement::Atom(a) => vec![a],
            other => other.parts().into_iter().flat_map(|p| p.atoms()).collect(),
        }
    }

    /// Nodes of the tree (a measure of how complex it is).
    pub fn size(&self) -> usize {
        1 + self.parts().iter().map(|p| p.size()).sum::<usize>()
    }

    /// How deep connectives nest: 0 for an atom or a negated atom.
    pub fn depth(&self) -> usize {
        match self {
            Statement::Atom(_) => 0,
            Statement::Not(s) if matches!(**s, Statement::Atom(_)) => 0,
            other => 1 + other.parts().iter().map(|p| p.depth()).max().unwrap_or(0),
        }
    }

    /// Its truth on `grid`, speaking of the tiles of `subset` (to judge
    /// many grids, see [`Evaluator`]).
    pub fn eval(&self, subset: CellSet, grid: Grid) -> bool {
        Evaluator::new(subset).eval(self, grid)
    }

    /// The colourings of `subset` that make it true (see [`Table`]).
    /// Remembered per thread: a seat's knowledge is rebuilt from the same
    /// statements over and over.
    pub fn table(&self, subset: CellSet) -> Table {
        eval::table(self, subset)
    }

    /// Whether it is valid for `subset`: every tile of the subset matters
    /// to its truth, every part of it matters, and a statement about 2×2
    /// squares has every tile in a 2×2 square inside the subset. Decided
    /// exactly, at every subset size (the word limit is on the words typed:
    /// see [`judge`]).
    pub fn check(&self, subset: CellSet) -> Result<(), Invalid> {
        validity::check(self, subset)
    }

    /// The canonical sentence without the capital and the full stop.
    pub fn sentence(&self) -> String {
        print::sentence(self)
    }
}

/// The atom that holds exactly when `a` does not, when its kind has one.
fn negated_atom(mut atom: Atom) -> Option<Atom> {
    match &mut atom {
        Atom::Count { amount, .. }
        | Atom::Colours(amount)
        | Atom::Largest { amount, .. }
        | Atom::Groups { amount, .. } => *amount = amount.negated()?,
        Atom::Compare { cmp, .. } => *cmp = cmp.negated(),
        Atom::Tile { colours, .. } => *colours = Colours::from_mask(!colours.mask())?,
        _ => return None,
    }
    Some(atom)
}
