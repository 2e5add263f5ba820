//! Rematch: once the game is over, each seat may ask for another match with
//! the same settings and the seats swapped (so the advantage of moving
//! first changes hands). A bot seat always agrees. When both agreed, the
//! match's task hands the connection an order, the hub creates the match,
//! and everyone is told its id.
//!
//! The rematch's seats reuse this match's seat tokens, swapped, and its
//! umpire token: each person's key opens their new seat, and nobody needs
//! a private message. Its id is stored with the tokens, so a restart or a
//! late reload finds it; the offers live in memory only.

use umpire_core::{PerSeat, Seat, Viewer};

use super::actor::Actor;
use super::handle::RematchOrder;
use crate::messages;
use crate::request::CreateRequest;
use crate::store::{Op, SeatKind, Tokens};

impl Actor {
    /// `seat` asks for a rematch (or accepts one); the order to create it
    /// once both seats agreed.
    pub(super) fn ask_rematch(&mut self, seat: Seat, conn: u64) -> Option<RematchOrder> {
        if !self.m.is_over() {
            let text = messages::error(
                "rematch",
                "a rematch can be asked for once the game is over",
            );
            self.send_to(conn, text);
            return None;
        }
        if self.rematch.made.is_some() {
            let text = self.rematch_text();
            self.send_to(conn, text);
            return None;
        }
        self.rematch.offers[seat] = true;
        let agreed = Seat::BOTH
            .iter()
            .all(|&s| self.rematch.offers[s] || self.seats[s].kind != SeatKind::Person);
        let order = (agreed && !self.rematch.making).then(|| self.rematch_order());
        self.rematch.making |= order.is_some();
        self.tell_rematch();
        order
    }

    /// The hub created the rematch, or could not.
    pub(super) async fn rematched(&mut self, result: Result<String, String>) {
        self.rematch.making = false;
        let id = match result {
            Ok(id) => id,
            Err(why) => {
                let text =
                    messages::error("rematch", &format!("the rematch could not start: {why}"));
                for seat in Seat::BOTH {
                    self.send_to_viewer(Viewer::Seat(seat), text.clone());
                }
                return;
            }
        };
        let mut tokens = self.current_tokens();
        tokens.rematch = Some(id.clone());
        let op = Op::Tokens {
            id: self.info.id.clone(),
            tokens,
        };
        // The rematch exists whatever happens here: only a later reload
        // would not find it.
        if let Err(e) = self.store.write(op).await {
            tracing::error!(id = %self.info.id, "the rematch's id was not stored: {e}");
        }
        tracing::info!(id = %self.info.id, rematch = %id, "rematch created");
        self.rematch.made = Some(id);
        self.tell_rematch();
    }

    /// The `rematch` message: who asked, and the rematch once made.
    pub(super) fn rematch_text(&self) -> String {
        let offers: Vec<Seat> = Seat::BOTH
            .into_iter()
            .filter(|&s| self.rematch.offers[s])
            .collect();
        messages::rematch(&offers, self.rematch.made.as_deref())
    }

    /// Whether a newcomer should hear of the rematch.
    pub(super) fn rematch_news(&self) -> bool {
        self.rematch.made.is_some() || Seat::BOTH.iter().any(|&s| self.rematch.offers[s])
    }

    /// Tells every watcher where the rematch stands.
    fn tell_rematch(&mut self) {
        let text = self.rematch_text();
        let conns: Vec<u64> = self.watchers.iter().map(|w| w.conn).collect();
        for conn in conns {
            self.send_to(conn, text.clone());
        }
    }

    /// This match's settings with the seats swapped, and its tokens swapped.
    fn rematch_order(&self) -> RematchOrder {
        let record = self.m.record();
        let kinds = PerSeat::from_fn(|s: Seat| self.seats[s.other()].kind.clone());
        let tokens = Tokens {
            seats: PerSeat::from_fn(|s: Seat| self.info.tokens.seats[s.other()].clone()),
            umpire: self.info.tokens.umpire.clone(),
            invite: None,
            rematch: None,
        };
        RematchOrder {
            req: CreateRequest {
                game: self.info.game.id().to_string(),
                config: crate::hidden::without_hidden(self.info.game, &record.config),
                timed: record.timed,
                seats: kinds,
                takeover: self.info.takeover,
                creator: None,
                open: false,
                names: crate::hosting::Names::of(&PerSeat::from_fn(|s: Seat| {
                    record.seats[s.other()].clone()
                })),
                host: record.host,
                clock: record.clock.map(|c| crate::hosting::Clock {
                    bank_ms: c.bank_ms,
                    periods: c.periods,
                    period_ms: c.period_ms,
                }),
                // A rematch draws its secrets anew.
                seed: None,
                audience: self.info.audience,
            },
            tokens,
        }
    }

    /// The tokens as stored now (an invite may have been claimed since the
    /// task started).
    fn current_tokens(&self) -> Tokens {
        let mut tokens = self.info.tokens.clone();
        if let Some(invite) = tokens.invite.as_mut() {
            invite.claimed = self.info.claimed.load(std::sync::atomic::Ordering::SeqCst);
        }
        tokens.rematch = self.rematch.made.clone();
        tokens
    }
}
