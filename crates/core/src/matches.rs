//! A match: a game state with its clocks and its record. Every layer above the
//! engine (server, CLI, arena, replay) runs games through this one type, so
//! they all apply the same clock and record rules.
//!
//! ```
//! use umpire_core::{Match, MatchOptions, Seat, Viewer};
//! # use umpire_core::testing::SealedBids;
//! let game = umpire_core::erase::<SealedBids>();
//! let mut m = Match::new(game, &serde_json::json!({}), 7, MatchOptions::default()).unwrap();
//! m.submit(Seat::P1, "bid 2", 1_000).unwrap();
//! // P2's bid is due after 10 s and two 5 s reserve periods; past it the
//! // game's timeout rule makes it a bid of 0, which no player could send.
//! let played = m.advance(20_001);
//! assert_eq!(played[0].effect.as_deref(), Some("P2 bids 0"));
//! assert!(Match::replay(game, m.record()).is_ok());
//! ```

use serde_json::Value;

use crate::record::{RESIGN, TIMEOUT, outcome_mismatch};
use crate::{
    ActionError, AnyGame, AnyState, By, ClockPolicy, ClockStatus, Clocks, Decision, Entry, Outcome,
    Pending, PerSeat, Player, Record, ReplayError, Seat, SeatView, Timeout, TurnClock, Viewer,
};

/// How a match is timed: the game's standard clock (the default), another
/// clock, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchOptions {
    /// Whether clocks run. An untimed match never times out.
    pub timed: bool,
    /// A clock other than the game's standard one.
    pub clock: Option<ClockPolicy>,
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            timed: true,
            clock: None,
        }
    }
}

impl MatchOptions {
    /// No clocks at all.
    pub fn untimed() -> MatchOptions {
        MatchOptions {
            timed: false,
            clock: None,
        }
    }

    /// Timed by `clock` instead of the game's standard clock.
    pub fn with_clock(self, clock: ClockPolicy) -> MatchOptions {
        MatchOptions {
            clock: Some(clock),
            ..self
        }
    }
}

/// A match in progress or finished.
#[derive(Clone, Debug)]
pub struct Match {
    game: &'static dyn AnyGame,
    state: Box<dyn AnyState>,
    clocks: Option<Clocks>,
    /// The decision each seat's running clock was started for.
    timing: PerSeat<Option<Pending>>,
    /// What other viewers are shown of each seat's decision and clock.
    shown: PerSeat<Option<Shown>>,
    record: Record,
    /// The result when the match ended off the board (time, resignation).
    forced: Option<Outcome>,
    /// Time of the latest event: time never runs backwards.
    now: u64,
}

/// What a seat's clock, as one viewer sees it, is computed from: since when
/// and with what turn clock it runs (if it does), and the bank and periods
/// under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockBasis {
    pub started: Option<(u64, TurnClock)>,
    pub allowance: (u64, u32),
}

/// A seat's public decision as others see it: since when, with what turn
/// clock, on top of the bank and periods it had then (so overtime used under
/// a cover stays hidden until the cover ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shown {
    pending: Pending,
    since: u64,
    turn: TurnClock,
    allowance: (u64, u32),
}

impl std::fmt::Debug for dyn AnyGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl Match {
    /// Starts a match.
    pub fn new(
        game: &'static dyn AnyGame,
        config: &Value,
        seed: u64,
        options: MatchOptions,
    ) -> Result<Match, crate::ConfigError> {
        let config = game.normalize_config(config)?;
        let state = game.start(&config, seed)?;
        let policy = match options.clock {
            Some(policy) => policy,
            None => game.clock_policy(&config)?,
        };
        policy.check().map_err(crate::ConfigError)?;
        let record = Record {
            game: game.id().to_string(),
            config,
            seed,
            timed: options.timed,
            clock: options.clock,
            seats: PerSeat::default(),
            host: false,
            actions: Vec::new(),
            outcome: None,
        };
        let mut m = Match {
            game,
            state,
            clocks: options.timed.then(|| Clocks::new(policy)),
            timing: PerSeat::default(),
            shown: PerSeat::default(),
            record,
            forced: None,
            now: 0,
        };
        m.restart_clocks(0);
        Ok(m)
    }

    /// The same match with its players named (checked: [`crate::check_players`])
    /// and, with `host`, run by a host: a host may enter a seat's action
    /// for it and make the umpire's rulings. Both go into the record.
    pub fn with_players(
        mut self,
        seats: PerSeat<Player>,
        host: bool,
    ) -> Result<Match, crate::ConfigError> {
        crate::check_players(&seats).map_err(crate::ConfigError)?;
        self.record.seats = seats;
        self.record.host = host;
        Ok(self)
    }

    /// Who plays each seat, by name.
    pub fn players(&self) -> &PerSeat<Player> {
        &self.record.seats
    }

    /// Whether a host runs the match.
    pub fn hosted(&self) -> bool {
        self.record.host
    }

    /// The game's words with each seat called by its player's name.
    pub fn named(&self, text: &str) -> String {
        crate::named(text, &self.record.seats)
    }

    /// Replays a record, checking every action, every clock and every
    /// recorded timeout effect.
    pub fn replay(game: &'static dyn AnyGame, record: &Record) -> Result<Match, ReplayError> {
        Match::replay_each(game, record, |_, _| Ok(()))
    }

    /// [`Match::replay`], calling `each` with the index of every entry and
    /// the match just after it: every step of a record in one pass. `each`
    /// may stop the replay early with its reason ([`ReplayError::Stopped`]).
    ///
    /// ```
    /// use umpire_core::{Match, MatchOptions, Seat, Viewer};
    /// # use umpire_core::testing::SealedBids;
    /// let game = umpire_core::erase::<SealedBids>();
    /// let mut m = Match::new(game, &serde_json::json!({}), 7, MatchOptions::default()).unwrap();
    /// m.submit(Seat::P1, "bid 2", 1_000).unwrap();
    /// m.submit(Seat::P2, "bid 1", 2_000).unwrap();
    /// let mut rounds = Vec::new();
    /// Match::replay_each(game, m.record(), |_, step| {
    ///     rounds.push(step.view(Viewer::Umpire)["round"].clone());
    ///     Ok(())
    /// })
    /// .unwrap();
    /// assert_eq!(rounds, [0, 1]);
    /// ```
    pub fn replay_each(
        game: &'static dyn AnyGame,
        record: &Record,
        mut each: impl FnMut(usize, &Match) -> Result<(), String>,
    ) -> Result<Match, ReplayError> {
        if record.game != game.id() {
            return Err(ReplayError::UnknownGame(record.game.clone()));
        }
        if let Some(clock) = &record.clock {
            clock.check().map_err(ReplayError::Clock)?;
        }
        let options = MatchOptions {
            timed: record.timed,
            clock: record.clock,
        };
        let mut m = Match::new(game, &record.config, record.seed, options)?
            .with_players(record.seats.clone(), record.host)
            .map_err(|e| crate::ConfigError(format!("the record's seats: {}", e.0)))?;
        for (index, entry) in record.actions.iter().enumerate() {
            let failed = |error: ActionError| ReplayError::Action {
                index,
                seat: entry.seat,
                action: entry.action.clone(),
                error: Box::new(error),
            };
            let played = m.apply_entry(entry).map_err(failed)?;
            if entry.effect.is_some() && entry.effect != played.effect {
                return Err(failed(ActionError::new(
                    "timeout",
                    format!(
                        "the record says the timeout did `{}`; replaying it, it did `{}`",
                        entry.effect.as_deref().unwrap_or_default(),
                        played.effect.as_deref().unwrap_or("nothing"),
                    ),
                )));
            }
            each(index, &m).map_err(ReplayError::Stopped)?;
        }
        if let Some(words) = outcome_mismatch(record.outcome.as_ref(), m.outcome().as_ref()) {
            return Err(ReplayError::OutcomeMismatch(words));
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

    /// One seat's window on the match: what a bot is handed.
    pub fn seat_view(&self, seat: Seat) -> SeatView<'_> {
        SeatView::new(&*self.state, seat)
    }

    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Time of the latest event, in ms since the start.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Every seat's real pending decision (the umpire's picture).
    pub fn decision(&self) -> Decision {
        if self.forced.is_some() {
            Decision::over()
        } else {
            self.state.decision()
        }
    }

    /// What `viewer` may know of the decisions: a seat sees its own real
    /// decision and the public picture of the other's.
    pub fn decision_for(&self, viewer: Viewer) -> Decision {
        if self.is_over() {
            return Decision::over();
        }
        Decision::seen_by(&*self.state, viewer)
    }

    pub fn is_over(&self) -> bool {
        self.decision().is_over()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.forced.clone().or_else(|| self.state.outcome())
    }

    /// What `viewer` may know. Once the match is over everyone sees everything.
    pub fn view(&self, viewer: Viewer) -> Value {
        self.state.view(self.seen_as(viewer))
    }

    /// [`Match::view`] as JSON text.
    pub fn view_text(&self, viewer: Viewer) -> String {
        self.state.view_text(self.seen_as(viewer))
    }

    /// The view as a terminal board.
    pub fn render(&self, viewer: Viewer, colour: bool) -> String {
        self.state.render(self.seen_as(viewer), colour)
    }

    /// What `seat` decides now and how to write it, in the game's words;
    /// `None` when it decides nothing (and once the match is over).
    pub fn prompt(&self, seat: Seat) -> Option<String> {
        if self.is_over() {
            return None;
        }
        self.state.prompt(seat)
    }

    /// The latest event `viewer` sees, in the game's words.
    pub fn last_event(&self, viewer: Viewer) -> Option<String> {
        self.state.last_event(self.seen_as(viewer))
    }

    fn seen_as(&self, viewer: Viewer) -> Viewer {
        if self.is_over() {
            Viewer::Umpire
        } else {
            viewer
        }
    }

    /// Both clocks at `now` as `viewer` may see them, or `None` for an
    /// untimed match. A seat and the umpire see the seat's real clock; the
    /// others see the clock of its public decision, which is the same
    /// unless the game covers a secret choice.
    pub fn clocks(&self, viewer: Viewer, now: u64) -> Option<PerSeat<ClockStatus>> {
        let clocks = self.clocks.as_ref()?;
        let now = now.max(self.now);
        Some(PerSeat::from_fn(|seat| match self.shown[seat] {
            Some(s) if viewer != Viewer::Umpire && viewer != Viewer::Seat(seat) => {
                clocks.running_status(s.since, s.turn, s.allowance, now)
            }
            _ => clocks.status(seat, now),
        }))
    }

    /// What `viewer`'s clocks are computed from, per seat: since when and
    /// with what turn clock each runs (if it does), on top of which bank and
    /// periods. The clocks shown to `viewer` change only when this does, so
    /// a server can tell whether a viewer needs a new message after an event
    /// (a timeout under a cover changes nothing for the others).
    pub fn clock_basis(&self, viewer: Viewer) -> Option<PerSeat<ClockBasis>> {
        let clocks = self.clocks.as_ref()?;
        Some(PerSeat::from_fn(|seat| match self.shown[seat] {
            Some(s) if viewer != Viewer::Umpire && viewer != Viewer::Seat(seat) => ClockBasis {
                started: Some((s.since, s.turn)),
                allowance: s.allowance,
            },
            _ => ClockBasis {
                started: clocks.started(seat),
                allowance: clocks.allowance(seat),
            },
        }))
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
        self.submit_by(seat, text, now, None)
    }

    /// [`Match::submit`], made `by` the host for the seat, or the umpire's
    /// ruling about it (`None`: by the seat itself). Only a match with a
    /// host takes either.
    pub fn submit_by(
        &mut self,
        seat: Seat,
        text: &str,
        now: u64,
        by: Option<By>,
    ) -> Result<Entry, ActionError> {
        if text.trim().eq_ignore_ascii_case(TIMEOUT) {
            return Err(ActionError::new(
                "notation",
                "`timeout` is for the clock to say",
            ));
        }
        self.apply_entry(&Entry::new(seat, text.trim(), now.max(self.now)).by(by))
    }

    /// Applies every timeout due before `now`, in order; returns them.
    pub fn advance(&mut self, now: u64) -> Vec<Entry> {
        let mut played = Vec::new();
        while let Some(deadline) = self.overdue(now) {
            let clocks = self.clocks.as_ref().expect("a deadline means clocks");
            let seat = Seat::BOTH
                .into_iter()
                .find(|&s| clocks.deadline(s) == Some(deadline))
                .expect("the deadline belongs to a seat");
            match self.apply_entry(&Entry::new(seat, TIMEOUT, deadline)) {
                Ok(entry) => played.push(entry),
                Err(e) => {
                    // Cannot happen for a due deadline; end rather than loop.
                    self.forced = Some(Outcome::forfeit(
                        seat.other(),
                        "time",
                        format!("{seat} ran out of time ({e}); {} wins", seat.other()),
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
        if now > crate::MAX_CLOCK_MS {
            return Err(ActionError::new(
                "clock",
                format!(
                    "at_ms {now} is past the longest match time ({} ms)",
                    crate::MAX_CLOCK_MS
                ),
            ));
        }
        if now < self.now {
            return Err(ActionError::new(
                "clock",
                format!("time runs backwards: {now} ms is before {} ms", self.now),
            ));
        }
        if let Some(by) = entry.by {
            self.check_by(entry, by)?;
        }
        let decision = self.decision();
        // The umpire rules on a seat's play whether or not the seat is to act.
        let ruling = entry.by == Some(By::Umpire);
        let resigning = !ruling && entry.action.eq_ignore_ascii_case(RESIGN);
        let is_timeout = entry.action.eq_ignore_ascii_case(TIMEOUT);
        // A choice the rules already made, written out: it changes nothing.
        let given = if ruling || resigning || is_timeout || decision.is_over() {
            None
        } else {
            self.state.given(seat, &entry.action)
        };
        if let Err(e) = decision.require(seat) {
            // Resigning is allowed out of turn, but not after the end.
            if !(ruling || resigning || given.is_some()) || decision.is_over() {
                return Err(ActionError::from_rule(&e));
            }
        }
        let deadline = self.clocks.as_ref().and_then(|c| c.deadline(seat));
        // A seat whose time is out cannot move any more; only its timeout can.
        if let Some(due) = self.overdue(now) {
            if !(is_timeout && deadline == Some(due)) {
                return Err(ActionError::new(
                    "clock",
                    format!("a clock ran out at {due} ms, before this action at {now} ms"),
                ));
            }
        }
        let mut effect = None;
        let action = if ruling {
            self.state.rule(seat, &entry.action)?
        } else if resigning {
            self.forced = Some(Outcome::forfeit(
                seat.other(),
                "resignation",
                format!("{seat} resigned; {} wins", seat.other()),
            ));
            RESIGN.to_string()
        } else if is_timeout {
            if deadline.is_none_or(|d| now < d) {
                return Err(ActionError::new(
                    "clock",
                    format!("{seat}'s time had not run out"),
                ));
            }
            effect = Some(self.time_out(seat, decision));
            TIMEOUT.to_string()
        } else if let Some(given) = given {
            given
        } else {
            self.state.apply(seat, &entry.action)?
        };
        self.now = now;
        if self.is_over() {
            self.finish();
        } else {
            self.restart_clocks(now);
        }
        let entry = Entry {
            seat,
            action,
            at_ms: now,
            effect,
            by: entry.by,
        };
        self.record.actions.push(entry.clone());
        if self.is_over() {
            self.record.outcome = self.outcome();
        }
        Ok(entry)
    }

    /// Whether an entry made `by` the host or the umpire may be: only in a
    /// match with a host, never a timeout, and a ruling only while the
    /// match runs.
    fn check_by(&self, entry: &Entry, by: By) -> Result<(), ActionError> {
        if !self.record.host {
            return Err(ActionError::new(
                "no-host",
                format!(
                    "made by the {}, but this match has no host (a hosted match's record says \"host\": true)",
                    by.as_str()
                ),
            ));
        }
        if entry.action.eq_ignore_ascii_case(TIMEOUT) {
            return Err(ActionError::new(
                "clock",
                "`timeout` is for the clock to say, not the host",
            ));
        }
        if by == By::Umpire && self.is_over() {
            return Err(ActionError::from_rule(&crate::TurnError::GameOver));
        }
        Ok(())
    }

    /// Applies the game's timeout rule for `seat`; returns what it did.
    fn time_out(&mut self, seat: Seat, before: Decision) -> String {
        let lose = |reason: String| {
            Some(Outcome::forfeit(
                seat.other(),
                "time",
                format!("{seat} ran out of time{reason}; {} wins", seat.other()),
            ))
        };
        match self.state.timeout(seat) {
            Timeout::Lose => {
                self.forced = lose(String::new());
                "loses".into()
            }
            Timeout::Applied(what) => {
                // A rule that leaves the seat facing the same decision would
                // time it out for ever: the seat loses instead, and says why.
                if self.state.decision().get(seat) == before.get(seat) {
                    self.forced = lose(format!(" and its timeout rule ({what}) changed nothing"));
                }
                what
            }
        }
    }

    /// The earliest deadline already passed at `now`, if any.
    fn overdue(&self, now: u64) -> Option<u64> {
        self.next_deadline().filter(|&d| d < now)
    }

    /// A seat's clock restarts when its pending decision changes, and stops
    /// when it has none; the same for what other viewers are shown.
    fn restart_clocks(&mut self, now: u64) {
        let Some(clocks) = &mut self.clocks else {
            return;
        };
        let real = self.state.decision();
        let public = self.state.public_decision();
        for seat in Seat::BOTH {
            match real.get(seat) {
                None => clocks.stop(seat, now),
                Some(p) if self.timing[seat] != Some(p) => {
                    clocks.stop(seat, now);
                    clocks.start(seat, self.state.turn_clock(seat), now);
                }
                Some(_) => {}
            }
            self.timing[seat] = real.get(seat);
            self.shown[seat] = match (public.get(seat), self.shown[seat]) {
                (None, _) => None,
                (Some(p), Some(shown)) if shown.pending == p => Some(shown),
                (Some(pending), _) => Some(Shown {
                    pending,
                    since: now,
                    turn: self.state.public_turn_clock(seat),
                    allowance: clocks.allowance(seat),
                }),
            };
        }
    }

    fn finish(&mut self) {
        if let Some(clocks) = &mut self.clocks {
            for seat in Seat::BOTH {
                clocks.stop(seat, self.now);
            }
        }
        self.timing = PerSeat::default();
        self.shown = PerSeat::default();
        self.record.outcome = self.outcome();
    }
}
