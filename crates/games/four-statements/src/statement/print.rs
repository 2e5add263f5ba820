//! The canonical sentence of a statement (lower case, no full stop; the
//! `Display` impl capitalises it and adds the stop).

use super::{Adjacency, Atom, Comparison, Count, Line, Literal, Position, Quantifier, Statement};

const NUMBERS: [&str; 17] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
];

/// A number in words up to sixteen, digits above.
pub(super) fn number(n: u8) -> String {
    NUMBERS
        .get(usize::from(n))
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

/// The number words the parser reads, with their values.
pub(super) fn number_word(w: &str) -> Option<u8> {
    NUMBERS.iter().position(|x| *x == w).map(|n| n as u8)
}

fn noun(n: u8, singular: &str, plural: &str) -> String {
    if n == 1 { singular } else { plural }.to_string()
}

/// "at least two", "exactly three", "at most one".
fn how_many(count: Count) -> String {
    match count {
        Count::AtLeast(n) => format!("at least {}", number(n)),
        Count::Exactly(n) => format!("exactly {}", number(n)),
        Count::AtMost(n) => format!("at most {}", number(n)),
    }
}

/// "at least two red tiles", "no red tiles" (with `what` = "red tile").
fn has(count: Count, what: &str) -> String {
    if count == Count::Exactly(0) {
        return format!("no {what}s");
    }
    if count == Count::AtLeast(1) && what != "tile" {
        return format!("a {what}");
    }
    let n = count.number();
    format!(
        "{} {}{}",
        how_many(count),
        what,
        if n == 1 { "" } else { "s" }
    )
}

fn adjacent(adjacency: Adjacency) -> &'static str {
    match adjacency {
        Adjacency::Any => "adjacent",
        Adjacency::Orthogonal => "orthogonally adjacent",
        Adjacency::Diagonal => "diagonally adjacent",
    }
}

fn square_phrase(q: Quantifier, negated: bool) -> &'static str {
    match (q, negated) {
        (Quantifier::Some, false) => "some 2x2 square has",
        (Quantifier::Some, true) => "no 2x2 square has",
        (Quantifier::Every, false) => "every 2x2 square has",
        (Quantifier::Every, true) => "not every 2x2 square has",
    }
}

fn line_word(line: Line) -> &'static str {
    match line {
        Line::Row => "row",
        Line::Column => "column",
    }
}

/// The atom, or its negation when `negated`; `None` when the atom has no
/// negative form of its own (the caller says "it is not true that").
fn atom(at: &Atom, negated: bool) -> Option<String> {
    Some(match *at {
        Atom::Count { colour, count } => {
            if negated {
                return None;
            }
            if count == Count::Exactly(0) {
                format!("no tile is {colour}")
            } else {
                let n = count.number();
                format!(
                    "{} {} {colour}",
                    how_many(count),
                    if n == 1 { "tile is" } else { "tiles are" }
                )
            }
        }
        Atom::Compare {
            left,
            comparison,
            right,
        } => {
            if negated {
                return None;
            }
            match comparison {
                Comparison::More => format!("more tiles are {left} than {right}"),
                Comparison::Fewer => format!("fewer tiles are {left} than {right}"),
                Comparison::AsMany => format!("as many tiles are {left} as {right}"),
            }
        }
        Atom::Colours(count) => {
            if negated {
                return None;
            }
            let n = count.number();
            if count == Count::Exactly(0) {
                "there are no colours".to_string()
            } else {
                format!(
                    "there {} {} {}",
                    if n == 1 { "is" } else { "are" },
                    how_many(count),
                    noun(n, "colour", "colours")
                )
            }
        }
        Atom::Adjacent {
            a: x,
            b: y,
            adjacency,
        } if x == y => format!(
            "{} two {x} tiles are {}",
            if negated { "no" } else { "" },
            adjacent(adjacency)
        )
        .trim_start()
        .to_string(),
        Atom::Adjacent {
            a: x,
            b: y,
            adjacency,
        } => format!(
            "{} {x} tile is {} to a {y} tile",
            if negated { "no" } else { "a" },
            adjacent(adjacency),
        ),
        Atom::SameColourNeighbours(adjacency) => format!(
            "{}two {} tiles share a colour",
            if negated { "no " } else { "" },
            adjacent(adjacency)
        ),
        Atom::Square {
            quantifier,
            colour,
            count,
        } => format!(
            "{} {}",
            square_phrase(quantifier, negated),
            has(count, &format!("{colour} tile"))
        ),
        Atom::Largest {
            colour,
            orthogonal,
            count,
        } => {
            if negated {
                return None;
            }
            let mut s = "the largest ".to_string();
            if orthogonal {
                s.push_str("orthogonally connected ");
            }
            if let Some(c) = colour {
                s.push_str(c.name());
                s.push(' ');
            }
            s.push_str("group has ");
            s.push_str(&has(count, "tile"));
            s
        }
        Atom::Connected { colour, orthogonal } => format!(
            "{}all {colour} tiles are {}connected",
            if negated { "not " } else { "" },
            if orthogonal { "orthogonally " } else { "" }
        ),
        Atom::Lines {
            line,
            quantifier,
            colour,
            count,
        } => {
            let q = match (quantifier, negated) {
                (Quantifier::Some, false) => "some",
                (Quantifier::Some, true) => "no",
                (Quantifier::Every, false) => "every",
                (Quantifier::Every, true) => "not every",
            };
            format!(
                "{q} {} has {}",
                line_word(line),
                has(count, &format!("{colour} tile"))
            )
        }
        Atom::Tile { position, colour } => {
            if negated {
                return None;
            }
            let p = match position {
                Position::Leftmost => "leftmost",
                Position::Rightmost => "rightmost",
                Position::Top => "top",
                Position::Bottom => "bottom",
            };
            format!("the {p} tile is {colour}")
        }
    })
}

fn literal(l: &Literal) -> String {
    atom(&l.atom, l.negated)
        .unwrap_or_else(|| format!("it is not true that {}", atom(&l.atom, false).unwrap()))
}

fn join<T>(items: &[T], sep: &str, f: impl Fn(&T) -> String) -> String {
    items.iter().map(f).collect::<Vec<_>>().join(sep)
}

fn conj(lits: &[Literal]) -> String {
    join(lits, " and ", literal)
}

/// The canonical sentence. A statement that is one `xor` of two parts says
/// "either A or B but not both" when that fits in 15 words, else "A xor B".
pub(super) fn sentence(s: &Statement) -> String {
    if let [x] = s.any.as_slice() {
        if let [l, r] = x.as_slice() {
            let long = format!("either {} or {} but not both", conj(l), conj(r));
            if long.split_whitespace().count() <= super::MAX_WORDS {
                return long;
            }
        }
    }
    join(&s.any, " or ", |x| join(x, " xor ", |a| conj(a)))
}
