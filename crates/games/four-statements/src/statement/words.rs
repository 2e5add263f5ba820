//! The player's text as words the grammar reads: lower case, contractions
//! spelt out ("isn't" is "is not"), one spelling for words spelt two ways
//! ("color" is "colour"), "2x2" in one form, commas kept (they may close a
//! clause), a final full stop dropped. Each word remembers where it was
//! typed, for errors.

use umpire_core::ParseError;

/// One word of the text, at character `at`, `len` characters long as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Word {
    pub text: String,
    pub at: usize,
    pub len: usize,
}

/// Words typed, as the word limit counts them: runs between spaces that
/// hold a letter or a digit ("2x2" and "3-1" are one word each).
pub fn count(text: &str) -> usize {
    text.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

/// A typed word as the grammar's words (one or several).
fn normal(raw: &str) -> Vec<&'static str> {
    let one = |w: &'static str| vec![w];
    match raw {
        "isn't" => vec!["is", "not"],
        "aren't" => vec!["are", "not"],
        "doesn't" => vec!["does", "not"],
        "don't" => vec!["do", "not"],
        "didn't" => vec!["does", "not"],
        "hasn't" => vec!["has", "not"],
        "haven't" => vec!["have", "not"],
        "wasn't" => vec!["is", "not"],
        "weren't" => vec!["are", "not"],
        "can't" | "cannot" => vec!["can", "not"],
        "there's" => vec!["there", "is"],
        "there're" => vec!["there", "are"],
        "it's" => vec!["it", "is"],
        "i've" => vec!["i", "have"],
        "i'm" => vec!["i", "am"],
        "that's" => vec!["that", "is"],
        "color" => one("colour"),
        "colors" => one("colours"),
        "colored" => one("coloured"),
        "neighbor" => one("neighbour"),
        "neighbors" => one("neighbours"),
        "neighboring" => one("neighbouring"),
        "neighbouring" => one("neighbouring"),
        "2x2" | "2-by-2" | "two-by-two" | "2by2" | "2-x-2" => one("2x2"),
        "reds" => one("red"),
        "blues" => one("blue"),
        "greens" => one("green"),
        "yellows" => one("yellow"),
        "less" => one("fewer"),
        "once" => vec!["one", "time"],
        "twice" => vec!["two", "times"],
        _ => Vec::new(),
    }
}

fn word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '\'' | '’' | '-' | '×')
}

/// The text as words; a character no statement uses is an error.
pub(super) fn words(text: &str) -> Result<Vec<Word>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || matches!(c, '"' | '“' | '”') {
            i += 1;
        } else if c == ',' || c == ':' {
            out.push(Word {
                text: ",".into(),
                at: i,
                len: 1,
            });
            i += 1;
        } else if matches!(c, '.' | '!') && chars[i + 1..].iter().all(|c| c.is_whitespace()) {
            break;
        } else if word_char(c) {
            let start = i;
            while i < chars.len() && word_char(chars[i]) {
                i += 1;
            }
            let raw: String = chars[start..i]
                .iter()
                .collect::<String>()
                .to_lowercase()
                .replace('’', "'")
                .replace('×', "x");
            let raw = raw.trim_matches(|c| c == '\'' || c == '-').to_string();
            let len = i - start;
            let mut push = |w: &str| {
                out.push(Word {
                    text: w.to_string(),
                    at: start,
                    len,
                })
            };
            let mapped = normal(&raw);
            if !mapped.is_empty() {
                mapped.into_iter().for_each(&mut push);
            } else if raw.contains('-') && !raw.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                // "top-left", "same-coloured": the parts.
                raw.split('-')
                    .filter(|p| !p.is_empty())
                    .for_each(|p| match normal(p).as_slice() {
                        [] => push(p),
                        ws => ws.iter().for_each(|w| push(w)),
                    });
            } else if !raw.is_empty() {
                push(&raw);
            }
        } else {
            return Err(
                ParseError::new(format!("`{c}` cannot appear in a statement"))
                    .at(i)
                    .expected(["a word"]),
            );
        }
    }
    Ok(out)
}

/// Optimal string alignment distance (a swap of two letters counts one).
pub(super) fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, x) in d[0].iter_mut().enumerate() {
        *x = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// Known words close to `typed`: one edit away (two for long words).
pub(super) fn close_words<'v>(typed: &str, vocabulary: &[&'v str]) -> Vec<&'v str> {
    if typed.chars().any(|c| c.is_ascii_digit()) {
        return Vec::new();
    }
    let limit = if typed.chars().count() >= 7 { 2 } else { 1 };
    let mut near: Vec<(usize, &str)> = vocabulary
        .iter()
        .map(|w| (distance(typed, w), *w))
        .filter(|&(d, w)| d > 0 && d <= limit && w.len() > 2)
        .collect();
    near.sort();
    near.into_iter().map(|(_, w)| w).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        words(s).unwrap().into_iter().map(|w| w.text).collect()
    }

    #[test]
    fn words_are_normalised() {
        assert_eq!(
            texts("There aren't any yellow tiles."),
            ["there", "are", "not", "any", "yellow", "tiles"]
        );
        assert_eq!(
            texts("A 2×2 square's color"),
            ["a", "2x2", "square's", "colour"]
        );
        assert_eq!(texts("top-left, then"), ["top", "left", ",", "then"]);
        assert!(words("A (red) tile").is_err());
    }

    #[test]
    fn the_word_count_is_what_was_typed() {
        assert_eq!(count("There are two red tiles."), 5);
        assert_eq!(count("A 2x2 square , has 3-1 red"), 6);
    }
}
