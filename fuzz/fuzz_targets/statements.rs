//! Any text as a Four Statements statement about any subset: never a panic;
//! a statement that parses prints a canonical sentence that parses back to
//! it, and judging it gives the same verdict every time.
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
        if !subset.is_empty() && subset.len() <= 8 {
            assert_eq!(s.check(subset), again.check(subset));
        }
    }
    if !subset.is_empty() && subset.len() <= 8 {
        let _ = judge(&text, subset);
    }
});
