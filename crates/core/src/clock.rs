//! Clocks driven by elapsed time. The engine never reads a wall clock: every
//! call takes `now`, milliseconds since the match started, so tests are exact
//! and a record replays the same clocks.
//!
//! A seat's turn has a turn time (from the game, per decision). Past it, the
//! seat draws on its match-wide reserve: first the bank (milliseconds), then
//! reserve periods (each overrun uses whole periods). When all is spent, plus a
//! small lag allowance for the network, the seat is flagged and the game's
//! timeout effect applies.

use serde::{Deserialize, Serialize};

use crate::{PerSeat, Seat};

/// Match-wide time allowances per seat: a game's default, overridable per match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClockPolicy {
    /// A bank for the whole match, drawn on after the turn time.
    pub bank_ms: u64,
    /// Reserve periods for the whole match, used after the bank.
    pub periods: u32,
    /// Length of one reserve period.
    pub period_ms: u64,
    /// Grace before a seat is flagged, so network lag does not cost a game.
    /// Time used inside the grace is not charged.
    pub lag_ms: u64,
}

/// The time a game gives a seat for the decision it faces now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnClock {
    /// Time for this decision; refreshed for every decision.
    pub turn_ms: u64,
    /// Whether overruns may draw on the bank and reserve periods.
    pub reserve: bool,
}

/// What happens when a seat runs out of time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timeout<A> {
    /// The seat loses the match.
    Lose,
    /// The game plays this action for the seat (a pass, a skip, a default).
    Act(A),
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
    /// Whether this turn may draw on bank and periods.
    pub reserve: bool,
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
                reserve: false,
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

    /// Stops `seat`'s clock and charges any overrun to its reserve.
    pub fn stop(&mut self, seat: Seat, now: u64) {
        let Some(since) = self.seats[seat].since else {
            return;
        };
        let (bank_ms, periods) = self.reserve_after(seat, now.saturating_sub(since));
        let c = &mut self.seats[seat];
        (c.since, c.bank_ms, c.periods) = (None, bank_ms, periods);
    }

    /// The bank and periods `seat` would have left after using `used` ms of
    /// its current turn: overruns take the bank first, then whole periods.
    fn reserve_after(&self, seat: Seat, used: u64) -> (u64, u32) {
        let c = &self.seats[seat];
        let mut over = used.saturating_sub(c.turn.turn_ms);
        if over == 0 || !c.turn.reserve {
            return (c.bank_ms, c.periods);
        }
        let from_bank = over.min(c.bank_ms);
        over -= from_bank;
        let mut periods = c.periods;
        if over > 0 && self.policy.period_ms > 0 {
            // A period counts as spent once entered.
            periods -= over.div_ceil(self.policy.period_ms).min(periods as u64) as u32;
        }
        (c.bank_ms - from_bank, periods)
    }

    /// When `seat` is flagged if it does not act, or `None` if its clock is stopped.
    pub fn deadline(&self, seat: Seat) -> Option<u64> {
        let c = &self.seats[seat];
        let since = c.since?;
        let reserve = if c.turn.reserve {
            c.bank_ms + c.periods as u64 * self.policy.period_ms
        } else {
            0
        };
        Some(since.saturating_add(c.turn.turn_ms).saturating_add(reserve) + self.policy.lag_ms)
    }

    /// The clock as it stands at `now`, for display. Lag grace is not shown.
    pub fn status(&self, seat: Seat, now: u64) -> ClockStatus {
        let c = &self.seats[seat];
        let mut status = ClockStatus {
            running: c.since.is_some(),
            turn_ms: c.turn.turn_ms,
            bank_ms: c.bank_ms,
            periods: c.periods,
            period_ms: self.policy.period_ms,
            reserve: c.turn.reserve,
        };
        if let Some(since) = c.since {
            let used = now.saturating_sub(since);
            status.turn_ms = c.turn.turn_ms.saturating_sub(used);
            (status.bank_ms, status.periods) = self.reserve_after(seat, used);
        }
        status
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
        reserve: true,
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
            reserve: false,
        };
        c.start(Seat::P1, turn, 0);
        assert_eq!(c.deadline(Seat::P1), Some(1_500));
        c.stop(Seat::P1, 1_400);
        assert_eq!(c.status(Seat::P1, 0).bank_ms, 300_000);
    }
}
