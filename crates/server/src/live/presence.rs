//! Who sits where: person seats connecting and leaving, the seats table
//! every `state` carries, the lobby's summary, and handing a seat whose
//! person stayed away to a bot.

use std::time::{Duration, Instant};

use serde_json::json;
use umpire_core::{PerSeat, Seat, Viewer};

use super::actor::Actor;
use crate::messages;
use crate::store::{Op, SeatKind};

/// One seat as the seats table shows it.
#[derive(serde::Serialize)]
pub(super) struct SeatShown<'a> {
    kind: &'static str,
    /// The player's name, when the match names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    connected: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    away_ms: Option<u64>,
    /// `false` for a person seat nobody has taken yet (an invite not yet
    /// opened): there is nobody to hand to a bot, and its link still waits.
    #[serde(skip_serializing_if = "Option::is_none")]
    arrived: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bot: Option<&'a str>,
}

impl Actor {
    /// A client of `viewer` connected; returns whether its seat came back
    /// (everyone is then told).
    pub(super) fn arrived(&mut self, viewer: Viewer) -> bool {
        let Some(seat) = viewer.seat() else {
            // A host's console starts the clocks of a host's match.
            let was_playing = self.is_playing();
            if viewer == Viewer::Umpire && self.m.hosted() {
                self.start_if_ready();
            }
            return !was_playing && self.is_playing();
        };
        let slot = &mut self.seats[seat];
        slot.connected += 1;
        slot.ever = true;
        if slot.connected > 1 {
            return false;
        }
        self.start_if_ready();
        self.update_summary();
        true
    }

    /// A client of `viewer` left; returns whether its seat is now empty
    /// (everyone is then told).
    pub(super) fn departed(&mut self, viewer: Viewer) -> bool {
        let Some(seat) = viewer.seat() else {
            return false;
        };
        let slot = &mut self.seats[seat];
        slot.connected = slot.connected.saturating_sub(1);
        if slot.connected > 0 {
            return false;
        }
        slot.away_since = Instant::now();
        self.update_summary();
        true
    }

    /// The seats table of a `state` message, as JSON text.
    pub(super) fn seats_json(&self) -> String {
        serde_json::to_string(&self.seats_table(true)).unwrap_or_default()
    }

    /// Who plays each seat; `away` adds how long an absent person has been away.
    fn seats_table(&self, away: bool) -> PerSeat<SeatShown<'_>> {
        PerSeat::from_fn(|seat| {
            let s = &self.seats[seat];
            let name = self.m.players()[seat].name.as_deref();
            match &s.kind {
                SeatKind::Person => SeatShown {
                    kind: "person",
                    name,
                    connected: Some(s.connected > 0),
                    away_ms: (away && s.connected == 0)
                        .then(|| s.away_since.elapsed().as_millis() as u64),
                    arrived: (!s.ever).then_some(false),
                    bot: None,
                },
                SeatKind::Bot { bot } => SeatShown {
                    kind: "bot",
                    name,
                    connected: None,
                    away_ms: None,
                    arrived: None,
                    bot: Some(bot),
                },
            }
        })
    }

    /// Refreshes the lobby's summary of this match.
    pub(super) fn update_summary(&self) {
        let over = self.m.is_over();
        let open = !over
            && Seat::BOTH
                .iter()
                .any(|&s| self.seats[s].kind == SeatKind::Person && !self.seats[s].ever);
        let mut summary = json!({
            "id": self.info.id,
            "game": self.info.game.id(),
            "name": self.info.game.name(),
            "created_ms": self.info.created_ms,
            "seats": self.seats_table(false),
            "moves": self.moves(),
            "outcome": self.m.outcome(),
            "status": if over { "finished" } else if open { "open" } else { "live" },
        });
        // A host kept the audience out until the end.
        if !self.info.audience && !over {
            summary["audience"] = json!(false);
        }
        // An open seat not yet taken: the lobby offers its invite to anyone.
        let claimed = self.info.claimed.load(std::sync::atomic::Ordering::SeqCst);
        if let Some(invite) = self.info.tokens.invite.as_ref() {
            if open && invite.open && !claimed && !self.seats[invite.seat].ever {
                summary["join"] = json!({"seat": invite.seat,
                    "link": format!("/i/{}?c={}", self.info.id, invite.code)});
            }
        }
        *self.summary.lock().unwrap_or_else(|e| e.into_inner()) = summary;
    }

    /// Refreshes the summary's count of moves alone: all a step that does
    /// not end the match can change in it.
    pub(super) fn update_moves(&self) {
        let moves = self.moves();
        if let Some(summary) = self
            .summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_object_mut()
        {
            summary.insert("moves".into(), moves.into());
        }
    }

    /// The lobby's count of moves: the record's entries once the match is
    /// over; while it is played, the changes a spectator has seen, which
    /// tells nothing the rules hide (an action under a cover, say).
    fn moves(&self) -> u64 {
        if self.m.is_over() {
            self.m.record().actions.len() as u64
        } else {
            self.shown.seq(Viewer::Spectator)
        }
    }

    /// `seat` hands its opponent, absent past the grace period, to a bot.
    pub(super) async fn takeover(&mut self, seat: Seat, conn: u64) {
        if let Some(why) = self.takeover_refusal(seat.other()) {
            self.send_to(conn, messages::error("takeover", &why));
            return;
        }
        let other = seat.other();
        let name = ["hard", "medium", "easy"]
            .into_iter()
            .find(|level| umpire_catalog::make_bot(self.info.game.id(), level).is_ok())
            .unwrap_or("random");
        let bot = SeatKind::Bot {
            bot: name.to_string(),
        };
        let mut seats = PerSeat::from_fn(|s| self.seats[s].kind.clone());
        seats[other] = bot.clone();
        let op = Op::Seats {
            id: self.info.id.clone(),
            seats,
        };
        if let Err(e) = self.store.write(op).await {
            tracing::error!(id = %self.info.id, "{e}");
            let text = messages::error("store", "the takeover could not be stored");
            self.send_to(conn, text);
            return;
        }
        tracing::info!(id = %self.info.id, seat = %other, bot = name, "seat handed to a bot");
        self.seats[other].kind = bot;
        self.seat_bot(other, name);
        self.start_if_ready();
        self.update_summary();
        self.broadcast();
        self.schedule_bots();
    }

    /// Why `other` may not be handed to a bot now, if it may not.
    fn takeover_refusal(&self, other: Seat) -> Option<String> {
        let slot = &self.seats[other];
        let grace = Duration::from_millis(self.config.grace_ms);
        if !self.info.takeover {
            Some("this match does not allow handing a seat to a bot".to_string())
        } else if self.m.is_over() {
            Some("the game is over".to_string())
        } else if slot.kind != SeatKind::Person {
            Some(format!("{other} is already played by a bot"))
        } else if slot.connected > 0 {
            Some(format!("{other} is connected"))
        } else if !slot.ever {
            // The countdown runs from a disconnection: an invited player who
            // has not opened the link yet keeps the seat.
            Some(format!(
                "{other} has not arrived yet: only a seat its player left can be handed to a bot"
            ))
        } else if slot.away_since.elapsed() < grace {
            let left = grace - slot.away_since.elapsed();
            Some(format!(
                "{other} has been away less than the grace period; try again in {} s",
                left.as_secs() + 1
            ))
        } else {
            None
        }
    }
}
