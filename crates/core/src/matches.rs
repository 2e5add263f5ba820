//! A match: a game state with its clocks and its record. Every layer above the
//! engine (server, CLI, arena, replay) runs games through this one type, so
//! they all apply the same clock and record rules.

use serde_json::Value;

use crate::record::{RESIGN, TIMEOUT};
use crate::{
    ActionError, AnyGame, AnyState, ClockPolicy, ClockStatus, Clocks, Decision, Entry, Outcome,
    PerSeat, Record, ReplayError, Seat, Timeout, Viewer,
};

/// A match in progress or finished.
#[derive(Clone, Debug)]
pub struct Match {
    game: &'static dyn AnyGame,
    state: Box<dyn AnyState>,
    clocks: Option<Clocks>,
    record: Record,
    /// The result when the match ended off the board (time, resignation).
    forced: Option<Outcome>,
    /// Time of the latest event: time never runs backwards.
    now: u64,
}

impl std::fmt::Debug for dyn AnyGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl Match {
    /// Starts a match. `clock` overrides the game's standard clock; `timed:
    /// false` plays without clocks.
    pub fn new(
        game: &'static dyn AnyGame,
        config: &Value,
        seed: u64,
        timed: bool,
        clock: Option<ClockPolicy>,
    ) -> Result<Match, crate::ConfigError> {
        let config = game.normalize_config(config)?;
        let state = game.start(&config, seed)?;
        let policy = match clock {
            Some(policy) => policy,
            None => game.clock_policy(&config)?,
        };
        let record = Record {
            game: game.id().to_string(),
            config,
            seed,
            timed,
            clock,
            actions: Vec::new(),
            outcome: None,
        };
        let mut m = Match {
            game,
            state,
            clocks: timed.then(|| Clocks::new(policy)),
            record,
            forced: None,
            now: 0,
        };
        m.start_clocks(&[], 0);
        Ok(m)
    }

    /// Replays a record, checking every action and every clock.
    pub fn replay(game: &'static dyn AnyGame, record: &Record) -> Result<Match, ReplayError> {
        if record.game != game.id() {
            return Err(ReplayError::UnknownGame(record.game.clone()));
        }
        let mut m = Match::new(
            game,
            &record.config,
            record.seed,
            record.timed,
            record.clock,
        )?;
        for (index, entry) in record.actions.iter().enumerate() {
            m.apply_entry(entry).map_err(|error| ReplayError::Action {
                index,
                seat: entry.seat,
                action: entry.action.clone(),
                error,
            })?;
        }
        if let (Some(recorded), Some(replayed)) = (&record.outcome, m.outcome()) {
            if recorded.winner != replayed.winner {
                return Err(ReplayError::OutcomeMismatch {
                    recorded: format!("{:?}", recorded.winner),
                    replayed: format!("{:?}", replayed.winner),
                });
            }
        }
        Ok(m)
    }

    pub fn game(&self) -> &'static dyn AnyGame {
        self.game
    }

    /// The full state: for the umpire and the engine's own checks only.
    pub fn state(&self) -> &dyn AnyState {
        &*self.state
    }

    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Time of the latest event, in ms since the start.
    pub fn now(&self) -> u64 {
        self.now
    }

    pub fn decision(&self) -> Decision {
        if self.forced.is_some() {
            Decision::over()
        } else {
            self.state.decision()
        }
    }

    pub fn is_over(&self) -> bool {
        self.decision().is_over()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.forced.clone().or_else(|| self.state.outcome())
    }

    /// What `viewer` may know. Once the match is over everyone sees everything.
    pub fn view(&self, viewer: Viewer) -> Value {
        self.state.view(if self.is_over() {
            Viewer::Umpire
        } else {
            viewer
        })
    }

    /// The view as a terminal board.
    pub fn render(&self, viewer: Viewer, colour: bool) -> String {
        self.state.render(
            if self.is_over() {
                Viewer::Umpire
            } else {
                viewer
            },
            colour,
        )
    }

    /// Both clocks as they stand at `now`, or `None` for an untimed match.
    pub fn clocks(&self, now: u64) -> Option<PerSeat<ClockStatus>> {
        let clocks = self.clocks.as_ref()?;
        let now = now.max(self.now);
        Some(PerSeat::from_fn(|s| clocks.status(s, now)))
    }

    /// The next time a seat will be flagged, if any clock is running.
    pub fn next_deadline(&self) -> Option<u64> {
        let clocks = self.clocks.as_ref()?;
        if self.is_over() {
            return None;
        }
        Seat::BOTH
            .into_iter()
            .filter_map(|s| clocks.deadline(s))
            .min()
    }

    /// A seat's move in notation (or `resign`), received at `now`; returns
    /// the entry as recorded. Call [`Match::advance`] first: a move after a
    /// clock ran out is refused. On error nothing changes.
    pub fn submit(&mut self, seat: Seat, text: &str, now: u64) -> Result<Entry, ActionError> {
        if text.trim().eq_ignore_ascii_case(TIMEOUT) {
            return Err(ActionError::new(
                "notation",
                "`timeout` is for the clock to say",
            ));
        }
        let now = now.max(self.now);
        self.apply_entry(&Entry {
            seat,
            action: text.trim().to_string(),
            at_ms: now,
        })
    }

    /// Applies every timeout due before `now`, in order; returns them.
    pub fn advance(&mut self, now: u64) -> Vec<Entry> {
        let mut played = Vec::new();
        while let Some(deadline) = self.next_deadline().filter(|&d| d < now) {
            let clocks = self.clocks.as_ref().expect("a deadline means clocks");
            let seat = Seat::BOTH
                .into_iter()
                .find(|&s| clocks.deadline(s) == Some(deadline))
                .expect("the deadline belongs to a seat");
            let entry = Entry {
                seat,
                action: TIMEOUT.to_string(),
                at_ms: deadline,
            };
            match self.apply_entry(&entry) {
                Ok(entry) => played.push(entry),
                // A game whose timeout action is refused would loop for ever:
                // the seat loses instead, and the reason says so.
                Err(e) => {
                    self.forced = Some(Outcome::forfeit(
                        seat.other(),
                        "time",
                        format!("{seat} ran out of time and its timeout move was refused: {e}"),
                    ));
                    self.finish();
                    break;
                }
            }
        }
        played
    }

    /// Applies one record entry: a move, `resign` or `timeout`.
    fn apply_entry(&mut self, entry: &Entry) -> Result<Entry, ActionError> {
        let (seat, now) = (entry.seat, entry.at_ms);
        if now < self.now {
            return Err(ActionError::new(
                "clock",
                format!("time runs backwards: {now} ms is before {} ms", self.now),
            ));
        }
        let decision = self.decision();
        let resigning = entry.action.eq_ignore_ascii_case(RESIGN);
        if let Err(e) = decision.require(seat) {
            // Resigning is allowed out of turn, but not after the end.
            if !resigning || decision.is_over() {
                return Err(ActionError::from_rule(&e));
            }
        }
        let is_timeout = entry.action.eq_ignore_ascii_case(TIMEOUT);
        // A seat whose time is out cannot move any more; only its timeout can.
        if let Some(deadline) = self.overdue(now) {
            if !(is_timeout
                && self.clocks.as_ref().and_then(|c| c.deadline(seat)) == Some(deadline))
            {
                return Err(ActionError::new(
                    "clock",
                    format!("a clock ran out at {deadline} ms, before this action at {now} ms"),
                ));
            }
        }
        let canonical = if resigning {
            self.forced = Some(Outcome::forfeit(
                seat.other(),
                "resignation",
                format!("{seat} resigned; {} wins", seat.other()),
            ));
            RESIGN.to_string()
        } else if is_timeout {
            let deadline = self.clocks.as_ref().and_then(|c| c.deadline(seat));
            if deadline.is_none_or(|d| now < d) {
                return Err(ActionError::new(
                    "clock",
                    format!("{seat}'s time had not run out"),
                ));
            }
            match self.state.timeout(seat) {
                Timeout::Lose => {
                    self.forced = Some(Outcome::forfeit(
                        seat.other(),
                        "time",
                        format!("{seat} ran out of time; {} wins", seat.other()),
                    ));
                }
                Timeout::Act(action) => {
                    self.state.apply(seat, &action)?;
                }
            }
            TIMEOUT.to_string()
        } else {
            self.state.apply(seat, &entry.action)?
        };
        self.now = now;
        let before = decision.seats;
        if let Some(clocks) = &mut self.clocks {
            clocks.stop(seat, now);
        }
        if self.is_over() {
            self.finish();
        } else {
            // The seat that acted starts afresh if it acts again; a seat still
            // deciding (the other half of a simultaneous decision) keeps running.
            let keep: Vec<Seat> = before.without(seat).iter().collect();
            self.start_clocks(&keep, now);
        }
        let entry = Entry {
            seat,
            action: canonical,
            at_ms: now,
        };
        self.record.actions.push(entry.clone());
        if self.is_over() {
            self.record.outcome = self.outcome();
        }
        Ok(entry)
    }

    /// The earliest deadline already passed at `now`, if any.
    fn overdue(&self, now: u64) -> Option<u64> {
        self.next_deadline().filter(|&d| d < now)
    }

    /// Starts the clock of every seat to move, except those in `keep` that
    /// are already running; stops the rest.
    fn start_clocks(&mut self, keep: &[Seat], now: u64) {
        let Some(clocks) = &mut self.clocks else {
            return;
        };
        let seats = self.state.decision().seats;
        for seat in Seat::BOTH {
            if !seats.contains(seat) {
                clocks.stop(seat, now);
            } else if !(keep.contains(&seat) && clocks.is_running(seat)) {
                clocks.start(seat, self.state.turn_clock(seat), now);
            }
        }
    }

    fn finish(&mut self) {
        if let Some(clocks) = &mut self.clocks {
            for seat in Seat::BOTH {
                clocks.stop(seat, self.now);
            }
        }
        self.record.outcome = self.outcome();
    }
}
