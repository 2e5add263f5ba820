//! The match log: the public events of a match, one line per step that
//! showed a spectator something new to say, in the game's own words
//! ([`Match::last_event`] as a spectator sees it), with the notation beside
//! them when the action was made in the open, and a time-out said as one
//! when everyone could see that seat's clock run out.
//!
//! Only what a spectator may know goes in: the words come from the
//! spectator's view; an action of a sealed decision (one both seats make at
//! once) shows no notation; a time-out under a cover (a seat's real time
//! hidden behind a public one) is not said, since the public clock had
//! not run out. A game whose rules delete the earlier moves
//! ([`umpire_core::AnyGame::hides_history`]) has no log.

use serde::Serialize;
use umpire_core::{
    AnyGame, ClockStatus, Decision, Entry, Match, MatchOptions, PerSeat, RESIGN, Record,
    ReplayError, Seat, TIMEOUT, Viewer,
};

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogLine {
    /// Match time of the step.
    pub at_ms: u64,
    /// The event in the game's words (seats named P1 and P2), if it says one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The step's actions in notation, when they were made in the open.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation: Option<String>,
    /// The seats whose time ran out in this step, as everyone saw it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub timed_out: Vec<Seat>,
}

/// What a log line needs of the match just before its step: its public
/// decisions and clocks, and the latest event a spectator was told of.
pub struct Before {
    decision: Decision,
    clocks: Option<PerSeat<ClockStatus>>,
    event: Option<String>,
}

impl Before {
    /// `m` as a spectator sees it, with its clocks at `at` (the step's
    /// time), `event` being its latest event as a spectator sees it.
    pub fn of(m: &Match, at: u64, event: Option<String>) -> Before {
        Before {
            decision: m.decision_for(Viewer::Spectator),
            clocks: m.clocks(Viewer::Spectator, at),
            event,
        }
    }
}

/// The line for one step (`entries`, after which the match is `after`), if
/// it says anything new; and the latest event a spectator sees after it.
pub fn line(before: Before, after: &Match, entries: &[Entry]) -> (Option<LogLine>, Option<String>) {
    let event = after.last_event(Viewer::Spectator);
    let Some(first) = entries.first() else {
        return (None, event);
    };
    let timed_out: Vec<Seat> = entries
        .iter()
        .filter(|e| e.action == TIMEOUT)
        .map(|e| e.seat)
        .filter(|&seat| before.clocks.is_some_and(|c| out_of_time(&c[seat])))
        .collect();
    let open: Vec<&str> = entries
        .iter()
        .filter(|e| e.action != TIMEOUT)
        .filter(|e| {
            e.action == RESIGN || before.decision.get(e.seat).is_some_and(|p| !p.simultaneous)
        })
        .map(|e| e.action.as_str())
        .collect();
    let text = event.clone().filter(|e| Some(e) != before.event.as_ref());
    let notation = (!open.is_empty()).then(|| open.join("; "));
    if text.is_none() && notation.is_none() && timed_out.is_empty() {
        return (None, event);
    }
    let line = LogLine {
        at_ms: first.at_ms,
        text,
        notation,
        timed_out,
    };
    (Some(line), event)
}

/// Whether a clock shows no time left at all.
fn out_of_time(c: &ClockStatus) -> bool {
    c.running && c.turn_ms == 0 && (!c.overtime || (c.bank_ms == 0 && c.periods == 0))
}

/// The whole log of `record`, or `None` for a game without one.
pub fn of_record(
    game: &'static dyn AnyGame,
    record: &Record,
) -> Result<Option<Vec<LogLine>>, ReplayError> {
    if game.hides_history() {
        return Ok(None);
    }
    let actions = &record.actions;
    let options = MatchOptions {
        timed: record.timed,
        clock: record.clock,
    };
    let start = Match::new(game, &record.config, record.seed, options)?;
    let mut event = start.last_event(Viewer::Spectator);
    let mut before = actions
        .first()
        .map(|e| Before::of(&start, e.at_ms, event.clone()));
    let mut from = 0;
    let mut lines = Vec::new();
    Match::replay_each(game, record, |i, m| {
        if crate::shown::same_step(&actions[i], actions.get(i + 1)) {
            return Ok(());
        }
        if let Some(b) = before.take() {
            let (said, after) = line(b, m, &actions[from..=i]);
            lines.extend(said);
            event = after;
        }
        before = actions
            .get(i + 1)
            .map(|next| Before::of(m, next.at_ms, event.clone()));
        from = i + 1;
        Ok(())
    })?;
    Ok(Some(lines))
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use umpire_core::testing::SealedBids;

    use super::*;

    /// Every game's log, built step by step as a live match builds it,
    /// is the log its record gives; a game whose rules delete the earlier
    /// moves has none.
    #[test]
    fn the_log_of_a_record_is_the_log_kept_step_by_step() {
        let mut rng = umpire_core::seeded_rng(5);
        for &game in umpire_catalog::games() {
            let mut m = Match::new(game, &game.default_config(), 3, MatchOptions::default())
                .expect("a match");
            let mut kept = Vec::new();
            let mut event = m.last_event(Viewer::Spectator);
            for _ in 0..40 {
                let Some(seat) = m.decision().seats().iter().next() else {
                    break;
                };
                let Some(action) = m.state().sample_action(seat, &mut rng) else {
                    break;
                };
                let now = m.now() + 1_000;
                let before = Before::of(&m, now, event.clone());
                let played = m.submit(seat, &action, now).expect("a legal action");
                let (said, after) = line(before, &m, &[played]);
                kept.extend(said);
                event = after;
            }
            let built = of_record(game, m.record()).expect("replays");
            if game.hides_history() {
                assert_eq!(built, None, "{}", game.id());
            } else {
                assert_eq!(built, Some(kept.clone()), "{}", game.id());
                assert!(kept.iter().any(|l| l.text.is_some()), "{}", game.id());
            }
        }
    }

    /// A sealed bid shows no notation, and a time-out under a cover is
    /// not said (the public clock still ran); one on a public clock is.
    #[test]
    fn sealed_actions_and_covered_time_outs_stay_unsaid() {
        let game = umpire_core::erase::<SealedBids>();
        let mut m = Match::new(game, &json!({}), 7, MatchOptions::default()).expect("a match");
        let event = m.last_event(Viewer::Spectator);
        let before = Before::of(&m, 1_000, event);
        let bid = m.submit(Seat::P1, "bid 2", 1_000).expect("a bid");
        let (said, event) = line(before, &m, &[bid]);
        assert_eq!(said, None, "a sealed bid says nothing");
        // P2 never bids: its real 10 s run out while the public clock shows 30 s.
        let due = m.next_deadline().expect("a clock runs");
        let before = Before::of(&m, due, event);
        let timeouts = m.advance(due + 1);
        assert_eq!(
            timeouts.iter().map(|e| e.seat).collect::<Vec<_>>(),
            [Seat::P2]
        );
        let said = line(before, &m, &timeouts)
            .0
            .expect("the round's end is said");
        assert_eq!((said.timed_out, said.notation), (vec![], None));
        assert!(said.text.is_some());

        // Every game's first clock runs out in the open: the line names each
        // seat whose time ran out (both, where both decide at once).
        let mut both = 0;
        for &game in umpire_catalog::games() {
            let mut m = Match::new(game, &game.default_config(), 7, MatchOptions::default())
                .expect("a match");
            let due = m.next_deadline().expect("a clock runs");
            let before = Before::of(&m, due, m.last_event(Viewer::Spectator));
            let timeouts = m.advance(due + 1);
            let said = line(before, &m, &timeouts).0.expect("a line");
            let seats: Vec<Seat> = timeouts.iter().map(|e| e.seat).collect();
            assert_eq!(said.timed_out, seats, "{}", game.id());
            both += usize::from(seats == [Seat::P1, Seat::P2]);
        }
        assert!(
            both > 0,
            "some game's first decision is both seats' at once"
        );
    }
}
