//! Pentomino Wall: over six rounds the players draft the twelve
//! pentominoes, hand each other pieces to place, and paint their own 9×10
//! walls as completely and cleanly as they can. Rules: `RULES.md` beside
//! this crate.

mod bot;
mod event;
mod notation;
mod pieces;
mod sample;
mod score;
mod search;
mod view;
mod wall;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use umpire_core::grid::nth_bit;
use umpire_core::{
    Cell, ClockPolicy, ConfigError, ConfigOption, Decision, Game, OptionKind, Outcome, Pending,
    PerSeat, RuleViolation, Seat, Timeout, TurnClock, Viewer,
};

pub use event::{Event, Last};
pub use notation::{Action, RoundEnd};
pub use pieces::{CELLS, GRID, HEIGHT, Orientation, Piece, Pieces, SUFFIXES, WIDTH};
pub use score::{Decider, compare, threshold};
pub use view::{Kept, Phase, Sealed, View, WallView};
pub use wall::{BORDER, Placed, Score, Tally, Wall};

/// Pentomino Wall's place in the catalogue: the game and its bots.
pub static REGISTRATION: umpire_core::Registration = umpire_core::Registration {
    game: umpire_core::erase::<PentominoWall>(),
    bots: &bot::BOTS,
    commands: &[],
    words: &["pentomino", "pentominoes"],
};

/// Which quarter turns count as one re-orientation step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QuarterTurns {
    /// Only clockwise: an anticlockwise quarter turn costs 3 steps.
    #[default]
    Clockwise,
    /// Clockwise and anticlockwise each cost 1 step.
    Both,
}

/// Match options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The seat with the advantage, who names the first drafter of round 1.
    pub advantage: Seat,
    /// Which quarter turns count as one step.
    pub quarter_turns: QuarterTurns,
}

/// Rounds in a match.
pub const ROUNDS: u8 = 6;
/// Turns in a round.
pub const TURNS: u8 = 3;
/// Pieces a hand holds after the draft.
pub const HAND: usize = 6;
/// Re-orientation steps free in each turn.
pub const FREE_STEPS: u32 = 2;
/// The price of a Double Turn and of an Exchange.
pub const DOUBLE_TURN: u32 = 2;
pub const EXCHANGE: u32 = 2;

/// Why a Pentomino Wall action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("you must {0} now, not `{1}`")]
    Wrong(&'static str, &'static str),
    #[error("there is nothing for you to decide now")]
    Waiting,
    #[error("{0} is not in the pool (the pool: {1})")]
    NotInPool(Piece, String),
    #[error("a Double Turn takes two different pieces")]
    SamePieceTwice,
    #[error("a Double Turn would give you {0} pieces: a hand holds at most six")]
    HandFull(usize),
    #[error("{what} costs {}; you have {}", credits(*need), credits(*have))]
    Credits { what: String, need: u32, have: u32 },
    #[error("{0} is not in your hand (your hand: {1})")]
    NotInHand(Piece, String),
    #[error("you cannot present and set aside the same piece ({0})")]
    PresentAndAside(Piece),
    #[error("the piece to {0} is {1}, not {2}")]
    WrongPiece(&'static str, Piece, Piece),
    #[error("{0} at {1} leaves the wall (columns A–J, rows 1–9)")]
    OffWall(Orientation, Cell),
    #[error("the first piece of a wall must touch its border: {0} at {1} does not")]
    Border(Orientation, Cell),
    #[error(
        "{0} at {1} neither covers nor touches the paint on your wall: the paint must stay connected"
    )]
    Disconnected(Orientation, Cell),
    #[error("you have already made an Exchange this turn")]
    ExchangeTwice,
    #[error("name each of your set-aside pieces once ({0}): {1}")]
    RoundEndPieces(String, String),
}

impl RuleViolation for Illegal {
    fn rule(&self) -> &'static str {
        match self {
            Illegal::Wrong(..) => "wrong-decision",
            Illegal::Waiting => "waiting",
            Illegal::NotInPool(..) => "not-in-pool",
            Illegal::SamePieceTwice => "double-turn",
            Illegal::HandFull(_) => "hand-full",
            Illegal::Credits { .. } => "credits",
            Illegal::NotInHand(..) => "not-in-hand",
            Illegal::PresentAndAside(_) => "same-piece",
            Illegal::WrongPiece(..) => "wrong-piece",
            Illegal::OffWall(..) => "off-wall",
            Illegal::Border(..) => "border",
            Illegal::Disconnected(..) => "connected",
            Illegal::ExchangeTwice => "one-exchange",
            Illegal::RoundEndPieces(..) => "round-end",
        }
    }
}

/// The decision a seat faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    First,
    Draft,
    Present,
    Place,
    Orient,
    RoundEnd,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::First => "first",
            Kind::Draft => "draft",
            Kind::Present => "present",
            Kind::Place => "place",
            Kind::Orient => "orient",
            Kind::RoundEnd => "round-end",
        }
    }

    /// What the seat must do, in words, with the notation.
    fn task(self) -> &'static str {
        match self {
            Kind::First => "name who drafts first (`first P1` or `first P2`)",
            Kind::Draft => "draft (`take F`, or `take F L` for a Double Turn)",
            Kind::Present => "present a piece and set one aside (`present T90 aside P`)",
            Kind::Place => {
                "place the piece presented to you (`place T90 at C4`) or exchange it (`exchange L`)"
            }
            Kind::Orient => "orient the piece your opponent swapped in (`orient L90`)",
            Kind::RoundEnd => "choose for each set-aside piece (`give P, return Z, keep W`)",
        }
    }
}

fn verb(action: &Action) -> &'static str {
    match action {
        Action::First(_) => "first",
        Action::Take(..) => "take",
        Action::Present { .. } => "present",
        Action::Exchange(_) => "exchange",
        Action::Orient(_) => "orient",
        Action::Place(_) => "place",
        Action::RoundEnd(_) => "give/return/keep",
    }
}

/// A Pentomino Wall match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PentominoWall {
    config: Config,
    phase: Phase,
    round: u8,
    turn: u8,
    first: Option<Seat>,
    /// The seat to pick, during the draft.
    drafter: Option<Seat>,
    picks: u32,
    pool: Pieces,
    hands: PerSeat<Pieces>,
    aside: PerSeat<Pieces>,
    credits: PerSeat<u32>,
    sealed: PerSeat<Option<Sealed>>,
    presented: PerSeat<Option<Orientation>>,
    to_place: PerSeat<Option<Orientation>>,
    exchanged: PerSeat<Option<Piece>>,
    /// Whether a seat that must both place and orient orients first (the
    /// orientation fell due first).
    orients_first: PerSeat<bool>,
    placed: PerSeat<bool>,
    walls: PerSeat<Wall>,
    /// Consecutive round ends at which each seat kept each piece.
    kept: PerSeat<[u8; 12]>,
    choices: PerSeat<Option<RoundEnd>>,
    carry: PerSeat<Pieces>,
    history: Vec<PerSeat<i64>>,
    last: Option<Last>,
}

/// `1 credit`, `2 credits`.
fn credits(n: u32) -> String {
    format!("{n} credit{}", if n == 1 { "" } else { "s" })
}

/// Credits paid by one seat to the other: never below zero, never overflowing.
fn pay(credits: &mut PerSeat<u32>, from: Seat, amount: u32) {
    credits[from] = credits[from].saturating_sub(amount);
    credits[from.other()] = credits[from.other()].saturating_add(amount);
}

impl PentominoWall {
    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn round(&self) -> u8 {
        self.round
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn hand(&self, seat: Seat) -> Pieces {
        self.hands[seat]
    }

    pub fn pool(&self) -> Pieces {
        self.pool
    }

    pub fn credits(&self, seat: Seat) -> u32 {
        self.credits[seat]
    }

    pub fn wall(&self, seat: Seat) -> &Wall {
        &self.walls[seat]
    }

    /// The piece `seat` has to place now, as it lies.
    pub fn to_place(&self, seat: Seat) -> Option<Orientation> {
        self.to_place[seat]
    }

    /// The running scores after every turn so far.
    pub fn history(&self) -> &[PerSeat<i64>] {
        &self.history
    }

    /// Each seat's score now.
    pub fn scores(&self) -> PerSeat<Score> {
        PerSeat::from_fn(|s| self.walls[s].score(self.credits[s]))
    }

    fn anticlockwise(&self) -> bool {
        self.config.quarter_turns == QuarterTurns::Both
    }

    /// Re-orientation steps from `from` to `to`, and the credits they cost.
    pub fn reorientation(&self, from: Orientation, to: Orientation) -> (u32, u32) {
        let steps = u32::from(from.steps_to(to, self.anticlockwise()));
        (steps, steps.saturating_sub(FREE_STEPS))
    }

    /// The turn's index in the match, from 0.
    fn turn_index(&self) -> u32 {
        u32::from(self.round.saturating_sub(1)) * u32::from(TURNS)
            + u32::from(self.turn.saturating_sub(1))
    }

    /// Whether `seat` has a piece to place now.
    fn has_piece(&self, seat: Seat) -> bool {
        !self.placed[seat] && self.to_place[seat].is_some()
    }

    /// Whether `seat` must orient the piece its opponent swapped in.
    fn owes_orient(&self, seat: Seat) -> bool {
        let o = seat.other();
        self.exchanged[o].is_some() && self.to_place[o].is_none() && !self.placed[o]
    }

    /// Whether `seat` has oriented the piece its opponent swapped in.
    fn has_oriented(&self, seat: Seat) -> bool {
        self.exchanged[seat.other()].is_some() && !self.owes_orient(seat)
    }

    /// The decision `seat` faces, if any.
    pub fn pending(&self, seat: Seat) -> Option<Kind> {
        match self.phase {
            Phase::First => (seat == self.config.advantage).then_some(Kind::First),
            Phase::Draft => (self.drafter == Some(seat)).then_some(Kind::Draft),
            Phase::Present => self.sealed[seat].is_none().then_some(Kind::Present),
            // A seat that must both place and orient may do either first
            // (the rulebook sets no order); its decision is named for what
            // fell due first, so the other seat's action never changes a
            // decision a seat already faces.
            Phase::Place => match (self.has_piece(seat), self.owes_orient(seat)) {
                (true, true) if self.orients_first[seat] => Some(Kind::Orient),
                (true, _) => Some(Kind::Place),
                (false, true) => Some(Kind::Orient),
                (false, false) => None,
            },
            Phase::RoundEnd => self.choices[seat].is_none().then_some(Kind::RoundEnd),
            Phase::Over => None,
        }
    }

    /// The first drafter of the current round.
    fn round_first_drafter(&self) -> Seat {
        let first = self.first.unwrap_or(self.config.advantage);
        if self.round % 2 == 1 {
            first
        } else {
            first.other()
        }
    }

    /// The step of a placing-phase decision: the turn, whether `seat`
    /// exchanged, and whether it did the other part it owes (`done`).
    fn place_step(&self, seat: Seat, done: bool) -> u32 {
        self.turn_index() * 4 + 2 * u32::from(self.exchanged[seat].is_some()) + u32::from(done)
    }

    /// Whether `seat` may take a Double Turn now.
    fn may_double(&self, seat: Seat) -> bool {
        self.credits[seat] >= DOUBLE_TURN
            && self.pool.len() >= 2
            && self.hands[seat].len() + 2 <= HAND
    }

    /// Whether `seat` may make an Exchange now.
    fn may_exchange(&self, seat: Seat) -> bool {
        self.exchanged[seat].is_none()
            && self.to_place[seat].is_some()
            && !self.hands[seat].is_empty()
            && self.credits[seat] >= EXCHANGE
    }

    // The steps of a match.

    fn event(&mut self, by: Seat, event: Event) {
        self.last = Some(Last {
            by,
            event,
            timeout: false,
        });
    }

    fn start_draft(&mut self) {
        self.phase = Phase::Draft;
        self.turn = 0;
        self.drafter = Some(self.round_first_drafter());
        self.end_draft_if_full();
    }

    /// Once a hand holds six, the other takes the rest of the pool and the
    /// first turn begins.
    fn end_draft_if_full(&mut self) -> Option<Pieces> {
        let full = Seat::BOTH
            .into_iter()
            .find(|&s| self.hands[s].len() >= HAND)
            .or_else(|| self.drafter.filter(|_| self.pool.is_empty()))?;
        self.drafter = None;
        let other = full.other();
        let rest = self.pool;
        self.hands[other] = self.hands[other].union(rest);
        self.pool = Pieces::NONE;
        self.start_turn(1);
        Some(rest).filter(|r| !r.is_empty())
    }

    fn start_turn(&mut self, turn: u8) {
        self.phase = Phase::Present;
        self.turn = turn;
        self.sealed = PerSeat::default();
        self.presented = PerSeat::default();
        self.to_place = PerSeat::default();
        self.exchanged = PerSeat::default();
        self.orients_first = PerSeat::default();
        self.placed = PerSeat::default();
    }

    fn take(&mut self, seat: Seat, a: Piece, b: Option<Piece>) -> Result<(), Illegal> {
        if b == Some(a) {
            return Err(Illegal::SamePieceTwice);
        }
        for p in std::iter::once(a).chain(b) {
            if !self.pool.contains(p) {
                return Err(Illegal::NotInPool(p, self.pool.listed()));
            }
        }
        if b.is_some() {
            if self.credits[seat] < DOUBLE_TURN {
                return Err(Illegal::Credits {
                    what: "a Double Turn".into(),
                    need: DOUBLE_TURN,
                    have: self.credits[seat],
                });
            }
            if self.hands[seat].len() + 2 > HAND {
                return Err(Illegal::HandFull(self.hands[seat].len() + 2));
            }
        }
        let pieces: Pieces = std::iter::once(a).chain(b).collect();
        self.pool = self.pool.minus(pieces);
        self.hands[seat] = self.hands[seat].union(pieces);
        if b.is_some() {
            pay(&mut self.credits, seat, DOUBLE_TURN);
        }
        self.picks = self.picks.saturating_add(1);
        self.drafter = Some(seat.other());
        let rest = self.end_draft_if_full();
        self.event(
            seat,
            Event::Took {
                pieces,
                double: b.is_some(),
                rest,
            },
        );
        Ok(())
    }

    fn present(&mut self, seat: Seat, present: Orientation, aside: Piece) -> Result<(), Illegal> {
        if present.piece == aside {
            return Err(Illegal::PresentAndAside(aside));
        }
        for p in [present.piece, aside] {
            if !self.hands[seat].contains(p) {
                return Err(Illegal::NotInHand(p, self.hands[seat].listed()));
            }
        }
        self.sealed[seat] = Some(Sealed { present, aside });
        self.event(seat, Event::Sealed);
        self.reveal_if_done(seat);
        Ok(())
    }

    /// Once both choices are sealed, they are revealed and placing begins.
    fn reveal_if_done(&mut self, by: Seat) {
        let (Some(a), Some(b)) = (self.sealed.p1, self.sealed.p2) else {
            return;
        };
        let sealed = PerSeat::new(a, b);
        for seat in Seat::BOTH {
            let s = sealed[seat];
            self.hands[seat] = self.hands[seat].without(s.present.piece).without(s.aside);
            self.aside[seat] = self.aside[seat].with(s.aside);
            self.presented[seat.other()] = Some(s.present);
            self.to_place[seat.other()] = Some(s.present);
        }
        self.sealed = PerSeat::default();
        self.phase = Phase::Place;
        self.event(by, Event::Revealed { p1: a, p2: b });
    }

    /// Checks a placement for `seat`; returns the credits it costs.
    pub fn check_place(&self, seat: Seat, p: Placed) -> Result<u32, Illegal> {
        let Some(from) = self.to_place[seat] else {
            return Err(Illegal::Waiting);
        };
        let o = p.orientation;
        if o.piece != from.piece {
            return Err(Illegal::WrongPiece("place", from.piece, o.piece));
        }
        if !p.fits() {
            return Err(Illegal::OffWall(o, p.at));
        }
        let (steps, paid) = self.reorientation(from, o);
        if paid > self.credits[seat] {
            return Err(Illegal::Credits {
                what: format!(
                    "turning {from} into {o} takes {steps} steps, and {paid} beyond the two free ones"
                ),
                need: paid,
                have: self.credits[seat],
            });
        }
        let wall = &self.walls[seat];
        if wall.reach() & p.mask() == 0 {
            return Err(if wall.painted() == 0 {
                Illegal::Border(o, p.at)
            } else {
                Illegal::Disconnected(o, p.at)
            });
        }
        Ok(paid)
    }

    fn place(&mut self, seat: Seat, p: Placed) -> Result<(), Illegal> {
        let paid = self.check_place(seat, p)?;
        pay(&mut self.credits, seat, paid);
        self.walls[seat].paint(p);
        self.placed[seat] = true;
        self.to_place[seat] = None;
        self.event(seat, Event::Placed { placed: p, paid });
        self.end_turn_if_done();
        Ok(())
    }

    fn exchange(&mut self, seat: Seat, piece: Piece) -> Result<(), Illegal> {
        if self.exchanged[seat].is_some() {
            return Err(Illegal::ExchangeTwice);
        }
        let Some(presented) = self.to_place[seat] else {
            return Err(Illegal::Waiting);
        };
        if !self.hands[seat].contains(piece) {
            return Err(Illegal::NotInHand(piece, self.hands[seat].listed()));
        }
        if self.credits[seat] < EXCHANGE {
            return Err(Illegal::Credits {
                what: "an Exchange".into(),
                need: EXCHANGE,
                have: self.credits[seat],
            });
        }
        pay(&mut self.credits, seat, EXCHANGE);
        // Whatever falls due to a seat later comes after what it owes now.
        let other = seat.other();
        self.orients_first[other] = !self.has_piece(other);
        self.orients_first[seat] = true;
        self.hands[seat] = self.hands[seat].without(piece).with(presented.piece);
        self.exchanged[seat] = Some(piece);
        self.to_place[seat] = None;
        self.event(
            seat,
            Event::Exchanged {
                gave: piece,
                took: presented.piece,
            },
        );
        Ok(())
    }

    fn orient(&mut self, seat: Seat, o: Orientation) -> Result<(), Illegal> {
        let placer = seat.other();
        let Some(piece) = self.exchanged[placer] else {
            return Err(Illegal::Waiting);
        };
        if o.piece != piece {
            return Err(Illegal::WrongPiece("orient", piece, o.piece));
        }
        self.to_place[placer] = Some(o);
        self.event(seat, Event::Oriented { orientation: o });
        Ok(())
    }

    /// Once both seats have placed: the running scores are taken, and the
    /// next turn, the round's end or the match's end follows.
    fn end_turn_if_done(&mut self) {
        if !(self.placed.p1 && self.placed.p2) {
            return;
        }
        let totals = PerSeat::from_fn(|s| self.walls[s].total(self.credits[s]));
        self.history.push(totals);
        if self.turn < TURNS {
            self.start_turn(self.turn + 1);
        } else {
            self.presented = PerSeat::default();
            self.exchanged = PerSeat::default();
            self.orients_first = PerSeat::default();
            self.placed = PerSeat::default();
            self.phase = if self.round < ROUNDS {
                Phase::RoundEnd
            } else {
                Phase::Over
            };
        }
    }

    fn round_end(&mut self, seat: Seat, choice: RoundEnd) -> Result<(), Illegal> {
        let named = choice.pieces();
        let aside = self.aside[seat];
        if named != aside || choice.give.len() + choice.ret.len() + choice.keep.len() != aside.len()
        {
            let missing = aside.minus(named);
            let extra = named.minus(aside);
            let why = if !extra.is_empty() {
                format!("{} not set aside", extra.listed())
            } else {
                format!("{} missing", missing.listed())
            };
            return Err(Illegal::RoundEndPieces(aside.listed(), why));
        }
        let other = seat.other();
        let gained = choice.give.len() as u32;
        self.credits[seat] = self.credits[seat].saturating_add(gained);
        self.carry[other] = self.carry[other].union(choice.give);
        self.carry[seat] = self.carry[seat].union(choice.keep);
        let mut paid = 0u32;
        for p in Piece::ALL {
            let k = &mut self.kept[seat][p.index()];
            if choice.keep.contains(p) {
                *k = k.saturating_add(1);
                paid = paid.saturating_add(1u32.checked_shl(u32::from(*k) - 1).unwrap_or(u32::MAX));
            } else {
                *k = 0;
            }
        }
        self.credits[other] = self.credits[other].saturating_add(paid);
        self.choices[seat] = Some(choice);
        self.event(
            seat,
            Event::RoundEnd {
                choice,
                gained,
                paid,
            },
        );
        if self.choices.p1.is_some() && self.choices.p2.is_some() {
            self.next_round();
        }
        Ok(())
    }

    fn next_round(&mut self) {
        self.round += 1;
        self.hands = self.carry;
        self.pool = Pieces::ALL.minus(self.carry.p1).minus(self.carry.p2);
        self.aside = PerSeat::default();
        self.choices = PerSeat::default();
        self.carry = PerSeat::default();
        self.start_draft();
    }

    // Defaults, for timeouts.

    /// The first placement, in reading order, of the piece as it lies.
    fn default_placement(&self, seat: Seat) -> Option<Placed> {
        let o = self.to_place[seat]?;
        let anchors = self.walls[seat].anchors(o);
        if anchors != 0 {
            return Some(Placed::new(
                o,
                GRID.cell_at(anchors.trailing_zeros() as usize),
            ));
        }
        self.placements(seat).next()
    }

    /// The engine's default choice for `seat`'s decision, and its words.
    fn default_action(&self, seat: Seat, kind: Kind) -> Option<(Action, String)> {
        Some(match kind {
            Kind::First => {
                let a = self.config.advantage;
                (Action::First(a), format!("{a} drafts first"))
            }
            Kind::Draft => {
                let p = self.pool.nth(0)?;
                (Action::Take(p, None), format!("took {p}"))
            }
            Kind::Present => {
                let hand = self.hands[seat];
                let (a, b) = (hand.nth(0)?, hand.nth(1)?);
                (
                    Action::Present {
                        present: Orientation::base(a),
                        aside: b,
                    },
                    "presented the first piece of its hand as drawn and set aside the second"
                        .into(),
                )
            }
            Kind::Place => {
                let p = self.default_placement(seat)?;
                (
                    Action::Place(p),
                    format!("placed {} at {}", p.orientation, p.at),
                )
            }
            Kind::Orient => {
                let piece = self.exchanged[seat.other()]?;
                let o = Orientation::base(piece);
                (Action::Orient(o), format!("oriented {piece} as {o}"))
            }
            Kind::RoundEnd => {
                let aside = self.aside[seat];
                (
                    Action::RoundEnd(RoundEnd::returning(aside)),
                    format!("returned {}", aside.listed()),
                )
            }
        })
    }

    // Listing and sampling.

    /// Every legal placement of `seat`, by orientation then reading order.
    pub fn placements(&self, seat: Seat) -> impl Iterator<Item = Placed> + '_ {
        let from = self.to_place[seat];
        let credits = self.credits[seat];
        from.into_iter()
            .flat_map(|f| f.piece.orientations().map(move |o| (f, o)))
            .filter(move |&(f, o)| self.reorientation(f, o).1 <= credits)
            .flat_map(move |(_, o)| {
                let anchors = self.walls[seat].anchors(o);
                GRID.cells_of(anchors).map(move |at| Placed::new(o, at))
            })
    }

    /// The orientations of the piece `seat` must orient for its opponent.
    fn orientations_owed(&self, seat: Seat) -> impl Iterator<Item = Orientation> {
        let owed = self.owes_orient(seat);
        self.exchanged[seat.other()]
            .filter(|_| owed)
            .into_iter()
            .flat_map(Piece::orientations)
    }

    /// A draft pick, uniform over single picks and Double Turns.
    fn sample_draft<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Action> {
        let n = self.pool.len();
        if n == 0 {
            return None;
        }
        let pairs = if self.may_double(seat) {
            n * (n - 1) / 2
        } else {
            0
        };
        let mut r = rng.random_range(0..n + pairs);
        if r < n {
            return Some(Action::Take(self.pool.nth(r)?, None));
        }
        r -= n;
        for i in 0..n {
            let later = n - 1 - i;
            if r < later {
                return Some(Action::Take(self.pool.nth(i)?, self.pool.nth(i + 1 + r)));
            }
            r -= later;
        }
        None
    }

    /// A placement, an Exchange or an orientation owed, uniform over all of
    /// them: each affordable orientation's legal anchors are counted on
    /// bitboards.
    fn sample_place<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Action> {
        let wall = &self.walls[seat];
        let mut anchors = [(Orientation::base(Piece::F), 0u128); 8];
        let mut n = 0;
        if let Some(from) = self.to_place[seat] {
            for o in from.piece.orientations() {
                if self.reorientation(from, o).1 <= self.credits[seat] {
                    anchors[n] = (o, wall.anchors(o));
                    n += 1;
                }
            }
        }
        let anchors = &anchors[..n];
        let exchanges = if self.may_exchange(seat) {
            self.hands[seat].len() as u32
        } else {
            0
        };
        let total = anchors.iter().map(|(_, a)| a.count_ones()).sum::<u32>()
            + exchanges
            + self.orientations_owed(seat).count() as u32;
        if total == 0 {
            return None;
        }
        let mut r = rng.random_range(0..total);
        for &(o, a) in anchors {
            let count = a.count_ones();
            if r < count {
                let at = GRID.cell_at(nth_bit(a, r));
                return Some(Action::Place(Placed::new(o, at)));
            }
            r -= count;
        }
        if r < exchanges {
            return self.hands[seat].nth(r as usize).map(Action::Exchange);
        }
        self.orientations_owed(seat)
            .nth((r - exchanges) as usize)
            .map(Action::Orient)
    }

    fn list(&self, seat: Seat) -> Vec<Action> {
        let Some(kind) = self.pending(seat) else {
            return Vec::new();
        };
        match kind {
            Kind::First => Seat::BOTH.map(Action::First).to_vec(),
            Kind::Draft => {
                let mut out: Vec<Action> =
                    self.pool.iter().map(|p| Action::Take(p, None)).collect();
                if self.may_double(seat) {
                    for a in self.pool.iter() {
                        for b in self.pool.iter().filter(|&b| b > a) {
                            out.push(Action::Take(a, Some(b)));
                        }
                    }
                }
                out
            }
            Kind::Present => {
                let hand = self.hands[seat];
                let mut out = Vec::new();
                for p in hand.iter() {
                    for o in p.orientations() {
                        for aside in hand.without(p).iter() {
                            out.push(Action::Present { present: o, aside });
                        }
                    }
                }
                out
            }
            Kind::Place | Kind::Orient => {
                let mut out: Vec<Action> = self.placements(seat).map(Action::Place).collect();
                if self.may_exchange(seat) {
                    out.extend(self.hands[seat].iter().map(Action::Exchange));
                }
                out.extend(self.orientations_owed(seat).map(Action::Orient));
                out
            }
            Kind::RoundEnd => {
                let aside: Vec<Piece> = self.aside[seat].iter().collect();
                let n = aside.len() as u32;
                (0..3u32.pow(n))
                    .map(|code| Action::RoundEnd(round_end_of(&aside, code)))
                    .collect()
            }
        }
    }
}

/// The round-end choice numbered `code` (base 3, one digit per piece:
/// give, return, keep).
fn round_end_of(aside: &[Piece], mut code: u32) -> RoundEnd {
    let mut r = RoundEnd::default();
    for &p in aside {
        let set = match code % 3 {
            0 => &mut r.give,
            1 => &mut r.ret,
            _ => &mut r.keep,
        };
        *set = set.with(p);
        code /= 3;
    }
    r
}

impl Game for PentominoWall {
    umpire_core::game_header!(
        "pentomino-wall",
        "Pentomino Wall",
        include_str!("../RULES.md")
    );

    fn new(config: &Config, _seed: u64) -> Result<Self, ConfigError> {
        Ok(PentominoWall {
            config: config.clone(),
            phase: Phase::First,
            round: 1,
            turn: 0,
            first: None,
            drafter: None,
            picks: 0,
            pool: Pieces::ALL,
            hands: PerSeat::default(),
            aside: PerSeat::default(),
            credits: PerSeat::default(),
            sealed: PerSeat::default(),
            presented: PerSeat::default(),
            to_place: PerSeat::default(),
            exchanged: PerSeat::default(),
            orients_first: PerSeat::default(),
            placed: PerSeat::default(),
            walls: PerSeat::default(),
            kept: PerSeat::default(),
            choices: PerSeat::default(),
            carry: PerSeat::default(),
            history: Vec::new(),
            last: None,
        })
    }

    fn options() -> Vec<ConfigOption> {
        vec![
            ConfigOption::new("advantage", "Advantage")
                .about("The seat that names who drafts first in round 1"),
            ConfigOption::new("quarter_turns", "Quarter turns")
                .about("Clockwise: only a clockwise quarter turn is one step (anticlockwise is three); both: either way is one step")
                .kind(OptionKind::choice(&["clockwise", "both"])),
        ]
    }

    fn decision(&self) -> Decision {
        let mut d = Decision::over();
        for seat in Seat::BOTH {
            let Some(kind) = self.pending(seat) else {
                continue;
            };
            let pending = Pending::new(kind.name());
            let t = self.turn_index();
            let pending = match kind {
                Kind::First => pending,
                Kind::Draft => pending.step(self.picks),
                Kind::Present => pending.step(t).simultaneous(),
                // A seat that owes both gets a new step for each part it
                // does; the other seat's actions leave its step alone.
                Kind::Place => pending.step(self.place_step(seat, self.has_oriented(seat))),
                Kind::Orient => pending.step(self.place_step(seat, self.placed[seat])),
                Kind::RoundEnd => pending.step(u32::from(self.round)),
            };
            d = d.with(seat, pending);
        }
        d
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), Illegal> {
        let Some(kind) = self.pending(seat) else {
            return Err(Illegal::Waiting);
        };
        match (kind, *action) {
            (Kind::First, Action::First(first)) => {
                self.first = Some(first);
                self.event(seat, Event::First { first });
                self.start_draft();
                Ok(())
            }
            (Kind::Draft, Action::Take(a, b)) => self.take(seat, a, b),
            (Kind::Present, Action::Present { present, aside }) => {
                self.present(seat, present, aside)
            }
            // Placing (or exchanging) and orienting, in either order.
            (Kind::Place | Kind::Orient, Action::Place(p)) if self.has_piece(seat) => {
                self.place(seat, p)
            }
            (Kind::Place | Kind::Orient, Action::Exchange(p)) if self.has_piece(seat) => {
                self.exchange(seat, p)
            }
            (Kind::Place | Kind::Orient, Action::Orient(o)) if self.owes_orient(seat) => {
                self.orient(seat, o)
            }
            (Kind::RoundEnd, Action::RoundEnd(r)) => self.round_end(seat, r),
            (kind, action) => Err(Illegal::Wrong(kind.task(), verb(&action))),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Option<impl Iterator<Item = Action> + '_> {
        Some(self.list(seat).into_iter())
    }

    /// Uniform over the legal actions, drawn from counts without listing.
    fn sample_action<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Action> {
        match self.pending(seat)? {
            Kind::First => Some(Action::First(if rng.random() {
                Seat::P1
            } else {
                Seat::P2
            })),
            Kind::Draft => self.sample_draft(seat, rng),
            Kind::Present => sample::draw_sealed(self.hands[seat], rng).map(|s| Action::Present {
                present: s.present,
                aside: s.aside,
            }),
            Kind::Place | Kind::Orient => self.sample_place(seat, rng),
            Kind::RoundEnd => {
                let aside: Vec<Piece> = self.aside[seat].iter().collect();
                let code = rng.random_range(0..3u32.pow(aside.len() as u32));
                Some(Action::RoundEnd(round_end_of(&aside, code)))
            }
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        sample::view(self, viewer)
    }

    fn sample<R: Rng + ?Sized>(viewer: Viewer, view: &View, _: &(), rng: &mut R) -> Self {
        sample::sample(viewer, view, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| score::outcome(&self.scores(), &self.history))
    }

    fn clock_policy(_: &Config) -> ClockPolicy {
        ClockPolicy::bank(5 * 60_000)
    }

    /// 90 s per decision, with the 5-minute reserve.
    fn turn_clock(&self, _: Seat) -> TurnClock {
        TurnClock::with_overtime(90_000)
    }

    /// The engine's default legal choice, said in words.
    fn timeout(&mut self, seat: Seat) -> Timeout {
        let Some(kind) = self.pending(seat) else {
            return Timeout::Lose;
        };
        let Some((action, words)) = self.default_action(seat, kind) else {
            return Timeout::Lose;
        };
        match self.apply(seat, &action) {
            Ok(()) => {
                // A sealed choice stays sealed: its event says no more.
                if let (Some(last), false) = (&mut self.last, kind == Kind::Present) {
                    last.timeout = true;
                }
                Timeout::Applied(format!("{words} (no choice in time)"))
            }
            Err(_) => Timeout::Lose,
        }
    }
}
