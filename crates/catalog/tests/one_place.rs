//! Each game lives in one place: its crate (`crates/games/<id>/`), its
//! board module (`web/games/<id>.js`, its `.css` and its folder
//! `web/games/<id>/`), its own tests (`e2e/tests/<id>….test.js`, a fuzz
//! target `fuzz/fuzz_targets/<id>.rs`) and its line in the catalogue. No
//! other code names it: not the server, the command line, the bots, core,
//! the load tool, another game, the shared web pages, the scripts or the
//! fuzz harness. A game is named by its id, its name or one of the words
//! its registration lists ([`umpire_core::Registration::words`]), in any
//! spelling (`masked-army`, `masked_army`, `MaskedArmy`, `Masked Army`).
//!
//! Test code (a `tests/` folder, a `tests.rs`, what follows `#[cfg(test)]`)
//! may name the games it plays; data and prose (JSON, Markdown, lock
//! files) are not code. The test games' crate is core (`testing.rs`), whose
//! examples play them.

use std::path::{Path, PathBuf};

use umpire_core::Registration;

/// The words of `text`, lower case: split at anything not a letter or a
/// digit, and where a capital follows a small letter or a digit
/// (`showArmies` is `show armies`).
fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut prev: Option<char> = None;
    for c in text.chars() {
        let starts =
            c.is_uppercase() && prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit());
        if (!c.is_alphanumeric() || starts) && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        }
        prev = Some(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// One game: what names it, and the places that may.
struct Game {
    id: &'static str,
    /// Each name as its words: the id, the name, the registration's words.
    names: Vec<Vec<String>>,
    /// Its own files and folders, from the workspace root.
    places: Vec<PathBuf>,
    /// Its lines in the catalogue and the list of board modules, exactly.
    lines: Vec<String>,
}

impl Game {
    fn of(registration: &Registration, test_game: bool) -> Game {
        let id = registration.id();
        // "Sealed Bids (test game)": the name without its remark.
        let name = registration.game.name();
        let name = name.split(" (").next().unwrap_or(name);
        let mut names: Vec<Vec<String>> = [id, name].iter().map(|n| words(n)).collect();
        names.extend(registration.words.iter().map(|w| words(w)));
        names.dedup();
        let places = if test_game {
            vec![PathBuf::from("crates/core")]
        } else {
            let mut places = vec![PathBuf::from(format!("crates/games/{id}"))];
            places.extend(["js", "css"].map(|ext| PathBuf::from(format!("web/games/{id}.{ext}"))));
            places.push(PathBuf::from(format!("web/games/{id}")));
            places.push(PathBuf::from(format!("fuzz/fuzz_targets/{id}.rs")));
            places
        };
        let snake = id.replace('-', "_");
        let camel = words(id)
            .iter()
            .enumerate()
            .map(|(i, w)| match i {
                0 => w.clone(),
                _ => w[..1].to_uppercase() + &w[1..],
            })
            .collect::<String>();
        Game {
            id,
            names,
            places,
            lines: vec![
                format!("&umpire_{snake}::REGISTRATION,"),
                format!("umpire-{id} = {{ path = \"../games/{id}\" }}"),
                format!("export {{ default as {camel} }} from './{id}.js';"),
            ],
        }
    }

    /// The name of this game that `line` says, if any.
    fn named_in(&self, line: &str) -> Option<String> {
        let said = words(line);
        self.names
            .iter()
            .find(|name| !name.is_empty() && said.windows(name.len()).any(|w| w == name.as_slice()))
            .map(|name| name.join(" "))
    }

    fn owns(&self, file: &Path) -> bool {
        let own_test = file.starts_with("e2e/tests")
            && file.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with(&format!("{}.", self.id)) || n.starts_with(&format!("{}-", self.id))
            });
        own_test || self.places.iter().any(|p| file.starts_with(p))
    }
}

/// The code the check reads, from the workspace root: every file under
/// `crates/`, `web/`, `scripts/` and `fuzz/fuzz_targets/` but test code,
/// data and prose, and `web/vendor/` (not ours).
fn code_files(root: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let entries =
            std::fs::read_dir(root.join(dir)).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let name = entry.expect("a directory entry").file_name();
            let path = dir.join(&name);
            let name = name.to_string_lossy();
            if root.join(&path).is_dir() {
                if !matches!(
                    name.as_ref(),
                    "tests" | "vendor" | "node_modules" | "target"
                ) {
                    walk(root, &path, out);
                }
            } else if name != "tests.rs"
                && !name.ends_with(".md")
                && !name.ends_with(".json")
                && !name.ends_with(".lock")
                && !name.ends_with(".txt")
            {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for dir in ["crates", "web", "scripts", "fuzz/fuzz_targets"] {
        walk(root, Path::new(dir), &mut files);
    }
    files
}

/// `file:line: name in: text` for every line of `text` up to its test code
/// that names `game` and is not one of its own lines.
fn hits(file: &Path, text: &str, game: &Game) -> Vec<String> {
    let code = text.lines().take_while(|l| l.trim() != "#[cfg(test)]");
    code.enumerate()
        .filter(|(_, line)| !game.lines.iter().any(|own| line.trim() == own))
        .filter_map(|(n, line)| {
            let name = game.named_in(line)?;
            Some(format!(
                "{}:{}: `{name}` in: {}",
                file.display(),
                n + 1,
                line.trim()
            ))
        })
        .collect()
}

fn games() -> Vec<Game> {
    let real = umpire_catalog::registrations()
        .iter()
        .map(|r| Game::of(r, false));
    let tests = umpire_catalog::registrations_with_tests()
        .iter()
        .skip(umpire_catalog::registrations().len())
        .map(|r| Game::of(r, true));
    real.chain(tests).collect()
}

#[test]
fn no_code_outside_a_game_s_own_places_names_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = code_files(&root);
    let count = files.len();
    assert!(count > 100, "the sources are found ({count} files)");
    let games = games();
    assert!(
        games.len() > umpire_catalog::registrations().len(),
        "the test games are checked too"
    );
    let mut found = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            continue; // not text
        };
        for game in games.iter().filter(|g| !g.owns(file)) {
            found.extend(hits(file, &text, game));
        }
    }
    assert!(
        found.is_empty(),
        "code outside a game's own places names it; move it into the game's crate or board module:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_finds_a_game_in_any_spelling_and_only_whole_words() {
    let games = games();
    let game = &games[0];
    let id = game.id;
    let snake = id.replace('-', "_");
    let camel: String = words(id)
        .iter()
        .map(|w| w[..1].to_uppercase() + &w[1..])
        .collect();
    let text = format!(
        "ok\nconst game = '{id}';\nuse umpire_{snake}::Thing;\nlet x = {camel}::new();\n\
         the {name} rules\nfine\n#[cfg(test)]\nconst G: &str = \"{id}\";\n",
        name = umpire_catalog::registrations()[0].game.name()
    );
    let found = hits(Path::new("x.rs"), &text, game);
    let lines: Vec<&str> = found
        .iter()
        .map(|h| h.split(':').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(lines, ["2", "3", "4", "5"], "{found:#?}");
    // Its own lines in the catalogue are its to have.
    assert!(
        hits(
            Path::new("lib.rs"),
            &format!("    {}\n", game.lines[0]),
            game
        )
        .is_empty()
    );
    assert_eq!(
        words("showArmies: HTML5Parser"),
        ["show", "armies", "html5", "parser"]
    );
    // A word inside a longer one is another word.
    let word = games
        .iter()
        .flat_map(|g| &g.names)
        .find(|n| n.len() == 1)
        .expect("a one-word name")
        .join("");
    assert!(game_named(&games, &format!("un{word}ed")).is_none());
    assert!(game_named(&games, &format!("the {word}")).is_some());
}

fn game_named(games: &[Game], line: &str) -> Option<String> {
    games.iter().find_map(|g| g.named_in(line))
}
