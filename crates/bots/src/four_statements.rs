//! A Four Statements bot that plays from the deduction engine.
//!
//! It reads all its seat knows from its view, counts the grids still
//! possible, and: bluffs on the cells it is least sure of with statements
//! whose truth it can least predict (their answers split its grids best);
//! claims each statement true when most possible grids make it true; buys
//! the cell it is least sure of; guesses when one grid is left (or two and
//! it cannot buy).

use rand::RngExt;
use umpire_core::{Game, MatchRng, Seat, SeatView, Viewer};
use umpire_four_statements::deduce::{self, Knowledge, Posterior};
use umpire_four_statements::grid::{CELLS, CellSet};
use umpire_four_statements::knowledge::{self, Memory};
use umpire_four_statements::statement::{self, Statement};
use umpire_four_statements::{
    Action, Bluff, CELL_PRICE, Claims, FourStatements, Item, STATEMENTS, View,
};

use crate::Think;

#[derive(Default)]
pub struct Greedy;

impl crate::Bot for Greedy {
    fn choose(&mut self, seat: SeatView<'_>, _: &Think, rng: &mut MatchRng) -> Option<String> {
        let me = seat.seat();
        let view = seat.typed_view::<FourStatements>()?;
        let known = knowledge::from_view(me, &view);
        let now = deduce::posterior(&known);
        let action = match seat.decision().kind(me)? {
            "bluff" => {
                let state =
                    FourStatements::sample(Viewer::Seat(me), &view, &Memory::default(), rng);
                Action::Bluff(Box::new(bluff(&state, me, &known, &now, rng)))
            }
            "claim" => Action::Claims(claims(&view, me, &known, &now)),
            _ => reveal(&view, me, &known, &now, rng),
        };
        Some(action.to_string())
    }
}

/// How unsure the grids leave cell `i`: the entropy of its colour.
fn entropy(p: &Posterior, i: usize) -> f64 {
    let n = p.count.max(1) as f64;
    p.cells[i]
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let q = c as f64 / n;
            -q * q.log2()
        })
        .sum()
}

/// The share of possible grids that make `s` true.
fn chance_true(known: &Knowledge, now: &Posterior, s: &Statement, subset: CellSet) -> f64 {
    // Too wide to count (a No Limit subset): no better than a coin.
    if now.count == 0 || subset.len() > knowledge::MAX_FACT_TILES {
        return 0.5;
    }
    let mut k = known.clone();
    k.facts.push(s.table(subset));
    deduce::posterior(&k).count as f64 / now.count as f64
}

pub(crate) fn bluff(
    state: &FourStatements,
    me: Seat,
    known: &Knowledge,
    now: &Posterior,
    rng: &mut MatchRng,
) -> Bluff {
    // The subset: of a few random legal ones, the one whose cells are most
    // uncertain.
    let subset = (0..24)
        .map(|_| state.random_subset(me, rng))
        .max_by(|a, b| {
            let score = |s: &CellSet| s.indices().map(|i| entropy(now, i)).sum::<f64>();
            score(a).total_cmp(&score(b))
        })
        .expect("candidates");
    // The statements: of random valid ones, those closest to even odds.
    let mut candidates: Vec<(f64, Statement)> = (0..16)
        .map(|_| statement::random(subset, rng))
        .map(|s| ((chance_true(known, now, &s, subset) - 0.5).abs(), s))
        .collect();
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
    candidates.dedup_by(|a, b| a.1 == b.1);
    let mut chosen: Vec<Statement> = candidates
        .into_iter()
        .map(|(_, s)| s)
        .take(STATEMENTS)
        .collect();
    while chosen.len() < STATEMENTS {
        chosen.push(statement::random(subset, rng));
    }
    Bluff {
        subset,
        statements: chosen.try_into().expect("four statements"),
        smokescreen: (state.has_item(me, Item::Smokescreen) && state.round() >= 2)
            .then(|| rng.random_range(0..STATEMENTS)),
        nolimit: false,
    }
}

pub(crate) fn claims(view: &View, me: Seat, known: &Knowledge, now: &Posterior) -> Claims {
    let Some(theirs) = view
        .rounds
        .last()
        .and_then(|r| r.sides[me.other()].as_ref())
    else {
        return Claims {
            claims: [None; STATEMENTS],
            detective: None,
        };
    };
    let odds: Vec<Option<f64>> = theirs
        .statements
        .iter()
        .map(|s| {
            let said: Statement = s.text.as_deref()?.parse().ok()?;
            Some(chance_true(known, now, &said, theirs.subset))
        })
        .collect();
    let has_detective = !view.items[me].contains_key("detective");
    // Detective on the statement it is least sure of, if that is unsure.
    let detective = odds
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (i, (p - 0.5).abs())))
        .filter(|&(_, d)| d < 0.2)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
        .filter(|_| has_detective);
    Claims {
        claims: std::array::from_fn(|i| odds.get(i).copied().flatten().map(|p| p >= 0.5)),
        detective,
    }
}

pub(crate) fn reveal(
    view: &View,
    me: Seat,
    known: &Knowledge,
    now: &Posterior,
    rng: &mut MatchRng,
) -> Action {
    if let Some(grid) = now.is_certain() {
        return Action::Guess(grid);
    }
    let rp = view.rp[me].unwrap_or(0);
    let may_buy = view.may_buy[me].unwrap_or(false) && rp >= CELL_PRICE;
    if may_buy {
        let mut unsure: Vec<(f64, usize)> = (0..CELLS)
            .map(|i| (entropy(now, i), i))
            .filter(|&(e, _)| e > 0.0)
            .collect();
        unsure.sort_by(|a, b| b.0.total_cmp(&a.0));
        let n = ((rp / CELL_PRICE) as usize).min(2).min(unsure.len());
        if n > 0 {
            return Action::Buy(
                unsure[..n]
                    .iter()
                    .fold(CellSet::EMPTY, |s, &(_, i)| s.with(i)),
            );
        }
    }
    // Two grids left and nothing to buy: an even chance beats waiting.
    match deduce::sample(known, rng) {
        Some(grid) if now.count == 2 => Action::Guess(grid),
        _ => Action::Pass,
    }
}
