//! The statement language through its public API: the rulebook's examples,
//! the examples (word limit, ambiguity, exact validity), parse
//! errors, and the canonical sentence's round trip.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use umpire_four_statements::grid::{CellSet, Grid};
use umpire_four_statements::statement::{
    Invalid, MAX_WORDS, Refusal, Statement, arbitrary, judge, random, read,
};

fn set(text: &str) -> CellSet {
    CellSet::parse(text).unwrap()
}

fn reading(text: &str, subset: &str) -> String {
    match judge(text, set(subset)) {
        Ok(s) => s.reading(),
        Err(e) => panic!("{text:?} refused: {e}"),
    }
}

fn refused(text: &str, subset: &str) -> Refusal {
    match judge(text, set(subset)) {
        Ok(s) => panic!("{text:?} accepted as {}", s.reading()),
        Err(e) => e,
    }
}

fn grid(text: &str) -> Grid {
    Grid::parse(text).unwrap()
}

const BLOCK: &str = "A1 B1 A2 B2";

// ---------------------------------------------------------------- rulebook

#[test]
fn rulebook_valid_examples() {
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
        assert_eq!(reading(text, BLOCK), canonical);
        assert_eq!(reading(canonical, BLOCK), canonical);
        assert!(judge(text, set("A1 B1 C1 A2 B2 C2")).is_ok());
    }
}

#[test]
fn rulebook_meanings() {
    let block = set(BLOCK);
    let st = |t: &str| judge(t, block).unwrap().statement().clone();
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
    for (text, rule) in [
        ("There are four red tiles on the grid.", "outside-subset"),
        ("The leftmost tile is red.", "every-tile-matters"),
        (
            "There are two red tiles, and I beat Marcer in arithmetic 3-1.",
            "outside-game",
        ),
        (
            "The sum of the numerical coordinates of the spaces is 10",
            "coordinates",
        ),
        ("A1 is red.", "coordinates"),
        ("Row 2 has a red tile.", "coordinates"),
        ("The first column has a red tile.", "coordinates"),
        ("I like turtles.", "outside-game"),
        // Nonsense that still speaks of tiles is just unparsable.
        ("Red tiles are lovely.", "notation"),
    ] {
        assert_eq!(refused(text, subset).rule(), rule, "{text}");
    }
    // On one tile "the leftmost tile" is every tile.
    assert!(judge("The leftmost tile is red.", set("C3")).is_ok());
}

// ---------------------------------------------------------------- the issue

/// The 15-word limit counts the words the player typed.
#[test]
fn the_word_limit_counts_what_was_typed() {
    let long = "Exactly three tiles are red or two tiles are blue or two tiles are green.";
    let said = judge(long, set(BLOCK)).unwrap();
    assert_eq!(said.words(), 15);
    assert!(said.reading().split_whitespace().count() > MAX_WORDS);
    let twenty =
        "It is not the case that it is not the case that there are two red tiles in the subset.";
    assert_eq!(
        refused(twenty, BLOCK),
        Refusal::Invalid(Invalid::TooManyWords(20))
    );
}

/// Sentences with two meanings on the subset are refused with both, each
/// said so that it reads one way.
#[test]
fn ambiguous_sentences_are_refused_with_each_reading() {
    for (text, subset, readings) in [
        (
            "It is not true that no tile is red and no tile is blue.",
            BLOCK,
            [
                "At least one tile is red and no tile is blue.",
                "It is not true that both no tile is red and no tile is blue.",
            ],
        ),
        (
            "The leftmost tile is red and exactly two tiles are blue.",
            BLOCK,
            [
                "The top tile of the leftmost column is red and exactly two tiles are blue.",
                "The bottom tile of the leftmost column is red and exactly two tiles are blue.",
            ],
        ),
        (
            "Either exactly two tiles are red or exactly two tiles are blue.",
            BLOCK,
            [
                "Exactly two tiles are red or exactly two tiles are blue.",
                "Either exactly two tiles are red or exactly two tiles are blue but not both.",
            ],
        ),
    ] {
        let Refusal::Invalid(Invalid::Ambiguous(a)) = refused(text, subset) else {
            panic!("{text:?} is not refused as ambiguous");
        };
        assert_eq!(a.readings, readings, "{text}");
        // Each rephrasing reads one way.
        for r in &a.readings {
            assert_eq!(reading(r, subset), *r);
        }
    }
    // On one tile "the leftmost tile" has one meaning; and an "either"
    // whose parts exclude each other needs no question.
    assert!(judge("The leftmost tile is red or blue.", set("B2")).is_ok());
    assert_eq!(
        reading(
            "Either exactly two tiles are red or exactly three tiles are red.",
            BLOCK
        ),
        "Exactly two tiles are red or exactly three tiles are red."
    );
}

/// A part that says nothing is refused, and "zero" means none.
#[test]
fn needless_parts_and_zero() {
    let e = refused(
        "There are at least zero colours and exactly two tiles are red.",
        BLOCK,
    );
    assert_eq!(e.rule(), "every-part-matters");
    assert!(
        e.to_string().contains("At least zero colours appear"),
        "{e}"
    );
    assert_eq!(
        reading("There are zero blue tiles.", BLOCK),
        "No tile is blue."
    );
}

/// The No Limit example of the issue: an 11-tile subset where C2 matters
/// only through rare colourings (changing only C2 of RBRBBRBRRBRBBRBR flips
/// the truth).
#[test]
fn validity_is_exact_on_large_subsets() {
    let subset = set("A1 B1 C1 D1 A2 B2 C2 D2 A3 B3 C3");
    let text = "No two orthogonally adjacent tiles share a colour and exactly six tiles are red.";
    let said = judge(text, subset).unwrap_or_else(|e| panic!("{e}"));
    let s = said.statement();
    let g = grid("RBRBBRBRRBRBBRBR");
    let c2 = 6;
    let flipped = g.with(c2, umpire_four_statements::grid::Colour::Red);
    assert_ne!(s.eval(subset, g), s.eval(subset, flipped));
}

// ---------------------------------------------------------------- errors

#[test]
fn errors_say_where_and_suggest_with_the_reading() {
    let Refusal::Unparsable(e) = refused("There are two rde tiles.", BLOCK) else {
        panic!("not a notation error");
    };
    assert_eq!(e.offset(), Some(14));
    assert_eq!(e.suggestion(), Some("There are two red tiles."));
    assert!(
        e.message()
            .contains("It reads “At least two tiles are red.”"),
        "{e}"
    );
    let Refusal::Unparsable(e) = refused("There are two red tiles or", BLOCK) else {
        panic!("not a notation error");
    };
    assert_eq!(e.message(), "the statement ends too early");
    assert!(!e.expectations().is_empty());
    assert!(judge("", set(BLOCK)).is_err());
    assert!(judge("There are (two) red tiles", set(BLOCK)).is_err());
}

// ---------------------------------------------------------------- properties

/// `n` statements from `seed`, each made by `make` on a random connected
/// subset of 1 to `most` tiles.
fn on_random_subsets(
    seed: u64,
    n: usize,
    most: usize,
    make: fn(CellSet, &mut SmallRng) -> Statement,
) -> Vec<(CellSet, Statement)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let subset =
                umpire_four_statements::random_connected(rng.random_range(1..=most), &mut rng);
            (subset, make(subset, &mut rng))
        })
        .collect()
}

/// Every canonical sentence reads back as its statement, and only so.
#[test]
fn canonical_sentences_read_back() {
    for (subset, s) in on_random_subsets(11, 2000, 10, arbitrary) {
        let text = s.to_string();
        assert_eq!(text.parse::<Statement>().as_ref(), Ok(&s), "{text}");
        match read(&text, subset) {
            Ok(r) => assert_eq!(r, s, "{text}"),
            Err(Refusal::Invalid(Invalid::Ambiguous(a))) => panic!("{text} is ambiguous: {a}"),
            Err(Refusal::Unparsable(e)) => panic!("{text}: {e}"),
            // Another rule (a position on a wide subset): fine here.
            Err(_) => {}
        }
    }
}

#[test]
fn random_statements_are_valid() {
    for (subset, s) in on_random_subsets(3, 300, 8, random) {
        assert_eq!(s.check(subset), Ok(()), "{s} on {subset}");
        assert!(s.to_string().split_whitespace().count() <= MAX_WORDS, "{s}");
    }
}

/// The corpus's sentences with words dropped, swapped or replaced by
/// words the grammar knows never make the judge panic, and what it accepts
/// reads the same again in its reading.
#[test]
fn mangled_sentences_are_judged_without_panic() {
    const WORDS: &[&str] = &[
        "there",
        "are",
        "is",
        "a",
        "no",
        "not",
        "two",
        "three",
        "at",
        "least",
        "most",
        "exactly",
        "red",
        "blue",
        "green",
        "yellow",
        "or",
        "and",
        "tiles",
        "tile",
        "adjacent",
        "to",
        "next",
        "every",
        "some",
        "row",
        "column",
        "2x2",
        "square",
        "group",
        "connected",
        "than",
        "more",
        "fewer",
        "as",
        "many",
        "all",
        "colours",
        "appear",
        "if",
        "then",
        "either",
        "neither",
        "nor",
        "both",
        "it",
        "true",
        "that",
        "the",
        "largest",
        "leftmost",
        "top",
        "has",
        "of",
        "half",
        "odd",
        "even",
        "orthogonally",
        "diagonally",
        "share",
        "colour",
        "same",
        ",",
        "twice",
        "combined",
        "only",
        "between",
        "unless",
        "form",
        "groups",
        "other",
        "another",
    ];
    let sentences: Vec<&str> = include_str!("corpus/statements.txt")
        .lines()
        .filter_map(|l| l.split_once(" => ").map(|(t, _)| t))
        .collect();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(99);
    let mut accepted = 0;
    for _ in 0..6000 {
        let base = sentences[rng.random_range(0..sentences.len())];
        let mut words: Vec<&str> = base.split_whitespace().collect();
        for _ in 0..rng.random_range(1..=2) {
            let i = rng.random_range(0..words.len());
            match rng.random_range(0..3) {
                0 if words.len() > 1 => {
                    words.remove(i);
                }
                1 => {
                    let j = rng.random_range(0..words.len());
                    words.swap(i, j);
                }
                _ => words[i] = WORDS[rng.random_range(0..WORDS.len())],
            }
        }
        let text = words.join(" ");
        let subset = umpire_four_statements::random_connected(rng.random_range(1..=9), &mut rng);
        if let Ok(said) = judge(&text, subset) {
            accepted += 1;
            let again = read(&said.reading(), subset).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(&again, said.statement(), "{text:?}");
        }
    }
    // Enough of them still read, for the check to mean something.
    assert!(accepted > 200, "{accepted} of 6000 accepted");
}

/// The largest group of any colour is the one claim whose exact decision
/// is dear on a whole-grid subset (No Limit): a contradiction with a claim
/// that rules out most colourings is still found exactly, and a statement
/// that would hold the umpire up is refused as too complex, never guessed.
#[test]
fn dear_statements_are_settled_or_refused() {
    let all = CellSet::ALL;
    let e = judge(
        "The largest group has exactly four tiles and no two adjacent tiles share a colour.",
        all,
    )
    .unwrap_err();
    assert_eq!(e.rule(), "every-tile-matters", "{e}");
    // Dear, but within the budget: settled, and valid.
    judge(
        "The largest group has exactly two tiles and all four colours appear.",
        all,
    )
    .unwrap();
    let e = judge(
        "The largest group has exactly three tiles and the largest group has exactly four tiles.",
        all,
    )
    .unwrap_err();
    assert_eq!(e, Refusal::Invalid(Invalid::Unsettled));
    assert!(e.to_string().contains("say it more simply"), "{e}");
    // On an 8-tile subset the same is settled exactly.
    let e = judge(
        "The largest group has exactly three tiles and the largest group has exactly four tiles.",
        set("A1 B1 C1 D1 A2 B2 C2 D2"),
    )
    .unwrap_err();
    assert_eq!(e.rule(), "every-tile-matters", "{e}");
}
