//! Notation read as words: what every game's parser splits its text into.
//!
//! ```
//! use umpire_core::words::words;
//!
//! let found = words("place Tm90, at C4", &[',']);
//! let texts: Vec<&str> = found.iter().map(|w| w.text).collect();
//! assert_eq!(texts, ["place", "Tm90", "at", "C4"]);
//! assert_eq!((found[3].start, found[3].at), (15, 15));
//! ```

/// A word of a text and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word<'a> {
    pub text: &'a str,
    /// Its byte offset in the text.
    pub start: usize,
    /// Its character offset in the text (what a `ParseError` points at).
    pub at: usize,
}

/// The words of `text`: runs of characters between white space and the
/// `separators`, in order.
pub fn words<'a>(text: &'a str, separators: &[char]) -> Vec<Word<'a>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let ends = text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')));
    for (chars, (i, c)) in ends.enumerate() {
        let sep = c.is_whitespace() || separators.contains(&c);
        match (sep, start) {
            (true, Some((s, at))) => {
                out.push(Word {
                    text: &text[s..i],
                    start: s,
                    at,
                });
                start = None;
            }
            (false, None) => start = Some((i, chars)),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_characters_and_bytes() {
        let found = words("  é1;b2 ,c3", &[',', ';']);
        let seen: Vec<(&str, usize, usize)> =
            found.iter().map(|w| (w.text, w.start, w.at)).collect();
        assert_eq!(seen, [("é1", 2, 2), ("b2", 6, 5), ("c3", 10, 9)]);
        assert!(words(" ,; ", &[',', ';']).is_empty());
        assert_eq!(words("a;b", &[]).len(), 1);
    }
}
