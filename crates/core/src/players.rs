//! Who plays each seat, by name: the names a host gives the two players,
//! checked, and the game's words said with them.
//!
//! ```
//! use umpire_core::{PerSeat, Player, named};
//!
//! let seats = PerSeat::new(Player::named("Ada").unwrap(), Player::default());
//! // Outside backticks P1 becomes the name; notation keeps its words.
//! assert_eq!(
//!     named("P1 resigned; P2 wins. Write `first P1`.", &seats),
//!     "Ada resigned; P2 wins. Write `first P1`."
//! );
//! assert!(Player::named("Ada\u{7}").is_err());
//! ```

use serde::{Deserialize, Serialize};

use crate::{PerSeat, Seat};

/// The longest name, in characters.
pub const MAX_NAME: usize = 32;

/// A seat's player as the record keeps it: a display name, if given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Player {
    /// A player called `name` (spaces around it dropped), if it is a
    /// name: 1 to [`MAX_NAME`] characters, no control characters, no
    /// backticks (they mark notation in the game's words).
    pub fn named(name: &str) -> Result<Player, String> {
        let name = name.trim();
        let length = name.chars().count();
        if length == 0 {
            return Err("a name cannot be empty".into());
        }
        if length > MAX_NAME {
            return Err(format!(
                "a name has at most {MAX_NAME} characters; this one has {length}"
            ));
        }
        if let Some(c) = name.chars().find(|c| c.is_control()) {
            return Err(format!(
                "a name cannot hold control characters (it holds U+{:04X})",
                c as u32
            ));
        }
        if name.contains('`') {
            return Err("a name cannot hold a backtick (`)".into());
        }
        if Seat::BOTH
            .iter()
            .any(|s| s.as_str().eq_ignore_ascii_case(name))
        {
            return Err(format!(
                "`{name}` is a seat, not a name: leave the name out instead"
            ));
        }
        Ok(Player {
            name: Some(name.to_string()),
        })
    }
}

/// Checks both seats' players: each name as [`Player::named`] wants it,
/// and two names told apart. Says which seat is wrong.
pub fn check_players(seats: &PerSeat<Player>) -> Result<(), String> {
    for seat in Seat::BOTH {
        if let Some(name) = &seats[seat].name {
            let checked = Player::named(name).map_err(|why| format!("{seat}'s name: {why}"))?;
            if checked.name.as_deref() != Some(name) {
                return Err(format!(
                    "{seat}'s name has spaces around it: `{}`",
                    name.escape_debug()
                ));
            }
        }
    }
    if let (Some(a), Some(b)) = (&seats.p1.name, &seats.p2.name) {
        if a.to_lowercase() == b.to_lowercase() {
            return Err(format!(
                "both seats are called `{a}`: give the players different names"
            ));
        }
    }
    Ok(())
}

/// How `seat` is called: its name, or `P1` / `P2`.
pub fn seat_name(seats: &PerSeat<Player>, seat: Seat) -> &str {
    seats[seat].name.as_deref().unwrap_or(seat.as_str())
}

/// The game's words with each seat (`P1`, `P2` as a whole word) called by
/// its name, outside backticks: an action in notation is written as it is
/// typed, so `first P1` stays.
pub fn named(text: &str, seats: &PerSeat<Player>) -> String {
    if seats.p1.name.is_none() && seats.p2.name.is_none() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(part);
        } else {
            name_words(part, seats, &mut out);
        }
    }
    out
}

/// `part` onto `out`, each whole-word `P1` and `P2` replaced by its name.
fn name_words(part: &str, seats: &PerSeat<Player>, out: &mut String) {
    let bytes = part.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut from = 0;
    let mut i = 0;
    while i + 1 < bytes.len() {
        let seat = match &bytes[i..i + 2] {
            b"P1" => Some(Seat::P1),
            b"P2" => Some(Seat::P2),
            _ => None,
        };
        let alone = (i == 0 || !word(bytes[i - 1])) && bytes.get(i + 2).is_none_or(|&b| !word(b));
        match seat {
            Some(seat) if alone => {
                out.push_str(&part[from..i]);
                out.push_str(seat_name(seats, seat));
                i += 2;
                from = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&part[from..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats(a: &str, b: &str) -> PerSeat<Player> {
        PerSeat::new(Player::named(a).unwrap(), Player::named(b).unwrap())
    }

    #[test]
    fn names_are_checked_for_length_control_characters_and_seats() {
        assert_eq!(
            Player::named("  Ada  ").unwrap().name.as_deref(),
            Some("Ada")
        );
        assert!(Player::named("").unwrap_err().contains("empty"));
        assert!(Player::named(&"x".repeat(33)).unwrap_err().contains("33"));
        assert!(Player::named(&"é".repeat(32)).is_ok());
        assert!(Player::named("a\u{1b}[2J").unwrap_err().contains("U+001B"));
        assert!(Player::named("a\u{85}b").unwrap_err().contains("U+0085"));
        assert!(Player::named("p2").unwrap_err().contains("seat"));
        assert!(Player::named("`x`").unwrap_err().contains("backtick"));
        let same = seats("Ada", "ada");
        assert!(
            check_players(&same)
                .unwrap_err()
                .contains("different names")
        );
        let spaced = PerSeat::new(
            Player {
                name: Some(" Ada".into()),
            },
            Player::default(),
        );
        assert!(check_players(&spaced).unwrap_err().contains("P1's name"));
    }

    #[test]
    fn only_whole_seat_words_outside_backticks_are_named() {
        let s = seats("Ada", "Bo");
        assert_eq!(named("P1 and P2", &s), "Ada and Bo");
        assert_eq!(named("P12, xP1, P1's", &s), "P12, xP1, Ada's");
        assert_eq!(named("`first P2` (P2)", &s), "`first P2` (Bo)");
        assert_eq!(named("cells: P1 3, P2 5\n", &s), "cells: Ada 3, Bo 5\n");
        assert_eq!(named("P1", &PerSeat::default()), "P1");
        // Words in other scripts around them are kept whole.
        assert_eq!(named("é P2 é", &s), "é Bo é");
    }
}
