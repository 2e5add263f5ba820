//! A client let in to a match: the match's handle, who it is, its
//! connection's number and where its frames go.

use std::sync::Arc;

use umpire_core::Viewer;

use crate::live::{Cmd, Handle};
use crate::outbox::{Deliver, Outgoing};

/// A client let in to a match (its socket here, or on another node that
/// relays it).
pub struct Admitted {
    pub handle: Handle,
    pub viewer: Viewer,
    pub conn: u64,
    /// Its outgoing frames; answers that need no match go here too.
    pub outbox: Arc<dyn Deliver>,
}

impl Admitted {
    /// Answers the client directly. A client that cannot take it is not
    /// reading: dropping is fine.
    pub fn reply(&self, text: String) {
        self.outbox.send(Outgoing::from(text));
    }

    /// Tells the match the client left.
    pub async fn leave(&self) {
        let _ = self.handle.tx.send(Cmd::Leave { conn: self.conn }).await;
    }
}
