//! Bomb Domain's bots: strength where claimed, and no knowledge beyond
//! their seat's window.

use umpire_bomb_domain::{BombDomain, REGISTRATION};

umpire_core::bot_tests! {
    BombDomain, REGISTRATION;
    greedy_beats_random: wins("greedy", "random", 11, 12);
    /// The placements are simultaneous: decoupled selection there.
    search_beats_random: wins("search:100", "random", 4, 4);
    search_knows_only_its_seat_s_window: blind("search:30", 4);
}
