//! Clocks driven by elapsed time. The engine never reads a wall clock: every
//! call takes `now`, milliseconds since the match started, so tests are exact
//! and a record replays the same clocks.
//!
//! The words, used one way everywhere: a seat's **turn time** comes from the
//! game, per decision. A decision with **overtime** may run past its turn time
//! into the seat's match-wide allowances: first the **bank** (milliseconds),
//! then the **reserve periods** (each overrun uses whole periods). When all is
//! spent, plus a small **lag allowance** for the network, the seat is flagged
//! and the game's timeout effect applies.
//!
//! ```
//! use umpire_core::{ClockPolicy, Clocks, Seat, TurnClock};
//!
//! let mut clocks = Clocks::new(ClockPolicy { bank_ms: 300_000, ..ClockPolicy::default() });
//! clocks.start(Seat::P1, TurnClock { turn_ms: 120_000, overtime: true }, 0);
//! assert_eq!(clocks.deadline(Seat::P1), Some(420_000));
//! clocks.stop(Seat::P1, 150_000); // 30 s over: taken from the bank
//! assert_eq!(clocks.status(Seat::P1, 150_000).bank_ms, 270_000);
//! ```

use serde::{Deserialize, Serialize};

use crate::{PerSeat, Seat};

/// Match-wide time allowances per seat: a game's default, overridable per match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClockPolicy {
    /// The bank: time for the whole match, drawn on in overtime.
    pub bank_ms: u64,
    /// Reserve periods for the whole match, used in overtime after the bank.
    pub periods: u32,
    /// The length of one reserve period.
    pub period_ms: u64,
    /// Grace before a seat is flagged, so network lag does not cost a game.
    /// Time used inside the grace is not charged.
    pub lag_ms: u64,
}

/// The longest any clock value or match time may be, in ms (2^43, about
/// 278 years, far below 2^53 so JavaScript reads sums of them exactly): a
/// record past it is refused rather than let its arithmetic wrap.
pub const MAX_CLOCK_MS: u64 = 1 << 43;

/// The most reserve periods a clock may have.
pub const MAX_PERIODS: u32 = 1_000_000;

impl ClockPolicy {
    /// A bank of `ms` for the whole match, and nothing else.
    pub const fn bank(ms: u64) -> ClockPolicy {
        ClockPolicy {
            bank_ms: ms,
            periods: 0,
            period_ms: 0,
            lag_ms: 0,
        }
    }

    /// `count` reserve periods of `ms` each, and nothing else.
    pub const fn periods(count: u32, ms: u64) -> ClockPolicy {
        ClockPolicy {
            periods: count,
            period_ms: ms,
            ..ClockPolicy::bank(0)
        }
    }

    /// Checks that every value, and the whole allowance of a seat, is
    /// within [`MAX_CLOCK_MS`] (and the periods within [`MAX_PERIODS`]).
    ///
    /// ```
    /// use umpire_core::ClockPolicy;
    /// assert!(ClockPolicy { bank_ms: 300_000, ..ClockPolicy::default() }.check().is_ok());
    /// let huge = ClockPolicy { bank_ms: u64::MAX, ..ClockPolicy::default() };
    /// assert!(huge.check().unwrap_err().contains("bank_ms"));
    /// ```
    pub fn check(&self) -> Result<(), String> {
        for (name, value) in [
            ("bank_ms", self.bank_ms),
            ("period_ms", self.period_ms),
            ("lag_ms", self.lag_ms),
        ] {
            if value > MAX_CLOCK_MS {
                return Err(format!(
                    "clock {name} is {value} ms; at most {MAX_CLOCK_MS} ms is allowed"
                ));
            }
        }
        if self.periods > MAX_PERIODS {
            return Err(format!(
                "clock periods is {}; at most {MAX_PERIODS} are allowed",
                self.periods
            ));
        }
        let total = (self.periods as u64)
            .checked_mul(self.period_ms)
            .and_then(|p| p.checked_add(self.bank_ms))
            .and_then(|t| t.checked_add(self.lag_ms));
        match total {
            Some(t) if t <= MAX_CLOCK_MS => Ok(()),
            _ => Err(format!(
                "the clock's bank, periods and lag add up to more than {MAX_CLOCK_MS} ms"
            )),
        }
    }
}

/// The time a game gives a seat for the decision it faces now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnClock {
    /// Time for this decision; refreshed for every decision.
    pub turn_ms: u64,
    /// Whether this decision may run into overtime (the bank, then the
    /// reserve periods).
    pub overtime: bool,
}

impl TurnClock {
    /// `ms` for the decision, then overtime.
    pub const fn with_overtime(ms: u64) -> TurnClock {
        TurnClock {
            turn_ms: ms,
            overtime: true,
        }
    }

    /// `ms` for the decision and no more.
    pub const fn fixed(ms: u64) -> TurnClock {
        TurnClock {
            turn_ms: ms,
            overtime: false,
        }
    }
}

/// What a seat's running out of time did, as the game decided
/// ([`crate::Game::timeout`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timeout {
    /// The seat loses the match.
    Lose,
    /// The game applied its rule for the missed decision (a pass, a skipped
    /// turn, pieces lost, a default choice); the words say what it did and
    /// go into the record.
    Applied(String),
}

/// What a client needs to show one seat's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockStatus {
    /// Whether this seat's clock is running now.
    pub running: bool,
    /// Turn time left (the full turn time when not running).
    pub turn_ms: u64,
    pub bank_ms: u64,
    pub periods: u32,
    pub period_ms: u64,
    /// Whether this decision may run into overtime.
    pub overtime: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SeatClock {
    since: Option<u64>,
    turn: TurnClock,
    bank_ms: u64,
    periods: u32,
}

/// Both seats' clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    policy: ClockPolicy,
    seats: PerSeat<SeatClock>,
}

impl Clocks {
    pub fn new(policy: ClockPolicy) -> Clocks {
        let seat = SeatClock {
            since: None,
            turn: TurnClock {
                turn_ms: 0,
                overtime: false,
            },
            bank_ms: policy.bank_ms,
            periods: policy.periods,
        };
        Clocks {
            policy,
            seats: PerSeat::new(seat, seat),
        }
    }

    pub fn policy(&self) -> ClockPolicy {
        self.policy
    }

    pub fn is_running(&self, seat: Seat) -> bool {
        self.seats[seat].since.is_some()
    }

    /// Starts `seat`'s clock for a new decision.
    pub fn start(&mut self, seat: Seat, turn: TurnClock, now: u64) {
        let c = &mut self.seats[seat];
        c.since = Some(now);
        c.turn = turn;
    }

    /// Stops `seat`'s clock and charges any overtime to its bank and periods.
    pub fn stop(&mut self, seat: Seat, now: u64) {
        let c = self.seats[seat];
        let Some(since) = c.since else {
            return;
        };
        let (bank_ms, periods) =
            self.overtime_after(c.bank_ms, c.periods, c.turn, now.saturating_sub(since));
        let c = &mut self.seats[seat];
        (c.since, c.bank_ms, c.periods) = (None, bank_ms, periods);
    }

    /// The bank and periods left of `bank_ms` and `periods` after using
    /// `used` ms of a decision timed by `turn`: overtime takes the bank
    /// first, then whole periods.
    fn overtime_after(&self, bank_ms: u64, periods: u32, turn: TurnClock, used: u64) -> (u64, u32) {
        let mut over = used.saturating_sub(turn.turn_ms);
        if over == 0 || !turn.overtime {
            return (bank_ms, periods);
        }
        let from_bank = over.min(bank_ms);
        over -= from_bank;
        let mut periods = periods;
        if over > 0 && self.policy.period_ms > 0 {
            // A period counts as spent once entered.
            periods -= over.div_ceil(self.policy.period_ms).min(periods as u64) as u32;
        }
        (bank_ms - from_bank, periods)
    }

    /// Since when and with what turn clock `seat`'s clock runs, if it does.
    pub fn started(&self, seat: Seat) -> Option<(u64, TurnClock)> {
        let c = &self.seats[seat];
        c.since.map(|since| (since, c.turn))
    }

    /// `seat`'s bank and periods as last charged (not counting a running turn).
    pub fn allowance(&self, seat: Seat) -> (u64, u32) {
        (self.seats[seat].bank_ms, self.seats[seat].periods)
    }

    /// When `seat` is flagged if it does not act, or `None` if its clock is stopped.
    pub fn deadline(&self, seat: Seat) -> Option<u64> {
        let c = &self.seats[seat];
        let since = c.since?;
        let overtime = if c.turn.overtime {
            c.bank_ms
                .saturating_add((c.periods as u64).saturating_mul(self.policy.period_ms))
        } else {
            0
        };
        Some(
            since
                .saturating_add(c.turn.turn_ms)
                .saturating_add(overtime)
                .saturating_add(self.policy.lag_ms),
        )
    }

    /// The clock as it stands at `now`, for display. Lag grace is not shown.
    pub fn status(&self, seat: Seat, now: u64) -> ClockStatus {
        let c = &self.seats[seat];
        match c.since {
            Some(since) => self.running_status(since, c.turn, (c.bank_ms, c.periods), now),
            None => ClockStatus {
                running: false,
                turn_ms: c.turn.turn_ms,
                bank_ms: c.bank_ms,
                periods: c.periods,
                period_ms: self.policy.period_ms,
                overtime: c.turn.overtime,
            },
        }
    }

    /// A clock running since `since` with `turn`, on top of `allowance`
    /// (bank and periods): also how a covered decision is shown
    /// ([`crate::Game::public_decision`]), from the allowance it started with.
    pub fn running_status(
        &self,
        since: u64,
        turn: TurnClock,
        allowance: (u64, u32),
        now: u64,
    ) -> ClockStatus {
        let used = now.saturating_sub(since);
        let (bank_ms, periods) = self.overtime_after(allowance.0, allowance.1, turn, used);
        ClockStatus {
            running: true,
            turn_ms: turn.turn_ms.saturating_sub(used),
            bank_ms,
            periods,
            period_ms: self.policy.period_ms,
            overtime: turn.overtime,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MASKED: ClockPolicy = ClockPolicy {
        bank_ms: 300_000,
        periods: 0,
        period_ms: 0,
        lag_ms: 0,
    };
    const TURN: TurnClock = TurnClock {
        turn_ms: 120_000,
        overtime: true,
    };

    #[test]
    fn turn_time_is_free_and_refreshed() {
        let mut c = Clocks::new(MASKED);
        c.start(Seat::P1, TURN, 0);
        assert_eq!(c.deadline(Seat::P1), Some(420_000));
        c.stop(Seat::P1, 119_999);
        assert_eq!(c.status(Seat::P1, 200_000).bank_ms, 300_000);
        assert!(!c.is_running(Seat::P1));
    }

    #[test]
    fn overrun_draws_on_the_bank_for_good() {
        let mut c = Clocks::new(MASKED);
        c.start(Seat::P1, TURN, 1_000);
        c.stop(Seat::P1, 1_000 + 150_000);
        assert_eq!(c.status(Seat::P1, 0).bank_ms, 270_000);
        c.start(Seat::P1, TURN, 200_000);
        assert_eq!(c.deadline(Seat::P1), Some(200_000 + 120_000 + 270_000));
        let live = c.status(Seat::P1, 200_000 + 130_000);
        assert_eq!((live.turn_ms, live.bank_ms), (0, 260_000));
    }

    #[test]
    fn periods_are_used_whole() {
        let policy = ClockPolicy {
            bank_ms: 0,
            periods: 3,
            period_ms: 60_000,
            lag_ms: 0,
        };
        let mut c = Clocks::new(policy);
        c.start(Seat::P2, TURN, 0);
        assert_eq!(c.deadline(Seat::P2), Some(120_000 + 180_000));
        c.stop(Seat::P2, 120_000 + 61_000);
        assert_eq!(c.status(Seat::P2, 0).periods, 1);
    }

    #[test]
    fn lag_grace_delays_the_flag_and_is_not_charged() {
        let policy = ClockPolicy {
            lag_ms: 500,
            ..MASKED
        };
        let mut c = Clocks::new(policy);
        let turn = TurnClock {
            turn_ms: 1_000,
            overtime: false,
        };
        c.start(Seat::P1, turn, 0);
        assert_eq!(c.deadline(Seat::P1), Some(1_500));
        c.stop(Seat::P1, 1_400);
        assert_eq!(c.status(Seat::P1, 0).bank_ms, 300_000);
    }

    #[test]
    fn huge_values_saturate_and_are_refused() {
        let huge = ClockPolicy {
            bank_ms: u64::MAX,
            periods: u32::MAX,
            period_ms: u64::MAX,
            lag_ms: u64::MAX,
        };
        let mut c = Clocks::new(huge);
        c.start(Seat::P1, TURN, u64::MAX - 1);
        assert_eq!(c.deadline(Seat::P1), Some(u64::MAX));
        c.stop(Seat::P1, 0);
        assert!(huge.check().is_err());
        let sum = ClockPolicy {
            bank_ms: MAX_CLOCK_MS,
            lag_ms: 1,
            ..MASKED
        };
        assert!(sum.check().unwrap_err().contains("add up"));
    }
}
