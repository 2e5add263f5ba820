//! What Flower Domain's tests and benchmarks start from: the study and a
//! draft, and the board's eight symmetries.
#![allow(dead_code)]

use umpire_core::Seat;

/// The study and a draft: P1 drafts first, takes red and so moves first;
/// P2 takes blue and green.
pub const DRAFT: [(Seat, &str); 6] = draft("red", ["blue", "green"]);

/// The study, then a draft in which P1 drafts first and picks `p1`, and
/// P2 picks the two colours `p2`.
pub const fn draft(p1: &'static str, p2: [&'static str; 2]) -> [(Seat, &'static str); 6] {
    [
        (Seat::P1, "ready"),
        (Seat::P2, "ready"),
        (Seat::P1, "first P1"),
        (Seat::P1, p1),
        (Seat::P2, p2[0]),
        (Seat::P2, p2[1]),
    ]
}

/// The eight turns and flips of the board, each as the matrix `[a, b, c,
/// d]` taking `(x, y)` to `(a x + b y, c x + d y)`.
pub const TURNS: [[i32; 4]; 8] = [
    [1, 0, 0, 1],
    [0, -1, 1, 0],
    [-1, 0, 0, -1],
    [0, 1, -1, 0],
    [-1, 0, 0, 1],
    [1, 0, 0, -1],
    [0, 1, 1, 0],
    [0, -1, -1, 0],
];
