//! The match's chat ([`crate::chat`]): each line checked, paced, kept in
//! the store, then sent to those who may read its room; a newcomer gets the
//! lines it may read, and the players get the spectators' room at the end.

use std::time::Instant;

use umpire_core::Viewer;

use super::actor::Actor;
use super::parts::Talk;
use crate::chat::{self, ChatLine, MAX_LINES, Room};
use crate::messages;
use crate::store::Op;

impl Talk {
    pub(super) fn new(lines: Vec<ChatLine>) -> Talk {
        Talk {
            lines,
            ..Talk::default()
        }
    }

    /// The lines `viewer` may read.
    fn readable(&self, viewer: Viewer, over: bool) -> Vec<ChatLine> {
        (self.lines.iter())
            .filter(|l| chat::may_read(viewer, l.room, over))
            .cloned()
            .collect()
    }

    /// Who speaks for connection `conn` of `viewer`.
    fn speaker(&mut self, viewer: Viewer, conn: u64) -> String {
        match viewer {
            Viewer::Seat(seat) => seat.to_string(),
            Viewer::Umpire => "umpire".into(),
            Viewer::Spectator => {
                let next = self.spectators.len() + 1;
                format!("spectator {}", self.spectators.entry(conn).or_insert(next))
            }
        }
    }
}

impl Actor {
    /// `conn` (of `viewer`) says `text`.
    pub(super) async fn chat(&mut self, conn: u64, viewer: Viewer, text: &str) {
        let text = match chat::clean(text) {
            Ok(text) => text,
            Err(why) => return self.send_to(conn, messages::error("chat", &why)),
        };
        if self.talk.lines.len() >= MAX_LINES {
            let why = format!("this match's chat is full ({MAX_LINES} lines)");
            return self.send_to(conn, messages::error("chat", &why));
        }
        let by = self.talk.speaker(viewer, conn);
        if let Err(wait) = self.talk.pace.take(&by, Instant::now()) {
            let why = format!(
                "too many lines at once: wait {} s",
                wait.as_secs_f64().ceil().max(1.0)
            );
            return self.send_to(conn, messages::error("chat", &why));
        }
        let line = ChatLine {
            room: Room::of(viewer),
            by,
            at_ms: self.now(),
            text,
        };
        let op = Op::Chat {
            id: self.info.id.clone(),
            line: line.clone(),
        };
        if let Err(e) = self.store.write(op).await {
            tracing::error!(id = %self.info.id, "{e}; a chat line was not kept");
            let why = "the line could not be kept; try again";
            return self.send_to(conn, messages::error("chat", why));
        }
        self.talk.lines.push(line.clone());
        let over = self.m.is_over();
        let text = messages::chat(std::slice::from_ref(&line), false);
        let to: Vec<u64> = (self.watchers.iter())
            .filter(|w| chat::may_read(w.viewer, line.room, over))
            .map(|w| w.conn)
            .collect();
        for conn in to {
            self.send_to(conn, text.clone());
        }
    }

    /// The chat `viewer` may read, for its new connection `conn`.
    pub(super) fn send_chat_history(&mut self, conn: u64, viewer: Viewer) {
        let lines = self.talk.readable(viewer, self.m.is_over());
        self.send_to(conn, messages::chat(&lines, true));
    }

    /// The match is over: the players may read the spectators' room now.
    pub(super) fn open_spectators_room(&mut self) {
        for seat in umpire_core::Seat::BOTH {
            let lines = self.talk.readable(Viewer::Seat(seat), true);
            self.send_to_viewer(Viewer::Seat(seat), messages::chat(&lines, true));
        }
    }
}
