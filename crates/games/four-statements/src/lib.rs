//! Four Statements: each seat knows a few cells of a hidden 4×4 colour grid,
//! makes four statements a round about a subset of it (the machine judges
//! them), claims the truth of the opponent's, buys cells with its points and
//! guesses the whole grid. Rules: `RULES.md` beside this crate.
//!
//! ```
//! use umpire_core::{Game, Seat, Viewer};
//! use umpire_four_statements::{Config, FourStatements};
//!
//! let config = Config { layout: "RRBG YGBR BBRY GYRG".into(), ..Config::default() };
//! let mut game = FourStatements::new(&config, 7).unwrap();
//! game.play(Seat::P1, &"subset A1 B1 A2 B2; There are two red tiles.; \
//!     There is a blue tile.; There is a green tile.; There is a yellow tile.".parse().unwrap())
//!     .unwrap();
//! // P2 sees only that P1 has submitted.
//! let seen = serde_json::to_value(game.view(Viewer::Seat(Seat::P2))).unwrap();
//! assert_eq!(seen["status"]["P1"], "submitted");
//! ```

mod bot;
mod command;
pub mod deduce;
pub mod grid;
pub mod host;
pub mod knowledge;
mod notation;
pub mod ruling;
mod sample;
mod search;
pub mod statement;
pub mod table;
pub mod view;

use rand::{Rng, RngExt, seq::SliceRandom};
use serde::{Deserialize, Deserializer, Serialize};
use umpire_core::{
    ActionError, Cell, ClockPolicy, ConfigError, ConfigOption, Decision, Game, OptionKind, Outcome,
    Pending, PerSeat, RuleViolation, Seat, Timeout, TurnClock, Viewer, seeded_rng,
};

use grid::{CELLS, CellSet, Colour, Grid, cell};
pub use notation::{Action, Bluff, Claims, STATEMENTS};
use statement::Said;
pub use view::{Note, RoundView, RulingView, SideView, StatementView, Status, View};

/// Four Statements' place in the catalogue: the game, its bots, and
/// `umpire statement` for hosts.
pub static REGISTRATION: umpire_core::Registration = umpire_core::Registration {
    game: umpire_core::erase::<FourStatements>(),
    bots: &bot::BOTS,
    commands: &[umpire_core::Command {
        name: "statement",
        about: "Four Statements for hosts: judge a statement, or deduce from a seat's knowledge",
        run: command::run,
    }],
    words: &["bluff", "bluffs", "detective"],
};

/// Cells each seat is dealt.
pub const DEALT: usize = 4;
/// Reveal points a bought cell costs.
pub const CELL_PRICE: u32 = 8;
/// The smallest and largest subset.
pub const SUBSET_SIZES: std::ops::RangeInclusive<usize> = 4..=8;

/// Match options; the default is the rulebook's game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The grid as 16 letters of `R B G Y` read A1…D1, A2…D2, …; empty
    /// draws it from the seed.
    #[serde(deserialize_with = "text_or_null")]
    pub layout: String,
    /// P1's dealt cells, like `A1 B2 C3 D4`; empty draws them.
    #[serde(deserialize_with = "text_or_null")]
    pub known_p1: String,
    /// P2's dealt cells; empty draws them.
    #[serde(deserialize_with = "text_or_null")]
    pub known_p2: String,
    /// After this many rounds without a right guess the match is a draw;
    /// `None` plays until someone guesses the grid, as in the rulebook.
    pub max_rounds: Option<u32>,
    /// Shows each seat the deduction engine's colour odds for every cell.
    pub aids: bool,
}

fn text_or_null<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(d)?.unwrap_or_default())
}

/// Where a round stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Both seats seal a subset and four statements.
    Bluff,
    /// Both seats seal their claims on the other's statements.
    Claim,
    /// Both seats buy cells, guess the grid or pass, each in secret.
    Reveal,
    Over,
}

/// The three items, once each per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Item {
    NoLimit,
    Smokescreen,
    Detective,
}

impl Item {
    pub const ALL: [Item; 3] = [Item::NoLimit, Item::Smokescreen, Item::Detective];

    pub fn name(self) -> &'static str {
        match self {
            Item::NoLimit => "No Limit",
            Item::Smokescreen => "Smokescreen",
            Item::Detective => "Detective",
        }
    }
}

/// What a seat did in a reveal phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reveal {
    Pass,
    Buy(CellSet),
    /// A guess, with its place in the order of all submissions (earlier
    /// wins a tie).
    Guess {
        grid: Grid,
        order: u32,
    },
}

/// One seat's part of one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    pub bluff: Bluff,
    /// Its statements' truth.
    pub truths: [bool; STATEMENTS],
    pub claims: Option<Claims>,
    /// The opponent's statement (0-based) it asked Detective about.
    pub detective: Option<usize>,
    /// How many of its claims were right (Detective's statement excepted).
    pub correct: u8,
    pub reveal: Option<Reveal>,
}

/// One round: each seat's side once its bluff is in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub sides: PerSeat<Option<Side>>,
}

/// Why a Four Statements action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("`{0}` is not what this phase takes: {1}")]
    WrongPhase(String, &'static str),
    #[error(
        "the subset is not connected: every tile must reach every other by steps up, down, left or right"
    )]
    NotConnected,
    #[error("the subset has {0} tiles: a subset has 4 to 8")]
    SubsetSize(usize),
    #[error(
        "the subset shares {shared} tiles with your previous subset ({previous}): a subset of {size} may share at most {most}"
    )]
    Overlap {
        shared: usize,
        previous: CellSet,
        size: usize,
        most: usize,
    },
    #[error("statement {0}: {1}")]
    Statement(usize, statement::Invalid),
    #[error("statement {0} was refused by the host: {1}")]
    HostRefused(usize, String),
    #[error("you have used {0} already: each item is used once")]
    ItemUsed(&'static str),
    #[error("statement {0} of your opponent is smokescreened: write - for it")]
    Smokescreened(usize),
    #[error("you have {rp} RP: buying {} costs {cost}", view::tiles(*.cells))]
    NotEnoughRp { rp: u32, cells: usize, cost: u32 },
    #[error("you guessed wrong last round: no buying this round")]
    NoBuying,
    #[error("you already know {0}")]
    AlreadyKnown(Cell),
    #[error("you are guessing: send the grid with `guess RRBG YGBR BBRY GYRG`, or `pass`")]
    Guessing,
}

impl RuleViolation for Illegal {
    fn rule(&self) -> &'static str {
        match self {
            Illegal::WrongPhase(..) => "wrong-phase",
            Illegal::NotConnected => "subset-connected",
            Illegal::SubsetSize(_) => "subset-size",
            Illegal::Overlap { .. } => "subset-overlap",
            Illegal::Statement(_, invalid) => invalid.rule(),
            Illegal::HostRefused(..) => "host-refused",
            Illegal::ItemUsed(_) => "item-used",
            Illegal::Smokescreened(_) => "smokescreened",
            Illegal::NotEnoughRp { .. } => "not-enough-rp",
            Illegal::NoBuying => "no-buying",
            Illegal::AlreadyKnown(_) => "already-known",
            Illegal::Guessing => "guessing",
        }
    }
}

/// A Four Statements match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FourStatements {
    layout: Grid,
    max_rounds: Option<u32>,
    aids: bool,
    /// The round, from 1.
    round: u32,
    phase: Phase,
    /// For each seat and cell, the round it learned the colour (0: dealt).
    known: PerSeat<[Option<u32>; CELLS]>,
    rp: PerSeat<u32>,
    /// The round each item took effect.
    items: PerSeat<[Option<u32>; 3]>,
    rounds: Vec<Round>,
    /// This phase's sealed submissions, until both are in.
    sealed_bluff: PerSeat<Option<Bluff>>,
    sealed_claims: PerSeat<Option<Claims>>,
    /// This claim phase's Detective questions, answered when asked.
    asked: PerSeat<Option<usize>>,
    /// Seats that took the guessing time this reveal phase.
    guessing: PerSeat<bool>,
    /// Seats that may not buy this round (a wrong guess last round).
    no_buy: PerSeat<bool>,
    /// Reveal submissions so far, to order guesses.
    submissions: u32,
    /// The host's rulings on statements, in the order made.
    rulings: Vec<ruling::Ruling>,
    result: Option<Outcome>,
}

impl FourStatements {
    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    /// The hidden grid.
    pub fn layout(&self) -> Grid {
        self.layout
    }

    pub fn rp(&self, seat: Seat) -> u32 {
        self.rp[seat]
    }

    /// The cells `seat` knows.
    pub fn known(&self, seat: Seat) -> CellSet {
        (0..CELLS)
            .filter(|&i| self.known[seat][i].is_some())
            .fold(CellSet::EMPTY, CellSet::with)
    }

    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// Whether `seat` may still use `item`.
    pub fn has_item(&self, seat: Seat, item: Item) -> bool {
        self.items[seat][item as usize].is_none()
    }

    /// `seat`'s subset of the last finished bluff phase.
    pub fn previous_subset(&self, seat: Seat) -> Option<CellSet> {
        self.rounds
            .iter()
            .rev()
            .find_map(|r| r.sides[seat].as_ref())
            .map(|s| s.bluff.subset)
    }

    /// The current round's sides, once both bluffs are in.
    fn current(&self) -> &Round {
        self.rounds.last().expect("a round is open")
    }

    fn side_mut(&mut self, seat: Seat) -> &mut Side {
        self.rounds
            .last_mut()
            .and_then(|r| r.sides[seat].as_mut())
            .expect("the bluffs are in")
    }

    /// A match at the start of round 1, each seat knowing the tiles of
    /// `known` (each marked round 0).
    fn start(
        layout: Grid,
        known: PerSeat<[Option<u32>; CELLS]>,
        max_rounds: Option<u32>,
        aids: bool,
    ) -> FourStatements {
        FourStatements {
            layout,
            max_rounds,
            aids,
            round: 1,
            phase: Phase::Bluff,
            known,
            rp: PerSeat::default(),
            items: PerSeat::default(),
            rounds: Vec::new(),
            sealed_bluff: PerSeat::default(),
            sealed_claims: PerSeat::default(),
            asked: PerSeat::default(),
            guessing: PerSeat::default(),
            no_buy: PerSeat::default(),
            submissions: 0,
            rulings: Vec::new(),
            result: None,
        }
    }

    /// The host's rulings so far.
    pub fn rulings(&self) -> &[ruling::Ruling] {
        &self.rulings
    }

    /// The host's latest ruling on `seat`'s `words` on `subset` this round.
    fn ruling_on(&self, seat: Seat, subset: CellSet, words: &str) -> Option<&ruling::Ruling> {
        self.rulings
            .iter()
            .rev()
            .filter(|r| r.round == self.round && r.seat == seat)
            .find(|r| r.about(subset, words))
    }

    /// `text`, a bluff the machine refused, read again with the host's
    /// rulings: the bluff, if every refused statement was accepted.
    fn ruled_bluff(&self, seat: Seat, text: &str) -> Option<Bluff> {
        let accepted = |words: &str, subset: CellSet| {
            self.ruling_on(seat, subset, words)
                .filter(|r| r.accept)
                .and_then(ruling::Ruling::said)
        };
        match notation::bluff_ruled(text, &accepted) {
            Ok(Action::Bluff(bluff)) => Some(*bluff),
            _ => None,
        }
    }

    /// Makes the host's ruling on `seat`'s statement, in the open bluff
    /// phase; a refusal sends back a sealed bluff that holds it.
    fn make_ruling(&mut self, seat: Seat, w: &ruling::Written) -> Result<(), ruling::Unruled> {
        if self.phase != Phase::Bluff {
            return Err(ruling::Unruled::NotNow);
        }
        let accepts = ruling::machine_accepts(&w.words, w.subset);
        let meaning = match (w.accept, accepts) {
            (true, true) if w.reading.is_none() => return Err(ruling::Unruled::Already("accepts")),
            (true, _) => Some(ruling::meaning(w)?),
            (false, false) => return Err(ruling::Unruled::Already("refuses")),
            (false, true) => None,
        };
        self.rulings.push(ruling::Ruling {
            round: self.round,
            seat,
            accept: w.accept,
            subset: w.subset,
            words: w.words.clone(),
            meaning,
            reason: w.reason.clone(),
        });
        let holds = self.sealed_bluff[seat].as_ref().is_some_and(|b| {
            b.subset == w.subset
                && b.statements
                    .iter()
                    .any(|s| ruling::same_words(s.text(), &w.words))
        });
        if !w.accept && holds {
            self.sealed_bluff[seat] = None;
        }
        Ok(())
    }

    /// Whether `seat` may make `bluff` now.
    pub fn check_bluff(&self, seat: Seat, bluff: &Bluff) -> Result<(), Illegal> {
        if bluff.nolimit && !self.has_item(seat, Item::NoLimit) {
            return Err(Illegal::ItemUsed(Item::NoLimit.name()));
        }
        if bluff.smokescreen.is_some() && !self.has_item(seat, Item::Smokescreen) {
            return Err(Illegal::ItemUsed(Item::Smokescreen.name()));
        }
        let subset = bluff.subset;
        if !bluff.nolimit {
            subset_rules(subset, self.previous_subset(seat))?;
        }
        for (n, said) in bluff.statements.iter().enumerate() {
            match self.ruling_on(seat, subset, said.text()) {
                Some(r) if r.accept => continue,
                Some(r) => return Err(Illegal::HostRefused(n + 1, r.reason.clone())),
                None => {}
            }
            let words = said.words();
            let checked = if words > statement::MAX_WORDS {
                Err(statement::Invalid::TooManyWords(words))
            } else {
                said.statement().check(subset)
            };
            checked.map_err(|invalid| Illegal::Statement(n + 1, invalid))?;
        }
        Ok(())
    }

    /// The opponent's smokescreened statement this round.
    fn hidden_from(&self, seat: Seat) -> Option<usize> {
        self.current().sides[seat.other()]
            .as_ref()
            .expect("claims follow the bluffs")
            .bluff
            .smokescreen
    }

    fn check_claims(&self, seat: Seat, claims: &Claims) -> Result<(), Illegal> {
        match self.hidden_from(seat) {
            Some(hidden) if claims.claims[hidden].is_some() => {
                Err(Illegal::Smokescreened(hidden + 1))
            }
            _ => Ok(()),
        }
    }

    /// Detective on the opponent's statement `i`: once a match, never on a
    /// smokescreened statement.
    fn check_detective(&self, seat: Seat, i: usize) -> Result<(), Illegal> {
        if !self.has_item(seat, Item::Detective) {
            return Err(Illegal::ItemUsed(Item::Detective.name()));
        }
        if self.hidden_from(seat) == Some(i) {
            return Err(Illegal::Smokescreened(i + 1));
        }
        Ok(())
    }

    fn check_reveal(&self, seat: Seat, action: &Action) -> Result<(), Illegal> {
        if self.guessing[seat] && !matches!(action, Action::Guess(_) | Action::Pass) {
            return Err(Illegal::Guessing);
        }
        if let Action::Buy(cells) = action {
            if self.no_buy[seat] {
                return Err(Illegal::NoBuying);
            }
            if let Some(i) = cells.indices().find(|&i| self.known[seat][i].is_some()) {
                return Err(Illegal::AlreadyKnown(cell(i)));
            }
            let cost = CELL_PRICE * cells.len() as u32;
            if cost > self.rp[seat] {
                return Err(Illegal::NotEnoughRp {
                    rp: self.rp[seat],
                    cells: cells.len(),
                    cost,
                });
            }
        }
        Ok(())
    }

    /// Both bluffs are in: they are judged and shown.
    fn end_bluff(&mut self) {
        let mut round = Round::default();
        for seat in Seat::BOTH {
            let bluff = self.sealed_bluff[seat].take().expect("both bluffs are in");
            let truths = bluff
                .statements
                .each_ref()
                .map(|s| s.statement().eval(bluff.subset, self.layout));
            self.rp[seat] += truths.iter().filter(|&&t| t).count() as u32;
            if bluff.nolimit {
                self.items[seat][Item::NoLimit as usize] = Some(self.round);
            }
            if bluff.smokescreen.is_some() {
                self.items[seat][Item::Smokescreen as usize] = Some(self.round);
            }
            round.sides[seat] = Some(Side {
                bluff,
                truths,
                claims: None,
                detective: None,
                correct: 0,
                reveal: None,
            });
        }
        self.rounds.push(round);
        self.phase = Phase::Claim;
    }

    /// Both claims are in: each right claim earns 2 RP.
    fn end_claims(&mut self) {
        for seat in Seat::BOTH {
            let claims = self.sealed_claims[seat].take().expect("both claims are in");
            let truths = self.current().sides[seat.other()]
                .as_ref()
                .expect("bluffs are in")
                .truths;
            let detective = self.asked[seat].take();
            let correct = (0..STATEMENTS)
                .filter(|&i| Some(i) != detective && claims.claims[i] == Some(truths[i]))
                .count() as u8;
            self.rp[seat] += 2 * correct as u32;
            let side = self.side_mut(seat);
            side.claims = Some(claims);
            side.detective = detective;
            side.correct = correct;
        }
        self.phase = Phase::Reveal;
    }

    fn reveal_of(&self, seat: Seat) -> Option<Reveal> {
        self.current().sides[seat].as_ref().and_then(|s| s.reveal)
    }

    /// Both seats are done: cells are bought, guesses judged.
    fn end_reveal_if_done(&mut self) {
        if Seat::BOTH.into_iter().any(|s| self.reveal_of(s).is_none()) {
            return;
        }
        let mut right = Vec::new();
        for seat in Seat::BOTH {
            self.no_buy[seat] = false;
            match self.reveal_of(seat).expect("done") {
                Reveal::Pass => {}
                Reveal::Buy(cells) => {
                    self.rp[seat] -= CELL_PRICE * cells.len() as u32;
                    for i in cells.indices() {
                        self.known[seat][i] = Some(self.round);
                    }
                }
                Reveal::Guess { grid, order } if grid == self.layout => right.push((seat, order)),
                Reveal::Guess { .. } => {
                    self.rp[seat] = 0;
                    self.no_buy[seat] = true;
                }
            }
        }
        self.guessing = PerSeat::default();
        self.result = match right.as_slice() {
            [] if self.max_rounds.is_some_and(|m| self.round >= m) => Some(Outcome {
                winner: None,
                scores: self.scores(),
                decided_by: "round limit".into(),
                reason: format!("a draw: nobody guessed the grid in {} rounds", self.round),
            }),
            [] => None,
            [(winner, _)] => Some(Outcome {
                winner: Some(*winner),
                scores: self.scores(),
                decided_by: "guess".into(),
                reason: format!("{winner} guessed the whole grid in round {}", self.round),
            }),
            [(a, a_order), (b, b_order)] => Some(self.both_right(*a, *a_order, *b, *b_order)),
            _ => unreachable!("two seats"),
        };
        if self.result.is_some() {
            self.phase = Phase::Over;
        } else {
            self.round += 1;
            self.phase = Phase::Bluff;
        }
    }

    fn both_right(&self, a: Seat, a_order: u32, b: Seat, b_order: u32) -> Outcome {
        let (ra, rb) = (self.rp[a], self.rp[b]);
        let (winner, decided_by, why) = if ra != rb {
            let w = if ra > rb { a } else { b };
            (
                w,
                "more RP",
                format!("{w} has more RP ({} to {})", ra.max(rb), ra.min(rb)),
            )
        } else {
            let w = if a_order < b_order { a } else { b };
            (
                w,
                "earlier guess",
                format!("both have {ra} RP and {w} sent its guess first"),
            )
        };
        Outcome {
            winner: Some(winner),
            scores: self.scores(),
            decided_by: decided_by.into(),
            reason: format!(
                "both seats guessed the whole grid in round {}; {why}, so {winner} wins",
                self.round
            ),
        }
    }

    fn scores(&self) -> PerSeat<i64> {
        self.rp.map(|&r| r as i64)
    }

    /// What `seat`'s pending decision takes, in words.
    fn expected(&self, seat: Seat) -> &'static str {
        match self.phase {
            Phase::Bluff => {
                "a subset and four statements, like `subset A1 B1 A2 B2; <statement>; <statement>; <statement>; <statement>`"
            }
            Phase::Claim => {
                "claims on your opponent's statements, like `claims T F T -` (`detective 3` first asks Detective)"
            }
            Phase::Reveal if self.guessing[seat] => {
                "your guess, like `guess RRBG YGBR BBRY GYRG`, or `pass`"
            }
            Phase::Reveal => {
                "`buy B3`, `guess RRBG YGBR BBRY GYRG`, `guess` (to take the guessing time) or `pass`"
            }
            Phase::Over => "nothing: the game is over",
        }
    }

    /// A random bluff for `seat` that [`FourStatements::check_bluff`]
    /// accepts: a subset that keeps the rules (or, now and then, uses No
    /// Limit) and four random valid statements.
    pub fn random_bluff<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Bluff {
        let nolimit = self.has_item(seat, Item::NoLimit) && rng.random_ratio(1, 8);
        let subset = if nolimit {
            random_connected(rng.random_range(2..=10), rng)
        } else {
            self.random_subset(seat, rng)
        };
        let smokescreen = (self.has_item(seat, Item::Smokescreen) && rng.random_ratio(1, 6))
            .then(|| rng.random_range(0..STATEMENTS));
        Bluff {
            subset,
            statements: std::array::from_fn(|_| Said::new(statement::random(subset, rng))),
            smokescreen,
            nolimit,
        }
    }

    /// A random subset that keeps the three rules for `seat`.
    pub fn random_subset<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> CellSet {
        let previous = self.previous_subset(seat).unwrap_or_default();
        loop {
            let s = random_connected(rng.random_range(SUBSET_SIZES), rng);
            if s.and(previous).len() < s.len() / 2 {
                return s;
            }
        }
    }

    /// Random claims for `seat` on the opponent's statements.
    pub fn random_claims<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Claims {
        let hidden = self.hidden_from(seat);
        Claims {
            claims: std::array::from_fn(|i| {
                (Some(i) != hidden && !rng.random_ratio(1, 10)).then(|| rng.random())
            }),
        }
    }

    /// Claims for `seat`, each right with probability `right` (none on the
    /// smokescreened statement): how a draw fills in claims it cannot see.
    pub(crate) fn likely_claims<R: Rng + ?Sized>(
        &self,
        seat: Seat,
        right: f64,
        rng: &mut R,
    ) -> Claims {
        let hidden = self.hidden_from(seat);
        let truths = self.current().sides[seat.other()]
            .as_ref()
            .expect("claims follow the bluffs")
            .truths;
        Claims {
            claims: std::array::from_fn(|i| {
                (Some(i) != hidden).then(|| truths[i] == rng.random_bool(right))
            }),
        }
    }

    /// Now and then, while `seat` has it, Detective on a random statement
    /// it may ask about.
    pub fn random_detective<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Action> {
        let i = rng.random_range(0..STATEMENTS);
        (self.phase == Phase::Claim && rng.random_ratio(1, 6))
            .then_some(i)
            .filter(|&i| self.check_detective(seat, i).is_ok())
            .map(Action::Detective)
    }

    /// The Detective question `seat` asked this claim phase.
    pub fn asked(&self, seat: Seat) -> Option<usize> {
        self.asked[seat]
    }

    /// A random reveal action for `seat`: mostly a pass or a buy it can
    /// afford, now and then a guess.
    pub fn random_reveal<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Action {
        let unknown: Vec<usize> = (0..CELLS)
            .filter(|&i| self.known[seat][i].is_none())
            .collect();
        let affordable = (self.rp[seat] / CELL_PRICE) as usize;
        if self.guessing[seat] || rng.random_ratio(1, 10) {
            let grid = (0..CELLS).fold(Grid(0), |g, i| {
                g.with(i, Colour::from_index(rng.random_range(0..4)))
            });
            return Action::Guess(grid);
        }
        if !self.no_buy[seat] && affordable > 0 && !unknown.is_empty() && rng.random() {
            let n = rng.random_range(1..=affordable.min(unknown.len()).min(2));
            let mut unknown = unknown;
            unknown.shuffle(rng);
            let cells = unknown[..n].iter().fold(CellSet::EMPTY, |s, &i| s.with(i));
            return Action::Buy(cells);
        }
        Action::Pass
    }
}

/// The three subset rules, in the rulebook's order (No Limit lifts them):
/// connected, 4 to 8 tiles, and fewer than half (rounded down) shared with
/// the seat's `previous` subset.
pub fn subset_rules(subset: CellSet, previous: Option<CellSet>) -> Result<(), Illegal> {
    if !subset.is_connected() {
        return Err(Illegal::NotConnected);
    }
    if !SUBSET_SIZES.contains(&subset.len()) {
        return Err(Illegal::SubsetSize(subset.len()));
    }
    if let Some(previous) = previous {
        let shared = subset.and(previous).len();
        let limit = subset.len() / 2;
        if shared >= limit {
            return Err(Illegal::Overlap {
                shared,
                previous,
                size: subset.len(),
                most: limit.saturating_sub(1),
            });
        }
    }
    Ok(())
}

/// A random orthogonally connected set of `size` cells.
pub fn random_connected<R: Rng + ?Sized>(size: usize, rng: &mut R) -> CellSet {
    let mut set = CellSet::single(rng.random_range(0..CELLS));
    while set.len() < size.min(CELLS) {
        let border: Vec<usize> = set.orthogonal_border().indices().collect();
        set = set.with(border[rng.random_range(0..border.len())]);
    }
    set
}

/// The cells of a config text, or a config error.
fn config_cells(text: &str, key: &str) -> Result<Option<CellSet>, ConfigError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let cells = CellSet::parse(text)
        .map_err(|e| ConfigError(format!("{}: {key}: {e}", FourStatements::ID)))?;
    if cells.len() != DEALT {
        return Err(ConfigError(format!(
            "{}: {key} names {} cells; each seat is dealt {DEALT}",
            FourStatements::ID,
            cells.len()
        )));
    }
    Ok(Some(cells))
}

impl Game for FourStatements {
    umpire_core::game_header!(
        "four-statements",
        "Four Statements",
        include_str!("../RULES.md"),
        knowledge::Memory
    );

    const DEDUCIBLE: &'static [&'static str] = view::DEDUCIBLE;
    // A bluff's statements are judged by searching colourings of its subset.
    const COSTLY: &'static [&'static str] = &["bluff"];
    const RULINGS: &'static str = "The host's final call on a statement, while the bluff phase is open: \
        `accept subset A1 B1 A2 B2; <statement>; reason <why>` accepts a statement the machine refuses \
        (when it reads it in several ways, add the reading you accept in brackets after it); \
        `refuse subset A1 B1 A2 B2; <statement>; reason <why>` refuses one it accepts, and sends back \
        a sealed bluff that holds it. Both players see the reason once the bluffs are in.";

    fn new(config: &Config, seed: u64) -> Result<Self, ConfigError> {
        let mut rng = seeded_rng(seed);
        let layout = if config.layout.trim().is_empty() {
            (0..CELLS).fold(Grid(0), |g, i| {
                g.with(i, Colour::from_index(rng.random_range(0..4)))
            })
        } else {
            Grid::parse(&config.layout)
                .map_err(|e| ConfigError(format!("{}: layout: {e}", Self::ID)))?
        };
        let fixed = PerSeat::new(
            config_cells(&config.known_p1, "known_p1")?,
            config_cells(&config.known_p2, "known_p2")?,
        );
        let taken = fixed
            .p1
            .unwrap_or_default()
            .or(fixed.p2.unwrap_or_default());
        if fixed
            .p1
            .is_some_and(|a| fixed.p2.is_some_and(|b| !a.and(b).is_empty()))
        {
            return Err(ConfigError(format!(
                "{}: known_p1 and known_p2 share cells; the seats' cells are disjoint",
                Self::ID
            )));
        }
        let mut free: Vec<usize> = (0..CELLS).filter(|&i| !taken.contains(i)).collect();
        free.shuffle(&mut rng);
        let mut known = PerSeat::new([None; CELLS], [None; CELLS]);
        for seat in Seat::BOTH {
            let cells = fixed[seat]
                .unwrap_or_else(|| free.drain(..DEALT).fold(CellSet::EMPTY, |s, i| s.with(i)));
            for i in cells.indices() {
                known[seat][i] = Some(0);
            }
        }
        Ok(FourStatements::start(
            layout,
            known,
            config.max_rounds,
            config.aids,
        ))
    }

    fn options() -> Vec<ConfigOption> {
        vec![
            ConfigOption::new("layout", "Grid")
                .about("16 letters of R B G Y, A1…D1 then A2…D4; empty draws the grid")
                .kind(OptionKind::text("RRBG YGBR BBRY GYRG"))
                .hidden(),
            ConfigOption::new("known_p1", "P1's cells")
                .about("The 4 cells P1 is shown at the start; empty draws them")
                .kind(OptionKind::text("A1 B2 C3 D4"))
                .hidden(),
            ConfigOption::new("known_p2", "P2's cells")
                .about("The 4 cells P2 is shown at the start; empty draws them")
                .kind(OptionKind::text("D1 C2 B3 A4"))
                .hidden(),
            ConfigOption::new("max_rounds", "Round limit")
                .about("A draw after this many rounds without a right guess; empty plays on, as the rulebook does")
                .kind(OptionKind::Number {
                    min: 1,
                    max: 1000,
                    optional: true,
                }),
            ConfigOption::new("aids", "Deduction aid")
                .about("Show each seat the odds of every cell's colour from all it knows")
                .kind(OptionKind::Flag),
        ]
    }

    fn decision(&self) -> Decision {
        let step = self.round;
        let mut d = Decision::over();
        for seat in Seat::BOTH {
            let kind = match self.phase {
                Phase::Bluff if self.sealed_bluff[seat].is_none() => "bluff",
                Phase::Claim if self.sealed_claims[seat].is_none() => "claim",
                Phase::Reveal if self.reveal_of(seat).is_none() && self.guessing[seat] => "guess",
                Phase::Reveal if self.reveal_of(seat).is_none() => "reveal",
                _ => continue,
            };
            // Asking Detective is a new decision (the claims are still due).
            let step = if kind == "claim" {
                2 * step + u32::from(self.asked[seat].is_some())
            } else {
                step
            };
            d = d.with(seat, Pending::new(kind).step(step).simultaneous());
        }
        d
    }

    /// In the reveal phase everyone else sees both seats deciding until the
    /// phase ends: whether a seat is guessing, or done, is its secret. In the
    /// claim phase, whether a seat asked Detective is its secret.
    fn public_decision(&self) -> Decision {
        if self.phase == Phase::Claim {
            let real = self.decision();
            let mut d = Decision::over();
            for seat in Seat::BOTH {
                if real.get(seat).is_some() {
                    d = d.with(
                        seat,
                        Pending::new("claim").step(2 * self.round).simultaneous(),
                    );
                }
            }
            return d;
        }
        if self.phase != Phase::Reveal {
            return self.decision();
        }
        let reveal = Pending::new("reveal").step(self.round).simultaneous();
        Decision::over()
            .with(Seat::P1, reveal)
            .with(Seat::P2, reveal)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), Illegal> {
        match (self.phase, action) {
            (Phase::Bluff, Action::Bluff(bluff)) => {
                self.check_bluff(seat, bluff)?;
                self.sealed_bluff[seat] = Some((**bluff).clone());
                if self.sealed_bluff.p1.is_some() && self.sealed_bluff.p2.is_some() {
                    self.end_bluff();
                }
            }
            (Phase::Claim, Action::Detective(i)) => {
                self.check_detective(seat, *i)?;
                self.asked[seat] = Some(*i);
                self.items[seat][Item::Detective as usize] = Some(self.round);
            }
            (Phase::Claim, Action::Claims(claims)) => {
                self.check_claims(seat, claims)?;
                self.sealed_claims[seat] = Some(*claims);
                if self.sealed_claims.p1.is_some() && self.sealed_claims.p2.is_some() {
                    self.end_claims();
                }
            }
            (Phase::Reveal, Action::WillGuess) if !self.guessing[seat] => {
                self.guessing[seat] = true;
            }
            (Phase::Reveal, a @ (Action::Buy(_) | Action::Guess(_) | Action::Pass)) => {
                self.check_reveal(seat, a)?;
                self.submissions += 1;
                let reveal = match *a {
                    Action::Buy(cells) => Reveal::Buy(cells),
                    Action::Guess(grid) => Reveal::Guess {
                        grid,
                        order: self.submissions,
                    },
                    _ => Reveal::Pass,
                };
                self.side_mut(seat).reveal = Some(reveal);
                self.end_reveal_if_done();
            }
            (
                Phase::Bluff,
                Action::Refused {
                    text,
                    statement,
                    why,
                },
            ) => {
                // The host may have accepted what the machine refuses.
                let Some(bluff) = self.ruled_bluff(seat, text) else {
                    return Err(Illegal::Statement(*statement, why.clone()));
                };
                return self.apply(seat, &Action::Bluff(Box::new(bluff)));
            }
            (_, a) => return Err(Illegal::WrongPhase(a.to_string(), self.expected(seat))),
        }
        Ok(())
    }

    fn rule(&mut self, seat: Seat, text: &str) -> Result<String, ActionError> {
        let written: ruling::Written = text.parse()?;
        self.make_ruling(seat, &written)
            .map_err(|e| ActionError::from_rule(&e))?;
        Ok(written.to_string())
    }

    /// Statements, claims and guesses are far too many to list.
    fn legal_actions(&self, _: Seat) -> Option<impl Iterator<Item = Action> + '_> {
        None::<std::iter::Empty<Action>>
    }

    fn sample_action<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Action> {
        Some(match self.decision().kind(seat)? {
            "bluff" => Action::Bluff(Box::new(self.random_bluff(seat, rng))),
            "claim" => self
                .random_detective(seat, rng)
                .unwrap_or_else(|| Action::Claims(self.random_claims(seat, rng))),
            _ => self.random_reveal(seat, rng),
        })
    }

    fn view(&self, viewer: Viewer) -> View {
        view::build(self, viewer)
    }

    fn remember(memory: &mut knowledge::Memory, view: &View) {
        memory.remember(view);
    }

    /// The grid is drawn exactly from what the viewer knows (uniformly for
    /// a spectator); the opponent's secrets are drawn at random and the
    /// rounds played again with them.
    fn sample<R: Rng + ?Sized>(
        viewer: Viewer,
        view: &View,
        memory: &knowledge::Memory,
        rng: &mut R,
    ) -> Self {
        sample::from_view(viewer, view, memory, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result.clone()
    }

    /// A 5-minute reserve per seat covers overruns of the bluff and claim
    /// phases.
    fn clock_policy(_: &Config) -> ClockPolicy {
        ClockPolicy::bank(300_000)
    }

    fn turn_clock(&self, seat: Seat) -> TurnClock {
        let (turn_ms, overtime) = match self.phase {
            Phase::Bluff => (180_000, true),
            Phase::Claim => (90_000, true),
            Phase::Reveal if self.guessing[seat] => (150_000, false),
            Phase::Reveal | Phase::Over => (30_000, false),
        };
        TurnClock { turn_ms, overtime }
    }

    /// Everyone else is shown the longest a reveal can take (30 s, and
    /// 150 s more for a guess), whoever is guessing.
    fn public_turn_clock(&self, seat: Seat) -> TurnClock {
        match self.phase {
            Phase::Reveal => TurnClock::fixed(180_000),
            _ => self.turn_clock(seat),
        }
    }

    fn timeout(&mut self, seat: Seat) -> Timeout {
        match self.phase {
            Phase::Reveal => {
                let what = if self.guessing[seat] {
                    "no guess sent: nothing happens"
                } else {
                    "no reveal action: nothing happens"
                };
                self.submissions += 1;
                self.side_mut(seat).reveal = Some(Reveal::Pass);
                self.end_reveal_if_done();
                Timeout::Applied(what.into())
            }
            _ => Timeout::Lose,
        }
    }
}
