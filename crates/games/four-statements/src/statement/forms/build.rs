//! The meanings of the phrasings: what each line of `forms.txt` makes of
//! what its slots took. A meaning may give several readings (when the
//! phrase itself reads two ways, like "all tiles are not red"), or none
//! (when the slots took something the claim cannot be about).

use super::Caps;
use crate::grid::Colour;
use crate::statement::{
    Adjacency, Amount, Atom, Cmp, Colours, Position, Quantifier, Statement, Touching,
};

/// The readings of one match.
pub(super) type Build = fn(&Caps) -> Vec<Statement>;

/// The meaning named in `forms.txt`.
pub(super) fn named(name: &str) -> Option<Build> {
    Some(match name {
        "count" => count,
        "count_is" => count_is,
        "count_not_after" => count_not_after,
        "all" => |c| counted(c, Amount::All),
        "none" => |c| counted(c, Amount::NONE),
        "most" => |c| counted(c, Amount::Half(Cmp::More)),
        "appears" => |c| counted(c, Amount::SOME),
        "each_appears" => each_appears,
        "only_these" => only_these,
        "colours" | "colours_is" => colours,
        "all_colours" => |_| colour_count(Amount::exactly(4)),
        "colour_missing" => |_| colour_count(Amount::at_most(3)),
        "one_colour" => |_| colour_count(Amount::exactly(1)),
        "several_colours" => |_| colour_count(Amount::at_least(2)),
        "compare_more" | "compare_as_many" => |c| compare(c, c.cmps[0], 1),
        "compare_factor" => |c| compare(c, c.cmps[0], c.factor),
        "compare_union_or_each" => compare_union_or_each,
        "compare_each" => |c| compare_each(c, c.cmps[0]),
        "more" => |c| compare(c, Cmp::More, 1),
        "fewer" => |c| compare(c, Cmp::Less, 1),
        "equal" => |c| compare(c, Cmp::Equal, 1),
        "differ" => |c| compare(c, Cmp::Differ, 1),
        "at_least" => |c| compare(c, Cmp::AtLeast, 1),
        "at_most" => |c| compare(c, Cmp::AtMost, 1),
        "most_common" => |c| extreme(c, true),
        "least_common" => |c| extreme(c, false),
        "none_more_common" => none_more_common,
        "touch" => |c| quantified_touch(c, c.colours[0], c.colours[1]),
        "touch_itself" => |c| quantified_touch(c, c.colours[0], c.colours[0]),
        "touch_any_tile" => |c| quantified_touch(c, Colours::ALL, c.colours[0]),
        "touch_there" => touch_there,
        "touch_some" => |c| {
            one(touch(
                c,
                Quantifier::Some,
                false,
                c.colours[0],
                c.colours[1],
            ))
        },
        "touch_none" => |c| one(touch(c, Quantifier::Some, true, c.colours[0], c.colours[1])),
        "pair" => |c| {
            one(touch(
                c,
                Quantifier::Some,
                false,
                c.colours[0],
                c.colours[0],
            ))
        },
        "no_pair" => |c| one(touch(c, Quantifier::Some, true, c.colours[0], c.colours[0])),
        "run_of" => run_of,
        "same" => same,
        "same_q" => same_q,
        "square" => square,
        "lines" | "lines_there" => lines,
        "connected" => connected,
        "connected_amount" => connected_amount,
        "form_groups" => form_groups,
        "groups" => groups,
        "largest" => |c| largest(c, single(c).map(Some)),
        "largest_any" => |c| largest(c, Some(None)),
        "largest_at_most" => |c| {
            let mut c = c.clone();
            c.amounts.push(Amount::at_most(c.numbers[0]));
            largest(&c, single(&c).map(Some))
        },
        "tile" => tile,
        "tile_of_column" => |c| tile_of_line(c, true),
        "tile_of_row" => |c| tile_of_line(c, false),
        _ => return None,
    })
}

fn one(s: Statement) -> Vec<Statement> {
    vec![s]
}

fn negate_if(not: bool, s: Statement) -> Statement {
    if not { s.not() } else { s }
}

/// The one colour named (a group is of one colour: "red or blue" reads as
/// nothing there).
fn single(c: &Caps) -> Option<Colour> {
    c.colours[0].single()
}

fn union(list: &[Colour]) -> Colours {
    list.iter().fold(Colours::one(list[0]), |s, &c| s.with(c))
}

/// How many tiles are of `colours`, with "not all" applied.
fn count_of(c: &Caps, colours: Colours) -> Statement {
    let s = Statement::from(Atom::Count {
        colours,
        amount: c.amounts[0],
    });
    negate_if(c.amount_not, s)
}

fn count(c: &Caps) -> Vec<Statement> {
    one(negate_if(c.not, count_of(c, c.colours[0])))
}

/// "The number of red tiles is two" (exact), "… is not two".
fn count_is(c: &Caps) -> Vec<Statement> {
    one(count_of(c, c.colours[0]))
}

/// "Two tiles are not red": two are of the other colours. "All tiles are
/// not red" reads also as "not all tiles are red".
fn count_not_after(c: &Caps) -> Vec<Statement> {
    let colours = c.colours[0];
    let mut out = Vec::new();
    if let Some(others) = Colours::from_mask(!colours.mask()) {
        out.push(count_of(c, others));
    }
    if c.amounts[0] == Amount::All && !c.amount_not {
        out.push(count_of(c, colours).not());
    }
    out
}

/// A count of the first colours with a fixed amount.
fn counted(c: &Caps, amount: Amount) -> Vec<Statement> {
    let s = Atom::Count {
        colours: c.colours[0],
        amount,
    };
    one(negate_if(c.not, s.into()))
}

/// "Red and blue appear", "neither red nor blue appears".
fn each_appears(c: &Caps) -> Vec<Statement> {
    let colours: Vec<Colour> = match c.lists.first() {
        Some(list) => list.clone(),
        None => c.colours.iter().filter_map(|s| s.single()).collect(),
    };
    let parts = colours
        .into_iter()
        .map(|col| {
            let s = Atom::Count {
                colours: Colours::one(col),
                amount: Amount::SOME,
            };
            negate_if(c.not, s.into())
        })
        .collect();
    one(Statement::and(parts))
}

/// "Only red and blue appear": every tile is one of them.
fn only_these(c: &Caps) -> Vec<Statement> {
    let s = Atom::Count {
        colours: union(&c.lists[0]),
        amount: Amount::All,
    };
    one(s.into())
}

fn colours(c: &Caps) -> Vec<Statement> {
    let s = Statement::from(Atom::Colours(c.amounts[0].of(4)));
    one(negate_if(c.not ^ c.amount_not, s))
}

fn colour_count(amount: Amount) -> Vec<Statement> {
    one(Atom::Colours(amount).into())
}

/// `left` compared with `factor` times `right`; "than blue or green"
/// reads both as the two together and as each of them.
fn compare(c: &Caps, cmp: Cmp, factor: u8) -> Vec<Statement> {
    let cmp = if c.not { cmp.negated() } else { cmp };
    let (left, right) = (c.colours[0], c.colours[1]);
    let mut out = vec![
        Atom::Compare {
            left,
            cmp,
            factor,
            right,
        }
        .into(),
    ];
    if right.len() > 1 && !c.combined {
        out.push(each(left, cmp, factor, right.iter()));
    }
    out
}

fn each(left: Colours, cmp: Cmp, factor: u8, right: impl Iterator<Item = Colour>) -> Statement {
    Statement::and(
        right
            .map(|col| {
                Atom::Compare {
                    left,
                    cmp,
                    factor,
                    right: Colours::one(col),
                }
                .into()
            })
            .collect(),
    )
}

/// "More red tiles than blue and green tiles": the two together, or each.
fn compare_union_or_each(c: &Caps) -> Vec<Statement> {
    let cmp = if c.not {
        c.cmps[0].negated()
    } else {
        c.cmps[0]
    };
    let left = c.colours[0];
    let together = Atom::Compare {
        left,
        cmp,
        factor: 1,
        right: union(&c.lists[0]),
    };
    vec![
        together.into(),
        each(left, cmp, 1, c.lists[0].iter().copied()),
    ]
}

fn compare_each(c: &Caps, cmp: Cmp) -> Vec<Statement> {
    one(each(c.colours[0], cmp, 1, c.lists[0].iter().copied()))
}

fn extreme(c: &Caps, most: bool) -> Vec<Statement> {
    single(c)
        .map(|colour| negate_if(c.not, Atom::Extreme { colour, most }.into()))
        .into_iter()
        .collect()
}

/// "No colour is more common than red": red has at least as many as each.
fn none_more_common(c: &Caps) -> Vec<Statement> {
    let Some(colour) = single(c) else {
        return Vec::new();
    };
    let others = Colour::ALL.into_iter().filter(|&x| x != colour);
    one(each(Colours::one(colour), Cmp::AtLeast, 1, others))
}

/// Tiles of `of` and how many of their neighbours are of `near` (the last
/// amount taken; at least one when none was).
fn touch(c: &Caps, quantifier: Quantifier, negated: bool, of: Colours, near: Colours) -> Statement {
    let s = Statement::from(Atom::Touch(Touching {
        quantifier,
        of,
        near,
        adjacency: c.adjacency.first().copied().unwrap_or(Adjacency::Any),
        amount: c.amounts.last().copied().unwrap_or(Amount::SOME),
    }));
    negate_if(negated ^ c.not, s)
}

/// "{q} red tile is adjacent to a blue tile".
fn quantified_touch(c: &Caps, of: Colours, near: Colours) -> Vec<Statement> {
    let (q, neg) = c.quantifiers[0];
    one(touch(c, q, neg, of, near))
}

/// "There is a red tile next to a blue tile", "there is no red tile …".
fn touch_there(c: &Caps) -> Vec<Statement> {
    let negated = match c.amounts[0] {
        Amount::SOME => false,
        Amount::NONE => true,
        _ => return Vec::new(),
    };
    let mut c = c.clone();
    c.amounts.remove(0);
    one(touch(
        &c,
        Quantifier::Some,
        negated,
        c.colours[0],
        c.colours[1],
    ))
}

/// "There are three adjacent red tiles": two are a pair, more a group.
fn run_of(c: &Caps) -> Vec<Statement> {
    let Amount::Range { min, max: None } = c.amounts[0] else {
        return Vec::new();
    };
    let adjacency = c.adjacency.first().copied().unwrap_or(Adjacency::Any);
    if min == 2 {
        let mut pair = c.clone();
        pair.amounts.clear();
        return one(touch(
            &pair,
            Quantifier::Some,
            false,
            c.colours[0],
            c.colours[0],
        ));
    }
    let Some(colour) = single(c).filter(|_| adjacency != Adjacency::Diagonal && min > 2) else {
        return Vec::new();
    };
    one(Atom::Largest {
        colour: Some(colour),
        orthogonal: adjacency == Adjacency::Orthogonal,
        amount: c.amounts[0],
    }
    .into())
}

fn same(c: &Caps) -> Vec<Statement> {
    let a = c.adjacency.first().copied().unwrap_or(Adjacency::Any);
    one(negate_if(c.not, Atom::SameNeighbours(a).into()))
}

/// "Some tile is adjacent to a tile of the same colour", "no tile is …".
fn same_q(c: &Caps) -> Vec<Statement> {
    let (q, neg) = c.quantifiers[0];
    if q == Quantifier::Every {
        return Vec::new();
    }
    let mut c = c.clone();
    c.not ^= neg;
    same(&c)
}

fn square(c: &Caps) -> Vec<Statement> {
    let (quantifier, neg) = c.quantifiers[0];
    let s = Atom::Square {
        quantifier,
        colours: c.colours[0],
        amount: c.amounts.first().copied().unwrap_or(Amount::SOME).of(4),
    };
    one(negate_if(neg ^ c.not, s.into()))
}

fn lines(c: &Caps) -> Vec<Statement> {
    let (quantifier, neg) = c.quantifiers[0];
    let s = Atom::Lines {
        line: c.lines[0],
        quantifier,
        colours: c.colours[0],
        amount: c.amounts.first().copied().unwrap_or(Amount::SOME),
    };
    one(negate_if(neg ^ c.not ^ c.amount_not, s.into()))
}

fn groups_of(c: &Caps, amount: Amount, not: bool) -> Vec<Statement> {
    single(c)
        .map(|colour| {
            let s = Atom::Groups {
                colour,
                orthogonal: c.orthogonal,
                amount,
            };
            negate_if(not, s.into())
        })
        .into_iter()
        .collect()
}

/// "All red tiles are connected": at most one group.
fn connected(c: &Caps) -> Vec<Statement> {
    groups_of(c, Amount::at_most(1), c.not ^ c.amount_not)
}

/// "All red tiles are connected", "three red tiles are connected".
fn connected_amount(c: &Caps) -> Vec<Statement> {
    if c.amounts[0] == Amount::All {
        return groups_of(c, Amount::at_most(1), c.amount_not);
    }
    let mut c = c.clone();
    c.adjacency.push(if c.orthogonal {
        Adjacency::Orthogonal
    } else {
        Adjacency::Any
    });
    run_of(&c)
}

/// "The red tiles form two groups": a bare number is exact here.
fn form_groups(c: &Caps) -> Vec<Statement> {
    let amount = match c.amounts[0] {
        Amount::Range { min, max: None } if c.bare => Amount::exactly(min),
        other => other,
    };
    groups_of(c, amount, c.not)
}

fn groups(c: &Caps) -> Vec<Statement> {
    groups_of(c, c.amounts[0], c.not)
}

/// The largest group's size (`colour: None`: of any colour; the outer
/// `None`: no one colour was named).
fn largest(c: &Caps, colour: Option<Option<Colour>>) -> Vec<Statement> {
    let Some(colour) = colour else {
        return Vec::new();
    };
    let amount = *c.amounts.last().expect("an amount");
    if !matches!(amount, Amount::Range { .. }) {
        return Vec::new();
    }
    let s = Atom::Largest {
        colour,
        orthogonal: c.orthogonal,
        amount,
    };
    one(negate_if(c.not ^ c.amount_not, s.into()))
}

/// "The leftmost tile", "the top left tile" (both orders).
fn tile(c: &Caps) -> Vec<Statement> {
    let positions: Vec<Position> = match c.sides.as_slice() {
        [first] => vec![Position {
            first: *first,
            then: None,
        }],
        [a, b] if a.crosses(*b) => vec![
            Position {
                first: *a,
                then: Some(*b),
            },
            Position {
                first: *b,
                then: Some(*a),
            },
        ],
        _ => Vec::new(),
    };
    positions
        .into_iter()
        .map(|position| {
            let s = Atom::Tile {
                position,
                colours: c.colours[0],
            };
            negate_if(c.not, s.into())
        })
        .collect()
}

/// "The top tile of the leftmost column": the line's side first (a column
/// is the left or right one, a row the top or bottom one).
fn tile_of_line(c: &Caps, column: bool) -> Vec<Statement> {
    let (then, first) = (c.sides[0], c.sides[1]);
    let sideways = matches!(
        first,
        crate::statement::Side::Left | crate::statement::Side::Right
    );
    if !then.crosses(first) || sideways != column {
        return Vec::new();
    }
    let s = Atom::Tile {
        position: Position {
            first,
            then: Some(then),
        },
        colours: c.colours[0],
    };
    one(negate_if(c.not, s.into()))
}
