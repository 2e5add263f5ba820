//! Chat beside a match: the players' room and the spectators' room.
//!
//! The two players talk in the players' room, which everyone watching may
//! read. Spectators talk in a room of their own that the players do not see
//! while the match is played (as on lichess), so nobody can be helped from
//! the stands; once it is over they see it too. The umpire's link reads
//! both and speaks in the players' room. Every line is kept with the match
//! (written to the store before anyone hears of it) and shown in the
//! replay.
//!
//! A line is plain text: at most [`MAX_CHARS`] characters, without control
//! characters, never empty; the pages show it as text, never as markup. A
//! speaker may say [`BURST`] lines at once and one more every
//! [`REFILL_MS`] after that; a match keeps at most [`MAX_LINES`].
//!
//! ```
//! use umpire_core::{Seat, Viewer};
//! use umpire_server::chat::{Room, clean, may_read};
//!
//! assert_eq!(clean("  good game \u{7} "), Ok("good game".to_string()));
//! assert!(clean("   ").is_err());
//! assert!(may_read(Viewer::Spectator, Room::Players, false));
//! assert!(!may_read(Viewer::Seat(Seat::P1), Room::Spectators, false));
//! assert!(may_read(Viewer::Seat(Seat::P1), Room::Spectators, true));
//! ```

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use umpire_core::Viewer;

/// The longest line, in characters.
pub const MAX_CHARS: usize = 300;
/// Lines one speaker may say at once.
pub const BURST: u32 = 5;
/// After a burst, one more line this often.
pub const REFILL_MS: u64 = 2_000;
/// Lines a match keeps at most.
pub const MAX_LINES: usize = 1_000;

/// Where a line is said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    Players,
    Spectators,
}

impl Room {
    /// The room `viewer` speaks in.
    pub fn of(viewer: Viewer) -> Room {
        match viewer {
            Viewer::Spectator => Room::Spectators,
            _ => Room::Players,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }
}

impl std::str::FromStr for Room {
    type Err = String;

    fn from_str(text: &str) -> Result<Room, String> {
        match text {
            "players" => Ok(Room::Players),
            "spectators" => Ok(Room::Spectators),
            other => Err(format!("no chat room `{other}`")),
        }
    }
}

/// One line of chat as kept with its match: where it was said, by whom
/// (`P1`, `P2`, `umpire`, or `spectator N`), when (match time, as the
/// record's entries count it) and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    pub room: Room,
    pub by: String,
    pub at_ms: u64,
    pub text: String,
}

/// Whether `viewer` may read `room`'s lines; `over` once the match is over.
pub fn may_read(viewer: Viewer, room: Room, over: bool) -> bool {
    match (room, viewer) {
        (Room::Players, _) => true,
        (Room::Spectators, Viewer::Seat(_)) => over,
        (Room::Spectators, _) => true,
    }
}

/// A line as said, cleaned: control characters dropped, spaces at the
/// ends trimmed; or why it cannot be said.
pub fn clean(text: &str) -> Result<String, String> {
    let kept: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\t' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    let kept = kept.trim();
    if kept.is_empty() {
        return Err("an empty line is not sent".into());
    }
    let n = kept.chars().count();
    if n > MAX_CHARS {
        return Err(format!(
            "a line has at most {MAX_CHARS} characters (this one has {n})"
        ));
    }
    Ok(kept.to_string())
}

/// Who may speak when: a token bucket per speaker.
#[derive(Default)]
pub struct Pace {
    speakers: HashMap<String, (f64, Instant)>,
}

impl Pace {
    /// Takes a turn for `speaker` at `now`, or says how long to wait.
    pub fn take(&mut self, speaker: &str, now: Instant) -> Result<(), Duration> {
        let refill = Duration::from_millis(REFILL_MS);
        let (tokens, at) = self
            .speakers
            .entry(speaker.to_string())
            .or_insert((f64::from(BURST), now));
        let earned = now.saturating_duration_since(*at).as_secs_f64() / refill.as_secs_f64();
        *tokens = (*tokens + earned).min(f64::from(BURST));
        *at = now;
        if *tokens < 1.0 {
            return Err(refill.mul_f64(1.0 - *tokens));
        }
        *tokens -= 1.0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use umpire_core::Seat;

    use super::*;

    #[test]
    fn a_line_is_trimmed_text_of_at_most_300_characters() {
        assert_eq!(clean(" <b>hi</b>\n there "), Ok("<b>hi</b>  there".into()));
        assert_eq!(
            clean(&"é".repeat(MAX_CHARS)).map(|t| t.chars().count()),
            Ok(300)
        );
        let long = clean(&"a".repeat(MAX_CHARS + 1)).unwrap_err();
        assert_eq!(long, "a line has at most 300 characters (this one has 301)");
        assert_eq!(
            clean("\u{0}\u{1b}\r"),
            Err("an empty line is not sent".into())
        );
    }

    #[test]
    fn players_never_read_the_spectators_room_before_the_end() {
        let seat = Viewer::Seat(Seat::P2);
        assert_eq!(Room::of(seat), Room::Players);
        assert_eq!(Room::of(Viewer::Umpire), Room::Players);
        assert_eq!(Room::of(Viewer::Spectator), Room::Spectators);
        for over in [false, true] {
            assert!(may_read(seat, Room::Players, over));
            assert!(may_read(Viewer::Spectator, Room::Spectators, over));
            assert!(may_read(Viewer::Umpire, Room::Spectators, over));
        }
        assert!(!may_read(seat, Room::Spectators, false));
        assert!(may_read(seat, Room::Spectators, true));
    }

    #[test]
    fn a_speaker_says_five_lines_at_once_then_one_every_two_seconds() {
        let mut pace = Pace::default();
        let t0 = Instant::now();
        for _ in 0..BURST {
            assert_eq!(pace.take("P1", t0), Ok(()));
        }
        let wait = pace.take("P1", t0).unwrap_err();
        assert_eq!(wait, Duration::from_millis(REFILL_MS));
        // Another speaker is not slowed down.
        assert_eq!(pace.take("spectator 1", t0), Ok(()));
        let later = t0 + Duration::from_millis(REFILL_MS);
        assert_eq!(pace.take("P1", later), Ok(()));
        assert!(pace.take("P1", later).is_err());
    }
}
