//! A host's match, in the match's task: the host enters a seat's action
//! for it or rules on its play (from the umpire's link), a seat asks the
//! host before it acts, the host hears of each refusal of a seat's own
//! action, and the console is given each viewer's state and words, each
//! built from that viewer's own view.

use std::time::Instant;

use serde_json::{Map, Value, json};
use umpire_core::{ActionError, By, Seat, Viewer};

use super::actor::{Actor, Source};
use crate::messages;
use crate::pool::Priority;

impl Actor {
    /// The host enters `seat`'s action (`by` host) or rules on its play
    /// (`by` umpire): only in a host's match.
    pub(super) async fn host_act(
        &mut self,
        seat: Seat,
        text: &str,
        conn: u64,
        by: By,
        at: Instant,
    ) {
        if !self.m.hosted() {
            let why = "only the host of a host's match may act for a seat or rule";
            return self.send_to(conn, messages::error("forbidden", why));
        }
        self.act(seat, text, Source::Host(conn, by), at).await
    }

    /// `seat` asks the host whether `text` would be accepted now: it is
    /// judged as a check (off this task), and the seat and the host are
    /// both told the machine's answer, so the host can make the final
    /// call.
    pub(super) fn ask(&mut self, conn: u64, seat: Seat, text: String) {
        if !self.m.hosted() {
            let why = "this match has no host to ask";
            return self.send_to(conn, messages::error("forbidden", why));
        }
        let mut to: Vec<_> = self
            .watchers
            .iter()
            .filter(|w| w.viewer == Viewer::Umpire || w.conn == conn)
            .filter_map(|w| self.outbox(w.conn))
            .collect();
        to.dedup_by(|a, b| std::sync::Arc::ptr_eq(a, b));
        let mut copy = self.m.state().clone_box();
        let over = self.m.is_over();
        self.checks.run(Priority::Later, move || {
            let answer = if over {
                Err(ActionError::from_rule(&umpire_core::TurnError::GameOver))
            } else {
                copy.apply(seat, text.trim())
            };
            let text = messages::asked(seat, &text, answer);
            for outbox in to {
                outbox.send(text.clone().into());
            }
        });
    }

    /// In a host's match, the host hears of a refusal of `seat`'s own
    /// action (a player at the page), so it can overrule the machine.
    pub(super) fn tell_host_refused(&mut self, seat: Seat, text: &str, e: &ActionError) {
        if self.m.hosted() {
            let text = messages::refused_to_host(seat, text, e);
            self.send_to_viewer(Viewer::Umpire, text);
        }
    }

    /// For each of `viewers`, its `state` message and its words
    /// ([`crate::hosting::words`]), keyed by viewer; a viewer whose count
    /// cannot be taken is left out.
    pub(super) fn words(&mut self, viewers: &[Viewer]) -> Value {
        let mut out = Map::new();
        for &viewer in viewers {
            if !self.follow(viewer) {
                continue;
            }
            let seq = self.shown.seq(viewer);
            let state = messages::state(&self.m, viewer, seq, &self.seats_json(), self.clock_now());
            let words = crate::hosting::words(&self.m, viewer);
            out.insert(viewer.to_string(), json!({"state": state, "words": words}));
        }
        Value::Object(out)
    }
}
