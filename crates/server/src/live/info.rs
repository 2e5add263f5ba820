//! What does not change during a match, and who holds which token.

use umpire_core::{AnyGame, Seat, Viewer};

use crate::store::Tokens;
use crate::tokens;

/// What does not change during a match.
pub struct Info {
    pub id: String,
    pub game: &'static dyn AnyGame,
    pub tokens: Tokens,
    pub takeover: bool,
    pub created_ms: u64,
    /// The hidden options a host set (their labels): players are told.
    pub fixed: Vec<&'static str>,
    /// The epoch this node runs the match in (0 for a lone node): every
    /// write of it carries it.
    pub epoch: u64,
    /// The address that created it, while this server runs.
    pub from: Option<std::net::IpAddr>,
    /// Both seats were bots from the start.
    pub bots_only: bool,
    /// A host runs it (docs/hosting.md).
    pub hosted: bool,
    /// The audience may watch while it is played.
    pub audience: bool,
    /// Whether the invite (if any) was claimed: set once, by the first
    /// opener, before the store hears of it.
    pub claimed: std::sync::atomic::AtomicBool,
}

impl Info {
    /// Who holds `token`: no token is a spectator; a wrong token is nobody.
    pub fn viewer(&self, token: Option<&str>) -> Option<Viewer> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return Some(Viewer::Spectator);
        };
        // Check every secret, so the time taken says nothing about which matched.
        let mut found = None;
        for seat in Seat::BOTH {
            if tokens::same(token, &self.tokens.seats[seat]) {
                found = Some(Viewer::Seat(seat));
            }
        }
        if tokens::same(token, &self.tokens.umpire) {
            found = Some(Viewer::Umpire);
        }
        found
    }
}
