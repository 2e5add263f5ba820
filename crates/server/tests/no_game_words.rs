//! The shared client and the server name no game: a new game is its crate,
//! one catalogue line and one board module (`web/games/<id>.js` with its
//! `.css`), and nothing else changes. This test reads every file of `web/`
//! except `web/games/`, and every file under `crates/server/src`, and fails
//! naming the file and line where a game's id or name, or one of a few game
//! words, appears. The server's own tests (`tests.rs` files and whatever
//! follows `#[cfg(test)]`) may name the test games they play.

use std::path::{Path, PathBuf};

use umpire_core::Game;

/// Words of the games we know that a shared file has no reason to say.
const GAME_WORDS: &[&str] = &["army", "armies", "domino", "dominoes"];

/// Every game id and name (the catalogue's and the test games'), and the
/// game words: what no shared file may contain.
fn needles() -> Vec<String> {
    let mut needles: Vec<String> = GAME_WORDS.iter().map(|w| w.to_string()).collect();
    let mut games: Vec<(&str, &str)> = umpire_catalog::games()
        .iter()
        .map(|g| (g.id(), g.name()))
        .collect();
    games.push((
        umpire_core::testing::SealedBids::ID,
        umpire_core::testing::SealedBids::NAME,
    ));
    for (id, name) in games {
        needles.push(id.to_string());
        needles.push(id.replace('-', " "));
        // "Sealed Bids (test game)": the name without its remark.
        needles.push(name.split(" (").next().unwrap_or(name).to_string());
    }
    needles.sort();
    needles.dedup();
    needles
}

/// Whether `needle` occurs in `line` as a whole word, case-insensitively:
/// not inside a longer word (`bid` is not in `forbidden`), but a part of a
/// camelCase or snake_case name counts (`armies` is in `showArmies`).
fn occurs(line: &str, needle: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let needle = needle.to_ascii_lowercase();
    let bytes = line.as_bytes();
    let starts_word = |at: usize| {
        at == 0 || !bytes[at - 1].is_ascii_alphanumeric() || bytes[at].is_ascii_uppercase()
    };
    let ends_word = |end: usize| {
        end == bytes.len() || !bytes[end].is_ascii_alphanumeric() || bytes[end].is_ascii_uppercase()
    };
    lower
        .match_indices(&needle)
        .any(|(at, _)| starts_word(at) && ends_word(at + needle.len()))
}

/// `file:line: word` for every occurrence in `text`, up to its test code.
fn hits(file: &str, text: &str, needles: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    let code = text.lines().take_while(|l| l.trim() != "#[cfg(test)]");
    for (n, line) in code.enumerate() {
        for needle in needles {
            if occurs(line, needle) {
                found.push(format!("{file}:{}: `{needle}` in: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

/// Every file under `dir`, skipping `skip` and test modules (`tests.rs`).
fn files(dir: &Path, skip: Option<&Path>, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if Some(path.as_path()) == skip || path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        if path.is_dir() {
            files(&path, skip, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn the_shared_client_and_the_server_name_no_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace");
    let web = root.join("web");
    let mut all = Vec::new();
    files(&web, Some(&web.join("games")), &mut all);
    let web_files = all.len();
    files(&root.join("crates/server/src"), None, &mut all);
    assert!(
        web_files >= 8 && all.len() > web_files,
        "the client and the server sources are found ({web_files} web files, {} in all)",
        all.len()
    );
    let needles = needles();
    let mut found = Vec::new();
    for path in &all {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue; // not text
        };
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        found.extend(hits(&name, &text, &needles));
    }
    assert!(
        found.is_empty(),
        "shared files name a game; move these words into the game's crate or board module:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_finds_game_words_and_only_whole_words() {
    let needles = needles();
    let id = umpire_catalog::games()[0].id();
    let text = format!("ok\nconst game = '{id}';\n/* .army-table */\nforbidden\n");
    let found = hits("x.js", &text, &needles);
    let on = |line: usize, word: &str| {
        found
            .iter()
            .any(|h| h.starts_with(&format!("x.js:{line}: `{word}`")))
    };
    assert!(on(2, id) && on(3, "army"), "{found:#?}");
    assert!(
        found
            .iter()
            .all(|h| h.starts_with("x.js:2:") || h.starts_with("x.js:3:")),
        "{found:#?}"
    );
    // Test code at the end of a file may name the games it plays.
    let tested = format!("fn f() {{}}\n#[cfg(test)]\nmod tests {{ const G: &str = \"{id}\"; }}\n");
    assert_eq!(hits("y.rs", &tested, &needles), Vec::<String>::new());
    assert!(occurs("Sealed Bids", "sealed bids"));
    assert!(!occurs("forbidden", "bid"));
    assert!(!occurs("bidding", "bid"));
    assert!(occurs("showArmies: true", "armies"));
    assert!(occurs("sealed_bids", "bids"));
}
