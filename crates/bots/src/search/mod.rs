//! Information-set Monte Carlo tree search over the engine's typed API.
//!
//! Each iteration draws a whole state the seat cannot tell from the real
//! one ([`Game::sample`] from its view and memory), walks the tree from the
//! root with UCB1, adds one node, plays on with the game's rollout policy up
//! to a depth, scores the end with the game's evaluation and backs the
//! result up. All iterations share one tree keyed by actions, so statistics
//! pool over the states the seat thinks possible (single-observer ISMCTS).
//!
//! When both seats decide at once, each picks its own arm by its own
//! statistics (decoupled UCT) and both are applied. Large move sets are
//! handled by the game's candidate list, most promising first, which the
//! tree opens a few at a time as a node gains visits (progressive widening).
//!
//! ```
//! use umpire_bots::search::Budget;
//!
//! assert_eq!(Budget::parse("").unwrap(), Budget::default());
//! let b = Budget::parse(":500@50ms").unwrap();
//! assert_eq!((b.iterations, b.millis), (Some(500), Some(50)));
//! assert!(Budget::parse("@soon").is_err());
//! ```

mod tree;

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use rand::RngExt;
use rand::seq::SliceRandom;
use umpire_core::{
    Bot, BotInfo, Game, Level, MatchRng, PerSeat, Seat, SeatView, Think, Viewer, seeded_rng,
};

use tree::{Arm, Joint, SeatStats, Tree};

/// Game knowledge for the search; every hook has a game-blind default.
pub trait SearchGame: Game {
    /// How the tree spends its iterations.
    const TUNING: Tuning = Tuning::ROLLOUTS;
    /// The budget of a bot named without one: 200 ms a move.
    const BUDGET: Budget = Budget {
        iterations: None,
        millis: Some(200),
    };

    /// Draws whole states `me` cannot tell from the real one, as
    /// [`Game::sample`] does from its view and memory. Made once a search
    /// (on each of its threads), so a game may do once what every draw
    /// shares, such as counting the hidden possibilities.
    fn sampler<'a>(me: Seat, view: &'a Self::View, memory: &'a Self::Memory) -> Sampler<'a, Self> {
        Box::new(move |rng| Self::sample(Viewer::Seat(me), view, memory, rng))
    }

    /// The actions `seat` may consider here, most promising first: all the
    /// listed legal actions in random order, or distinct random draws when
    /// they are too many to list.
    fn candidates(&self, seat: Seat, rng: &mut MatchRng) -> Vec<Self::Action> {
        if let Some(listed) = self.legal_actions(seat) {
            let mut listed: Vec<Self::Action> = listed.collect();
            listed.shuffle(rng);
            return listed;
        }
        let mut drawn: Vec<Self::Action> = Vec::new();
        for _ in 0..DRAWS {
            if let Some(a) = self.sample_action(seat, rng)
                && !drawn.contains(&a)
            {
                drawn.push(a);
            }
        }
        drawn
    }

    /// The rollout policy: a uniformly random legal action by default.
    fn rollout_action(&self, seat: Seat, rng: &mut MatchRng) -> Option<Self::Action> {
        self.sample_action(seat, rng)
    }

    /// Whether the search stops below its root here and scores the state
    /// as it is (a depth limit for games whose decisions are costly to
    /// weigh). Default: never.
    fn horizon(&self) -> bool {
        false
    }

    /// P1's chances, in [0, 1], in a state the rollout stopped in before
    /// the end. Default: even.
    fn evaluate(&self) -> f64 {
        0.5
    }
}

/// Draws whole states of game `G` (see [`SearchGame::sampler`]).
pub type Sampler<'a, G> = Box<dyn FnMut(&mut MatchRng) -> G + 'a>;

/// How the tree spends its iterations: the constants of its formulas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// UCB1's exploration constant (rewards lie in [0, 1]).
    pub exploration: f64,
    /// Progressive widening: after n visits a seat may try
    /// `ceil(widen * sqrt(n))` of its candidates at a node.
    pub widen: f64,
    /// Rollout actions played past the tree before [`SearchGame::evaluate`].
    pub rollout_depth: usize,
}

impl Tuning {
    /// For a game that random play to the end tells something: long
    /// rollouts, and a tree that explores widely.
    pub const ROLLOUTS: Tuning = Tuning {
        exploration: 0.7,
        widen: 2.0,
        rollout_depth: 400,
    };

    /// For a game whose [`SearchGame::evaluate`] says more than random
    /// play: no rollouts, and a tree that trusts the evaluation, exploring
    /// little and opening its best candidates first.
    pub const EVALUATED: Tuning = Tuning {
        exploration: 0.2,
        widen: 1.5,
        rollout_depth: 0,
    };
}

/// Random draws for the candidates of a seat whose actions are not listed.
const DRAWS: usize = 32;

/// P1's reward for a finished game: 1 for a win, 0 for a loss, ½ for a draw.
fn reward<G: SearchGame>(state: &G) -> f64 {
    match state.outcome() {
        Some(o) => match o.winner {
            Some(Seat::P1) => 1.0,
            Some(Seat::P2) => 0.0,
            None => 0.5,
        },
        None => state.evaluate().clamp(0.0, 1.0),
    }
}

/// `1 / (1 + e^(-x / scale))`: a score lead mapped to a chance.
pub fn logistic(x: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-x / scale).exp())
}

/// How long a search may run: at most so many iterations, so many
/// milliseconds, or both (whichever comes first). Written after a bot's
/// name: `search:2000` (iterations), `search@200ms`, `search@1s`,
/// `search:2000@200ms`. The caller's [`Think`] can stop it sooner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub iterations: Option<u64>,
    pub millis: Option<u64>,
}

impl Default for Budget {
    /// 200 ms a move.
    fn default() -> Budget {
        Budget {
            iterations: None,
            millis: Some(200),
        }
    }
}

impl Budget {
    /// Parses `""`, `:N`, `@Tms`, `@Ts` or `:N@T…`.
    pub fn parse(arg: &str) -> Result<Budget, String> {
        if arg.is_empty() {
            return Ok(Budget::default());
        }
        let bad = || format!("`{arg}` is not a budget: use :ITERATIONS, @200ms, @2s or :N@200ms");
        let (count, time) = match arg.split_once('@') {
            Some((count, time)) => (count, Some(time)),
            None => (arg, None),
        };
        let iterations = match count.strip_prefix(':') {
            Some(n) => Some(n.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(bad)?),
            None if count.is_empty() => None,
            None => return Err(bad()),
        };
        let millis = match time {
            None => None,
            Some(t) => Some(parse_millis(t).ok_or_else(bad)?),
        };
        if iterations.is_none() && millis.is_none() {
            return Err(bad());
        }
        Ok(Budget { iterations, millis })
    }
}

fn parse_millis(t: &str) -> Option<u64> {
    let (n, scale) = match (t.strip_suffix("ms"), t.strip_suffix('s')) {
        (Some(n), _) => (n, 1),
        (None, Some(n)) => (n, 1000),
        (None, None) => return None,
    };
    n.parse::<u64>().ok()?.checked_mul(scale)
}

/// What one search found.
pub struct Found<A> {
    /// The most tried action of the seat at the root.
    pub action: Option<A>,
    /// Iterations on all threads together.
    pub iterations: u64,
}

/// Searches `me`'s move from its `view` and `memory` within `budget` (and
/// `think`) on `threads` threads. Never reads anything but those.
///
/// Threads search at the root in parallel: each grows a tree of its own
/// from draws of its own, and their root statistics are summed (root
/// parallelism: no locks, and the draws of hidden information, which vary
/// most, are spread widest). An iteration budget holds on each thread.
pub fn search<G: SearchGame>(
    me: Seat,
    view: &G::View,
    memory: &G::Memory,
    budget: Budget,
    threads: usize,
    think: &Think,
    rng: &mut MatchRng,
) -> Found<G::Action> {
    // A budget without a limit would search until `think` stops it.
    let budget = if budget.iterations.is_none() && budget.millis.is_none() {
        Budget::default()
    } else {
        budget
    };
    let deadline = budget
        .millis
        .map(|ms| Instant::now() + Duration::from_millis(ms));
    let grow =
        |rng: &mut MatchRng| grow::<G>(me, view, memory, budget.iterations, deadline, think, rng);
    let roots: Vec<(Vec<Arm<G::Action>>, u64)> = if threads <= 1 {
        vec![grow(rng)]
    } else {
        let seeds: Vec<u64> = (0..threads).map(|_| rng.random()).collect();
        std::thread::scope(|scope| {
            let grown: Vec<_> = seeds
                .into_iter()
                .map(|seed| scope.spawn(move || grow(&mut seeded_rng(seed))))
                .collect();
            // A thread that panicked loses only its share.
            grown.into_iter().filter_map(|t| t.join().ok()).collect()
        })
    };
    let iterations = roots.iter().map(|(_, n)| n).sum();
    let arms = tree::sum_arms(roots.into_iter().flat_map(|(arms, _)| arms));
    let best = tree::most_visited(&arms).map(|arm| arm.action.clone());
    // Not one iteration in time: the game's first candidate.
    let action = best.or_else(|| {
        let state = G::sample(Viewer::Seat(me), view, memory, rng);
        let first = state.candidates(me, rng).into_iter().next();
        first.or_else(|| state.sample_action(me, rng))
    });
    Found { action, iterations }
}

/// One tree grown until `iterations` or `deadline` (or `think`) says stop,
/// or at once when `me` has one candidate at the root (a forced choice,
/// such as a claim the game settles without weighing: the search would
/// spend its whole time to play it anyway): `me`'s arms at its root, and
/// the iterations run.
fn grow<G: SearchGame>(
    me: Seat,
    view: &G::View,
    memory: &G::Memory,
    iterations: Option<u64>,
    deadline: Option<Instant>,
    think: &Think,
    rng: &mut MatchRng,
) -> (Vec<Arm<G::Action>>, u64) {
    let out_of_time = || think.should_stop() || deadline.is_some_and(|d| Instant::now() >= d);
    let mut tree = Tree::new();
    let mut draw = G::sampler(me, view, memory);
    let mut done = 0u64;
    while iterations.is_none_or(|n| done < n) && !out_of_time() {
        let state = draw(rng);
        iterate(&mut tree, state, rng);
        done += 1;
        if done == 1 && tree.forced(me) {
            break;
        }
    }
    let root = tree.nodes.swap_remove(0).seats[me].take();
    (root.map(|s| s.arms).unwrap_or_default(), done)
}

/// One iteration on a drawn `state`: select, expand one node, roll out,
/// back up.
fn iterate<G: SearchGame>(tree: &mut Tree<G::Action>, mut state: G, rng: &mut MatchRng) {
    let mut path: Vec<(usize, Joint)> = Vec::new();
    let mut node = 0;
    loop {
        let seats = state.decision().seats();
        if seats.is_empty() || (node != 0 && state.horizon()) {
            break;
        }
        let mut joint: Joint = PerSeat::new(None, None);
        for seat in seats.iter() {
            match select(tree, node, &mut state, seat, rng) {
                Some(arm) => joint[seat] = Some(arm),
                // No action for a seat that must act: score it as it is.
                None => {
                    path.push((node, joint));
                    tree.back_up(&path, reward(&state));
                    return;
                }
            }
        }
        path.push((node, joint));
        let (child, new) = tree.child(node, joint);
        node = child;
        if new {
            break;
        }
    }
    rollout(&mut state, rng);
    tree.back_up(&path, reward(&state));
}

/// Picks and plays `seat`'s arm at `node`: the best by UCB1 that is legal
/// in this state (an opponent's options can depend on what is drawn).
fn select<G: SearchGame>(
    tree: &mut Tree<G::Action>,
    node: usize,
    state: &mut G,
    seat: Seat,
    rng: &mut MatchRng,
) -> Option<usize> {
    let stats = tree.nodes[node].seats[seat]
        .get_or_insert_with(|| SeatStats::new(state.candidates(seat, rng)));
    stats.visit(G::TUNING.widen);
    for arm in stats.ranked(G::TUNING.exploration) {
        if state.play(seat, &stats.arms[arm].action).is_ok() {
            return Some(arm);
        }
    }
    // None of the arms fits this state: one drawn from it.
    let action = state.sample_action(seat, rng)?;
    state.play(seat, &action).ok()?;
    Some(stats.add(action))
}

/// Plays the rollout policy up to the game's depth.
fn rollout<G: SearchGame>(state: &mut G, rng: &mut MatchRng) {
    for _ in 0..G::TUNING.rollout_depth {
        let seats = state.decision().seats();
        if seats.is_empty() {
            return;
        }
        for seat in seats.iter() {
            let Some(action) = state.rollout_action(seat, rng) else {
                return;
            };
            if state.play(seat, &action).is_err() {
                return;
            }
        }
    }
}

/// The search bot: remembers what its seat was shown, and searches each
/// move within its budget, on so many threads.
pub struct Search<G: SearchGame> {
    memory: G::Memory,
    budget: Budget,
    threads: usize,
    game: PhantomData<fn() -> G>,
}

impl<G: SearchGame> Search<G> {
    pub fn new(budget: Budget, threads: usize) -> Search<G> {
        Search {
            memory: G::Memory::default(),
            budget,
            threads,
            game: PhantomData,
        }
    }
}

impl<G: SearchGame> Bot for Search<G> {
    fn observe(&mut self, seat: SeatView<'_>) {
        seat.remember::<G>(&mut self.memory);
    }

    fn choose(&mut self, seat: SeatView<'_>, think: &Think, rng: &mut MatchRng) -> Option<String> {
        self.observe(seat);
        let view = seat.typed_view::<G>()?;
        let found = search::<G>(
            seat.seat(),
            &view,
            &self.memory,
            self.budget,
            self.threads,
            think,
            rng,
        );
        found.action.map(|a| a.to_string())
    }
}

/// The search bot of a game: `search`, the hard level, 200 ms a move on
/// one thread unless the game's [`SearchGame::BUDGET`] says otherwise.
pub const fn bot<G: SearchGame>() -> BotInfo {
    BotInfo {
        name: "search",
        level: Level::Hard,
        about: "information-set Monte Carlo tree search, 200 ms a move \
            (search:ITERATIONS or search@TIME for other budgets)",
        make: |arg| boxed::<G>(arg, G::BUDGET, 1),
    }
}

/// The expert's time a move.
pub const EXPERT_BUDGET: Budget = Budget {
    iterations: None,
    millis: Some(2_000),
};

/// The expert bot of a game: the hard level's search on every core the
/// machine has, 2 s a move.
pub const fn expert<G: SearchGame>() -> BotInfo {
    BotInfo {
        name: "expert",
        level: Level::Expert,
        about: "the hard level's search on every core of the server, 2 s a move \
            (expert@TIME for another time)",
        make: |arg| boxed::<G>(arg, EXPERT_BUDGET, cores()),
    }
}

/// The cores this process may run on.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A search bot for `G` on `threads` threads, its budget read from `arg`
/// (`default` when empty).
fn boxed<G: SearchGame>(
    arg: &str,
    default: Budget,
    threads: usize,
) -> Result<Box<dyn Bot>, String> {
    let budget = if arg.is_empty() {
        default
    } else {
        Budget::parse(arg)?
    };
    Ok(Box::new(Search::<G>::new(budget, threads)))
}

#[cfg(test)]
mod tests {
    use umpire_core::testing::SealedBids;

    use super::*;

    impl SearchGame for SealedBids {}

    #[test]
    fn threads_grow_trees_apart_and_their_roots_are_summed() {
        let state = SealedBids::new(&Default::default(), 1).expect("the default config");
        let view = state.view(Viewer::Seat(Seat::P1));
        let budget = Budget {
            iterations: Some(50),
            millis: None,
        };
        let think = Think::unlimited();
        let mut rng = seeded_rng(1);
        let found = search::<SealedBids>(
            Seat::P1,
            &view,
            &Default::default(),
            budget,
            3,
            &think,
            &mut rng,
        );
        assert_eq!(found.iterations, 150, "50 on each of 3 threads");
        let action = found.action.expect("an action");
        assert!(state.clone().play(Seat::P1, &action).is_ok(), "{action}");
    }

    #[test]
    fn the_roots_arms_are_summed_by_action() {
        let arm = |action: &'static str, visits: u32, reward: f64| Arm {
            action,
            visits,
            reward,
        };
        let summed = tree::sum_arms([arm("a", 3, 1.0), arm("b", 4, 4.0), arm("a", 2, 2.0)]);
        let best = tree::most_visited(&summed).expect("arms");
        assert_eq!((best.action, best.visits, best.reward), ("a", 5, 3.0));
        assert_eq!(summed.len(), 2);
    }
}
