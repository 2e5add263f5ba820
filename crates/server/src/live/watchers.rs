//! The clients watching a match: joining, leaving, and sending each its own
//! messages. A client that cannot keep up is dropped, never waited for.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use serde_json::json;
use umpire_core::Viewer;

use super::actor::Actor;
use super::parts::Watcher;
use crate::messages;
use crate::outbox::{Deliver, Outgoing};
use crate::shown::Views;

/// Connections one seat holder, or the umpire, keeps at once. One more
/// connection of the same link closes its oldest: the holder always gets in.
const MAX_PER_HOLDER: usize = 8;

impl Actor {
    /// A client connects: it gets `hello` and its `state`. Returns whether
    /// it was let in: a spectator is refused once the match has its fill of
    /// them; a seat holder or the umpire is always let in (past a few
    /// connections of one link, its oldest is closed).
    pub(super) fn join(&mut self, viewer: Viewer, conn: u64, tx: Arc<dyn Deliver>) -> bool {
        if !self.follow(viewer) {
            return false;
        }
        // Oldest first: connection numbers only grow (the list's own order
        // changes as clients leave).
        let mut same: Vec<u64> = self
            .watchers
            .iter()
            .filter(|w| w.viewer == viewer)
            .map(|w| w.conn)
            .collect();
        same.sort_unstable();
        if viewer == Viewer::Spectator {
            if same.len() >= self.config.max_spectators {
                return false;
            }
        } else if same.len() >= MAX_PER_HOLDER {
            // The oldest connection of this link goes; the seat stays taken.
            let oldest = same[..=same.len() - MAX_PER_HOLDER].to_vec();
            self.close_quietly(&oldest);
        }
        let takeover = json!({"allowed": self.info.takeover, "grace_ms": self.config.grace_ms});
        let hello = messages::hello(&self.info, viewer, takeover);
        tx.send(Outgoing::from(hello));
        self.watchers.push(Watcher { conn, viewer, tx });
        let was_playing = self.is_playing();
        let back = self.arrived(viewer);
        if back && !was_playing && self.is_playing() {
            // The clocks start: everyone gets a state, the newcomer too.
            self.broadcast();
        } else {
            let state = self.state_text(viewer, None, &self.seats_json(), self.clock_now());
            self.send_to(conn, state);
            if back {
                // The others see the seat come back.
                self.tell_presence(Some(conn));
            }
        }
        self.send_journal(conn);
        self.send_chat_history(conn, viewer);
        if self.rematch_news() {
            let text = self.rematch_text();
            self.send_to(conn, text);
        }
        true
    }

    /// The `state` message for `viewer`, whose view text may be made
    /// already.
    fn state_text(
        &self,
        viewer: Viewer,
        view: Option<String>,
        seats: &str,
        now: Option<u64>,
    ) -> String {
        messages::state_text(&self.m, viewer, view, self.shown.seq(viewer), seats, now)
    }

    /// A client disconnects.
    pub(super) fn leave(&mut self, conn: u64) {
        let Some(i) = self.watchers.iter().position(|w| w.conn == conn) else {
            return;
        };
        let w = self.watchers.swap_remove(i);
        if self.departed(w.viewer) {
            self.tell_presence(None);
        }
    }

    /// Tells every watcher but `except` who sits where now: a small
    /// `presence` message, not a whole state.
    pub(super) fn tell_presence(&mut self, except: Option<u64>) {
        let text = messages::presence(&self.seats_json());
        let conns: Vec<u64> = self
            .watchers
            .iter()
            .map(|w| w.conn)
            .filter(|&c| Some(c) != except)
            .collect();
        for conn in conns {
            self.send_to(conn, text.clone());
        }
    }

    /// Where `conn`'s messages go, for an answer sent later from elsewhere.
    pub(super) fn outbox(&self, conn: u64) -> Option<Arc<dyn Deliver>> {
        self.watchers
            .iter()
            .find(|w| w.conn == conn)
            .map(|w| w.tx.clone())
    }

    pub(super) fn send_to(&mut self, conn: u64, text: String) {
        if let Some(w) = self.watchers.iter().find(|w| w.conn == conn) {
            if !w.send(text) {
                self.drop_watchers(vec![conn]);
            }
        }
    }

    /// Sends `text` to each connection of `viewer` (a seat, or the umpire).
    pub(super) fn send_to_viewer(&mut self, viewer: Viewer, text: String) {
        let conns: Vec<u64> = self
            .watchers
            .iter()
            .filter(|w| w.viewer == viewer)
            .map(|w| w.conn)
            .collect();
        for conn in conns {
            self.send_to(conn, text.clone());
        }
    }

    /// Sends every watcher its own `state` (after a change everyone sees:
    /// who sits where).
    pub(super) fn broadcast(&mut self) {
        self.send_states(|_| true);
    }

    /// Sends each watcher whose kind of viewer is `to` its own `state`,
    /// built once per kind.
    pub(super) fn send_states(&mut self, to: impl Fn(Viewer) -> bool) {
        self.send_states_after(to, None, None);
    }

    /// [`Actor::send_states`], with `first` sent to a viewer's connections
    /// ahead of their state, in the same write, and the views made already
    /// (by [`crate::shown::Shown::step`]), if any.
    pub(super) fn send_states_after(
        &mut self,
        to: impl Fn(Viewer) -> bool,
        first: Option<(Viewer, Utf8Bytes)>,
        mut views: Option<Views>,
    ) {
        let mut built: HashMap<Viewer, Utf8Bytes> = HashMap::new();
        let seats = self.seats_json();
        let now = self.clock_now();
        let mut slow = Vec::new();
        for w in &self.watchers {
            let ahead = first
                .as_ref()
                .filter(|(viewer, _)| w.viewer == *viewer)
                .map(|(_, text)| text.clone());
            let state = to(w.viewer).then(|| {
                built
                    .entry(w.viewer)
                    .or_insert_with(|| {
                        let view = views.as_mut().and_then(|v| v.take(w.viewer));
                        self.state_text(w.viewer, view, &seats, now).into()
                    })
                    .clone()
            });
            let out = match (ahead, state) {
                (Some(ahead), Some(state)) => Outgoing::Two(ahead, state),
                (Some(text), None) | (None, Some(text)) => Outgoing::One(text),
                (None, None) => continue,
            };
            if !w.send(out) {
                slow.push(w.conn);
            }
        }
        self.drop_watchers(slow);
    }

    /// Disconnects these clients of a link that stays connected: only they
    /// are told.
    fn close_quietly(&mut self, conns: &[u64]) {
        for &conn in conns {
            if let Some(i) = self.watchers.iter().position(|w| w.conn == conn) {
                let w = self.watchers.swap_remove(i);
                // Told why; dropping it closes the socket after this.
                w.send(messages::error(
                    "replaced",
                    "this link was opened in newer pages (eight at most at once): this one is closed; reload it to use it here",
                ));
                // More of its connections stay: the seat is still here.
                self.departed(w.viewer);
            }
        }
    }

    /// Disconnects clients that cannot keep up (their socket closes when
    /// their queue's sender is dropped).
    fn drop_watchers(&mut self, conns: Vec<u64>) {
        let mut changed = false;
        for conn in conns {
            if let Some(i) = self.watchers.iter().position(|w| w.conn == conn) {
                let w = self.watchers.swap_remove(i);
                tracing::debug!(id = %self.info.id, conn, "client too slow; disconnected");
                changed |= self.departed(w.viewer);
            }
        }
        if changed {
            self.tell_presence(None);
        }
    }
}
