//! The browser board computes orientations and re-orientation steps in
//! JavaScript (web/games/pentomino-wall/rules.js). Both sides check the same
//! fixture, so they cannot drift apart: this test that the engine agrees
//! with it, the board's unit test (e2e/tests/pentomino-wall-unit.test.js)
//! that the board does.

use umpire_pentomino_wall::{Orientation, Piece, SUFFIXES};

/// `C name cells…` for each orientation, `S from to steps steps-with-anticlockwise`
/// for each pair, `N any-name canonical-name` for each of the eight names.
fn fixture() -> String {
    let mut out = String::new();
    for p in Piece::ALL {
        for o in p.orientations() {
            let cells: Vec<String> = o.cells().iter().map(|(x, y)| format!("{x},{y}")).collect();
            out += &format!("C {o} {}\n", cells.join(" "));
            for q in p.orientations() {
                out += &format!(
                    "S {o} {q} {} {}\n",
                    o.steps_to(q, false),
                    o.steps_to(q, true)
                );
            }
        }
        for (sym, suffix) in SUFFIXES.iter().enumerate() {
            out += &format!("N {p}{suffix} {}\n", Orientation::new(p, sym as u8));
        }
    }
    out
}

#[test]
fn the_boards_fixture_matches_the_engine() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../e2e/tests/fixtures/pentomino-wall-orientations.txt"
    );
    let stored = std::fs::read_to_string(path).expect("the fixture");
    assert!(
        stored == fixture(),
        "the engine's orientations changed: rewrite {path} from this test's fixture()"
    );
}
