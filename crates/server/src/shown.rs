//! What each kind of viewer has been shown of a match, and the `seq` of its
//! `state` messages: how many steps of the match changed what it sees.
//!
//! A step is one action, or the timeouts due at one moment (both seats of a
//! simultaneous decision may run out together). After each step every
//! viewer's content is fingerprinted: its view, the decisions as it may know
//! them ([`Match::decision_for`]), the outcome, and what its clocks are
//! computed from ([`Match::clock_basis`]). A viewer whose fingerprint changed
//! gets a new `state` with its `seq` one higher; any other viewer gets
//! nothing, so a change hidden from it (a timeout under a cover) shows in no
//! message and no count. The counts follow from the record alone, so they
//! are the same after a reconnect or a restart.
//!
//! The legal actions a seat is sent are left out of the fingerprint: they
//! depend only on what the seat may know (a rule of [`umpire_core::Game`]
//! that the conformance suite checks), which its view and decision hold.
//!
//! The umpire's count is kept only once someone watches as umpire
//! ([`Shown::follow`], which replays the record for it): most matches have
//! no umpire, and its view would be made at every step for nobody.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::io;

use umpire_core::{
    AnyGame, Entry, Match, MatchOptions, Record, ReplayError, Seat, TIMEOUT, Viewer,
};

/// Every kind of viewer; all viewers of one kind are shown the same.
const VIEWERS: [Viewer; 4] = [
    Viewer::Seat(Seat::P1),
    Viewer::Seat(Seat::P2),
    Viewer::Spectator,
    Viewer::Umpire,
];

/// What one kind of viewer was last shown, and how many changes that made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seen {
    seq: u64,
    print: u64,
}

/// What every kind of viewer followed has been shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown([Option<Seen>; 4]);

/// Every kind of viewer's view of the match as JSON text, as one step's
/// fingerprints read it: the `state` messages reuse it.
pub struct Views([String; 4]);

impl Views {
    /// `viewer`'s view text, the first time it is asked for (each kind of
    /// viewer's message is built once).
    pub fn take(&mut self, viewer: Viewer) -> Option<String> {
        Some(std::mem::take(&mut self.0[index(viewer)])).filter(|v| !v.is_empty())
    }
}

impl Shown {
    /// At the start of a match: nothing changed yet. The umpire is not
    /// followed.
    pub fn start(m: &Match) -> Shown {
        Shown::start_following(m, |viewer| viewer != Viewer::Umpire)
    }

    fn start_following(m: &Match, follow: impl Fn(Viewer) -> bool) -> Shown {
        Shown(VIEWERS.map(|viewer| {
            follow(viewer).then(|| Seen {
                seq: 0,
                print: fingerprint(m, viewer, &m.view_text(viewer)),
            })
        }))
    }

    /// Counts one step, after which the match is `m`; returns the views
    /// the fingerprints were taken of.
    pub fn step(&mut self, m: &Match) -> Views {
        let mut views = Views(Default::default());
        for ((seen, viewer), view) in self.0.iter_mut().zip(VIEWERS).zip(&mut views.0) {
            let Some(seen) = seen else {
                continue;
            };
            *view = m.view_text(viewer);
            let print = fingerprint(m, viewer, view);
            if print != seen.print {
                *seen = Seen {
                    seq: seen.seq + 1,
                    print,
                };
            }
        }
        views
    }

    /// The `seq` of `viewer`'s latest `state`; `viewer` must be followed.
    pub fn seq(&self, viewer: Viewer) -> u64 {
        let seen = self.0[index(viewer)];
        debug_assert!(seen.is_some(), "{viewer} is not followed");
        seen.map_or(0, |s| s.seq)
    }

    /// Whether `viewer`'s count is kept.
    pub fn follows(&self, viewer: Viewer) -> bool {
        self.0[index(viewer)].is_some()
    }

    /// Keeps `viewer`'s count from now on, taken from the match's `record`
    /// (the match this counts).
    pub fn follow(
        &mut self,
        viewer: Viewer,
        game: &'static dyn AnyGame,
        record: &Record,
    ) -> Result<(), ReplayError> {
        if !self.follows(viewer) {
            let (_, all) = Shown::replay_following(game, record, |_| true)?;
            self.0[index(viewer)] = all.0[index(viewer)];
        }
        Ok(())
    }

    /// Whether `viewer` sees something new in `later`.
    pub fn changed_for(&self, later: &Shown, viewer: Viewer) -> bool {
        self.seq(viewer) != later.seq(viewer)
    }

    /// Replays `record` one step at a time: the match and what every kind
    /// of viewer but the umpire was shown of it.
    pub fn replay(
        game: &'static dyn AnyGame,
        record: &Record,
    ) -> Result<(Match, Shown), ReplayError> {
        Shown::replay_following(game, record, |viewer| viewer != Viewer::Umpire)
    }

    fn replay_following(
        game: &'static dyn AnyGame,
        record: &Record,
        follow: impl Fn(Viewer) -> bool,
    ) -> Result<(Match, Shown), ReplayError> {
        let options = MatchOptions {
            timed: record.timed,
            clock: record.clock,
        };
        let start = Match::new(game, &record.config, record.seed, options)?;
        let mut shown = Shown::start_following(&start, follow);
        let actions = &record.actions;
        let m = Match::replay_each(game, record, |i, m| {
            if !same_step(&actions[i], actions.get(i + 1)) {
                shown.step(m);
            }
            Ok(())
        })?;
        Ok((m, shown))
    }
}

/// Whether `next` belongs to the same step as `entry`: the timeouts due at
/// one moment are applied together.
pub(crate) fn same_step(entry: &Entry, next: Option<&Entry>) -> bool {
    next.is_some_and(|next| {
        entry.action == TIMEOUT && next.action == TIMEOUT && next.at_ms == entry.at_ms
    })
}

fn index(viewer: Viewer) -> usize {
    VIEWERS
        .iter()
        .position(|&v| v == viewer)
        .expect("every viewer is listed")
}

/// A hash of what `viewer` sees of `m` (`view` is its view text), clocks
/// aside from their running.
fn fingerprint(m: &Match, viewer: Viewer, view: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    hasher.write(view.as_bytes());
    let content = (m.decision_for(viewer), m.outcome());
    // Writing to a hasher cannot fail.
    let _ = serde_json::to_writer(HashWriter(&mut hasher), &content);
    if let Some(basis) = m.clock_basis(viewer) {
        for seat in Seat::BOTH {
            let b = basis[seat];
            b.started
                .map(|(since, turn)| (since, turn.turn_ms, turn.overtime))
                .hash(&mut hasher);
            b.allowance.hash(&mut hasher);
        }
    }
    hasher.finish()
}

/// Feeds written bytes to a hasher.
struct HashWriter<'a>(&'a mut DefaultHasher);

impl io::Write for HashWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.write(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use umpire_core::{MatchOptions, seeded_rng};

    use super::*;

    /// For every game, a match counted without the umpire and followed for
    /// it midway counts what a replay following everyone from the start
    /// counts: an umpire who arrives late gets the same `seq`.
    #[test]
    fn the_umpire_followed_midway_is_counted_as_from_the_start() {
        let mut rng = seeded_rng(11);
        for &game in umpire_catalog::games() {
            let options = MatchOptions::default();
            let mut m = Match::new(game, &game.default_config(), 9, options).expect("a match");
            let mut shown = Shown::start(&m);
            assert!(!shown.follows(Viewer::Umpire));
            for step in 0..16 {
                if step == 6 {
                    shown
                        .follow(Viewer::Umpire, game, m.record())
                        .expect("replays");
                }
                let Some(seat) = m.decision().seats().iter().next() else {
                    break;
                };
                let Some(action) = m.state().sample_action(seat, &mut rng) else {
                    break;
                };
                let now = m.now() + 100;
                m.submit(seat, &action, now).expect("a legal action");
                shown.step(&m);
            }
            let (_, all) = Shown::replay_following(game, m.record(), |_| true).expect("replays");
            assert_eq!(shown, all, "{}", game.id());
            assert!(shown.seq(Viewer::Umpire) > 0, "{}", game.id());
        }
    }
}
