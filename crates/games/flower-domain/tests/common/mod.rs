//! What Flower Domain's tests and benchmarks start from: the study and a
//! draft, and the board's eight symmetries.
#![allow(dead_code)]

use umpire_core::Seat;

/// The study and a draft: P1 drafts first, takes red and so moves first;
/// P2 takes blue and green.
pub const DRAFT: [(Seat, &str); 6] = [
    (Seat::P1, "ready"),
    (Seat::P2, "ready"),
    (Seat::P1, "first P1"),
    (Seat::P1, "red"),
    (Seat::P2, "blue"),
    (Seat::P2, "green"),
];

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
