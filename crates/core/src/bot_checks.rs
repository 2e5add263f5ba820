//! What every game's tests check of its bots: matches between bots, their
//! wins, and that a bot reads nothing but its seat's window.
//!
//! ```
//! use umpire_core::bot_checks::wins;
//! use umpire_core::testing::REGISTRATION;
//!
//! // Bidding 3 every round beats bidding at random more often than not.
//! assert!(wins(&REGISTRATION, "eager", "random", 20) > 10);
//! ```

use serde_json::{Value, json};

use crate::{
    AnyGame, Bot, Erased, Game, Match, MatchOptions, Registration, Seat, SeatView, Think, Viewer,
    seeded_rng,
};

/// Plays one untimed match of `game` with `config` between `bots` (P1's,
/// then P2's) from `seed`; returns the winner and every action in order.
/// Panics if a bot has no action when it must act or names an illegal one.
pub fn play(
    game: &'static dyn AnyGame,
    config: &Value,
    mut bots: [Box<dyn Bot>; 2],
    seed: u64,
) -> (Option<Seat>, Vec<String>) {
    let mut m = Match::new(game, config, seed, MatchOptions::untimed()).expect("a valid config");
    let mut rng = seeded_rng(seed);
    let think = Think::unlimited();
    let mut actions = Vec::new();
    while let Some(seat) = m.decision().seats().iter().next() {
        for s in Seat::BOTH {
            bots[s.index()].observe(m.seat_view(s));
        }
        let action = bots[seat.index()]
            .choose(m.seat_view(seat), &think, &mut rng)
            .expect("a bot to move has an action");
        m.submit(seat, &action, 0)
            .unwrap_or_else(|e| panic!("{seat} played `{action}`: {e}"));
        actions.push(action);
    }
    (m.outcome().expect("the end").winner, actions)
}

/// One match of a registered game between bots named `names` (P1's, P2's).
pub fn play_named(
    registration: &Registration,
    names: [&str; 2],
    seed: u64,
) -> (Option<Seat>, Vec<String>) {
    let bots = names.map(|n| registration.make_bot(n).expect("a known bot"));
    play(registration.game, &json!({}), bots, seed)
}

/// The wins of bot `bot` against `other` over `games` games of a
/// registered game (default config), seats swapped every other game.
pub fn wins(registration: &Registration, bot: &str, other: &str, games: u64) -> u64 {
    let won = |seed: &u64| {
        let (me, names) = match seed % 2 {
            0 => (Seat::P1, [bot, other]),
            _ => (Seat::P2, [other, bot]),
        };
        play_named(registration, names, *seed).0 == Some(me)
    };
    (0..games).filter(won).count() as u64
}

/// Bot `bot` wins at least `least` of `games` games against `other`
/// ([`wins`]): a strength a game's bots claim.
pub fn assert_wins(registration: &Registration, bot: &str, other: &str, least: u64, games: u64) {
    let won = wins(registration, bot, other, games);
    assert!(
        won >= least,
        "{bot} won {won} of {games} against {other}, not {least}"
    );
}

/// A bot handed two states its seat cannot tell apart (same view, same
/// memory) chooses the same action from the same seed: it reads nothing
/// but its seat's window. Along random games of `G`, wherever a state drawn
/// from a seat's view differs from the real one, a new bot made by `make`
/// is asked on both; panics unless `checks` such places are compared.
pub fn assert_blind_to_hidden<G: Game>(make: impl Fn() -> Box<dyn Bot>, checks: usize) {
    let game = crate::erase::<G>();
    let mut compared = 0;
    for seed in 0..20u64 {
        let mut m = Match::new(game, &json!({}), seed, MatchOptions::untimed()).unwrap();
        let mut rng = seeded_rng(seed);
        while let Some(seat) = m.decision().seats().iter().next() {
            let real = m.state().downcast::<G>().unwrap().clone();
            for me in m.decision().seats().iter() {
                let view = real.view(Viewer::Seat(me));
                let mut memory = G::Memory::default();
                G::remember(&mut memory, &view);
                let other = G::sample(Viewer::Seat(me), &view, &memory, &mut rng);
                assert_eq!(other.view(Viewer::Seat(me)), view);
                if other == real || compared >= checks {
                    continue;
                }
                let choices: Vec<Option<String>> = [&real, &other]
                    .into_iter()
                    .map(|state| {
                        let erased = Erased(state.clone());
                        let window = SeatView::new(&erased, me);
                        make().choose(window, &Think::unlimited(), &mut seeded_rng(seed))
                    })
                    .collect();
                assert!(choices[0].is_some());
                assert_eq!(choices[0], choices[1], "{} seed {seed}, {me}", G::ID);
                compared += 1;
            }
            if compared >= checks {
                return;
            }
            let action = m.seat_view(seat).sample_action(&mut rng).unwrap();
            m.submit(seat, &action, 0).unwrap();
        }
    }
    panic!(
        "{}: only {compared} of {checks} places with hidden differences",
        G::ID
    );
}

/// A game's bot claims, one `#[test]` each, so that a game's bots test is
/// a table: `name: wins(bot, other, least, games);` is a strength
/// ([`assert_wins`]), `name: blind(bot, checks);` a bot that reads nothing
/// but its seat's window ([`assert_blind_to_hidden`]).
///
/// ```
/// use umpire_core::testing::{REGISTRATION, SealedBids};
///
/// umpire_core::bot_tests! {
///     SealedBids, REGISTRATION;
///     /// Bidding 3 every round beats bidding at random more often than not.
///     eager_beats_random: wins("eager", "random", 11, 20);
///     eager_is_blind: blind("eager", 4);
/// }
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! bot_tests {
    ($game:ty, $registration:expr;
     $($(#[$doc:meta])* $name:ident: $check:ident($($arg:expr),* $(,)?);)+) => {
        $(
            $(#[$doc])*
            #[test]
            fn $name() {
                $crate::bot_tests!(@$check $game, $registration, $($arg),*);
            }
        )+
    };
    (@wins $game:ty, $registration:expr, $bot:expr, $other:expr, $least:expr, $games:expr) => {
        $crate::bot_checks::assert_wins(&$registration, $bot, $other, $least, $games)
    };
    (@blind $game:ty, $registration:expr, $bot:expr, $checks:expr) => {
        $crate::bot_checks::assert_blind_to_hidden::<$game>(
            || $registration.make_bot($bot).expect("a known bot"),
            $checks,
        )
    };
}
