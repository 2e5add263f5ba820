//! Bot seats: each bot is shown every state its seat sees, thinks on the
//! bots' threads ([`crate::pool`]) when its seat must act, and answers
//! with a command. A bot out of time (its budget, or its clock), or naming
//! an illegal action, plays a random legal one.

use std::time::{Duration, Instant};

use umpire_core::{Bot, Think};
use umpire_core::{MatchRng, Seat, SeatView, Viewer, seeded_rng};

use super::actor::{Actor, Source};
use super::handle::Cmd;
use super::parts::BotSlot;
use crate::pool::Priority;
use crate::store::SeatKind;

/// Observations a bot keeps queued while it is not asked to move.
const MAX_PENDING: usize = 256;
/// A bot answers this long before its turn time runs out, so that its move
/// is in before the turn ends whatever the load.
const CLOCK_MARGIN_MS: u64 = 250;
/// A bot is told to stop this long before its seat falls back to a random
/// action, so that one that thinks to the end of its time (the expert's
/// 2 s is the server's whole budget) still has its answer taken.
const ANSWER_GRACE: Duration = Duration::from_millis(100);

impl Actor {
    /// Puts a bot in `seat`.
    pub(super) fn seat_bot(&mut self, seat: Seat, name: &str) {
        // A bot stored under a name this build no longer has plays randomly;
        // an expert, the level turned off since, plays at hard.
        let game = self.info.game.id();
        let instead = match umpire_catalog::level_of(game, name) {
            Some(umpire_core::Level::Expert) => "hard",
            _ => "random",
        };
        let bot = self
            .config
            .make_bot(game, name)
            .or_else(|_| self.config.make_bot(game, instead));
        if let Ok(bot) = bot {
            self.seats[seat].bot = Some(BotSlot {
                bot: Some(bot),
                rng: Some(Box::new(seeded_rng(rand::random()))),
                pending: vec![self.m.state().clone_box()],
                want: None,
                job: None,
            });
        }
    }

    /// The earliest time a thinking bot runs out of time.
    pub(super) fn bot_deadline(&self) -> Option<Instant> {
        Seat::BOTH
            .into_iter()
            .filter_map(|s| self.seats[s].bot.as_ref()?.thinking_until())
            .min()
    }

    /// Bots over their budget play a random legal action instead.
    pub(super) async fn fallback_late_bots(&mut self) {
        for seat in Seat::BOTH {
            let late = self.seats[seat]
                .bot
                .as_ref()
                .and_then(BotSlot::thinking_until)
                .is_some_and(|by| by <= Instant::now());
            if late {
                tracing::debug!(id = %self.info.id, %seat, "bot over its time budget");
                self.fallback(seat).await;
            }
        }
    }

    /// Stops `seat`'s bot thinking, if it is.
    pub(super) fn stop_bot(&mut self, seat: Seat) {
        if let Some(BotSlot {
            job: Some((_, think)),
            ..
        }) = &self.seats[seat].bot
        {
            think.stop();
        }
    }

    /// Queues the current state for every bot to observe.
    pub(super) fn show_bots(&mut self) {
        if self.m.is_over() {
            return;
        }
        for seat in Seat::BOTH {
            if let Some(bot) = &mut self.seats[seat].bot {
                if bot.pending.len() >= MAX_PENDING {
                    bot.pending.remove(0);
                }
                bot.pending.push(self.m.state().clone_box());
            }
        }
    }

    /// The bots of these seats have their answer: their seats acted.
    pub(super) fn answered(&mut self, seats: impl IntoIterator<Item = Seat>) {
        for seat in seats {
            if let Some(bot) = &mut self.seats[seat].bot {
                bot.want = None;
            }
        }
    }

    /// Starts each bot that must act and is not yet thinking; stops those
    /// whose question went away.
    pub(super) fn schedule_bots(&mut self) {
        if !self.is_playing() || self.out_of_step.is_some() {
            return;
        }
        let decision = self.m.decision();
        let seq = self.m.record().actions.len();
        let (pace, budget) = self.bot_timing();
        for seat in Seat::BOTH {
            let Some(slot) = &self.seats[seat].bot else {
                continue;
            };
            if !decision.seats().contains(seat) {
                // The question it is thinking about is gone.
                self.stop_bot(seat);
                self.answered([seat]);
                continue;
            }
            let (tag, deadline) = match slot.want {
                Some(want) => want,
                None => {
                    let by = Instant::now() + budget;
                    let want = (seq, self.clock_limit(seat).map_or(by, |at| by.min(at)));
                    if let Some(slot) = &mut self.seats[seat].bot {
                        slot.want = Some(want);
                    }
                    want
                }
            };
            if self.seats[seat]
                .bot
                .as_ref()
                .is_some_and(|s| s.job.is_none())
            {
                let stop_by = deadline.checked_sub(ANSWER_GRACE).unwrap_or(deadline);
                self.think(seat, tag, Think::until(stop_by), pace);
            }
        }
    }

    /// When `seat`'s bot must answer so as to keep within its clock: before
    /// its turn time ends, or, with the turn time spent, within a tenth of
    /// what overtime it has left; `None` if its clock does not run.
    fn clock_limit(&self, seat: Seat) -> Option<Instant> {
        let now = self.now();
        let clock = self.m.clocks(Viewer::Seat(seat), now)?[seat];
        if !clock.running {
            return None;
        }
        let spare = if clock.turn_ms > CLOCK_MARGIN_MS {
            clock.turn_ms - CLOCK_MARGIN_MS
        } else if clock.overtime {
            let periods = u64::from(clock.periods).saturating_mul(clock.period_ms);
            clock.bank_ms.saturating_add(periods) / 10
        } else {
            0
        };
        Some(self.at(now.saturating_add(spare)))
    }

    /// The pause before a bot's move and its whole time for it: two bots
    /// wait a moment before each move, so people can watch them.
    fn bot_timing(&self) -> (Duration, Duration) {
        let both_bots = Seat::BOTH.iter().all(|&s| self.seats[s].bot.is_some());
        let pace = Duration::from_millis(if both_bots {
            self.config.bot_pace_ms
        } else {
            0
        });
        (
            pace,
            pace + Duration::from_millis(self.config.bot_budget_ms),
        )
    }

    /// Hands `seat`'s bot what it has not seen yet and lets it choose on a
    /// blocking thread, after `pace`; its answer comes back as a command.
    fn think(&mut self, seat: Seat, tag: usize, think: Think, pace: Duration) {
        let state = self.m.state().clone_box();
        let Some(me) = self.me.upgrade() else {
            return;
        };
        let Some(slot) = &mut self.seats[seat].bot else {
            return;
        };
        let (Some(mut bot), Some(mut rng)) = (slot.bot.take(), slot.rng.take()) else {
            return;
        };
        slot.job = Some((tag, think.clone()));
        let pending = std::mem::take(&mut slot.pending);
        let bots = self.bots.clone();
        // A person waiting for a bot's move comes before bots between bots.
        let priority = if Seat::BOTH
            .iter()
            .any(|&s| self.seats[s].kind == SeatKind::Person)
        {
            Priority::First
        } else {
            Priority::Later
        };
        let work = move || {
            // A bot that panics loses only its move: a random one is played.
            let choice = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                for s in &pending {
                    bot.observe(SeatView::new(&**s, seat));
                }
                bot.choose(SeatView::new(&*state, seat), &think, &mut rng)
            }));
            Cmd::BotDone {
                seat,
                tag,
                bot,
                rng,
                action: choice.ok().flatten(),
            }
        };
        tokio::spawn(async move {
            if !pace.is_zero() {
                tokio::time::sleep(pace).await;
            }
            // On the bots' own threads: a slow bot never blocks I/O, and
            // many bots never crowd out people's matches.
            if let Ok(done) = bots.run(priority, work).await {
                let _ = me.send(done).await;
            }
        });
    }

    /// A bot's answer came back.
    pub(super) async fn bot_done(
        &mut self,
        seat: Seat,
        tag: usize,
        bot: Box<dyn Bot>,
        rng: Box<MatchRng>,
        action: Option<String>,
    ) {
        let Some(slot) = &mut self.seats[seat].bot else {
            return;
        };
        slot.bot = Some(bot);
        slot.rng = Some(rng);
        slot.job = None;
        let current = slot.want.is_some_and(|(t, _)| t == tag);
        if !current {
            // A late answer to an old question: ask again if needed.
            self.schedule_bots();
            return;
        }
        match action {
            Some(action) => self.act(seat, &action, Source::Bot, Instant::now()).await,
            None => self.fallback(seat).await,
        }
    }

    /// Plays a random legal action for a bot seat.
    pub(super) async fn fallback(&mut self, seat: Seat) {
        if let Some(slot) = &mut self.seats[seat].bot {
            slot.want = None;
        }
        let action = SeatView::new(self.m.state(), seat).sample_action(&mut self.rng);
        if let Some(action) = action {
            // A random legal action cannot be refused, so this cannot loop.
            Box::pin(self.act(seat, &action, Source::Fallback, Instant::now())).await;
        }
    }
}
