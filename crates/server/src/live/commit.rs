//! Making applied entries durable before anyone hears of them; when the
//! store fails, going back to what it surely holds, then in step with it
//! once it answers, or stopping the match if even that cannot be done: a
//! match never runs ahead of its store.

use umpire_core::{Entry, Match, Seat, Viewer};

use super::actor::Actor;
use super::parts::Step;
use crate::messages;
use crate::shown::Shown;
use crate::store::Op;
use crate::wall::wall_ms;

impl Actor {
    /// Makes `entries` (already applied, one step) durable, then tells each
    /// viewer who sees a change, as `step.shown` counts it, and adds the
    /// step's line to the log. If the store fails, the match goes back to
    /// its last durable state; returns whether the entries are durable.
    pub(super) async fn commit(&mut self, entries: Vec<Entry>, step: Step) -> bool {
        let Step {
            shown,
            views,
            accepted,
            before: prior,
        } = step;
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
            if let crate::store::StoreError::Moved(_) = e {
                self.moved();
                return false;
            }
            tracing::error!(id = %self.info.id, "{e}; the match goes back to its last stored state");
            self.store_failed = Some(std::time::Instant::now());
            self.roll_back(first, accepted.map(|(mover, _)| mover))
                .await;
            return false;
        }
        self.store_failed = None;
        let before = std::mem::replace(&mut self.shown, shown);
        // The mover hears `accepted`, then its new state, in one write.
        let accepted = accepted.map(|(mover, action)| {
            let seq = self.shown.seq(mover);
            (mover, messages::accepted(&action, seq).into())
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
        // The step's line in the log goes out before the states it explains.
        self.journal_step(prior, &entries);
        let shown = self.shown.clone();
        self.send_states_after(
            |viewer| before.changed_for(&shown, viewer),
            accepted,
            Some(views),
        );
        if finished.is_some() {
            self.open_spectators_room();
        }
        self.show_bots();
        self.answered(entries.iter().map(|e| e.seat));
        self.schedule_bots();
        true
    }

    /// The write of the entries past the first `durable` failed: the match
    /// goes back to those in memory at once (so nobody is shown more than
    /// the store surely holds), `mover` is told, and it is brought in step
    /// with the store ([`Actor::resync`]).
    async fn roll_back(&mut self, durable: usize, mover: Option<Viewer>) {
        let unsure = self.m.record().actions[durable..].to_vec();
        match self.replayed(durable) {
            Ok(m) => self.m = m,
            Err(e) => return self.stop(&e),
        }
        if let Some(mover) = mover {
            let text = messages::error("store", "the action could not be stored; try again");
            self.send_to_viewer(mover, text);
        }
        self.out_of_step = Some(unsure);
        self.resync().await;
    }

    /// The match in memory with only its first `durable` entries.
    fn replayed(&self, durable: usize) -> Result<Match, String> {
        let mut record = self.m.record().clone();
        record.actions.truncate(durable);
        record.outcome = None;
        Match::replay(self.info.game, &record).map_err(|e| format!("its own first entries: {e}"))
    }

    /// Brings the match in step with the store after a failed write. The
    /// store holds the match's entries, and perhaps some of those whose
    /// write was reported failed (a commit whose answer was lost): the
    /// match moves on to what it holds, and everyone is told. While the
    /// store cannot be read the match waits, refusing actions, and this is
    /// tried again; if the store holds something else, the match stops.
    pub(super) async fn resync(&mut self) {
        let Some(unsure) = self.out_of_step.take() else {
            return;
        };
        let loaded = match self.store.load(&self.info.id).await {
            Ok(Some(loaded)) => loaded,
            Ok(None) => return self.stop("the match is no longer in the store"),
            Err(e) if e.is_retryable() => {
                tracing::debug!(id = %self.info.id, "{e}; the match waits for its store");
                self.store_failed = Some(std::time::Instant::now());
                self.out_of_step = Some(unsure);
                return;
            }
            Err(e) => return self.stop(&e.to_string()),
        };
        let ours = &self.m.record().actions;
        let (durable, stored) = (ours.len(), loaded.actions.len());
        let ahead = stored.checked_sub(durable).filter(|&n| n <= unsure.len());
        let agrees = ahead.is_some_and(|n| {
            loaded.actions[..durable] == ours[..] && loaded.actions[durable..] == unsure[..n]
        });
        if !agrees {
            return self.stop(&format!(
                "the store holds {stored} entries, which are not the {durable} accepted before"
            ));
        }
        if stored > durable {
            let record = loaded.row.record(loaded.actions);
            match Shown::replay(self.info.game, &record) {
                Ok((m, shown)) => {
                    self.m = m;
                    self.shown = shown;
                }
                Err(e) => return self.stop(&format!("the stored match: {e}")),
            }
            tracing::info!(id = %self.info.id, "the store had kept a write reported failed");
            if self.watchers.iter().any(|w| w.viewer == Viewer::Umpire)
                && !self.follow(Viewer::Umpire)
            {
                return;
            }
            self.update_summary();
            self.broadcast();
            self.rebuild_journal();
        }
        // A bot whose move was lost is asked again.
        self.schedule_bots();
    }

    /// Ends the match's task, because it can no longer be trusted to agree
    /// with the store. Every client is told and disconnected; the next
    /// request loads the match afresh from the store.
    pub(super) fn stop(&mut self, why: &str) {
        tracing::error!(id = %self.info.id, "{why}; the match stops");
        // Unfindable first: a client told to reconnect loads it afresh.
        self.leave_registry();
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
        self.stopped = true;
    }
}
