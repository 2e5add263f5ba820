//! Pentomino Wall's bots: strength where claimed, and no knowledge beyond
//! their seat's window.

use umpire_pentomino_wall::{PentominoWall, REGISTRATION};

umpire_core::bot_tests! {
    PentominoWall, REGISTRATION;
    greedy_beats_random: wins("greedy", "random", 18, 20);
    search_beats_greedy: wins("search:1000", "greedy", 2, 2);
    search_knows_only_its_seat_s_window: blind("search:30", 4);
}
