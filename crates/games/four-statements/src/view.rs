//! What a viewer sees of a Four Statements match.
//!
//! Public: the round and phase, each seat's subset and statements once both
//! bluffs are in (a smokescreened statement's text only to its author), the
//! No Limit and Smokescreen each seat has used, how many cells each seat
//! bought. A seat also sees its own cells, RP, truths, claims, Detective
//! (whether and when it used it, and the answer, as soon as it asks),
//! bought cells and guesses, and its notebook: everything it learned, round
//! by round. The umpire sees everything; at the end, everyone does.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};
use umpire_core::{Game, PerSeat, Render, Seat, Viewer};

use crate::grid::{CELLS, CellSet, Colour, cell};
use crate::knowledge;
use crate::{FourStatements, Item, Phase, Reveal, STATEMENTS};

/// One statement as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatementView {
    /// Its reading, the canonical sentence the umpire judged; `None` when
    /// smokescreened and not yours.
    pub text: Option<String>,
    /// The words its author typed (same viewers).
    pub said: Option<String>,
    /// Its truth, to its author, to a seat that used Detective on it, to
    /// the umpire, and to all at the end.
    pub truth: Option<bool>,
}

/// One seat's part of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideView {
    pub nolimit: bool,
    /// The smokescreened statement, 1–4.
    pub smokescreen: Option<usize>,
    pub subset: CellSet,
    pub statements: Vec<StatementView>,
    /// This seat's claims on the other's statements, like `T F - T`: to
    /// itself, the umpire and all at the end.
    pub claims: Option<String>,
    /// The opponent's statement it asked Detective about, 1–4: to itself
    /// (as soon as asked), the umpire and all at the end.
    pub detective: Option<usize>,
    /// How many of its claims were right (same viewers).
    pub correct: Option<u8>,
    /// How many cells it bought (public once the reveal phase is over).
    pub bought: Option<usize>,
    /// Which (same viewers as the claims).
    pub bought_cells: Option<CellSet>,
    /// Its guess, with `right` or `wrong` (same viewers).
    pub guess: Option<String>,
}

/// One round, once both bluffs are in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundView {
    pub round: u32,
    pub sides: PerSeat<Option<SideView>>,
}

/// Where a seat stands in the current phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Waiting,
    Submitted,
    /// Took the guessing time and has not sent its grid yet.
    Guessing,
    /// In the reveal phase, what another seat is doing is its secret.
    Deciding,
    Done,
}

/// A ruling of the host on a seat's statement: to that seat and the
/// umpire as soon as made, to everyone once the round's bluffs are in
/// (the words of a refused statement, never shown in a bluff, stay its
/// author's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulingView {
    pub round: u32,
    pub seat: Seat,
    pub accepted: bool,
    pub subset: Option<CellSet>,
    /// The statement's words.
    pub statement: Option<String>,
    /// The reading an accepted statement is given.
    pub reading: Option<String>,
    pub reason: String,
}

/// A line of a seat's notebook.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    pub round: u32,
    pub text: String,
}

/// A viewer's picture of the match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub phase: Phase,
    /// The round, from 1.
    pub round: u32,
    pub max_rounds: Option<u32>,
    /// Whether this match shows seats the deduction aid.
    pub aids: bool,
    /// The grid, to the umpire and to all at the end.
    pub layout: Option<String>,
    /// The tiles each seat knows, dealt or bought, as 16 letters A1…D1,
    /// A2…D4 with `.` for a tile it does not know: to itself, the umpire
    /// and at the end. (When each was bought is in `rounds`.)
    pub known: PerSeat<Option<String>>,
    /// Reveal points: a seat's own, the umpire's both, all at the end;
    /// both while nobody has scored yet (0).
    pub rp: PerSeat<Option<u32>>,
    /// Whether the seat may buy cells this round (not after a wrong guess):
    /// to itself and the umpire.
    pub may_buy: PerSeat<Option<bool>>,
    /// The round each item took effect, by item; absent while unused.
    pub items: PerSeat<BTreeMap<String, u32>>,
    pub rounds: Vec<RoundView>,
    pub status: PerSeat<Status>,
    /// A seat's sealed submission of this phase, in notation, to itself
    /// and the umpire.
    pub sealed: PerSeat<Option<String>>,
    /// Everything the seat learned, in order (seats only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notebook: Option<Vec<Note>>,
    /// With the aid on, for a seat: how many grids are still possible…
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub possible: Option<u64>,
    /// …and each cell's chance of each colour (red, blue, green, yellow),
    /// cells A1…D1, A2…D4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub odds: Option<Vec<[f64; 4]>>,
    /// The latest public event, in words.
    pub last: Option<String>,
    /// The host's rulings this viewer may see, in the order made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rulings: Vec<RulingView>,
}

/// The umpire-view fields whose values follow from others that a seat may
/// know (a statement's truth from the cells it knows, points from truths):
/// a seat can deduce them without being shown them.
pub const DEDUCIBLE: &[&str] = &["truth", "rp", "may_buy", "correct", "guess"];

pub fn build(game: &FourStatements, viewer: Viewer) -> View {
    let over = game.phase == Phase::Over;
    let sees = |seat: Seat| over || viewer == Viewer::Umpire || viewer == Viewer::Seat(seat);
    let nobody_scored = game.round == 1 && game.phase == Phase::Bluff;
    let rounds = game
        .rounds
        .iter()
        .enumerate()
        .map(|(n, r)| {
            let number = n as u32 + 1;
            let claims_over = number < game.round || game.phase > Phase::Claim;
            let reveal_over = number < game.round || over;
            RoundView {
                round: number,
                sides: PerSeat::from_fn(|seat| {
                    let side = r.sides[seat].as_ref()?;
                    let theirs = r.sides[seat.other()].as_ref()?;
                    let b = &side.bluff;
                    // Each seat's Detective question this round: told at
                    // once, in the claim phase.
                    let current = number == game.round && game.phase == Phase::Claim;
                    let question = |s: Seat, of: &crate::Side| {
                        if current { game.asked[s] } else { of.detective }
                    };
                    // The opponent's question about this side, to the opponent.
                    let asked = question(seat.other(), theirs)
                        .filter(|_| viewer == Viewer::Seat(seat.other()));
                    let statements = (0..STATEMENTS)
                        .map(|i| {
                            let shown = sees(seat) || b.smokescreen != Some(i);
                            StatementView {
                                text: shown.then(|| b.statements[i].reading()),
                                said: shown.then(|| b.statements[i].text().to_string()),
                                truth: (sees(seat) || asked == Some(i)).then_some(side.truths[i]),
                            }
                        })
                        .collect();
                    let claims = side.claims.filter(|_| claims_over);
                    let reveal = side.reveal.filter(|_| reveal_over);
                    let bought_cells = match reveal {
                        Some(Reveal::Buy(cells)) => cells,
                        _ => CellSet::EMPTY,
                    };
                    Some(SideView {
                        subset: b.subset,
                        nolimit: b.nolimit,
                        smokescreen: b.smokescreen.map(|i| i + 1),
                        statements,
                        claims: claims.filter(|_| sees(seat)).map(|c| claim_text(&c.claims)),
                        detective: question(seat, side).filter(|_| sees(seat)).map(|i| i + 1),
                        correct: claims.filter(|_| sees(seat)).map(|_| side.correct),
                        bought: reveal.map(|_| bought_cells.len()),
                        bought_cells: reveal.filter(|_| sees(seat)).map(|_| bought_cells),
                        guess: match reveal {
                            Some(Reveal::Guess { grid, .. }) if sees(seat) => Some(format!(
                                "{grid} {}",
                                if grid == game.layout {
                                    "right"
                                } else {
                                    "wrong"
                                }
                            )),
                            _ => None,
                        },
                    })
                }),
            }
        })
        .collect();
    let mut view = View {
        phase: game.phase,
        round: game.round,
        max_rounds: game.max_rounds,
        aids: game.aids,
        layout: (over || viewer == Viewer::Umpire).then(|| game.layout.to_string()),
        known: PerSeat::from_fn(|seat| {
            sees(seat).then(|| {
                (0..CELLS)
                    .map(|i| match game.known[seat][i] {
                        Some(_) => game.layout.get(i).letter(),
                        None => '.',
                    })
                    .collect()
            })
        }),
        rp: PerSeat::from_fn(|seat| (sees(seat) || nobody_scored).then_some(game.rp[seat])),
        may_buy: PerSeat::from_fn(|seat| (sees(seat) && !over).then_some(!game.no_buy[seat])),
        items: PerSeat::from_fn(|seat| {
            Item::ALL
                .into_iter()
                // Whether Detective was used is its user's secret.
                .filter(|&item| item != Item::Detective || sees(seat))
                .filter_map(|item| {
                    Some((item_key(item).to_string(), game.items[seat][item as usize]?))
                })
                .collect()
        }),
        rounds,
        status: PerSeat::from_fn(|seat| status(game, seat, viewer)),
        sealed: PerSeat::from_fn(|seat| {
            if !sees(seat) || over {
                return None;
            }
            match game.phase {
                Phase::Bluff => game.sealed_bluff[seat]
                    .as_ref()
                    .map(|b| crate::Action::Bluff(Box::new(b.clone())).to_string()),
                Phase::Claim => {
                    game.sealed_claims[seat].map(|c| crate::Action::Claims(c).to_string())
                }
                Phase::Reveal => game.rounds.last()?.sides[seat]
                    .as_ref()?
                    .reveal
                    .map(reveal_text),
                Phase::Over => None,
            }
        }),
        notebook: None,
        possible: None,
        odds: None,
        last: last_public(game),
        rulings: rulings(game, viewer),
    };
    if let Viewer::Seat(seat) = viewer {
        view.notebook = Some(notebook(&view, seat));
        if game.aids && !over {
            let k = knowledge::from_view(seat, &view);
            let p = crate::deduce::posterior(&k);
            view.possible = Some(p.count);
            view.odds = Some(
                (0..CELLS)
                    .map(|i| Colour::ALL.map(|c| p.probability(i, c)))
                    .collect(),
            );
        }
    }
    view
}

/// A ruling in words, for `reader` (its author reads "your statement").
pub fn ruling_words(r: &RulingView, reader: Option<Seat>) -> String {
    let verb = if r.accepted { "accepted" } else { "refused" };
    let whose = if reader == Some(r.seat) {
        "your statement".to_string()
    } else {
        format!("{}'s statement", r.seat)
    };
    match &r.statement {
        Some(words) => format!("the host {verb} {whose} “{words}”: {}", r.reason),
        None => format!(
            "the host {verb} one of {}'s statements: {}",
            r.seat, r.reason
        ),
    }
}

/// The host's rulings as `viewer` may see them.
fn rulings(game: &FourStatements, viewer: Viewer) -> Vec<RulingView> {
    let over = game.phase == Phase::Over;
    game.rulings
        .iter()
        .filter_map(|r| {
            let own = over || viewer == Viewer::Umpire || viewer == Viewer::Seat(r.seat);
            let out = r.round < game.round || game.phase > Phase::Bluff;
            if !own && !out {
                return None;
            }
            // An accepted statement is shown in the bluff (unless
            // smokescreened); a refused one never is.
            let shown = own
                || (r.accept
                    && game.rounds.get(r.round as usize - 1).is_some_and(|round| {
                        round.sides[r.seat].as_ref().is_some_and(|side| {
                            side.bluff.subset == r.subset
                                && side.bluff.statements.iter().enumerate().any(|(i, s)| {
                                    side.bluff.smokescreen != Some(i)
                                        && crate::ruling::same_words(s.text(), &r.words)
                                })
                        })
                    }));
            Some(RulingView {
                round: r.round,
                seat: r.seat,
                accepted: r.accept,
                subset: shown.then_some(r.subset),
                statement: shown.then(|| r.words.clone()),
                reading: r
                    .meaning
                    .as_ref()
                    .filter(|_| shown)
                    .map(ToString::to_string),
                reason: r.reason.clone(),
            })
        })
        .collect()
}

/// The colour of each tile `seat` knows, as `view` shows it.
pub fn known_colours(view: &View, seat: Seat) -> Option<[Option<Colour>; CELLS]> {
    let text: Vec<char> = view.known[seat].as_deref()?.chars().collect();
    Some(std::array::from_fn(|i| {
        text.get(i).copied().and_then(Colour::from_letter)
    }))
}

/// The tiles `seat` was dealt, as `view` shows them: those it knows but did
/// not buy.
pub fn dealt(view: &View, seat: Seat) -> Option<CellSet> {
    let known = known_colours(view, seat)?;
    let bought = view
        .rounds
        .iter()
        .filter_map(|r| r.sides[seat].as_ref()?.bought_cells)
        .fold(CellSet::EMPTY, CellSet::or);
    Some(
        (0..CELLS)
            .filter(|&i| known[i].is_some() && !bought.contains(i))
            .fold(CellSet::EMPTY, CellSet::with),
    )
}

pub fn item_key(item: Item) -> &'static str {
    match item {
        Item::NoLimit => "nolimit",
        Item::Smokescreen => "smokescreen",
        Item::Detective => "detective",
    }
}

pub fn claim_text(claims: &[Option<bool>; STATEMENTS]) -> String {
    claims
        .iter()
        .map(|c| match c {
            Some(true) => "T",
            Some(false) => "F",
            None => "-",
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn reveal_text(r: Reveal) -> String {
    match r {
        Reveal::Pass => crate::Action::Pass,
        Reveal::Buy(cells) => crate::Action::Buy(cells),
        Reveal::Guess { grid, .. } => crate::Action::Guess(grid),
    }
    .to_string()
}

fn status(game: &FourStatements, seat: Seat, viewer: Viewer) -> Status {
    let own = viewer == Viewer::Seat(seat) || viewer == Viewer::Umpire;
    match game.phase {
        Phase::Over => Status::Done,
        Phase::Reveal if !own => Status::Deciding,
        _ => match game.decision().kind(seat) {
            Some("guess") => Status::Guessing,
            Some(_) => Status::Waiting,
            None => Status::Submitted,
        },
    }
}

/// The latest public event.
fn last_public(game: &FourStatements) -> Option<String> {
    let r = game.round;
    Some(match game.phase {
        Phase::Over => return game.result.as_ref().map(|o| o.reason.clone()),
        Phase::Bluff if r == 1 => return None,
        Phase::Bluff => {
            let done = game.rounds.last()?;
            let bought = Seat::BOTH.map(|s| match done.sides[s].as_ref().and_then(|x| x.reveal) {
                Some(Reveal::Buy(c)) => c.len(),
                _ => 0,
            });
            format!(
                "Round {} is over: P1 bought {}, P2 bought {}. Round {r}: bluff.",
                r - 1,
                tiles(bought[0]),
                tiles(bought[1])
            )
        }
        Phase::Claim => {
            format!("Round {r}: both bluffs are in; the subsets and statements are shown.")
        }
        Phase::Reveal => format!("Round {r}: both claims are in; the reveal phase is open."),
    })
}

/// `n` tiles, in words.
pub fn tiles(n: usize) -> String {
    match n {
        0 => "no tile".into(),
        1 => "1 tile".into(),
        n => format!("{n} tiles"),
    }
}

fn truths_text(truths: &[Option<bool>]) -> String {
    let list = |want: bool| -> Vec<String> {
        truths
            .iter()
            .enumerate()
            .filter(|(_, t)| **t == Some(want))
            .map(|(i, _)| (i + 1).to_string())
            .collect()
    };
    let (t, f) = (list(true), list(false));
    match (t.is_empty(), f.is_empty()) {
        (false, false) => format!("true: {}; false: {}", t.join(", "), f.join(", ")),
        (false, true) => "all true".into(),
        _ => "all false".into(),
    }
}

/// Everything `seat` learned, from its view.
fn notebook(view: &View, seat: Seat) -> Vec<Note> {
    let mut notes = Vec::new();
    let known = known_colours(view, seat).unwrap_or([None; CELLS]);
    let dealt: Vec<String> = dealt(view, seat)
        .unwrap_or_default()
        .indices()
        .map(|i| format!("{} {}", cell(i), known[i].map_or("?", |c| c.name())))
        .collect();
    notes.push(Note {
        round: 0,
        text: format!("You were shown {}.", dealt.join(", ")),
    });
    for r in &view.rounds {
        let (Some(mine), Some(theirs)) = (&r.sides[seat], &r.sides[seat.other()]) else {
            continue;
        };
        let truths: Vec<Option<bool>> = mine.statements.iter().map(|s| s.truth).collect();
        let trues = truths.iter().filter(|t| **t == Some(true)).count();
        notes.push(Note {
            round: r.round,
            text: format!(
                "Round {}: your statements: {} (+{trues} RP).",
                r.round,
                truths_text(&truths)
            ),
        });
        if let Some(correct) = mine.correct {
            let made = mine
                .claims
                .as_deref()
                .unwrap_or("")
                .split(' ')
                .enumerate()
                .filter(|(i, c)| *c != "-" && mine.detective != Some(i + 1))
                .count();
            notes.push(Note {
                round: r.round,
                text: format!(
                    "Round {}: {correct} of your {made} claims {} right (+{} RP).",
                    r.round,
                    if correct == 1 { "was" } else { "were" },
                    2 * correct
                ),
            });
        }
        if let Some(asked) = mine.detective {
            if let Some(truth) = theirs.statements.get(asked - 1).and_then(|s| s.truth) {
                notes.push(Note {
                    round: r.round,
                    text: format!(
                        "Round {}: Detective: {}'s statement {asked} is {}.",
                        r.round,
                        seat.other(),
                        if truth { "true" } else { "false" }
                    ),
                });
            }
        }
        if let Some(cells) = mine.bought_cells.filter(|c| !c.is_empty()) {
            let colours: Vec<String> = cells
                .indices()
                .map(|i| format!("{} {}", cell(i), known[i].map_or("?", |c| c.name())))
                .collect();
            notes.push(Note {
                round: r.round,
                text: format!("Round {}: you bought {}.", r.round, colours.join(", ")),
            });
        }
        if let Some(guess) = &mine.guess {
            let right = guess.ends_with("right");
            notes.push(Note {
                round: r.round,
                text: if right {
                    format!("Round {}: your guess was right.", r.round)
                } else {
                    format!(
                        "Round {}: your guess {} was wrong: your RP are lost and you may not buy next round.",
                        r.round,
                        guess.split(' ').next().unwrap_or("")
                    )
                },
            });
        }
        if let Some(n) = theirs.bought.filter(|&n| n > 0) {
            notes.push(Note {
                round: r.round,
                text: format!("Round {}: {} bought {}.", r.round, seat.other(), tiles(n)),
            });
        }
    }
    for r in &view.rulings {
        notes.push(Note {
            round: r.round,
            text: format!("Round {}: {}.", r.round, ruling_words(r, Some(seat))),
        });
    }
    notes
}

impl Render for View {
    /// A terminal picture: the grid as this viewer knows it, then the rounds.
    fn render(&self, colour: bool) -> String {
        let mut out = String::new();
        let me = Seat::BOTH.into_iter().find(|&s| {
            self.notebook.is_some() && self.known[s].is_some() && self.known[s.other()].is_none()
        });
        let layout = self
            .layout
            .as_deref()
            .and_then(|l| crate::grid::Grid::parse(l).ok());
        out += "    A B C D\n";
        for row in 0..4 {
            let _ = write!(out, "{:>3}", row + 1);
            for col in 0..4 {
                let i = row * 4 + col;
                let known = me
                    .and_then(|s| known_colours(self, s))
                    .and_then(|k| k[i])
                    .or_else(|| layout.map(|g| g.get(i)));
                out.push(' ');
                out += &match known {
                    Some(c) if colour => paint(c),
                    Some(c) => c.letter().to_string(),
                    None => ".".into(),
                };
            }
            out.push('\n');
        }
        out += "legend: R red, B blue, G green, Y yellow, . unknown\n";
        for r in &self.rounds {
            for seat in Seat::BOTH {
                let Some(side) = &r.sides[seat] else { continue };
                let _ = writeln!(out, "round {} {seat}: subset {}", r.round, side.subset);
                for (i, s) in side.statements.iter().enumerate() {
                    let truth = match s.truth {
                        Some(true) => " (true)",
                        Some(false) => " (false)",
                        None => "",
                    };
                    let text = s.text.as_deref().unwrap_or("(smokescreened)");
                    // The player's own words, when the reading says it otherwise.
                    let said = match &s.said {
                        Some(said) if Some(said) != s.text.as_ref() => format!(" (said: “{said}”)"),
                        _ => String::new(),
                    };
                    let _ = writeln!(out, "  {}. {text}{said}{truth}", i + 1);
                }
            }
        }
        if self.notebook.is_none() {
            for r in &self.rulings {
                let _ = writeln!(out, "round {}: {}", r.round, ruling_words(r, None));
            }
        }
        if let Some(notes) = &self.notebook {
            out += "your notebook:\n";
            for note in notes.iter().filter(|n| n.round + 1 >= self.round) {
                let _ = writeln!(out, "  {}", note.text);
            }
        }
        for seat in Seat::BOTH {
            let rp = self.rp[seat].map_or("?".to_string(), |r| r.to_string());
            let _ = writeln!(out, "{seat}: {rp} RP");
        }
        let phase = match self.phase {
            Phase::Bluff => "bluff",
            Phase::Claim => "claim",
            Phase::Reveal => "reveal",
            Phase::Over => "",
        };
        if !phase.is_empty() {
            let _ = writeln!(out, "round {}, {phase} phase", self.round);
        }
        out
    }

    /// What `seat` decides now, with how to write it.
    fn prompt(&self, seat: Seat) -> Option<String> {
        let unused = |item: Item| !self.items[seat].contains_key(item_key(item));
        Some(match (self.phase, self.status[seat]) {
            (Phase::Bluff, Status::Waiting) => {
                let mut line = "bluff: write subset CELLS; STATEMENT; STATEMENT; STATEMENT; STATEMENT, with 4–8 connected cells sharing fewer than ⌊n/2⌋ of their n cells with your last subset".to_string();
                if unused(Item::Smokescreen) {
                    line += "; add smokescreen N to hide your statement N";
                }
                if unused(Item::NoLimit) {
                    line += "; add nolimit to lift the subset rules this round";
                }
                line
            }
            (Phase::Claim, Status::Waiting) => {
                let mut line = format!(
                    "claim: write claims and T, F or - for each of {}'s four statements (- for a smokescreened one)",
                    seat.other()
                );
                if unused(Item::Detective) {
                    line += "; first, detective N tells you alone the truth of statement N";
                }
                line
            }
            (Phase::Reveal, Status::Waiting) => {
                let rp = self.rp[seat].unwrap_or(0);
                let mut line = "reveal: `pass`".to_string();
                if self.may_buy[seat] == Some(true) && rp >= crate::CELL_PRICE {
                    line += &format!(
                        ", buy CELLS you do not know ({} RP each; you have {rp})",
                        crate::CELL_PRICE
                    );
                }
                line + ", guess and the grid's 16 letters R B G Y (a wrong guess loses your RP), or `guess` alone to take the guessing time first"
            }
            (Phase::Reveal, Status::Guessing) => {
                "reveal: you took the guessing time; guess and the grid's 16 letters R B G Y, or `pass`"
                    .to_string()
            }
            _ => return None,
        })
    }

    fn last_event(&self) -> Option<String> {
        self.last
            .as_ref()
            .map(|l| l.trim_end_matches('.').to_string())
    }
}

fn paint(c: Colour) -> String {
    let code = match c {
        Colour::Red => 31,
        Colour::Blue => 34,
        Colour::Green => 32,
        Colour::Yellow => 33,
    };
    format!("\x1b[1;{code}m{}\x1b[0m", c.letter())
}
