//! `umpire play` through a real pseudo-terminal, read back as a screen: a
//! person typing, pressing Ctrl-C and Ctrl-D, and what stays on their screen.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 60;
const COLS: u16 = 200;
const WAIT: Duration = Duration::from_secs(60);

/// `umpire` running on a pseudo-terminal, and everything it wrote.
struct Term {
    writer: Box<dyn Write + Send>,
    output: Arc<Mutex<Vec<u8>>>,
    child: Box<dyn Child + Send + Sync>,
}

impl Term {
    fn start(args: &[&str], env: &[(&str, &str)]) -> Term {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_umpire"));
        cmd.args(args);
        cmd.env_remove("NO_COLOR");
        for (key, value) in env {
            cmd.env(key, value);
        }
        let child = pair.slave.spawn_command(cmd).expect("umpire starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let output = Arc::new(Mutex::new(Vec::new()));
        let sink = output.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        let writer = pair.master.take_writer().unwrap();
        // The master must outlive the child's output: it is kept open by
        // the reader and writer, so it may go now.
        drop(pair.master);
        Term {
            writer,
            output,
            child,
        }
    }

    /// Everything written so far, as text (escapes included).
    fn raw(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    /// The screen as a terminal shows it now.
    fn parsed(&self) -> vt100::Parser {
        let size = |n| std::num::NonZeroU16::new(n).expect("a size");
        let mut parser = vt100::Parser::new(size(ROWS), size(COLS), 0);
        parser.process(&self.output.lock().unwrap());
        parser
    }

    fn screen(&self) -> String {
        self.parsed().screen().contents()
    }

    /// How many prompts have been shown.
    fn prompts(&self) -> usize {
        self.raw().matches("P1> ").count()
    }

    fn type_line(&mut self, line: &str) {
        self.send(format!("{line}\r").as_bytes());
    }

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }

    /// Waits until `done` holds, or panics with the screen.
    fn wait_until(&mut self, what: &str, done: impl Fn(&Term) -> bool) {
        let start = Instant::now();
        while !done(self) {
            assert!(
                start.elapsed() < WAIT,
                "waited for {what}; the screen:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the prompt after `n` prompts, or for the end.
    fn wait_for_prompt(&mut self, n: usize) {
        self.wait_until("a prompt", |t| t.prompts() > n || t.exited());
        // The prompt is the last thing written: let the output settle.
        std::thread::sleep(Duration::from_millis(50));
    }

    fn exited(&self) -> bool {
        self.raw().contains("Record saved to")
    }

    /// The first action the latest prompt suggests (its first backticked
    /// span).
    fn suggestion(&self) -> String {
        let raw = self.raw();
        let before = &raw[..raw.rfind("P1> ").expect("a prompt")];
        let line = before
            .lines()
            .rev()
            .find(|l| l.contains('`'))
            .expect("a prompt that suggests an action");
        line.split('`').nth(1).unwrap().to_string()
    }

    /// Waits for the process to end; its exit code, its screen's last line
    /// and all it wrote.
    fn finish(mut self) -> (u32, String, String) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                start.elapsed() < WAIT,
                "umpire did not end:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        // Let the reader take the last output.
        std::thread::sleep(Duration::from_millis(100));
        let screen = self.screen();
        let last = screen
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default()
            .trim()
            .to_string();
        (status.exit_code(), last, self.raw())
    }
}

/// `umpire replay FILE`: its exit code and what it printed.
fn replay(path: &Path) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["replay", path.to_str().unwrap()])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// How a test leaves the match.
#[derive(Clone, Copy, Debug)]
enum Leave {
    Resign,
    Quit,
    CtrlC,
    CtrlD,
}

/// Plays `game` for two of the person's decisions (each the prompt's own
/// suggestion), leaves by `how`, and checks the exit code, the last line and
/// the record.
fn leave(game: &str, how: Leave) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.json");
    let mut term = Term::start(
        &[
            "play",
            game,
            "--seed",
            "5",
            "--record",
            path.to_str().unwrap(),
        ],
        &[],
    );
    for n in 1..=2 {
        term.wait_for_prompt(n - 1);
        let action = term.suggestion();
        term.type_line(&action);
    }
    term.wait_for_prompt(2);
    if game == "four-statements" {
        // Each phase message is said once.
        let raw = term.raw();
        assert_eq!(raw.matches("both bluffs are in").count(), 1, "{raw}");
    }
    match how {
        Leave::Resign => term.type_line("resign"),
        Leave::Quit => term.type_line("quit"),
        Leave::CtrlC => term.send(b"\x03"),
        Leave::CtrlD => term.send(b"\x04"),
    }
    let (code, last, raw) = term.finish();
    if let Leave::Resign = how {
        // Who resigned is said, and after it no turn is offered.
        let after = &raw[raw.rfind("P1 resigned.").expect("the resignation is said")..];
        assert!(
            !after.contains("P1> ") && !after.contains("your turn"),
            "{after}"
        );
    }
    let (expected_code, expected) = match how {
        Leave::Resign => (0, "You lose (decided by resignation): P1 resigned; P2 wins"),
        Leave::Quit => (
            0,
            "You quit: the match is left unfinished, and nobody wins.",
        ),
        Leave::CtrlC => (
            130,
            "Interrupted (Ctrl-C): the match is left unfinished, and nobody wins.",
        ),
        Leave::CtrlD => (
            0,
            "Your input ended: the match is left unfinished, and nobody wins.",
        ),
    };
    assert_eq!(
        (code, last.as_str()),
        (expected_code, expected),
        "{game} {how:?}"
    );
    let (code, text) = replay(&path);
    assert_eq!(code, Some(0), "{game} {how:?}: {text}");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    match how {
        Leave::Resign => {
            assert!(text.contains("P1 resigned; P2 wins"), "{game}: {text}");
            assert_eq!(record["outcome"]["winner"], "P2");
        }
        _ => {
            assert!(text.contains("Left unfinished: "), "{game} {how:?}: {text}");
            assert!(record["unfinished"].is_string(), "{game} {how:?}");
            assert!(record["outcome"].is_null(), "{game} {how:?}");
        }
    }
    // Two of the person's moves and at least one of the bot's are in it.
    assert!(
        record["actions"].as_array().unwrap().len() >= 3,
        "{game} {how:?}: {record}"
    );
}

fn every_way_out(game: &str) {
    for how in [Leave::Resign, Leave::Quit, Leave::CtrlC, Leave::CtrlD] {
        leave(game, how);
    }
}

#[test]
fn masked_army_every_way_out_keeps_a_record_and_says_how() {
    every_way_out("masked-army");
}

#[test]
fn flower_domain_every_way_out_keeps_a_record_and_says_how() {
    every_way_out("flower-domain");
}

#[test]
fn four_statements_every_way_out_keeps_a_record_and_says_how() {
    every_way_out("four-statements");
}

#[test]
fn bomb_domain_every_way_out_keeps_a_record_and_says_how() {
    every_way_out("bomb-domain");
}

#[test]
fn pentomino_wall_every_way_out_keeps_a_record_and_says_how() {
    every_way_out("pentomino-wall");
}

/// The line of the screen that says what P2 did.
fn p2_line(screen: &str) -> String {
    screen
        .lines()
        .find(|l| l.starts_with("P2 placed"))
        .unwrap_or_else(|| panic!("P2's move is said:\n{screen}"))
        .trim()
        .to_string()
}

/// "All previous board updates and your moves will be deleted": after each
/// move, the screen holds the current view only.
#[test]
fn masked_army_shows_no_earlier_move_after_the_next() {
    let mut term = Term::start(&["play", "masked-army", "--seed", "2"], &[]);
    term.wait_for_prompt(0);
    term.type_line("first P1");
    term.wait_for_prompt(1);
    let first = term.suggestion();
    term.type_line(&first);
    term.wait_for_prompt(2);
    let screen = term.parsed();
    assert!(screen.screen().alternate_screen());
    let screen = screen.screen().contents();
    let mine = format!("on {}", &first[..2]);
    assert!(
        !screen.contains(&first),
        "{first} is still on screen:\n{screen}"
    );
    assert!(
        !screen.contains(&mine) && !screen.contains("places first"),
        "{screen}"
    );
    let theirs = p2_line(&screen);
    let second = term.suggestion();
    term.type_line(&second);
    term.wait_for_prompt(3);
    let screen = term.screen();
    for earlier in [first.as_str(), &second, &theirs, &mine] {
        assert!(
            !screen.contains(earlier),
            "`{earlier}` is still on screen:\n{screen}"
        );
    }
    assert_ne!(p2_line(&screen), theirs);
    term.type_line("resign");
    let (code, last, _) = term.finish();
    assert_eq!(
        (code, last.as_str()),
        (0, "You lose (decided by resignation): P1 resigned; P2 wins")
    );
}

/// Whether any cell of the screen is drawn in a colour.
fn coloured(term: &Term) -> bool {
    let parser = term.parsed();
    let screen = parser.screen();
    (0..ROWS).any(|row| {
        (0..COLS).any(|col| {
            screen
                .cell(row, col)
                .is_some_and(|c| c.fgcolor() != vt100::Color::Default)
        })
    })
}

/// Colours on a terminal unless NO_COLOR is set; `--color` overrides both.
#[test]
fn colours_follow_no_color_and_the_color_option() {
    for (args, env, expected) in [
        (&[][..], &[][..], true),
        (&[], &[("NO_COLOR", "1")], false),
        (&["--color", "always"], &[("NO_COLOR", "1")], true),
        (&["--color", "never"], &[], false),
    ] {
        let mut all = vec!["play", "bomb-domain", "--seed", "1"];
        all.extend(args);
        let mut term = Term::start(&all, env);
        term.wait_for_prompt(0);
        assert_eq!(coloured(&term), expected, "{args:?} {env:?}");
        term.type_line("quit");
        term.finish();
    }
}
