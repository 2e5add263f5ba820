//! What a match called off says: the spans of time in words.

use crate::config::Config;

/// A span of time in words: "30 minutes", "7 days".
fn span(ms: u64) -> String {
    let minutes = ms.div_ceil(60_000);
    let (n, unit) = match minutes {
        m if m >= 1_440 && m % 1_440 == 0 => (m / 1_440, "day"),
        m if m >= 60 && m % 60 == 0 => (m / 60, "hour"),
        m => (m, "minute"),
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// What a match called off because nobody acted says.
pub fn abandoned_words(config: &Config) -> String {
    format!(
        "this match was called off: nobody made a move within {} of its creation; nobody lost",
        span(config.abandon_ms)
    )
}

/// What an untimed match called off because nobody moved says.
pub fn idle_words(config: &Config) -> String {
    format!(
        "this match was called off: it is untimed and nobody moved for {}; nobody lost",
        span(config.untimed_idle_ms)
    )
}
