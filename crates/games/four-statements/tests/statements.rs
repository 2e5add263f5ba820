//! The statement language through its public API: the rulebook's examples,
//! the validity rules, parse errors, variants, and properties.

use proptest::prelude::*;
use rand::SeedableRng;
use umpire_four_statements::grid::{CellSet, Colour, Grid};
use umpire_four_statements::statement::{
    Adjacency, Atom, Comparison, Count, Invalid, Line, Literal, MAX_WORDS, Position, Quantifier,
    Refusal, Statement, judge, random,
};

fn set(text: &str) -> CellSet {
    CellSet::parse(text).unwrap()
}

fn st(text: &str) -> Statement {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} does not parse: {e:?}"))
}

fn refused_rule(text: &str, subset: &str) -> &'static str {
    match judge(text, set(subset)) {
        Ok(s) => panic!("{text:?} accepted as {s}"),
        Err(e) => e.rule(),
    }
}

fn grid(text: &str) -> Grid {
    Grid::parse(text).unwrap()
}

// ---------------------------------------------------------------- rulebook

#[test]
fn rulebook_valid_examples() {
    let block = "A1 B1 A2 B2";
    for (text, canonical) in [
        ("There are two red tiles.", "At least two tiles are red."),
        (
            "Exactly three tiles are red or two tiles are blue.",
            "Exactly three tiles are red or at least two tiles are blue.",
        ),
        (
            "There is a blue tile orthogonally adjacent to a green tile.",
            "A blue tile is orthogonally adjacent to a green tile.",
        ),
        (
            "There is a 2x2 square with one red tile.",
            "Some 2x2 square has a red tile.",
        ),
    ] {
        let s = judge(text, set(block)).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(s.to_string(), canonical);
        assert_eq!(st(canonical), s);
        assert!(s.check(set("A1 B1 C1 A2 B2 C2")).is_ok());
    }
}

#[test]
fn rulebook_meanings() {
    let block = set("A1 B1 A2 B2");
    // "two" means at least two.
    let two_red = st("There are two red tiles.");
    assert!(two_red.eval(block, grid("RRRY BGGG YYYY YYYY")));
    assert!(two_red.eval(block, grid("RRYY RRYY YYYY YYYY")));
    assert!(!two_red.eval(block, grid("RGYY BBYY YYYY YYYY")));
    // "one red tile" in a square means at least one.
    let sq = st("There is a 2x2 square with one red tile.");
    assert!(sq.eval(block, grid("RRYY RRYY YYYY YYYY")));
    assert!(!sq.eval(block, grid("BBRR BBRR RRRR RRRR")));
    // Orthogonal adjacency excludes diagonals; plain adjacency includes them.
    let orth = st("There is a blue tile orthogonally adjacent to a green tile.");
    let any = st("A blue tile is adjacent to a green tile.");
    let diagonal_only = grid("BRYY RGYY YYYY YYYY");
    assert!(!orth.eval(block, diagonal_only));
    assert!(any.eval(block, diagonal_only));
    assert!(orth.eval(block, grid("BGYY RRYY YYYY YYYY")));
    // Or is inclusive.
    let or = st("Exactly three tiles are red or two tiles are blue.");
    assert!(or.eval(block, grid("RRYY RBYY YYYY YYYY")));
    assert!(or.eval(block, grid("BBYY GYYY YYYY YYYY")));
    assert!(!or.eval(block, grid("RRYY BYYY YYYY YYYY")));
}

#[test]
fn rulebook_invalid_examples() {
    let subset = "A1 B1 A2 B2 C1 C2";
    assert_eq!(
        refused_rule("There are four red tiles on the grid.", subset),
        "outside-subset"
    );
    assert_eq!(
        refused_rule("The leftmost tile is red.", subset),
        "every-tile-matters"
    );
    assert_eq!(
        refused_rule(
            "There are two red tiles, and I beat Marcer in arithmetic 3-1.",
            subset
        ),
        "outside-game"
    );
    assert_eq!(
        refused_rule(
            "The sum of the numerical coordinates of the spaces is 10",
            subset
        ),
        "coordinates"
    );
    assert_eq!(refused_rule("A1 is red.", subset), "coordinates");
    assert_eq!(refused_rule("Row 2 has a red tile.", subset), "coordinates");
    assert_eq!(
        refused_rule("The first column has a red tile.", subset),
        "coordinates"
    );
    assert_eq!(refused_rule("I like turtles.", subset), "outside-game");
    // Plain nonsense that still speaks of tiles is just unparsable.
    assert_eq!(refused_rule("Red tiles are lovely.", subset), "notation");
}

#[test]
fn judge_refusals_carry_the_invalid_reason() {
    let e = judge("The leftmost tile is red.", set("A1 B1 A2 B2")).unwrap_err();
    // A1 is the leftmost (topmost of the left column); B1 is the first cell
    // that does not matter.
    assert_eq!(
        e,
        Refusal::Invalid(Invalid::CellDoesNotMatter(
            umpire_four_statements::grid::cell(1)
        ))
    );
    assert!(e.to_string().contains("B1"));
    // On a single cell it does involve every tile.
    assert!(judge("The leftmost tile is red.", set("C3")).is_ok());
}

// ---------------------------------------------------------------- validity

#[test]
fn every_tile_matters() {
    // Row 2 of this subset holds one cell: "some row has two red tiles"
    // never depends on it.
    let s = st("Some row has two red tiles.");
    assert_eq!(
        s.check(set("A1 B1 C1 A2")),
        Err(Invalid::CellDoesNotMatter(
            umpire_four_statements::grid::cell(4)
        ))
    );
    assert!(s.check(set("A1 B1 A2 B2")).is_ok());
    // Cells that matter only together with others.
    for text in [
        "Exactly two tiles are red.",
        "As many tiles are red as blue.",
        "Either two tiles are red or one tile is blue but not both.",
        "Every row has a red tile.",
        "All red tiles are connected.",
        "The largest group has exactly two tiles.",
        "No two orthogonally adjacent tiles share a colour.",
        "There are exactly three colours.",
    ] {
        assert_eq!(st(text).check(set("A1 B1 A2 B2 C2 C3")), Ok(()), "{text}");
    }
    // Always true or always false: no tile matters.
    for text in [
        "At least zero tiles are red.",
        "At most eight tiles are red.",
        "There are at most four colours.",
        "Two tiles are red and no tile is red.",
        "There are five colours.",
    ] {
        assert_eq!(
            st(text).check(set("A1 B1 A2 B2")).unwrap_err().rule(),
            "every-tile-matters",
            "{text}"
        );
    }
    // Exactly five red tiles on four cells can never hold.
    assert!(
        st("Exactly five tiles are red.")
            .check(set("A1 B1 A2 B2"))
            .is_err()
    );
    // "All red tiles are orthogonally connected" in a straight line: still
    // every cell matters (a red gap disconnects).
    assert!(
        st("All red tiles are orthogonally connected.")
            .check(set("A1 B1 C1 D1"))
            .is_ok()
    );
}

#[test]
fn two_by_two_rule() {
    let s = st("There is a 2x2 square with one red tile.");
    assert_eq!(s.check(set("A1 B1 C1 A2 B2 C2")), Ok(()));
    assert_eq!(s.check(set("A1 B1 A2 B2")), Ok(()));
    // An L: no 2×2 square at all.
    assert_eq!(
        s.check(set("A1 A2 A3 B3")),
        Err(Invalid::NotInSquare(umpire_four_statements::grid::cell(0)))
    );
    // A square with a tail: the tail lies in no square.
    let e = s.check(set("A1 B1 A2 B2 A3")).unwrap_err();
    assert_eq!(e.rule(), "two-by-two");
    assert!(e.to_string().contains("A3"));
    assert_eq!(
        refused_rule("Every 2x2 square has a blue tile.", "A1 A2 A3 B3"),
        "two-by-two"
    );
}

#[test]
fn too_many_words() {
    let long = "At least two tiles are red and at least two tiles are blue and no tile is green.";
    let s = st(long);
    assert_eq!(s.words(), 18);
    assert_eq!(
        s.check(set("A1 B1 A2 B2 C2")),
        Err(Invalid::TooManyWords(18))
    );
    assert_eq!(refused_rule(long, "A1 B1 A2 B2 C2"), "too-many-words");
    let ok = st("Exactly three tiles are red or two tiles are blue.");
    assert!(ok.words() <= MAX_WORDS);
    // "2x2" is one word.
    assert_eq!(st("Some 2x2 square has a red tile.").words(), 7);
}

// ---------------------------------------------------------------- parsing

#[test]
fn parse_errors_say_where_and_what() {
    let e = "There are two rde tiles.".parse::<Statement>().unwrap_err();
    assert_eq!(e.offset(), Some(14));
    assert!(e.expectations().iter().any(|x| x == "red"));
    assert_eq!(e.suggestion(), Some("At least two tiles are red."));

    let e = "Thre are two red tiles".parse::<Statement>().unwrap_err();
    assert_eq!(e.offset(), Some(0));
    assert_eq!(e.suggestion(), Some("At least two tiles are red."));

    let e = "A blue tile is adjacnet to a green tile."
        .parse::<Statement>()
        .unwrap_err();
    assert_eq!(e.offset(), Some(15));
    assert_eq!(
        e.suggestion(),
        Some("A blue tile is adjacent to a green tile.")
    );

    let e = "There are two red tiles and"
        .parse::<Statement>()
        .unwrap_err();
    assert_eq!(e.offset(), Some(27));
    assert!(!e.expectations().is_empty());

    let e = "".parse::<Statement>().unwrap_err();
    assert_eq!(e.offset(), Some(0));

    let e = "There are two red tiles!".parse::<Statement>().unwrap_err();
    assert_eq!(e.offset(), Some(23));

    let e = "There are two red tiles. And"
        .parse::<Statement>()
        .unwrap_err();
    assert_eq!(e.offset(), Some(23));
}

#[test]
fn variants_parse_to_the_canonical_statement() {
    for group in [
        &[
            "At least two tiles are red.",
            "There are two red tiles",
            "there are at least 2 red tiles",
            "THERE   ARE TWO RED SQUARES.",
            "Two tiles are red",
            "at least two of the tiles are red",
            "there are more than one red tiles",
            "there are two red tiles in the subset",
        ][..],
        &[
            "No tile is green.",
            "There are no green tiles.",
            "there are exactly zero green tiles",
            "exactly 0 tiles are green",
        ],
        &[
            "At least one tile is red.",
            "There is a red tile.",
            "a tile is red",
            "one tile is red",
            "There is one red tile",
        ],
        &[
            "At most one tile is blue.",
            "At most one tile is blue",
            "fewer than two tiles are blue",
        ],
        &[
            "Some 2x2 square has a red tile.",
            "There is a 2x2 square with one red tile.",
            "There is a 2×2 square with a red tile",
            "there is a two by two square with at least one red tile",
            "a 2x2 square has one red tile",
        ],
        &[
            "No red tile is adjacent to a blue tile.",
            "It is not true that a red tile is adjacent to a blue tile.",
            "it's not the case that there is a red tile adjacent to a blue tile",
        ],
        &[
            "No two orthogonally adjacent tiles share a colour.",
            "No two orthogonally adjacent tiles have the same colour",
            "no two orthogonally adjacent tiles have the same color",
        ],
        &[
            "There are exactly three colours.",
            "There are exactly three different colors.",
            "exactly three colours appear",
        ],
        &[
            "More tiles are red than blue.",
            "There are more red tiles than blue tiles.",
            "red tiles outnumber blue tiles",
        ],
        &[
            "As many tiles are red as blue.",
            "there are as many red tiles as blue tiles",
            "there are exactly as many red tiles as blue",
        ],
        &[
            "No row has a green tile.",
            "There is no row with a green tile",
            "It is not true that some row has a green tile",
        ],
        &[
            "The largest orthogonally connected red group has at least three tiles.",
            "The largest red orthogonal group has three tiles",
            "the biggest orthogonal red group contains at least 3 tiles",
        ],
        &[
            "Either two tiles are red or a tile is blue but not both.",
            "Two tiles are red xor a tile is blue.",
        ],
        &[
            "Two red tiles are adjacent.",
            "two red tiles are adjacent",
            "There is a red tile adjacent to another red tile",
            "two adjacent tiles are red",
        ],
        &[
            "Not all red tiles are connected.",
            "It is false that all red tiles are connected",
        ],
    ] {
        let canonical = st(group[0]);
        for v in group {
            assert_eq!(st(v), canonical, "{v:?}");
        }
        assert_eq!(st(&canonical.to_string()), canonical);
    }
}

#[test]
fn canonical_sentences() {
    for text in [
        "At least two tiles are red.",
        "Exactly three tiles are red or at least two tiles are blue.",
        "A blue tile is orthogonally adjacent to a green tile.",
        "A red tile is diagonally adjacent to a yellow tile.",
        "No red tile is adjacent to a blue tile.",
        "Two adjacent tiles share a colour.",
        "No two orthogonally adjacent tiles share a colour.",
        "Some 2x2 square has a red tile.",
        "Every 2x2 square has exactly two blue tiles.",
        "Not every 2x2 square has at most one blue tile.",
        "No 2x2 square has no red tiles.",
        "The largest red group has at least three tiles.",
        "The largest group has exactly two tiles.",
        "All red tiles are connected.",
        "All red tiles are orthogonally connected.",
        "Every row has a red tile.",
        "Some column has at least two blue tiles.",
        "No row has a green tile.",
        "Not every column has a yellow tile.",
        "There are exactly three colours.",
        "There is at most one colour.",
        "More tiles are red than blue.",
        "Fewer tiles are green than yellow.",
        "It is not true that at least two tiles are red.",
        "Either exactly two tiles are red or no tile is blue but not both.",
        "No tile is red and no tile is blue or exactly one tile is green.",
        "The leftmost tile is red.",
        "The bottom tile is yellow.",
    ] {
        assert_eq!(st(text).to_string(), text);
    }
}

#[test]
fn precedence_and_binds_tighter_than_xor_than_or() {
    let s = st("No tile is red or no tile is blue and no tile is green xor a tile is yellow.");
    assert_eq!(s.clauses().len(), 2);
    assert_eq!(s.clauses()[1].len(), 2);
    assert_eq!(s.clauses()[1][0].len(), 2);
    // Negation applies to the one claim after it.
    let s = st("It is not true that a tile is red and a tile is blue.");
    assert_eq!(s.clauses()[0][0].len(), 2);
    assert!(s.clauses()[0][0][0].negated);
    assert!(!s.clauses()[0][0][1].negated);
}

// ---------------------------------------------------------------- semantics

#[test]
fn groups_connection_and_lines() {
    let sub = set("A1 B1 C1 A2 B2 C2");
    let g = grid("RBRY BRBY YYYY YYYY"); // red A1, C1, B2: diagonal neighbours
    assert!(st("All red tiles are connected.").eval(sub, g));
    assert!(!st("All red tiles are orthogonally connected.").eval(sub, g));
    assert!(st("The largest red group has exactly three tiles.").eval(sub, g));
    assert!(st("The largest orthogonally connected red group has exactly one tile.").eval(sub, g));
    // No red tile at all: connected (vacuously), largest red group is 0.
    let none = grid("BBBY BBBY YYYY YYYY");
    assert!(st("All red tiles are connected.").eval(sub, none));
    assert!(st("The largest red group has no tiles.").eval(sub, none));
    // Rows: only the rows the subset meets (rows 1 and 2 here).
    assert!(st("Every row has a red tile.").eval(sub, g));
    assert!(st("Every column has a red tile.").eval(sub, g));
    assert!(st("Some column has two blue tiles.").eval(sub, grid("BRRR BRRR RRRR RRRR")));
    // Two tiles of one colour adjacent: distinct cells.
    assert!(!st("Two red tiles are adjacent.").eval(set("A1 B1"), grid("RBRR RRRR RRRR RRRR")));
    assert!(st("Two red tiles are adjacent.").eval(set("A1 B2"), grid("RBRR RRRR RRRR RRRR")));
    assert!(
        !st("Two red tiles are orthogonally adjacent.")
            .eval(set("A1 B2"), grid("RBRR RRRR RRRR RRRR"))
    );
}

#[test]
fn random_statements_are_valid() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for subset in [
        "A1",
        "A1 B1",
        "A1 B1 A2 B2",
        "A1 B1 C1 D1 D2",
        "A1 B1 C1 A2 B2 C2 A3 B3",
        "B2 C2 B3 C3 D3 D4",
    ] {
        let sub = set(subset);
        for _ in 0..30 {
            let s = random(sub, &mut rng);
            assert_eq!(s.check(sub), Ok(()), "{s} on {subset}");
            assert_eq!(st(&s.to_string()), s);
        }
    }
    // The whole grid (No Limit): terminates and is valid.
    let s = random(CellSet::ALL, &mut rng);
    assert!(s.words() <= MAX_WORDS);
    assert_eq!(s.check(CellSet::ALL), Ok(()), "{s}");
}

/// `cargo test --release -p umpire-four-statements --test statements -- --ignored --nocapture`
#[test]
#[ignore]
fn timing_of_check_on_eight_cells() {
    let sub = set("A1 B1 C1 A2 B2 C2 A3 B3");
    for text in [
        "At least two tiles are red.",
        "The largest red group has at least three tiles.",
        "Some 2x2 square has exactly two blue tiles or every row has a red tile.",
        "No two orthogonally adjacent tiles share a colour.",
        "All red tiles are connected and a blue tile is adjacent to a green tile.",
        "The leftmost tile is red.",
        "Some column has three red tiles and no row has four blue tiles.",
    ] {
        let s = st(text);
        let start = std::time::Instant::now();
        let runs = 20;
        for _ in 0..runs {
            std::hint::black_box(s.check(sub).ok());
        }
        println!("check: {:?} per call: {text}", start.elapsed() / runs);
        let start = std::time::Instant::now();
        for _ in 0..runs {
            std::hint::black_box(s.table(sub));
        }
        println!("table: {:?} per call", start.elapsed() / runs);
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let start = std::time::Instant::now();
    for _ in 0..1000 {
        std::hint::black_box(random(sub, &mut rng));
    }
    println!("random: {:?} per call", start.elapsed() / 1000);
}

// ---------------------------------------------------------------- properties

fn colour() -> impl Strategy<Value = Colour> {
    (0u8..4).prop_map(Colour::from_index)
}

fn count() -> impl Strategy<Value = Count> {
    prop_oneof![
        (0u8..=16).prop_map(Count::AtLeast),
        (0u8..=16).prop_map(Count::Exactly),
        (0u8..=16).prop_map(Count::AtMost),
        any::<u8>().prop_map(Count::AtLeast),
    ]
}

fn adjacency() -> impl Strategy<Value = Adjacency> {
    prop_oneof![
        Just(Adjacency::Any),
        Just(Adjacency::Orthogonal),
        Just(Adjacency::Diagonal)
    ]
}

fn quantifier() -> impl Strategy<Value = Quantifier> {
    prop_oneof![Just(Quantifier::Some), Just(Quantifier::Every)]
}

fn atom() -> impl Strategy<Value = Atom> {
    prop_oneof![
        (colour(), count()).prop_map(|(colour, count)| Atom::Count { colour, count }),
        (
            colour(),
            prop_oneof![
                Just(Comparison::More),
                Just(Comparison::Fewer),
                Just(Comparison::AsMany)
            ],
            colour()
        )
            .prop_map(|(left, comparison, right)| Atom::Compare {
                left,
                comparison,
                right
            }),
        count().prop_map(Atom::Colours),
        (colour(), colour(), adjacency()).prop_map(|(a, b, adjacency)| Atom::Adjacent {
            a,
            b,
            adjacency
        }),
        adjacency().prop_map(Atom::SameColourNeighbours),
        (quantifier(), colour(), count()).prop_map(|(quantifier, colour, count)| Atom::Square {
            quantifier,
            colour,
            count
        }),
        (proptest::option::of(colour()), any::<bool>(), count()).prop_map(
            |(colour, orthogonal, count)| Atom::Largest {
                colour,
                orthogonal,
                count
            }
        ),
        (colour(), any::<bool>())
            .prop_map(|(colour, orthogonal)| Atom::Connected { colour, orthogonal }),
        (
            prop_oneof![Just(Line::Row), Just(Line::Column)],
            quantifier(),
            colour(),
            count()
        )
            .prop_map(|(line, quantifier, colour, count)| Atom::Lines {
                line,
                quantifier,
                colour,
                count
            }),
        (
            prop_oneof![
                Just(Position::Leftmost),
                Just(Position::Rightmost),
                Just(Position::Top),
                Just(Position::Bottom)
            ],
            colour()
        )
            .prop_map(|(position, colour)| Atom::Tile { position, colour }),
    ]
}

fn statement() -> impl Strategy<Value = Statement> {
    let literal = (any::<bool>(), atom()).prop_map(|(negated, atom)| Literal { negated, atom });
    let and = proptest::collection::vec(literal, 1..3);
    let xor = proptest::collection::vec(and, 1..3);
    proptest::collection::vec(xor, 1..3)
        .prop_map(|ors| Statement::from_clauses(ors).expect("non-empty"))
}

/// A connected subset of 1–7 cells grown from a start cell.
fn subset() -> impl Strategy<Value = CellSet> {
    (0usize..16, proptest::collection::vec(0usize..16, 0..6)).prop_map(|(start, picks)| {
        let mut s = CellSet::single(start);
        for p in picks {
            let border: Vec<usize> = s.orthogonal_border().indices().collect();
            s = s.with(border[p % border.len()]);
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn canonical_round_trip(s in statement()) {
        let text = s.to_string();
        prop_assert!(text.ends_with('.'));
        let back: Statement = text.parse().map_err(|e| TestCaseError::fail(format!("{text:?}: {e:?}")))?;
        prop_assert_eq!(back, s);
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,80}", sub in subset()) {
        let _ = text.parse::<Statement>();
        let _ = judge(&text, sub);
    }

    #[test]
    fn word_salad_never_panics(words in proptest::collection::vec(
        prop_oneof![Just("there"), Just("are"), Just("two"), Just("red"), Just("tiles"),
            Just("a"), Just("2x2"), Just("square"), Just("no"), Just("and"), Just("or"),
            Just("either"), Just("but"), Just("not"), Just("both"), Just("row"), Just("is"),
            Just("adjacent"), Just("to"), Just("the"), Just("largest"), Just("grop"),
            Just("more"), Just("than"), Just("255"), Just("it"), Just("true"), Just("that")],
        0..14), sub in subset()) {
        let text = words.join(" ");
        let _ = text.parse::<Statement>();
        let _ = judge(&text, sub);
    }

    #[test]
    fn table_agrees_with_eval(s in statement(), sub in subset(), seed in any::<u32>()) {
        let t = s.table(sub);
        // Cells outside the subset never matter.
        let other = Grid(seed);
        for k in (0..t.size()).step_by(7) {
            let g = umpire_four_statements::table::Table::grid_of(sub, k);
            prop_assert_eq!(t.contains(k), s.eval(sub, g));
            let mut mixed = other;
            for i in sub.indices() {
                mixed = mixed.with(i, g.get(i));
            }
            prop_assert_eq!(t.contains(k), s.eval(sub, mixed));
        }
    }

    #[test]
    fn check_agrees_with_the_definition(s in statement(), sub in subset()) {
        // Every tile matters iff some colouring and some recolouring of that
        // tile changes the truth (brute force on the table).
        let t = s.table(sub);
        let cells: Vec<usize> = sub.indices().collect();
        let first_idle = (0..cells.len()).find(|&j| {
            !(0..t.size()).any(|k| {
                let d = (k >> (2 * j)) & 3;
                (0..4).any(|c| t.contains(k) != t.contains(k - (d << (2 * j)) + (c << (2 * j))))
            })
        });
        match s.check(sub) {
            Err(Invalid::CellDoesNotMatter(c)) => {
                prop_assert_eq!(Some(umpire_four_statements::grid::index(c)), first_idle.map(|j| cells[j]));
            }
            Ok(()) => prop_assert_eq!(first_idle, None),
            Err(_) => {}
        }
    }
}

/// Every example sentence of the rules doc's statement language parses, and
/// the canonical column prints as written.
#[test]
fn language_doc_examples() {
    let doc = include_str!("../RULES.md");
    let doc = doc.split("## The statement language").nth(1).unwrap();
    let doc = doc.split("### Validity rules").next().unwrap();
    let mut checked = 0;
    for line in doc.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').collect();
        if cells.len() < 4 || cells[1].contains("Key") || line.contains("`notation`") {
            continue;
        }
        for (col, cell) in cells.iter().enumerate() {
            for (i, example) in cell.split('`').enumerate() {
                if i % 2 == 0
                    || example.contains('…')
                    || example.contains('(')
                    || !example.ends_with('.') && col == 2
                    || example.split_whitespace().count() < 3
                {
                    continue;
                }
                let s = st(example);
                if col == 2 {
                    assert_eq!(s.to_string(), example);
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "{checked}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn random_is_valid_for_any_connected_subset(sub in subset(), seed in any::<u64>()) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let s = random(sub, &mut rng);
        prop_assert_eq!(s.check(sub), Ok(()), "{} on {}", s, sub);
        prop_assert_eq!(judge(&s.to_string(), sub), Ok(s.clone()));
    }

    #[test]
    fn canonical_round_trip_many(s in statement()) {
        let text = s.to_string();
        prop_assert_eq!(text.parse::<Statement>().ok(), Some(s.clone()));
        prop_assert_eq!(s.words(), text.split_whitespace().count());
    }
}
