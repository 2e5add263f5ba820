//! Random statements: any shape, for tests, and valid ones for bots.

use rand::{Rng, RngExt};

use super::validity::proven;
use super::{Adjacency, Amount, Atom, Cmp, Colours, Line, Quantifier, Statement, Touching};
use crate::grid::{CellSet, Colour};

fn colour<R: Rng + ?Sized>(rng: &mut R) -> Colour {
    Colour::from_index(rng.random_range(0..4u8))
}

/// One colour, now and then two.
fn colours<R: Rng + ?Sized>(rng: &mut R) -> Colours {
    let c = Colours::one(colour(rng));
    if rng.random_ratio(1, 5) {
        c.with(colour(rng))
    } else {
        c
    }
}

/// A number of tiles up to `max`, as players say them.
fn amount<R: Rng + ?Sized>(rng: &mut R, max: u8) -> Amount {
    let k = rng.random_range(0..=max);
    match rng.random_range(0..10) {
        0..=2 => Amount::at_least(k.max(1)),
        3..=5 => Amount::exactly(k),
        6 | 7 => Amount::at_most(k),
        _ => Amount::Range {
            min: k,
            max: Some(k + rng.random_range(1..=2)),
        },
    }
}

/// An amount of the subset's tiles: numbers, all, halves, parity.
fn share<R: Rng + ?Sized>(rng: &mut R, n: u8) -> Amount {
    match rng.random_range(0..12) {
        0 => Amount::All,
        1 => Amount::Half([Cmp::More, Cmp::AtLeast, Cmp::Equal, Cmp::Less][rng.random_range(0..4)]),
        2 => Amount::Odd(rng.random()),
        _ => amount(rng, n.clamp(1, 5)),
    }
}

fn adjacency<R: Rng + ?Sized>(rng: &mut R) -> Adjacency {
    [Adjacency::Any, Adjacency::Orthogonal, Adjacency::Diagonal][rng.random_range(0..3)]
}

fn quantifier<R: Rng + ?Sized>(rng: &mut R) -> Quantifier {
    if rng.random_ratio(2, 3) {
        Quantifier::Some
    } else {
        Quantifier::Every
    }
}

/// A random atom sized for `n` tiles (`squares`: whether 2×2 atoms fit).
fn atom<R: Rng + ?Sized>(rng: &mut R, n: u8, squares: bool) -> Atom {
    match rng.random_range(0..if squares { 13 } else { 12 }) {
        0..=2 => Atom::Count {
            colours: colours(rng),
            amount: share(rng, n),
        },
        3 => Atom::Compare {
            left: Colours::one(colour(rng)),
            cmp: [Cmp::More, Cmp::Less, Cmp::Equal, Cmp::AtLeast][rng.random_range(0..4)],
            factor: if rng.random_ratio(1, 6) { 2 } else { 1 },
            right: colours(rng),
        },
        4 => Atom::Colours(amount(rng, 4)),
        5 => Atom::Extreme {
            colour: colour(rng),
            most: rng.random_ratio(3, 4),
        },
        6 | 7 => Atom::Touch(Touching {
            quantifier: quantifier(rng),
            of: Colours::one(colour(rng)),
            near: Colours::one(colour(rng)),
            adjacency: adjacency(rng),
            amount: if rng.random_ratio(3, 4) {
                Amount::SOME
            } else {
                amount(rng, 2)
            },
        }),
        8 => Atom::SameNeighbours(adjacency(rng)),
        9 => Atom::Largest {
            colour: rng.random_ratio(2, 3).then(|| colour(rng)),
            orthogonal: rng.random_ratio(1, 3),
            amount: amount(rng, n.clamp(1, 4)),
        },
        10 => Atom::Groups {
            colour: colour(rng),
            orthogonal: rng.random_ratio(1, 3),
            amount: if rng.random() {
                Amount::at_most(1)
            } else {
                amount(rng, 3)
            },
        },
        11 => Atom::Lines {
            line: if rng.random() {
                Line::Row
            } else {
                Line::Column
            },
            quantifier: quantifier(rng),
            colours: Colours::one(colour(rng)),
            amount: if rng.random_ratio(1, 6) {
                Amount::All
            } else {
                amount(rng, 2)
            },
        },
        _ => Atom::Square {
            quantifier: quantifier(rng),
            colours: Colours::one(colour(rng)),
            amount: amount(rng, 3),
        },
    }
}

fn part<R: Rng + ?Sized>(rng: &mut R, n: u8, squares: bool) -> Statement {
    let a = Statement::from(atom(rng, n, squares));
    if rng.random_ratio(1, 6) { a.not() } else { a }
}

/// A random statement about `subset`, valid or not: one atom, or two or
/// three joined by a connective (for tests and benchmarks).
pub fn arbitrary<R: Rng + ?Sized>(subset: CellSet, rng: &mut R) -> Statement {
    let n = subset.len() as u8;
    let frame = super::eval::Frame::new(subset);
    let squares = !frame.squares.is_empty() && frame.in_squares() == subset.0;
    let (a, b) = (part(rng, n, squares), part(rng, n, squares));
    match rng.random_range(0..14) {
        0..=6 => a,
        7 | 8 => Statement::and(vec![a, b]),
        9 | 10 => Statement::or(vec![a, b]),
        11 => Statement::xor(a, b),
        12 => Statement::implies(a, b),
        _ => {
            let c = part(rng, n, squares);
            Statement::or(vec![a, Statement::and(vec![b, c])])
        }
    }
}

/// A random statement valid for `subset` (its validity proven by
/// colourings: it always passes [`Statement::check`]); after a few hundred
/// misses, "At least one tile is red.", valid for every non-empty subset.
pub fn random<R: Rng + ?Sized>(subset: CellSet, rng: &mut R) -> Statement {
    for _ in 0..300 {
        let s = arbitrary(subset, rng);
        if s.to_string().split_whitespace().count() <= super::MAX_WORDS && proven(&s, subset, rng) {
            return s;
        }
    }
    Atom::Count {
        colours: Colours::one(Colour::Red),
        amount: Amount::SOME,
    }
    .into()
}
