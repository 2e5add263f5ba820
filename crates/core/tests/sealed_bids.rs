//! A toy game with a simultaneous decision and a seat's private submission,
//! to prove the engine's simultaneous path, its clocks and its conformance
//! suite (which must catch a view that leaks).

use std::fmt;
use std::str::FromStr;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use serde_json::json;
use umpire_core::{
    ClockPolicy, ConfigError, Decision, Game, Match, Outcome, ParseError, PerSeat, RuleViolation,
    Seat, Seats, Timeout, TurnClock, TurnError, Viewer, erase, seeded_rng,
};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct Config {
    /// A broken variant whose view shows the other seat's sealed bid.
    leak: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Bid(u8);

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bid {}", self.0)
    }
}

impl FromStr for Bid {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Bid, ParseError> {
        s.trim()
            .strip_prefix("bid ")
            .and_then(|n| n.trim().parse().ok())
            .map(Bid)
            .ok_or_else(|| ParseError::new(format!("expected `bid N`, got `{}`", s.trim())))
    }
}

#[derive(Debug, thiserror::Error)]
enum Illegal {
    #[error(transparent)]
    Turn(#[from] TurnError),
    #[error("a bid is 1, 2 or 3, not {0}")]
    Range(u8),
}

impl RuleViolation for Illegal {
    fn rule(&self) -> &'static str {
        match self {
            Illegal::Turn(e) => e.rule(),
            Illegal::Range(_) => "bid-range",
        }
    }
}

/// Three rounds; each round both seats seal a bid of 1–3 at once, and the
/// higher bid takes that round's prize (drawn from the seed, public).
#[derive(Clone, Debug, PartialEq)]
struct SealedBids {
    leak: bool,
    prizes: Vec<u8>,
    sealed: PerSeat<Option<u8>>,
    points: PerSeat<i64>,
}

#[derive(Debug, PartialEq, Serialize)]
struct View {
    round: usize,
    prizes: Vec<u8>,
    points: PerSeat<i64>,
    submitted: PerSeat<bool>,
    sealed: PerSeat<Option<u8>>,
}

impl Game for SealedBids {
    type Config = Config;
    type Action = Bid;
    type View = View;
    type Error = Illegal;
    const ID: &'static str = "sealed-bids";
    const NAME: &'static str = "Sealed Bids";
    const RULES: &'static str = "test game";

    fn new(config: &Config, seed: u64) -> Result<Self, ConfigError> {
        let mut rng = seeded_rng(seed);
        Ok(SealedBids {
            leak: config.leak,
            prizes: (0..3).map(|_| rng.random_range(1..=5)).collect(),
            sealed: PerSeat::default(),
            points: PerSeat::default(),
        })
    }

    fn decision(&self) -> Decision {
        if self.prizes.is_empty() {
            return Decision::over();
        }
        let pending = Seat::BOTH.into_iter().filter(|&s| self.sealed[s].is_none());
        Decision::simultaneous(pending.fold(Seats::NONE, Seats::with), "bid")
    }

    fn apply(&mut self, seat: Seat, bid: &Bid) -> Result<(), Illegal> {
        self.decision().require(seat)?;
        if !(1..=3).contains(&bid.0) {
            return Err(Illegal::Range(bid.0));
        }
        self.sealed[seat] = Some(bid.0);
        if let PerSeat {
            p1: Some(a),
            p2: Some(b),
        } = self.sealed
        {
            let prize = self.prizes.remove(0) as i64;
            match a.cmp(&b) {
                std::cmp::Ordering::Greater => self.points.p1 += prize,
                std::cmp::Ordering::Less => self.points.p2 += prize,
                std::cmp::Ordering::Equal => {}
            }
            self.sealed = PerSeat::default();
        }
        Ok(())
    }

    fn legal_actions(&self, seat: Seat) -> Option<impl Iterator<Item = Bid> + '_> {
        let ok = self.decision().require(seat).is_ok();
        Some((1..=3).filter(move |_| ok).map(Bid))
    }

    fn view(&self, viewer: Viewer) -> View {
        let sees = |s: Seat| self.leak || viewer == Viewer::Umpire || viewer == Viewer::Seat(s);
        View {
            round: 3 - self.prizes.len(),
            prizes: self.prizes.clone(),
            points: self.points,
            submitted: self.sealed.map(Option::is_some),
            sealed: PerSeat::from_fn(|s| self.sealed[s].filter(|_| sees(s))),
        }
    }

    fn render(view: &View, _: bool) -> String {
        format!("{view:?}")
    }

    fn outcome(&self) -> Option<Outcome> {
        self.decision().is_over().then(|| {
            let winner = match self.points.p1.cmp(&self.points.p2) {
                std::cmp::Ordering::Greater => Some(Seat::P1),
                std::cmp::Ordering::Less => Some(Seat::P2),
                std::cmp::Ordering::Equal => None,
            };
            Outcome {
                winner,
                scores: self.points,
                decided_by: "points".into(),
                reason: "more points".into(),
            }
        })
    }

    fn clock_policy(_: &Config) -> ClockPolicy {
        ClockPolicy {
            periods: 2,
            period_ms: 5_000,
            ..ClockPolicy::default()
        }
    }

    fn turn_clock(&self, _: Seat) -> TurnClock {
        TurnClock {
            turn_ms: 10_000,
            reserve: true,
        }
    }

    fn timeout(&self, _: Seat) -> Timeout<Bid> {
        Timeout::Act(Bid(1))
    }

    fn resample_hidden<R: Rng + ?Sized>(&self, viewer: Viewer, rng: &mut R) -> Self {
        let mut copy = self.clone();
        for seat in Seat::BOTH {
            if viewer != Viewer::Umpire
                && viewer != Viewer::Seat(seat)
                && copy.sealed[seat].is_some()
            {
                copy.sealed[seat] = Some(rng.random_range(1..=3));
            }
        }
        copy
    }
}

#[test]
fn conformance_holds_for_a_simultaneous_game() {
    umpire_core::conformance::run::<SealedBids>(&Config::default(), 200);
}

#[test]
#[should_panic(expected = "view changes with what it may not know")]
fn conformance_catches_a_leaking_view() {
    umpire_core::conformance::run::<SealedBids>(&Config { leak: true }, 50);
}

#[test]
fn a_sealed_bid_is_hidden_until_both_are_in() {
    let mut m = Match::new(erase::<SealedBids>(), &json!({}), 3, true, None).unwrap();
    assert_eq!(m.decision().seats, Seats::BOTH);
    m.submit(Seat::P1, "bid 3", 1_000).unwrap();
    assert_eq!(
        m.view(Viewer::Seat(Seat::P2))["sealed"],
        json!({"P1": null, "P2": null})
    );
    assert_eq!(
        m.view(Viewer::Spectator)["submitted"],
        json!({"P1": true, "P2": false})
    );
    assert_eq!(m.view(Viewer::Seat(Seat::P1))["sealed"]["P1"], 3);
    // P1 cannot submit twice; P2's clock kept running from the start.
    let e = m.submit(Seat::P1, "bid 2", 2_000).unwrap_err();
    assert_eq!(e.rule, "already-submitted");
    let clocks = m.clocks(4_000).unwrap();
    assert!(!clocks.p1.running && clocks.p2.running);
    assert_eq!(clocks.p2.turn_ms, 6_000);
}

#[test]
fn a_timeout_plays_the_default_after_the_reserve_periods() {
    let mut m = Match::new(erase::<SealedBids>(), &json!({}), 3, true, None).unwrap();
    m.submit(Seat::P1, "bid 3", 0).unwrap();
    // P2: 10 s turn + two 5 s periods, then the default bid is played.
    assert_eq!(m.next_deadline(), Some(20_000));
    let played = m.advance(20_001);
    assert_eq!(played.len(), 1);
    assert_eq!(m.record().actions[1].action, "timeout");
    assert_eq!(m.view(Viewer::Umpire)["round"], 1);
    // The periods are gone: next round P2 has only its turn time.
    assert_eq!(m.clocks(20_001).unwrap().p2.periods, 0);
    assert_eq!(m.next_deadline(), Some(30_000));
    let replayed = Match::replay(erase::<SealedBids>(), m.record()).unwrap();
    assert!(replayed.state().same_as(m.state()));
}
