//! A small test game that exercises what the engine offers every game:
//! simultaneous sealed decisions, two seats facing different decisions at
//! once, a timeout rule that is no action a player could send, and a clock
//! that depends on a secret choice. Core's tests, the server's tests and the
//! browser tests run it; `variant` breaks it on purpose to prove the
//! conformance suite catches a leaking view or a sampler that draws too
//! little.
//!
//! **Sealed Bids.** Three rounds, each with a public prize of 1–5 points
//! drawn from the seed. Both seats seal a bid of 1–3 at once (`bid 2`).
//! A seat that bids 3 must then `confirm` it (a decision of its own while
//! the other seat may still be bidding). A seat may first `ponder`, in
//! secret: its bid then has 20 s instead of 10 s. Nobody else learns whether
//! a seat pondered, has bid or is confirming until the round is over: the
//! public picture shows both seats bidding, with 30 s. A missed bid is a bid
//! of 0 (no player can send it); a missed confirmation lets the 3 stand.
//! The higher bid takes the prize; most points win. In a match with a host,
//! the umpire may rule `void` on a seat that has bid while the other has
//! not: its bid is voided and it bids again.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::{
    Bot, BotInfo, ClockPolicy, Command, ConfigError, Decision, Game, Level, MatchRng, Outcome,
    ParseError, Pending, PerSeat, Registration, Render, RuleViolation, Seat, SeatView, Think,
    Timeout, TurnClock, Viewer, seeded_rng,
};

/// Deliberately broken variants, for the conformance suite's own tests, and
/// a strict one for tests of a loss on time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    #[default]
    Sound,
    /// Views show the other seat's sealed bid.
    LeakyView,
    /// The sampler always draws the other seat as not having bid.
    NarrowSample,
    /// Sound, but a seat that runs out of time loses.
    Strict,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub variant: Variant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Bid(u8),
    Ponder,
    Confirm,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Bid(n) => write!(f, "bid {n}"),
            Action::Ponder => f.write_str("ponder"),
            Action::Confirm => f.write_str("confirm"),
        }
    }
}

impl FromStr for Action {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Action, ParseError> {
        let text = s.trim().to_ascii_lowercase();
        match text.as_str() {
            "ponder" => return Ok(Action::Ponder),
            "confirm" => return Ok(Action::Confirm),
            _ => {}
        }
        let Some(n) = text.strip_prefix("bid") else {
            return Err(
                ParseError::new(format!("expected an action, got `{}`", s.trim()))
                    .at(0)
                    .expected(["bid N", "ponder", "confirm"]),
            );
        };
        n.trim().parse().map(Action::Bid).map_err(|_| {
            ParseError::new(format!("expected a number after `bid`, got `{}`", n.trim()))
                .at(s.len() - s.trim_start().len() + 3)
                .expected(["1", "2", "3"])
        })
    }
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("a bid is 1, 2 or 3, not {0}")]
    Range(u8),
    #[error("{0} is not what this decision takes: {1}")]
    Wrong(Action, &'static str),
    #[error("you are already pondering this bid")]
    Pondering,
}

impl RuleViolation for Illegal {
    fn rule(&self) -> &'static str {
        match self {
            Illegal::Range(_) => "bid-range",
            Illegal::Wrong(..) => "wrong-decision",
            Illegal::Pondering => "already-pondering",
        }
    }
}

/// One seat's secret part of a round, written as one word (`p3c`: pondered,
/// bid 3, confirmed; `-` for nothing yet), so that a view shows it as one value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Sealed {
    pub bid: Option<u8>,
    pub pondering: bool,
    pub confirmed: bool,
}

impl From<Sealed> for String {
    fn from(s: Sealed) -> String {
        let mut word = String::new();
        if s.pondering {
            word.push('p');
        }
        if let Some(bid) = s.bid {
            word += &bid.to_string();
        }
        if s.confirmed {
            word.push('c');
        }
        if word.is_empty() {
            word.push('-');
        }
        word
    }
}

impl TryFrom<String> for Sealed {
    type Error = String;
    fn try_from(word: String) -> Result<Sealed, String> {
        let rest = word.strip_prefix('p');
        let pondering = rest.is_some();
        let rest = rest.unwrap_or(&word);
        let (rest, confirmed) = match rest.strip_suffix('c') {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let bid = match rest {
            "" | "-" => None,
            n => Some(
                n.parse()
                    .map_err(|_| format!("not a sealed part: `{word}`"))?,
            ),
        };
        Ok(Sealed {
            bid,
            pondering,
            confirmed,
        })
    }
}

impl Sealed {
    fn done(self) -> bool {
        self.bid.is_some() && (self.bid != Some(3) || self.confirmed)
    }
}

/// A Sealed Bids match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SealedBids {
    variant: Variant,
    round: u32,
    prizes: Vec<u8>,
    sealed: PerSeat<Sealed>,
    points: PerSeat<i64>,
}

/// A viewer's picture: the public round and the viewer's own sealed part
/// (both seats' for the umpire).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub variant: Variant,
    pub round: u32,
    pub prizes: Vec<u8>,
    pub points: PerSeat<i64>,
    pub sealed: PerSeat<Option<Sealed>>,
}

const ROUNDS: u32 = 3;

impl Render for View {
    fn render(&self, _: bool) -> String {
        format!(
            "round {} of {ROUNDS}, prizes left {:?}, points P1 {} P2 {}\n",
            self.round + 1,
            self.prizes,
            self.points.p1,
            self.points.p2
        )
    }

    fn last_event(&self) -> Option<String> {
        (self.round > 0).then(|| format!("round {} is over", self.round))
    }
}

impl SealedBids {
    fn resolve_if_done(&mut self) {
        if !(self.sealed.p1.done() && self.sealed.p2.done()) {
            return;
        }
        let prize = self.prizes.remove(0) as i64;
        let bids = self.sealed.map(|s| s.bid.unwrap_or(0));
        match bids.p1.cmp(&bids.p2) {
            std::cmp::Ordering::Greater => self.points.p1 += prize,
            std::cmp::Ordering::Less => self.points.p2 += prize,
            std::cmp::Ordering::Equal => {}
        }
        self.sealed = PerSeat::default();
        self.round += 1;
    }
}

const RULES: &str = "A test game: three rounds of sealed bids 1–3 for public prizes.\n\n\
    Notation: `bid 2`, `ponder` (secretly take 20 s instead of 10 s), `confirm` (a bid of 3 must be confirmed).";

impl Game for SealedBids {
    crate::game_header!("sealed-bids", "Sealed Bids (test game)", RULES);

    const RULINGS: &'static str = "`void`: the seat's sealed bid is voided and it bids again";

    fn new(config: &Config, seed: u64) -> Result<Self, ConfigError> {
        let mut rng = seeded_rng(seed);
        Ok(SealedBids {
            variant: config.variant,
            round: 0,
            prizes: (0..ROUNDS).map(|_| rng.random_range(1..=5)).collect(),
            sealed: PerSeat::default(),
            points: PerSeat::default(),
        })
    }

    fn options() -> Vec<crate::ConfigOption> {
        vec![
            crate::ConfigOption::new("variant", "Variant")
                .about("A broken variant, for testing the tests, or `strict`: out of time loses")
                .kind(crate::OptionKind::choice(&[
                    "sound",
                    "leaky-view",
                    "narrow-sample",
                    "strict",
                ])),
        ]
    }

    fn decision(&self) -> Decision {
        if self.prizes.is_empty() {
            return Decision::over();
        }
        let mut d = Decision::over();
        for seat in Seat::BOTH {
            let s = self.sealed[seat];
            let step = self.round * 2 + s.pondering as u32;
            if s.bid.is_none() {
                d = d.with(seat, Pending::new("bid").step(step).simultaneous());
            } else if !s.done() {
                d = d.with(seat, Pending::new("confirm").step(self.round));
            }
        }
        d
    }

    /// Until a round is over, everyone else sees both seats bidding.
    fn public_decision(&self) -> Decision {
        if self.prizes.is_empty() {
            return Decision::over();
        }
        let bidding = Pending::new("bid").step(self.round).simultaneous();
        Decision::over()
            .with(Seat::P1, bidding)
            .with(Seat::P2, bidding)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), Illegal> {
        let s = &mut self.sealed[seat];
        match (*action, s.bid.is_none()) {
            (Action::Bid(n), true) if (1..=3).contains(&n) => s.bid = Some(n),
            (Action::Bid(n), true) => return Err(Illegal::Range(n)),
            (Action::Ponder, true) if s.pondering => return Err(Illegal::Pondering),
            (Action::Ponder, true) => s.pondering = true,
            (Action::Confirm, false) => s.confirmed = true,
            (a, true) => return Err(Illegal::Wrong(a, "bid N or ponder")),
            (a, false) => return Err(Illegal::Wrong(a, "confirm")),
        }
        self.resolve_if_done();
        Ok(())
    }

    fn rule(&mut self, seat: Seat, ruling: &str) -> Result<String, crate::ActionError> {
        if !ruling.trim().eq_ignore_ascii_case("void") {
            return Err(crate::ActionError::new(
                "notation",
                format!(
                    "`{}` is not a ruling: the umpire may rule `void`",
                    ruling.trim()
                ),
            ));
        }
        let s = &mut self.sealed[seat];
        if s.bid.is_none() {
            return Err(crate::ActionError::new(
                "nothing-to-void",
                format!("{seat} has no sealed bid this round"),
            ));
        }
        *s = Sealed {
            pondering: s.pondering,
            ..Sealed::default()
        };
        Ok("void".into())
    }

    fn legal_actions(&self, seat: Seat) -> Option<impl Iterator<Item = Action> + '_> {
        let actions = match self.decision().kind(seat) {
            Some("bid") => {
                let mut a: Vec<Action> = (1..=3).map(Action::Bid).collect();
                if !self.sealed[seat].pondering {
                    a.push(Action::Ponder);
                }
                a
            }
            Some(_) => vec![Action::Confirm],
            None => Vec::new(),
        };
        Some(actions.into_iter())
    }

    fn view(&self, viewer: Viewer) -> View {
        let over = self.prizes.is_empty();
        let sees = |s: Seat| {
            over || self.variant == Variant::LeakyView
                || viewer == Viewer::Umpire
                || viewer == Viewer::Seat(s)
        };
        View {
            variant: self.variant,
            round: self.round,
            prizes: self.prizes.clone(),
            points: self.points,
            sealed: PerSeat::from_fn(|s| sees(s).then_some(self.sealed[s])),
        }
    }

    fn sample<R: Rng + ?Sized>(viewer: Viewer, view: &View, _: &(), rng: &mut R) -> Self {
        let knows = |s: Seat| {
            view.prizes.is_empty() || viewer == Viewer::Umpire || viewer == Viewer::Seat(s)
        };
        let mut state = SealedBids {
            variant: view.variant,
            round: view.round,
            prizes: view.prizes.clone(),
            sealed: PerSeat::default(),
            points: view.points,
        };
        let known = PerSeat::from_fn(|s| knows(s).then(|| view.sealed[s].unwrap_or_default()));
        // Uniform over the parts the hidden seats may have, except that both
        // cannot be finished: the round would be over.
        loop {
            for seat in Seat::BOTH {
                state.sealed[seat] = match known[seat] {
                    Some(part) => part,
                    None if view.variant == Variant::NarrowSample => Sealed::default(),
                    None => {
                        let bid = rng.random_range(0..=4u8);
                        Sealed {
                            bid: (bid > 0).then_some(bid.min(3)),
                            pondering: rng.random(),
                            confirmed: bid == 4,
                        }
                    }
                };
            }
            if !(state.sealed.p1.done() && state.sealed.p2.done()) {
                return state;
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.prizes.is_empty().then(|| {
            let winner = match self.points.p1.cmp(&self.points.p2) {
                std::cmp::Ordering::Greater => Some(Seat::P1),
                std::cmp::Ordering::Less => Some(Seat::P2),
                std::cmp::Ordering::Equal => None,
            };
            Outcome {
                winner,
                scores: self.points,
                decided_by: "points".into(),
                reason: match winner {
                    Some(w) => format!("{w} wins with more points"),
                    None => "a draw: equal points".into(),
                },
            }
        })
    }

    fn clock_policy(_: &Config) -> ClockPolicy {
        ClockPolicy::periods(2, 5_000)
    }

    fn turn_clock(&self, seat: Seat) -> TurnClock {
        match self.decision().kind(seat) {
            Some("confirm") => TurnClock::fixed(5_000),
            _ if self.sealed[seat].pondering => TurnClock::with_overtime(20_000),
            _ => TurnClock::with_overtime(10_000),
        }
    }

    fn public_turn_clock(&self, _: Seat) -> TurnClock {
        TurnClock::fixed(30_000)
    }

    fn timeout(&mut self, seat: Seat) -> Timeout {
        if self.variant == Variant::Strict {
            return Timeout::Lose;
        }
        let s = &mut self.sealed[seat];
        let what = if s.bid.is_none() {
            s.bid = Some(0);
            format!("{seat} bids 0")
        } else {
            s.confirmed = true;
            format!("{seat}'s bid of 3 stands")
        };
        self.resolve_if_done();
        Timeout::Applied(what)
    }
}

/// Sealed Bids' place in the catalogue, among the test games: a bot and a
/// command of its own, so that tests see a game's bots and commands reach
/// every place a real game's do.
pub static REGISTRATION: Registration = Registration {
    game: crate::erase::<SealedBids>(),
    bots: &[BotInfo::plain::<Eager>(
        "eager",
        Level::Medium,
        "bids 3 whenever it may, and confirms it",
    )],
    commands: &[Command {
        name: "prizes",
        about: "Sealed Bids (a test game): the prizes a seed draws",
        run: prizes,
    }],
    words: &[],
};

/// Bids 3 whenever it may (then confirms it), else its first legal action.
#[derive(Default)]
struct Eager;

impl Bot for Eager {
    fn choose(&mut self, seat: SeatView<'_>, _: &Think, _: &mut MatchRng) -> Option<String> {
        let legal = seat.legal_actions()?;
        let three = legal.iter().find(|a| *a == "bid 3");
        three.or(legal.first()).cloned()
    }
}

/// `umpire prizes SEED`: the three prizes that seed draws, in order.
fn prizes(args: &[String], out: &mut dyn std::io::Write, err: &mut dyn std::io::Write) -> u8 {
    const USAGE: &str = "usage: umpire prizes SEED (a whole number)";
    let seed = match args {
        [help] if help == "--help" || help == "-h" => {
            let _ = writeln!(out, "The prizes a seed draws in Sealed Bids.\n\n{USAGE}");
            return 0;
        }
        [seed] => seed
            .parse::<u64>()
            .map_err(|_| format!("`{seed}` is not a seed")),
        _ => Err(format!("one seed expected, got {} words", args.len())),
    };
    match seed.map(|seed| SealedBids::new(&Config::default(), seed)) {
        Ok(Ok(game)) => {
            let _ = writeln!(out, "{:?}", game.prizes);
            0
        }
        Ok(Err(e)) => {
            let _ = writeln!(err, "error: {e}");
            1
        }
        Err(e) => {
            let _ = writeln!(err, "error: {e}\n{USAGE}");
            2
        }
    }
}
