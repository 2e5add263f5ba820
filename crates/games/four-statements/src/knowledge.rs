//! All one seat knows of the grid, read from its view: its known and bought
//! cells, the truth of its own statements, how many of its claims were right
//! (its points tell it), its Detective answers and its wrong guesses. The
//! opponent's statements alone tell nothing: only the seat's claims on them
//! and Detective do.

use umpire_core::{PerSeat, Seat};

use crate::STATEMENTS;
use crate::deduce::Knowledge;
use umpire_core::Cell;

use crate::grid::{CellSet, Grid, index};
use crate::statement::Statement;
use crate::table::Table;
use std::str::FromStr;

use crate::view::{SideView, StatementView, View};

/// The widest subset whose facts are counted: a fact is a table over all
/// colourings of its subset (4^10 of them here). Wider subsets are possible
/// only with No Limit; what their statements tell is left out, so the
/// count then covers a few grids too many, never too few.
pub const MAX_FACT_TILES: usize = 10;

/// What `seat` knows, from its view.
pub fn from_view(seat: Seat, view: &View) -> Knowledge {
    let mut k = Knowledge::default();
    if let Some(known) = crate::view::known_colours(view, seat) {
        k.known = known;
    }
    for r in &view.rounds {
        let (Some(mine), Some(theirs)) = (&r.sides[seat], &r.sides[seat.other()]) else {
            continue;
        };
        if let Some(fact) = own_truths(mine) {
            k.facts.push(fact);
        }
        k.facts.extend(claims_fact(mine, theirs));
        k.facts.extend(detective_fact(mine, theirs));
        if let Some(guess) = &mine.guess {
            if guess.ends_with("wrong") {
                if let Ok(grid) = Grid::parse(&guess[..16.min(guess.len())]) {
                    k.not.push(grid);
                }
            }
        }
    }
    k
}

/// Whether `grid` agrees with what `seat` learned about subsets wider than
/// [`MAX_FACT_TILES`] (left out of its [`Knowledge`]): checked one grid at a
/// time, so a sampler can draw from the count and keep only such grids.
pub fn wide_facts_hold(seat: Seat, view: &View, grid: Grid) -> bool {
    view.rounds.iter().all(|r| {
        let (Some(mine), Some(theirs)) = (&r.sides[seat], &r.sides[seat.other()]) else {
            return true;
        };
        let own = mine.subset.len() <= MAX_FACT_TILES
            || statements(mine)
                .iter()
                .zip(&mine.statements)
                .all(|(s, v)| match (s, v.truth) {
                    (Some(s), Some(truth)) => s.eval(mine.subset, grid) == truth,
                    _ => true,
                });
        let claimed = theirs.subset.len() <= MAX_FACT_TILES || claims_hold(mine, theirs, grid);
        own && claimed
    })
}

/// Whether `grid` makes the seat's claims right as often as it was told,
/// and Detective's answer true.
fn claims_hold(mine: &SideView, theirs: &SideView, grid: Grid) -> bool {
    let said = statements(theirs);
    let detective = mine.detective.map(|n| n - 1);
    let answer_holds = detective.is_none_or(|i| match (&said[i], theirs.statements[i].truth) {
        (Some(s), Some(t)) => s.eval(theirs.subset, grid) == t,
        _ => true,
    });
    let (Some(correct), Some(claims)) = (mine.correct, mine.claims.as_deref()) else {
        return answer_holds;
    };
    let right = said
        .iter()
        .zip(claims.split(' '))
        .enumerate()
        .filter(|&(i, _)| Some(i) != detective)
        .filter(|(_, (s, claim))| {
            s.as_ref().is_some_and(|s| {
                let truth = s.eval(theirs.subset, grid);
                (*claim == "T" && truth) || (*claim == "F" && !truth)
            })
        })
        .count();
    answer_holds && right == correct as usize
}

/// The statements of a side, parsed back from their sentences (`None` for
/// one the viewer cannot read).
fn statements(side: &SideView) -> Vec<Option<Statement>> {
    side.statements
        .iter()
        .map(|s| s.text.as_deref().and_then(|t| t.parse().ok()))
        .collect()
}

/// The colourings of the seat's own subset that give its statements the
/// truths it was told.
fn own_truths(side: &SideView) -> Option<Table> {
    let subset = Some(side.subset).filter(|s| s.len() <= MAX_FACT_TILES)?;
    let mut fact: Option<Table> = None;
    for (s, v) in statements(side).into_iter().zip(&side.statements) {
        let (Some(s), Some(truth)) = (s, v.truth) else {
            continue;
        };
        let t = s.table(subset);
        let t = if truth { t } else { t.not() };
        fact = Some(match fact {
            Some(f) => f.and(&t),
            None => t,
        });
    }
    fact
}

/// The colourings of the opponent's subset under which the seat's claims
/// (the Detective statement's aside) were right exactly as often as its
/// points say.
fn claims_fact(mine: &SideView, theirs: &SideView) -> Option<Table> {
    let correct = mine.correct?;
    let claims: Vec<Option<bool>> = mine
        .claims
        .as_deref()?
        .split(' ')
        .map(|c| match c {
            "T" => Some(true),
            "F" => Some(false),
            _ => None,
        })
        .collect();
    let subset: CellSet = Some(theirs.subset).filter(|s| s.len() <= MAX_FACT_TILES)?;
    let said = statements(theirs);
    let detective = mine.detective.map(|n| n - 1);
    let agree: Vec<Table> = said
        .iter()
        .enumerate()
        .filter(|&(i, _)| Some(i) != detective)
        .filter_map(|(i, said)| {
            let (s, claim) = (said.as_ref()?, claims.get(i).copied().flatten()?);
            let t = s.table(subset);
            Some(if claim { t } else { t.not() })
        })
        .collect();
    // Colourings where exactly `correct` claims agree with the truth.
    (!agree.is_empty()).then(|| Table::exactly(subset, correct as usize, &agree))
}

/// The colourings of the opponent's subset where its statement has the
/// truth Detective told (as soon as it was asked).
fn detective_fact(mine: &SideView, theirs: &SideView) -> Option<Table> {
    let i = mine.detective? - 1;
    let subset: CellSet = Some(theirs.subset).filter(|s| s.len() <= MAX_FACT_TILES)?;
    let said: Statement = theirs.statements.get(i)?.text.as_deref()?.parse().ok()?;
    let t = said.table(subset);
    Some(if theirs.statements[i].truth? {
        t
    } else {
        t.not()
    })
}

/// What a viewer keeps between views: the knowledge its latest view gives
/// each seat (a view holds its seat's whole notebook, and does not say
/// whose it is), so sampling need not rebuild it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    pub knowledge: Option<PerSeat<Knowledge>>,
}

impl Memory {
    pub fn remember(&mut self, view: &View) {
        self.knowledge = Some(PerSeat::from_fn(|seat| from_view(seat, view)));
    }

    /// What `seat` knows: remembered, or read from `view`.
    pub fn of(&self, seat: Seat, view: &View) -> Knowledge {
        match &self.knowledge {
            Some(k) => k[seat].clone(),
            None => from_view(seat, view),
        }
    }
}

/// A seat's knowledge as a host writes it down, for `umpire statement
/// deduce`:
///
/// ```json
/// {
///   "known": {"A1": "red", "C3": "blue"},
///   "statements": [
///     {"subset": "A1 B1 A2 B2", "statement": "There are two red tiles.", "truth": true}
///   ],
///   "claims": [
///     {"subset": "C1 D1 C2 D2",
///      "statements": ["There is a blue tile.", null, "There are no green tiles.", "There is a red tile."],
///      "claims": "T - F T", "correct": 2, "detective": 4, "answer": false}
///   ],
///   "wrong_guesses": ["RRBGYGBRBBRYGYRG"]
/// }
/// ```
///
/// `statements` are the seat's own, with the truth it was told; each entry
/// of `claims` is one round's claims on the opponent's four statements
/// (`null` for one it could not read), how many were right, and the
/// Detective question (1–4) with its answer.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Written {
    pub known: std::collections::BTreeMap<String, crate::grid::Colour>,
    pub statements: Vec<WrittenTruth>,
    pub claims: Vec<WrittenClaims>,
    pub wrong_guesses: Vec<String>,
}

#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenTruth {
    pub subset: String,
    pub statement: String,
    pub truth: bool,
}

#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenClaims {
    pub subset: String,
    pub statements: Vec<Option<String>>,
    pub claims: String,
    pub correct: u8,
    #[serde(default)]
    pub detective: Option<usize>,
    #[serde(default)]
    pub answer: Option<bool>,
}

impl Written {
    /// The knowledge it describes, or what is wrong with it.
    pub fn knowledge(&self) -> Result<Knowledge, String> {
        let mut k = Knowledge::default();
        for (name, colour) in &self.known {
            let c = Cell::parse(name, 4, 4).map_err(|e| format!("known: {e}"))?;
            k.known[index(c)] = Some(*colour);
        }
        for (n, s) in self.statements.iter().enumerate() {
            let at = |e: String| format!("statements[{n}]: {e}");
            let subset =
                wide(CellSet::parse(&s.subset).map_err(|e| at(e.to_string()))?).map_err(at)?;
            let said =
                crate::statement::read(&s.statement, subset).map_err(|e| at(e.to_string()))?;
            let t = said.table(subset);
            k.facts.push(if s.truth { t } else { t.not() });
        }
        for (n, c) in self.claims.iter().enumerate() {
            let at = |e: String| format!("claims[{n}]: {e}");
            let subset =
                wide(CellSet::parse(&c.subset).map_err(|e| at(e.to_string()))?).map_err(at)?;
            if c.statements.len() != STATEMENTS {
                return Err(at(format!(
                    "{} statements: a round has 4",
                    c.statements.len()
                )));
            }
            let statements = c
                .statements
                .iter()
                .map(|s| {
                    let read = match s.as_deref() {
                        Some(t) => Some(
                            crate::statement::read(t, subset)
                                .map_err(|e| at(e.to_string()))?
                                .to_string(),
                        ),
                        None => None,
                    };
                    Ok(StatementView {
                        truth: None,
                        said: read.clone(),
                        text: read,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            let mut theirs = side(subset, statements);
            if let (Some(d), Some(answer)) = (c.detective, c.answer) {
                match theirs.statements.get_mut(d.wrapping_sub(1)) {
                    Some(s) => s.truth = Some(answer),
                    None => return Err(at(format!("detective {d}: statements are 1 to 4"))),
                }
            }
            let mut mine = side(CellSet::EMPTY, Vec::new());
            let claims = crate::Action::from_str(&format!("claims {}", c.claims))
                .map_err(|e| at(e.to_string()))?;
            if let crate::Action::Claims(parsed) = claims {
                mine.claims = Some(crate::view::claim_text(&parsed.claims));
            }
            mine.correct = Some(c.correct);
            mine.detective = c.detective;
            k.facts.extend(claims_fact(&mine, &theirs));
            k.facts.extend(detective_fact(&mine, &theirs));
        }
        for (n, g) in self.wrong_guesses.iter().enumerate() {
            k.not
                .push(Grid::parse(g).map_err(|e| format!("wrong_guesses[{n}]: {e}"))?);
        }
        Ok(k)
    }
}

/// `subset`, unless it is too wide to count.
fn wide(subset: CellSet) -> Result<CellSet, String> {
    if subset.len() > MAX_FACT_TILES {
        return Err(format!(
            "a subset of {} tiles: facts over at most {MAX_FACT_TILES} tiles are counted",
            subset.len()
        ));
    }
    Ok(subset)
}

fn side(subset: CellSet, statements: Vec<StatementView>) -> SideView {
    SideView {
        subset,
        nolimit: false,
        smokescreen: None,
        statements,
        claims: None,
        detective: None,
        correct: None,
        bought: None,
        bought_cells: None,
        guess: None,
    }
}
