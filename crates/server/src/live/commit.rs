//! Making applied entries durable before anyone hears of them; when the
//! store fails, going back to what it holds, or stopping the match if even
//! that cannot be done: a match never runs ahead of its store.

use umpire_core::{Entry, Match, Seat, Viewer};

use super::actor::Actor;
use super::wall_ms;
use crate::messages;
use crate::shown::{Shown, Views};
use crate::store::Op;

impl Actor {
    /// Makes `entries` (already applied, one step) durable, then tells each
    /// viewer who sees a change, as `shown` counts it (`views` are the
    /// views `shown` was counted from). If the store fails,
    /// the match goes back to its last durable state; returns whether the
    /// entries are durable.
    pub(super) async fn commit(
        &mut self,
        entries: Vec<Entry>,
        shown: Shown,
        views: Views,
        accepted: Option<(Seat, String)>,
    ) -> bool {
        let moves = self.m.record().actions.len();
        let first = moves - entries.len();
        let finished = self
            .m
            .outcome()
            .filter(|_| self.m.is_over())
            .map(|o| (o, wall_ms()));
        let op = Op::Append {
            id: self.info.id.clone(),
            first,
            entries: entries.clone(),
            finished: finished.clone(),
        };
        if let Err(e) = self.store.write(op).await {
            tracing::error!(id = %self.info.id, "{e}; the match goes back to its last stored state");
            self.store_failed = Some(std::time::Instant::now());
            self.roll_back(first, accepted.map(|(seat, _)| seat)).await;
            return false;
        }
        self.store_failed = None;
        let before = std::mem::replace(&mut self.shown, shown);
        // The mover hears `accepted`, then its new state, in one write.
        let accepted = accepted.map(|(seat, action)| {
            let seq = self.shown.seq(Viewer::Seat(seat));
            (seat, messages::accepted(&action, seq).into())
        });
        if let Some((outcome, _)) = &finished {
            tracing::info!(id = %self.info.id, game = self.info.game.id(), moves,
                decided_by = %outcome.decided_by, "match finished");
        }
        // The lobby first: whoever hears of the move and asks the lobby
        // finds it counted.
        if finished.is_some() {
            self.update_summary();
        } else {
            self.update_moves();
        }
        let shown = self.shown.clone();
        self.send_states_after(
            |viewer| before.changed_for(&shown, viewer),
            accepted,
            Some(views),
        );
        self.show_bots();
        self.answered(entries.iter().map(|e| e.seat));
        self.schedule_bots();
        true
    }

    /// Goes back to the match as the store holds it, with its first
    /// `durable` entries, and tells `mover` its action was not stored. If
    /// that state cannot be restored, the match stops.
    async fn roll_back(&mut self, durable: usize, mover: Option<Seat>) {
        match self.restore(durable).await {
            Ok(m) => self.m = m,
            Err(e) => return self.stop(&e),
        }
        if let Some(seat) = mover {
            let text = messages::error("store", "the action could not be stored; try again");
            self.send_to_seat(seat, text);
        }
        // A bot whose move was lost is asked again.
        self.schedule_bots();
    }

    /// The match as the store holds it, which must be the first `durable`
    /// entries of the one in memory.
    async fn restore(&mut self, durable: usize) -> Result<Match, String> {
        let loaded = self
            .store
            .load(&self.info.id)
            .await?
            .ok_or("the match is no longer in the store")?;
        let ours = &self.m.record().actions;
        if loaded.actions.len() != durable || loaded.actions[..] != ours[..durable] {
            return Err(format!(
                "the store holds {} entries, not the {durable} accepted before",
                loaded.actions.len()
            ));
        }
        let record = loaded.row.record(loaded.actions);
        Match::replay(self.info.game, &record).map_err(|e| format!("the stored match: {e}"))
    }

    /// Ends the match's task, because it can no longer be trusted to agree
    /// with the store. Every client is told and disconnected; the next
    /// request loads the match afresh from the store.
    pub(super) fn stop(&mut self, why: &str) {
        tracing::error!(id = %self.info.id, "{why}; the match stops");
        let text = messages::error(
            "server",
            "the match stopped: it could not be brought back to its stored state; reconnect to resume it",
        );
        for w in std::mem::take(&mut self.watchers) {
            w.send(text.clone());
        }
        for seat in Seat::BOTH {
            self.stop_bot(seat);
        }
        self.leave_registry();
        self.stopped = true;
    }
}
