//! The canonical sentence of a statement: the reading umpire judges and
//! shows. Lower case, no full stop ([`capitalised`] adds both).
//!
//! Every sentence printed here reads back as the same statement and as no
//! other: each atom has a negative form of its own ("no red tile is …",
//! "not every row has …"), so "it is not true that" is only ever said of a
//! whole `both …` or `either …`; a part nested in another is marked ("both
//! A and B", "either A or B or both"); and the one part that could swallow
//! what follows it ("both …", "if …") is put last.

use super::{
    Adjacency, Amount, Atom, Cmp, Colours, Line, Position, Quantifier, Side, Statement, Touching,
};

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

/// The value of a number word.
pub(super) fn number_word(w: &str) -> Option<u8> {
    NUMBERS.iter().position(|x| *x == w).map(|n| n as u8)
}

/// `text` with a capital and a full stop.
pub(super) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => format!("{}{}.", c.to_ascii_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

/// Colours said of a tile: "red", "red or blue", and three as "not" the
/// fourth ("not red").
fn predicate(c: Colours) -> String {
    match Colours::from_mask(!c.mask()).and_then(Colours::single) {
        Some(missing) if c.len() == 3 => format!("not {missing}"),
        _ => colours(c),
    }
}

/// "red", "red or blue", "red, blue or green".
pub(super) fn colours(c: Colours) -> String {
    let names: Vec<&str> = c.iter().map(|c| c.name()).collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// "at least two", "exactly three", "between two and four" for a range,
/// and whether the noun after it is plural.
fn range(min: u8, max: Option<u8>) -> (String, bool) {
    match max {
        None => (format!("at least {}", number(min)), min != 1),
        Some(m) if m == min => (format!("exactly {}", number(m)), m != 1),
        Some(m) if min == 0 => (format!("at most {}", number(m)), m != 1),
        Some(m) => (format!("between {} and {}", number(min), number(m)), true),
    }
}

/// "at least two red tiles", "a red tile", "no red tile", "only red
/// tiles": `amount` of the tiles of `what` ("red tile").
fn tiles(amount: Amount, what: &str) -> String {
    match amount {
        Amount::Range {
            min: 0,
            max: Some(0),
        } => format!("no {what}"),
        Amount::Range { min: 1, max: None } => format!("a {what}"),
        Amount::Range { min, max } => {
            let (how, many) = range(min, max);
            format!("{how} {what}{}", if many { "s" } else { "" })
        }
        Amount::All => format!("only {what}s"),
        Amount::Half(cmp) => format!("{} {what}s", half(cmp)),
        Amount::Odd(odd) => format!("an {} number of {what}s", parity(odd)),
    }
}

fn half(cmp: Cmp) -> &'static str {
    match cmp {
        Cmp::More => "more than half",
        Cmp::AtLeast => "at least half",
        Cmp::Equal => "exactly half",
        Cmp::Differ => "not exactly half",
        Cmp::AtMost => "at most half",
        Cmp::Less => "fewer than half",
    }
}

fn parity(odd: bool) -> &'static str {
    if odd { "odd" } else { "even" }
}

fn adjacent(adjacency: Adjacency) -> &'static str {
    match adjacency {
        Adjacency::Any => "adjacent",
        Adjacency::Orthogonal => "orthogonally adjacent",
        Adjacency::Diagonal => "diagonally adjacent",
    }
}

fn line_word(line: Line) -> &'static str {
    match line {
        Line::Row => "row",
        Line::Column => "column",
    }
}

/// "twice", "three times".
fn times(factor: u8) -> String {
    match factor {
        2 => "twice".into(),
        n => format!("{} times", number(n)),
    }
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::Left => "leftmost",
        Side::Right => "rightmost",
        Side::Top => "top",
        Side::Bottom => "bottom",
    }
}

/// "the leftmost tile", "the top tile of the leftmost column".
pub(super) fn position(p: Position) -> String {
    match p.then {
        None => format!("the {} tile", side_word(p.first)),
        Some(then) => {
            let line = if matches!(p.first, Side::Left | Side::Right) {
                "column"
            } else {
                "row"
            };
            format!(
                "the {} tile of the {} {line}",
                side_word(then),
                side_word(p.first)
            )
        }
    }
}

/// "how many tiles are red": the count claim, or its negation.
fn count(colours_: Colours, amount: Amount, negated: bool) -> String {
    let c = colours(colours_);
    if negated {
        return match amount {
            Amount::All => format!("not all tiles are {c}"),
            Amount::Range { min, max } => {
                let (how, _) = range(min, max);
                let how = how.strip_prefix("exactly ").unwrap_or(&how).to_string();
                format!("the number of {c} tiles is not {how}")
            }
            // Halves and parities have negations of their own kind.
            other => format!("it is not true that {}", count(colours_, other, false)),
        };
    }
    let c = predicate(colours_);
    match amount {
        Amount::Range {
            min: 0,
            max: Some(0),
        } => format!("no tile is {c}"),
        Amount::Range { min, max } => {
            let (how, many) = range(min, max);
            let verb = if many { "tiles are" } else { "tile is" };
            format!("{how} {verb} {c}")
        }
        Amount::All => format!("all tiles are {c}"),
        Amount::Half(cmp) => format!("{} of the tiles are {c}", half(cmp)),
        Amount::Odd(odd) => format!("an {} number of tiles are {c}", parity(odd)),
    }
}

fn colour_count(amount: Amount, negated: bool) -> String {
    match (amount, negated) {
        (Amount::Range { min: 4, .. } | Amount::All, false) => "all four colours appear".into(),
        (
            Amount::Range {
                min: 0,
                max: Some(0),
            },
            false,
        ) => "no colour appears".into(),
        (Amount::Range { min, max }, false) => {
            let (how, many) = range(min, max);
            let verb = if many {
                "colours appear"
            } else {
                "colour appears"
            };
            format!("{how} {verb}")
        }
        (Amount::Range { min, max }, true) => {
            let (how, _) = range(min, max);
            let how = how.strip_prefix("exactly ").unwrap_or(&how).to_string();
            format!("the number of colours is not {how}")
        }
        (other, false) => format!("{} colours appear", tiles(other, "colour")),
        (other, true) => format!("it is not true that {}", colour_count(other, false)),
    }
}

fn compare(left: Colours, cmp: Cmp, factor: u8, right: Colours) -> String {
    let l = colours(left);
    let r = if right.len() > 1 {
        format!("{} combined", colours(right).replace(" or ", " and "))
    } else {
        colours(right)
    };
    if factor == 1 {
        match cmp {
            Cmp::More => format!("more tiles are {l} than {r}"),
            Cmp::Less => format!("fewer tiles are {l} than {r}"),
            other => format!("{} as many tiles are {l} as {r}", quantity(other)),
        }
    } else {
        let q = match cmp {
            Cmp::More => "more than",
            Cmp::Less => "fewer than",
            other => quantity(other),
        };
        format!("{q} {} as many tiles are {l} as {r}", times(factor))
    }
}

fn quantity(cmp: Cmp) -> &'static str {
    match cmp {
        Cmp::AtLeast => "at least",
        Cmp::AtMost => "at most",
        Cmp::Equal => "exactly",
        Cmp::Differ => "not exactly",
        Cmp::More => "more than",
        Cmp::Less => "fewer than",
    }
}

/// "a blue tile", "at least two blue tiles", "another red tile".
fn neighbours(amount: Amount, near: Colours, same: bool) -> String {
    let c = colours(near);
    if same {
        return match amount {
            Amount::Range { min: 1, max: None } => format!("another {c} tile"),
            Amount::Range {
                min: 0,
                max: Some(0),
            } => format!("no other {c} tile"),
            other => tiles(other, &format!("other {c} tile")),
        };
    }
    tiles(amount, &format!("{c} tile"))
}

/// The atom's sentence, or its negation's.
fn atom(a: &Atom, negated: bool) -> String {
    match *a {
        Atom::Count { colours, amount } => count(colours, amount, negated),
        Atom::Compare {
            left,
            cmp,
            factor,
            right,
        } => compare(
            left,
            if negated { cmp.negated() } else { cmp },
            factor,
            right,
        ),
        Atom::Colours(amount) => colour_count(amount, negated),
        Atom::Extreme { colour, most } => match (most, negated) {
            (true, false) => format!("more tiles are {colour} than any other colour"),
            (true, true) => format!("another colour has at least as many tiles as {colour}"),
            (false, false) => format!("fewer tiles are {colour} than any other colour"),
            (false, true) => format!("another colour has at most as many tiles as {colour}"),
        },
        Atom::Touch(Touching {
            quantifier,
            of,
            near,
            adjacency,
            amount,
        }) => {
            let adj = adjacent(adjacency);
            let same = of == near && of.len() == 1;
            if same && quantifier == Quantifier::Some && amount == Amount::SOME {
                let c = colours(of);
                return format!(
                    "{}two {c} tiles are {adj}",
                    if negated { "no " } else { "" }
                );
            }
            let q = match (quantifier, negated) {
                (Quantifier::Some, false) if amount == Amount::SOME => "a",
                (Quantifier::Some, false) => "some",
                (Quantifier::Some, true) => "no",
                (Quantifier::Every, false) => "every",
                (Quantifier::Every, true) => "not every",
            };
            let subject = if of == Colours::ALL {
                "tile".to_string()
            } else {
                format!("{} tile", colours(of))
            };
            format!(
                "{q} {subject} is {adj} to {}",
                neighbours(amount, near, same)
            )
        }
        Atom::SameNeighbours(adjacency) => format!(
            "{}two {} tiles share a colour",
            if negated { "no " } else { "" },
            adjacent(adjacency)
        ),
        Atom::Square {
            quantifier,
            colours: c,
            amount,
        } => format!(
            "{} 2x2 square has {}",
            quantified(quantifier, negated),
            tiles(amount, &format!("{} tile", colours(c)))
        ),
        Atom::Lines {
            line,
            quantifier,
            colours: c,
            amount,
        } => format!(
            "{} {} has {}",
            quantified(quantifier, negated),
            line_word(line),
            tiles(amount, &format!("{} tile", colours(c)))
        ),
        Atom::Largest {
            colour,
            orthogonal,
            amount,
        } => {
            let mut s = "the largest ".to_string();
            if orthogonal {
                s += "orthogonally connected ";
            }
            if let Some(c) = colour {
                s += c.name();
                s.push(' ');
            }
            s += if negated {
                "group does not have "
            } else {
                "group has "
            };
            s += &group_tiles(amount);
            s
        }
        Atom::Groups {
            colour,
            orthogonal,
            amount,
        } => {
            let orth = if orthogonal { "orthogonally " } else { "" };
            if amount == Amount::at_most(1) && !negated {
                return format!("all {colour} tiles are {orth}connected");
            }
            let noun = if orthogonal {
                "orthogonally connected group"
            } else {
                "group"
            };
            let groups = match amount {
                Amount::Range { min, max } => {
                    let (how, many) = range(min, max);
                    format!("{how} {noun}{}", if many { "s" } else { "" })
                }
                other => tiles(other, noun),
            };
            format!(
                "the {colour} tiles {} {groups}",
                if negated { "do not form" } else { "form" }
            )
        }
        Atom::Tile {
            position: p,
            colours: c,
        } => format!(
            "{} is {}{}",
            position(p),
            if negated { "not " } else { "" },
            predicate(c)
        ),
    }
}

/// "at least three tiles" for a group's size.
fn group_tiles(amount: Amount) -> String {
    match amount {
        Amount::Range { min, max } => {
            let (how, many) = range(min, max);
            format!("{how} {}", if many { "tiles" } else { "tile" })
        }
        other => tiles(other, "tile"),
    }
}

fn quantified(q: Quantifier, negated: bool) -> &'static str {
    match (q, negated) {
        (Quantifier::Some, false) => "some",
        (Quantifier::Some, true) => "no",
        (Quantifier::Every, false) => "every",
        (Quantifier::Every, true) => "not every",
    }
}

fn join(parts: &[Statement], word: &str) -> String {
    parts
        .iter()
        .map(operand)
        .collect::<Vec<_>>()
        .join(&format!(" {word} "))
}

/// A statement standing on its own.
pub(super) fn sentence(s: &Statement) -> String {
    match s {
        Statement::Atom(a) => atom(a, false),
        Statement::Not(inner) => match &**inner {
            Statement::Atom(a) => atom(a, true),
            Statement::And(parts) => format!("it is not true that both {}", join(parts, "and")),
            Statement::Or(parts) => format!("neither {}", join(parts, "nor")),
            other => format!("it is not true that {}", operand(other)),
        },
        Statement::And(parts) => join(parts, "and"),
        Statement::Or(parts) => join(parts, "or"),
        Statement::Xor(a, b) => format!("either {} or {} but not both", operand(a), operand(b)),
        Statement::If(a, b) => format!("if {} then {}", operand(a), operand(b)),
        Statement::Iff(a, b) => format!("{} if and only if {}", operand(a), operand(b)),
    }
}

/// A statement as a part of another: nested `and`s and `or`s are marked.
fn operand(s: &Statement) -> String {
    match s {
        Statement::And(parts) => format!("both {}", join(parts, "and")),
        Statement::Or(parts) => format!("either {} or both", join(parts, "or")),
        other => sentence(other),
    }
}
