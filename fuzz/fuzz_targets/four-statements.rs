//! Any text as a Four Statements statement about any subset: never a panic;
//! a statement that reads prints a canonical sentence that reads back as
//! it; judging gives the same verdict every time, and an accepted
//! statement's reading is judged the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use umpire_four_statements::grid::CellSet;
use umpire_four_statements::statement::{Statement, judge};

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_at_checked(2) else {
        return;
    };
    let subset = CellSet(u16::from_le_bytes([head[0], head[1]]));
    let text = String::from_utf8_lossy(rest);
    if let Ok(s) = text.parse::<Statement>() {
        let canonical = s.to_string();
        let again: Statement = canonical
            .parse()
            .unwrap_or_else(|e| panic!("`{canonical}` does not parse back: {e}"));
        assert_eq!(again, s, "`{canonical}` parses to another statement");
    }
    if subset.is_empty() {
        return;
    }
    let verdict = judge(&text, subset);
    assert_eq!(verdict, judge(&text, subset), "{text:?} judged two ways");
    if let Ok(said) = verdict {
        let reading = said.reading();
        let read = judge(&reading, subset)
            .unwrap_or_else(|e| panic!("the reading `{reading}` of {text:?} is refused: {e}"));
        assert_eq!(read.statement(), said.statement(), "`{reading}` reads otherwise");
    }
});
