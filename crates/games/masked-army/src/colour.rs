//! The seats' colours: "The default colors are red and blue, although
//! players may choose any reasonable color."

use serde::{Deserialize, Serialize};
use umpire_core::{PerSeat, Seat};

/// A seat's colour, from the Okabe–Ito palette, whose colours stay apart
/// for colour-blind players; the seats' marks (`X`, `O`) differ as well,
/// so colour is never the only sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeatColour {
    Red,
    Blue,
    Orange,
    SkyBlue,
    Green,
    Yellow,
    Purple,
}

impl SeatColour {
    pub const ALL: [SeatColour; 7] = [
        SeatColour::Red,
        SeatColour::Blue,
        SeatColour::Orange,
        SeatColour::SkyBlue,
        SeatColour::Green,
        SeatColour::Yellow,
        SeatColour::Purple,
    ];

    /// The config values, as the lobby offers them.
    pub const KEYS: [&'static str; 7] = [
        "red", "blue", "orange", "sky-blue", "green", "yellow", "purple",
    ];

    /// The colour in words.
    pub fn name(self) -> &'static str {
        match self {
            SeatColour::Red => "red",
            SeatColour::Blue => "blue",
            SeatColour::Orange => "orange",
            SeatColour::SkyBlue => "sky blue",
            SeatColour::Green => "green",
            SeatColour::Yellow => "yellow",
            SeatColour::Purple => "purple",
        }
    }

    /// The ANSI foreground code a terminal draws it with.
    pub fn ansi(self) -> &'static str {
        match self {
            SeatColour::Red => "31",
            SeatColour::Blue => "34",
            SeatColour::Orange => "38;5;208",
            SeatColour::SkyBlue => "96",
            SeatColour::Green => "32",
            SeatColour::Yellow => "33",
            SeatColour::Purple => "35",
        }
    }
}

/// The rulebook's default colours: red for P1, blue for P2.
pub fn defaults() -> PerSeat<SeatColour> {
    PerSeat::new(SeatColour::Red, SeatColour::Blue)
}

/// A seat's mark on a terminal board.
pub fn mark(seat: Seat) -> char {
    match seat {
        Seat::P1 => 'X',
        Seat::P2 => 'O',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_are_the_config_values() {
        for (colour, key) in SeatColour::ALL.iter().zip(SeatColour::KEYS) {
            assert_eq!(serde_json::to_value(colour).unwrap(), key);
        }
    }
}
